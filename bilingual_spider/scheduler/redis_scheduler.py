"""The Scrapy scheduler of a distributed crawl: the leased frontier in Redis
(:mod:`bilingual_spider.distributed.frontier`) behind Scrapy's scheduler interface.

Chosen by :class:`~bilingual_spider.scheduler.backend.SchedulerBackend` when ``REDIS_URL`` is
set. Every worker of one crawl (same ``BILINGUAL_REDIS_KEY_PREFIX`` and spider) shares one queue,
ordered by request priority and re-scored lazily at the head with the spider's
``frontier_scorer``, exactly like the embedded queue
(:func:`~bilingual_spider.scheduler.rescoring_queue.rescore_head`).

- **Leases.** A request taken stays leased in Redis until the engine is done with it (its response
  or failure went through the callback, the items through the pipelines, the new requests into
  the queue: the request has left the engine's in-progress set). It is then acknowledged, in the
  same round trip as the next take (as is a taken request that re-scoring put behind the next
  one: it goes back to the queue). Leases of requests still in flight are renewed every third of
  ``BILINGUAL_REDIS_LEASE_SECONDS``; a dead worker's leases expire and their requests go back to
  the queue. At close, requests still in flight are given back at once.
- **Requests that stay on their worker.** A request whose meta has ``keep_on_worker`` set (the
  search service's API calls, whose pacing lives in the worker) is leased to its worker when
  queued and taken from a local queue; if the worker dies it goes back to the shared queue.
- **Requests held before they are released.** A component that holds a request back until it may
  go (the search service, for its API's rate) writes it to Redis at once with :meth:`hold`,
  leased to this worker, and later hands it to the engine with ``meta[HELD_META]`` set to the id
  :meth:`hold` gave: it is then taken from the local queue, not queued twice. If the worker dies
  before that, the lease expires and any worker takes it.
- **Redelivered requests.** A request taken again after its lease expired (its worker died while
  processing it) carries ``meta[REDELIVERED_META]``, the dead worker's name: it may have done part
  of its work (state saved in Redis, the requests that followed not yet queued), and callbacks can
  redo what follows from that state.
- **Seeds.** URLs pushed by ``bilingual-spider seed`` (``PREFIX:seeds``) are taken by whichever
  worker looks first and turned into the spider's seed requests (``spider.seed_request(url)``).
- **Idle and end.** A worker whose take finds the queue empty waits before asking again (0.1 s,
  doubling, at most ``BILINGUAL_REDIS_IDLE_MAX_WAIT``), and has the engine ask it again then
  (on its own the engine asks every 5 s when nothing is in flight). The crawl ends for every
  worker when the queue and the leases are both empty (after something was queued), or when a
  worker ended it (reason in ``BILINGUAL_REDIS_SHARED_END``, e.g. the spider's ``budget``).
- **From scrapy-redis**: the connection (``get_redis_from_settings``: ``REDIS_URL``,
  ``REDIS_PARAMS``) and the request serializer's interface (``SCHEDULER_SERIALIZER``, default
  :mod:`~bilingual_spider.scheduler.compact_serializer`: ``scrapy_redis.picklecompat``'s pickle
  in about a third of its bytes); its scheduler and queues are not used (they pop a request and
  forget it, so a dead worker loses what it held, and know nothing of per-host politeness).
- **Duplicates.** A request's Scrapy fingerprint (its 20-byte digest) is kept in an exact set,
  or with ``BILINGUAL_REDIS_DUPEFILTER = "bloom"`` in a Bloom filter of a fixed size (a false
  positive drops a request never queued: see the setting).
- **A page budget** (``CLOSESPIDER_PAGECOUNT``, for a spider without a budget of its own) is the
  crawl's: pages are counted when acknowledged, in the acknowledging script
  (``PREFIX:SPIDER:counters`` ``budget_pages``, as
  :class:`~bilingual_spider.distributed.page_budget.SharedPageBudget` counts a spider's own
  budget: a worker killed after an acknowledgement has counted its pages), no worker takes a request
  while the pages counted and the requests leased make the budget, and the one that counts the
  last page ends the crawl for every worker (``budget``).
- **A worker restarted after a kill** (``kill -9``, out of memory) with the same
  ``BILINGUAL_REDIS_WORKER_NAME`` finds the leases of its former self: those whose URL is in its
  local JSON-lines feeds were done (acknowledged, counted as pages), the others go back to the
  queue at once (:mod:`~bilingual_spider.scheduler.crash_safe_scheduler` does the same for one
  process). A worker that does not come back within ``BILINGUAL_REDIS_LEASE_SECONDS`` loses its
  leases to the other workers: the pages it had written and not yet acknowledged (a few, those
  finished since its last take) are then written again by another worker.
- **Redis unavailable.** Calls wait and retry (:class:`~bilingual_spider.distributed.connection.
  PatientRedis`), with a WARNING when Redis goes and when it comes back.

Stats: ``scheduler/redis/taken``, ``.../acked``, ``.../late_acks``, ``.../refetched`` (processed
twice: its lease had expired while in flight), ``.../redelivered``, ``.../held``,
``.../released``, ``.../kept_on_worker``, ``.../seeds_taken``, ``.../outages``,
``.../resumed_done``, ``.../resumed_requeued``, ``dupefilter/filtered``, and the crawl-wide
counters of the frontier at close as ``frontier/redis/<name>``.
"""

