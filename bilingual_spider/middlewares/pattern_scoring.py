"""URL-pattern credibility scoring as a spider middleware: PupSniffer's pair discovery (Zhang et al.
2018, sections 4.1-4.3) over the pages of any spider.

On when ``BILINGUAL_PATTERN_SCORING`` is true, unless the spider pairs its pages itself
(``pupsniffer``: a true ``pairs_pages_itself`` attribute). Every HTML page a callback gets is
recorded with its language, main text and links (the response's one parse,
:mod:`bilingual_spider.adapters.pupsniffer_pages`). When the crawl has nothing left to fetch,
and every ``BILINGUAL_PATTERN_SCORING_EVERY`` new pages, the pages seen so far are mined for
pairing patterns and their local and global credibility
(:func:`~bilingual_spider.patterns.crawl_round.pair_round`); the pairs found are judged as
PupSniffer judges them (languages, shared links, content by ``BILINGUAL_PUPSNIFFER_VERIFIER``)
and each new one becomes a :class:`~bilingual_spider.items.UrlPairItem`. The pages left unpaired
give counterpart requests (4.3: the most credible patterns substituted into their URLs, at most
``BILINGUAL_PUPSNIFFER_DEEP_PER_SITE`` per site, role ``counterpart``): fetched like any page of
the spider, they are mined at the next pause, and the crawl ends when a pause finds nothing new.

Items made at a pause travel in one ``data:`` request (as PupSniffer's,
:func:`~bilingual_spider.adapters.pupsniffer_items.items_request`) through the spider's default
callback; this middleware yields them and discards the callback's own output for it. A crawl
closed before its frontier ran dry (a page count, Ctrl-C) emits the pairs of its last mining: the
pages seen after it are not mined (counted ``patterns/pages_not_mined``).

Stats: ``patterns/pages`` (recorded), ``patterns/minings``, ``patterns/pairs/<method>``,
``patterns/rejected/<reason>``, ``patterns/counterparts`` (requests made).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.statscollectors import StatsCollector

from bilingual_spider.adapters.pupsniffer_items import ITEMS_META, items_request, url_pair_item
from bilingual_spider.adapters.pupsniffer_pages import is_html, page_links, page_record, page_text
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.patterns.crawl_round import CrawledSites, deep_page_candidates, pair_round
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import site_of
from bilingual_spider.patterns.verification import PairVerifier, load_verifier

logger = logging.getLogger(__name__)

PAIRS_META = "pattern_scoring_pairs"
"""Request meta key: the request carries this middleware's items (in ``ITEMS_META``)."""
COUNTERPART = "counterpart"
"""Role of a counterpart request."""
COUNTERPART_PRIORITY = 100
"""Of the most credible pattern's counterparts (each further pattern: one less)."""
NOT_RECORDED = ("api", "probe", "items")
"""Roles whose responses are no page of a site."""


