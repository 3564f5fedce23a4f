"""Records nobody hears are never made: the per-response and per-item DEBUG lines.

Scrapy leaves the root logger at ``NOTSET`` and filters at its own handler by ``LOG_LEVEL``, so
with ``LOG_LEVEL = "INFO"`` the ``Crawled (200) <GET ...>`` line of every response and the
``Scraped from`` line of every item are still built (a ``LogRecord``, passed through the
secret-redacting record factory) and then dropped, as are this project's own DEBUG lines (a
probe answered, a search call): a few per cent of a crawl's time. This extension gives the
loggers that write them the crawl's ``LOG_LEVEL`` when it is above ``DEBUG`` (and they have no
level of their own), so ``logger.debug`` returns at once.

A handler of your own that wants those DEBUG lines at a higher ``LOG_LEVEL`` (rare: they are
the lines ``LOG_LEVEL = "DEBUG"`` exists for) needs ``BILINGUAL_GATE_SCRAPY_DEBUG = False``.
"""

from __future__ import annotations

import logging

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

PER_RESPONSE_LOGGERS = ("scrapy.core.engine", "scrapy.core.scraper", "bilingual_spider")
"""The loggers of ``Crawled (200) ...`` (engine), ``Scraped from ...`` (scraper), and ours."""


class ScrapyDebugGate:
    """Sets the loggers' level while the crawl runs; gives them back ``NOTSET`` when it ends
    (another crawl in the same process may log at ``DEBUG``)."""

    def __init__(self, level: int, loggers: tuple[str, ...] = PER_RESPONSE_LOGGERS) -> None:
        self.gated = [logging.getLogger(name) for name in loggers]
        self.gated = [logger for logger in self.gated if logger.level == logging.NOTSET]
        for logger in self.gated:
            logger.setLevel(level)

    def engine_stopped(self) -> None:
        for logger in self.gated:
            logger.setLevel(logging.NOTSET)
        self.gated = []

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ScrapyDebugGate:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_GATE_SCRAPY_DEBUG"):
            raise NotConfigured
        level = logging.getLevelName(str(settings.get("LOG_LEVEL", "DEBUG")).upper())
        if not settings.getbool("LOG_ENABLED", True):
            level = logging.CRITICAL
        if not isinstance(level, int) or level <= logging.DEBUG:
            raise NotConfigured
        gate = cls(level)
        crawler.signals.connect(gate.engine_stopped, signal=signals.engine_stopped)
        return gate
