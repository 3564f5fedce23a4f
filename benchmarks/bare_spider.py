"""A bare Scrapy spider: follows every link of every page, records nothing, no extra components.

Run with ``scrapy runspider`` outside the project (so none of our settings apply); the proxy comes
from ``-s BARE_PROXY=...`` and the final stats go to ``-s BARE_STATS_FILE=...``. ``-s
BARE_GC_FREEZE=True`` freezes the garbage collector's view of the start-up heap when the engine
starts, and ``-s BARE_GC_THRESHOLD=10000,10,10`` sets its thresholds then, as the project's
``GcTuning`` extension does.
"""

import gc
import json
from datetime import UTC, datetime

import scrapy
from scrapy import signals


class BareSpider(scrapy.Spider):
    name = "bare"
    custom_settings = {
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "COOKIES_ENABLED": False,
        "CONCURRENT_ITEMS": 10,
        "LOG_LEVEL": "WARNING",
    }

    def __init__(self, seeds: str = "", *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seeds = [s for s in seeds.split(",") if s]

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        # what GcTuning does for the project
        if crawler.settings.getbool("BARE_GC_FREEZE"):
            crawler.signals.connect(spider.freeze, signal=signals.engine_started)
        if crawler.settings.getlist("BARE_GC_THRESHOLD"):
            crawler.signals.connect(spider.set_gc_threshold, signal=signals.engine_started)
        return spider

    def freeze(self):
        gc.freeze()

    def set_gc_threshold(self):
        gc.set_threshold(*(int(v) for v in self.settings.getlist("BARE_GC_THRESHOLD")))

    async def start(self):
        for url in self.seeds:
            yield scrapy.Request(url, meta={"proxy": self.settings.get("BARE_PROXY")})

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, meta={"proxy": self.settings.get("BARE_PROXY")})

    def closed(self, reason):
        stats = {k: str(v) for k, v in self.crawler.stats.get_stats().items()}
        started = self.crawler.stats.get_value("start_time")
        stats["elapsed_time_seconds"] = (datetime.now(UTC) - started).total_seconds()
        with open(self.settings.get("BARE_STATS_FILE"), "w") as f:
            json.dump(stats, f)
