"""Drop items already emitted in this crawl: one per site (and one verdict per site), per
(unordered) URL pair, per URL. With ``REDIS_URL`` a site's verdict and bilingual-site record are
once across every worker's output, also when a killed worker's work is redone
(:mod:`bilingual_spider.distributed.written_items`)."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from bilingual_spider.distributed.written_items import SHARED_KINDS
from bilingual_spider.items import item_key
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
        if key in self.seen or not self._claimed(key):
            self.stats.inc_value(f"pipeline/duplicates_dropped/{key[0]}")
            raise DropItem(f"duplicate {key[0]}: {' '.join(key[1:])}")
        self.seen.add(key)
        return item

    def _claimed(self, key: tuple[str, ...]) -> bool:
        """Whether this worker writes ``key`` (always, unless another worker's output, or its
        own before a restart, holds it: a distributed crawl's verdicts and sites)."""
        return key[0] not in SHARED_KINDS or self.written.claim(key)
