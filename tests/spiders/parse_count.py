"""A test extension: how many times each response of a crawl was parsed as HTML by lxml, written
as JSON to ``PARSE_COUNT_PATH`` at the end of the crawl (issue 34: one parse per page).

Every HTML parse lxml makes in the crawl's process is seen, whoever makes it (our
``html_page``, ``lxml.html``, parsel's selectors behind ``response.xpath``): the extension wraps
``lxml.etree.fromstring`` (with an HTML parser) and ``lxml.etree.HTML``, which all of them call.
A parse is charged to the nearest response found among the calling frames' local variables; a
parse with no response on the stack is counted as unattributed.
"""

from __future__ import annotations

import inspect
import itertools
import json
from collections import Counter
from typing import Any

from lxml import etree
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import HtmlResponse, Response

SERIAL_META = "parse_count_serial"


class ParseCount:
    def __init__(self, path: str) -> None:
        self.path = path
        self.parses: Counter[int] = Counter()
        self.unattributed = 0
        self.responses: dict[int, dict[str, Any]] = {}
        self.serials = itertools.count()
        self._originals = {"fromstring": etree.fromstring, "HTML": etree.HTML}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ParseCount:
        counter = cls(crawler.settings["PARSE_COUNT_PATH"])
        crawler.signals.connect(counter.response_received, signal=signals.response_received)
        crawler.signals.connect(counter.spider_closed, signal=signals.spider_closed)
        counter.install()
        return counter

    def install(self) -> None:
        fromstring, html = self._originals["fromstring"], self._originals["HTML"]

        def counted_fromstring(text: Any, parser: Any = None, *args: Any, **kwargs: Any) -> Any:
            if isinstance(kwargs.get("parser", parser), etree.HTMLParser):
                self._charge()
            return fromstring(text, parser, *args, **kwargs)

        def counted_html(*args: Any, **kwargs: Any) -> Any:
            self._charge()
            return html(*args, **kwargs)

        etree.fromstring = counted_fromstring
        etree.HTML = counted_html

    def _charge(self) -> None:
        frame = inspect.currentframe()
        while frame is not None:
            for value in frame.f_locals.values():
                if isinstance(value, Response) and value.request is not None:
                    serial = value.request.meta.get(SERIAL_META)
                    if serial is not None:
                        self.parses[serial] += 1
                        return
            frame = frame.f_back
        self.unattributed += 1

    def response_received(self, response: Response, request: Any, **_: Any) -> None:
        serial = next(self.serials)
        request.meta[SERIAL_META] = serial
        self.responses[serial] = {
            "url": response.url,
            "status": response.status,
            "method": request.method,
            "html": isinstance(response, HtmlResponse) and bool(response.body),
            "role": request.meta.get("role", ""),
        }

    def spider_closed(self) -> None:
        etree.fromstring, etree.HTML = self._originals["fromstring"], self._originals["HTML"]
        for serial, record in self.responses.items():
            record["parses"] = self.parses.get(serial, 0)
        with open(self.path, "w", encoding="utf-8") as file:
            json.dump(
                {"responses": list(self.responses.values()), "unattributed": self.unattributed},
                file,
            )
