"""Site verdicts and detections under way in Redis, shared by the workers of a crawl: one verdict
per site, whichever worker probes it (the :class:`~bilingual_spider.detection.store.SiteStore`
interface).

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:site_states    HASH    site -> its detection under way (pickled DetectionState)
    BASE:site_verdicts  HASH    site -> its verdict (pickled SiteVerdict); the first one stays
    BASE:site_claim:SITE STRING a worker started detecting SITE; expires unless a state is saved
    BASE:site_writers   HASH    site -> the worker that last saved its state or its verdict (so
                                a request redelivered after a worker died redoes what that
                                worker left undone, and only that)
    BASE:site_verdict_log LIST  every verdict as it was recorded, ``1SITE`` (bilingual) or
                                ``0SITE``: each worker reads what is new since it last looked
                                (:meth:`RedisSiteStore.verdicts_since`), so that a verdict given by
                                one worker settles the links another worker followed to the site
    BASE:site_verdict_log_start STRING  how many verdicts were trimmed off the log's head (the
                                cursors count from the crawl's first verdict)
    BASE:site_verdict_readers HASH  worker -> ``CURSOR:MS``, how far it has read the log, and
                                when (Redis's clock)

The log is trimmed as it is read: the entries every worker has read, once there are
``trim_batch`` of them, but never the last ``keep`` (a worker starting has that many verdicts'
time to make its first read); a worker that has not read for ``stale_seconds`` holds nothing
back (it is dead, or will find the log's head moved: the verdicts it missed label none of its
links). About 40 bytes a verdict, 4 GB at 100 million sites untrimmed.

A claim expires (``claim_seconds``, the frontier's lease time) until the claimant saves the
site's state. A worker killed between claiming a site and saving its state leaves no site
unjudged: the page it was processing comes back to the queue when its lease expires, marked with
the dead worker's name, and the worker that takes it takes the dead worker's claim over
(:meth:`RedisSiteStore.take_over_claim`). The claim cannot simply be waited out: the lease began
when the page was taken, the claim when it was processed, so the claim outlives the lease that
brings the page back, and no other first page of the site may ever come.

Saving is compare-and-set: two workers recording probes of one site at once never lose a
result (the second gets :class:`~bilingual_spider.detection.store.ConcurrentUpdate` and redoes
its step on the state the first saved).
"""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

from bilingual_spider.detection.store import ConcurrentUpdate, SiteJudged
from bilingual_spider.distributed.connection import PatientRedis

if TYPE_CHECKING:
    from bilingual_spider.detection.detector import DetectionState, SiteVerdict

# KEYS: claim, verdicts; ARGV: site, claim ms, worker
_CLAIM = """
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('SET', KEYS[1], ARGV[3], 'NX', 'PX', ARGV[2]) then return 1 end
return 0
"""
# KEYS: claim, states, verdicts; ARGV: site, claim ms, dead worker, worker
_TAKE_OVER = """
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return 0 end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return 0 end
if redis.call('GET', KEYS[1]) ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[2])
return 1
"""
# KEYS: states, verdicts; ARGV: worker, then claim keys and their sites in turn: the claims of
# ``worker`` with no state saved and no verdict are deleted (a restarted worker's former self
# claimed the sites and died before saving anything)
_FORGET = """
local forgotten = 0
for i = 2, #ARGV, 2 do
  if redis.call('GET', ARGV[i]) == ARGV[1] and redis.call('HEXISTS', KEYS[1], ARGV[i + 1]) == 0
     and redis.call('HEXISTS', KEYS[2], ARGV[i + 1]) == 0 then
    redis.call('DEL', ARGV[i])
    forgotten = forgotten + 1
  end
end
return forgotten
"""
# KEYS: claim, states, verdicts, writers; ARGV: site, state as loaded ('' none), new state, worker
_SAVE = """
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 then return -1 end
if (redis.call('HGET', KEYS[2], ARGV[1]) or '') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('SET', KEYS[1], ARGV[4])
return 1
"""
# KEYS: claim, states, verdicts, writers, verdict log; ARGV: site, verdict, worker, log entry
_FINISH = """
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
if redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
redis.call('RPUSH', KEYS[5], ARGV[4])
return 1
"""


