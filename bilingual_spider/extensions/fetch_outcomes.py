"""Whether a crawl fetched anything, and when it fetched nothing, why, in one line.

A crawl none of whose requests could be fetched (no network: no host name resolves; seeds that
network safety refuses; servers that answer nothing but errors) used to end like any other:
"finished", exit status 0. This extension counts the pages fetched, ``fetch/pages`` (a
response of status below 400 to any request but robots.txt and search API calls), and the
responses that are errors by their status, ``fetch/failed/http_<status>``; the other failures
are counted where they happen (``fetch/failed/dns`` and ``safety/refused/<reason>`` by network
safety, Scrapy's ``downloader/exception_type_count/<exception>``). When the spider closes
having fetched no page it sets ``fetch/nothing`` and logs the line :func:`nothing_fetched`
makes, as a WARNING; ``scrapy crawl`` prints that line and exits with a status of its own
(``commands/crawl.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.http import Response

from bilingual_spider.middlewares.network_safety import DNS_FAILED
from bilingual_spider.search.calls import SEARCH_CALL

logger = logging.getLogger(__name__)

PAGES_KEY = "fetch/pages"
NOTHING_KEY = "fetch/nothing"
HTTP_PREFIX = "fetch/failed/http_"
SAFETY_PREFIX = "safety/refused/"
EXCEPTION_PREFIX = "downloader/exception_type_count/"
NOT_A_DOWNLOAD_ERROR = ("IgnoreRequest",)
"""Exceptions Scrapy counts as download errors that are a refusal counted elsewhere."""


def nothing_fetched(stats: Mapping[str, Any]) -> str | None:
    """Why a crawl with these stats fetched no page, in one line (each kind of failure with its
    count), or None when it fetched one or more, or asked for none."""
    if stats.get(PAGES_KEY, 0):
        return None
    kinds = []
    dns = int(stats.get(DNS_FAILED, 0))
    if dns:
        kinds.append(f"{dns} requests whose host name did not resolve (DNS: no network?)")
    refused = _counts(stats, SAFETY_PREFIX)
    if refused:
        kinds.append(f"{sum(refused.values())} refused by network safety ({_listed(refused)})")
    http = _counts(stats, HTTP_PREFIX)
    if http:
        kinds.append(f"{sum(http.values())} HTTP errors ({_listed(http)})")
    errors = {
        name.rsplit(".", 1)[-1]: count
        for name, count in _counts(stats, EXCEPTION_PREFIX).items()
        if name.rsplit(".", 1)[-1] not in NOT_A_DOWNLOAD_ERROR
    }
    if errors:
        kinds.append(f"{sum(errors.values())} download errors ({_listed(errors)})")
    if not kinds:  # nothing asked for (a resumed crawl with nothing left to do): not a failure
        return None
    return f"fetched nothing: {'; '.join(kinds)}"


def _counts(stats: Mapping[str, Any], prefix: str) -> dict[str, int]:
    return {key[len(prefix) :]: int(n) for key, n in stats.items() if key.startswith(prefix)}


def _listed(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in sorted(counts.items()))


def is_a_page(request: Request) -> bool:
    """Whether a request asks for a page of the web: not robots.txt, not a search API call."""
    return urlsplit(request.url).path != "/robots.txt" and SEARCH_CALL not in request.meta


class FetchOutcomes:
    """Counts pages fetched and HTTP error responses; at the close, a crawl that fetched no page
    is marked (``fetch/nothing``) and says why."""

    def __init__(self, crawler: Crawler) -> None:
        assert crawler.stats is not None
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FetchOutcomes:
        extension = cls(crawler)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def response_received(self, response: Response, request: Request) -> None:
        if not is_a_page(request):
            return
        if response.status < 400:
            self.stats.inc_value(PAGES_KEY)
        else:
            self.stats.inc_value(f"{HTTP_PREFIX}{response.status}")

    def spider_closed(self, reason: str) -> None:
        if reason != "finished":  # stopped by a user, a limit or an error: not "nothing to fetch"
            return
        stats = self.stats.get_stats()
        why = nothing_fetched(stats)
        if why is not None:
            self.stats.set_value(NOTHING_KEY, 1)
            logger.warning("%s", why)
