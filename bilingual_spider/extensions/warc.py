"""Scrapy adapter of :mod:`bilingual_spider.output.warc`: every HTML page the crawl fetched
(status 2xx), with its request, into rolling WARC files.

On with ``BILINGUAL_WARC_PATH`` (a directory) or the spider argument ``-a warc=DIR``; files of
at most ``BILINGUAL_WARC_MAX_BYTES`` (1 GB). Each response record names the page's language as
the project's language ID finds it in its main text (``WARC-Identified-Content-Language``, a
BCP 47 tag: ``en``, ``zh-Hant``; none when undetermined). Stats: ``warc/records``,
``warc/files``, ``warc/pages``.

Each URL is written once a run: a page fetched again (the site detector's probe of a page the
crawl then asks for itself; a page asked for by two spiders' components) is counted,
``warc/pages_again``, not written (a set of 8-byte digests of the URLs written, about 70 bytes
a page). A crawl resumed after a kill starts the set anew: what it fetches again is written
again (``docs/after_a_kill.md``).
"""

from __future__ import annotations

import hashlib
from http.client import responses as REASONS

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.spiders import Spider
from scrapy.statscollectors import StatsCollector

from bilingual_spider.language.identification import default_identifier
from bilingual_spider.output.warc import Exchange, WarcFiles
from bilingual_spider.response_page import response_language

MIN_LANGUAGE_SHARE = 0.5
"""A page's language is named when it holds at least this share of its main text."""


class WarcExtension:
    def __init__(self, files: WarcFiles, stats: StatsCollector) -> None:
        self.files = files
        self.stats = stats
        self.identifier = default_identifier()
        self.written: set[int] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcExtension:
        settings = crawler.settings
        directory = settings.get("BILINGUAL_WARC_PATH") or getattr(crawler.spider, "warc", None)
        if not directory:
            raise NotConfigured
        max_bytes = settings.getint("BILINGUAL_WARC_MAX_BYTES")
        spider_name = getattr(crawler.spider, "name", "crawl")
        info = {
            "isPartOf": spider_name,
            "robots": "obey" if settings.getbool("ROBOTSTXT_OBEY") else "ignore",
        }
        files = WarcFiles(
            directory, prefix=f"bilingual-spider-{spider_name}", max_bytes=max_bytes, info=info
        )
        extension = cls(files, crawler.stats)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def response_received(self, response: Response, request: Request, spider: Spider) -> None:
        if not isinstance(response, HtmlResponse) or not 200 <= response.status < 300:
            return
        digest = int.from_bytes(hashlib.blake2b(response.url.encode(), digest_size=8).digest())
        if digest in self.written:
            self.stats.inc_value("warc/pages_again")
            return
        self.written.add(digest)
        found = response_language(response, self.identifier)  # once per response, shared
        language = None
        if not found.undetermined and found.score >= MIN_LANGUAGE_SHARE:
            language = found.lang
        before = len(self.files.paths)
        self.files.write(
            Exchange(
                url=response.url,
                status=response.status,
                reason=REASONS.get(response.status, ""),
                protocol=response.protocol or "HTTP/1.1",
                response_headers=_header_list(response.headers),
                body=response.body,
                method=request.method,
                request_headers=_header_list(request.headers),
                ip_address=str(response.ip_address) if response.ip_address else None,
                payload_type="text/html",
                language=language,
            )
        )
        self.stats.inc_value("warc/pages")
        self.stats.inc_value("warc/records", 2)
        self.stats.inc_value("warc/files", len(self.files.paths) - before)

    def spider_closed(self, spider: Spider) -> None:
        self.files.close()


def _header_list(headers: object) -> list[tuple[str, str]]:
    """Scrapy's headers as (name, value) text pairs, one per value, in their order."""
    found = []
    for name, values in headers.items():  # type: ignore[attr-defined]
        for value in values:
            found.append((name.decode("latin-1"), value.decode("latin-1")))
    return found
