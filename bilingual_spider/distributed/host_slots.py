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
"""

from __future__ import annotations

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


# KEYS: next, inflight; ARGV: token, delay ms
_RELEASE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[2], ARGV[1])
local after = now + tonumber(ARGV[2])
if after > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], after, 'PX', tonumber(ARGV[2]) + 60000)
end
"""


class HostSlots:
    """The shared per-host slots of the crawls under ``layout`` (its prefix; a
    :class:`~.partitions.KeyLayout`, or the prefix of one Redis).

    Parameters
    ----------
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
        delay: float,
        concurrency: int,
        hold: float = 180.0,
    ) -> None:
        self.redis = redis
        self.layout = KeyLayout(layout) if isinstance(layout, str) else layout
        self.delay_ms = max(0, round(delay * 1000))
        self.concurrency = max(1, concurrency)
        self.hold_ms = max(1, round(hold * 1000))
        self._acquire = redis.script(_ACQUIRE)
        self._release = redis.script(_RELEASE)

    def _keys(self, host: str) -> list[str]:
        base = self.layout.host_base(host)
        return [f"{base}:next", f"{base}:inflight"]

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
