"""Scrapy add-on choosing the scheduler backend from one setting, ``REDIS_URL``.

Unset: Scrapy's own scheduler with its priority queue (and JOBDIR to resume). Set: scrapy-redis's
scheduler, priority queue and duplicate filter, all under ``BILINGUAL_REDIS_KEY_PREFIX`` so that
several crawls (and the tests) can share one Redis without touching each other's keys.

A focus policy that prioritises links (``BILINGUAL_FOCUS_MODE=soft``, ``BILINGUAL_FOCUS_YIELD``,
``BILINGUAL_QUALITY_ENABLED`` with ``BILINGUAL_QUALITY_PRIORITY``) needs one priority order over
the whole frontier: Scrapy's default ``DownloaderAwarePriorityQueue`` orders requests only within
each download slot (host) and picks the least busy slot first, so it then becomes Scrapy's
``ScrapyPriorityQueue`` (unless a spider or the user chose a queue).
"""

from __future__ import annotations

import logging

from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

ADDON_PRIORITY = "addon"
GLOBAL_PRIORITY_QUEUE = "scrapy.pqueues.ScrapyPriorityQueue"


def prioritising_focus(settings: BaseSettings) -> bool:
    """Whether a focus middleware will add priorities to links (see the module docstring)."""
    language = bool(settings.get("BILINGUAL_FOCUS_LANGS")) and (
        str(settings.get("BILINGUAL_FOCUS_MODE", "hard")).lower() == "soft"
        or str(settings.get("BILINGUAL_FOCUS_YIELD") or "none").lower() != "none"
    )
    quality = settings.getbool("BILINGUAL_QUALITY_ENABLED") and settings.getbool(
        "BILINGUAL_QUALITY_PRIORITY", True
    )
    return language or quality


class SchedulerBackend:
    """Switch to scrapy-redis when ``REDIS_URL`` is set; leave Scrapy's defaults otherwise."""

    def update_settings(self, settings: BaseSettings) -> None:
        if prioritising_focus(settings) and settings.getpriority("SCHEDULER_PRIORITY_QUEUE") == 0:
            settings.set("SCHEDULER_PRIORITY_QUEUE", GLOBAL_PRIORITY_QUEUE, priority=ADDON_PRIORITY)
            logger.info("frontier: one priority order over all hosts (%s)", GLOBAL_PRIORITY_QUEUE)
        redis_url = settings.get("REDIS_URL")
        if not redis_url:
            return
        prefix = settings.get("BILINGUAL_REDIS_KEY_PREFIX") or "bilingual_spider"
        wanted = {
            "SCHEDULER": "scrapy_redis.scheduler.Scheduler",
            "DUPEFILTER_CLASS": "scrapy_redis.dupefilter.RFPDupeFilter",
            "SCHEDULER_QUEUE_CLASS": "scrapy_redis.queue.PriorityQueue",
            "SCHEDULER_QUEUE_KEY": f"{prefix}:%(spider)s:requests",
            "SCHEDULER_DUPEFILTER_KEY": f"{prefix}:%(spider)s:dupefilter",
        }
        for name, value in wanted.items():
            settings.set(name, value, priority=ADDON_PRIORITY)  # a -s value still wins
        logger.info("frontier: scrapy-redis at %s, keys %s:*", _without_password(redis_url), prefix)


def _without_password(url: str) -> str:
    """``redis://:secret@host`` -> ``redis://***@host``: credentials never reach a log."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.split("@", 1)[1]
    return scheme + sep + rest
