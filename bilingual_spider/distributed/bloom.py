"""The shape of a Bloom filter (Bloom 1970) and where a key falls in it: plain arithmetic, no
Redis. The bitmap itself lives in Redis and is tested and set by the frontier's push script
(:mod:`bilingual_spider.distributed.frontier`).

A filter of ``bits`` bits with ``hashes`` positions per key, holding ``capacity`` keys, answers
"seen" for a key never added with probability about ``(1 - exp(-hashes * capacity / bits)) **
hashes``; the smallest filter for a false-positive rate ``p`` has
``bits = -capacity * ln p / (ln 2)**2`` and ``hashes = bits / capacity * ln 2`` (Broder and
Mitzenmacher 2004, "Network applications of Bloom filters", section 2.1). A key never gives a
false negative. Positions come from two 64-bit halves of one BLAKE2b digest,
``h1 + i * h2 mod bits`` (Kirsch and Mitzenmacher 2006: two hashes are enough).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any

from scrapy.exceptions import UsageError

MAX_BITS = 2**32
"""A Redis string (the bitmap) holds at most 512 MB."""


@dataclass(frozen=True)
class BloomShape:
    """A Bloom filter's size in bits and its number of hash positions per key."""

    bits: int
    hashes: int

    @classmethod
    def for_capacity(cls, capacity: int, error_rate: float) -> BloomShape:
        """The smallest filter holding ``capacity`` keys with false-positive rate ``error_rate``
        (section 2.1 of Broder and Mitzenmacher)."""
        if capacity < 1 or not 0 < error_rate < 1:
            raise ValueError("a Bloom filter needs capacity >= 1 and 0 < error_rate < 1")
        bits = math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2)
        if bits > MAX_BITS:
            raise ValueError(f"a Bloom filter of {bits} bits is over Redis's 2**32")
        return cls(bits, max(1, round(bits / capacity * math.log(2))))

    @property
    def bytes(self) -> int:
        return (self.bits + 7) // 8

    def error_rate(self, keys: int) -> float:
        """The expected false-positive rate once ``keys`` keys are in the filter."""
        return (1 - math.exp(-self.hashes * keys / self.bits)) ** self.hashes

    def positions(self, key: str | bytes) -> list[int]:
        """The bits ``key`` sets (and tests)."""
        data = key.encode() if isinstance(key, str) else key
        digest = hashlib.blake2b(data, digest_size=16).digest()
        first, second = int.from_bytes(digest[:8], "big"), int.from_bytes(digest[8:], "big") | 1
        return [(first + i * second) % self.bits for i in range(self.hashes)]


def bloom_from_settings(settings: Any, partitions: int = 1) -> BloomShape | None:
    """``BILINGUAL_REDIS_DUPEFILTER``: ``set`` (None) or ``bloom`` (its shape from
    ``BILINGUAL_REDIS_BLOOM_CAPACITY`` and ``BILINGUAL_REDIS_BLOOM_ERROR_RATE``; with
    ``partitions``, each partition's filter, holding its share of the capacity)."""
    kind = str(settings.get("BILINGUAL_REDIS_DUPEFILTER")).lower()
    if kind == "set":
        return None
    if kind != "bloom":
        raise UsageError(f"BILINGUAL_REDIS_DUPEFILTER is set or bloom, not {kind!r}")
    try:
        return BloomShape.for_capacity(
            -(-settings.getint("BILINGUAL_REDIS_BLOOM_CAPACITY") // partitions),
            settings.getfloat("BILINGUAL_REDIS_BLOOM_ERROR_RATE"),
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