# KEYS: log, start, readers; ARGV: cursor, worker, stale ms, keep, trim batch. The entries
# after ``cursor`` and the cursor after them; the reader's place noted, and the log trimmed to
# the least place of the readers seen within ``stale ms``, keeping the last ``keep`` entries.
_READ = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local start = tonumber(redis.call('GET', KEYS[2]) or '0')
local cursor = math.max(tonumber(ARGV[1]), start)
local entries = redis.call('LRANGE', KEYS[1], cursor - start, -1)
local reached = cursor + #entries
redis.call('HSET', KEYS[3], ARGV[2], reached .. ':' .. now)
local least = start + redis.call('LLEN', KEYS[1]) - tonumber(ARGV[4])
local readers = redis.call('HGETALL', KEYS[3])
for i = 1, #readers, 2 do
  local place, at = string.match(readers[i + 1], '^(%d+):(%d+)$')
  if now - tonumber(at) > tonumber(ARGV[3]) then
    redis.call('HDEL', KEYS[3], readers[i])
  else
    least = math.min(least, tonumber(place))
  end
end
if least - start >= tonumber(ARGV[5]) then
  redis.call('LTRIM', KEYS[1], least - start, -1)
  redis.call('SET', KEYS[2], least)
end
return {reached, entries}
"""

VERDICT_LOG_KEEP = 100_000
"""The last verdicts the log always keeps (4 MB)."""
VERDICT_LOG_TRIM = 10_000
"""The log is trimmed this many entries at a time, or more."""
VERDICT_READER_STALE_SECONDS = 600.0
"""A worker that has not read the log for this long holds back no trimming."""


class RedisSiteStore:
    """A :class:`~bilingual_spider.detection.store.SiteStore` in Redis under ``base``."""

    def __init__(
        self,
        redis: PatientRedis,
        base: str,
        claim_seconds: float = 60.0,
        worker: str = "",
        *,
        log_keep: int = VERDICT_LOG_KEEP,
        log_trim: int = VERDICT_LOG_TRIM,
        reader_stale_seconds: float = VERDICT_READER_STALE_SECONDS,
    ) -> None:
        self.redis = redis
        self.base = base
        self.worker = worker
        self.claim_ms = max(1, round(claim_seconds * 1000))
        self.states_key = f"{base}:site_states"
        self.verdicts_key = f"{base}:site_verdicts"
        self.writers_key = f"{base}:site_writers"
        self.verdict_log_key = f"{base}:site_verdict_log"
        self.verdict_log_start_key = f"{base}:site_verdict_log_start"
        self.verdict_readers_key = f"{base}:site_verdict_readers"
        self.log_keep, self.log_trim = log_keep, log_trim
        self.reader_stale_ms = max(1, round(reader_stale_seconds * 1000))
        self._read = redis.script(_READ)
        self._claim = redis.script(_CLAIM)
        self._take_over = redis.script(_TAKE_OVER)
        self._save = redis.script(_SAVE)
        self._finish = redis.script(_FINISH)
        self._forget = redis.script(_FORGET)
        self._loaded: dict[str, bytes] = {}  # the state each site had when this worker loaded it

    def _claim_key(self, site: str) -> str:
        return f"{self.base}:site_claim:{site}"

    def claim(self, site: str) -> bool:
        keys = [self._claim_key(site), self.verdicts_key]
        return bool(self._claim(keys, [site, self.claim_ms, self.worker]))

    def take_over_claim(self, site: str, dead: str) -> bool:
        """The claim on ``site`` of ``dead`` (a worker whose request was redelivered) becomes this
        worker's, when ``dead`` saved no state or verdict of the site; False otherwise."""
        keys = [self._claim_key(site), self.states_key, self.verdicts_key]
        return bool(self._take_over(keys, [site, self.claim_ms, dead, self.worker]))

    def forget_claims(self) -> int:
        """After a restart under the same worker name: the claims of this worker's former self
        on sites it saved nothing of are deleted (their first pages, redelivered, claim them
        again at once instead of after the claim's expiry); the number deleted."""
        prefix = self._claim_key("")
        claims = [_text(k) for k in self.redis.call(self._scan_claims, f"{prefix}*")]
        args = [self.worker]
        for key in claims:
            args += [key, key[len(prefix) :]]
        if not claims:
            return 0
        return int(self._forget([self.states_key, self.verdicts_key], args))

    def _scan_claims(self, pattern: str) -> list[bytes]:
        return list(self.redis.client.scan_iter(match=pattern, count=1000))

    def load(self, site: str) -> DetectionState | None:
        raw = self.redis.call(self.redis.client.hget, self.states_key, site)
        if raw is None:
            self._loaded.pop(site, None)
            return None
        self._loaded[site] = raw
        return pickle.loads(raw)

    def save(self, state: DetectionState) -> None:
        blob = pickle.dumps(state, protocol=5)
        expected = self._loaded.get(state.site, b"")
        keys = [self._claim_key(state.site), self.states_key, self.verdicts_key, self.writers_key]
        saved = self._save(keys, [state.site, expected, blob, self.worker])
        if saved == -1:
            raise SiteJudged(f"{state.site} already has a verdict")
        if saved == 0:
            raise ConcurrentUpdate(state.site)
        self._loaded[state.site] = blob

    def finish(self, verdict: SiteVerdict) -> bool:
        self._loaded.pop(verdict.site, None)
        keys = [
            self._claim_key(verdict.site),
            self.states_key,
            self.verdicts_key,
            self.writers_key,
            self.verdict_log_key,
        ]
        blob = pickle.dumps(verdict, protocol=5)
        entry = f"{int(verdict.bilingual)}{verdict.site}"
        return bool(self._finish(keys, [verdict.site, blob, self.worker, entry]))

    def verdicts_since(self, cursor: int) -> tuple[list[tuple[str, bool]], int]:
        """The verdicts recorded crawl-wide after the first ``cursor`` ones, as ``(site,
        bilingual)`` in the order they were recorded, and the cursor to ask with next time
        (those trimmed off the log's head, read by every worker, are not given again: a cursor
        before the head reads from the head). The log is trimmed here (see the module)."""
        keys = [self.verdict_log_key, self.verdict_log_start_key, self.verdict_readers_key]
        reader = self.worker or "-"
        args = [cursor, reader, self.reader_stale_ms, self.log_keep, self.log_trim]
        reached, raw = self._read(keys, args)
        entries = [_text(entry) for entry in raw]
        return [(entry[1:], entry[0] == "1") for entry in entries], int(reached)

    def verdict(self, site: str) -> SiteVerdict | None:
        raw = self.redis.call(self.redis.client.hget, self.verdicts_key, site)
        return None if raw is None else pickle.loads(raw)

    def unfinished(self) -> list[str]:
        sites = self.redis.call(self.redis.client.hkeys, self.states_key)
        return sorted(s.decode() if isinstance(s, bytes) else s for s in sites)

    def written_by(self, site: str) -> str | None:
        raw = self.redis.call(self.redis.client.hget, self.writers_key, site)
        return None if raw is None else raw.decode()

    def judged_here(self) -> list[str]:
        writers = self.redis.call(self.redis.client.hgetall, self.writers_key)
        return sorted(
            _text(site) for site, worker in writers.items() if _text(worker) == self.worker
        )

    def __len__(self) -> int:
        """Sites with a verdict."""
        return int(self.redis.call(self.redis.client.hlen, self.verdicts_key))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
