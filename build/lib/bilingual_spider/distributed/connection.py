"""The Redis connection of a distributed crawl, and what a worker does while Redis is away.

Every call a worker makes to Redis goes through :meth:`PatientRedis.call`: when Redis cannot be
reached (restarting, network gone, still loading its AOF) the worker logs one WARNING naming the
server, waits, and tries again (0.5 s, doubling, at most ``max_wait`` s between tries) until
Redis answers, then logs that it is back. Nothing is dropped meanwhile: the call that failed is
the call that is retried. The wait blocks the worker (its downloads pause with it): a crawl whose
frontier is in Redis has nothing useful to do without it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.exceptions import BusyLoadingError, ConnectionError, TimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")
UNAVAILABLE = (ConnectionError, TimeoutError, BusyLoadingError)


def without_password(url: str) -> str:
    """``redis://:secret@host`` -> ``redis://***@host``: credentials never reach a log."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest


class PatientRedis:
    """A Redis client whose calls wait for Redis to come back instead of failing.

    Parameters
    ----------
    url:
        ``redis://host:port/db``.
    max_wait:
        Longest pause between two tries, seconds.
    sleep:
        How to wait (tests pass a fake).
    on_outage:
        Called once for every outage (:meth:`from_crawler` counts them in the stats as
        ``redis/outages``, each connection of a worker the outages it ran into).
    """

    def __init__(
        self,
        url: str,
        max_wait: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
        on_outage: Callable[[], None] | None = None,
        client: redis.Redis | None = None,
    ) -> None:
        self.url = url
        self.on_outage = on_outage
        self.client = client or redis.Redis.from_url(
            url, socket_timeout=10, socket_connect_timeout=3
        )
        self.max_wait = max_wait
        self.sleep = sleep
        self.outages = 0
        """Times Redis went away during this worker's life."""

    @classmethod
    def from_settings(
        cls, settings: Any, on_outage: Callable[[], None] | None = None
    ) -> PatientRedis:
        """The connection ``REDIS_URL`` names, made by scrapy-redis's
        ``get_redis_from_settings`` (so ``REDIS_PARAMS`` and scrapy-redis's other connection
        settings apply), waiting at most ``BILINGUAL_REDIS_RETRY_MAX_WAIT`` seconds between
        tries while Redis is away."""
        from scrapy_redis.connection import get_redis_from_settings

        return cls(
            settings.get("REDIS_URL"),
            max_wait=settings.getfloat("BILINGUAL_REDIS_RETRY_MAX_WAIT", 5.0),
            on_outage=on_outage,
            client=get_redis_from_settings(settings),
        )

    @classmethod
    def from_crawler(cls, crawler: Any) -> PatientRedis:
        """:meth:`from_settings` of the crawler's settings, outages counted in its stats as
        ``redis/outages`` (the stats are looked up at the outage: a spider may connect before
        the crawl has its stats)."""
        return cls.from_settings(
            crawler.settings, on_outage=lambda: crawler.stats.inc_value("redis/outages")
        )

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)``, tried again until Redis answers."""
        wait, since = 0.5, None
        while True:
            try:
                result = function(*args, **kwargs)
            except UNAVAILABLE as exc:
                if since is None:
                    since = time.monotonic()
                    self.outages += 1
                    if self.on_outage is not None:
                        self.on_outage()
                    logger.warning(
                        "Redis at %s unavailable (%s): this worker waits and retries; "
                        "nothing is lost",
                        without_password(self.url),
                        exc,
                    )
                self.sleep(wait)
                wait = min(wait * 2, self.max_wait)
                continue
            if since is not None:
                logger.warning(
                    "Redis at %s is back after %.1f s",
                    without_password(self.url),
                    time.monotonic() - since,
                )
            return result

    def script(self, source: str) -> Callable[..., Any]:
        """A Lua script, called through :meth:`call` (re-loaded after a Redis restart)."""
        script = self.client.register_script(source)
        return lambda keys, args: self.call(script, keys=keys, args=args)

    def close(self) -> None:
        self.client.close()
