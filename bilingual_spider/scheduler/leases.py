"""The leased scheduler's view of Scrapy's engine (issue 53): the requests handed to the engine
under their frontier ids until the engine is done with them, and the requests stored as bytes in
a frontier.

:class:`~bilingual_spider.scheduler.leased_scheduler.LeasedScheduler` (``JOBDIR`` or Redis)
leases a request when it hands it to the engine, and acknowledges it once the engine is done with
it: its callback ran, its items went through the pipelines, the requests it made were queued.
Scrapy has no public way to ask that; :meth:`EngineLeases.done` reads the engine's set of
requests in progress, in this one place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from scrapy.utils.request import request_from_dict

from bilingual_spider.scheduler.request_dicts import request_to_dict
from bilingual_spider.state.request_meta import FRONTIER_ID_META

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class EngineLeases:
    """The requests handed to the engine and not acknowledged yet, by their frontier ids."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self._ids: dict[Request, Any] = {}
        self._responded: set[Request] = set()

    def hand(self, request: Request, request_id: Any) -> Request:
        """``request`` goes to the engine, leased under ``request_id`` (in its meta too: a page
        budget counts each id once)."""
        self._ids[request] = request_id
        request.meta[FRONTIER_ID_META] = str(request_id)
        return request

    def response_came(self, request: Request) -> bool:
        """A response to ``request`` reached the engine; False when it is no leased request."""
        if request not in self._ids:
            return False
        self._responded.add(request)
        return True

    def done(self) -> tuple[list[Any], int]:
        """Ids of the requests the engine is done with (no longer in its set in progress),
        forgotten here, and how many of them were pages (their response came)."""
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None) if engine is not None else None
        in_progress = slot.inprogress if slot is not None else set()
        finished = [request for request in self._ids if request not in in_progress]
        pages = sum(1 for request in finished if request in self._responded)
        self._responded.difference_update(finished)
        return [self._ids.pop(request) for request in finished], pages

    def ids(self) -> list[Any]:
        return list(self._ids.values())

    def clear(self) -> None:
        self._ids.clear()
        self._responded.clear()

    def __len__(self) -> int:
        return len(self._ids)

    def __iter__(self) -> Iterator[Request]:
        return iter(self._ids)


class RequestCodec:
    """A spider's requests as a frontier stores them: bytes of ``serializer``'s. A stored
    request the spider cannot rebuild is dropped, logged and counted in ``STATS/undecodable``
    (``stats``: the scheduler's prefix)."""

    def __init__(
        self, crawler: Crawler, serializer: Any, spider: Callable[[], Spider | None], stats: str
    ) -> None:
        self.crawler = crawler
        self.serializer = serializer
        self._spider = spider
        self.stats = stats

    def dumps(self, request: Request) -> bytes:
        """Raises ``ValueError`` for a request whose callback is no method of the spider."""
        return self.serializer.dumps(request_to_dict(request, self._spider()))

    def loads(self, blob: bytes) -> Request | None:
        try:
            return request_from_dict(self.serializer.loads(blob), spider=self._spider())
        except Exception:  # a request this spider cannot rebuild: dropped, counted, logged
            logger.exception("cannot rebuild a request from the frontier (%s); dropped", self.stats)
            self.crawler.stats.inc_value(f"{self.stats}/undecodable")
            return None

    def url_of(self, blob: bytes) -> str | None:
        request = self.loads(blob)
        return request.url if request is not None else None
