"""A worker killed after its duplicate filter claimed a bilingual verdict and before the verdict's
backlink query was held in Redis: the verdict, emitted again by another worker (a redelivered
request), is dropped as written, and that worker asks the backlinks, once crawl-wide."""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider.distributed.backlinks_asked import SharedBacklinksAsked
from bilingual_spider.middlewares.backlink_expansion import (
    BACKLINKS_OF_META,
    BacklinkExpansionMiddleware,
)
from tests.crawlers import get_crawler
from tests.middlewares.test_backlink_expansion import RecordingSearch, verdict


def worker(redis, base: str) -> tuple[BacklinkExpansionMiddleware, RecordingSearch]:
    search = RecordingSearch()
    stats = MemoryStatsCollector(get_crawler())
    asked = SharedBacklinksAsked(redis, base)
    return BacklinkExpansionMiddleware(search, stats, asked=asked), search  # type: ignore[arg-type]


def test_a_verdict_dropped_as_written_asks_the_backlinks_its_dead_writer_never_asked(
    redis, redis_prefix
):
    live, search = worker(redis, f"{redis_prefix}:backforth")
    live.item_dropped(verdict("mono.example", False))
    live.item_dropped(verdict("bi.example", True))  # its writer died before asking
    assert [meta[BACKLINKS_OF_META] for _, meta in search.submitted] == ["bi.example"]
    assert live.stats.get_value("backlinks/queries_asked_again") == 1
    live.item_dropped(verdict("bi.example", True))  # emitted again once more: asked already
    other, elsewhere = worker(redis, f"{redis_prefix}:backforth")
    other.item_dropped(verdict("bi.example", True))
    assert len(search.submitted) == 1 and elsewhere.submitted == []


def test_a_verdict_whose_writer_asked_its_backlinks_asks_nothing_when_dropped(redis, redis_prefix):
    writer, _ = worker(redis, f"{redis_prefix}:backforth")
    writer.item_scraped(verdict("bi.example", True))
    live, search = worker(redis, f"{redis_prefix}:backforth")
    live.item_dropped(verdict("bi.example", True))
    assert search.submitted == [] and live.stats.get_value("backlinks/queries_asked_again") is None
