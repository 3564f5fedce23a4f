"""The Redis connection of a distributed crawl, and what a worker does while Redis is away.

Every call a worker makes to Redis goes through :meth:`PatientRedis.call`: when Redis cannot be
reached (restarting, network gone, still loading its AOF) the worker logs one WARNING naming the
server, waits, and tries again (0.5 s, doubling, at most ``max_wait`` s between tries) until
Redis answers, then logs that it is back. Nothing is dropped meanwhile: the call that failed is
the call that is retried. The wait blocks the worker (its downloads pause with it): a crawl whose
frontier is in Redis has nothing useful to do without it.

A stop signal (SIGINT, SIGTERM) still stops a worker that waits: the wait is in short slices, a
signal during an outage is heard (and handed on to the handler that was there, Scrapy's), and
from then on a call that finds Redis away raises :class:`RedisUnavailable` at once instead of
waiting, so that the crawl can close (leased requests come back to the other workers when their
lease ends: nothing is lost). At start-up, :func:`unreachable` tells in a few seconds whether
Redis answers at all (a closed port, a typo in ``REDIS_URL``): the crawl command refuses to start
without it.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit

import redis
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    ConnectionError,
    MasterDownError,
    TimeoutError,
    TryAgainError,
)

logger = logging.getLogger(__name__)

T = TypeVar("T")
UNAVAILABLE = (
    ConnectionError,
    TimeoutError,
    BusyLoadingError,
    ClusterDownError,  # a Redis Cluster whose master of a slot is down
    MasterDownError,
    TryAgainError,
)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
WAIT_SLICE = 0.1
"""Seconds: how often a waiting worker looks whether it was asked to stop."""
_stop_requested = threading.Event()
"""Set when a stop signal arrives while a worker waits for Redis (one process, one crawl)."""


class RedisUnavailable(ConnectionError):
    """Redis does not answer and the worker was asked to stop: the call is given up."""


def stop_requested() -> bool:
    """Whether a stop signal came while this process waited for Redis."""
    return _stop_requested.is_set()


@contextlib.contextmanager
def stop_signals_heard() -> Iterator[None]:
    """While the block runs, a stop signal sets :func:`stop_requested`, then goes to the handler
    that was there before (Scrapy's graceful stop, Python's KeyboardInterrupt). Outside the main
    thread (where signals cannot be handled) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in STOP_SIGNALS}

    def heard(number: int, frame: Any) -> None:
        _stop_requested.set()
        handler = previous.get(number)
        if callable(handler):
            handler(number, frame)

    for number in STOP_SIGNALS:
        signal.signal(number, heard)
    try:
        yield
    finally:
        for number, handler in previous.items():
            if signal.getsignal(number) is heard:
                signal.signal(number, handler if handler is not None else signal.SIG_DFL)


def unreachable(url: str, timeout: float = 5.0, **params: Any) -> str | None:
    """Why Redis at ``url`` does not answer a PING within ``timeout`` seconds (tried again until
    then: a server that is just starting is waited for), or None when it answers. A server that
    is loading its data answers (it will serve soon)."""
    params = {**params, "socket_connect_timeout": min(timeout, 3.0), "socket_timeout": timeout}
    deadline = time.monotonic() + timeout
    while True:
        problem = redis_url_problem(url)  # from_url raises ValueError: not a traceback
        if problem:
            return problem
        client = redis.Redis.from_url(url, **params)
        try:
            client.ping()
            return None
        except BusyLoadingError:
            return None
        except redis.RedisError as exc:
            if isinstance(exc, UNAVAILABLE) and time.monotonic() + 0.5 < deadline:
                time.sleep(0.5)
                continue
            return f"Redis at {without_password(url)} does not answer ({exc})"
        except (ValueError, OSError) as exc:  # a URL redis-py cannot read
            return f"REDIS_URL {without_password(url)}: {exc}"
        finally:
            client.close()


def redis_url_problem(url: str) -> str | None:
    """Why ``url`` is no Redis URL redis-py can read (``localhost:6379``: no scheme; a port out
    of range; a database that is no number), in one line, or None. Nothing is connected to."""
    example = "(a Redis URL: redis://HOST:6379/0)"
    try:
        redis.connection.parse_url(url)
    except (ValueError, TypeError) as exc:
        return f"REDIS_URL={without_password(url)}: {exc} {example}"
    database = urlsplit(url).path.strip("/")
    if url.startswith(("redis://", "rediss://")) and database and not database.isdigit():
        return f"REDIS_URL={without_password(url)}: database {database!r} is no number {example}"
    return None


def without_password(url: str) -> str:
    """``redis://:secret@host`` -> ``redis://***@host``: credentials never reach a log."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest


def cluster_client(url: str, **params: Any) -> redis.RedisCluster:
    """A Redis Cluster client (``BILINGUAL_REDIS_CLUSTER``): ``url`` names any node, the others
    are found from it; each command goes to the master of its key's slot."""
    params = {"socket_timeout": 10, "socket_connect_timeout": 3, **params}
    return redis.RedisCluster.from_url(url, **params)


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
    should_stop:
        Whether to give up waiting (default: a stop signal came, :func:`stop_requested`).
    """

    def __init__(
        self,
        url: str,
        max_wait: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
        on_outage: Callable[[], None] | None = None,
        client: redis.Redis | None = None,
        should_stop: Callable[[], bool] = stop_requested,
    ) -> None:
        self.url = url
        self.should_stop = should_stop
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

        url = settings.get("REDIS_URL")
        if settings.getbool("BILINGUAL_REDIS_CLUSTER"):
            client = cluster_client(url, **settings.getdict("REDIS_PARAMS"))
        else:
            client = get_redis_from_settings(settings)
        return cls(
            url,
            max_wait=settings.getfloat("BILINGUAL_REDIS_RETRY_MAX_WAIT"),
            on_outage=on_outage,
            client=client,
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
        """``function(*args, **kwargs)``, tried again until Redis answers; once the process was
        asked to stop, tried once (:class:`RedisUnavailable` when Redis is away)."""
        wait, since = 0.5, None
        while True:
            try:
                result = function(*args, **kwargs)
            except UNAVAILABLE as exc:
                if self.should_stop():
                    raise RedisUnavailable(
                        f"Redis at {without_password(self.url)} unavailable ({exc}) and the "
                        "worker is stopping: call given up"
                    ) from exc
                if since is None:
                    since = time.monotonic()
                    self.outages += 1
                    if self.on_outage is not None:
                        self.on_outage()
                    logger.warning(
                        "Redis at %s unavailable (%s): this worker waits and retries; "
                        "nothing is lost (a stop signal stops it)",
                        without_password(self.url),
                        exc,
                    )
                with stop_signals_heard():
                    self._pause(wait)
                wait = min(wait * 2, self.max_wait)
                continue
            if since is not None:
                logger.warning(
                    "Redis at %s is back after %.1f s",
                    without_password(self.url),
                    time.monotonic() - since,
                )
            return result

    def _pause(self, seconds: float) -> None:
        """Sleep ``seconds`` in slices of :data:`WAIT_SLICE`, ending early on a stop request."""
        slept = 0.0
        while slept < seconds and not self.should_stop():
            step = min(WAIT_SLICE, seconds - slept)
            self.sleep(step)
            slept += step

    def script(self, source: str) -> Callable[..., Any]:
        """A Lua script, called through :meth:`call` (re-loaded after a Redis restart)."""
        script = self.client.register_script(source)
        return lambda keys, args: self.call(script, keys=keys, args=args)

    def close(self) -> None:
        self.client.close()
