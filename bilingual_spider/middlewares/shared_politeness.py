"""Downloader middleware: per-host delay and concurrency shared by every worker of a distributed
crawl (:mod:`bilingual_spider.distributed.host_slots`).

On when ``REDIS_URL`` is set (``BILINGUAL_SHARED_POLITENESS``). The limits are the crawl's own
``DOWNLOAD_DELAY`` and ``CONCURRENT_REQUESTS_PER_DOMAIN``: what one worker does to a host, all
workers together do. A request waits (an ``await``, the reactor keeps running) for its host's
next slot, after robots.txt was checked (order 720). Requests that stay on their worker (search
API calls, paced by the search service) pass. Stats: ``politeness/shared/waited`` (requests that
waited), ``politeness/shared/wait_seconds``, ``politeness/shared/busy`` (times a host was at its
concurrency).

A worker with a name of its own (``BILINGUAL_REDIS_WORKER_NAME``) frees, when the spider opens,
the slots its former self held when it was killed (``politeness/shared/released_at_restart``):
they would otherwise hold its hosts up to 2 x ``DOWNLOAD_TIMEOUT``.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import sleep

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.frontier import worker_id
from bilingual_spider.distributed.host_slots import HostSlots
from bilingual_spider.distributed.partitions import KeyLayout, host_of
from bilingual_spider.state.request_meta import WORKER_LOCAL_META

logger = logging.getLogger(__name__)

SLOT_META = "shared_politeness_slot"
BUSY_WAIT = 0.05
"""Seconds before asking again for a host at its concurrency limit."""


class SharedPolitenessMiddleware:
    def __init__(self, slots: HostSlots, stats: Any) -> None:
        self.slots = slots
        self.stats = stats
        self._keep: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SharedPolitenessMiddleware:
        settings = crawler.settings
        url = settings.get("REDIS_URL")
        if not url or not settings.getbool("BILINGUAL_SHARED_POLITENESS"):
            # the expected state of one process (no REDIS_URL): the downloader's own per-host
            # slots suffice; a NotConfigured without a message is not logged as a WARNING
            raise NotConfigured
        redis = PatientRedis.from_crawler(crawler)
        slots = HostSlots(
            redis,
            KeyLayout.from_settings(settings),
            worker_id(crawler),
            delay=settings.getfloat("DOWNLOAD_DELAY"),
            concurrency=settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"),
            hold=settings.getfloat("DOWNLOAD_TIMEOUT") * 2,
        )
        middleware = cls(slots, crawler.stats)

        def spider_opened() -> None:
            # The delay is kept here, at the moment a request is let go; the downloader's own
            # per-worker delay would only push the real start past the reserved one (as
            # Scrapy's AutoThrottle does, set the delay of new download slots).
            crawler.engine.downloader._delay = 0.0
            if settings.get("BILINGUAL_REDIS_WORKER_NAME"):  # the same worker, restarted
                middleware.release_former_self()

        middleware._keep = spider_opened  # signals hold weak references
        crawler.signals.connect(spider_opened, signal=signals.spider_opened)
        return middleware

    def release_former_self(self) -> None:
        """Free the slots this worker's former self held (none: it was not killed)."""
        freed = self.slots.release_former_self()
        if freed:
            self.stats.inc_value("politeness/shared/released_at_restart", freed)
            logger.info(
                "%d host slot(s) held by the former self of worker %s freed",
                freed,
                self.slots.worker,
            )

    async def process_request(self, request: Request) -> None:
        host = host_of(request.url)
        if not host or request.meta.get(WORKER_LOCAL_META):
            return
        token = self.slots.token()
        waited = 0.0
        while (wait := self.slots.acquire(host, token)) is None:
            self.stats.inc_value("politeness/shared/busy")
            await sleep(BUSY_WAIT)
            waited += BUSY_WAIT
        request.meta[SLOT_META] = (host, token)
        if wait > 0:
            await sleep(wait)
            waited += wait
        if waited:
            self.stats.inc_value("politeness/shared/waited")
            self.stats.inc_value("politeness/shared/wait_seconds", round(waited, 3))

    def process_response(self, request: Request, response: Response) -> Response:
        self._release(request)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        self._release(request)

    def _release(self, request: Request) -> None:
        slot = request.meta.pop(SLOT_META, None)
        if slot is not None:
            self.slots.release(*slot)
