"""The Scrapy scheduler of a ``JOBDIR`` crawl that ``kill -9`` cannot lose (issue 32).

Scrapy's own ``JOBDIR`` state is saved when the crawl closes cleanly: a killed crawl leaves a
queue index of an older moment (or none) next to a seen-requests file already holding requests
never fetched. This scheduler keeps the frontier, the duplicate filter and the page count in
``JOBDIR/frontier.sqlite3`` (:class:`~bilingual_spider.scheduler.sqlite_frontier.SqliteFrontier`),
every change committed as it is made:

- **Leases.** A request handed to the engine stays in the file, leased, until the engine is done
  with it (its callback ran, its items went through the pipelines and the feeds, the requests it
  made were queued); it is then deleted, at the next request taken.
- **Commits.** Changes are committed before an item reaches the feeds (the item pipeline
  :class:`~bilingual_spider.pipelines.frontier_commit.FrontierCommitPipeline` asks :meth:`commit`)
  and at least every :data:`COMMIT_INTERVAL` seconds, not at each change (a commit per request
  queued cost 30 % of a forward crawl's pages per second). A spider that wants nothing lost
  yields a page's requests before its item (the forward spider does): an item in the output then
  means that its page's links are committed to the frontier. A kill loses at most what changed
  since the last commit, which the resume re-derives (a page not in the output is fetched
  again, and queues its links again).
- **Resume after a kill.** The requests leased by the dead process are split by the crawl's own
  output: those whose URL is in a local JSON-lines feed (``-o``, ``-a out=DIR``) were done (their
  item was written: they count as pages, and are not fetched again); the others (in flight: their
  response died with the process) are queued again. A feed's last line cut by the kill is
  removed first (:func:`~bilingual_spider.output.feed_recovery.repair_jsonl`).
- **The page budget** (``CLOSESPIDER_PAGECOUNT``) counts the pages of every run: the crawl closes
  with ``closespider_pagecount`` once the pages done before plus the responses of this run reach
  it, and no request is taken while the pages done and those in flight make it (so a crawl
  ends with the budget's pages, not the budget plus what was in flight).

**A spider's other state** (``backforth``, ``detect``, ``pupsniffer``) is its crawl state's stores
(:mod:`bilingual_spider.state`), kept in this file and written in its transactions: they commit
with the frontier, and a resume gives back every request that was in flight marked redelivered
(``REDELIVERED_META``), as a restarted Redis worker does (:mod:`bilingual_spider.scheduler.
restart`). A request a component must not lose before the engine gets it (the search service's
queries waiting for their turn) is written at once, leased (:meth:`CrashSafeScheduler.hold`). The
counters a spider's ``carried_stats`` name are written with each commit and carried on by the
next run. A request scored by an older model than the spider's current one is re-scored
when it reaches the head (:func:`~bilingual_spider.scheduler.rescoring_queue.rescore_head`, as
the other frontiers do).

Chosen by :class:`~bilingual_spider.scheduler.backend.SchedulerBackend` when ``JOBDIR`` is set
without ``REDIS_URL`` and ``BILINGUAL_CRASH_SAFE_FRONTIER`` is on (``forward``, ``backforth``,
``detect`` and ``pupsniffer`` set it). Requests that cannot be serialized (a callback that is no
spider method) are kept in memory, counted in ``scheduler/crash_safe/unsaved``, and lost by a
kill. Stats:
``scheduler/crash_safe/{taken,acked,held,resumed_done,resumed_requeued,feed_bytes_cut,
pages_before}``, ``dupefilter/filtered``, ``frontier/rescored``, ``frontier/requeued``.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.exceptions import CloseSpider, UsageError
from scrapy.utils.defer import deferred_from_coro

from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierTag
from bilingual_spider.output.feed_recovery import (
    local_jsonl_feeds,
)
from bilingual_spider.scheduler import compact_serializer
from bilingual_spider.scheduler.leases import EngineLeases, RequestCodec
from bilingual_spider.scheduler.rescoring_queue import rescore_head
from bilingual_spider.scheduler.restart import settle_restart
from bilingual_spider.scheduler.sqlite_frontier import (
    FRONTIER_FILE,
    SqliteFrontier,
)
from bilingual_spider.state import CrawlState
from bilingual_spider.state.request_meta import (
    HELD_META,
    REDELIVERED_META,
    duplicate_fingerprint,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

PAGE_LIMIT_REASON = "closespider_pagecount"
COMMIT_INTERVAL = 1.0
"""Seconds at most between two commits when no item asks for one."""
EARLIER_RUN = "an earlier run"
"""The worker a request resumed after a kill was redelivered from (``REDELIVERED_META``)."""
CARRIED_STATS = "stats"
"""The frontier's state entry that holds the counters named by the spider's ``carried_stats``."""


class CrashSafeScheduler(BaseScheduler):
    """Scrapy scheduler over a :class:`SqliteFrontier` in ``JOBDIR`` (see the module docstring)."""

    def __init__(
        self,
        crawler: Crawler,
        jobdir: str | Path,
        page_limit: int = 0,
        feeds: list[Path] | None = None,
        serializer: Any = None,
    ) -> None:
        self.crawler = crawler
        self.path = Path(jobdir) / FRONTIER_FILE
        self.page_limit = page_limit
        self.feeds = feeds or []
        self.serializer = serializer or compact_serializer
        self.frontier: SqliteFrontier | None = None
        self.spider: Spider | None = None
        self.leases = EngineLeases(crawler)  # handed to the engine, not acknowledged yet
        self.codec = RequestCodec(
            crawler, self.serializer, lambda: self.spider, "scheduler/crash_safe"
        )
        self._unsaved: deque[Request] = deque()  # requests that cannot be serialized
        self._held: dict[str, int] = {}  # written by hold(), not handed to the engine yet
        self._ready: deque[tuple[Request, int]] = deque()  # ... handed over: taken next
        self.pages_before = 0
        self.responses = 0
        self._closing = False
        self._committed_at = time.monotonic()
        self._carried: dict[str, Any] = {}  # counters of the runs before, set at spider_opened

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrashSafeScheduler:
        settings = crawler.settings
        scheduler = cls(
            crawler,
            settings["JOBDIR"],
            page_limit=settings.getint("BILINGUAL_FRONTIER_PAGE_LIMIT"),
            feeds=local_jsonl_feeds(settings.getdict("FEEDS")),
            serializer=importlib.import_module(
                settings.get("SCHEDULER_SERIALIZER") or compact_serializer.__name__
            ),
        )
        crawler.signals.connect(scheduler.response_received, signal=signals.response_received)
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(scheduler.spider_opened, signal=signals.spider_opened)
        return scheduler

    # --- Scrapy's scheduler interface -----------------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        # the crawl state's SQLite stores write in this frontier's transactions
        self.frontier = CrawlState.of(self.crawler, spider.name).frontier(self.path)
        owner = self.frontier.get("spider")
        if owner is None:
            self.frontier.set("spider", spider.name)
        elif owner != spider.name:
            raise UsageError(
                f"JOBDIR {self.path.parent} holds the frontier of the {owner} spider, "
                f"not of {spider.name}: give this crawl a JOBDIR of its own"
            )
        self._resume()
        self.frontier.commit()
        self.pages_before = self.frontier.pages
        self.crawler.stats.set_value("scheduler/crash_safe/pages_before", self.pages_before)

    def close(self, reason: str) -> None:
        if self.frontier is None:
            return
        self._ack()
        self._write_counters()
        if self._unsaved:
            logger.warning("%d unsaved request(s) not crawled are lost", len(self._unsaved))
        self.frontier.close()
        self.frontier = None

    def has_pending_requests(self) -> bool:
        if self._budget_spent():  # by the runs before: the crawl ends (spider_idle says why)
            return False
        if self._unsaved or self._ready:
            return True
        return self.frontier is not None and self.frontier.has_queued()

    def enqueue_request(self, request: Request) -> bool:
        assert self.frontier is not None and self.spider is not None
        held_id = self._held.pop(request.meta.pop(HELD_META, None), None)
        if held_id is not None:  # written by hold(): in the frontier already, leased
            self._ready.append((request, held_id))
            return True
        if not request.dont_filter:
            fingerprint = duplicate_fingerprint(request, self.crawler.request_fingerprinter)
            if not self.frontier.first_seen(fingerprint):
                self._inc("dupefilter/filtered")
                return False
        try:
            blob = self.codec.dumps(request)
        except ValueError:  # a callback that is no method of the spider
            self._unsaved.append(request)
            self._inc("scheduler/crash_safe/unsaved")
            return True
        self.frontier.push(blob, request.priority)
        self._inc("scheduler/enqueued/disk")
        return True

    def next_request(self) -> Request | None:
        assert self.frontier is not None
        self._ack()
        if time.monotonic() - self._committed_at > COMMIT_INTERVAL:
            self.commit()
        if self._closing or self._budget_taken():
            return None
        if self._unsaved:
            return self._unsaved.popleft()
        if self._ready:
            request, request_id = self._ready.popleft()
            return self._hand_over(request, request_id)
        while True:
            taken = self.frontier.take()
            if taken is None:
                return None
            request = self.codec.loads(taken[1])
            if request is None:
                self.frontier.ack([taken[0]])
                continue
            if self._fell_behind(request):
                self.frontier.requeue(taken[0], self.codec.dumps(request), request.priority)
                continue
            return self._hand_over(request, taken[0])

    def _hand_over(self, request: Request, request_id: int) -> Request:
        """``request`` leased to the engine under its id."""
        self._inc("scheduler/dequeued/disk")
        return self.leases.hand(request, request_id)

    def hold(self, request: Request) -> str | None:
        """Write ``request`` to the frontier now, leased to this run, before it is handed to the
        engine (with ``meta[HELD_META]`` = the id returned): a kill before then finds it leased
        and gives it again (the search service's queries waiting for their turn). None: the
        request cannot be written, or no frontier yet."""
        if self.frontier is None or self.spider is None:
            return None
        try:
            blob = self.codec.dumps(request)
        except ValueError:
            return None
        request_id = self.frontier.push(blob, request.priority, leased=True)
        self._held[str(request_id)] = request_id
        self._inc("scheduler/crash_safe/held")
        return str(request_id)

    def crawl_is_idle(self) -> bool:
        """Whether nothing is left: nothing queued, held or in flight (one process)."""
        self._ack()
        return not (self.leases or self._held or self._ready or self.has_pending_requests())

    def __len__(self) -> int:
        queued = 0 if self.frontier is None else self.frontier.queued()
        return len(self._unsaved) + len(self._ready) + queued

    def commit(self) -> None:
        """Make the frontier's changes so far, the stores' with them, survive a kill (before an
        item is written, and every :data:`COMMIT_INTERVAL` seconds)."""
        if self.frontier is None:
            return
        if self.frontier.in_transaction:
            self._write_counters()
        self.frontier.commit()
        self._committed_at = time.monotonic()

    def _write_counters(self) -> None:
        """The counters a resumed crawl carries on from, in the open transaction."""
        assert self.frontier is not None
        self.frontier.set(CARRIED_STATS, json.dumps(self._carried_counters()))

    def _carried_counters(self) -> dict[str, Any]:
        """The counters a resumed crawl carries on from: those the spider's ``carried_stats``
        prefixes name."""
        prefixes = tuple(getattr(self.spider, "carried_stats", ()))
        if not prefixes:
            return {}
        counters = self.crawler.stats.get_stats().items()
        return {k: v for k, v in counters if k.startswith(prefixes) and isinstance(v, int | float)}

    def _fell_behind(self, request: Request) -> bool:
        """Re-scored by a newer model (COBFC's retrained classifiers), ``request`` no longer
        beats the next one queued: it goes back."""
        scorer = getattr(self.spider, "frontier_scorer", None)
        tag = FrontierTag.from_meta(request.meta.get(FRONTIER_META)) if scorer else None
        if tag is None or not scorer.is_stale(tag):
            return False
        assert self.frontier is not None
        return not rescore_head(request, scorer, self.frontier.next_priority(), self.crawler.stats)

    # --- signals --------------------------------------------------------------------------------

    def spider_opened(self) -> None:
        """The counters of the runs before, carried on (the stats collector is open now)."""
        for key, value in self._carried.items():
            self.crawler.stats.set_value(key, value)

    def spider_idle(self) -> None:
        if self._budget_spent():
            logger.info("page budget spent: %d pages over every run", self.pages_before)
            raise CloseSpider(PAGE_LIMIT_REASON)

    def response_received(self, response: Response, request: Request) -> None:
        if not self.leases.response_came(request):
            return
        self.responses += 1
        total = self.pages_before + self.responses
        if self.page_limit and total >= self.page_limit and not self._closing:
            self._closing = True
            logger.info("page budget reached: %d pages over every run", total)
            engine = self.crawler.engine
            assert engine is not None
            deferred_from_coro(engine.close_spider_async(reason=PAGE_LIMIT_REASON))

    def _budget_spent(self) -> bool:
        return bool(self.page_limit) and self.pages_before + self.responses >= self.page_limit

    def _budget_taken(self) -> bool:
        """Whether the pages done and those in flight make the page budget already: no more
        requests are taken (a failed one gives its place back), so the pages written end at
        the budget, not at the budget plus what was in flight when it was reached."""
        if not self.page_limit:
            return False
        return self.pages_before + self.responses + self.leases.awaiting() >= self.page_limit

    # --- leases ---------------------------------------------------------------------------------

    def _ack(self) -> None:
        """Delete the requests the engine is done with."""
        done, pages = self.leases.done()
        if not done:
            return
        assert self.frontier is not None
        self.frontier.ack(done, pages)
        self._inc("scheduler/crash_safe/acked", len(done))

    def _resume(self) -> None:
        """Split the requests a killed run had in flight into done (in the output) and not; the
        counters of the runs before carried on."""
        assert self.frontier is not None
        self._carried = json.loads(str(self.frontier.get(CARRIED_STATS) or "{}"))
        leased = self.frontier.leased()
        if not leased:
            return
        assert self.spider is not None
        restart = settle_restart(self.crawler, self.spider, leased, self.feeds, self.codec.url_of)
        self.frontier.ack(restart.done, pages=len(restart.done))
        blobs = dict(leased)
        for request_id in restart.again:  # marked: its callback may find its work half done
            request = self.codec.loads(blobs[request_id])
            if request is None:
                self.frontier.ack([request_id])
                continue
            request.meta[REDELIVERED_META] = EARLIER_RUN
            self.frontier.requeue(request_id, self.codec.dumps(request), request.priority)
        self._inc("scheduler/crash_safe/resumed_done", len(restart.done))
        self._inc("scheduler/crash_safe/resumed_requeued", len(restart.again))
        self._inc("scheduler/crash_safe/feed_bytes_cut", restart.bytes_cut)
        self.frontier.commit()
        logger.warning(
            "resuming a crawl that did not close cleanly: of the %d request(s) it had in flight, "
            "%d were in its output (done) and %d are queued again; %d byte(s) cut from its feeds",
            len(leased), len(restart.done), len(restart.again), restart.bytes_cut,
        )  # fmt: skip

    def _inc(self, key: str, count: int = 1) -> None:
        if count:
            self.crawler.stats.inc_value(key, count)
