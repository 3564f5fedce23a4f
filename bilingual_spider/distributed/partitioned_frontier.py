"""A leased frontier split into partitions by host: one :class:`~.frontier.LeasedFrontier` per
partition, each in keys of one Redis Cluster hash tag (:mod:`~.partitions`), so that each
partition lives on one master and every script stays on one server.

A request is queued in its host's partition (its duplicate filter too: the same URL is the same
host). A worker takes from every partition in turn, from a random start: :data:`TAKE_BATCH`
takes in a row from one partition (so the acknowledgements of the requests it took there ride on
its next takes, as on one Redis), then the next partition; an empty partition is passed at once.
Request ids carry their partition (``P:ID``), so acknowledgements, renewals and releases go to
the partition that holds the lease, grouped: one call per partition concerned.

Crawl-wide state has its own keys (``{PREFIX:SPIDER}:...``): the end of the crawl (``ended``, and
copied to every partition by :meth:`PartitionedFrontier.end`, since a partition's take script
sees its own keys only), the page budget (``counters`` field ``budget_pages``: counted in a
script of its own, so a kill between an acknowledgement and its count can leave a few pages
uncounted: the crawl then overshoots its budget by those) and the record of the duplicate filter
and partitions every worker must share. The crawl is over when every partition is empty of
queued and leased requests, or when it ended.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from bilingual_spider.distributed.bloom import BloomShape
from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.frontier import (
    Acks,
    Fingerprint,
    FrontierStatus,
    LeasedFrontier,
    Requeue,
    Taken,
    hash_count,
    record_once,
    text_of,
)
from bilingual_spider.distributed.page_budget import SharedPageBudget
from bilingual_spider.distributed.partitions import KeyLayout

TAKE_BATCH = 8
"""Takes in a row from one partition before the next one's turn."""


def qualified(partition: int, request_id: str) -> str:
    """A request id that names its partition."""
    return f"{partition}:{request_id}"


def split_id(request_id: str) -> tuple[int, str]:
    """``P:ID`` -> ``(P, ID)``."""
    partition, _, local = request_id.partition(":")
    return int(partition), local


def _sum(acks: Iterable[Acks]) -> Acks:
    acks = list(acks)
    return Acks(*(sum(getattr(a, f) for a in acks) for f in ("acked", "late", "refetched")))


