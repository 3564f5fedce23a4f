"""The Scrapy scheduler of a crawl that a kill cannot lose (issues 32, 35, 53): one scheduler over
the crawl state's leased frontier, the SQLite file of ``JOBDIR``
(:class:`~bilingual_spider.scheduler.sqlite_frontier.SqliteFrontier`) or the Redis frontier
shared by every worker (:mod:`bilingual_spider.distributed.frontier`), with one recovery rule.

- **Leases.** A request taken stays in the frontier, leased, until the engine is done with it (its
  response or failure went through the callback, its items through the pipelines and the feeds,
  the requests it made into the frontier: it has left the engine's requests in progress,
  :class:`~bilingual_spider.scheduler.leases.EngineLeases`). It is then acknowledged, with the
  next take. With Redis, leases still in flight are renewed every third of
  ``BILINGUAL_REDIS_LEASE_SECONDS``, and a dead worker's expire: its requests go back to the
  queue for any worker. At close, requests still in flight are given back unprocessed.
- **Commits.** The SQLite frontier groups its changes in transactions, committed before an item
  reaches the feeds (:class:`~bilingual_spider.pipelines.frontier_commit.FrontierCommitPipeline`
  asks :meth:`commit`) and at least every :data:`COMMIT_INTERVAL` seconds; the Redis frontier
  writes each change at once. A spider that wants nothing lost yields a page's requests before
  its item (``forward`` does): an item in the output then means its links are in the frontier.
- **A restart** (``JOBDIR`` resumed, a Redis worker restarted under its
  ``BILINGUAL_REDIS_WORKER_NAME``) finds the leases of its former self and settles them by one
  rule (:mod:`bilingual_spider.scheduler.restart`): those done (in the output) acknowledged, the
  others back in the queue marked redelivered (``REDELIVERED_META``: the callback that takes
  one may find its work half done in the stores, and redoes what follows).
- **Requests kept on this worker.** A request whose meta has ``keep_on_worker`` set (the search
  service's API calls, whose pacing lives in the process) is leased to this worker when queued.
  A request held before it is released (:meth:`hold`: the search service's queries waiting
  for their turn) is written at once, leased, and taken from the local queue when the engine
  gets it (``meta[HELD_META]``). A kill before then leaves it leased: it is given again.
- **A page budget** (``CLOSESPIDER_PAGECOUNT``, for a spider without a budget of its own) counts
  the pages of every run and worker, in the frontier's acknowledgements; no request is taken
  while the pages counted and the requests leased make the budget, and the acknowledgement that
  counts the last page ends the crawl (``budget``), for every worker and every later run.
- **Re-scoring.** A request scored by an older model than the spider's current one is re-scored
  when it reaches the head (:func:`~bilingual_spider.scheduler.rescoring_queue.rescore_head`).
- **Idle and end.** A take that finds the queue empty is asked again after a wait (0.1 s,
  doubling, at most ``BILINGUAL_REDIS_IDLE_MAX_WAIT`` when other workers may queue work, else
  0.1 s), the engine called back then. The crawl ends when nothing is queued or leased (with
  Redis: after something was queued once), or when it was ended (``BILINGUAL_REDIS_SHARED_END``).
- **Seeds** pushed by ``bilingual-spider seed`` to a Redis crawl are taken by the first worker
  that looks (``spider.seed_request(url)``).
- **Counters** named by the spider's ``carried_stats`` are saved with the frontier and carried on
  by the next run (``JOBDIR``) or the worker restarted under its name (Redis).
- Requests that cannot be serialized (a callback that is no spider method) are kept in memory,
  counted in ``scheduler/leases/unsaved``, and lost by a kill.

Stats: ``scheduler/leases/{taken,takes,takes_empty,acked,late_acks,refetched,redelivered,held,
released,kept_on_worker,seeds_taken,status_checks,resumed_done,resumed_requeued,
resumed_items_forgotten,feed_bytes_cut,unsaved,undecodable}``,
``scheduler/{enqueued,dequeued}/frontier``, ``dupefilter/filtered``, ``frontier/rescored``,
``frontier/requeued``, and the frontier's own counters at close as ``scheduler/frontier/<name>``.
"""

