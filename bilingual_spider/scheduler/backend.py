"""Scrapy add-on choosing the scheduler backend from one setting, ``REDIS_URL``.

Unset: Scrapy's own scheduler with its priority queue (and JOBDIR to resume). Set: scrapy-redis's
scheduler, priority queue and duplicate filter, all under ``BILINGUAL_REDIS_KEY_PREFIX`` so that
several crawls (and the tests) can share one Redis without touching each other's keys.
"""

from __future__ import annotations

import logging

from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

ADDON_PRIORITY = "addon"


class SchedulerBackend:
    """Switch to scrapy-redis when ``REDIS_URL`` is set; leave Scrapy's defaults otherwise."""

    def update_settings(self, settings: BaseSettings) -> None:
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
