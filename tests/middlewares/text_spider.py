"""A spider for crawl tests of decoding: it fetches the given URLs (no links followed) and records
each page's encoding, title and text as Scrapy decoded them.

    scrapy runspider tests/middlewares/text_spider.py -a urls=URL,URL -O pages.jsonl
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy.http import Response, TextResponse


class TextSpider(scrapy.Spider):
    name = "text"

    def __init__(self, urls: str = "", *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.urls = [u for u in urls.split(",") if u]

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for url in self.urls:
            yield scrapy.Request(url, callback=self.parse)

    def parse(self, response: Response) -> Iterator[dict[str, str]]:
        if isinstance(response, TextResponse):
            yield {"url": response.url, "encoding": response.encoding, **page_text(response)}


def page_text(selectable: Any) -> dict[str, str]:
    """The title and the body's text of a page (a response or a parsel ``Selector``)."""
    return {
        "title": selectable.xpath("normalize-space(string(//title))").get(),
        "text": selectable.xpath("normalize-space(string(//body))").get(),
    }
