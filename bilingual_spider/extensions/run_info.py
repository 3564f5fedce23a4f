"""What ran, in the stats (``run/*``), so that a stats file or a report says it without the
command line: the spider, the project's version, the spider's effective parameters (its
``run_parameters()``: strategy, languages, budget, seeds...), the search adapters, and the page
limit. The search adapters are named when the command line chose them (the report's
API table names those that were called). Set once, when the spider opens."""

from __future__ import annotations

from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.spiders import Spider

from bilingual_spider import __version__


class RunInfo:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RunInfo:
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        settings = self.crawler.settings
        info: dict[str, Any] = {"spider": spider.name, "version": __version__}
        describe = getattr(spider, "run_parameters", None)
        if callable(describe):
            info.update({k: v for k, v in describe().items() if v not in (None, "")})
        limit = settings.getint("BILINGUAL_FRONTIER_PAGE_LIMIT") or settings.getint(
            "CLOSESPIDER_PAGECOUNT"
        )
        if limit:
            info["page_limit"] = limit
        for name in ("BILINGUAL_SEARCH_BACKLINKS", "BILINGUAL_SEARCH_WEB"):
            if settings.get(name) and settings.getpriority(name) > SETTINGS_PRIORITIES["project"]:
                info[name.rsplit("_", 1)[1].lower() + " adapter"] = settings.get(name)
        if settings.get("BILINGUAL_SANDBOX_PROXY"):
            info["web"] = "the sandbox web (every host and API answered by the local sandbox)"
        for key, value in info.items():
            self.crawler.stats.set_value(f"run/{key}", value)