from __future__ import annotations

import heapq
import importlib
import itertools
import logging
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import CloseSpider
from scrapy.utils.reactor import CallLaterOnce
from twisted.internet import task

from bilingual_spider.distributed.frontier import Acks, Requeue, seeds_key
from bilingual_spider.distributed.partitions import host_of, redis_key_prefix
from bilingual_spider.output.feed_recovery import local_jsonl_feeds
from bilingual_spider.scheduler import compact_serializer
from bilingual_spider.scheduler.leases import EngineLeases, RequestCodec
from bilingual_spider.scheduler.rescoring_queue import rescore_head
from bilingual_spider.scheduler.restart import settle_restart
from bilingual_spider.state import CrawlState, RequestFrontier
from bilingual_spider.state.request_meta import (
    HELD_META,
    REDELIVERED_META,
    WORKER_LOCAL_META,
    duplicate_fingerprint,
)

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

STATS = "scheduler/leases"
FIRST_IDLE_WAIT = 0.1
COMMIT_INTERVAL = 1.0
"""Seconds at most between two commits of the SQLite frontier when no item asks for one."""


class LeasedScheduler:
    """Scrapy scheduler over the crawl state's leased frontier (see the module docstring)."""

    def __init__(
        self,
        crawler: Crawler,
        lease_seconds: float = 60.0,
        idle_max_wait: float = FIRST_IDLE_WAIT,
        shared_end: tuple[str, ...] = ("budget",),
        serializer: Any = None,
        page_limit: int = 0,
        feeds: list[Path] | None = None,
        seeds: str = "crawl:seeds",
    ) -> None:
        self.crawler = crawler
        self.lease_seconds = lease_seconds
        self.idle_max_wait = idle_max_wait
        self.shared_end = shared_end
        self.serializer = serializer or compact_serializer
        self.page_limit = page_limit
        self.feeds = feeds or []
        self.seeds = seeds
        self.counts_budget = False
        """The page budget is this scheduler's (not the spider's own): pages are counted in the
        frontier's acknowledgements."""
        self.frontier: RequestFrontier | None = None
        self.spider: Spider | None = None
        self.leases = EngineLeases(crawler)  # handed to the engine, not acknowledged yet
        self.codec = RequestCodec(crawler, self.serializer, lambda: self.spider, STATS)
        self._local: list[tuple[int, int, Request]] = []  # heap of requests kept on this worker
        self._local_ids: dict[Request, str] = {}
        self._held: set[str] = set()  # ids written by hold(), not handed to the engine yet
        self._unsaved: deque[Request] = deque()  # requests that cannot be serialized
        self._order = itertools.count()
        self._idle_wait = FIRST_IDLE_WAIT
        self._next_take_at = 0.0
        self._next_status_at = 0.0
        self._ended: str | None = None
        self._over = False
        self._committed_at = time.monotonic()
        self._carried: dict[str, Any] = {}  # counters of the runs before, set at spider_opened
        self._renewal: task.LoopingCall | None = None
        self.wake: CallLaterOnce[None] = CallLaterOnce(self._wake_engine)
        """Calls the engine back when this worker's next take is due (see _wake_engine_in)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeasedScheduler:
        settings = crawler.settings
        shared = CrawlState.of(crawler).shares_requests
        scheduler = cls(
            crawler,
            lease_seconds=settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS"),
            idle_max_wait=(
                settings.getfloat("BILINGUAL_REDIS_IDLE_MAX_WAIT") if shared else FIRST_IDLE_WAIT
            ),
            shared_end=tuple(settings.getlist("BILINGUAL_REDIS_SHARED_END")),
            serializer=importlib.import_module(
                settings.get("SCHEDULER_SERIALIZER") or compact_serializer.__name__
            ),
            page_limit=settings.getint("BILINGUAL_FRONTIER_PAGE_LIMIT"),
            feeds=local_jsonl_feeds(settings.getdict("FEEDS")),
            seeds=seeds_key(redis_key_prefix(settings)),
        )
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(scheduler.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(scheduler.response_received, signal=signals.response_received)
        return scheduler

    # --- Scrapy's scheduler interface -----------------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        self.frontier = CrawlState.of(self.crawler, spider.name).request_frontier()
        if getattr(spider, "page_budget", None) is None:
            self.counts_budget = bool(self.page_limit)
        else:  # the spider counts its pages by request: their counts go with their acks
            self.frontier.pages_counted_by_request = True
        self._carried = self.frontier.carried()
        self._resume()
        self.frontier.commit()
        self._take_seeds()
        self._renewal = task.LoopingCall(self._renew)
        self._renewal.start(max(0.5, self.lease_seconds / 3), now=False)

    def close(self, reason: str) -> None:
        self.wake.cancel()
        if self._renewal is not None and self._renewal.running:
            self._renewal.stop()
        if self.frontier is None:
            return
        self._ack_done()
        self._inc(f"{STATS}/released", self.frontier.release(self._in_flight()))
        self.leases.clear()
        self._local_ids.clear()
        self._held.clear()
        if reason in self.shared_end:
            self.frontier.end(reason)
            logger.info("crawl ended for every worker and run: %s", reason)
        self.frontier.carry(self._carried_counters())
        for name, count in self.frontier.counters().items():
            self.crawler.stats.set_value(f"scheduler/frontier/{name}", count)
        if self._unsaved:
            logger.warning("%d unsaved request(s) not crawled are lost", len(self._unsaved))
        self.frontier.close()
        self.frontier = None

    def has_pending_requests(self) -> bool:
        if self._local or self._unsaved or self._ended:
            return bool(self._local or self._unsaved)
        now = time.monotonic()
        if now < self._next_status_at:
            return True
        assert self.frontier is not None
        self._ack_done()  # this worker's finished requests no longer count as leased
        status = self.frontier.status(until_work=True)
        self._inc(f"{STATS}/status_checks")
        if status.ended:
            self._ended = status.ended
            return False
        if status.finished:
            if not self._over:
                logger.info("frontier and leases empty: the crawl is over")
            self._over = True
            return False
        self._next_status_at = now + self._idle_wait
        return True

    def crawl_is_idle(self) -> bool:
        """Whether nothing is left for any worker: nothing queued or leased (asked now, after
        acknowledging this worker's finished requests), or the crawl ended. A spider that moves
        the crawl to a next stage once it is idle asks this (under its own lock with Redis)."""
        if self._local or self._unsaved:
            return False
        assert self.frontier is not None
        self._ack_done()
        return self.frontier.status(until_work=True).finished

    def enqueue_request(self, request: Request) -> bool:
        assert self.frontier is not None and self.spider is not None
        held_id = request.meta.pop(HELD_META, None)
        if held_id in self._held:  # written by hold(): in the frontier, leased to this worker
            self._held.discard(held_id)
            self._keep_local(request, held_id)
            return True
        fingerprint = None
        if not request.dont_filter:  # the digest (20 bytes, not 40 hex digits)
            fingerprint = duplicate_fingerprint(request, self.crawler.request_fingerprinter)
        try:
            blob = self.codec.dumps(request)
        except ValueError:  # a callback that is no method of the spider
            if fingerprint is not None and self.frontier.seen(fingerprint, host_of(request.url)):
                self._inc("dupefilter/filtered")
                return False
            self._unsaved.append(request)
            self._inc(f"{STATS}/unsaved")
            return True
        local = bool(request.meta.get(WORKER_LOCAL_META))
        request_id = self.frontier.push(
            blob, request.priority, fingerprint, local, host_of(request.url)
        )
        if request_id is None:
            self._inc("dupefilter/filtered")
            return False
        self._inc("scheduler/enqueued/frontier")
        if local:
            self._keep_local(request, request_id)
        else:
            self._idle_wait, self._next_take_at = FIRST_IDLE_WAIT, 0.0  # there is work: take now
        return True

    def hold(self, request: Request) -> str | None:
        """Write ``request`` to the frontier now, leased to this worker, before it is released
        to the engine (with ``meta[HELD_META]`` = the id returned): a kill before then leaves it
        leased, and it is given again. None: it cannot be written, or no frontier yet."""
        if self.frontier is None or self.spider is None:
            return None
        try:
            blob = self.codec.dumps(request)
        except ValueError:
            return None
        request_id = self.frontier.push(blob, request.priority, None, True, host_of(request.url))
        assert request_id is not None  # never filtered: no fingerprint
        self._held.add(request_id)
        self._inc(f"{STATS}/held")
        return request_id

    def next_request(self) -> Request | None:
        assert self.frontier is not None
        now = time.monotonic()
        if now - self._committed_at > COMMIT_INTERVAL:
            self.commit()
        if self._local:
            request = heapq.heappop(self._local)[2]
            return self._dequeued(self.leases.hand(request, self._local_ids.pop(request)))
        if self._unsaved:
            return self._dequeued(self._unsaved.popleft())
        if self._budget_taken():
            return None
        if now < self._next_take_at:
            self._wake_engine_in(self._next_take_at - now)
            return None
        requeue = None  # a re-scored request that fell behind: back with the next take
        while True:
            done, pages = self.leases.done()
            taken, acks = self.frontier.take(done, requeue, *self._spent(pages))
            requeue = None
            self._count_acks(acks)
            self._inc(f"{STATS}/takes")
            if taken is None:
                self._inc(f"{STATS}/takes_empty")
                self._next_take_at = now + self._idle_wait
                self._wake_engine_in(self._idle_wait)
                self._idle_wait = min(self._idle_wait * 2, self.idle_max_wait)
                return None
            self._idle_wait, self._next_status_at = FIRST_IDLE_WAIT, 0.0
            request = self.codec.loads(taken.blob)
            if request is None:
                self.frontier.ack([taken.id])
                continue
            if taken.redelivered_from is not None:
                request.meta[REDELIVERED_META] = taken.redelivered_from
                self._inc(f"{STATS}/redelivered")
            scorer = getattr(self.spider, "frontier_scorer", None)
            if rescore_head(request, scorer, taken.next_priority, self.crawler.stats):
                self._inc(f"{STATS}/taken")
                return self._dequeued(self.leases.hand(request, taken.id))
            requeue = Requeue(taken.id, self.codec.dumps(request), request.priority)

    def __len__(self) -> int:
        queued = 0 if self.frontier is None else self.frontier.status().queued
        return len(self._local) + len(self._unsaved) + queued

    def commit(self) -> None:
        """Make the frontier's changes so far, the stores' with them, survive a kill (before an
        item is written, and every :data:`COMMIT_INTERVAL` seconds; Redis writes at once)."""
        if self.frontier is None:
            return
        if self.frontier.in_transaction:
            self.frontier.carry(self._carried_counters())
        self.frontier.commit()
        self._committed_at = time.monotonic()

    # --- signals --------------------------------------------------------------------------------

    def spider_opened(self) -> None:
        """The counters of the runs before, carried on (the stats collector is open now)."""
        for key, value in self._carried.items():
            self.crawler.stats.set_value(key, value)

    def response_received(self, response: Any, request: Request) -> None:
        self.leases.response_came(request)

    def spider_idle(self) -> None:
        if self._ended:
            raise CloseSpider(self._ended)

    # --- leases ---------------------------------------------------------------------------------

    def _ack_done(self) -> None:
        assert self.frontier is not None
        done, pages = self.leases.done()
        self._count_acks(self.frontier.ack(done, *self._spent(pages)))

    def _spent(self, pages: int) -> tuple[int, int]:
        """``pages`` acknowledged, and the budget they count against, for the frontier's ack:
        counted in the ack itself (none when the page budget is not this scheduler's)."""
        return (pages, self.page_limit) if self.counts_budget else (0, 0)

    def _budget_taken(self) -> bool:
        """Whether the pages counted and the requests leased (by every worker) make the page
        budget: then no request is taken (the crawl ends at the budget, not past it)."""
        if not self.counts_budget:
            return False
        assert self.frontier is not None
        self._ack_done()
        return self.frontier.budget_committed() >= self.page_limit

    def _wake_engine_in(self, delay: float) -> None:
        """Have the engine ask for a request again in ``delay`` seconds, when the next take is
        due. On its own it asks only when a response or a new request comes, or every 5 s (its
        heartbeat): a worker with nothing in flight whose take found nothing would wait those
        5 s. A call of this scheduler's own, not the engine's: the engine's call for its next
        request is once-only, and a delayed one would hold back the engine's own."""
        self.wake.schedule(delay)  # once: a call already due stays as it is

    def _wake_engine(self) -> None:
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None) if engine is not None else None
        if slot is not None:
            slot.nextcall.schedule()

    def _renew(self) -> None:
        assert self.frontier is not None
        self._ack_done()
        self.frontier.renew(self._in_flight())
        if not self.frontier.in_transaction:  # Redis: the counters a restart carries on
            self.frontier.carry(self._carried_counters())
        if not self._local and not self.leases:
            self._take_seeds()

    def _in_flight(self) -> list[str]:
        """Ids of the requests this worker holds leases on and has not acknowledged."""
        return [*map(str, self.leases.ids()), *self._local_ids.values(), *self._held]

    def _keep_local(self, request: Request, request_id: str) -> None:
        self._local_ids[request] = request_id
        heapq.heappush(self._local, (-request.priority, next(self._order), request))
        self._inc(f"{STATS}/kept_on_worker")

    def _count_acks(self, acks: Acks) -> None:
        self._inc(f"{STATS}/acked", acks.acked)
        self._inc(f"{STATS}/late_acks", acks.late)
        if acks.refetched:
            self._inc(f"{STATS}/refetched", acks.refetched)
            logger.warning(
                "%d request(s) were processed twice (their lease expired while in flight)",
                acks.refetched,
            )

    def _resume(self) -> None:
        """A restart: the former self's leases, done (in its output) or not (back to the
        queue at once, redelivered), as :mod:`~bilingual_spider.scheduler.restart` says."""
        assert self.frontier is not None and self.spider is not None
        leased = self.frontier.leased_by(self.frontier.worker)
        if not leased:
            return
        restart = settle_restart(self.crawler, self.spider, leased, self.feeds, self.codec.url_of)
        self._count_acks(self.frontier.ack(restart.done, *self._spent(len(restart.done))))
        requeued = self.frontier.release(restart.again, redelivered=True)
        self._inc(f"{STATS}/resumed_items_forgotten", restart.items_forgotten)
        self._inc(f"{STATS}/resumed_requeued", requeued)
        self._inc(f"{STATS}/resumed_done", len(restart.done))
        self._inc(f"{STATS}/feed_bytes_cut", restart.bytes_cut)
        logger.warning(
            "restarted after a kill (%s): of the %d request(s) it had in flight, %d were in its "
            "output (done) and %d are queued again; %d byte(s) cut from its feeds",
            self.frontier.worker, len(leased), len(restart.done), len(restart.again),
            restart.bytes_cut,
        )  # fmt: skip

    def _carried_counters(self) -> dict[str, Any]:
        """The counters a restart carries on from: those the spider's ``carried_stats``
        prefixes name."""
        prefixes = tuple(getattr(self.spider, "carried_stats", ()))
        if not prefixes:
            return {}
        counters = self.crawler.stats.get_stats().items()
        return {k: v for k, v in counters if k.startswith(prefixes) and isinstance(v, int | float)}

    # --- helpers --------------------------------------------------------------------------------

    def _take_seeds(self) -> None:
        assert self.frontier is not None and self.spider is not None
        make = getattr(self.spider, "seed_request", None)
        if make is None:
            return
        urls = self.frontier.take_seeds(self.seeds)
        for url in urls:
            request = make(url)
            if request is not None:
                self.enqueue_request(request)
        if urls:
            self._inc(f"{STATS}/seeds_taken", len(urls))
            logger.info("took %d seed URL(s) from %s", len(urls), self.seeds)

    def _dequeued(self, request: Request) -> Request:
        self._inc("scheduler/dequeued/frontier")
        return request

    def _inc(self, key: str, count: int = 1) -> None:
        if count:
            self.crawler.stats.inc_value(key, count)
