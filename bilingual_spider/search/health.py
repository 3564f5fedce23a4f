"""What the search service knows of each adapter's health, and what it says about it.

One :class:`AdapterHealth` per adapter joins its getting ready (:class:`Preparation`), its
circuit breaker, its error window and its call times (:mod:`~bilingual_spider.search.breaker`)
and answers the service's questions: may its queries be asked (:meth:`AdapterHealth.unavailable`),
when are they given up (:meth:`AdapterHealth.give_up_time`), how long may a call take
(:meth:`AdapterHealth.timeout_of`), and does a query's failure need a message of its own
(:meth:`AdapterHealth.reported`). It says each problem once:

* a WARNING when the adapter goes down, when too many of its calls fail, when it is not ready
  (each attempt), an ERROR when it refuses its key;
* an INFO when its queries start being answered with an error (the WARNING came before), and
  when it is back;
* at the close (:meth:`AdapterHealth.close`), one WARNING for failures only said one by one as
  INFO, and an INFO for the queries it never answered.

Plain Python with an injectable clock and a stats collector (``inc_value``): no Scrapy, no
waiting.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol

from bilingual_spider.search.breaker import CallTimes, CircuitBreaker, ErrorWindow
from bilingual_spider.search.failures import CallFailure

logger = logging.getLogger("bilingual_spider.search.service")
"""The search service's logger: its users read (and filter) these as the service's messages."""


class Stats(Protocol):
    def inc_value(self, key: str, count: int = 1) -> None: ...


@dataclass
class Preparation:
    """An adapter getting ready (setup call, file downloads, index build)."""

    task: asyncio.Future[None] | None = None
    failures: int = 0
    not_before: float = 0.0
    ready: bool = False
    given_up: str | None = None
    """Why the adapter will never be ready: its queries are answered with this error."""
    failing_since: float | None = None
    """When its first attempt failed (None once ready): not ready past
    ``BILINGUAL_SEARCH_GIVE_UP_AFTER``, it holds its queries no longer."""
    last_error: str = ""


@dataclass(frozen=True)
class HealthSettings:
    """The service's settings an adapter's health reads (``BILINGUAL_SEARCH_*``)."""

    breaker_failures: int = 5
    breaker_pause: float = 10.0
    max_backoff: float = 600.0
    give_up_after: float = 180.0
    error_share: float = 0.2
    error_window: int = 40
    timeout: float = 0.0
    min_timeout: float = 1.0
    later_delay: float = 300.0
    later_rounds: int = 2


class AdapterHealth:
    """One adapter's health: see the module doc."""

    def __init__(
        self,
        name: str,
        stats: Stats,
        settings: HealthSettings,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name, self.stats, self.settings, self.clock = name, stats, settings, clock
        self.preparation = Preparation()
        self.breaker = CircuitBreaker(
            settings.breaker_failures,
            settings.breaker_pause,
            settings.max_backoff,
            settings.give_up_after,
            clock=clock,
        )
        self.errors = ErrorWindow(settings.error_window, settings.error_share)
        self.call_times = CallTimes(settings.timeout, settings.min_timeout)
        self.probe: Hashable | None = None
        """The key of the call out that tests the adapter while it is down."""
        self.never_answered = 0
        self.health_failures = 0
        """Queries that failed for good, or for a round, for the API's health."""
        self.warned = False
        """A WARNING (or ERROR) said that the adapter fails: down, too many failed calls, key
        refused."""
        self._given_up_said = False

    # --- may its queries be asked ---------------------------------------------------------------

    def given_up_reason(self) -> str | None:
        """Why its queries are answered with an error instead of asked: it will never be ready,
        it refused its key, it has not been ready or has been down past
        ``BILINGUAL_SEARCH_GIVE_UP_AFTER``; else None. Says so once (an INFO: its WARNING came
        before)."""
        if self.preparation.given_up is not None:
            return self.preparation.given_up
        reason = self.not_ready_for_long()
        if reason is not None:
            self._say_given_up(
                "search adapter %s: %s: the crawl goes on without it, its queries are answered "
                "with an error (it is tried again when due)",
                reason,
            )
            return reason
        if not self.breaker.given_up():
            return None
        breaker = self.breaker
        self._say_given_up(
            "search API %s down for %.0f s (last: %s): the crawl goes on without it, its "
            "queries are answered with an error (one probe a while still tests it)",
            breaker.down_for(),
            breaker.last_reason,
        )
        return f"{self.name} down for {breaker.down_for():.0f} s (last: {breaker.last_reason})"

    def _say_given_up(self, message: str, *values: object) -> None:
        if not self._given_up_said:
            self._given_up_said = True
            logger.info(message, self.name, *values)

    def not_ready_for_long(self) -> str | None:
        """Why its queries are not held for it: it has failed to get ready (its setup call, its
        files) for longer than ``BILINGUAL_SEARCH_GIVE_UP_AFTER``; else None. Its next attempt
        still goes when due, without holding the crawl's end."""
        preparation = self.preparation
        since = preparation.failing_since
        waited = self.clock() - since if since is not None else 0.0
        if since is None or preparation.ready or waited <= self.settings.give_up_after:
            return None
        return f"{self.name} not ready for {waited:.0f} s ({preparation.last_error})"

    def unavailable(self) -> str | None:
        """Why it cannot answer now (stopped, never ready, not ready for long, down), or None."""
        reason = self.preparation.given_up or self.not_ready_for_long()
        if reason is not None:
            return reason
        if self.breaker.down:
            breaker = self.breaker
            return f"{self.name} down for {breaker.down_for():.0f} s ({breaker.last_reason})"
        return None

    def give_up_time(self) -> float:
        """When its waiting queries are to be given up (inf: it is neither down nor failing to
        get ready, or they are given up already)."""
        since = self.preparation.failing_since
        if since is not None and not self.not_ready_for_long():
            return since + self.settings.give_up_after + 0.01
        breaker = self.breaker
        if breaker.down_since is None or breaker.given_up():
            return float("inf")
        return breaker.down_since + breaker.give_up_after + 0.01

    def probe_due(self) -> bool:
        """Given up but ready, with its probe due: one query may still go to test it."""
        preparation = self.preparation
        return preparation.given_up is None and preparation.ready and self.breaker.delay() == 0

    def timeout_of(self, attempt: int) -> float:
        """The download timeout of a call: adapted to its answers (the full
        ``BILINGUAL_SEARCH_TIMEOUT`` for a probe)."""
        return self.call_times.timeout(attempt, probe=self.breaker.down)

    # --- probes ---------------------------------------------------------------------------------

    def probe_sent(self, key: Hashable) -> None:
        self.breaker.probe_sent()
        self.probe = key
        self.stats.inc_value(f"search/{self.name}/probes")

    def call_over(self, key: Hashable) -> None:
        """The call with ``key`` is over: if it was the probe, another may go (unless its
        answer, either way, already said whether the adapter is up)."""
        if self.probe == key:
            self.probe = None
            self.breaker.probe_lost()

    # --- outcomes of calls ----------------------------------------------------------------------

    def answered(self, latency: object) -> None:
        """A call was answered: the breaker closes, the error window counts it, its duration
        (``latency``, when a number) adapts the timeout."""
        if isinstance(latency, (int, float)):
            self.call_times.add(float(latency))
        self._count_outcome(None)
        down_for = self.breaker.succeeded()
        if down_for is not None:
            self._given_up_said = False
            self.stats.inc_value(f"search/{self.name}/back")
            logger.info("search API %s is back after %.0f s down", self.name, down_for)

    def failed(self, failure: CallFailure, what: str) -> None:
        """A call (``what``: the query, for the messages) failed: counted in the error window
        (one WARNING when too many fail) and by the circuit breaker (a WARNING when it goes
        down). Failures that are not the API's health count in neither."""
        if not failure.counts_against_the_service:
            return
        self._count_outcome(failure.label)
        breaker = self.breaker
        was_down = breaker.down
        pause = breaker.failed(failure.reason)
        if pause is None:
            return
        if was_down:
            logger.info(
                "search API %s still down (probe %s: %s): next probe in %.1f s",
                self.name,
                what,
                failure.reason,
                pause,
            )
            return
        self.stats.inc_value(f"search/{self.name}/down")
        self.warned = True
        logger.warning(
            "search API %s is down after %d failed calls in a row (last: %s, for %s): its "
            "queries wait, the crawl goes on; one probe call in %.1f s",
            self.name,
            breaker.in_a_row,
            failure.reason,
            what,
            pause,
        )

    def _count_outcome(self, failure_label: str | None) -> None:
        window = self.errors
        window.add(failure_label)
        share = window.alarm()
        if share is None:
            return
        label, count = window.commonest()
        self.stats.inc_value(f"search/{self.name}/error_rate_warnings")
        self.warned = True
        logger.warning(
            "search API %s: %.0f%% of its last %d calls failed (commonest: %s, %d calls)",
            self.name,
            100 * share,
            window.size,
            label,
            count,
        )

    def key_refused(self, failure: CallFailure) -> None:
        """The API refused the adapter's key: no call of it is worth sending (one ERROR)."""
        if self.preparation.given_up is not None:
            return
        self.preparation.given_up = f"{self.name} refused its key ({failure.reason})"
        self.stats.inc_value(f"search/{self.name}/key_refused")
        self.warned = True
        logger.error(
            "search API %s refused its key (%s): the adapter is stopped for this crawl and its "
            "queries are answered with an error; check its key (see docs/search.md)",
            self.name,
            failure.reason,
        )

    def reported(self, health: bool) -> bool:
        """Whether the service reports a query's failure itself: the adapter is known to fail
        (down, stopped, too many failed calls: a WARNING said so), or the failure is of the
        API's health (``health``), which the breaker and the error window watch (a WARNING when
        it goes down or too many calls fail; else one at the close)."""
        if health:
            self.health_failures += 1
        return health or self.unavailable() is not None or not self.errors.armed

    # --- getting ready --------------------------------------------------------------------------

    def getting_ready_fails(self, reason: str) -> None:
        """A call it makes to get ready (setup call, file download) failed."""
        preparation = self.preparation
        if not preparation.ready:
            preparation.failing_since = preparation.failing_since or self.clock()
            preparation.last_error = reason

    def now_ready(self) -> None:
        self.preparation.ready, self.preparation.failing_since = True, None
        self._given_up_said = False

    def preparation_failed(self, error: BaseException) -> None:
        """Getting ready failed: tried again later (a WARNING each time), up to
        ``BILINGUAL_SEARCH_LATER_ROUNDS`` times, then never (its queries get the error)."""
        preparation = self.preparation
        preparation.failures += 1
        if preparation.failing_since is None:
            preparation.failing_since = self.clock()
        preparation.last_error = str(error) or type(error).__name__
        self.stats.inc_value(f"search/{self.name}/failed")
        if preparation.failures <= self.settings.later_rounds:
            delay = self.settings.later_delay * 2 ** (preparation.failures - 1)
            preparation.not_before = self.clock() + delay
            self.stats.inc_value(f"search/{self.name}/later")
            logger.warning(
                "search adapter %s not ready (%s): trying again in %.0f s", self.name, error, delay
            )
            return
        logger.warning("search adapter %s given up: %s", self.name, error)
        preparation.given_up = f"adapter not ready: {error}"

    # --- the close ------------------------------------------------------------------------------

    def close(self, unfinished: int) -> None:
        """The crawl closes with ``unfinished`` queries held or out: what was not said yet."""
        if unfinished:
            if self.given_up_reason() or self.breaker.down:
                self.never_answered += unfinished  # waiting for an API that is down
            self.stats.inc_value(f"search/{self.name}/unfinished", unfinished)
            logger.warning(
                "%d %s search queries were still waiting when the crawl closed",
                unfinished,
                self.name,
            )
        if self.never_answered:
            why = self.given_up_reason() or self.breaker.last_reason
            logger.info(
                "search API %s: %d queries never answered (%s)", self.name, self.never_answered, why
            )
        if self.health_failures and not self.warned:  # said as INFO only, one by one
            label, _ = self.errors.commonest()
            logger.warning(
                "search API %s: %d queries failed for good or for a round (commonest reason of "
                "its last calls: %s; last: %s)",
                self.name,
                self.health_failures,
                label or "none",
                self.breaker.last_reason,
            )
        if self.preparation.task is not None:
            self.preparation.task.cancel()
