"""The shared frontier of a distributed crawl: a priority queue in Redis whose requests are leased,
never popped.

A worker that takes a request moves it from the queue to the leases (one atomic script); the
request stays in Redis, under a deadline, until the worker acknowledges that its response was
processed (its items emitted, its new requests queued). A worker renews the leases of the
requests it still has in flight; a lease whose deadline passed (its worker was killed, its
machine is gone) puts the request back in the queue, where any worker takes it. So nothing is
lost, and a request is processed twice only when a live worker's lease expired while its request
was in flight (counted: ``refetched``).

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:queue     ZSET  request id -> order (-priority * 2**32 + sequence: by priority, then FIFO)
    BASE:requests  HASH  request id -> the serialized request (bytes; the caller's format)
    BASE:order     HASH  leased request id -> its order in the queue (where an expired lease puts
                         it back; a queued request's order is its score in the queue)
    BASE:leases    ZSET  request id -> lease deadline (Redis server time, ms)
    BASE:owners    HASH  request id -> the worker holding its lease
    BASE:seen      SET   fingerprints of the requests queued so far (duplicate filter, exact; the
                         scheduler gives 20-byte digests, not their 40 hex digits)
    BASE:bloom     STRING the same as a Bloom filter's bitmap (``dupefilter="bloom"``: a bounded
                         size, but a false positive drops a request never queued; see
                         :mod:`bilingual_spider.distributed.bloom`)
    BASE:dupefilter STRING the duplicate filter the first worker used (``set of digests``, or
                         ``bloom of digests`` with its bits and hashes): a worker with another
                         one (or with the hex fingerprints of before) refuses to start
    BASE:sequence  STRING requests ever queued (ids and FIFO order)
    BASE:counters  HASH  queued, filtered, taken, acked, reclaimed, refetched, late_acks, requeued,
                         redis_restarts; budget_pages (pages counted against a page budget
                         by every worker: :class:`SharedPageBudget`)
    BASE:ended     STRING why the crawl ended for every worker (e.g. ``budget``)
    BASE:heard     HASH  run id of the Redis server and its time when a worker last reclaimed
                         or renewed: after a restart, the leases get the time it was down back
    BASE:redelivered HASH request id -> the worker whose lease on it expired: the worker that
                         takes it again is told (:attr:`Taken.redelivered_from`), since the dead
                         worker may have done part of its work (saved state, not yet queued what
                         followed)
    BASE:counted   HASH  request id -> 1 once its page counted against the page budget
                         (:class:`~.page_budget.SharedPageBudget`): a request redelivered
                         after its worker died mid-way is not counted again; dropped with
                         the request when it is acknowledged
    PREFIX:seeds   LIST  seed URLs pushed by ``bilingual-spider seed`` for any spider

On a Redis Cluster, or with ``BILINGUAL_REDIS_PARTITIONS`` above 1, these are the keys of one
partition of the frontier, ``BASE`` a partition's (``{PREFIX:p7}:SPIDER``: one hash tag, one
master), and :class:`~.partitioned_frontier.PartitionedFrontier` takes from all of them (see
:mod:`~.partitions`).

A worker's take is one script call that also acknowledges the requests it finished and puts
back the request it re-scored below the next one (the lazy re-scoring of the scheduler), and
reclaims expired leases when no take did for a second (crawl-wide, :data:`RECLAIM_EVERY_MS`):
so its cost per page does not grow with the number of workers.

Time is Redis's own clock (``TIME``), so the workers' clocks need not agree. When Redis restarts
(its AOF keeps the frontier), the time it was down is added to every lease, so that the leases
of workers that waited for it do not expire meanwhile (a dead worker's leases then expire that
much later). This module knows
nothing of Scrapy: requests are bytes with a priority and a fingerprint.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bilingual_spider.distributed.bloom import BloomShape
from bilingual_spider.distributed.connection import PatientRedis

Fingerprint = str | bytes
"""A request's fingerprint as the duplicate filter keeps it (the scheduler's: Scrapy's digest)."""
FINGERPRINTS = "digests"
"""What the scheduler gives as fingerprints (recorded with the duplicate filter: workers that
gave the 40 hex digits of the same digests, as before, would not see these as duplicates)."""

