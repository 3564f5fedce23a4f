"""Drop items already emitted in this crawl: one per site (and one verdict per site), per
(unordered) URL pair, per URL. A site's verdict and bilingual-site record and a URL pair
(:data:`~bilingual_spider.items.WRITTEN_ONCE_KINDS`) are claimed in the crawl state's record of
the items written: once across every worker's output with ``REDIS_URL``, and once over a kill
whatever the backend (the restart settles the record against the output:
:mod:`bilingual_spider.scheduler.restart`); pages are filtered by this process."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from bilingual_spider.items import WRITTEN_ONCE_KINDS, item_key
from bilingual_spider.state import CrawlState, WrittenItemsStore
from bilingual_spider.state.memory import WrittenItemsInMemory

logger = logging.getLogger(__name__)


class DuplicatesPipeline:
    def __init__(self, stats: StatsCollector, written: WrittenItemsStore | None = None) -> None:
        self.stats = stats
        self.written = written if written is not None else WrittenItemsInMemory()
        self.seen: set[tuple[str, ...]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicatesPipeline:
        spider = crawler.spider
        written = None if spider is None else CrawlState.of(crawler, spider.name).written_items
        return cls(crawler.stats, written)

    def process_item(self, item: object) -> object:
        key = item_key(item)
        if key is None:
            return item
        if not self._new(key):
            self.stats.inc_value(f"pipeline/duplicates_dropped/{key[0]}")
            raise DropItem(f"duplicate {key[0]}: {' '.join(key[1:])}")
        return item

    def _new(self, key: tuple[str, ...]) -> bool:
        """Whether this worker writes ``key``: not written before by this process, nor (a kind
        written once crawl-wide) by another worker or by its own former self before a kill."""
        if key[0] in WRITTEN_ONCE_KINDS:
            return self.written.claim(key)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True
