"""Which bilingual sites have had their backlinks asked, crawl-wide (a distributed crawl).

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:backlinks_asked  SET  the sites whose backlink query is in the shared frontier

A bilingual site's backlink query is asked when its verdict comes out of the pipelines
(:class:`~bilingual_spider.middlewares.backlink_expansion.BacklinkExpansionMiddleware`), by the
worker that writes the verdict. A worker killed after its duplicate filter claimed the verdict
and before the query was held in Redis leaves a verdict another worker emits again (a
redelivered request) and drops as written: that worker asks the query when this set does not
hold the site. The site is added once the query is held, so a kill in between asks it twice
(its backlink pages are fetched once: one request a URL crawl-wide), never not at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bilingual_spider.distributed.connection import PatientRedis

if TYPE_CHECKING:
    pass


class SharedBacklinksAsked:
    """The sites whose backlinks were asked, in Redis under ``base``."""

    def __init__(self, redis: PatientRedis, base: str) -> None:
        self.redis = redis
        self.key = f"{base}:backlinks_asked"

    def mark(self, site: str) -> None:
        """The backlink query of ``site`` is held in the shared frontier."""
        self.redis.call(self.redis.client.sadd, self.key, site)

    def asked(self, site: str) -> bool:
        return bool(self.redis.call(self.redis.client.sismember, self.key, site))
