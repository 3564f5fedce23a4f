"""Per-host slots shared by the workers, on the real Redis (a key prefix of their own)."""

from __future__ import annotations

import time

import pytest

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.host_slots import HostSlots
from tests.conftest import REDIS_URL


@pytest.fixture
def slots(redis_prefix):
    connection = PatientRedis(REDIS_URL)
    yield HostSlots(connection, redis_prefix, delay=1.0, concurrency=1)
    connection.close()


def test_one_request_at_a_time_and_the_delay_counts_from_the_response(slots):
    assert slots.acquire("a.example", "t1") == 0  # a first request starts at once
    assert slots.acquire("a.example", "t2") is None  # one at a time: ask again later
    assert slots.acquire("b.example", "t3") == 0  # another host is not held up
    time.sleep(1.2)  # the request was sent late, or its response took long
    released = time.monotonic()
    slots.release("a.example", "t1")
    wait = slots.acquire("a.example", "t2")
    since = time.monotonic() - released
    # the next start is a full delay after the response, not after the (stale) reservation,
    # which ended 0.2 s ago: the wait is what is left of that delay (a millisecond's rounding);
    # here `since` is a few milliseconds, so a wait of 0 (the stale reservation's) fails
    assert 1.0 - since - 0.002 <= wait <= 1.0
