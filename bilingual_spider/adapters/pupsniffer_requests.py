"""The page requests of a PupSniffer crawl (``scrapy crawl pupsniffer``): a site's first page and
its not-found page (a URL that cannot exist there, which the soft-404 judge compares deep pages
with), and the pages :class:`~bilingual_spider.patterns.pair_first.PairFirstOrder` gives, within
each site's budget. Stats ``pupsniffer/sites``, ``pupsniffer/requested_again``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import Crawler

from bilingual_spider.detection.ladder import ancestor_urls
from bilingual_spider.patterns.pair_first import PageAsk, PairFirstOrder
from bilingual_spider.patterns.round_state import SEEN, RoundStore
from bilingual_spider.patterns.units import site_of

COUNTERPART_META = "pupsniffer_counterpart_of"
"""Request meta key: the pattern that made a counterpart request."""
COUNTERPART_SECTION_META = "pupsniffer_counterpart_section"
"""Request meta key: the section of the page a counterpart was made of."""
NAMED_LANGUAGE_META = "pupsniffer_named_language"
"""Request meta key: the language a page named the requested page its version in."""
NOT_FOUND_URL_META = "pupsniffer_not_found_url"
"""Request meta key: a URL that cannot exist on the page's site, asked once the page has come."""


class PageRequests:
    """Makes the requests of a crawl's pages.

    Parameters
    ----------
    crawler:
        The crawl (its stats).
    store, order:
        The crawl's state and the order of its pages.
    page, not_found, failed:
        The spider's callbacks: a page, a not-found page, and the errback of both.
    """

    def __init__(
        self,
        crawler: Crawler,
        store: RoundStore,
        order: PairFirstOrder,
        page: Callable[..., Any],
        not_found: Callable[..., Any],
        failed: Callable[..., Any],
    ) -> None:
        self.crawler, self.store, self.order = crawler, store, order
        self.page_callback, self.not_found_callback, self.failed = page, not_found, failed

    def site(self, url: str, found_by: str) -> list[scrapy.Request]:
        """The first page of a new site, the pages above it (its directories and the home,
        :func:`~bilingual_spider.detection.ladder.ancestor_urls`: a site entered deep, at a
        page that links none of them, a print version, is entered at its sections too) and a
        URL that cannot exist on it; for a site known already (several seeds of one site), the
        page and those above it."""
        site = site_of(url)
        if not site:
            return []
        new = self.store.first_sight(site, found_by)  # else another seed of a known site
        first = list(self.pages(self.order.pages(site, [url, *ancestor_urls(url)])))
        if not new:
            return first
        self.crawler.stats.inc_value("pupsniffer/sites")
        parts = urlsplit(url)
        missing = f"{parts.scheme}://{parts.netloc}/{uuid.uuid4().hex}-not-found.html"
        return [*first, self.not_found(missing, site)]

    def not_found(self, url: str, site: str) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.not_found_callback,
            errback=self.failed,
            meta={"role": "not_found", "site": site, "handle_httpstatus_all": True},
        )

    def pages(self, asks: Iterable[PageAsk]) -> Iterator[scrapy.Request]:
        """A request of each page asked for."""
        for ask in asks:
            request = self.page(ask.site, ask.url, ask.priority)
            if ask.counterpart_of is not None:
                request.meta[COUNTERPART_META] = ask.counterpart_of
                request.meta[COUNTERPART_SECTION_META] = ask.section
            if ask.named_language:
                request.meta[NAMED_LANGUAGE_META] = ask.named_language
            yield request

    def page(self, site: str, url: str, priority: int = 0) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.page_callback,
            errback=self.failed,
            priority=priority,
            meta={"role": "page", "site": site},
        )

    def answered(self, site: str, meta: dict[str, Any], found: bool) -> Iterator[scrapy.Request]:
        """A page request of ``site`` was answered (``found``: HTTP 200) or failed: the site
        may ask for more now."""
        self.order.answered(
            site,
            meta.get(COUNTERPART_META),
            found,
            meta.get(NAMED_LANGUAGE_META, ""),
            meta.get(COUNTERPART_SECTION_META, ""),
        )
        return self.pages(self.order.next_pages(site))

    def site_again(self, url: str) -> Iterator[scrapy.Request]:
        """:meth:`requested_again` for the pages :meth:`site` asks for ``url``."""
        yield from self.requested_again(site_of(url), [url, *ancestor_urls(url)])

    def requested_again(self, site: str, urls: list[str]) -> Iterator[scrapy.Request]:
        """The pages a page's links counted in its site's budget: the worker that processed it
        first died, perhaps before it queued them. Requested again outside the budget, which
        counted them already; those queued before are dropped by the shared duplicate filter."""
        again = self.store.marked(SEEN, urls)
        for url in dict.fromkeys(urls):
            if url in again:
                self.crawler.stats.inc_value("pupsniffer/requested_again")
                yield self.page(site, url)
