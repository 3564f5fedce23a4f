"""Backlink expansion as a spider middleware: the back-and-forth crawl of Barbosa et al. (2011,
section 2.2) over the pages of any spider.

On when ``BILINGUAL_BACKLINK_EXPANSION`` is true, unless the spider declines it with a false
``expands_backlinks`` attribute (``backforth`` switches it on; its FC and FocC decline).

Each bilingual site's verdict (a :class:`~bilingual_spider.items.SiteVerdictItem` with
``bilingual``, whichever callback or errback made it) becomes a backlink query through the search
service (:mod:`bilingual_spider.search.service`; its adapter is ``BILINGUAL_SEARCH_BACKLINKS``):
the links to the page judged, or to its host (``BILINGUAL_BACKFORTH_BACKLINK_SCOPE``). Each page
of the answer becomes a backlink page request (role ``backlink``, ``meta["backlink_of"]`` the
site), once per page. The answer comes back through the spider's default callback, marked in its
``meta``: this middleware reads it, and the callback's own output for it is discarded.

A spider that runs the bipartite crawl itself (``backforth``: its classifiers order the requests,
its bipartite graph labels them) makes the backlink page requests with its
``backlink_request(link, origin)`` method. A query not answered when the crawl is killed is in
its frontier (the search service holds it there: ``JOBDIR``'s or Redis's) and is asked again.
For any other spider (``scrapy crawl forward -s
BILINGUAL_BACKLINK_EXPANSION=true``) the middleware runs the crawl over the spider's output: the
spider mixes in :class:`~bilingual_spider.adapters.site_detection.DetectorCallbacks`, each site's
first page goes to the bilingual-site detector (its probes are the only in-site fetches), the
out-of-site links of seed and backlink pages are followed, one per site not reached yet, and
forward pages' own links are not (:func:`~bilingual_spider.frontier.strategies.follows_links_of`
with OBFC's rules).

With no backlink API (``BILINGUAL_SEARCH_BACKLINKS`` is ``embedded``, the default without Moz
keys), the backlinks are the crawl's own fetched pages that link to a site: this middleware
records the links of every page the spider gets in the search service's crawl link graph
(:meth:`~bilingual_spider.search.service.SearchService.record_links`, stats
``search/crawl_graph/*``).

With several workers on Redis, a bilingual verdict dropped as written already (emitted again
after its worker died) asks its backlinks when no worker did
(:mod:`bilingual_spider.distributed.backlinks_asked`).

Stats: ``backlinks/queries``, ``backlinks/queries_asked_again`` (of those, for a verdict dropped
as written), ``backlinks/queries_failed`` (answered with an error for good),
``backlinks/requested`` (backlink page requests), ``backlinks/pages_known`` (a backlink page
requested already, for another site); when the middleware runs the crawl:
``backlinks/links_followed`` and ``backlinks/links_not_followed``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.statscollectors import StatsCollector

from bilingual_spider.adapters.site_detection import DetectorCallbacks, SiteDetection
from bilingual_spider.frontier.bipartite import BipartiteGraph, leaves_site
from bilingual_spider.frontier.strategies import RULES, Strategy, follows_links_of
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.language.tld import host_of
from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.response_page import response_page
from bilingual_spider.search import embedded
from bilingual_spider.search.calls import search_page
from bilingual_spider.search.service import SearchService
from bilingual_spider.search.values import BACKLINKS, FoundLink, SearchQuery
from bilingual_spider.state import BacklinksAsked, CrawlState
from bilingual_spider.state.memory import BacklinksAskedInMemory

logger = logging.getLogger(__name__)

BACKLINKS_OF_META = "backlinks_of"
"""Request meta key of a backlink query's answer: the bilingual site whose backlinks it holds."""
BACKLINK_OF_META = "backlink_of"
"""Request meta key of a backlink page: the bilingual site it links to."""
SCOPES = ("page", "host")
NOT_PAGES = ("api", "probe", "items")
"""Roles whose responses are no page of a site (their links are no backlinks)."""


