"""A test extension: the workers of a run begin crawling together.

A worker's crawl of a small world can be over in a second or two, while starting a Python
process with Scrapy and the models takes about as long and varies with the machine's load: the
first worker up could then do all the work before the other has opened its spider. With
``START_BARRIER_KEY`` set, each worker counts itself in that Redis key when its engine starts
(after every component has opened: the spider, its language ID and models, the scheduler; before
any request is taken, so no lease runs out meanwhile) and waits there until
``START_BARRIER_WORKERS`` have, or :data:`WAIT_SECONDS` have passed. (It waited at the spider's
opening before, and the rest of a worker's components, opened after that, can take seconds on
a busy machine: a worker made to sleep up to 6 s there left the other to spend the 40-page
budget alone.)
"""

from __future__ import annotations

import time

import redis
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

WAIT_SECONDS = 300.0  # far above a worker's start-up (seconds), even on a busy machine


class StartBarrier:
    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.key = settings.get("START_BARRIER_KEY")
        if not self.key:
            raise NotConfigured("no START_BARRIER_KEY")
        self.workers = settings.getint("START_BARRIER_WORKERS", 2)
        self.redis_url = settings.get("REDIS_URL")
        self.cluster = settings.getbool("BILINGUAL_REDIS_CLUSTER")
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StartBarrier:
        return cls(crawler)

    def engine_started(self) -> None:
        client = (redis.RedisCluster if self.cluster else redis.Redis).from_url(self.redis_url)
        try:
            client.incr(self.key)
            client.expire(self.key, 600)
            deadline = time.monotonic() + WAIT_SECONDS
            while int(client.get(self.key) or 0) < self.workers and time.monotonic() < deadline:
                time.sleep(0.05)  # blocks this worker's reactor: nothing is crawled meanwhile
        finally:
            client.close()


def with_start_barrier(commands: list[list[str]], key: str) -> list[list[str]]:
    """The workers' ``scrapy crawl`` commands, made to begin crawling together (``key``: a Redis
    key of the test's own prefix)."""
    extra = [
        "-s",
        f"START_BARRIER_KEY={key}",
        "-s",
        f"START_BARRIER_WORKERS={len(commands)}",
    ]
    return [[*command, *extra] for command in commands]
