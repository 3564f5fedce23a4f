"""Requests a component holds back before releasing them (the search service's queries waiting
for their API's rate) are in Redis from the moment they are held: released, they are not queued
twice; held by a worker that dies, they come back to another worker."""

from __future__ import annotations

from types import SimpleNamespace

import scrapy

from bilingual_spider.scheduler.leased_scheduler import (
    HELD_META,
    REDELIVERED_META,
    LeasedScheduler,
)
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler
from tests.waiting import wait_until


class Spider(scrapy.Spider):
    name = "held"

    def parse_answer(self, response):
        return None


def scheduler(prefix: str, lease_seconds: float, **more: object) -> tuple[LeasedScheduler, Spider]:
    """A worker's scheduler, opened (without a crawl)."""
    settings = {
        "REDIS_URL": REDIS_URL,
        "BILINGUAL_REDIS_KEY_PREFIX": prefix,
        "BILINGUAL_REDIS_LEASE_SECONDS": lease_seconds,
        **more,
    }
    crawler = get_crawler(Spider, settings)
    spider = Spider()
    result = LeasedScheduler.from_crawler(crawler)
    crawler.engine = SimpleNamespace(_slot=None, scheduler=result)  # nothing in progress
    result.open(spider)
    return result, spider


def query(spider: Spider) -> scrapy.Request:
    return scrapy.Request(
        "http://api.example/links?target=a", callback=spider.parse_answer, dont_filter=True
    )


def test_a_held_request_is_queued_once_when_released(redis_prefix):
    worker, spider = scheduler(redis_prefix, 30)
    try:
        held_id = worker.hold(query(spider))
        status = worker.frontier.status()
        assert (status.queued, status.leased) == (0, 1)  # in Redis, leased to this worker
        released = query(spider)
        released.meta[HELD_META] = held_id
        assert worker.enqueue_request(released)
        assert worker.next_request() is released and HELD_META not in released.meta
        assert worker.frontier.counters()["queued"] == 1
    finally:
        worker.close("finished")


def test_a_request_held_by_a_dead_worker_goes_to_another(redis_prefix):
    dead, spider = scheduler(redis_prefix, 0.2)
    dead.hold(query(spider))  # then it dies: nobody renews the lease
    dead._renewal.stop()
    live, _ = scheduler(redis_prefix, 30)
    try:
        request = wait_until(live.next_request)  # once the dead worker's lease is over
        assert request.url == "http://api.example/links?target=a"
        assert request.callback.__name__ == "parse_answer"
        assert request.meta[REDELIVERED_META] == dead.frontier.worker
    finally:
        live.close("finished")
