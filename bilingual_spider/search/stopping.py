"""Search calls that never hold a stopping crawl: the waits for a call's moment end, and the calls
out are cancelled, once the crawl is stopping (Ctrl-C, a budget spent), so a hanging API never
holds a Ctrl-C for its timeout."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from scrapy import Request
from scrapy.http import Response
from scrapy.utils.asyncio import sleep

from bilingual_spider.search.calls import CrawlStopping

STOP_CHECK_SECONDS = 0.25
"""How often the service looks whether the crawl is stopping while search calls are out."""


class StoppableDownloads:
    """The search calls out, as tasks cancelled when ``stopping()`` says the crawl stops."""

    def __init__(self, stopping: Callable[[], bool], clock: Callable[[], float]) -> None:
        self.stopping, self.clock = stopping, clock
        self._downloads: set[asyncio.Future[Response]] = set()
        self._stop_watch: asyncio.Future[None] | None = None

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` for a call's moment, but not past the crawl's stop."""
        end = self.clock() + seconds
        while (left := end - self.clock()) > 0:
            if self.stopping():
                raise CrawlStopping("the crawl is stopping")
            await sleep(min(left, STOP_CHECK_SECONDS))

    async def download(
        self, request: Request, send: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Send a search call (``send``: the crawl's download handlers) as a task that is
        cancelled when the crawl stops."""
        if self.stopping():
            raise CrawlStopping("the crawl is stopping")
        task = asyncio.ensure_future(send(request))
        self._downloads.add(task)
        if self._stop_watch is None or self._stop_watch.done():
            self._stop_watch = asyncio.ensure_future(self._watch_stopping())
        try:
            return await task
        except asyncio.CancelledError:
            if self.stopping():
                raise CrawlStopping("the crawl is stopping") from None
            raise
        finally:
            self._downloads.discard(task)

    async def _watch_stopping(self) -> None:
        """While search calls are out, cancel them all once the crawl is stopping."""
        while self._downloads:
            if self.stopping():
                for task in list(self._downloads):
                    task.cancel()
                return
            await sleep(STOP_CHECK_SECONDS)
