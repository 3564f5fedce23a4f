"""Write the crawl's stats as JSON (``BILINGUAL_STATS_FILE``): why each URL was or was not
crawled is in these counters, and a script or test can read them without parsing logs.

While the crawl runs, the file is rewritten every ``BILINGUAL_STATS_FILE_INTERVAL`` seconds
(default: ``BILINGUAL_PROGRESS_INTERVAL``, the progress line's; 0: only at the end), atomically
(a temporary file renamed over it), so that a reader never sees half a file and a report can be
made mid-crawl; also after every ``BILINGUAL_STATS_FILE_EVERY_RESPONSES`` responses (0: never),
so that a short crawl has its snapshots however fast the machine ran it. Until the end,
``finish_reason`` is ``null``; ``stats_written_at`` says when the figures were taken and
``stats_elapsed_seconds`` how long after the start. Every snapshot is also appended
to ``stats.history.jsonl`` beside it (the crawl report's curves). A crawl that starts anew
starts a new history; one that may carry on an earlier run's crawl (``JOBDIR``, ``REDIS_URL``)
appends to it."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.spiders import Spider
from scrapy.statscollectors import StatsCollector
from twisted.internet import task

from bilingual_spider.output.stats_history import history_path


class StatsFile:
    def __init__(
        self,
        stats: StatsCollector,
        path: str,
        interval: float = 0.0,
        every_responses: int = 0,
        continues_history: bool = False,
    ) -> None:
        self.stats = stats
        self.path = Path(path)
        self.interval = interval
        self.every_responses = every_responses
        self.continues_history = continues_history
        self._responses = 0
        self._task: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StatsFile:
        settings = crawler.settings
        path = settings.get("BILINGUAL_STATS_FILE")
        if not path:
            raise NotConfigured
        interval = settings.get("BILINGUAL_STATS_FILE_INTERVAL")
        if interval is None:
            interval = settings.getfloat("BILINGUAL_PROGRESS_INTERVAL")
        every = settings.getint("BILINGUAL_STATS_FILE_EVERY_RESPONSES")
        resumable = bool(settings.get("JOBDIR") or settings.get("REDIS_URL"))
        extension = cls(crawler.stats, path, float(interval), every, resumable)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        if every > 0:
            crawler.signals.connect(extension.response_received, signal=signals.response_received)
        return extension

    def spider_opened(self, spider: Spider) -> None:
        if not self.continues_history:  # a rerun into the same directory: its own curves
            history_path(self.path).unlink(missing_ok=True)
        if self.interval > 0:
            self._task = task.LoopingCall(self.write, None)
            self._task.start(self.interval, now=False)

    def response_received(self) -> None:
        self._responses += 1
        if self._responses % self.every_responses == 0:
            self.write(None)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self._task is not None and self._task.running:
            self._task.stop()
        self.write(reason)

    def write(self, finish_reason: str | None) -> None:
        """The stats now, with ``finish_reason`` (``None`` while the crawl runs); also appended
        as one line to the history (``stats.history.jsonl``)."""
        now = datetime.now(UTC)
        stats = self.stats.get_stats()
        values = {k: _jsonable(v) for k, v in stats.items()}
        values["finish_reason"] = finish_reason
        values["stats_written_at"] = now.isoformat(timespec="seconds")
        started = stats.get("start_time")
        if isinstance(started, datetime):
            started = started if started.tzinfo else started.replace(tzinfo=UTC)
            values["stats_elapsed_seconds"] = round((now - started).total_seconds(), 3)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with history_path(self.path).open("a", encoding="utf-8") as history:
            history.write(json.dumps(values, sort_keys=True) + "\n")
        text = json.dumps(values, indent=1, sort_keys=True)
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(temporary, 0o666 & ~_UMASK)  # mkstemp's file is private (0600)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
"""The process's umask, read once at import (reading it sets it for a moment)."""


def _jsonable(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value
