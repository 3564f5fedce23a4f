"""Per-host slots shared by the workers, on the real Redis (a key prefix of their own)."""

from __future__ import annotations

import time

import pytest
import redis

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.host_slots import HostSlots
from bilingual_spider.distributed.partitions import KeyLayout
from tests.conftest import REDIS_URL


@pytest.fixture
def slots(redis_prefix):
    connection = PatientRedis(REDIS_URL)
    yield HostSlots(connection, redis_prefix, "w1", delay=1.0, concurrency=1)
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


@pytest.fixture(params=["one Redis", "partitions"])
def layout(request, redis_prefix):
    """The crawl's keys: as on one Redis, or tagged in 4 partitions (deleted after: their names
    start with a hash tag, not with the prefix)."""
    if request.param == "one Redis":
        yield KeyLayout(redis_prefix)
        return
    layout = KeyLayout(redis_prefix, 4, tagged=True)
    yield layout
    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{{{redis_prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def connection():
    connection = PatientRedis(REDIS_URL)
    yield connection
    connection.close()


def killed_holding(connection, layout, worker: str, hosts: list[str]) -> None:
    """A worker that took a slot of each of ``hosts`` and was killed (its object abandoned, its
    tokens never released)."""
    former = HostSlots(connection, layout, worker, delay=0.3, concurrency=1)
    for host in hosts:
        assert former.acquire(host, former.token()) == 0


def test_a_worker_restarted_under_its_name_frees_its_former_self_slots_at_once(connection, layout):
    killed_holding(connection, layout, "w1", ["a.example", "b.example"])
    killed_holding(connection, layout, "w2", ["c.example"])  # another worker, alive or not
    time.sleep(0.4)  # the restart takes longer than the delay after the former reservations
    restarted = HostSlots(connection, layout, "w1", delay=0.3, concurrency=1)
    assert restarted.acquire("a.example", restarted.token()) is None  # held by its former self
    freed_at = time.monotonic()
    assert restarted.release_former_self() == 2
    # free at once, but a full delay after now (as if its response came now): the dead request
    # may have reached the host just before the kill; a wait of 0 (the stale reservation's) fails
    wait = restarted.acquire("a.example", restarted.token())
    since = time.monotonic() - freed_at
    assert wait is not None and 0.3 - since - 0.002 <= wait <= 0.3
    assert restarted.acquire("b.example", restarted.token()) is not None
    assert restarted.acquire("c.example", restarted.token()) is None  # w2's is not its own


def test_another_worker_name_frees_nothing(connection, layout, redis_prefix):
    killed_holding(connection, layout, "w1", ["a.example"])
    for name in ("w2", "w", "w1:x"):  # names alike are others: the name is matched whole
        other = HostSlots(connection, layout, name, delay=1.0, concurrency=1)
        assert other.release_former_self() == 0
    other_crawl = HostSlots(connection, f"{redis_prefix}-other", "w1", delay=1.0, concurrency=1)
    assert other_crawl.release_former_self() == 0  # the same name in another crawl (prefix)
    slots = HostSlots(connection, layout, "w3", delay=1.0, concurrency=1)
    assert slots.acquire("a.example", slots.token()) is None  # still held: lapses after `hold`
