"""Pacing of one service's calls: a rate limit, and pauses after 429 / 5xx answers.

Each adapter has its own :class:`RateLimiter`. A call *reserves* the next free moment (calls are
spaced ``1 / rate`` seconds apart, like a token bucket of one token) and waits until then; a
429 or 5xx answer *pauses* the adapter for its ``Retry-After`` (or an exponential back-off
without one), so no call of that adapter goes out before the server said it may. Waiting is the
caller's business (an ``await``, never a blocking sleep): this module only does the arithmetic,
with an injectable clock, and has no Scrapy in it.
"""

from __future__ import annotations

import email.utils
import math
import time
from collections.abc import Callable


class RateLimiter:
    """At most ``rate`` calls a second (``None`` or 0: no limit), and none while paused."""

    def __init__(self, rate: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        if rate is not None and rate < 0:
            raise ValueError("a rate is a number of calls a second, >= 0")
        self.interval = 1.0 / rate if rate else 0.0
        self.clock = clock
        self.next_free = -math.inf
        self.paused_until = -math.inf

    def delay(self) -> float:
        """Seconds until a call may go out (0: now). Reserves nothing."""
        return max(0.0, self.next_free - self.clock(), self.paused_until - self.clock())

    def reserve(self) -> float:
        """Take the next free moment for one call; returns the seconds to wait before it."""
        now = self.clock()
        start = max(now, self.next_free, self.paused_until)
        self.next_free = start + self.interval
        return start - now

    def pause(self, seconds: float) -> None:
        """No call before ``seconds`` from now (a longer pause already set stays)."""
        self.paused_until = max(self.paused_until, self.clock() + max(0.0, seconds))


def parse_retry_after(value: str | bytes | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP-date.

    >>> parse_retry_after("120"), parse_retry_after(b"0"), parse_retry_after("soon")
    (120.0, 0.0, None)
    """
    if value is None:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.strip()
    if text.isdigit():
        return float(text)
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment is None:
        return None
    current = time.time() if now is None else now
    return max(0.0, moment.timestamp() - current)


def backoff_delay(attempt: int, retry_after: float | None, base: float, cap: float) -> float:
    """How long to pause after the ``attempt``-th failed call (1, 2, ...): the server's
    ``Retry-After`` when it gave one, else ``base * 2 ** (attempt - 1)``; never above ``cap``.

    >>> backoff_delay(1, None, 2.0, 600.0), backoff_delay(3, None, 2.0, 600.0)
    (2.0, 8.0)
    >>> backoff_delay(1, 30.0, 2.0, 600.0), backoff_delay(1, 9999.0, 2.0, 600.0)
    (30.0, 600.0)
    """
    if retry_after is not None:
        return min(cap, max(0.0, retry_after))
    return min(cap, base * 2.0 ** max(0, attempt - 1))
