"""One crawl's state beyond Scrapy's own (issue 53): every store a spider, middleware or pipeline
keeps, built once per crawl and spider from the settings.

- ``REDIS_URL`` set: the Redis stores of :mod:`bilingual_spider.distributed`, shared by every
  worker of the crawl (its keys under ``BILINGUAL_REDIS_KEY_PREFIX:SPIDER``).
- Otherwise: their twins in this process's memory (:mod:`bilingual_spider.state.memory`,
  :class:`~bilingual_spider.detection.store.InMemorySiteStore`,
  :class:`~bilingual_spider.patterns.round_state.InMemoryRoundStore`). With ``JOBDIR`` and the
  crash-safe frontier, the same classes over collections kept in the frontier's file, written
  in its transactions (:mod:`bilingual_spider.state.sqlite`).

Callers ask ``CrawlState.of(crawler, spider_name)`` and use each store as it is: none of them
tests which backend runs. :attr:`CrawlState.shares_requests` says whether other workers take
requests from the same frontier (a request filtered by a crawl-wide key, see
:data:`~bilingual_spider.state.request_meta.DUPLICATE_KEY_META`).
"""

from __future__ import annotations

import logging
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from scrapy.exceptions import UsageError

from bilingual_spider.detection.store import InMemorySiteStore, SiteStore
from bilingual_spider.distributed.backlinks_asked import SharedBacklinksAsked
from bilingual_spider.distributed.bloom import bloom_from_settings
from bilingual_spider.distributed.connection import PatientRedis, without_password
from bilingual_spider.distributed.counters import SharedCounters
from bilingual_spider.distributed.found_by import SharedFoundBy
from bilingual_spider.distributed.frontier import LeasedFrontier, worker_id
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.distributed.page_budget import SharedPageBudget
from bilingual_spider.distributed.partitioned_frontier import PartitionedFrontier, open_frontier
from bilingual_spider.distributed.partitions import KeyLayout, shared_crawl_base
from bilingual_spider.distributed.pupsniffer_store import RedisRoundStore
from bilingual_spider.distributed.site_store import RedisSiteStore
from bilingual_spider.distributed.written_items import WrittenItems
from bilingual_spider.patterns.round_state import InMemoryRoundStore, RoundStore
from bilingual_spider.scheduler.sqlite_frontier import FRONTIER_FILE, SqliteFrontier
from bilingual_spider.state.memory import (
    BacklinksAskedInMemory,
    FoundByInMemory,
    LinkModelsInMemory,
    PageBudgetInMemory,
    WrittenItemsInMemory,
)
from bilingual_spider.state.sqlite import SqliteSet, SqliteTable

if TYPE_CHECKING:
    from collections.abc import MutableMapping, Sequence

    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

_ATTRIBUTE = "_bilingual_crawl_states"

FoundBy = SharedFoundBy | FoundByInMemory
BacklinksAsked = SharedBacklinksAsked | BacklinksAskedInMemory
WrittenItemsStore = WrittenItems | WrittenItemsInMemory
PageBudget = SharedPageBudget | PageBudgetInMemory
RequestFrontier = LeasedFrontier | PartitionedFrontier | SqliteFrontier


