"""A crawl's own counters, crawl-wide (``BASE:spider_counters``, a hash; ``BASE`` is
``PREFIX:SPIDER``): what a spider counts to resume where it was (``detect``: the seeds handed to
the frontier). Read and written as a mapping: ``counters.get(name, 0)``, ``counters[name] = n``."""

from __future__ import annotations

from bilingual_spider.distributed.connection import PatientRedis


class SharedCounters:
    """The counters of the crawl under ``base``."""

    def __init__(self, redis: PatientRedis, base: str) -> None:
        self.redis = redis
        self.key = f"{base}:spider_counters"

    def get(self, name: str, default: int = 0) -> int:
        raw = self.redis.call(self.redis.client.hget, self.key, name)
        return default if raw is None else int(raw)

    def __setitem__(self, name: str, value: int) -> None:
        self.redis.call(self.redis.client.hset, self.key, name, value)
