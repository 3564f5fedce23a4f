"""Downloader middleware: Scrapy's robots.txt middleware, with each host's robots.txt fetched once
for all the workers of a distributed crawl.

Without ``REDIS_URL`` it is Scrapy's :class:`~scrapy.downloadermiddlewares.robotstxt.
RobotsTxtMiddleware` unchanged. With it, a worker that needs a host's rules it has not parsed yet
looks in Redis first::

    PREFIX:robots:NETLOC          STRING  the robots.txt body (or a marker: the fetch failed)
    PREFIX:robots:NETLOC:fetching STRING  set by the one worker fetching it (expires)

Found: parsed from Redis, no request. Not found: the worker that sets ``:fetching`` first
downloads it (through the shared per-host politeness like any request) and stores the body for
``BILINGUAL_ROBOTSTXT_TTL`` seconds; the others wait for the body (asking again every 0.1 s, the
reactor keeps running) and take over if the fetching worker's claim lapses (it died, or took
longer than ``BILINGUAL_REDIS_LEASE_SECONDS``: then the host's robots.txt is fetched twice). A
failed fetch is stored as a failure (Scrapy's rule: everything allowed) for the same time.

Stats: Scrapy's ``robotstxt/*`` (``request_count`` counts only what this worker fetched), and
``robotstxt/shared/from_redis`` (hosts whose rules another worker had fetched) and
``robotstxt/shared/waited`` (hosts whose fetch by another worker this one waited for).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.frontier import redis_key_prefix

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.robotstxt import RobotParser

logger = logging.getLogger(__name__)

FAILED = b"\x00robots.txt could not be fetched"
"""Stored instead of a body when the fetch failed (no parser: everything allowed)."""
POLL = 0.1
"""Seconds between two looks for a body another worker is fetching."""


class SharedRobotsTxtMiddleware(RobotsTxtMiddleware):
    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        settings = crawler.settings
        self.redis: PatientRedis | None = None
        if settings.get("REDIS_URL"):
            self.redis = PatientRedis.from_crawler(crawler)
        self.prefix = f"{redis_key_prefix(settings)}:robots"
        self.ttl_ms = round(settings.getfloat("BILINGUAL_ROBOTSTXT_TTL") * 1000)
        self.claim_ms = round(settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS") * 1000)

    async def robot_parser(self, request: Request) -> RobotParser | None:
        netloc = urlparse_cached(request).netloc
        if self.redis is None or netloc in self._parsers:
            return await super().robot_parser(request)
        key = f"{self.prefix}:{netloc}"
        waited = False
        while (body := self._get(key)) is None:
            if self._claim(key):
                return await super().robot_parser(request)  # fetched here, stored in Redis
            waited = True
            await sleep(POLL)
        if netloc in self._parsers:  # fetched by this worker meanwhile
            return await super().robot_parser(request)
        self._stats.inc_value(
            "robotstxt/shared/waited" if waited else "robotstxt/shared/from_redis"
        )
        parser = (
            None if body == FAILED else build_from_crawler(self._parserimpl, self.crawler, body)
        )
        self._parsers[netloc] = parser
        return parser

    async def _parse_robots(self, response: Response, netloc: str, request: Request) -> None:
        self._store(netloc, response.body)
        await super()._parse_robots(response, netloc, request)

    def _robots_error(self, exc: Exception, netloc: str) -> None:
        if not isinstance(exc, IgnoreRequest):  # ignored (e.g. filtered): others try themselves
            self._store(netloc, FAILED)
        super()._robots_error(exc, netloc)

    def _get(self, key: str) -> bytes | None:
        assert self.redis is not None
        return self.redis.call(self.redis.client.get, key)

    def _claim(self, key: str) -> bool:
        assert self.redis is not None
        claim = f"{key}:fetching"
        return bool(self.redis.call(self.redis.client.set, claim, 1, nx=True, px=self.claim_ms))

    def _store(self, netloc: str, body: bytes) -> None:
        if self.redis is None:
            return
        key = f"{self.prefix}:{netloc}"
        self.redis.call(self.redis.client.set, key, body, px=self.ttl_ms)
        self.redis.call(self.redis.client.delete, f"{key}:fetching")
