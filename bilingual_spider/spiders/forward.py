"""``scrapy crawl forward``: a plain breadth-first forward crawl that records every page it fetched.

It is the end-to-end proof that the crawler, the sandbox web and the outputs work together, and
the bare-Scrapy baseline that the throughput goals of the other spiders are measured against.
Bound it with ``-s CLOSESPIDER_PAGECOUNT=N`` and ``-s DEPTH_LIMIT=D``.

With ``-s BILINGUAL_BACKLINK_EXPANSION=true`` it is a back-and-forth crawl (OBFC): the backlink
expansion middleware (:mod:`bilingual_spider.middlewares.backlink_expansion`) judges each site it
reaches (through the detector callbacks mixed in here), asks the backlinks of the bilingual ones
and keeps the crawl to the bipartite graph; its verdicts are items beside the pages.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor

from bilingual_spider.adapters.site_detection import DetectorCallbacks
from bilingual_spider.items import FetchedPageItem
from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.middlewares.outlinks import LINK_TEXT_META
from bilingual_spider.seeds import SeedError, announced, parse_seeds

logger = logging.getLogger(__name__)


class ForwardSpider(DetectorCallbacks, scrapy.Spider):
    name = "forward"
    item_types = (FetchedPageItem,)
    """What it makes: their feeds are in a run directory even when empty."""
    custom_settings = {  # breadth-first, as Scrapy's FAQ describes it
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        # its whole state is its frontier and its output: with JOBDIR, a kill -9 is resumed
        "BILINGUAL_CRASH_SAFE_FRONTIER": True,
    }

    def __init__(self, seeds: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seeds_argument = seeds
        self.seed_urls: list[str] = []
        self.link_extractor = LinkExtractor(unique=True)

    def run_parameters(self) -> dict[str, Any]:
        """What this crawl is (the report's header)."""
        return {"seeds": len(self.seed_urls)}

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> ForwardSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.seed_urls = default_or_given_seeds(spider.seeds_argument, crawler)
        return spider

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in announced(self.seed_urls):
            yield scrapy.Request(url, meta={"role": "seed"}, callback=self.parse)

    def parse(self, response: Response) -> Iterator[FetchedPageItem | scrapy.Request]:
        role = response.meta.get("role", "forward")
        self.crawler.stats.inc_value(f"pages/{role}")
        links = []
        declared, alternates = None, {}
        if isinstance(response, TextResponse):
            links = self.link_extractor.extract_links(response)
            declared, alternates = declared_languages(response)
        # the links first: once the page's item is in the output, they are in the frontier
        # (what a crawl resumed after a kill relies on: scheduler/leased_scheduler.py)
        for link in links:
            meta = {"role": "forward", LINK_TEXT_META: link.text}
            yield scrapy.Request(link.url, meta=meta, callback=self.parse)
        yield FetchedPageItem(
            url=response.url,
            status=response.status,
            host=urlsplit(response.url).hostname or "",
            content_type=response.headers.get("Content-Type", b"").decode("latin-1"),
            length=len(response.body),
            role=role,
            depth=response.meta.get("depth", 0),
            declared_lang=declared,
            alternates=alternates,
            outlinks=len(links),
        )


def declared_languages(response: TextResponse) -> tuple[str | None, dict[str, str]]:
    """The page's ``<html lang>`` and its ``hreflang`` alternates (language -> absolute URL)."""
    lang = response.xpath("/html/@lang | /html/@xml:lang").get()
    alternates: dict[str, str] = {}
    for node in response.xpath("//*[@hreflang]"):  # <link>, <a>, custom elements
        code = normalize_language_code(node.attrib.get("hreflang", ""))
        href = node.attrib.get("href")
        if code and href:
            alternates.setdefault(code, response.urljoin(href))
    return (normalize_language_code(lang) if lang else None), alternates


def default_or_given_seeds(argument: str | None, crawler: Crawler) -> list[str]:
    """The ``seeds`` argument parsed; none when the frontier is in Redis (seeds come from
    ``bilingual-spider seed`` or another worker). ``scrapy crawl`` of the sandbox web given no
    seeds passes every sandbox site (:func:`bilingual_spider.commands.crawl.sandbox_seeds`)."""
    if argument:
        try:
            return parse_seeds(argument)
        except SeedError as exc:
            raise UsageError(str(exc)) from None
    if crawler.settings.get("REDIS_URL"):
        return []
    raise UsageError("no seeds: pass -a seeds=FILE|url,url (or crawl the sandbox web)")
