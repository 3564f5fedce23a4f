"""Commit the leased frontier before an item reaches the feeds (issue 32).

An item in a crawl's output must mean that the requests its page made are in the frontier on
disk: a crawl resumed after a kill counts the page as done and does not fetch it again
(:mod:`bilingual_spider.scheduler.leased_scheduler`). Item pipelines run before the feeds
write an item, so this first pipeline commits the frontier's changes so far (the SQLite file of
``JOBDIR``; Redis writes each change at once). With any other scheduler it does nothing.
"""

from __future__ import annotations

from scrapy.crawler import Crawler

from bilingual_spider.scheduler.leased_scheduler import LeasedScheduler


class FrontierCommitPipeline:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FrontierCommitPipeline:
        return cls(crawler)

    def process_item(self, item: object) -> object:
        engine = self.crawler.engine
        scheduler = engine.scheduler if engine is not None else None
        if isinstance(scheduler, LeasedScheduler):
            scheduler.commit()
        return item
