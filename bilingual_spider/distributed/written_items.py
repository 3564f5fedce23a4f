"""Which worker's output holds each site's verdict and bilingual-site record, and each URL pair,
in a distributed crawl (:data:`~bilingual_spider.items.WRITTEN_ONCE_KINDS`): one item each across
every worker's output, also after a worker was killed and its work redone (issue 32).

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:written  HASH  item key (``verdict<TAB>site``, ``site<TAB>site``,
                        ``pair<TAB>URL<TAB>URL``) -> the worker that passed it to its output
                        first

A worker claims an item's key when the item leaves its duplicate filter, just before its feeds
write it (:class:`~bilingual_spider.pipelines.duplicates.DuplicatesPipeline`); an item whose key
another worker (or its own former self) claimed is dropped. A kill can fall between the claim
and the line reaching the file: a worker restarted under the same name
(``BILINGUAL_REDIS_WORKER_NAME``) first :meth:`WrittenItems.settle`\\ s its claims against its
JSON-lines output, forgetting those its files do not hold, before the requests it had in flight
go back to the queue. The work redone from them (a verdict emitted again from the site store, a
redelivered batch of PupSniffer's pairs offered again) is then written once: where it was missing.
"""

from __future__ import annotations

from collections.abc import Iterable

from bilingual_spider.distributed.connection import PatientRedis

SEPARATOR = "\t"


class WrittenItems:
    """The crawl-wide record of the items written, under ``base``, as ``worker`` sees it."""

    def __init__(self, redis: PatientRedis, base: str, worker: str) -> None:
        self.redis = redis
        self.key = f"{base}:written"
        self.worker = worker

    def claim(self, key: tuple[str, ...]) -> bool:
        """Claim ``key`` for this worker's output; False when a worker claimed it before."""
        field = SEPARATOR.join(key)
        return bool(self.redis.call(self.redis.client.hsetnx, self.key, field, self.worker))

    def settle(self, held: Iterable[tuple[str, ...]]) -> int:
        """After a restart: forget this worker's claims its output does not ``held`` (its
        feeds' item keys); the number forgotten."""
        kept = {SEPARATOR.join(key) for key in held}
        lost = []
        for field, owner in self.redis.call(self.redis.client.hgetall, self.key).items():
            field, owner = _text(field), _text(owner)
            if owner == self.worker and field not in kept:
                lost.append(field)
        if lost:
            self.redis.call(self.redis.client.hdel, self.key, *lost)
        return len(lost)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
