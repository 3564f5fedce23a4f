"""A request's duplicate key: on Redis, any two requests with the same key are one for the
duplicate filter, whatever their URLs; ``backforth`` keys its forward and seed requests by site,
so several workers make one request a site, as one process does."""

from __future__ import annotations

import scrapy

from bilingual_spider.state.request_meta import DUPLICATE_KEY_META
from tests.distributed.test_held_requests import scheduler
from tests.spiders.test_backforth_arguments import spider as backforth_spider


def request(url: str, key: str | None = None) -> scrapy.Request:
    return scrapy.Request(url, meta={} if key is None else {DUPLICATE_KEY_META: (url, key)})


def test_two_workers_queue_one_request_a_key_whatever_its_url(redis_prefix):
    first, _ = scheduler(redis_prefix, 30)
    second, _ = scheduler(redis_prefix, 30)
    try:
        assert first.enqueue_request(request("http://www.museo.example/a", "site museo"))
        assert not second.enqueue_request(request("http://www.museo.example/b", "site museo"))
        assert second.enqueue_request(request("http://www.museo.example/b"))  # no key: its URL
        assert not first.enqueue_request(request("http://www.museo.example/b"))
        assert second.enqueue_request(request("http://www.hotel.example/", "site hotel"))
        # redirected (Scrapy's RedirectMiddleware: the same meta, another URL): by its URL
        redirect = request("http://www.hotel.example/", "site hotel").replace(
            url="http://www.hotel.example/en/"
        )
        assert first.enqueue_request(redirect)
        assert first.frontier.counters()["queued"] == 4
        assert second.crawler.stats.get_value("dupefilter/filtered") == 1
    finally:
        first.close("finished")
        second.close("finished")


def test_backforth_keys_its_forward_and_seed_requests_by_site():
    backforth = backforth_spider("cobfc")
    seed = backforth.seed_request("http://www.museo.example/")
    forward = backforth._request("http://www.museo.example/collection/", "forward")
    other = backforth._request("http://www.hotel.example/rooms", "forward")
    backlink = backforth._request("http://www.hub.example/links", "backlink")
    requests = (seed, forward, other, backlink)
    keys = [r.meta.get(DUPLICATE_KEY_META, (r.url, None)) for r in requests]
    assert [url for url, _ in keys] == [r.url for r in requests]  # each bound to its URL
    assert keys[0][1] == keys[1][1] != keys[2][1]
    assert keys[3][1] is None and backlink.dont_filter  # a backlink page: any number of times


def test_backforth_workers_on_redis_request_a_backlink_page_once_crawl_wide(redis_prefix):
    """A hub is a backlink page of many bilingual sites, judged by several workers: each worker
    claims it once in its own graph, and the shared duplicate filter keeps one request of it
    across workers (by its own key: a page the crawl requested as a forward page is requested
    again as a backlink page)."""
    from tests.conftest import REDIS_URL

    redis = {"REDIS_URL": REDIS_URL, "BILINGUAL_REDIS_KEY_PREFIX": redis_prefix}
    workers = [backforth_spider("cobfc", **redis) for _ in range(2)]
    assert all(w.shares_requests for w in workers) and not backforth_spider().shares_requests
    hub = "http://www.hub.example/links"

    def queued(request: scrapy.Request) -> scrapy.Request:  # as queued (no spider callbacks)
        return scrapy.Request(request.url, meta=request.meta, dont_filter=request.dont_filter)

    requests = [queued(w._request(hub, "backlink")) for w in workers]
    assert all(not r.dont_filter for r in requests)
    first, _ = scheduler(redis_prefix, 30)
    second, _ = scheduler(redis_prefix, 30)
    try:
        assert first.enqueue_request(queued(workers[0]._request(hub, "forward")))
        assert first.enqueue_request(requests[0])
        assert not second.enqueue_request(requests[1])
    finally:
        first.close("finished")
        second.close("finished")
