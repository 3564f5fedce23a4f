"""Scrapy adapter of :mod:`bilingual_spider.output.documents`: a document pair for every URL
pair the crawl reports.

On with ``BILINGUAL_DOCS_PATH`` or ``-a docs=FILE`` (``.tsv``: Bitextor's base64 format, else
JSONL). Every fetched HTML page (2xx) is kept, compressed, in an SQLite file beside the output
until the end of the crawl; when a pair item passes the pipelines, both pages' main texts are
written, each page's extracted once (kept beside its bytes). Stats: ``docs/pairs`` written,
``docs/pairs_without_page`` (a page the crawl never fetched itself, e.g. a search result
checked by HEAD only).
"""

from __future__ import annotations

from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.spiders import Spider
from scrapy.statscollectors import StatsCollector

from bilingual_spider.output.documents import DocumentPairWriter, PageBodies


class DocumentPairs:
    def __init__(self, writer: DocumentPairWriter, stats: StatsCollector) -> None:
        self.writer = writer
        self.stats = stats
        self.store_path = writer.path.with_name(f".{writer.path.name}.pages.sqlite")
        self.store_path.unlink(missing_ok=True)
        self.bodies = PageBodies(self.store_path)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DocumentPairs:
        path = crawler.settings.get("BILINGUAL_DOCS_PATH") or getattr(crawler.spider, "docs", None)
        if not path:
            raise NotConfigured
        extension = cls(DocumentPairWriter(Path(path)), crawler.stats)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def response_received(self, response: Response, request: Request, spider: Spider) -> None:
        if isinstance(response, HtmlResponse) and 200 <= response.status < 300:
            self.bodies.add(response.url, response.body)

    def item_scraped(self, item: Any, spider: Spider) -> None:
        fields = asdict(item) if is_dataclass(item) else dict(item)
        if "source_url" not in fields or "target_url" not in fields:
            return
        text1, text2 = (self.bodies.main_text(fields[key]) for key in ("source_url", "target_url"))
        if text1 is None or text2 is None:
            self.stats.inc_value("docs/pairs_without_page")
            return
        self.writer.write(fields, text1, text2)
        self.stats.inc_value("docs/pairs")

    def spider_closed(self, spider: Spider) -> None:
        self.writer.close()
        self.bodies.close()
        self.store_path.unlink(missing_ok=True)
