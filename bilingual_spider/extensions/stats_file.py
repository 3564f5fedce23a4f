"""Write the crawl's final stats as JSON (``BILINGUAL_STATS_FILE``): why each URL was or was not
crawled is in these counters, and a script or test can read them without parsing logs."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.spiders import Spider
from scrapy.statscollectors import StatsCollector


class StatsFile:
    def __init__(self, stats: StatsCollector, path: str) -> None:
        self.stats = stats
        self.path = Path(path)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StatsFile:
        path = crawler.settings.get("BILINGUAL_STATS_FILE")
        if not path:
            raise NotConfigured
        extension = cls(crawler.stats, path)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, spider: Spider, reason: str) -> None:
        values = {k: _jsonable(v) for k, v in self.stats.get_stats().items()}
        values["finish_reason"] = reason
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(values, indent=1, sort_keys=True))


def _jsonable(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value