class PatternScoringMiddleware:
    """Pages seen -> patterns and credibility -> counterpart requests and URL-pair items.

    Parameters
    ----------
    stats:
        The crawl's stats collector.
    verifier:
        Content verification of every pair (None: languages and links only).
    counterparts_per_site:
        Counterpart requests per site and pause.
    identifier:
        Language identifier of pages (``identify_many``, as the shipped one).
    every:
        Mine after this many new pages, not only when the frontier runs dry (0: only then).
    """

    def __init__(
        self,
        stats: StatsCollector,
        verifier: PairVerifier | None = None,
        counterparts_per_site: int = 50,
        identifier: Any = None,
        every: int = 0,
    ) -> None:
        self.stats = stats
        self.verifier = verifier
        self.counterparts_per_site = counterparts_per_site
        self.identifier = identifier
        self.every = every
        self.crawled = CrawledSites()
        self.emitted: set[frozenset[str]] = set()
        self.asked: set[str] = set()
        self._pages_mined = 0
        self.crawler: Crawler | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PatternScoringMiddleware:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_PATTERN_SCORING"):
            raise NotConfigured
        if getattr(crawler.spider, "pairs_pages_itself", False):
            raise NotConfigured
        middleware = cls(
            crawler.stats,  # type: ignore[arg-type]
            verifier=load_verifier(settings.get("BILINGUAL_PUPSNIFFER_VERIFIER")),
            counterparts_per_site=settings.getint("BILINGUAL_PUPSNIFFER_DEEP_PER_SITE"),
            identifier=default_identifier(),  # loaded before the crawl, not on its first pages
            every=settings.getint("BILINGUAL_PATTERN_SCORING_EVERY"),
        )
        middleware.crawler = crawler
        crawler.signals.connect(middleware.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    # --- the spider's output: pages recorded, items carried --------------------------------------

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        if PAIRS_META in response.meta:
            yield from self._carried(response)
            return
        self.record(response)
        yield from result
        yield from self._pause_when_due()

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        if PAIRS_META in response.meta:
            for item in self._carried(response):
                yield item
            return
        self.record(response)
        async for output in result:
            yield output
        for request in self._pause_when_due():
            yield request

    def record(self, response: Response) -> None:
        """Keep an HTML page of a site as pair discovery needs it."""
        if response.meta.get("role") in NOT_RECORDED or response.url in self.crawled.pages:
            return
        if not isinstance(response, TextResponse) or not is_html(response):
            return
        links = page_links(response)
        page = page_text(response, self.identifier)
        record = page_record(response, page, links, with_content=self.verifier is not None)
        site = site_of(response.url)
        self.crawled.add(record, [url for url in links.urls if site_of(url) != site])
        self.stats.inc_value("patterns/pages")

    @staticmethod
    def _carried(response: Response) -> Iterator[Any]:
        yield from response.meta[ITEMS_META]

    # --- a pause: mine, emit, ask for counterparts -------------------------------------------

    def _pause_when_due(self) -> list[Request]:
        """A pause after every ``every`` new pages: its requests go out with the page's output."""
        if not self.every or len(self.crawled.pages) - self._pages_mined < self.every:
            return []
        self._pages_mined = len(self.crawled.pages)
        return self.pause()

    def spider_idle(self) -> None:
        """Nothing left to fetch: mine what is new, and keep the crawl open for what that asks."""
        if len(self.crawled.pages) == self._pages_mined:
            return  # nothing new since the last pause: the crawl may end
        self._pages_mined = len(self.crawled.pages)
        requests = self.pause()
        assert self.crawler is not None and self.crawler.engine is not None
        for request in requests:
            self.crawler.engine.crawl(request)
        if requests:
            raise DontCloseSpider

    def spider_closed(self, reason: str) -> None:
        left = len(self.crawled.pages) - self._pages_mined
        if left:
            self.stats.set_value("patterns/pages_not_mined", left)
            logger.info(
                "pattern scoring: the crawl closed (%s) with %d pages not mined since the last "
                "mining (BILINGUAL_PATTERN_SCORING_EVERY)",
                reason,
                left,
            )

    def pause(self) -> list[Request]:
        """The pairs of every page seen so far (an items request of the new ones) and the
        counterpart requests of the pages left unpaired."""
        self.stats.inc_value("patterns/minings")
        knows = self.identifier.knows if self.identifier is not None else None
        round_pairs = pair_round(self.crawled, verifier=self.verifier, knows=knows)
        for reason, count in round_pairs.rejected.items():
            self.stats.set_value(f"patterns/rejected/{reason}", count)
        requests = []
        carried = items_request(self._new_items(round_pairs.pairs), None, None)
        if carried is not None:
            carried.meta[PAIRS_META] = True
            requests.append(carried)
        candidates = deep_page_candidates(
            self.crawled, round_pairs, self.counterparts_per_site, self.asked
        )
        for candidate in candidates:
            self.asked.add(candidate.candidate)
            # ranked: the counterparts of the most credible pattern first
            priority = COUNTERPART_PRIORITY - candidate.rank
            meta = {"role": COUNTERPART}
            requests.append(Request(candidate.candidate, meta=meta, priority=priority))
        self.stats.inc_value("patterns/counterparts", len(candidates))
        logger.info(
            "pattern scoring: %d pages, %d pairs, %d counterparts asked",
            len(self.crawled.pages),
            len(round_pairs.pairs),
            len(candidates),
        )
        return requests

    def _new_items(self, pairs: Iterable[UrlPair]) -> Iterator[Any]:
        for pair in pairs:
            key = frozenset((pair.source, pair.target))
            if key in self.emitted:
                continue
            self.emitted.add(key)
            self.stats.inc_value(f"patterns/pairs/{pair.method}")
            yield url_pair_item(pair)
