"""The shared politeness middleware of a distributed crawl on the real Redis (this test's own key
prefix): a worker restarted under its name frees, when its spider opens, the host slots its
former self was killed holding."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from scrapy import Request, Spider, signals

from bilingual_spider.middlewares.shared_politeness import SLOT_META, SharedPolitenessMiddleware
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler


def opened_worker(prefix: str, name: str | None) -> SharedPolitenessMiddleware:
    """The middleware of a worker of the crawl under ``prefix`` (named ``name``, or a random
    name), its spider opened."""
    settings = {"REDIS_URL": REDIS_URL, "BILINGUAL_REDIS_KEY_PREFIX": prefix}
    settings |= {"BILINGUAL_REDIS_WORKER_NAME": name, "CONCURRENT_REQUESTS_PER_DOMAIN": 1}
    settings |= {"DOWNLOAD_DELAY": 0.5, "LOGSTATS_INTERVAL": 0}  # no periodic log: no reactor
    crawler = get_crawler(Spider, settings)
    crawler.stats.open_spider()
    middleware = SharedPolitenessMiddleware.from_crawler(crawler)
    crawler.engine = SimpleNamespace(downloader=SimpleNamespace(_delay=0.5))
    crawler.signals.send_catch_log(signals.spider_opened, spider=Spider("test"))
    return middleware


def killed_holding(middleware: SharedPolitenessMiddleware, url: str) -> None:
    """``middleware``'s worker took the slot of ``url``'s host and was killed before the
    response came."""
    request = Request(url)
    asyncio.run(middleware.process_request(request))
    assert SLOT_META in request.meta


def test_a_named_worker_restarted_frees_its_former_self_slots_when_its_spider_opens(
    redis_prefix,
):
    killed_holding(opened_worker(redis_prefix, "w1"), "http://a.example/")
    killed_holding(opened_worker(redis_prefix, None), "http://b.example/")  # a random name
    restarted = opened_worker(redis_prefix, "w1")
    assert restarted.stats.get_value("politeness/shared/released_at_restart") == 1
    slots = restarted.slots
    assert slots.acquire("a.example", slots.token()) is not None  # free at once
    assert slots.acquire("b.example", slots.token()) is None  # the other worker's still held
    another = opened_worker(redis_prefix, "w2")
    assert another.stats.get_value("politeness/shared/released_at_restart") is None
