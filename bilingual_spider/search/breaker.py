"""The health of one search adapter: a circuit breaker, and the share of its calls that fail.

:class:`CircuitBreaker` (the pattern of Nygard, *Release It!*, 2007, ch. 5): after ``failures``
failed calls in a row the adapter is **down** for ``pause`` seconds (doubling at each failed probe,
at most ``max_pause``); then **one** probe call may go, and its answer decides: up again, or down
for longer. Calls are not refused here: the service keeps its queries waiting while
:meth:`CircuitBreaker.delay` says so. An adapter down for longer than ``give_up_after`` is given
up (:meth:`CircuitBreaker.given_up`): its waiting queries are answered with an error, so that the
crawl need not wait for it; probes still go when new queries come.

:class:`ErrorWindow`: the outcomes of the last ``size`` calls; :meth:`ErrorWindow.alarm` says
once when more than ``share`` of them failed, and which reason was the commonest.

:class:`CallTimes`: how long the last answered calls took, which gives the timeout of the next
call (``factor`` times the 90th percentile, at least ``floor``, at most ``ceiling``, doubled at
each retry; the full ``ceiling`` for a probe, so that an API that only became slow is found up
again) and when a call out is *slow* (three times the median): a slow call no longer holds one
of the adapter's places, so a share of hanging calls does not stall the others.

Plain Python with an injectable clock: no Scrapy, no waiting.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from collections.abc import Callable

UP = "up"
DOWN = "down"
PROBING = "probing"


class CircuitBreaker:
    """Up, down, or probing; see the module doc."""

    def __init__(
        self,
        failures: int = 5,
        pause: float = 10.0,
        max_pause: float = 300.0,
        give_up_after: float = 180.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if failures < 1:
            raise ValueError("a breaker opens after at least one failure")
        self.failures, self.pause, self.max_pause = failures, pause, max_pause
        self.give_up_after = give_up_after
        self.clock = clock
        self.state = UP
        self.in_a_row = 0
        self.trips = 0
        """Failed probes since the adapter went down (the pause doubles with each)."""
        self.down_since: float | None = None
        self.reopens_at = -math.inf
        self.last_reason = ""

    @property
    def down(self) -> bool:
        return self.state != UP

    def delay(self) -> float:
        """Seconds until a call may go: 0 when up or when a probe is due, inf while the probe
        is out."""
        if self.state == UP:
            return 0.0
        if self.state == PROBING:
            return math.inf
        return max(0.0, self.reopens_at - self.clock())

    def probe_sent(self) -> None:
        """The call that tests a down adapter went out: no other until it is answered."""
        if self.state == DOWN:
            self.state = PROBING

    def probe_lost(self) -> None:
        """The probe ended without an answer either way (dropped): another may go now."""
        if self.state == PROBING:
            self.state, self.reopens_at = DOWN, self.clock()

    def succeeded(self) -> float | None:
        """A call was answered. Returns how long the adapter was down when this brings it
        back, else None."""
        self.in_a_row = 0
        if self.state == UP:
            return None
        down_for = self.clock() - (self.down_since or self.clock())
        self.state, self.trips, self.down_since = UP, 0, None
        return down_for

    def failed(self, reason: str) -> float | None:
        """A call failed. Returns the pause when this takes the adapter down (or keeps it down
        after a failed probe), else None."""
        self.in_a_row += 1
        self.last_reason = reason
        if self.state == UP and self.in_a_row < self.failures:
            return None
        if self.state == UP:
            self.down_since = self.clock()
        elif self.state == DOWN:  # a call sent before it went down: no new pause
            return None
        pause = min(self.max_pause, self.pause * 2.0**self.trips)
        self.trips += 1
        self.state = DOWN
        self.reopens_at = self.clock() + pause
        return pause

    def down_for(self) -> float:
        """Seconds since the adapter went down (0 when up)."""
        if self.down_since is None:
            return 0.0
        return self.clock() - self.down_since

    def given_up(self) -> bool:
        """Down for longer than ``give_up_after``: waiting queries are not worth holding."""
        return self.down and self.down_for() > self.give_up_after


class ErrorWindow:
    """The last ``size`` calls' outcomes, and an alarm when too many failed."""

    def __init__(self, size: int = 40, share: float = 0.2) -> None:
        if size < 1 or not 0.0 < share < 1.0:
            raise ValueError("a window of at least one call, and a share in (0, 1)")
        self.size, self.share = size, share
        self.outcomes: deque[str | None] = deque(maxlen=size)
        self.armed = True

    def add(self, failure_label: str | None) -> None:
        """One call: None when it was answered, else a short label of what failed."""
        self.outcomes.append(failure_label)

    def failed_share(self) -> float:
        if not self.outcomes:
            return 0.0
        return sum(1 for o in self.outcomes if o is not None) / len(self.outcomes)

    def commonest(self) -> tuple[str, int]:
        """The commonest failure label in the window and how many calls it failed."""
        counts = Counter(o for o in self.outcomes if o is not None)
        return counts.most_common(1)[0] if counts else ("", 0)

    def alarm(self) -> float | None:
        """The failed share, once, when a full window has more than ``share`` failed; armed
        again when the share falls below a quarter of it (an API that failed and recovered)."""
        failed = self.failed_share()
        if self.armed and len(self.outcomes) == self.size and failed > self.share:
            self.armed = False
            return failed
        if not self.armed and failed < self.share / 4:
            self.armed = True
        return None


class CallTimes:
    """The durations of an adapter's last ``size`` answered calls; see the module doc."""

    def __init__(
        self, ceiling: float, floor: float = 1.0, factor: float = 5.0, size: int = 50
    ) -> None:
        self.ceiling, self.floor, self.factor = ceiling, floor, factor
        self.samples: deque[float] = deque(maxlen=size)

    MIN_SAMPLES = 5
    """Answered calls needed before the timeout adapts (until then: ``ceiling``)."""

    def add(self, seconds: float) -> None:
        self.samples.append(max(0.0, seconds))

    def quantile(self, q: float) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def timeout(self, attempt: int = 1, probe: bool = False) -> float:
        """Seconds the ``attempt``-th call of a query may take."""
        if probe or len(self.samples) < self.MIN_SAMPLES:
            return self.ceiling
        base = max(self.floor, self.factor * self.quantile(0.9))
        return min(self.ceiling, base * 2.0 ** max(0, attempt - 1))

    def slow_after(self) -> float:
        """Seconds after which a call out is slow (``ceiling`` until enough calls were seen)."""
        if len(self.samples) < self.MIN_SAMPLES:
            return self.ceiling
        return min(self.timeout(), max(self.floor / 4, 3.0 * self.quantile(0.5)))
