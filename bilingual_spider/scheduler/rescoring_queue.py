"""Scrapy's priority queue with lazy re-ranking (see :mod:`bilingual_spider.frontier.rescoring`).

Set ``SCHEDULER_PRIORITY_QUEUE`` to
``"bilingual_spider.scheduler.rescoring_queue.RescoringPriorityQueue"`` (the back-and-forth spider
does). The spider gives the queue its scorer as ``frontier_scorer``; a
spider without one gets Scrapy's plain priority queue behaviour. Stats: ``frontier/rescored`` (a
request scored by an old model re-scored at the head), ``frontier/requeued`` (it fell behind and
went back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.pqueues import ScrapyPriorityQueue

from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierTag, keeps_head

if TYPE_CHECKING:
    from scrapy import Request

    from bilingual_spider.frontier.rescoring import FrontierScorer


class RescoringPriorityQueue(ScrapyPriorityQueue):
    """Re-scores a request made stale by a retrained classifier when it reaches the head."""

    def pop(self) -> Request | None:
        scorer: FrontierScorer | None = getattr(self.crawler.spider, "frontier_scorer", None)
        while True:
            request = super().pop()
            if request is None or scorer is None:
                return request
            tag = FrontierTag.from_meta(request.meta.get(FRONTIER_META))
            fresh = scorer.rescore(tag) if tag is not None else None
            if fresh is None:
                return request
            priority, new_tag = fresh
            request.priority = priority
            request.meta[FRONTIER_META] = new_tag.to_meta()
            self.crawler.stats.inc_value("frontier/rescored")
            next_priority = None if self.curprio is None else -self.curprio
            if keeps_head(priority, next_priority):
                return request
            self.crawler.stats.inc_value("frontier/requeued")
            super().push(request)
