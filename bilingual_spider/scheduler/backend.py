"""Scrapy add-on choosing the scheduler backend from one setting, ``REDIS_URL``.

Unset: Scrapy's own scheduler with its priority queue (and JOBDIR to resume after a clean stop);
with ``JOBDIR`` and ``BILINGUAL_CRASH_SAFE_FRONTIER`` (``forward``, ``backforth``, ``detect`` and
``pupsniffer`` set it), the leased scheduler (:mod:`bilingual_spider.scheduler.leased_scheduler`)
over the SQLite frontier in ``JOBDIR`` (resumed after ``kill -9``), and a crawl resuming one
appends to its local JSON-lines feeds, ``-O`` too (its output is part of the state). Set: the
same scheduler over the leased Redis frontier, which is also the duplicate filter, under
``BILINGUAL_REDIS_KEY_PREFIX`` so that several crawls (and the tests) can share one Redis without
touching each other's keys; and the cross-worker politeness middleware. A worker with a
``BILINGUAL_REDIS_WORKER_NAME`` appends to its local JSON-lines feeds (restarted, it settles what
it had in flight from them).

A focus policy that prioritises links (``BILINGUAL_FOCUS_MODE=soft``, ``BILINGUAL_FOCUS_YIELD``,
``BILINGUAL_QUALITY_ENABLED`` with ``BILINGUAL_QUALITY_PRIORITY``) needs one priority order over
the whole frontier: Scrapy's default ``DownloaderAwarePriorityQueue`` orders requests only within
each download slot (host) and picks the least busy slot first, so it then becomes Scrapy's
``ScrapyPriorityQueue`` (unless a spider or the user chose a queue).
"""

from __future__ import annotations

import logging
from typing import Protocol

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings

from bilingual_spider.distributed.connection import without_password
from bilingual_spider.distributed.partitions import redis_key_prefix
from bilingual_spider.output.feed_recovery import local_jsonl_path
from bilingual_spider.scheduler.sqlite_frontier import has_frontier

logger = logging.getLogger(__name__)

ADDON_PRIORITY = "addon"
GLOBAL_PRIORITY_QUEUE = "scrapy.pqueues.ScrapyPriorityQueue"


def prioritising_focus(settings: BaseSettings) -> bool:
    """Whether a focus middleware will add priorities to links (see the module docstring)."""
    language = bool(settings.get("BILINGUAL_FOCUS_LANGS")) and (
        str(settings.get("BILINGUAL_FOCUS_MODE")).lower() == "soft"
        or str(settings.get("BILINGUAL_FOCUS_YIELD")).lower() != "none"
    )
    quality = settings.getbool("BILINGUAL_QUALITY_ENABLED") and settings.getbool(
        "BILINGUAL_QUALITY_PRIORITY"
    )
    return language or quality


LEASED_SCHEDULER = "bilingual_spider.scheduler.leased_scheduler.LeasedScheduler"
FRONTIER_COMMIT_PIPELINE = "bilingual_spider.pipelines.frontier_commit.FrontierCommitPipeline"


class HoldingScheduler(Protocol):
    """A scheduler that writes a request to its frontier, leased to this process, before the
    request reaches the engine (a kill then finds it there, to give again)."""

    def hold(self, request: Request) -> int | str | None: ...


def holding_scheduler(crawler: Crawler) -> HoldingScheduler | None:
    """The crawl's scheduler when it can ``hold`` requests (the crash-safe frontier of
    ``JOBDIR``, the Redis frontier), else None."""
    try:
        scheduler = crawler.engine.scheduler  # type: ignore[union-attr]
    except (AttributeError, RuntimeError):  # before the crawl started
        return None
    return scheduler if callable(getattr(scheduler, "hold", None)) else None


class SchedulerBackend:
    """Switch to the Redis frontier when ``REDIS_URL`` is set; leave Scrapy's defaults otherwise."""

    def update_settings(self, settings: BaseSettings) -> None:
        if prioritising_focus(settings) and settings.getpriority("SCHEDULER_PRIORITY_QUEUE") == 0:
            settings.set("SCHEDULER_PRIORITY_QUEUE", GLOBAL_PRIORITY_QUEUE, priority=ADDON_PRIORITY)
            logger.info("frontier: one priority order over all hosts (%s)", GLOBAL_PRIORITY_QUEUE)
        redis_url = settings.get("REDIS_URL")
        if not redis_url:
            self._crash_safe_frontier(settings)
            return
        prefix = redis_key_prefix(settings)
        leased_frontier(settings)
        logger.info("frontier: Redis at %s, keys %s:*", without_password(redis_url), prefix)
        name = settings.get("BILINGUAL_REDIS_WORKER_NAME")
        if name:  # restarted, it settles its leases from its output: keep it
            append_local_jsonl(settings, f"worker {name}")

    def _crash_safe_frontier(self, settings: BaseSettings) -> None:
        jobdir = settings.get("JOBDIR")
        if not jobdir or not settings.getbool("BILINGUAL_CRASH_SAFE_FRONTIER"):
            return
        leased_frontier(settings)
        if has_frontier(jobdir):
            append_local_jsonl(settings, f"resuming JOBDIR {jobdir}")


def leased_frontier(settings: BaseSettings) -> None:
    """The leased scheduler, the frontier's commit before the feeds write, and the page budget
    counted by the frontier."""
    settings.set("SCHEDULER", LEASED_SCHEDULER, priority=ADDON_PRIORITY)  # -s still wins
    settings["ITEM_PIPELINES"][FRONTIER_COMMIT_PIPELINE] = 0  # before the feeds write
    frontier_counts_pages(settings)


def frontier_counts_pages(settings: BaseSettings) -> None:
    """``CLOSESPIDER_PAGECOUNT`` becomes the frontier's (``BILINGUAL_FRONTIER_PAGE_LIMIT``): it
    counts the pages of every run and worker, and Scrapy's count of this process's responses
    (robots.txt's too) is off. A value that is no number is left for the command to refuse."""
    try:
        limit = settings.getint("CLOSESPIDER_PAGECOUNT")
    except ValueError:
        return
    if limit:
        priority = settings.getpriority("CLOSESPIDER_PAGECOUNT") or 0
        settings.set("BILINGUAL_FRONTIER_PAGE_LIMIT", limit, priority=priority)
        settings.set("CLOSESPIDER_PAGECOUNT", 0, priority=priority)


def append_local_jsonl(settings: BaseSettings, why: str) -> None:
    """Local JSON-lines feeds (``-O`` too) are appended to: they are part of the crawl's state."""
    feeds = settings.getdict("FEEDS")
    appended = {
        uri: {**options, "overwrite": False} if local_jsonl_path(uri, options) else options
        for uri, options in feeds.items()
    }
    if appended != feeds:
        settings.set("FEEDS", appended, priority=settings.getpriority("FEEDS") or 0)
        logger.info("%s: its JSON-lines feeds are appended to", why)
