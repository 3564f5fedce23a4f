"""The Bloom-filter option of the frontier's duplicate filter: its shape, and on the real Redis
no false negatives and a false-positive rate near the one it was sized for."""

from __future__ import annotations

import hashlib
import math

import pytest
from scrapy.exceptions import UsageError

from bilingual_spider.distributed.bloom import BloomShape, bloom_from_settings
from bilingual_spider.distributed.frontier import LeasedFrontier
from tests.crawlers import project_settings
from tests.distributed.test_held_requests import scheduler

KEYS, ERROR_RATE = 20_000, 0.001


def fingerprints(start: int, count: int) -> list[str]:
    """Scrapy-like fingerprints (SHA-1 in hex), distinct for distinct numbers."""
    return [hashlib.sha1(str(i).encode()).hexdigest() for i in range(start, start + count)]


def test_the_shape_is_the_smallest_for_its_capacity_and_error_rate():
    shape = BloomShape.for_capacity(1_000_000, 0.001)
    assert shape.hashes == 10
    assert shape.bits == math.ceil(1_000_000 * math.log(1000) / math.log(2) ** 2)
    assert shape.error_rate(1_000_000) == pytest.approx(0.001, rel=0.01)
    assert shape.bytes < 1_800_000  # 14.4 Mbit
    positions = shape.positions("fp")
    assert len(positions) == 10 and all(0 <= p < shape.bits for p in positions)
    assert positions == shape.positions("fp") != shape.positions("fq")


@pytest.mark.parametrize(("capacity", "error_rate"), [(0, 0.01), (10, 0), (10, 1), (10**12, 1e-9)])
def test_an_impossible_shape_is_refused(capacity, error_rate):
    with pytest.raises(ValueError):
        BloomShape.for_capacity(capacity, error_rate)


def test_the_setting_chooses_the_set_or_a_bloom_filter():
    assert bloom_from_settings(project_settings()) is None
    shape = bloom_from_settings(
        project_settings(
            {"BILINGUAL_REDIS_DUPEFILTER": "bloom", "BILINGUAL_REDIS_BLOOM_CAPACITY": KEYS}
        )
    )
    assert shape == BloomShape.for_capacity(KEYS, ERROR_RATE)
    with pytest.raises(UsageError):
        bloom_from_settings(project_settings({"BILINGUAL_REDIS_DUPEFILTER": "cuckoo"}))


def test_at_capacity_no_false_negative_and_false_positives_near_the_rate(redis, redis_prefix):
    """20,000 fingerprints queued through the push script: every one is then seen (and filtered
    when pushed again); of 20,000 others never queued, the share seen is near 0.001."""
    shape = BloomShape.for_capacity(KEYS, ERROR_RATE)
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s", bloom=shape)
    queued = fingerprints(0, KEYS)
    lost_while_filling = sum(frontier.push(b"r", 0, fp) is None for fp in queued)
    assert lost_while_filling <= ERROR_RATE * KEYS  # the rate grows to p as the filter fills
    assert all(frontier.seen(fp) for fp in queued)  # no false negative
    assert all(frontier.push(b"r", 0, fp) is None for fp in queued[:1000])
    assert not redis.client.exists(frontier.keys["seen"])  # no exact set kept
    assert redis.client.strlen(frontier.keys["bloom"]) <= shape.bytes

    false_positives = sum(map(frontier.seen, fingerprints(KEYS, KEYS)))
    rate = false_positives / KEYS
    print(f"false positives {false_positives}/{KEYS} = {rate:.5f} (filled: {lost_while_filling})")
    assert 0.3 * ERROR_RATE <= rate <= 2 * ERROR_RATE


def test_the_set_is_exact(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    assert frontier.push(b"r", 0, "fp") is not None
    assert frontier.seen("fp") and not frontier.seen("fq")
    assert frontier.push(b"r", 0, "fp") is None
    assert not redis.client.exists(frontier.keys["bloom"])


def test_a_worker_with_another_duplicate_filter_refuses_to_start(redis, redis_prefix):
    """The first worker records its filter; a worker with a Bloom filter of another shape, or
    with the set, would test other bits: it refuses to start, with the settings to align."""
    base = f"{redis_prefix}:s"
    shape = BloomShape.for_capacity(1000, 0.01)
    first = LeasedFrontier(redis, base, bloom=shape)
    assert first.check_dupefilter() is None
    assert LeasedFrontier(redis, base, bloom=shape).check_dupefilter() is None  # the same: fine
    other = LeasedFrontier(redis, base, bloom=BloomShape.for_capacity(1000, 0.001))
    assert other.check_dupefilter() == first.dupefilter
    assert LeasedFrontier(redis, base).check_dupefilter() == first.dupefilter
    worker, _ = scheduler(redis_prefix, 30)  # a crawl de-duplicating with the set
    worker.close("finished")
    with pytest.raises(UsageError, match="BILINGUAL_REDIS_BLOOM_CAPACITY"):
        scheduler(redis_prefix, 30, BILINGUAL_REDIS_DUPEFILTER="bloom")
