"""An adapter's health without Scrapy: when its queries are given up, and that each problem is
said once (``search/health.py``)."""

import logging
from collections import Counter

import pytest

from bilingual_spider.search.failures import (
    exception_failure,
    status_failure,
    unreadable_failure,
)
from bilingual_spider.search.health import AdapterHealth, HealthSettings
from tests.fake_clock import FakeClock


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] += count


SETTINGS = HealthSettings(
    breaker_failures=3,
    breaker_pause=10.0,
    give_up_after=60.0,
    error_window=10,
    error_share=0.5,
    later_delay=30.0,
    later_rounds=2,
)


@pytest.fixture
def clock():
    return FakeClock(1000.0)


@pytest.fixture
def stats():
    return Stats()


@pytest.fixture
def health(clock, stats):
    return AdapterHealth("api", stats, SETTINGS, clock)


def messages(caplog, level):
    return [r.getMessage() for r in caplog.records if r.levelno == level]


def test_down_after_failures_in_a_row_given_up_after_the_limit_said_once_each(
    health, clock, stats, caplog
):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    failure = status_failure(503)
    for _ in range(2):
        health.failed(failure, "backlinks of a.example")
    assert health.unavailable() is None
    health.failed(failure, "backlinks of a.example")
    assert health.unavailable() is not None and "down" in health.unavailable()
    assert stats.values["search/api/down"] == 1
    [warning] = messages(caplog, logging.WARNING)
    assert "down after 3 failed calls" in warning and "HTTP 503" in warning
    # down, not yet given up: its queries wait; they are given up when the limit has passed
    assert health.given_up_reason() is None
    give_up_at = health.give_up_time()
    assert give_up_at == pytest.approx(clock.now + 60.0, abs=0.1)
    clock.now = give_up_at
    reason = health.given_up_reason()
    assert reason is not None and "down for 60 s" in reason
    health.given_up_reason()
    infos = [m for m in messages(caplog, logging.INFO) if "goes on without it" in m]
    assert len(infos) == 1
    assert health.give_up_time() == float("inf")  # already given up


