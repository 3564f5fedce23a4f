"""Per-host politeness shared by every worker: a host's download delay and concurrency hold
across all of them, so N workers never hit a host N times harder than one.

For each host, Redis keeps when its next request may start and the requests now in flight::

    PREFIX:host:HOST:next      STRING  earliest start of its next request (Redis time, ms)
    PREFIX:host:HOST:inflight  ZSET    token -> expiry (a crashed worker's tokens lapse)

(with partitions, ``{PREFIX:pP}:host:HOST:*``, in the host's partition:
:meth:`~.partitions.KeyLayout.host_base`, so the two keys of a script are on one server).

:meth:`HostSlots.acquire` reserves, in one atomic script, a start time at least ``delay`` after
the previous reservation of that host (by whichever worker), provided fewer than ``concurrency``
requests of the host are in flight; the caller waits until that start time, downloads, and
:meth:`HostSlots.release` frees the token once the response is in, and puts the host's next
start at least ``delay`` after that moment too.

Why the release moves the next start: a reservation is a promise about when a request *may*
start, not when it reaches the host. A worker whose event loop is busy (parsing, training, a
loaded machine) sends its request later than reserved, so spacing reservations alone let two
requests of two workers reach a host 0.15 s apart with a 0.3 s delay (measured at the sandbox).
The response's arrival bounds the request's arrival at the host from above, so with one request
at a time per host, two requests reach it at least ``delay`` apart, whatever the lag. (Scrapy
spaces the moments its requests leave the queue; this is stricter by the response time.)

A token is named by its worker (``WORKER:random``, the name of
:func:`~.frontier.worker_id`). A worker killed with requests in flight leaves its tokens to lapse
``hold`` after their start (2 x ``DOWNLOAD_TIMEOUT``), holding its hosts' slots meanwhile; started
again under its name (``BILINGUAL_REDIS_WORKER_NAME``), :meth:`HostSlots.release_former_self`
frees them at once, before its first request. It finds them by scanning the ``inflight`` keys
(they exist only while a request of their host is in flight) and frees them host by host (one
script a host: a host's two keys are in one slot of a cluster). Each host freed is treated as by
:meth:`HostSlots.release`, its response in now: the dead request reached the host before the
kill, so the next one starts at least ``delay`` after it.
"""

from __future__ import annotations

import uuid

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.partitions import KeyLayout

# KEYS: next, inflight; ARGV: token, delay ms, concurrency, hold ms
# returns the wait before the start (ms, >= 0), or -1: the host is busy, ask again later
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local delay = tonumber(ARGV[2])
redis.call('SET', KEYS[1], start + delay, 'PX', start + delay - now + 60000)
redis.call('ZADD', KEYS[2], start + tonumber(ARGV[4]), ARGV[1])
redis.call('PEXPIRE', KEYS[2], start - now + tonumber(ARGV[4]))
return start - now
"""


# the host's next start: at least ARGV[2] (the delay, ms) after now (KEYS[1]: next)
_NEXT_AFTER_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local after = now + tonumber(ARGV[2])
if after > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], after, 'PX', tonumber(ARGV[2]) + 60000)
end
"""

# KEYS: next, inflight; ARGV: token, delay ms
_RELEASE = "redis.call('ZREM', KEYS[2], ARGV[1])" + _NEXT_AFTER_NOW

# KEYS: next, inflight; ARGV: worker, delay ms; returns the number of the worker's tokens freed
_RELEASE_WORKER = (
    """
local freed = 0
for _, token in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if string.match(token, '^(.*):') == ARGV[1] then
    redis.call('ZREM', KEYS[2], token)
    freed = freed + 1
  end
end
if freed == 0 then return 0 end
"""
    + _NEXT_AFTER_NOW
    + "return freed"
)


class HostSlots:
    """The shared per-host slots of the crawls under ``layout`` (its prefix; a
    :class:`~.partitions.KeyLayout`, or the prefix of one Redis).

    Parameters
    ----------
    worker:
        This worker's name (:func:`~.frontier.worker_id`): its tokens carry it.
    delay:
        Seconds between the starts of two requests to one host (``DOWNLOAD_DELAY``).
    concurrency:
        Requests to one host in flight at once (``CONCURRENT_REQUESTS_PER_DOMAIN``).
    hold:
        A token lapses this long after its start if never released (a crashed worker).
    """

    def __init__(
        self,
        redis: PatientRedis,
        layout: KeyLayout | str,
        worker: str,
        delay: float,
        concurrency: int,
        hold: float = 180.0,
    ) -> None:
        self.redis = redis
        self.layout = KeyLayout(layout) if isinstance(layout, str) else layout
        self.delay_ms = max(0, round(delay * 1000))
        self.concurrency = max(1, concurrency)
        self.hold_ms = max(1, round(hold * 1000))
        self.worker = worker
        self._acquire = redis.script(_ACQUIRE)
        self._release = redis.script(_RELEASE)
        self._release_worker = redis.script(_RELEASE_WORKER)

    def _keys(self, host: str) -> list[str]:
        base = self.layout.host_base(host)
        return [f"{base}:next", f"{base}:inflight"]

    def token(self) -> str:
        """A new token of this worker (``WORKER:random``), for one request."""
        return f"{self.worker}:{uuid.uuid4().hex}"

    def acquire(self, host: str, token: str) -> float | None:
        """Seconds to wait before starting a request to ``host`` (its slot is reserved under
        ``token``); None: the host has ``concurrency`` requests in flight, ask again later."""
        wait = int(
            self._acquire(self._keys(host), [token, self.delay_ms, self.concurrency, self.hold_ms])
        )
        return None if wait < 0 else wait / 1000

    def release(self, host: str, token: str) -> None:
        """The request of ``token`` is done: its slot is free, and the host's next request
        starts ``delay`` from now at the earliest."""
        self._release(self._keys(host), [token, self.delay_ms])

    def release_former_self(self) -> int:
        """This worker restarted under its name: the tokens its former self left in flight are
        freed, each host's next start ``delay`` from now at the earliest (as :meth:`release`);
        the number freed. Called before this worker's first request (it would free that too)."""
        freed = 0
        for host in self._hosts_in_flight():
            freed += int(self._release_worker(self._keys(host), [self.worker, self.delay_ms]))
        return freed

    def _hosts_in_flight(self) -> set[str]:
        """The hosts with a request in flight (their ``inflight`` key; in any crawl on this
        Redis: the keys freed are this crawl's own)."""
        found = self.redis.call(self._scan, "*:host:*:inflight")
        keys = [key.decode() if isinstance(key, bytes) else key for key in found]
        return {key[: -len(":inflight")].rsplit(":host:", 1)[1] for key in keys}

    def _scan(self, pattern: str) -> list[bytes]:
        return list(self.redis.client.scan_iter(match=pattern, count=1000))
