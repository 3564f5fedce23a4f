"""What failed decides the retry (failures.py), and an adapter's health (breaker.py): the circuit
breaker's states and pauses, and the error window's one warning (all without a crawl)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.search.brave import BraveSearch
from bilingual_spider.search.breaker import (
    DOWN,
    PROBING,
    UP,
    CallTimes,
    CircuitBreaker,
    ErrorWindow,
)
from bilingual_spider.search.cc_index import CcIndex
from bilingual_spider.search.failures import (
    KEY_REFUSED,
    REFUSED,
    THROTTLED,
    TRANSIENT,
    UNREADABLE,
    exception_failure,
    exception_reason,
    status_failure,
    unreadable_failure,
)
from bilingual_spider.search.moz import MozLinks
from tests.fake_clock import FakeClock

# --- failures.py -----------------------------------------------------------------------------


def test_statuses_decide_the_kind_and_the_retries() -> None:
    assert status_failure(429).kind == status_failure(503).kind == THROTTLED
    assert status_failure(500).kind == status_failure(502).kind == status_failure(408).kind
    assert status_failure(500).kind == TRANSIENT and status_failure(500).retry_limit is None
    assert status_failure(404).kind == REFUSED and status_failure(404).retry_limit == 0
    refused = status_failure(401, key_refused=True)
    assert refused.kind == KEY_REFUSED and refused.retry_limit == 0
    assert "refused the key" in refused.reason
    assert not refused.counts_against_the_service  # the key, not the service's health
    unreadable = unreadable_failure("the answer is not JSON")
    assert unreadable.kind == UNREADABLE and unreadable.retry_limit == 1
    assert unreadable.counts_against_the_service


def test_which_answers_say_the_key_is_wrong() -> None:
    moz = MozLinks("http://api.sandbox.internal/moz/v2/links", 50, token="t")
    assert moz.key_refused(401, b"") and moz.key_refused(403, b"")
    assert not moz.key_refused(400, b"") and not moz.key_refused(429, b"")
    cdx = CcIndex("http://api.sandbox.internal/cc-index/", 10)
    assert not cdx.key_refused(403, b"AccessDenied")  # Common Crawl takes no key
    brave = BraveSearch(key="k")
    assert brave.key_refused(422, b'{"error": {"code": "SUBSCRIPTION_TOKEN_INVALID"}}')
    missing = b'{"meta": {"errors": [{"loc": ["header", "x-subscription-token"]}]}}'
    assert brave.key_refused(422, missing)
    assert not brave.key_refused(422, b'{"meta": {"errors": [{"loc": ["query", "count"]}]}}')


class DataLoss(Exception):
    pass


class ResponseDataLossError(Exception):
    pass


class DownloadCancelledError(Exception):
    pass


class ResponseFailed(Exception):
    def __init__(self, reasons: list[object]) -> None:
        super().__init__(reasons)
        self.reasons = reasons


class Wrapped:  # a Twisted Failure: the exception in .value
    def __init__(self, value: BaseException) -> None:
        self.value = value


def test_exceptions_are_classified_by_class_and_always_have_a_reason() -> None:
    assert exception_failure(TimeoutError()).kind == TRANSIENT
    assert exception_failure(TimeoutError()).label == "timeout"
    cut = exception_failure(ResponseDataLossError())
    assert cut.kind == TRANSIENT
    assert cut.reason == "connection lost mid-answer (ResponseDataLossError)"
    huge = exception_failure(DownloadCancelledError())
    assert huge.kind == UNREADABLE
    assert huge.reason == "answer too large or cancelled (DownloadCancelledError)"
    said = exception_failure(DownloadCancelledError("received 9437184 bytes, over 8388608"))
    assert said.reason == (
        "answer too large or cancelled (DownloadCancelledError: received 9437184 bytes, over "
        "8388608)"
    )
    assert exception_failure(TimeoutError()).reason == "timeout (TimeoutError)"
    assert exception_reason(ConnectionError("refused")) == "ConnectionError: refused"
    failed = ResponseFailed([])
    assert exception_reason(failed) == "ResponseFailed"
    inner = ResponseFailed([Wrapped(DataLoss("the body was cut"))])
    assert exception_reason(inner) == "ResponseFailed (DataLoss: the body was cut)"


@given(st.text(alphabet=" \t\n", max_size=3))
def test_an_exception_reason_is_never_empty(message: str) -> None:
    for cls in (Exception, TimeoutError, DownloadCancelledError, ResponseDataLossError):
        reason = exception_failure(cls(message)).reason
        assert reason.strip() and cls.__name__ in reason


# --- breaker.py ------------------------------------------------------------------------------


def test_breaker_goes_down_after_failures_in_a_row_and_one_probe_tests_it() -> None:
    clock = FakeClock(100.0)
    breaker = CircuitBreaker(failures=3, pause=10.0, max_pause=25.0, give_up_after=60.0,
                             clock=clock)  # fmt: skip
    assert breaker.failed("HTTP 503") is None and breaker.failed("HTTP 503") is None
    assert breaker.succeeded() is None  # an answer breaks the run
    assert [breaker.failed("x") for _ in range(2)] == [None, None]
    assert breaker.failed("timeout") == 10.0 and breaker.state == DOWN
    assert breaker.delay() == pytest.approx(10.0) and breaker.last_reason == "timeout"
    assert breaker.failed("late answer of a call sent before") is None  # no new pause
    clock.now += 10.0
    assert breaker.delay() == 0.0  # the probe is due
    breaker.probe_sent()
    assert breaker.state == PROBING and breaker.delay() == math.inf
    assert breaker.failed("timeout") == 20.0  # a failed probe: twice the pause
    clock.now += 20.0
    breaker.probe_sent()
    assert breaker.failed("timeout") == 25.0  # at most max_pause
    clock.now += 25.0
    assert breaker.down_for() == pytest.approx(55.0) and not breaker.given_up()
    breaker.probe_sent()
    breaker.probe_lost()  # dropped without an answer: another probe may go now
    assert breaker.state == DOWN and breaker.delay() == 0.0
    clock.now += 6.0
    assert breaker.given_up()
    breaker.probe_sent()
    assert breaker.succeeded() == pytest.approx(61.0)  # back, after 61 s down
    assert breaker.state == UP and breaker.delay() == 0.0 and not breaker.given_up()
    assert [breaker.failed("x") for _ in range(3)][-1] == 10.0  # down again: pauses start over


@given(st.lists(st.booleans(), max_size=60), st.integers(1, 6))
def test_breaker_is_down_only_after_a_run_of_failures(outcomes: list[bool], failures: int) -> None:
    breaker = CircuitBreaker(failures=failures, clock=FakeClock(100.0))
    run = 0
    for ok in outcomes:
        if breaker.state == UP:
            run = 0 if ok else run + 1
            breaker.succeeded() if ok else breaker.failed("x")
            assert breaker.down == (run >= failures)
        else:
            break


def test_error_window_warns_once_with_the_share_and_the_commonest_reason() -> None:
    window = ErrorWindow(size=8, share=0.2)
    for label in ("HTTP 500", None, None, None, "timeout", None, None):
        window.add(label)
        assert window.alarm() is None  # not a full window yet
    window.add("timeout")
    assert window.alarm() == pytest.approx(3 / 8)
    assert window.commonest() == ("timeout", 2)
    window.add("timeout")
    assert window.alarm() is None  # said once
    for _ in range(8):
        window.add(None)
        assert window.alarm() is None
    assert window.armed  # no failure left in the window (below a quarter of the share)
    for label in ("HTTP 503", "HTTP 503", "HTTP 503"):
        window.add(label)
    assert window.alarm() == pytest.approx(3 / 8)  # re-armed once the share fell
    with pytest.raises(ValueError):
        ErrorWindow(size=0)


def test_call_times_adapt_the_timeout_and_say_when_a_call_is_slow() -> None:
    times = CallTimes(ceiling=15.0, floor=2.0)
    assert times.timeout() == times.slow_after() == 15.0  # nothing seen yet
    for seconds in (0.1, 0.1, 0.2, 0.1, 0.3, 0.1, 0.2, 0.1, 0.1, 0.2):
        times.add(seconds)
    assert times.timeout() == 2.0  # 5 x 0.3 s is below the floor
    assert times.timeout(attempt=3) == 8.0 and times.timeout(attempt=5) == 15.0
    assert times.timeout(probe=True) == 15.0  # a probe may find an API that became slow
    assert times.slow_after() == pytest.approx(0.5)  # floor / 4, above 3 x the median
    for _ in range(50):
        times.add(2.0)  # the API became slower: the timeout follows
    assert times.timeout() == 10.0 and times.slow_after() == 6.0
