"""Where a distributed crawl's keys live: one Redis, or the frontier split into partitions that
a Redis Cluster spreads over its masters.

A crawl on one Redis keeps the key names of before (``PREFIX:SPIDER:queue``, ...): one frontier.
With ``BILINGUAL_REDIS_PARTITIONS`` above 1, or on a Redis Cluster (``BILINGUAL_REDIS_CLUSTER``),
the frontier is split into a fixed number of partitions, and a host belongs to one of them by a
stable hash of its name (:meth:`KeyLayout.partition_of`). Everything of a host that a Lua script
touches lives in its partition: its queued and leased requests, their duplicate filter, its
politeness slots and its robots.txt. A partition's keys share one Redis Cluster hash tag
(``{PREFIX:p7}:SPIDER:queue``, ``{PREFIX:p7}:host:HOST:next``), so they hash to one slot, are
held by one master, and every script stays on one server. Crawl-wide state (the page budget, the
end of the crawl, the link classifiers, site verdicts, PupSniffer's store) has a tag of its own
(``{PREFIX:SPIDER}:counters``): one slot, one master.

The tags are chosen so that partition ``p`` of ``n`` hashes into the ``p``-th ``n``-th of the
16,384 slots (a suffix is added to the tag until it does): ``redis-cli --cluster create`` gives
each master an equal run of slots, so the partitions, and the hosts with them, spread evenly
over the masters (16 partitions on 3 masters: 6, 5 and 5).

The number of partitions is fixed for a crawl: every worker must use the same (recorded with the
duplicate filter, :meth:`~bilingual_spider.distributed.frontier.LeasedFrontier.check_dupefilter`).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

CLUSTER_PARTITIONS = 16
"""Partitions of a crawl on a Redis Cluster when ``BILINGUAL_REDIS_PARTITIONS`` is 0 (auto)."""


def host_of(url: str) -> str:
    """The host a request belongs to (lower case, no port): what its politeness, robots.txt and
    partition are keyed by. Empty for a URL without one (``data:``)."""
    if not url.startswith(("http://", "https://")):
        return ""
    return (urlsplit(url).hostname or "").lower()


def partition_tag(prefix: str, partition: int, partitions: int) -> str:
    """The hash tag of ``partition`` (``PREFIX:pP``, with a suffix ``.K`` when needed) whose slot
    lies in the ``partition``-th ``partitions``-th of the slots."""
    for suffix in range(100 * REDIS_CLUSTER_HASH_SLOTS):
        tag = f"{prefix}:p{partition}" + (f".{suffix}" if suffix else "")
        if key_slot(tag.encode()) * partitions // REDIS_CLUSTER_HASH_SLOTS == partition:
            return tag
    raise ValueError(f"no tag found for partition {partition} of {partitions}")  # pragma: no cover


@dataclass(frozen=True)
class KeyLayout:
    """The key names of the crawls under ``prefix``.

    Parameters
    ----------
    prefix:
        ``BILINGUAL_REDIS_KEY_PREFIX``.
    partitions:
        Frontier partitions (1: one frontier).
    tagged:
        Keys carry Redis Cluster hash tags (a cluster, or more than one partition). Untagged:
        the names of one Redis as before.
    """

    prefix: str
    partitions: int = 1
    tagged: bool = False

    def __post_init__(self) -> None:
        if self.partitions < 1:
            raise ValueError(f"partitions must be >= 1, not {self.partitions}")
        tags = tuple(partition_tag(self.prefix, p, self.partitions) for p in range(self.partitions))
        object.__setattr__(self, "_tags", tags)

    @classmethod
    def from_settings(cls, settings: Any) -> KeyLayout:
        """``BILINGUAL_REDIS_KEY_PREFIX``, ``BILINGUAL_REDIS_PARTITIONS`` (0: 1 on one Redis,
        :data:`CLUSTER_PARTITIONS` on a cluster) and ``BILINGUAL_REDIS_CLUSTER``."""
        cluster = settings.getbool("BILINGUAL_REDIS_CLUSTER")
        partitions = settings.getint("BILINGUAL_REDIS_PARTITIONS")
        if partitions <= 0:
            partitions = CLUSTER_PARTITIONS if cluster else 1
        return cls(redis_key_prefix(settings), partitions, cluster or partitions > 1)

    def crawl_base(self, spider: str) -> str:
        """The base of a crawl's crawl-wide keys (``PREFIX:SPIDER``, tagged ``{PREFIX:SPIDER}``)."""
        base = f"{self.prefix}:{spider}"
        return f"{{{base}}}" if self.tagged else base

    def partition_of(self, host: str) -> int:
        """The partition of ``host`` (stable: CRC-32 of its name)."""
        if self.partitions == 1:
            return 0
        return zlib.crc32(host.lower().encode()) % self.partitions

    def partition_base(self, spider: str, partition: int) -> str:
        """The base of the frontier keys of ``partition`` (untagged: the crawl's base)."""
        if not self.tagged:
            return self.crawl_base(spider)
        return f"{{{self._tags[partition]}}}:{spider}"  # type: ignore[attr-defined]

    def host_base(self, host: str) -> str:
        """The base of a host's politeness keys (``PREFIX:host:HOST``, or in its partition)."""
        return f"{self._host_prefix(host)}:host:{host}"

    def robots_key(self, netloc: str) -> str:
        """Where a host's robots.txt body is kept (``PREFIX:robots:NETLOC``, or in its
        partition)."""
        host = (netloc.rsplit("@", 1)[-1].split(":", 1)[0]).lower()
        return f"{self._host_prefix(host)}:robots:{netloc}"

    def _host_prefix(self, host: str) -> str:
        if not self.tagged:
            return self.prefix
        return f"{{{self._tags[self.partition_of(host)]}}}"  # type: ignore[attr-defined]


def redis_key_prefix(settings: Any) -> str:
    """``BILINGUAL_REDIS_KEY_PREFIX``: the prefix of every Redis key of a crawl (its default,
    written once, in ``settings.py``, also when the setting is empty or the settings are not the
    project's)."""
    from bilingual_spider import settings as project_settings

    return str(
        settings.get("BILINGUAL_REDIS_KEY_PREFIX") or project_settings.BILINGUAL_REDIS_KEY_PREFIX
    )


def shared_crawl_base(crawler: Any, spider_name: str) -> str | None:
    """The base of the crawl's crawl-wide keys (``BILINGUAL_REDIS_KEY_PREFIX:SPIDER``; with hash
    tags on a cluster, :meth:`~.partitions.KeyLayout.crawl_base`) when ``REDIS_URL`` is set: its
    workers share state in Redis. None: a single-process crawl."""
    settings = crawler.settings
    if not settings.get("REDIS_URL"):
        return None
    return KeyLayout.from_settings(settings).crawl_base(spider_name)
