"""A Scrapy extension of ``benchmarks/distributed.py --profile``: ``cProfile`` over one worker's
steady state only, from its ``BENCH_PROFILE_FROM``-th response to its ``BENCH_PROFILE_TO``-th
(neither its start-up imports nor its end are in it), timed in CPU seconds of the process
(``time.process_time``: not the time a worker waits for Redis or for the machine). Written to
``BENCH_PROFILE_FILE`` (pstats) with ``BENCH_PROFILE_FILE.json`` beside it: the responses in the
window.
"""

from __future__ import annotations

import cProfile
import json
import time
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler


class ProfiledWindow:
    def __init__(self, first: int, last: int, path: Path) -> None:
        self.first, self.last, self.path = first, last, path
        self.responses = 0
        self.profiler = cProfile.Profile(time.process_time)
        self.profiling = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProfiledWindow:
        settings = crawler.settings
        window = cls(
            settings.getint("BENCH_PROFILE_FROM"),
            settings.getint("BENCH_PROFILE_TO"),
            Path(settings.get("BENCH_PROFILE_FILE")),
        )
        crawler.signals.connect(window.response_received, signal=signals.response_received)
        crawler.signals.connect(window.spider_closed, signal=signals.spider_closed)
        return window

    def response_received(self, **kwargs: Any) -> None:
        self.responses += 1
        if self.responses == self.first:
            self.profiling = True
            self.profiler.enable()
        elif self.responses == self.last and self.profiling:
            self._dump()

    def spider_closed(self, **kwargs: Any) -> None:
        if self.profiling:  # the crawl ended inside the window
            self._dump()

    def _dump(self) -> None:
        self.profiler.disable()
        self.profiling = False
        self.profiler.dump_stats(self.path)
        window = {"responses": self.responses - self.first}
        self.path.with_suffix(".json").write_text(json.dumps(window))
