"""The crawl's stats collector: Scrapy's in-memory one, its values the same, its methods not
wrapped by Scrapy's deprecation check on every call."""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from bilingual_spider import settings
from bilingual_spider.stats_collector import PlainStatsCollector


def updates(stats: MemoryStatsCollector) -> dict:
    stats.open_spider()
    stats.inc_value("pages")
    stats.inc_value("pages", 2)
    stats.inc_value("started", start=10)
    stats.set_value("rate", 0.5)
    stats.max_value("depth", 3)
    stats.max_value("depth", 2)
    stats.min_value("first", 4)
    stats.min_value("first", 1)
    stats.set_value("read", stats.get_value("pages", 0) + stats.get_value("missing", 7))
    return dict(stats.get_stats())


def test_the_crawl_uses_it_and_it_keeps_what_scrapys_collector_keeps() -> None:
    crawler = get_crawler(settings_dict={"STATS_CLASS": settings.STATS_CLASS})
    assert type(crawler.stats) is PlainStatsCollector
    plain, scrapys = crawler.stats, MemoryStatsCollector(get_crawler())
    assert updates(plain) == updates(scrapys) == {
        "pages": 3, "started": 11, "rate": 0.5, "depth": 3, "first": 1, "read": 10,
    }  # fmt: skip


def test_its_methods_are_its_own_not_wrapped_per_call() -> None:
    """Scrapy's collector hands out a wrapper of each method (cached on the instance as
    ``_cached_<name>``) that checks the arguments for a ``spider``; this one, the method."""
    plain, scrapys = PlainStatsCollector(get_crawler()), MemoryStatsCollector(get_crawler())
    for stats in (plain, scrapys):
        stats.inc_value("pages")
    assert plain.inc_value.__func__ is MemoryStatsCollector.inc_value
    assert not [name for name in vars(plain) if name.startswith("_cached_")]
    assert "_cached_inc_value" in vars(scrapys), (
        "Scrapy's collector no longer wraps its methods per instance: PlainStatsCollector may go"
    )
