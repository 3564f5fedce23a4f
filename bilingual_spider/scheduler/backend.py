"""Scrapy add-on choosing the scheduler backend from one setting, ``REDIS_URL``.

Unset: Scrapy's own scheduler with its priority queue (and JOBDIR to resume). Set: the leased
Redis frontier (:mod:`bilingual_spider.scheduler.redis_scheduler`), which is also the duplicate
filter, under ``BILINGUAL_REDIS_KEY_PREFIX`` so that several crawls (and the tests) can share one
Redis without touching each other's keys; and the cross-worker politeness middleware.
"""

from __future__ import annotations

import logging

from scrapy.settings import BaseSettings

from bilingual_spider.distributed.connection import without_password

logger = logging.getLogger(__name__)

ADDON_PRIORITY = "addon"
REDIS_SCHEDULER = "bilingual_spider.scheduler.redis_scheduler.LeasedRedisScheduler"


class SchedulerBackend:
    """Switch to the Redis frontier when ``REDIS_URL`` is set; leave Scrapy's defaults otherwise."""

    def update_settings(self, settings: BaseSettings) -> None:
        redis_url = settings.get("REDIS_URL")
        if not redis_url:
            return
        prefix = settings.get("BILINGUAL_REDIS_KEY_PREFIX") or "bilingual_spider"
        settings.set("SCHEDULER", REDIS_SCHEDULER, priority=ADDON_PRIORITY)  # -s still wins
        logger.info("frontier: Redis at %s, keys %s:*", without_password(redis_url), prefix)