def backlink_query(verdict: SiteVerdictItem, scope: str = "page") -> SearchQuery:
    """The backlinks of the judged page (``page``), or of its host (``host``)."""
    return backlink_query_of(verdict.url, scope)


def backlink_query_of(url: str, scope: str = "page") -> SearchQuery:
    """The backlinks of the page ``url`` (``page``), or of its host (``host``)."""
    if scope == "host":
        return SearchQuery.backlinks(host_of(url), "host")
    return SearchQuery.backlinks(url)


class BacklinkExpansionMiddleware:
    """Bilingual-site verdicts -> backlink queries -> backlink page requests.

    Parameters
    ----------
    search:
        The crawl's search service (its ``submit`` asks the backlink adapter).
    stats:
        The crawl's stats collector.
    scope:
        ``page`` or ``host``: whose backlinks are asked.
    spider:
        The spider; when it has a ``backlink_request(link, origin)`` method it makes the backlink
        page requests and runs the bipartite crawl itself, else this middleware does.
    detection:
        The detector of the sites the crawl reaches, when this middleware runs the crawl.
    asked:
        A distributed crawl's record of the sites whose backlinks were asked
        (:mod:`bilingual_spider.distributed.backlinks_asked`).
    """

    def __init__(
        self,
        search: SearchService,
        stats: StatsCollector,
        scope: str = "page",
        spider: Any = None,
        detection: SiteDetection | None = None,
        asked: BacklinksAsked | None = None,
    ) -> None:
        if scope not in SCOPES:
            raise ValueError(f"BILINGUAL_BACKFORTH_BACKLINK_SCOPE is page or host, not {scope!r}")
        self.search = search
        self.stats = stats
        self.scope = scope
        self.make_request = getattr(spider, "backlink_request", None)
        self.detection = detection
        self.asked = asked if asked is not None else BacklinksAskedInMemory()
        self.graph = BipartiteGraph()
        self.records_links = search.defaults.get(BACKLINKS) == embedded.NAME
        """The backlinks are the crawl's own pages: each page's links are recorded."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BacklinkExpansionMiddleware:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_BACKLINK_EXPANSION"):
            raise NotConfigured
        spider = crawler.spider
        if not getattr(spider, "expands_backlinks", True):
            raise NotConfigured
        detection = None
        if not hasattr(spider, "backlink_request"):
            if not isinstance(spider, DetectorCallbacks):
                raise NotConfigured(
                    f"backlink expansion needs a spider that judges sites: {spider} neither "
                    "makes backlink requests nor mixes in DetectorCallbacks"
                )
            detection = spider.bind_detection(crawler)
        middleware = cls(
            SearchService.of(crawler),
            crawler.stats,  # type: ignore[arg-type]
            scope=settings.get("BILINGUAL_BACKFORTH_BACKLINK_SCOPE"),
            spider=spider,
            detection=detection,
            asked=CrawlState.of(crawler, spider.name).backlinks_asked,
        )
        crawler.signals.connect(middleware.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(middleware.item_dropped, signal=signals.item_dropped)
        return middleware

    # --- verdicts -> queries -------------------------------------------------------------------

    def item_scraped(self, item: Any, **_: Any) -> None:
        """A bilingual site's verdict, out of the pipelines (so once per site): its backlinks
        are asked."""
        if not isinstance(item, SiteVerdictItem) or not item.bilingual:
            return
        self._ask_backlinks(item)

    def item_dropped(self, item: Any, **_: Any) -> None:
        """A bilingual site's verdict dropped as written already (a distributed crawl: emitted
        again after the worker that wrote it died): its backlinks are asked unless they were
        (that worker may have died before asking them)."""
        if not isinstance(item, SiteVerdictItem) or not item.bilingual:
            return
        if not self.asked.asked(item.site):
            self.stats.inc_value("backlinks/queries_asked_again")
            self._ask_backlinks(item)

    def _ask_backlinks(self, item: SiteVerdictItem) -> None:
        self.search.submit(
            backlink_query(item, self.scope),
            meta={"role": "api", BACKLINKS_OF_META: item.site},
        )
        self.stats.inc_value("backlinks/queries")
        self.asked.mark(item.site)  # with Redis: held there now (distributed/backlinks_asked)

    # --- the spider's output -------------------------------------------------------------------

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        if BACKLINKS_OF_META in response.meta:
            yield from self._backlink_requests(response)
            return
        self._record_links(response)
        if self.detection is None:
            yield from result
            return
        yield from self._bipartite(response, list(result))

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        if BACKLINKS_OF_META in response.meta:
            for request in self._backlink_requests(response):
                yield request
            return
        self._record_links(response)
        if self.detection is None:
            async for output in result:
                yield output
            return
        for output in self._bipartite(response, [output async for output in result]):
            yield output

    def _record_links(self, response: Response) -> None:
        """A page's links, in the crawl link graph that answers the embedded backlinks."""
        if not self.records_links or response.meta.get("role") in NOT_PAGES:
            return
        if not isinstance(response, TextResponse):
            return
        contexts = extract_link_contexts(response_page(response), response.url)
        self.search.record_links(response.url, [(c.url, c.anchor) for c in contexts])

    # --- answers -> backlink pages -------------------------------------------------------------

    def _backlink_requests(self, response: Response) -> Iterator[Request]:
        """The backlink pages of the bilingual site a backlink answer was asked for."""
        origin = response.meta[BACKLINKS_OF_META]
        page = search_page(response)
        if page.error:
            self.stats.inc_value("backlinks/queries_failed")
            # the API's health (down, failing often) is the search service's WARNING to say
            logger.log(
                logging.INFO if page.error_reported else logging.WARNING,
                "backlinks of %s failed for good: %s",
                origin or page.query.target,
                page.error,
            )
            return
        for link in page.links:
            request = self._backlink_request(link, origin)
            if request is None:
                self.stats.inc_value("backlinks/pages_known")
                continue
            self.stats.inc_value("backlinks/requested")
            yield request

    def _backlink_request(self, link: FoundLink, origin: str) -> Request | None:
        if self.make_request is not None:
            return self.make_request(link, origin)
        if not self.graph.claim_backlink_page(link.url):
            return None
        return Request(
            link.url,
            meta={"role": "backlink", BACKLINK_OF_META: origin},
            dont_filter=True,  # a backlink page may be a page the crawl saw already
        )

    # --- the bipartite crawl, for a spider that does not run it --------------------------------

    def _bipartite(self, response: Response, outputs: list[Any]) -> Iterator[Any]:
        """The spider's output for a page, kept to the bipartite graph, then the detector's
        requests (or verdict) for the page's site."""
        assert self.detection is not None
        role = response.meta.get("role", "forward")
        if role == "probe":
            yield from outputs
            return
        site_of = self.detection.site_of
        page_site = site_of(response.url)
        self.graph.reach(page_site)
        follows = follows_links_of(role, RULES[Strategy.OBFC])
        for output in outputs:
            if not isinstance(output, Request):
                yield output
            elif follows and self._first_link_to_a_site(output.url, page_site):
                self.stats.inc_value("backlinks/links_followed")
                yield output.replace(meta={**output.meta, "role": "forward"})
            else:
                self.stats.inc_value("backlinks/links_not_followed")
        # a backlink page was fetched for its links: its own site is judged from it alone
        yield from self.detection.examine(response, climb=role != "backlink")

    def _first_link_to_a_site(self, url: str, page_site: str) -> bool:
        """Whether ``url`` leaves the page's site for a site not reached yet (then reached)."""
        assert self.detection is not None
        site = self.detection.site_of(url)
        return leaves_site(url, site, page_site) and self.graph.reach(site)
