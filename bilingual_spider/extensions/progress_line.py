"""A crawl's progress in one log line, every ``BILINGUAL_PROGRESS_INTERVAL`` seconds (0: never)
and when it closes, for a spider that says it: its ``progress_line(minutes)`` (``backforth``:
pages, bilingual sites, harvest rate, sites judged, whether the backlink API is down)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)


class ProgressLine:
    def __init__(self, crawler: Crawler, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self._started = time.monotonic()
        self._task: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProgressLine:
        if not callable(getattr(crawler.spidercls, "progress_line", None)):
            raise NotConfigured
        line = cls(crawler, crawler.settings.getfloat("BILINGUAL_PROGRESS_INTERVAL"))
        crawler.signals.connect(line.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(line.spider_closed, signal=signals.spider_closed)
        return line

    def spider_opened(self, spider: Spider) -> None:
        self._started = time.monotonic()
        if self.interval > 0:
            self._task = task.LoopingCall(self.log, spider)
            self._task.start(self.interval, now=False)

    def spider_closed(self, spider: Spider) -> None:
        if self._task is not None and self._task.running:
            self._task.stop()
        self.log(spider)

    def log(self, spider: Spider) -> None:
        minutes = (time.monotonic() - self._started) / 60
        logger.info("%s", spider.progress_line(minutes))  # type: ignore[attr-defined]