RECLAIM_EVERY_MS = 1000
"""Takes reclaim expired leases at most this often crawl-wide (a tenth of a shorter lease): a
dead worker's requests come back at most that late after their lease ends."""
ORDER_SCALE = 2**32
"""An order is ``-priority * ORDER_SCALE + sequence``: exact in a double for |priority| < 2**20."""

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
# Every script gets the same KEYS: 1 queue, 2 order, 3 leases, 4 counters, 5 requests, 6 seen,
# 7 sequence, 8 ended, 9 lease owners, 10 heard, 11 bloom, 12 redelivered, 13 counted. The time
# Redis was down (restarted: its run id changed since a worker last heard from it) is not held
# against the leases; then expired leases go back to the queue, marked as redelivered:
_HEARD = """
local function heard(now)
  local run = string.match(redis.call('INFO', 'server'), 'run_id:(%w+)')
  local last = redis.call('HMGET', KEYS[10], 'run', 'at')
  redis.call('HSET', KEYS[10], 'run', run, 'at', now)
  if last[1] == false or last[1] == run then return end
  local down = now - tonumber(last[2])
  local leases = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
  for i = 1, #leases, 2 do
    redis.call('ZADD', KEYS[3], tonumber(leases[i + 1]) + down, leases[i])
  end
  redis.call('HINCRBY', KEYS[4], 'redis_restarts', 1)
end
"""
_RECLAIM = (
    _HEARD
    + """
local function reclaim(now, most)
  heard(now)
  local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, most)
  for _, id in ipairs(expired) do
    redis.call('ZREM', KEYS[3], id)
    redis.call('ZADD', KEYS[1], redis.call('HGET', KEYS[2], id), id)
    redis.call('HDEL', KEYS[2], id)
    redis.call('HSET', KEYS[12], id, redis.call('HGET', KEYS[9], id) or '')
  end
  if #expired > 0 then redis.call('HINCRBY', KEYS[4], 'reclaimed', #expired) end
  return #expired
end
"""
)
# Was ``fingerprint`` seen (``add``: and now it is)? ``bits``: the Bloom filter's positions of
# the fingerprint in ARGV from that index on (none: the exact set). With ``add``, the Bloom
# filter's bits are tested and set in one go: SETBIT answers the bit it replaced.
_SEEN_FUNCTION = """
local function seen(fingerprint, bits, add)
  if bits > #ARGV then
    if add then return redis.call('SADD', KEYS[6], fingerprint) == 0 end
    return redis.call('SISMEMBER', KEYS[6], fingerprint) == 1
  end
  local all = true
  for i = bits, #ARGV do
    local old
    if add then old = redis.call('SETBIT', KEYS[11], ARGV[i], 1)
    else old = redis.call('GETBIT', KEYS[11], ARGV[i]) end
    if old == 0 then all = false end
  end
  return all
end
"""
# ARGV: fingerprint, then its Bloom positions (none: the exact set)
_SEEN = _SEEN_FUNCTION + "return seen(ARGV[1], 2, false) and 1 or 0"
# ARGV: worker, fingerprint ('' = never filtered), priority, blob, lease ms (0: queued; >0:
# leased to the caller at once, a request that stays on its worker), then the fingerprint's
# Bloom positions (none: the exact set)
_PUSH = (
    _NOW
    + _SEEN_FUNCTION
    + """
if ARGV[2] ~= '' and seen(ARGV[2], 6, true) then
  redis.call('HINCRBY', KEYS[4], 'filtered', 1)
  return false
end
local sequence = redis.call('INCR', KEYS[7])
local id = tostring(sequence)
local order = -tonumber(ARGV[3]) * 4294967296 + sequence
redis.call('HSET', KEYS[5], id, ARGV[4])
if tonumber(ARGV[5]) > 0 then
  redis.call('HSET', KEYS[2], id, order)
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[5]), id)
  redis.call('HSET', KEYS[9], id, ARGV[1])
else
  redis.call('ZADD', KEYS[1], order, id)
end
redis.call('HINCRBY', KEYS[4], 'queued', 1)
return id
"""
)
# the responses of ``ids`` were processed (the leases of the worker ``worker``)
# ``pages`` of ``ids`` count against the crawl's page budget (``budget`` pages; 0: none) in the
# same script: a worker killed after an ack has counted its pages (see page_budget.py)
_ACK_FUNCTION = """
local function ack(worker, ids, pages, budget)
  local acked, late, refetched = 0, 0, 0
  for _, id in ipairs(ids) do
    if redis.call('HGET', KEYS[9], id) == worker and redis.call('ZREM', KEYS[3], id) == 1 then
      acked = acked + 1
    elseif redis.call('ZREM', KEYS[1], id) == 1 then
      late = late + 1  -- its lease expired but nobody took it again: done, drop it
    else
      refetched = refetched + 1  -- taken again by another worker: processed twice
    end
    if redis.call('ZSCORE', KEYS[3], id) == false then
      redis.call('HDEL', KEYS[5], id)
      redis.call('HDEL', KEYS[2], id)
      redis.call('HDEL', KEYS[9], id)
      redis.call('HDEL', KEYS[12], id)
      redis.call('HDEL', KEYS[13], id)
    end
  end
  if acked > 0 then redis.call('HINCRBY', KEYS[4], 'acked', acked) end
  if late > 0 then redis.call('HINCRBY', KEYS[4], 'late_acks', late) end
  if refetched > 0 then redis.call('HINCRBY', KEYS[4], 'refetched', refetched) end
  if pages > 0 then
    local spent = redis.call('HINCRBY', KEYS[4], 'budget_pages', pages)
    if budget > 0 and spent >= budget then redis.call('SET', KEYS[8], 'budget', 'NX') end
  end
  return {acked, late, refetched}
end
"""
# ARGV: worker, pages, budget, then the ids
_ACK = (
    _ACK_FUNCTION + "return ack(ARGV[1], {unpack(ARGV, 4)}, tonumber(ARGV[2]), tonumber(ARGV[3]))"
)
# ``id`` leased to this worker goes back to the queue with a new priority and blob (re-scored:
# it fell behind the next request); false when its lease was not there any more
_REQUEUE_FUNCTION = """
local function requeue(id, priority, blob)
  if redis.call('ZREM', KEYS[3], id) == 0 then return false end
  local sequence = redis.call('INCR', KEYS[7])
  local order = -tonumber(priority) * 4294967296 + sequence
  redis.call('HSET', KEYS[5], id, blob)
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZADD', KEYS[1], order, id)
  redis.call('HINCRBY', KEYS[4], 'requeued', 1)
  return true
end
"""
# ARGV: worker, lease ms, ms between two reclaims (crawl-wide: a take reclaims expired leases
# only when none did for that long, so the check costs one HGET, not the server's INFO, whatever
# the number of workers), the id of a request to requeue first ('' for none: see requeue) with
# its priority and blob, the pages among the ids and the page budget (see ack), then the ids to
# acknowledge first (one round trip per page). Returns
# {acks, id, blob, order of the next request or false, the worker whose lease on it expired or
# false}, or {acks} when the queue is empty or the crawl ended.
_TAKE = (
    _NOW
    + _RECLAIM
    + _ACK_FUNCTION
    + _REQUEUE_FUNCTION
    + """
local acks = ack(ARGV[1], {unpack(ARGV, 9)}, tonumber(ARGV[7]), tonumber(ARGV[8]))
if ARGV[4] ~= '' then requeue(ARGV[4], ARGV[5], ARGV[6]) end
if now - tonumber(redis.call('HGET', KEYS[10], 'at') or '0') >= tonumber(ARGV[3]) then
  reclaim(now, 1000)
end
if redis.call('EXISTS', KEYS[8]) == 1 then return {acks} end  -- ended: nothing more for anyone
local head = redis.call('ZRANGE', KEYS[1], 0, 1, 'WITHSCORES')
if #head == 0 then return {acks} end
local id = head[1]
redis.call('ZREM', KEYS[1], id)
redis.call('HSET', KEYS[2], id, head[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), id)
redis.call('HSET', KEYS[9], id, ARGV[1])
redis.call('HINCRBY', KEYS[4], 'taken', 1)
return {acks, id, redis.call('HGET', KEYS[5], id), head[4] or false,
        redis.call('HGET', KEYS[12], id)}
"""
)
# ARGV: worker, lease ms, ids still in flight (leases taken again by another worker are left)
_RENEW = (
    _NOW
    + _HEARD
    + """
heard(now)
local deadline = now + tonumber(ARGV[2])
local renewed = 0
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[9], ARGV[i]) == ARGV[1] then
    renewed = renewed + redis.call('ZADD', KEYS[3], 'XX', 'CH', deadline, ARGV[i])
  end
end
return renewed
"""
)
# ARGV: worker, '1' when the requests are redelivered (a restarted worker gives back what its
# former self had in flight: whoever takes them is told, as after an expired lease) else '0'
# (the worker is closing: they were never processed), then the ids given back
_RELEASE = """
local released = 0
for i = 3, #ARGV do
  local id = ARGV[i]
  if redis.call('HGET', KEYS[9], id) == ARGV[1] and redis.call('ZREM', KEYS[3], id) == 1 then
    redis.call('ZADD', KEYS[1], redis.call('HGET', KEYS[2], id), id)
    redis.call('HDEL', KEYS[2], id)
    if ARGV[2] == '1' then redis.call('HSET', KEYS[12], id, ARGV[1]) end
    released = released + 1
  end
end
return released
"""
# ARGV: id, new priority, new blob
_REQUEUE = _REQUEUE_FUNCTION + "return requeue(ARGV[1], ARGV[2], ARGV[3])"
# {queued, leased, ever queued, ended}
_STATUS = (
    _NOW
    + _RECLAIM
    + """
reclaim(now, 1000)
return {redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[3]),
        tonumber(redis.call('GET', KEYS[7]) or '0'), redis.call('GET', KEYS[8]) or false}
"""
)


