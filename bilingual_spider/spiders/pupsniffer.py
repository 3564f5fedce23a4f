"""``scrapy crawl pupsniffer``: bilingual URL pairing patterns and the pairs they find (Kit & Ng
2007; Zhang, Yao, Kit 2013; Zhang et al. 2018).

    scrapy crawl pupsniffer [-a seeds=FILE|url,url] [-a site_budget=PAGES] [-a langs=any|en,fr]
        [-a rounds=1] [-a next_sites=K] [-a deep_per_site=N] -O pairs.jsonl
    scrapy crawl pupsniffer -a mode=search -a langs=en,zh-Hant -a seeds=http://www.gov.hk/

A round crawls each of its sites within ``site_budget`` pages, pair first
(:mod:`~bilingual_spider.patterns.pair_first`; robots.txt and Scrapy's per-host limits apply),
identifies the language of every page's main text and, once nothing is left to fetch, mines
pairing patterns over all pages seen and emits the pairs that pass the checks (methods ``local``,
``rescue``, and the translations pages name), then checks the deep-page candidates of the pages
left unpaired (method ``deep``); the pairs found so far make translation groups, whose implied
pairs are judged too (method ``group``). With ``rounds`` > 1 the ``next_sites`` external sites of
highest WPR are crawled next (:mod:`~bilingual_spider.patterns.round_driver`). Search mode (4.5)
crawls nothing: it asks the search adapter for each seed's host and checks the prior patterns'
candidates of the results (method ``search``).

With ``-s JOBDIR=DIR`` it resumes after a kill as a restarted Redis worker does: its round store
(sites, pages, budgets, marks, stage, the last round's pairs) is kept in the frontier's file and
committed with it (:class:`~bilingual_spider.state.CrawlState`); the requests in flight at the
kill come back marked redelivered, and a redelivered page asks again for the pages its links
counted in the budget. The pair-first progress of each site (pages waiting for their turn, the
site's patterns) and the sites whose sitemap pages were asked are this process's working memory,
started again by the pages that come, as a restarted worker's are; its counters start at zero.

The research is in :mod:`bilingual_spider.patterns`, its Scrapy adapters (page requests, stages,
deep pages, search mode, items: each lists its stats) in :mod:`bilingual_spider.adapters`; this
module reads pages and wires them. Items: ``UrlPairItem``, ``BilingualSiteItem``,
``TranslationGroupItem``. Stats under ``pupsniffer/``: ``pages``, ``soft_404_sites``,
``failed/<role>``, and the adapters'.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Collection, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from bilingual_spider.adapters.pupsniffer_deep import MISSING, DeepPageChecks
from bilingual_spider.adapters.pupsniffer_items import ITEMS_META, PupSnifferItems
from bilingual_spider.adapters.pupsniffer_pages import (
    NO_TEXT,
    PageLinks,
    PageText,
    page_links,
    page_record,
    page_text,
)
from bilingual_spider.adapters.pupsniffer_requests import NOT_FOUND_URL_META, PageRequests
from bilingual_spider.adapters.pupsniffer_search import PupSnifferSearch
from bilingual_spider.adapters.pupsniffer_sitemaps import SitemapPages
from bilingual_spider.adapters.pupsniffer_stages import PupSnifferStages, log_rejected
from bilingual_spider.commands.arguments import whole_number
from bilingual_spider.detection.detector import parse_langs
from bilingual_spider.items import BilingualSiteItem, TranslationGroupItem, UrlPairItem
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.patterns.crawl_round import PageRecord
from bilingual_spider.patterns.deep_pages import not_found_fingerprint
from bilingual_spider.patterns.pair_first import PairFirstOrder
from bilingual_spider.patterns.pairing import SEARCH
from bilingual_spider.patterns.round_driver import RoundDriver
from bilingual_spider.patterns.round_state import InMemoryRoundStore, RoundStore
from bilingual_spider.patterns.units import site_of
from bilingual_spider.patterns.verification import PairVerifier, load_verifier
from bilingual_spider.seeds import announced
from bilingual_spider.spiders.forward import default_or_given_seeds
from bilingual_spider.state import CrawlState
from bilingual_spider.state.request_meta import REDELIVERED_META

logger = logging.getLogger(__name__)


class PupSnifferSpider(scrapy.Spider):
    name = "pupsniffer"
    item_types = (UrlPairItem, BilingualSiteItem, TranslationGroupItem)
    """What it makes: their feeds are in a run directory even when empty."""
    carried_stats = ("pupsniffer/",)
    """Counters a crawl resumed from ``JOBDIR`` carries on from where they were last committed."""
    pairs_pages_itself = True
    """The pattern scoring middleware (middlewares/pattern_scoring.py) stays off: the rounds,
    pair-first order, deep pages and search mode of this spider pair its pages."""
    custom_settings = {  # breadth-first within each site
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "BILINGUAL_CRASH_SAFE_FRONTIER": True,  # with JOBDIR: resumed after a kill
    }
    settles_in_flight_by_url = False
    """Restarted after a kill, every request in flight is given again (redelivered): its output
    holds pairs, not pages."""

    def __init__(
        self,
        seeds: str | None = None,
        site_budget: str | int | None = None,
        langs: str = "any",
        mode: str = "crawl",
        rounds: str | int = 1,
        next_sites: str | int | None = None,
        deep_per_site: str | int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if mode not in ("crawl", "search"):
            raise UsageError(f"pupsniffer: mode={mode!r}: choose crawl or search")
        self.mode = mode
        try:
            self.site_budget = whole_number("site_budget", site_budget, minimum=1)
            self.rounds = whole_number("rounds", rounds, minimum=1) or 1
            self.next_sites = whole_number("next_sites", next_sites, minimum=0)
            self.deep_per_site = whole_number("deep_per_site", deep_per_site, minimum=0)
            self.langs = parse_langs(langs)
        except ValueError as exc:
            raise UsageError(f"pupsniffer: {exc}") from None
        if mode == "search" and len(self.langs) < 2:
            raise UsageError("pupsniffer: mode=search needs langs=SOURCE,TARGET[,TARGET...]")
        self.seeds_argument = seeds
        self.seed_urls: list[str] = []
        self.store: RoundStore = InMemoryRoundStore()
        self.identifier: Any = None
        self.verifier: PairVerifier | None = None

    def run_parameters(self) -> dict[str, Any]:
        """What this crawl is (the report's header): mode, languages, budgets, seeds."""
        return {
            "mode": self.mode,
            "languages": ",".join(self.langs) or "any",
            "site_budget": self.site_budget,
            "rounds": self.rounds,
            "seeds": len(self.seed_urls),
        }

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> PupSnifferSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        CrawlState.of(crawler, spider.name).same_run("mode", spider.mode)
        spider._configure(crawler)
        crawler.signals.connect(spider.stages.idle, signal=signals.spider_idle)
        crawler.signals.connect(spider._request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(spider._closed, signal=signals.spider_closed)
        return spider

    def _configure(self, crawler: Crawler) -> None:
        """Settings and seeds read; the research components and their adapters built."""
        settings = crawler.settings
        self.seed_urls = default_or_given_seeds(self.seeds_argument, crawler)
        budget = settings.getint("BILINGUAL_PUPSNIFFER_SITE_BUDGET")
        self.site_budget = self.site_budget or budget
        self.next_sites = self.next_sites or settings.getint("BILINGUAL_PUPSNIFFER_NEXT_SITES")
        if self.deep_per_site is None:
            self.deep_per_site = settings.getint("BILINGUAL_PUPSNIFFER_DEEP_PER_SITE")
        self.identifier = default_identifier()  # loaded before the crawl starts
        self.verifier = load_verifier(settings.get("BILINGUAL_PUPSNIFFER_VERIFIER"))
        self.store = store = CrawlState.of(crawler, self.name).rounds
        self.order = PairFirstOrder(
            store,
            self.site_budget,
            settings.getbool("BILINGUAL_PUPSNIFFER_PAIR_FIRST"),
            settings.getint("BILINGUAL_PUPSNIFFER_MONOLINGUAL_AFTER"),
            count=lambda key: crawler.stats.inc_value(f"pupsniffer/{key}"),
            languages=self.langs,
            version_sites=settings.getint("BILINGUAL_PUPSNIFFER_VERSION_SITES"),
        )
        self.sitemaps = SitemapPages(self.order)
        self.driver = RoundDriver(
            store, self.rounds, self.next_sites, self.deep_per_site, self.mode == "search",
            self.verifier, log_rejected, self.identifier.knows,
        )  # fmt: skip
        self.rounds = self.driver.rounds
        failed = self.ignore_failure
        self.requests = PageRequests(
            crawler, store, self.order, self.parse, self.parse_not_found, failed)  # fmt: skip
        self.items = PupSnifferItems(store, crawler, self.langs)
        self.deep = DeepPageChecks(
            store, self.driver, crawler, self.verifier, log_rejected, self.deep_answered,
            self.deep_failed,
        )  # fmt: skip
        self.stages = PupSnifferStages(
            crawler, self.driver, self.requests, self.deep, self.items, self.emit_items, failed
        )
        self.searching = PupSnifferSearch(
            crawler, store, self.langs, self.search_answered, self.search_result_page, failed
        )

    def _closed(self, spider: scrapy.Spider, reason: str) -> None:
        """One closing line, as backforth's: pages, sites, pairs by method."""
        stats = self.crawler.stats.get_stats()
        pairs = "pupsniffer/pairs/"
        methods = {k.rsplit("/", 1)[1]: v for k, v in stats.items() if k.startswith(pairs)}
        logger.info(
            "pupsniffer (%s): %d pages of %d sites, %d bilingual, %d pairs %s",
            reason,
            stats.get("pupsniffer/pages", 0),
            stats.get("pupsniffer/sites", 0),
            stats.get("pupsniffer/sites_bilingual", 0),
            sum(methods.values()),
            methods or "",
        )

    # --- crawling the sites of a round: adapters/pupsniffer_requests.py ------------------------

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.mode == "search":
            for url in self.seed_urls:
                self.searching.ask(urlsplit(url).netloc.lower())
            return
        for url in announced(self.seed_urls):
            for request in self.requests.site(url, "seed"):
                yield request

    def seed_request(self, url: str) -> scrapy.Request | None:
        """A seed pushed to Redis with ``bilingual-spider seed`` (the Redis frontier calls this):
        the request of its page, which asks for the site's not-found page once it has come. None:
        nothing to request (a page already requested; in search mode, the queries are asked)."""
        if self.mode == "search":
            self.searching.ask(urlsplit(url).netloc.lower())
            return None
        requests = self.requests.site(url, "seed")
        pages = [request for request in requests if request.meta["role"] == "page"]
        missing = [request.url for request in requests if request.meta["role"] == "not_found"]
        if not pages:
            return None
        if missing:
            pages[0].meta[NOT_FOUND_URL_META] = missing[0]
        return pages[0]

    def _request_dropped(self, request: scrapy.Request, spider: scrapy.Spider) -> None:
        """The scheduler dropped a page request (a duplicate): none of its callbacks will come."""
        site = request.meta.get("site")
        if request.meta.get("role") == "page" and site:
            for following in self.requests.answered(site, request.meta, found=False):
                self.stages.crawl(following)

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        """A page of a site: recorded with its language, text and links; its in-site links
        followed within the site's budget."""
        self.crawler.stats.inc_value("pupsniffer/pages")
        site = response.meta.get("site") or site_of(response.url)
        following = self.requests.answered(site, response.meta, found=True)
        if not isinstance(response, TextResponse):
            yield from following
            return
        page = self._language_and_text(response)
        language = page.language
        links = page_links(response)
        links = links._replace(alternates=self.sitemaps.alternates(response, links.alternates))
        outside = [link for link in links.urls if site_of(link) != site]
        self.store.add_page(self._record(response, page, links), outside)
        if REDELIVERED_META in response.meta:  # its worker died while processing it
            inside = [url for url in links.urls if site_of(url) == site]
            yield from self.requests.requested_again(site, inside)
            others = self.order.version_sites(site, language, links.alternates, known=True)
            for url in [*others, *([links.canonical] if links.canonical else [])]:
                yield from self.requests.site_again(url)
        for url in self.order.version_sites(site, language, links.alternates):
            self.crawler.stats.inc_value("pupsniffer/version_sites")
            yield from self.requests.site(url, f"versions of {site}")
        if links.canonical:  # the original of a print version, a mobile copy (www.)
            yield from self.requests.site(links.canonical, f"canonical of {site}")
        asks = self.order.page_came(site, response.url, language, links.urls, links.alternates)
        yield from self.requests.pages(asks)
        yield from self.requests.pages(self.sitemaps.asks(site, response))  # BILINGUAL_SITEMAPS
        if NOT_FOUND_URL_META in response.meta:
            yield self.requests.not_found(response.meta[NOT_FOUND_URL_META], site)

    def parse_not_found(self, response: Response) -> None:
        if 200 <= response.status < 300 and isinstance(response, TextResponse):
            self.store.set_not_found(
                response.meta["site"], not_found_fingerprint(self._language_and_text(response).text)
            )
            self.crawler.stats.inc_value("pupsniffer/soft_404_sites")

    def ignore_failure(self, failure: Failure) -> Iterator[scrapy.Request]:
        meta = failure.request.meta  # type: ignore[attr-defined]
        role = meta.get("role", "page")
        self.crawler.stats.inc_value(f"pupsniffer/failed/{role}")
        if role == "page" and meta.get("site"):  # its site may ask for another page now
            yield from self.requests.answered(meta["site"], meta, found=False)

    def emit_items(self, response: Response) -> Iterator[Any]:
        """The items made at the end of a stage (adapters/pupsniffer_stages.py), those no worker
        emitted yet."""
        redelivered = REDELIVERED_META in response.meta  # its former self may have lost some
        yield from self.items.new_items(response.meta[ITEMS_META], redelivered)

    def worker_restarted(self, in_output: Collection[tuple[str, ...]] | None = None) -> None:
        """Told when this crawl restarts after a kill (:mod:`~bilingual_spider.scheduler.
        restart`): the keys of the items its output holds (None: no JSON-lines output, so the
        items its former self marked emitted are not offered again: what it wrote is unknown)."""
        self.items.offer_again = in_output is not None

    # --- search mode (4.5): adapters/pupsniffer_search.py --------------------------------------

    def search_answered(self, response: Response, first: bool = False) -> Iterator[Any]:
        return self.searching.results(response, first)

    def search_result_page(self, response: Response) -> Iterator[scrapy.Request]:
        """A result page in the source language: the top prior patterns of each target
        language substituted into its URL, and checked as deep pages are."""
        if not isinstance(response, TextResponse):
            return
        page = self._language_and_text(response)
        language = page.language
        self.store.add_page(self._record(response, page, page_links(response)))
        redelivered = REDELIVERED_META in response.meta
        for candidate in self.searching.candidates(response.url, language, redelivered):
            yield self.deep.request(candidate, "HEAD", 1, SEARCH)

    # --- deep pages (4.3): adapters/pupsniffer_deep.py ----------------------------------------

    def deep_answered(self, response: Response) -> Iterator[Any]:
        if response.request is not None and response.request.method == "HEAD":
            yield from self.deep.head_answered(response)
            return
        source = self.deep.source_of(response)
        if source is None:
            return
        page = self._language_and_text(response) if isinstance(response, TextResponse) else NO_TEXT
        if not self.deep.exists(response, source, page.text) or not isinstance(
            response, TextResponse
        ):
            return
        target = self._record(response, page, page_links(response))
        self.store.add_page(target)
        judged = self.deep.judged_pair(response, source, target)
        if judged is not None:
            yield from self.items.new_items(self.items.pair_items([judged]))

    def deep_failed(self, failure: Failure) -> None:
        self.crawler.stats.inc_value(MISSING)

    # --- pages -----------------------------------------------------------------------------------

    def _record(self, response: TextResponse, page: PageText, links: PageLinks) -> PageRecord:
        return page_record(response, page, links, with_content=self.verifier is not None)

    def _language_and_text(self, response: TextResponse) -> PageText:
        return page_text(response, self.identifier, self.crawler.stats)
