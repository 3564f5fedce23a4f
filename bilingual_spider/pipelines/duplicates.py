"""Drop items already emitted in this crawl: one per site (and one verdict per site), per
(unordered) URL pair, per URL. With ``REDIS_URL`` a site's verdict and bilingual-site record are
once across every worker's output, also when a killed worker's work is redone
(:mod:`bilingual_spider.distributed.written_items`)."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from bilingual_spider.distributed.written_items import (
    SHARED_KINDS,
    WrittenItems,
    shared_written_items,
)
from bilingual_spider.items import (
    BilingualSiteItem,
    FetchedPageItem,
    SiteVerdictItem,
    UrlPairItem,
    record_key,
)

logger = logging.getLogger(__name__)


def item_key(item: object) -> tuple[str, ...] | None:
    """The identity of an item for de-duplication (None: never a duplicate)."""
    if not isinstance(item, (BilingualSiteItem, SiteVerdictItem, UrlPairItem, FetchedPageItem)):
        return None
    return record_key({"type": item.type, **vars(item)})


class DuplicatesPipeline:
    def __init__(self, stats: StatsCollector, shared: WrittenItems | None = None) -> None:
        self.stats = stats
        self.shared = shared
        self.seen: set[tuple[str, ...]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicatesPipeline:
        spider = crawler.spider
        shared = None if spider is None else shared_written_items(crawler, spider.name)
        return cls(crawler.stats, shared)

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
        return self.shared is None or key[0] not in SHARED_KINDS or self.shared.claim(key)