_WORKER_IDS: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()


def worker_id(crawler: object) -> str:
    """This worker's name in a crawl's Redis keys (lease owners, who last wrote a site's
    detection): ``BILINGUAL_REDIS_WORKER_NAME`` when set (the same worker after a restart),
    else ``host:pid:random``, one per crawler."""
    if crawler not in _WORKER_IDS:
        settings = getattr(crawler, "settings", None)
        name = settings.get("BILINGUAL_REDIS_WORKER_NAME") if settings is not None else None
        random_name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        _WORKER_IDS[crawler] = str(name) if name else random_name
    return _WORKER_IDS[crawler]


def seeds_key(prefix: str) -> str:
    """The list ``bilingual-spider seed`` pushes seed URLs to (any spider takes them)."""
    return f"{prefix}:seeds"


def priority_of(order: float) -> int:
    """The priority a queue order was made from (see :data:`ORDER_SCALE`)."""
    return -int(order // ORDER_SCALE)


@dataclass(frozen=True)
class Taken:
    """A request taken from the queue, under lease."""

    id: str
    blob: bytes
    next_priority: int | None
    """Priority of the request now at the head (None: the queue is empty)."""
    redelivered_from: str | None = None
    """The worker whose lease on it expired before (it died holding it: part of the request's
    work may be done); None: first taken, or given back unprocessed."""

    @property
    def redelivered(self) -> bool:
        return self.redelivered_from is not None


@dataclass(frozen=True)
class Requeue:
    """A leased request to put back in the queue, re-scored (see :meth:`LeasedFrontier.requeue`)."""

    id: str
    blob: bytes
    priority: int


@dataclass(frozen=True)
class Acks:
    """What acknowledging requests found."""

    acked: int = 0
    late: int = 0
    """Their lease had expired, but nobody had taken them again (removed from the queue)."""
    refetched: int = 0
    """Another worker had taken them again: processed twice."""


@dataclass(frozen=True)
class FrontierStatus:
    queued: int
    leased: int
    ever_queued: int
    ended: str | None

    @property
    def finished(self) -> bool:
        """The crawl is over for every worker: ended (budget), or something was queued once and
        nothing is queued or leased any more."""
        return self.ended is not None or (
            self.ever_queued > 0 and self.queued == 0 and self.leased == 0
        )


class LeasedFrontier:
    """The frontier of one crawl (``base`` = ``PREFIX:SPIDER``) in Redis, as one worker uses it.

    Parameters
    ----------
    redis:
        The worker's connection.
    base:
        Key prefix of this crawl.
    lease_seconds:
        How long a taken request stays leased without renewal.
    worker:
        This worker's name in the lease owners (default: a random one).
    bloom:
        The shape of a Bloom filter de-duplicating requests (None: an exact set of
        fingerprints). Every worker of a crawl must use the same.
    """

    pages_counted_by_request = False
    """Whether the spider counts pages by request id in ``BASE:counted``
    (:class:`~.page_budget.SharedPageBudget`); nothing changes here: the acknowledging script
    drops an acknowledged request's field either way (the partitioned frontier needs it)."""

    def __init__(
        self,
        redis: PatientRedis,
        base: str,
        lease_seconds: float = 60.0,
        worker: str = "",
        bloom: BloomShape | None = None,
    ) -> None:
        self.redis = redis
        self.base = base
        self.lease_ms = max(1, round(lease_seconds * 1000))
        self.reclaim_ms = max(1, min(RECLAIM_EVERY_MS, self.lease_ms // 10))
        self.keys = {name: f"{base}:{name}" for name in self.KEYS}
        self._keys = list(self.keys.values())
        self.worker = worker or uuid.uuid4().hex
        self.bloom = bloom
        self._push = redis.script(_PUSH)
        self._seen = redis.script(_SEEN)
        self._take = redis.script(_TAKE)
        self._ack = redis.script(_ACK)
        self._renew = redis.script(_RENEW)
        self._release = redis.script(_RELEASE)
        self._requeue = redis.script(_REQUEUE)
        self._status = redis.script(_STATUS)

    KEYS = (
        "queue", "order", "leases", "counters", "requests", "seen", "sequence", "ended", "owners",
        "heard", "bloom", "redelivered", "counted",
    )  # fmt: skip

    def push(
        self,
        blob: bytes,
        priority: int,
        fingerprint: Fingerprint | None,
        leased: bool = False,
        host: str = "",
    ) -> str | None:
        """Queue a request; None when its fingerprint was queued before. ``leased``: the caller
        keeps it (leased to it at once) instead of queueing it for everyone. ``host``: the
        request's (which partition it goes to in a
        :class:`~.partitioned_frontier.PartitionedFrontier`; one here)."""
        lease = self.lease_ms if leased else 0
        args = [self.worker, fingerprint or "", priority, blob, lease]
        result = self._push(self._keys, args + self._positions(fingerprint))
        return None if result is None else text_of(result)

    @property
    def dupefilter(self) -> str:
        """This worker's duplicate filter, as recorded in Redis."""
        if self.bloom is None:
            return f"set of {FINGERPRINTS}"
        return f"bloom of {FINGERPRINTS} bits={self.bloom.bits} hashes={self.bloom.hashes}"

    def check_dupefilter(self) -> str | None:
        """Record this worker's duplicate filter for the crawl, or, when another worker recorded
        a different one first, return it (a Bloom filter of another shape, or a set, would
        test other bits: duplicates queued, URLs dropped)."""
        return record_once(self.redis, f"{self.base}:dupefilter", self.dupefilter)

    def seen(self, fingerprint: Fingerprint, host: str = "") -> bool:
        """Was a request with this fingerprint (of a URL of ``host``: see :meth:`push`) queued
        (by the Bloom filter: perhaps)?"""
        return bool(self._seen(self._keys, [fingerprint, *self._positions(fingerprint)]))

    def _positions(self, fingerprint: Fingerprint | None) -> list[int]:
        return self.bloom.positions(fingerprint) if self.bloom and fingerprint else []

    def take(
        self,
        done: Sequence[str] = (),
        requeue: Requeue | None = None,
        pages: int = 0,
        budget: int = 0,
    ) -> tuple[Taken | None, Acks]:
        """Acknowledge ``done`` (see :meth:`ack`), put ``requeue`` back in the queue (see
        :meth:`requeue`), then take the request at the head, now leased to the caller (None when
        the queue is empty or the crawl ended): one round trip."""
        again = ("", "", "") if requeue is None else (requeue.id, requeue.priority, requeue.blob)
        args = [self.worker, self.lease_ms, self.reclaim_ms, *again, pages, budget, *done]
        result = self._take(self._keys, args)
        acks = Acks(*map(int, result[0]))
        if len(result) == 1:
            return None, acks
        _, request_id, blob, next_order, dead = result
        next_priority = None if next_order is None else priority_of(float(next_order))
        dead = None if dead is None else text_of(dead)
        taken = Taken(text_of(request_id), bytes(blob), next_priority, dead)
        return taken, acks

    def ack(self, ids: Sequence[str], pages: int = 0, budget: int = 0) -> Acks:
        """The responses of ``ids`` were processed: their leases end, the requests leave Redis.
        ``pages`` of them count against the crawl's page budget of ``budget`` pages (the pages
        counted reach it: the crawl ends, as :class:`~.page_budget.SharedPageBudget` does), in
        the same script: no kill can come between the two."""
        if not ids and not pages:
            return Acks()
        return Acks(*map(int, self._ack(self._keys, [self.worker, pages, budget, *ids])))

    def leased_by(self, worker: str) -> list[tuple[str, bytes]]:
        """The requests leased to ``worker`` (after its restart: what it had in flight when it
        died), as ``(id, blob)``."""
        owners = self.redis.call(self.redis.client.hgetall, self.keys["owners"])
        ids = [text_of(i) for i, owner in owners.items() if text_of(owner) == worker]
        if not ids:
            return []
        blobs = self.redis.call(self.redis.client.hmget, self.keys["requests"], ids)
        return [(i, bytes(blob)) for i, blob in zip(ids, blobs, strict=True) if blob is not None]

    def renew(self, ids: Iterable[str]) -> int:
        """Push back the deadline of the caller's leases still in flight."""
        ids = list(ids)
        return int(self._renew(self._keys, [self.worker, self.lease_ms, *ids])) if ids else 0

    def release(self, ids: Sequence[str], redelivered: bool = False) -> int:
        """Give requests back to the queue: unprocessed (a worker closing with them in flight),
        or ``redelivered``: perhaps processed in part (a restarted worker's former self had them
        in flight), the worker that takes one is told (:attr:`Taken.redelivered_from`)."""
        if not ids:
            return 0
        return int(self._release(self._keys, [self.worker, "1" if redelivered else "0", *ids]))

    def requeue(self, request_id: str, blob: bytes, priority: int) -> bool:
        """Put a leased request back in the queue with a new priority (and new contents)."""
        return bool(self._requeue(self._keys, [request_id, priority, blob]))

    def status(self, until_work: bool = False) -> FrontierStatus:
        """Queue and lease sizes (expired leases reclaimed first). ``until_work``: the sizes may
        be partial once some work is found (a partitioned frontier's; one partition here)."""
        queued, leased, ever, ended = self._status(self._keys, [])
        return FrontierStatus(int(queued), int(leased), int(ever), ended and text_of(ended))

    def end(self, reason: str) -> None:
        """End the crawl for every worker (the first reason given stays)."""
        self.redis.call(self.redis.client.set, self.keys["ended"], reason, nx=True)

    def budget_spent(self) -> int:
        """Pages counted against the crawl's page budget by every worker."""
        return hash_count(self.redis, self.keys["counters"], "budget_pages")

    def budget_committed(self) -> int:
        """Pages counted against the page budget and requests leased, by every worker."""
        return self.budget_spent() + self.status().leased

    def counters(self) -> dict[str, int]:
        raw = self.redis.call(self.redis.client.hgetall, self.keys["counters"])
        return {text_of(k): int(v) for k, v in raw.items()}

    def take_seeds(self, seeds_key: str, most: int = 1000) -> list[str]:
        """Seed URLs pushed by ``bilingual-spider seed`` (each given to one worker only)."""
        urls = self.redis.call(self.redis.client.lpop, seeds_key, most) or []
        return [text_of(url) for url in urls]

    in_transaction = False
    """Every change is written at once: nothing waits for a commit."""

    def commit(self) -> None:
        """Nothing to commit (see :attr:`in_transaction`)."""

    def carried(self) -> dict[str, Any]:
        """The counters this worker's former self saved (:meth:`carry`), for its restart."""
        saved = self.redis.call(self.redis.client.hget, f"{self.base}:carried", self.worker)
        return json.loads(text_of(saved)) if saved else {}

    def carry(self, counters: dict[str, Any]) -> None:
        """Save this worker's ``counters``, for a restart under its name to carry on."""
        if counters:
            value = json.dumps(counters)
            self.redis.call(self.redis.client.hset, f"{self.base}:carried", self.worker, value)

    def close(self) -> None:
        self.redis.close()


def push_seeds(redis: PatientRedis, seeds_key: str, urls: Sequence[str]) -> int:
    """``bilingual-spider seed``: append seed URLs for the workers to take."""
    return int(redis.call(redis.client.rpush, seeds_key, *urls)) if urls else 0


def record_once(redis: PatientRedis, key: str, value: str) -> str | None:
    """Record ``value`` in ``key`` unless something was recorded there first: None, or what
    was (a worker of the crawl with other settings)."""
    redis.call(redis.client.set, key, value, nx=True)
    recorded = text_of(redis.call(redis.client.get, key))
    return None if recorded == value else recorded


def hash_count(redis: PatientRedis, key: str, field: str) -> int:
    """The count in a hash's field (0: none)."""
    return int(redis.call(redis.client.hget, key, field) or 0)


def text_of(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
