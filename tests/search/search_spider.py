"""A spider for crawl tests of the search adapters: it fetches the given pages (recording their
links in the crawl's link graph), then submits rounds of queries, each round once the crawl is
idle again, and writes every answer page it gets as an item.

    scrapy runspider tests/search/search_spider.py -a rounds=R.json [-a pages=U,U] -O out.jsonl

``ROUNDS.json``: a list of rounds, each a list of ``{"query": {SearchQuery fields}, "adapter":
NAME, "max_pages": N, "label": TEXT}``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor

from bilingual_spider.search.calls import search_page
from bilingual_spider.search.service import SearchService
from bilingual_spider.search.values import SearchQuery


class SearchTestSpider(scrapy.Spider):
    name = "search_test"

    def __init__(self, rounds: str = "", pages: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rounds: list[list[dict[str, Any]]] = json.loads(Path(rounds).read_text())
        self.pages = [u for u in pages.split(",") if u]
        self.link_extractor = LinkExtractor(unique=True)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> SearchTestSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.idle, signal=signals.spider_idle)
        return spider

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.pages:
            yield scrapy.Request(url, callback=self.parse_page, meta={"role": "seed"})

    def parse_page(self, response: Response) -> Iterator[dict[str, Any]]:
        if isinstance(response, TextResponse):
            links = [(link.url, link.text) for link in self.link_extractor.extract_links(response)]
            SearchService.of(self.crawler).record_links(response.url, links)
        yield {"fetched": response.url}

    def idle(self) -> None:
        if not self.rounds:
            return
        service = SearchService.of(self.crawler)
        for spec in self.rounds.pop(0):
            service.submit(
                SearchQuery.from_dict(spec["query"]),
                self.parse_answer,
                adapter=spec.get("adapter"),
                max_pages=spec.get("max_pages"),
                cb_kwargs={"label": spec.get("label", "")},
            )
        raise DontCloseSpider

    def parse_answer(self, response: Response, label: str) -> Iterator[dict[str, Any]]:
        page = search_page(response)
        yield {"label": label, "status": response.status, **page.as_dict()}
