"""Per-host politeness shared by every worker: a host's download delay and concurrency hold
across all of them, so N workers never hit a host N times harder than one.

For each host, Redis keeps when its next request may start and the requests now in flight::

    PREFIX:host:HOST:next      STRING  earliest start of its next request (Redis time, ms)
    PREFIX:host:HOST:inflight  ZSET    token -> expiry (a crashed worker's tokens lapse)

:meth:`HostSlots.acquire` reserves, in one atomic script, a start time at least ``delay`` after
the previous reservation of that host (by whichever worker), provided fewer than ``concurrency``
requests of the host are in flight; the caller waits until that start time, downloads, and
:meth:`HostSlots.release` frees the token.
"""

from __future__ import annotations

from bilingual_spider.distributed.connection import PatientRedis

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


class HostSlots:
    """The shared per-host slots of the crawls under ``prefix``.

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
        prefix: str,
        delay: float,
        concurrency: int,
        hold: float = 180.0,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.delay_ms = max(0, round(delay * 1000))
        self.concurrency = max(1, concurrency)
        self.hold_ms = max(1, round(hold * 1000))
        self._acquire = redis.script(_ACQUIRE)

    def _keys(self, host: str) -> list[str]:
        return [f"{self.prefix}:host:{host}:next", f"{self.prefix}:host:{host}:inflight"]

    def acquire(self, host: str, token: str) -> float | None:
        """Seconds to wait before starting a request to ``host`` (its slot is reserved under
        ``token``); None: the host has ``concurrency`` requests in flight, ask again later."""
        wait = int(
            self._acquire(self._keys(host), [token, self.delay_ms, self.concurrency, self.hold_ms])
        )
        return None if wait < 0 else wait / 1000

    def release(self, host: str, token: str) -> None:
        self.redis.call(self.redis.client.zrem, self._keys(host)[1], token)
