"""Drop items already emitted in this crawl: one per site (and one verdict per site), per
(unordered) URL pair, per URL."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from bilingual_spider.items import (
    BilingualSiteItem,
    FetchedPageItem,
    SiteVerdictItem,
    UrlPairItem,
)

logger = logging.getLogger(__name__)


def item_key(item: object) -> tuple[str, ...] | None:
    """The identity of an item for de-duplication (None: never a duplicate)."""
    if isinstance(item, BilingualSiteItem):
        return ("site", item.site.lower())
    if isinstance(item, SiteVerdictItem):
        return ("verdict", item.site.lower())
    if isinstance(item, UrlPairItem):
        first, second = sorted((item.source_url, item.target_url))
        return ("pair", first, second)
    if isinstance(item, FetchedPageItem):
        return ("page", item.url)
    return None


class DuplicatesPipeline:
    def __init__(self, stats: StatsCollector) -> None:
        self.stats = stats
        self.seen: set[tuple[str, ...]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DuplicatesPipeline:
        return cls(crawler.stats)

    def process_item(self, item: object) -> object:
        key = item_key(item)
        if key is None:
            return item
        if key in self.seen:
            self.stats.inc_value(f"pipeline/duplicates_dropped/{key[0]}")
            raise DropItem(f"duplicate {key[0]}: {' '.join(key[1:])}")
        self.seen.add(key)
        return item