class PartitionedFrontier:
    """The frontier of one crawl over the partitions of ``layout`` (the interface of
    :class:`~.frontier.LeasedFrontier`; :meth:`push` and :meth:`seen` also take the request's
    host).

    Parameters
    ----------
    bloom:
        The Bloom filter of each partition (None: exact sets).
    """

    pages_counted_by_request = False
    """Whether the spider counts its pages against a :class:`~.page_budget.SharedPageBudget`
    by request id (crawl-wide ``counted``, ``backforth`` on Redis): an acknowledged request's
    field is then dropped from it (as one Redis's acknowledging script drops it), so the hash
    holds the requests in flight, not one field per page of the crawl."""

    def __init__(
        self,
        redis: PatientRedis,
        layout: KeyLayout,
        spider: str,
        lease_seconds: float = 60.0,
        worker: str = "",
        bloom: BloomShape | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.redis = redis
        self.layout = layout
        self.base = layout.crawl_base(spider)
        self.parts = [
            LeasedFrontier(redis, layout.partition_base(spider, p), lease_seconds, worker, bloom)
            for p in range(layout.partitions)
        ]
        self.worker = self.parts[0].worker
        self.bloom = bloom
        names = ("counters", "ended", "dupefilter", "counted")
        self.keys = {name: f"{self.base}:{name}" for name in names}
        self._rng = rng or random.Random()
        self._cursor = self._rng.randrange(layout.partitions)
        self._streak = 0
        self._budgets: dict[int, SharedPageBudget] = {}

    @property
    def dupefilter(self) -> str:
        return f"{self.parts[0].dupefilter} partitions={len(self.parts)}"

    def check_dupefilter(self) -> str | None:
        """As :meth:`LeasedFrontier.check_dupefilter`, the partitions included."""
        return record_once(self.redis, self.keys["dupefilter"], self.dupefilter)

    def partition(self, host: str) -> LeasedFrontier:
        return self.parts[self.layout.partition_of(host)]

    def push(
        self,
        blob: bytes,
        priority: int,
        fingerprint: Fingerprint | None,
        leased: bool = False,
        host: str = "",
    ) -> str | None:
        p = self.layout.partition_of(host)
        request_id = self.parts[p].push(blob, priority, fingerprint, leased)
        return None if request_id is None else qualified(p, request_id)

    def seen(self, fingerprint: Fingerprint, host: str = "") -> bool:
        return self.partition(host).seen(fingerprint)

    def take(
        self,
        done: Sequence[str] = (),
        requeue: Requeue | None = None,
        pages: int = 0,
        budget: int = 0,
    ) -> tuple[Taken | None, Acks]:
        """Acknowledge ``done`` and put ``requeue`` back (in their partitions), count ``pages``
        against the crawl's ``budget``, then take a request from the partition whose turn it is
        (the next non-empty one; None when all are empty or the crawl ended)."""
        self._spend(pages, budget)
        groups = self._grouped(done)
        again: dict[int, Requeue] = {}
        if requeue is not None:
            p, local = split_id(requeue.id)
            again[p] = Requeue(local, requeue.blob, requeue.priority)
        acks: list[Acks] = []
        taken = None
        for step in range(len(self.parts)):
            p = (self._cursor + step) % len(self.parts)
            ids = groups.pop(p, [])
            got, ack = self.parts[p].take(ids, again.pop(p, None))
            acks.append(self._forget_counted(p, ids, ack))
            if got is not None:
                self._turn(p)
                taken = Taken(
                    qualified(p, got.id), got.blob, got.next_priority, got.redelivered_from
                )
                break
        else:
            self._cursor, self._streak = (self._cursor + 1) % len(self.parts), 0
        for p, ids in groups.items():  # those of partitions not visited
            acks.append(self._forget_counted(p, ids, self.parts[p].ack(ids)))
        for p, item in again.items():
            self.parts[p].requeue(item.id, item.blob, item.priority)
        return taken, _sum(acks)

    def _turn(self, partition: int) -> None:
        """A request was taken from ``partition``: it keeps the turn for :data:`TAKE_BATCH`
        takes in a row, then the next partition has it."""
        if partition != self._cursor:
            self._cursor, self._streak = partition, 0
        self._streak += 1
        if self._streak >= TAKE_BATCH:
            self._cursor, self._streak = (partition + 1) % len(self.parts), 0

    def _spend(self, pages: int, budget: int) -> None:
        if pages <= 0 or budget <= 0:
            return
        if budget not in self._budgets:
            self._budgets[budget] = SharedPageBudget(self.redis, self.base, budget)
        if self._budgets[budget].spend(pages) >= budget:
            self.end("budget")

    def _grouped(self, ids: Iterable[str]) -> dict[int, list[str]]:
        groups: dict[int, list[str]] = defaultdict(list)
        for request_id in ids:
            p, local = split_id(request_id)
            groups[p].append(local)
        return dict(groups)

    def ack(self, ids: Sequence[str], pages: int = 0, budget: int = 0) -> Acks:
        self._spend(pages, budget)
        return _sum(
            self._forget_counted(p, local, self.parts[p].ack(local))
            for p, local in self._grouped(ids).items()
        )

    def _forget_counted(self, partition: int, ids: Sequence[str], acks: Acks) -> Acks:
        """The page counts of the requests ``ids`` of ``partition`` just acknowledged dropped
        (with :attr:`pages_counted_by_request`). Not when one of them was taken again by
        another worker (its lease expired in flight): its count stays, so its second
        processing is not counted again (the field stays until the crawl's keys go)."""
        if self.pages_counted_by_request and ids and not acks.refetched:
            fields = [qualified(partition, request_id) for request_id in ids]
            self.redis.call(self.redis.client.hdel, self.keys["counted"], *fields)
        return acks

    def leased_by(self, worker: str) -> list[tuple[str, bytes]]:
        return [
            (qualified(p, request_id), blob)
            for p, part in enumerate(self.parts)
            for request_id, blob in part.leased_by(worker)
        ]

    def renew(self, ids: Iterable[str]) -> int:
        return sum(self.parts[p].renew(local) for p, local in self._grouped(ids).items())

    def release(self, ids: Sequence[str], redelivered: bool = False) -> int:
        return sum(
            self.parts[p].release(local, redelivered) for p, local in self._grouped(ids).items()
        )

    def requeue(self, request_id: str, blob: bytes, priority: int) -> bool:
        p, local = split_id(request_id)
        return self.parts[p].requeue(local, blob, priority)

    def status(self, until_work: bool = False) -> FrontierStatus:
        """Queue and lease sizes over every partition (expired leases reclaimed first), and why
        the crawl ended. ``until_work``: stop at the first partition (from a random one) with a
        request queued or leased (the sizes are then partial, but the crawl is not over)."""
        ended = self.redis.call(self.redis.client.get, self.keys["ended"])
        if ended is not None:
            return FrontierStatus(0, 0, 0, text_of(ended))
        queued = leased = ever = 0
        start = self._rng.randrange(len(self.parts))
        for step in range(len(self.parts)):
            status = self.parts[(start + step) % len(self.parts)].status()
            if status.ended is not None:
                return FrontierStatus(queued, leased, ever, status.ended)
            queued, leased = queued + status.queued, leased + status.leased
            ever += status.ever_queued
            if until_work and queued + leased > 0:
                break
        return FrontierStatus(queued, leased, ever, None)

    def end(self, reason: str) -> None:
        """End the crawl for every worker, in every partition (the first reason given stays)."""
        self.redis.call(self.redis.client.set, self.keys["ended"], reason, nx=True)
        for part in self.parts:
            part.end(reason)

    def budget_spent(self) -> int:
        """Pages counted against the crawl's page budget by every worker (crawl-wide)."""
        return hash_count(self.redis, self.keys["counters"], "budget_pages")

    def budget_committed(self) -> int:
        """The pages counted against the page budget (the leases are not added, unlike one
        frontier's: counting them would ask every partition at every take; so the crawl may
        overshoot its budget by the requests in flight then)."""
        return self.budget_spent()

    def counters(self) -> dict[str, int]:
        """The partitions' counters summed, with the crawl-wide ones (``budget_pages``)."""
        raw = self.redis.call(self.redis.client.hgetall, self.keys["counters"])
        total = {text_of(k): int(v) for k, v in raw.items()}
        for part in self.parts:
            for name, count in part.counters().items():
                total[name] = total.get(name, 0) + count
        return total

    def take_seeds(self, seeds_key: str, most: int = 1000) -> list[str]:
        return self.parts[0].take_seeds(seeds_key, most)

    in_transaction = False

    def commit(self) -> None:
        """Nothing to commit: every change is written at once."""

    def carried(self) -> dict[str, Any]:
        return self.parts[0].carried()

    def carry(self, counters: dict[str, Any]) -> None:
        self.parts[0].carry(counters)

    def close(self) -> None:
        self.redis.close()


def open_frontier(
    redis: PatientRedis,
    layout: KeyLayout,
    spider: str,
    lease_seconds: float,
    worker: str,
    bloom: BloomShape | None,
) -> LeasedFrontier | PartitionedFrontier:
    """The frontier of a crawl: one :class:`LeasedFrontier` under the names of before on one
    Redis with one partition, else a :class:`PartitionedFrontier`."""
    if not layout.tagged:
        return LeasedFrontier(redis, layout.crawl_base(spider), lease_seconds, worker, bloom)
    return PartitionedFrontier(redis, layout, spider, lease_seconds, worker, bloom)
