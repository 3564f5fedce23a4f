"""Downloader middleware: Scrapy's robots.txt middleware, with each host's robots.txt fetched once
for all the workers of a distributed crawl, and once over the runs of a crawl resumed from its
``JOBDIR``.

Without ``REDIS_URL`` and ``JOBDIR`` it is Scrapy's :class:`~scrapy.downloadermiddlewares.
robotstxt.RobotsTxtMiddleware` unchanged. With ``REDIS_URL``, a worker that needs a host's rules
it has not parsed yet looks in Redis first::

    PREFIX:robots:NETLOC          STRING  the robots.txt body (or a marker: the fetch failed)
    PREFIX:robots:NETLOC:fetching STRING  set by the one worker fetching it (expires)

(with partitions, ``{PREFIX:pP}:robots:NETLOC``: in the host's partition, on the master that
holds its queue, :meth:`~bilingual_spider.distributed.partitions.KeyLayout.robots_key`).

Found: parsed from Redis, no request. Not found: the worker that sets ``:fetching`` first (and still
finds no body once it holds the claim: the worker that fetched it may have stored it and released
its claim since the first look) downloads it (through the shared per-host politeness like any
request) and stores the body for ``BILINGUAL_ROBOTSTXT_TTL`` seconds; the others wait for the body
(asking again every 0.1 s, the reactor keeps running) and take over if the fetching worker's claim
lapses (it died, or took longer than ``BILINGUAL_REDIS_LEASE_SECONDS``: then the host's robots.txt
is fetched twice). A failed fetch is stored as a failure (Scrapy's rule: everything allowed) for the
same time.

With ``JOBDIR``, every body fetched (or the failure) is also kept in ``JOBDIR/robots.sqlite3``
(:mod:`~bilingual_spider.scheduler.sqlite_robots`) for ``BILINGUAL_ROBOTSTXT_TTL`` seconds: a
crawl resumed after a stop or a kill reads each host's rules from there first
(``robotstxt/saved/reused``) instead of fetching its robots.txt again.

Stats: Scrapy's ``robotstxt/*`` (``request_count`` counts only what this worker fetched), and
``robotstxt/shared/from_redis`` (hosts whose rules another worker had fetched) and
``robotstxt/shared/waited`` (hosts whose fetch by another worker this one waited for).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response
from scrapy.utils.asyncio import sleep
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.partitions import KeyLayout
from bilingual_spider.scheduler.sqlite_robots import ROBOTS_FILE, SqliteRobots

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
        self.layout = KeyLayout.from_settings(settings)
        ttl = settings.getfloat("BILINGUAL_ROBOTSTXT_TTL")
        self.ttl_ms = round(ttl * 1000)
        self.claim_ms = round(settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS") * 1000)
        jobdir = job_dir(settings)
        self.saved = SqliteRobots(Path(jobdir) / ROBOTS_FILE, ttl) if jobdir else None

    async def robot_parser(self, request: Request) -> RobotParser | None:
        netloc = urlparse_cached(request).netloc
        if netloc in self._parsers:
            return await super().robot_parser(request)
        if self.saved is not None:
            body = self.saved.get(netloc, time.time())
            if body is not None:
                return self._parser_from(netloc, body, "robotstxt/saved/reused")
        if self.redis is None:
            return await super().robot_parser(request)
        key = self.layout.robots_key(netloc)
        waited = False
        while (body := self._get(key)) is None:
            if self._claim(key):
                # another worker may have stored the body and released its claim between the
                # look above and this claim: look again before fetching
                if (body := self._get(key)) is not None:
                    self._release(key)
                    break
                return await super().robot_parser(request)  # fetched here, stored in Redis
            waited = True
            await sleep(POLL)
        if netloc in self._parsers:  # fetched by this worker meanwhile
            return await super().robot_parser(request)
        stat = "robotstxt/shared/waited" if waited else "robotstxt/shared/from_redis"
        return self._parser_from(netloc, body, stat)

    def _parser_from(self, netloc: str, body: bytes, stat: str) -> RobotParser | None:
        """The rules of a body fetched earlier or by another worker (no request), counted in
        ``stat``."""
        self._stats.inc_value(stat)
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

    def _release(self, key: str) -> None:
        assert self.redis is not None
        self.redis.call(self.redis.client.delete, f"{key}:fetching")

    def _store(self, netloc: str, body: bytes) -> None:
        if self.saved is not None:
            self.saved.put(netloc, body, time.time())
        if self.redis is None:
            return
        key = self.layout.robots_key(netloc)
        self.redis.call(self.redis.client.set, key, body, px=self.ttl_ms)
        self._release(key)