from __future__ import annotations

import heapq
import importlib
import itertools
import logging
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import Request, signals
from scrapy.exceptions import CloseSpider, UsageError
from scrapy.utils.reactor import CallLaterOnce
from twisted.internet import task

from bilingual_spider.distributed.bloom import BloomShape
from bilingual_spider.distributed.connection import PatientRedis, without_password
from bilingual_spider.distributed.frontier import (
    Acks,
    LeasedFrontier,
    Requeue,
    seeds_key,
    worker_id,
)
from bilingual_spider.distributed.partitioned_frontier import PartitionedFrontier, open_frontier
from bilingual_spider.distributed.partitions import KeyLayout, host_of, redis_key_prefix
from bilingual_spider.output.feed_recovery import (
    local_jsonl_feeds,
)
from bilingual_spider.scheduler import compact_serializer
from bilingual_spider.scheduler.leases import EngineLeases, RequestCodec
from bilingual_spider.scheduler.rescoring_queue import rescore_head
from bilingual_spider.scheduler.restart import settle_restart
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

FIRST_IDLE_WAIT = 0.1


class LeasedRedisScheduler:
    """Scrapy scheduler over a :class:`LeasedFrontier` (see the module docstring)."""

    def __init__(
        self,
        crawler: Crawler,
        redis: PatientRedis,
        prefix: str,
        lease_seconds: float = 60.0,
        idle_max_wait: float = 5.0,
        shared_end: tuple[str, ...] = ("budget",),
        serializer: Any = None,
        bloom: BloomShape | None = None,
        page_limit: int = 0,
        feeds: list[Path] | None = None,
        layout: KeyLayout | None = None,
    ) -> None:
        self.crawler = crawler
        self.layout = layout or KeyLayout(prefix)
        self.page_limit = page_limit
        self.feeds = feeds or []
        self.counts_budget = False
        """The page budget is this scheduler's (not the spider's own): pages are counted in the
        frontier's acks (``budget_pages``, as :mod:`~bilingual_spider.distributed.page_budget`
        counts them)."""
        self.bloom = bloom
        self.serializer = serializer or compact_serializer
        self.redis = redis
        self.prefix = prefix
        self.lease_seconds = lease_seconds
        self.idle_max_wait = idle_max_wait
        self.shared_end = shared_end
        self.frontier: LeasedFrontier | PartitionedFrontier | None = None
        self.spider: Spider | None = None
        self.leases = EngineLeases(crawler)  # handed to the engine, not acknowledged yet
        self.codec = RequestCodec(crawler, self.serializer, lambda: self.spider, "scheduler/redis")
        self._local: list[tuple[int, int, Request]] = []  # heap of requests kept on this worker
        self._local_ids: dict[Request, str] = {}
        self._held: set[str] = set()  # ids written by hold(), not handed to the engine yet
        self._order = itertools.count()
        self._idle_wait = FIRST_IDLE_WAIT
        self._next_take_at = 0.0
        self._next_status_at = 0.0
        self._ended: str | None = None
        self._over = False
        self._renewal: task.LoopingCall | None = None
        self.wake: CallLaterOnce[None] = CallLaterOnce(self._wake_engine)
        """Calls the engine back when this worker's next take is due (see _wake_engine_in)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LeasedRedisScheduler:
        settings = crawler.settings
        redis = PatientRedis.from_crawler(crawler)
        layout = KeyLayout.from_settings(settings)
        scheduler = cls(
            crawler,
            redis,
            redis_key_prefix(settings),
            lease_seconds=settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS"),
            idle_max_wait=settings.getfloat("BILINGUAL_REDIS_IDLE_MAX_WAIT"),
            shared_end=tuple(settings.getlist("BILINGUAL_REDIS_SHARED_END")),
            serializer=importlib.import_module(
                settings.get("SCHEDULER_SERIALIZER") or compact_serializer.__name__
            ),
            bloom=bloom_from_settings(settings, layout.partitions),
            page_limit=settings.getint("BILINGUAL_FRONTIER_PAGE_LIMIT"),
            feeds=local_jsonl_feeds(settings.getdict("FEEDS")),
            layout=layout,
        )
        crawler.signals.connect(scheduler.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(scheduler.response_received, signal=signals.response_received)
        return scheduler

    # --- Scrapy's scheduler interface -----------------------------------------------------------

    def open(self, spider: Spider) -> None:
        self.spider = spider
        base = self.layout.crawl_base(spider.name)
        worker = worker_id(self.crawler)
        self.frontier = open_frontier(
            self.redis, self.layout, spider.name, self.lease_seconds, worker, self.bloom
        )
        other = self.frontier.check_dupefilter()
        if other is not None:
            raise UsageError(
                f"the crawl {base} de-duplicates with {other!r}, this worker with "
                f"{self.frontier.dupefilter!r}: give every worker the same "
                "BILINGUAL_REDIS_DUPEFILTER, BILINGUAL_REDIS_BLOOM_CAPACITY and "
                "BILINGUAL_REDIS_BLOOM_ERROR_RATE and BILINGUAL_REDIS_PARTITIONS (or another "
                "BILINGUAL_REDIS_KEY_PREFIX)"
            )
        logger.info(
            "frontier: Redis at %s, keys %s:*, %d partition(s), leases of %g s, duplicates "
            "filtered by %s",
            without_password(self.redis.url),
            base,
            self.layout.partitions,
            self.lease_seconds,
            "a set" if self.bloom is None else f"a Bloom filter ({self.bloom.bytes} bytes)",
        )
        if getattr(spider, "page_budget", None) is None:
            self.counts_budget = bool(self.page_limit)
        else:  # the spider counts its pages by request: their counts go with their acks
            self.frontier.pages_counted_by_request = True
        self._resume()
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
        released = self.frontier.release(self._in_flight())
        self._inc("scheduler/redis/released", released)
        self.leases.clear()
        self._local_ids.clear()
        self._held.clear()
        if reason in self.shared_end:
            self.frontier.end(reason)
            logger.info("crawl ended for every worker: %s", reason)
        for name, count in self.frontier.counters().items():
            self.crawler.stats.set_value(f"frontier/redis/{name}", count)
        self._inc("scheduler/redis/outages", self.redis.outages)
        self.redis.close()

    def has_pending_requests(self) -> bool:
        if self._local or self._ended:
            return bool(self._local)
        now = time.monotonic()
        if now < self._next_status_at:
            return True
        assert self.frontier is not None
        # this worker's own finished requests no longer count as leased
        self._ack_done()
        status = self.frontier.status(until_work=True)
        self._inc("scheduler/redis/status_checks")
        if status.ended:
            self._ended = status.ended
            return False
        if status.finished:
            if not self._over:
                logger.info("frontier and leases empty: the crawl is over for every worker")
            self._over = True
            return False
        self._next_status_at = now + self._idle_wait
        return True

    def crawl_is_idle(self) -> bool:
        """Whether no worker has anything left: nothing queued or leased in Redis (asked now,
        after acknowledging this worker's finished requests), or the crawl ended. A spider that
        moves the crawl to a next stage once it is idle asks this under its own lock."""
        if self._local:
            return False
        assert self.frontier is not None
        self._ack_done()
        return self.frontier.status(until_work=True).finished

    def enqueue_request(self, request: Request) -> bool:
        assert self.frontier is not None and self.spider is not None
        held_id = request.meta.pop(HELD_META, None)
        if held_id in self._held:  # written by hold(): in Redis already, leased to this worker
            self._held.discard(held_id)
            self._keep_local(request, held_id)
            return True
        fingerprint = None
        if not request.dont_filter:  # the digest (20 bytes in Redis, not 40 hex digits)
            fingerprint = duplicate_fingerprint(request, self.crawler.request_fingerprinter)
        local = bool(request.meta.get(WORKER_LOCAL_META))
        blob = self.codec.dumps(request)
        host = host_of(request.url)
        request_id = self.frontier.push(blob, request.priority, fingerprint, local, host)
        if request_id is None:
            self._inc("dupefilter/filtered")
            return False
        self._inc("scheduler/enqueued/redis")
        if local:
            self._keep_local(request, request_id)
        else:
            self._idle_wait, self._next_take_at = FIRST_IDLE_WAIT, 0.0  # there is work: take now
        return True

    def hold(self, request: Request) -> str | None:
        """Write ``request`` to Redis now, leased to this worker, before it is released to the
        engine (with ``meta[HELD_META]`` = the id returned). None: no frontier yet."""
        if self.frontier is None or self.spider is None:
            return None
        blob = self.codec.dumps(request)
        request_id = self.frontier.push(blob, request.priority, None, True, host_of(request.url))
        assert request_id is not None  # never filtered: no fingerprint
        self._held.add(request_id)
        self._inc("scheduler/redis/held")
        return request_id

    def next_request(self) -> Request | None:
        assert self.frontier is not None
        if self._local:
            request = heapq.heappop(self._local)[2]
            return self._dequeued(self.leases.hand(request, self._local_ids.pop(request)))
        now = time.monotonic()
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
            self._inc("scheduler/redis/takes")
            if taken is None:
                self._inc("scheduler/redis/takes_empty")
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
                self._inc("scheduler/redis/redelivered")
            scorer = getattr(self.spider, "frontier_scorer", None)
            if rescore_head(request, scorer, taken.next_priority, self.crawler.stats):
                self._inc("scheduler/redis/taken")
                return self._dequeued(self.leases.hand(request, taken.id))
            requeue = Requeue(taken.id, self.codec.dumps(request), request.priority)

    def __len__(self) -> int:
        return 0 if self.frontier is None else self.frontier.status().queued

    # --- signals --------------------------------------------------------------------------------

    def response_received(self, response: Any, request: Request) -> None:
        self.leases.response_came(request)

    def spider_idle(self) -> None:
        if self._ended:
            raise CloseSpider(self._ended)

    # --- leases ---------------------------------------------------------------------------------

    def _ack_done(self) -> None:
        done, pages = self.leases.done()
        self._count_acks(self.frontier.ack(done, *self._spent(pages)))

    def _spent(self, pages: int) -> tuple[int, int]:
        """``pages`` acknowledged, and the budget they count against, for the frontier's ack:
        counted in the ack's own script (none when the page budget is not this scheduler's)."""
        return (pages, self.page_limit) if self.counts_budget else (0, 0)

    def _engine_slot(self) -> Any:
        """The engine's slot (its requests in progress, its call for the next request), or
        None before the engine has one."""
        engine = self.crawler.engine
        return getattr(engine, "_slot", None) if engine is not None else None

    def _wake_engine_in(self, delay: float) -> None:
        """Have the engine ask for a request again in ``delay`` seconds, when the next take is
        due. On its own it asks only when a response or a new request comes, or every 5 s (its
        heartbeat): a worker with nothing in flight whose take found nothing waited those 5 s,
        whatever ``BILINGUAL_REDIS_IDLE_MAX_WAIT`` said (two workers given one 40-page budget:
        the one whose first two takes came before the other had queued its links processed
        none). A call of this scheduler's own, not the engine's: the engine's call for its
        next request is once-only, and a delayed one would hold back the engine's own (a
        response come, new requests queued) until then."""
        self.wake.schedule(delay)  # once: a call already due stays as it is

    def _wake_engine(self) -> None:
        slot = self._engine_slot()
        if slot is not None:
            slot.nextcall.schedule()

    def _renew(self) -> None:
        assert self.frontier is not None
        self._ack_done()
        self.frontier.renew(self._in_flight())
        if not self._local and not self.leases:
            self._take_seeds()

    def _in_flight(self) -> list[str]:
        """Ids of the requests this worker holds leases on and has not acknowledged."""
        return [*self.leases.ids(), *self._local_ids.values(), *self._held]

    def _keep_local(self, request: Request, request_id: str) -> None:
        self._local_ids[request] = request_id
        heapq.heappush(self._local, (-request.priority, next(self._order), request))
        self._inc("scheduler/redis/kept_on_worker")

    def _count_acks(self, acks: Acks) -> None:
        self._inc("scheduler/redis/acked", acks.acked)
        self._inc("scheduler/redis/late_acks", acks.late)
        if acks.refetched:
            self._inc("scheduler/redis/refetched", acks.refetched)
            logger.warning(
                "%d request(s) were processed twice (their lease expired while in flight)",
                acks.refetched,
            )

    def _budget_taken(self) -> bool:
        """Whether the pages counted and the requests leased (by every worker) make the page
        budget: then no request is taken (so the crawl ends at the budget, not past it)."""
        if not self.counts_budget:
            return False
        assert self.frontier is not None
        self._ack_done()
        return self.frontier.budget_committed() >= self.page_limit

    def _resume(self) -> None:
        """A worker restarted under its old name: its former self's leases, done (in its
        output) or not (back to the queue at once, redelivered); its claims on items its
        output does not hold forgotten first (see the module doc)."""
        assert self.frontier is not None and self.spider is not None
        leased = self.frontier.leased_by(self.frontier.worker)
        if not leased:
            return
        restart = settle_restart(self.crawler, self.spider, leased, self.feeds, self.codec.url_of)
        self._inc("scheduler/redis/resumed_items_forgotten", restart.items_forgotten)
        self._count_acks(self.frontier.ack(restart.done, *self._spent(len(restart.done))))
        requeued = self.frontier.release(restart.again, redelivered=True)
        self._inc("scheduler/redis/resumed_requeued", requeued)
        self._inc("scheduler/redis/resumed_done", len(restart.done))
        logger.warning(
            "worker %s restarted: of the %d request(s) it had in flight, %d were in its output "
            "(done) and %d are queued again; %d byte(s) cut from its feeds",
            self.frontier.worker, len(leased), len(restart.done), len(restart.again),
            restart.bytes_cut,
        )  # fmt: skip

    # --- helpers --------------------------------------------------------------------------------

    def _take_seeds(self) -> None:
        assert self.frontier is not None and self.spider is not None
        make = getattr(self.spider, "seed_request", None)
        if make is None:
            return
        urls = self.frontier.take_seeds(seeds_key(self.prefix))
        for url in urls:
            request = make(url)
            if request is not None:
                self.enqueue_request(request)
        if urls:
            self._inc("scheduler/redis/seeds_taken", len(urls))
            logger.info("took %d seed URL(s) from %s", len(urls), seeds_key(self.prefix))

    def _dequeued(self, request: Request) -> Request:
        self._inc("scheduler/dequeued/redis")
        return request

    def _inc(self, key: str, count: int = 1) -> None:
        if count:
            self.crawler.stats.inc_value(key, count)


def bloom_from_settings(settings: Any, partitions: int = 1) -> BloomShape | None:
    """``BILINGUAL_REDIS_DUPEFILTER``: ``set`` (None) or ``bloom`` (its shape from
    ``BILINGUAL_REDIS_BLOOM_CAPACITY`` and ``BILINGUAL_REDIS_BLOOM_ERROR_RATE``; with
    ``partitions``, each partition's filter, holding its share of the capacity)."""
    kind = str(settings.get("BILINGUAL_REDIS_DUPEFILTER")).lower()
    if kind == "set":
        return None
    if kind != "bloom":
        raise UsageError(f"BILINGUAL_REDIS_DUPEFILTER is set or bloom, not {kind!r}")
    try:
        return BloomShape.for_capacity(
            -(-settings.getint("BILINGUAL_REDIS_BLOOM_CAPACITY") // partitions),
            settings.getfloat("BILINGUAL_REDIS_BLOOM_ERROR_RATE"),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