class CrawlState:
    """The stores of the crawl of ``spider_name`` (see the module docstring)."""

    def __init__(self, crawler: Crawler, spider_name: str) -> None:
        self.crawler = crawler
        self.spider_name = spider_name
        self.base = shared_crawl_base(crawler, spider_name)
        """The crawl's keys in Redis (None: a one-process crawl)."""
        settings = crawler.settings
        jobdir = settings.get("JOBDIR")
        crash_safe = settings.getbool("BILINGUAL_CRASH_SAFE_FRONTIER")
        self.jobdir = jobdir if self.base is None and jobdir and crash_safe else None
        """Where the stores are kept with the frontier (None: in Redis, or in memory)."""
        self._frontier: SqliteFrontier | None = None

    @classmethod
    def of(cls, crawler: Crawler, spider_name: str | None = None) -> CrawlState:
        """The crawl's state, built at the first call (``spider_name``: the crawler's spider's
        by default)."""
        name = spider_name or getattr(crawler.spider, "name", None) or "crawl"
        states: dict[str, CrawlState] = crawler.__dict__.setdefault(_ATTRIBUTE, {})
        if name not in states:
            states[name] = cls(crawler, name)
        return states[name]

    @property
    def shares_requests(self) -> bool:
        """Whether other workers take requests from this crawl's frontier."""
        return self.base is not None

    def frontier(self, path: str | Path | None = None) -> SqliteFrontier:
        """The crawl's SQLite frontier, ``JOBDIR/frontier.sqlite3`` unless ``path`` says
        otherwise (opened at the first call, by the crash-safe scheduler or by a store): its
        transactions are the stores' too."""
        if self._frontier is None or self._frontier.closed:
            where = path or Path(str(self.crawler.settings["JOBDIR"])) / FRONTIER_FILE
            self._frontier = SqliteFrontier(where)
        return self._frontier

    def request_frontier(self) -> RequestFrontier:
        """The crawl's frontier of requests, for its leased scheduler: the Redis frontier
        shared by every worker (its own connection), or the SQLite file of ``JOBDIR``. Refused
        (``UsageError``) when it belongs to another spider, or when the workers' duplicate
        filters disagree."""
        if self.base is None:
            frontier = self.frontier()
            owner = frontier.get("spider")
            if owner is None:
                frontier.set("spider", self.spider_name)
            elif owner != self.spider_name:
                raise UsageError(
                    f"JOBDIR {frontier.path.parent} holds the frontier of the {owner} spider, "
                    f"not of {self.spider_name}: give this crawl a JOBDIR of its own"
                )
            return frontier
        settings = self.crawler.settings
        layout = KeyLayout.from_settings(settings)
        redis = PatientRedis.from_crawler(self.crawler)
        bloom = bloom_from_settings(settings, layout.partitions)
        lease_seconds = settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS")
        shared = open_frontier(
            redis, layout, self.spider_name, lease_seconds, worker_id(self.crawler), bloom
        )
        other = shared.check_dupefilter()
        if other is not None:
            raise UsageError(
                f"the crawl {self.base} de-duplicates with {other!r}, this worker with "
                f"{shared.dupefilter!r}: give every worker the same "
                "BILINGUAL_REDIS_DUPEFILTER, BILINGUAL_REDIS_BLOOM_CAPACITY and "
                "BILINGUAL_REDIS_BLOOM_ERROR_RATE and BILINGUAL_REDIS_PARTITIONS (or another "
                "BILINGUAL_REDIS_KEY_PREFIX)"
            )
        logger.info(
            "frontier: Redis at %s, keys %s:*, %d partition(s), leases of %g s, duplicates "
            "filtered by %s",
            without_password(redis.url),
            self.base,
            layout.partitions,
            lease_seconds,
            "a set" if bloom is None else f"a Bloom filter ({bloom.bytes} bytes)",
        )
        return shared

    @cached_property
    def _redis(self) -> PatientRedis:
        return PatientRedis.from_crawler(self.crawler)

    @cached_property
    def found_by(self) -> FoundBy:
        """How each site was first reached."""
        if self.jobdir is not None:
            return FoundByInMemory(SqliteTable(self.frontier, "found_by"))
        if self.base is None:
            return FoundByInMemory()
        return SharedFoundBy(self._redis, self.base)

    @cached_property
    def backlinks_asked(self) -> BacklinksAsked:
        """The bilingual sites whose backlinks were asked."""
        if self.jobdir is not None:
            return BacklinksAskedInMemory(SqliteSet(self.frontier, "backlinks_asked"))
        if self.base is None:
            return BacklinksAskedInMemory()
        return SharedBacklinksAsked(self._redis, self.base)

    @cached_property
    def written_items(self) -> WrittenItemsStore:
        """The verdicts and site records written, crawl-wide."""
        if self.base is None:
            return WrittenItemsInMemory()
        return WrittenItems(self._redis, self.base, worker_id(self.crawler))

    @cached_property
    def sites(self) -> SiteStore:
        """The detector's sites under way and its verdicts."""
        if self.jobdir is not None:
            return InMemorySiteStore(
                SqliteSet(self.frontier, "site_claims"),
                SqliteTable(self.frontier, "site_states"),
                SqliteTable(self.frontier, "site_verdicts"),
            )
        if self.base is None:
            return InMemorySiteStore()
        claim_seconds = self.crawler.settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS")
        return RedisSiteStore(self._redis, self.base, claim_seconds, worker_id(self.crawler))

    @cached_property
    def rounds(self) -> RoundStore:
        """PupSniffer's sites, pages and rounds."""
        if self.jobdir is not None:
            return InMemoryRoundStore(
                lambda name: SqliteTable(self.frontier, f"rounds_{name}"),
                lambda name: SqliteSet(self.frontier, f"rounds_{name}"),
            )
        if self.base is None:
            return InMemoryRoundStore()
        lock_seconds = self.crawler.settings.getfloat("BILINGUAL_PUPSNIFFER_STAGE_LOCK_SECONDS")
        return RedisRoundStore(self._redis, self.base, lock_seconds)

    @cached_property
    def counters(self) -> MutableMapping[str, int] | SharedCounters:
        """A spider's own counters (``get(name, 0)``, ``[name] = n``)."""
        if self.jobdir is not None:
            return SqliteTable(self.frontier, "counters")
        if self.base is None:
            return {}
        return SharedCounters(self._redis, self.base)

    def same_run(self, what: str, value: str) -> None:
        """Record ``value`` as what this crawl is (``what``: ``backforth``'s strategy,
        ``pupsniffer``'s mode) when first asked; with ``JOBDIR``, a crawl resumed with another
        ``value`` than its first run's is refused (``UsageError``, one line)."""
        run = self.__dict__.get("_run")
        if run is None:
            run = SqliteTable(self.frontier, "run") if self.jobdir is not None else {}
            self.__dict__["_run"] = run
        begun = run.setdefault(what, value)
        if begun != value:
            raise UsageError(
                f"JOBDIR holds a crawl whose {what} is {begun}, and this command asks for "
                f"{value}: resume it with the same arguments"
            )

    def page_budget(self, budget: int) -> PageBudget:
        """The pages counted against the crawl's ``budget`` (one store a crawl)."""
        store = self.__dict__.get("_page_budget")
        if store is None:
            if self.jobdir is not None:
                totals = SqliteTable(self.frontier, "budget")
                store = PageBudgetInMemory(budget, totals, SqliteSet(self.frontier, "budget_ids"))
            elif self.base is None:
                store = PageBudgetInMemory(budget)
            else:
                store = SharedPageBudget(self._redis, self.base, budget)
            self.__dict__["_page_budget"] = store
        return store

    def link_models(
        self, roles: Sequence[str], learning_interval: int, most: int, seed: int
    ) -> SharedLinkModels | LinkModelsInMemory:
        """The link classifiers' examples and models: every worker's (Redis), or this process's,
        kept at each learning iteration (with ``JOBDIR``, in the frontier's file)."""
        if self.base is None:
            kept = SqliteTable(self.frontier, "learning") if self.jobdir is not None else None
            return LinkModelsInMemory(roles, learning_interval, kept)
        settings = self.crawler.settings
        return SharedLinkModels(
            self._redis,
            self.base,
            roles,
            learning_interval,
            max_examples_per_class=most,
            lock_seconds=settings.getfloat("BILINGUAL_REDIS_LEASE_SECONDS"),  # as a lease
            seed=seed,
        )
