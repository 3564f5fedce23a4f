"""Whether the crawl of every worker is idle, asked fresh from Redis (a spider that moves the
crawl to its next stage asks it under its lock), and a worker's own processed requests no longer
keeping the crawl busy."""

from __future__ import annotations

from types import SimpleNamespace

import scrapy

from tests.distributed.test_held_requests import scheduler


def in_progress(worker, *requests: scrapy.Request) -> None:
    worker.crawler.engine._slot = SimpleNamespace(inprogress=set(requests))


def test_the_crawl_is_idle_once_no_worker_has_a_request_queued_or_in_flight(redis_prefix):
    first, spider = scheduler(redis_prefix, 30)
    second, _ = scheduler(redis_prefix, 30)
    try:
        assert first.enqueue_request(scrapy.Request("http://a.example/", callback=spider.parse))
        assert not first.crawl_is_idle() and not second.crawl_is_idle()  # queued
        request = second.next_request()
        assert request is not None
        in_progress(second, request)
        assert not first.crawl_is_idle() and not second.crawl_is_idle()  # in flight at second
        in_progress(second)
        assert not first.crawl_is_idle()  # still leased: second has not acknowledged it yet
        assert second.crawl_is_idle()  # acknowledged first
        assert first.crawl_is_idle()
    finally:
        first.close("finished")
        second.close("finished")


def test_a_workers_own_processed_request_does_not_keep_it_waiting(redis_prefix):
    worker, spider = scheduler(redis_prefix, 30)
    try:
        worker.enqueue_request(scrapy.Request("http://a.example/", callback=spider.parse))
        request = worker.next_request()
        in_progress(worker, request)
        assert worker.has_pending_requests()
        in_progress(worker)  # processed: the engine would now ask whether anything is left
        worker._next_status_at = 0.0
        assert not worker.has_pending_requests()
    finally:
        worker.close("finished")
