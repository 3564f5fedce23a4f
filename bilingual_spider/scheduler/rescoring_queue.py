"""Scrapy's priority queue with lazy re-ranking (see :mod:`bilingual_spider.frontier.rescoring`).

Set ``SCHEDULER_PRIORITY_QUEUE`` to
``"bilingual_spider.scheduler.rescoring_queue.RescoringPriorityQueue"`` (the back-and-forth spider
does). The spider gives the queue its scorer as ``frontier_scorer``; a
spider without one gets Scrapy's plain priority queue behaviour. Stats: ``frontier/rescored`` (a
request scored by an old model re-scored at the head), ``frontier/requeued`` (it fell behind and
went back). :func:`rescore_head` is the one re-scoring step, shared with the Redis frontier
(:mod:`bilingual_spider.scheduler.leased_scheduler`).
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Any

from scrapy.pqueues import ScrapyPriorityQueue

from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierTag, keeps_head

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.statscollectors import StatsCollector

    from bilingual_spider.frontier.rescoring import FrontierScorer


def rescore_head(
    request: Request, scorer: FrontierScorer | None, next_priority: int | None, stats: Any
) -> bool:
    """A request just taken from the head of a frontier, re-scored in place if a newer model than
    the one that scored it exists. True: it goes now; False: it fell behind the next request
    (``next_priority``) and must go back to the queue with its new priority."""
    if scorer is None:
        return True
    tag = FrontierTag.from_meta(request.meta.get(FRONTIER_META))
    fresh = scorer.rescore(tag) if tag is not None else None
    if fresh is None:
        return True
    priority, new_tag = fresh
    request.priority = priority
    request.meta[FRONTIER_META] = new_tag.to_meta()
    stats.inc_value("frontier/rescored")
    if keeps_head(priority, next_priority):
        return True
    stats.inc_value("frontier/requeued")
    return False


class RescoringPriorityQueue(ScrapyPriorityQueue):
    """Re-scores a request made stale by a retrained classifier when it reaches the head.

    Classifier scores make nearly every request a priority of its own, so Scrapy's way of
    finding the next priority when one empties (the minimum over every priority queued) costs
    a pass over the whole frontier per request: a heap of the priorities finds it in
    logarithmic time (stale entries are dropped when they reach its top)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._priorities: list[int] = []  # before Scrapy's __init__, which creates queues
        super().__init__(*args, **kwargs)

    def qfactory(self, key: int) -> Any:
        heapq.heappush(self._priorities, key)
        return super().qfactory(key)

    def _sqfactory(self, key: int) -> Any:
        heapq.heappush(self._priorities, key)
        return super()._sqfactory(key)

    def _update_curprio(self) -> None:
        heap = self._priorities
        while heap and not (self.queues.get(heap[0]) or self._start_queues.get(heap[0])):
            heapq.heappop(heap)
        self.curprio = heap[0] if heap else None

    def pop(self) -> Request | None:
        scorer: FrontierScorer | None = getattr(self.crawler.spider, "frontier_scorer", None)
        stats: StatsCollector = self.crawler.stats
        while True:
            request = super().pop()
            if request is None:
                return request
            next_priority = None if self.curprio is None else -self.curprio
            if rescore_head(request, scorer, next_priority, stats):
                return request
            super().push(request)
