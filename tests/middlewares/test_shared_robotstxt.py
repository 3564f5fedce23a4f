"""The shared robots.txt middleware of a distributed crawl, with two workers' middlewares on the
real Redis (this test's own key prefix) and a fake downloader: each host's robots.txt is fetched
once, whatever the order in which the workers look, claim and store."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from scrapy import Request
from scrapy.http import Response

from bilingual_spider.middlewares.shared_robotstxt import SharedRobotsTxtMiddleware
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler

HOST = "http://site.example"
ROBOTS = b"User-agent: *\nDisallow: /private/\n"


def middleware(fetched: list[str], **settings: object) -> SharedRobotsTxtMiddleware:
    """A crawl's middleware with ``settings``; every robots.txt it downloads is appended to
    ``fetched``."""
    crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True, **settings})

    async def download_async(request: Request) -> Response:
        fetched.append(request.url)
        return Response(request.url, body=ROBOTS, request=request)

    crawler.engine = SimpleNamespace(download_async=download_async)
    return SharedRobotsTxtMiddleware(crawler)


def worker(prefix: str, fetched: list[str]) -> SharedRobotsTxtMiddleware:
    """One worker's middleware in the crawl under ``prefix`` on the real Redis."""
    return middleware(fetched, REDIS_URL=REDIS_URL, BILINGUAL_REDIS_KEY_PREFIX=prefix)


def allowed(mw: SharedRobotsTxtMiddleware, path: str) -> bool:
    parser = asyncio.run(mw.robot_parser(Request(HOST + path)))
    return parser is None or parser.allowed(HOST + path, "bilingual_spider")


def test_a_second_worker_reads_the_rules_the_first_one_fetched(redis_prefix):
    fetched: list[str] = []
    first, second = worker(redis_prefix, fetched), worker(redis_prefix, fetched)
    assert not allowed(first, "/private/a") and allowed(first, "/public")
    assert not allowed(second, "/private/b") and allowed(second, "/public")
    assert fetched == [f"{HOST}/robots.txt"]
    assert second._stats.get_value("robotstxt/shared/from_redis") == 1


def test_rules_stored_between_a_look_and_a_claim_are_not_fetched_again(redis_prefix):
    """Worker A looks (nothing stored), then worker B stores the body and releases its claim,
    then A claims: A must find B's body instead of fetching the robots.txt a second time (the
    cause of a robots.txt fetched twice by three workers on a busy machine)."""
    fetched: list[str] = []
    a, b = worker(redis_prefix, fetched), worker(redis_prefix, fetched)
    key = a.layout.robots_key("site.example")
    assert b._claim(key)  # B is fetching
    look = a._get

    def look_then_b_stores(key: str) -> bytes | None:
        body = look(key)
        if body is None and not fetched:  # A's first look: B's fetch lands right after it
            fetched.append(f"{HOST}/robots.txt")
            b._store("site.example", ROBOTS)
        return body

    a._get = look_then_b_stores
    assert not allowed(a, "/private/a")
    assert fetched == [f"{HOST}/robots.txt"]  # B's fetch only
    assert not a.redis.client.exists(f"{key}:fetching")  # A holds no claim it does not use


def test_a_failed_fetch_is_shared_as_everything_allowed(redis_prefix):
    fetched: list[str] = []
    first = worker(redis_prefix, fetched)

    async def refused(request: Request) -> Response:
        fetched.append(request.url)
        raise ConnectionRefusedError("refused")

    first.crawler.engine = SimpleNamespace(download_async=refused)
    assert allowed(first, "/private/a")
    second = worker(redis_prefix, fetched)
    assert allowed(second, "/private/a")
    assert fetched == [f"{HOST}/robots.txt"]


def one_process(jobdir, fetched: list[str], ttl: float = 86400.0) -> SharedRobotsTxtMiddleware:
    """A crawl's middleware without Redis, with a ``JOBDIR``."""
    return middleware(fetched, JOBDIR=str(jobdir), BILINGUAL_ROBOTSTXT_TTL=ttl)


def test_a_resumed_crawl_reads_the_rules_its_earlier_run_fetched(tmp_path):
    """A run fetches a host's robots.txt and dies (nothing closed); the same JOBDIR resumed
    reads the rules from the JOBDIR, fetches nothing, and obeys them."""
    fetched: list[str] = []
    first = one_process(tmp_path / "job", fetched)
    assert not allowed(first, "/private/a")
    assert fetched == [f"{HOST}/robots.txt"]
    resumed = one_process(tmp_path / "job", fetched)
    assert not allowed(resumed, "/private/b") and allowed(resumed, "/public")
    assert fetched == [f"{HOST}/robots.txt"]
    assert resumed._stats.get_value("robotstxt/saved/reused") == 1
    other_job = one_process(tmp_path / "other", fetched)  # a JOBDIR of its own fetches it
    assert not allowed(other_job, "/private/a")
    assert len(fetched) == 2


def test_saved_rules_older_than_the_ttl_are_fetched_again(tmp_path):
    fetched: list[str] = []
    assert allowed(one_process(tmp_path / "job", fetched, ttl=-1.0), "/public")
    assert allowed(one_process(tmp_path / "job", fetched, ttl=-1.0), "/public")
    assert len(fetched) == 2