def test_an_answer_brings_it_back_and_a_later_give_up_is_said_again(health, clock, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    for _ in range(3):
        health.failed(status_failure(500), "q")
    clock.now += 61
    assert health.given_up_reason() is not None
    assert health.probe_due() is False  # never ready: no probe
    health.now_ready()
    assert health.probe_due() is True
    health.answered(0.2)
    assert health.unavailable() is None and health.given_up_reason() is None
    assert any("is back after 61 s" in m for m in messages(caplog, logging.INFO))
    for _ in range(3):
        health.failed(status_failure(500), "q")
    clock.now += 61
    health.given_up_reason()
    infos = [m for m in messages(caplog, logging.INFO) if "goes on without it" in m]
    assert len(infos) == 2


def test_a_probe_lost_lets_another_go_a_probe_answered_does_not_matter(health, clock):
    for _ in range(3):
        health.failed(status_failure(500), "q")
    clock.now += 10
    assert health.breaker.delay() == 0
    health.probe_sent(("api", "q", None))
    assert health.breaker.delay() == float("inf")  # one probe at a time
    health.call_over(("api", "other", None))
    assert health.breaker.delay() == float("inf")
    health.call_over(("api", "q", None))  # dropped without an answer
    assert health.breaker.delay() == 0


def test_reported_the_health_failures_and_everything_once_the_api_is_known_to_fail(health):
    assert health.reported(health=False) is False  # the query's own problem: its WARNING
    assert health.reported(health=True) is True  # the API's health: the service says it
    assert health.health_failures == 1
    for _ in range(3):
        health.failed(exception_failure(TimeoutError()), "q")
    assert health.reported(health=False) is True  # a WARNING said it is down


def test_too_many_failed_calls_one_warning_and_the_close_says_nothing_more(health, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    for i in range(10):  # never 3 in a row: never down, but 6 of 10 failed
        if i % 3 == 2:
            health.answered(0.1)
        else:
            health.failed(unreadable_failure("not JSON"), "q")
            health.reported(health=True)
    [warning] = messages(caplog, logging.WARNING)
    assert "% of its last 10 calls failed" in warning and "unreadable" in warning
    assert health.warned
    assert health.unavailable() is None  # never down, but known to fail
    assert health.reported(health=False) is True
    health.close(unfinished=0)
    assert len(messages(caplog, logging.WARNING)) == 1


def test_failures_said_only_as_info_get_one_warning_at_the_close(health, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    health.failed(status_failure(503), "q")
    health.reported(health=True)
    health.answered(0.1)
    assert messages(caplog, logging.WARNING) == []
    health.close(unfinished=0)
    [warning] = messages(caplog, logging.WARNING)
    assert "1 queries failed for good or for a round" in warning and "HTTP 503" in warning


def test_the_close_counts_unfinished_queries_of_an_api_that_is_down(health, stats, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    for _ in range(3):
        health.failed(status_failure(503), "q")
    health.close(unfinished=4)
    assert stats.values["search/api/unfinished"] == 4
    assert health.never_answered == 4
    assert any("4 queries never answered" in m for m in messages(caplog, logging.INFO))


def test_getting_ready_tried_again_later_then_given_up(health, clock, stats, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    health.preparation_failed(OSError("connection refused"))
    assert health.preparation.not_before == clock.now + 30.0
    assert health.give_up_time() == pytest.approx(clock.now + 60.0, abs=0.1)
    clock.now += 30
    health.preparation_failed(OSError("connection refused"))
    assert health.preparation.not_before == clock.now + 60.0  # doubled
    assert health.given_up_reason() is None
    clock.now += 31  # past the limit since the first failure: its queries are not held
    reason = health.not_ready_for_long()
    assert reason is not None and "not ready for 61 s (connection refused)" in reason
    assert health.unavailable() == reason
    health.preparation_failed(OSError("connection refused"))  # past BILINGUAL_SEARCH_LATER_ROUNDS
    assert health.preparation.given_up == "adapter not ready: connection refused"
    assert stats.values["search/api/later"] == 2 and stats.values["search/api/failed"] == 3
    warnings = messages(caplog, logging.WARNING)
    assert len(warnings) == 3 and "given up" in warnings[-1]


def test_a_failed_setup_call_starts_the_not_ready_clock_until_ready(health, clock):
    health.getting_ready_fails("HTTP 502")
    started = clock.now
    clock.now += 5
    health.getting_ready_fails("HTTP 502")
    assert health.preparation.failing_since == started
    health.now_ready()
    health.getting_ready_fails("HTTP 502")  # a ready adapter's file call: not getting ready
    assert health.preparation.failing_since is None
    clock.now += 100
    assert health.not_ready_for_long() is None


def test_a_refused_key_stops_the_adapter_with_one_error(health, stats, caplog):
    caplog.set_level(logging.INFO, logger="bilingual_spider.search.service")
    refused = status_failure(401, key_refused=True)
    health.key_refused(refused)
    health.key_refused(refused)
    assert stats.values["search/api/key_refused"] == 1
    assert len(messages(caplog, logging.ERROR)) == 1
    assert health.given_up_reason() == f"api refused its key ({refused.reason})"
    assert health.reported(health=False) is True


def test_failures_of_the_query_itself_count_against_nothing(health):
    refused = status_failure(404)
    assert not refused.counts_against_the_service
    for _ in range(5):
        health.failed(refused, "q")
    assert health.unavailable() is None
    assert health.errors.failed_share() == 0.0


def test_timeouts_adapt_to_answers_and_a_probe_gets_the_full_timeout(clock, stats):
    settings = HealthSettings(breaker_failures=1, timeout=30.0, min_timeout=1.0)
    health = AdapterHealth("api", stats, settings, clock)
    for _ in range(20):
        health.answered(0.1)
    adapted = health.timeout_of(attempt=1)
    assert 1.0 <= adapted < 30.0
    assert health.timeout_of(attempt=2) > adapted
    health.failed(status_failure(500), "q")
    assert health.timeout_of(attempt=1) == 30.0
