"""``scrapy crawl pupsniffer``: bilingual URL pairing patterns and the pairs they find (Kit & Ng
2007; Zhang, Yao, Kit 2013; Zhang et al. 2018).

    scrapy crawl pupsniffer [-a seeds=FILE|url,url] [-a site_budget=PAGES] [-a langs=any|en,fr]
        [-a rounds=1] [-a next_sites=K] [-a deep_per_site=N] -O pairs.jsonl
    scrapy crawl pupsniffer -a mode=search -a langs=en,zh-Hant -a seeds=http://www.gov.hk/

A round crawls each of its sites breadth-first within ``site_budget`` pages (robots.txt and the
per-host limits of Scrapy's settings apply), identifies the language of every page's main text,
and, once nothing is left to fetch, mines pairing patterns over all pages seen, emits the pairs
that pass the language check and the link-similarity filter (methods ``local`` and ``rescue``),
then checks the deep-page candidates of the pages left unpaired with a HEAD request, a GET when
it answers, and the soft-404 judge (method ``deep``). With ``rounds`` > 1 the ``next_sites``
external sites with the highest credibility-weighted PageRank (WPR) are crawled next.

Search mode (4.5, little prior knowledge) crawls nothing: for each seed's host it asks the search
adapter ``inurl:MARKER site:HOST`` with the source language's markers, then the domain-mode and
directory-mode queries its results suggest; each result page in the source language has the
prior patterns of each target language substituted into its URL
(``patterns.search.prior_patterns``), checked as deep pages are (method ``search``).

The research is in :mod:`bilingual_spider.patterns` (:mod:`~.patterns.crawl_round` for a round);
this module wires it to Scrapy. At the end of each round (its deep pages in), the pairs found so
far make translation groups (:mod:`~.patterns.groups`); the pairs a group implies are judged as
any pair (method ``group``). Items: a :class:`~bilingual_spider.items.UrlPairItem` per pair, a
:class:`~bilingual_spider.items.BilingualSiteItem` per site with a pair and a
:class:`~bilingual_spider.items.TranslationGroupItem` per group. Stats under ``pupsniffer/``:
``pages``, ``sites``, ``round``, ``pairs/<method>``, ``rejected/<reason>``, ``deep/<outcome>``,
``sites_bilingual``, ``soft_404_sites``, ``groups``, ``groups_of/<N>``, ``groups_conflicts``,
``groups_rejected/<reason>``.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, UsageError
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.utils.defer import deferred_from_coro
from twisted.python.failure import Failure

from bilingual_spider.commands.arguments import whole_number
from bilingual_spider.detection.detector import parse_langs
from bilingual_spider.distributed.pupsniffer_store import shared_round_store
from bilingual_spider.items import BilingualSiteItem, TranslationGroupItem, UrlPairItem
from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import UNDETERMINED, default_identifier
from bilingual_spider.language.page_language import blocks_language, main_text_blocks
from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.links.sitemaps import SiteSitemap
from bilingual_spider.middlewares.outlinks import response_page
from bilingual_spider.middlewares.sitemaps import SITEMAP_META
from bilingual_spider.patterns.alternates import Alternate, page_alternates, with_sitemap
from bilingual_spider.patterns.crawl_order import MONOLINGUAL_AFTER, WINDOW, SiteProgress
from bilingual_spider.patterns.crawl_round import (
    SIMILARITY_PATTERNS,
    CrawledSites,
    GroupPairs,
    PageRecord,
    RoundPairs,
    deep_page_candidates,
    judge_group_pairs,
    judge_pair,
    next_round_sites,
    pair_round,
    site_languages,
)
from bilingual_spider.patterns.deep_pages import (
    CandidateStatus,
    DeepCandidate,
    candidate_url_pair,
    judge_candidate,
    not_found_fingerprint,
)
from bilingual_spider.patterns.groups import has_languages
from bilingual_spider.patterns.pairing import DEEP, SEARCH, UrlPair
from bilingual_spider.patterns.round_state import (
    CHECKED,
    EMITTED,
    FOUND,
    QUERIES,
    SEEN,
    InMemoryRoundStore,
    RoundStore,
    Stage,
    StageState,
    found_pair,
    found_pair_key,
)
from bilingual_spider.patterns.search import (
    directory_mode_queries,
    domain_mode_queries,
    prior_patterns,
    query,
    search_substitutions,
    url_markers,
)
from bilingual_spider.patterns.similarity import unit_weights
from bilingual_spider.patterns.units import site_of
from bilingual_spider.patterns.verification import PairVerifier, load_verifier, page_content
from bilingual_spider.scheduler.redis_scheduler import REDELIVERED_META, holding_scheduler
from bilingual_spider.search.service import SearchService, search_page
from bilingual_spider.search.values import SearchQuery
from bilingual_spider.spiders.forward import default_or_given_seeds

logger = logging.getLogger(__name__)


class PageLinks(NamedTuple):
    """A page's followable links and the translations it names (:mod:`.alternates`)."""

    urls: list[str]
    alternates: tuple[Alternate, ...]


def _is_html(response: TextResponse) -> bool:
    """HTML or XML, or a text body that is no JSON (what Scrapy's selector reads as HTML)."""
    if isinstance(response, HtmlResponse | XmlResponse):
        return True
    return response.text.lstrip()[:1] not in ("{", "[")


MIN_LANGUAGE_SHARE = 0.6
"""A page counts for its main language when that language has this share of its main text
(the detector's ``BILINGUAL_DETECTOR_MIN_SHARE``): mixed pages count for none."""


COUNTERPART_META = "pupsniffer_counterpart_of"
"""Request meta key: the pattern that made a counterpart request."""
PAIR_FIRST_PRIORITY = 10
"""Priority of a fetched page's counterparts: asked before new pages."""
HTTP_CHECKED = (DEEP, SEARCH)
"""Methods whose target page was generated and checked over HTTP."""


def verification_of(pair: UrlPair) -> dict[str, Any]:
    """What was checked of a pair (``checks``) and, when its content was verified, the
    verifier's probability and each signal's value."""
    checks = ["langid", "similarity"]
    if pair.method in HTTP_CHECKED:
        checks.append("http")
    if pair.verification is not None:
        checks.append("content")
    return {"checks": checks, **(pair.verification or {})}


def _log_rejected(pair: UrlPair, why: str) -> None:
    """One DEBUG line per pair a check rejected (``benchmarks/pupsniffer.py``'s recall audit
    reads them)."""
    logger.debug("pupsniffer rejected %s %s %s %s", why, pair.method, pair.source, pair.target)


NOT_FOUND_URL_META = "pupsniffer_not_found_url"
"""Request meta key: a URL that cannot exist on the page's site, asked once the page has come."""


class PupSnifferSpider(scrapy.Spider):
    name = "pupsniffer"
    item_types = (UrlPairItem, BilingualSiteItem, TranslationGroupItem)
    """What it makes: their feeds are in a run directory even when empty."""
    custom_settings = {  # breadth-first within each site
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
    }

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
        self._round_pairs: dict[int, RoundPairs] = {}  # read from the store, by round
        self._emitting = 0
        self.identifier: Any = None
        self.verifier: PairVerifier | None = None
        self.pair_first = False
        self.monolingual_after = MONOLINGUAL_AFTER
        self._progress: dict[str, SiteProgress] = {}  # this process's pages of each site
        self._stopped: set[str] = set()
        self._sitemap_sites: set[str] = set()  # sites whose sitemap pages were asked for

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
        settings = crawler.settings
        spider.seed_urls = default_or_given_seeds(spider.seeds_argument, crawler)
        spider.site_budget = spider.site_budget or settings.getint(
            "BILINGUAL_PUPSNIFFER_SITE_BUDGET", 500
        )
        spider.next_sites = spider.next_sites or settings.getint(
            "BILINGUAL_PUPSNIFFER_NEXT_SITES", 20
        )
        if spider.deep_per_site is None:
            spider.deep_per_site = settings.getint("BILINGUAL_PUPSNIFFER_DEEP_PER_SITE", 50)
        spider.identifier = default_identifier()  # loaded before the crawl starts
        spider.verifier = load_verifier(settings.get("BILINGUAL_PUPSNIFFER_VERIFIER", "default"))
        spider.pair_first = settings.getbool("BILINGUAL_PUPSNIFFER_PAIR_FIRST", True)
        spider.monolingual_after = settings.getint(
            "BILINGUAL_PUPSNIFFER_MONOLINGUAL_AFTER", MONOLINGUAL_AFTER
        )
        spider.store = shared_round_store(crawler, spider.name) or InMemoryRoundStore()
        if spider.mode == "search":  # no crawl to mine: prior patterns, one stage
            spider.rounds = 1
            spider._round_pairs[1] = pair_round(CrawledSites())
        crawler.signals.connect(spider._idle, signal=signals.spider_idle)
        crawler.signals.connect(spider._request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(spider._closed, signal=signals.spider_closed)
        return spider

    def _closed(self, spider: scrapy.Spider, reason: str) -> None:
        """One closing line, as backforth's: pages, sites, pairs by method."""
        stats = self.crawler.stats.get_stats()
        methods = {
            key.rsplit("/", 1)[1]: value
            for key, value in stats.items()
            if key.startswith("pupsniffer/pairs/")
        }
        logger.info(
            "pupsniffer (%s): %d pages of %d sites, %d bilingual, %d pairs %s",
            reason,
            stats.get("pupsniffer/pages", 0),
            stats.get("pupsniffer/sites", 0),
            stats.get("pupsniffer/sites_bilingual", 0),
            sum(methods.values()),
            methods or "",
        )

    # --- crawling the sites of a round -----------------------------------------------------

    async def start(self) -> AsyncIterator[scrapy.Request]:
        if self.mode == "search":
            for url in self.seed_urls:
                self._search(urlsplit(url).netloc.lower(), first=True)
            return
        for url in self.seed_urls:
            for request in self._site_requests(url, "seed"):
                yield request

    def _site_requests(self, url: str, found_by: str) -> list[scrapy.Request]:
        """The first page of a new site and a URL that cannot exist on it (its not-found page,
        which the soft-404 judge compares deep pages with); for a site known already (several
        seeds of one site), the page alone."""
        site = site_of(url)
        if not site:
            return []
        if not self.store.first_sight(site, found_by):  # another seed of a known site: a page
            return list(self._page_requests(site, [url]))
        self.crawler.stats.inc_value("pupsniffer/sites")
        parts = urlsplit(url)
        missing = f"{parts.scheme}://{parts.netloc}/{uuid.uuid4().hex}-not-found.html"
        return [*self._page_requests(site, [url]), self._not_found_request(missing, site)]

    def _not_found_request(self, url: str, site: str) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.parse_not_found,
            errback=self.ignore_failure,
            meta={"role": "not_found", "site": site, "handle_httpstatus_all": True},
        )

    def seed_request(self, url: str) -> scrapy.Request | None:
        """A seed pushed to Redis with ``bilingual-spider seed`` (the Redis frontier calls this):
        the request of its page, which asks for the site's not-found page once it has come. None:
        nothing to request (a page already requested; in search mode, the queries are asked)."""
        if self.mode == "search":
            self._search(urlsplit(url).netloc.lower(), first=True)
            return None
        requests = self._site_requests(url, "seed")
        pages = [request for request in requests if request.meta["role"] == "page"]
        missing = [request.url for request in requests if request.meta["role"] == "not_found"]
        if not pages:
            return None
        if missing:
            pages[0].meta[NOT_FOUND_URL_META] = missing[0]
        return pages[0]

    def _pair_first_requests(
        self, site: str, url: str, language: str | None, links: PageLinks
    ) -> Iterator[scrapy.Request]:
        """The translations the page names (:mod:`.alternates`; on another host too, when its
        site is crawled already, within that site's budget) and its counterparts by the
        site's credible patterns first (they may take the whole budget), then the site's
        pending in-site pages, a few at a time (within :meth:`SiteProgress.link_budget`);
        nothing more of a site monolingual so far. Without pair-first crawling, the in-site
        pages in the order of their links."""
        inside = [link for link in links.urls if site_of(link) == site]
        if not self.pair_first:
            yield from self._page_requests(site, inside)
            return
        progress = self._progress.setdefault(site, SiteProgress(site))
        progress.add(url, language, inside, [a.language for a in links.alternates])
        named: dict[str, list[str]] = {}  # by site: a translation may be on another host
        for alternate in links.alternates:
            other = site_of(alternate.url)
            if (other == site or other in self._progress) and not (
                language and same_language(alternate.language, language)
            ):
                named.setdefault(other, []).append(alternate.url)
        for other, urls in named.items():
            for request in self._page_requests(other, urls, priority=PAIR_FIRST_PRIORITY):
                self.crawler.stats.inc_value("pupsniffer/pages_asked/named")
                yield request
        made = dict(progress.counterparts(url))
        for request in self._page_requests(site, list(made), priority=PAIR_FIRST_PRIORITY):
            self.crawler.stats.inc_value("pupsniffer/pages_asked/counterpart")
            request.meta[COUNTERPART_META] = made[request.url]
            yield request
        yield from self._next_pages(site)

    def _next_pages(self, site: str) -> Iterator[scrapy.Request]:
        """The site's pending in-site pages that may be asked for now."""
        progress = self._progress.get(site)
        if progress is None:
            return
        if progress.monolingual(self.monolingual_after):
            if site not in self._stopped:
                self._stopped.add(site)
                progress.pending.clear()
                self.crawler.stats.inc_value("pupsniffer/sites_stopped_monolingual")
            return
        budget = progress.link_budget(self.site_budget or 0)
        while progress.pending and progress.in_flight < WINDOW:
            batch = progress.next_links()
            granted = list(self._page_requests(site, batch, budget=budget))
            if not granted and len(self.store.marked(SEEN, batch)) < len(batch):
                progress.pending.extendleft(reversed(batch))  # new pages' share is used up
                break
            yield from granted

    def page_answered(self, site: str, meta: dict[str, Any], found: bool) -> None:
        """A page request of ``site`` was answered (``found``: HTTP 200) or failed: one fewer in
        flight; a counterpart's answer counts for its pattern."""
        progress = self._progress.get(site)
        if progress is None:
            return
        progress.in_flight = max(0, progress.in_flight - 1)
        if COUNTERPART_META in meta:
            progress.answered(meta[COUNTERPART_META], found)

    def _request_dropped(self, request: scrapy.Request, spider: scrapy.Spider) -> None:
        """The scheduler dropped a page request (a duplicate): none of its callbacks will come."""
        site = request.meta.get("site")
        if request.meta.get("role") == "page" and site:
            self.page_answered(site, request.meta, found=False)
            for following in self._next_pages(site):
                self._crawl(following)

    def _page_requests(
        self, site: str, urls: Iterable[str], priority: int = 0, budget: int | None = None
    ) -> Iterator[scrapy.Request]:
        budget = (self.site_budget or 0) if budget is None else budget
        progress = self._progress.get(site) if self.pair_first else None
        for url in self.store.reserve_pages(site, list(urls), budget):
            if progress is not None:
                progress.in_flight += 1
            yield self._page_request(site, url, priority)

    def _page_request(self, site: str, url: str, priority: int = 0) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.parse,
            errback=self.ignore_failure,
            priority=priority,
            meta={"role": "page", "site": site},
        )

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        """A page of a site: recorded with its language, text and links; its in-site links
        followed within the site's budget."""
        self.crawler.stats.inc_value("pupsniffer/pages")
        site = response.meta.get("site") or site_of(response.url)
        self.page_answered(site, response.meta, found=True)
        if not isinstance(response, TextResponse):
            yield from self._next_pages(site)
            return
        language, text = self._language_and_text(response)
        links = self._links(response)
        sitemap: SiteSitemap | None = response.meta.get(SITEMAP_META)  # BILINGUAL_SITEMAPS
        if sitemap is not None:
            listed = sitemap.alternates_of(response.url)
            links = PageLinks(links.urls, with_sitemap(links.alternates, listed, response.url))
        outside = [link for link in links.urls if site_of(link) != site]
        self.store.add_page(self._record(response, language, text, links), outside)
        if REDELIVERED_META in response.meta:  # its worker died while processing it
            yield from self._requested_again(site, [u for u in links.urls if site_of(u) == site])
        yield from self._pair_first_requests(site, response.url, language, links)
        if sitemap is not None and site not in self._sitemap_sites:
            self._sitemap_sites.add(site)
            yield from self._sitemap_requests(site, sitemap)
        if NOT_FOUND_URL_META in response.meta:
            yield self._not_found_request(response.meta[NOT_FOUND_URL_META], site)

    def _sitemap_requests(self, site: str, sitemap: SiteSitemap) -> Iterator[scrapy.Request]:
        """The pages of the translation groups the site's sitemap names, asked first, each
        group's together (within the site's budget); the other pages it lists join the site's
        pending pages, after the links seen so far, and the language patterns of their URLs
        make counterparts until the site's fetched pages have patterns of their own."""
        paired = [url for url in sitemap.paired_pages() if site_of(url) == site]
        for request in self._page_requests(site, paired, priority=PAIR_FIRST_PRIORITY):
            self.crawler.stats.inc_value("pupsniffer/pages_asked/sitemap")
            yield request
        progress = self._progress.get(site)
        if progress is not None:
            progress.add_sitemap_pages([url for url in sitemap.pages if site_of(url) == site])

    def _requested_again(self, site: str, urls: list[str]) -> Iterator[scrapy.Request]:
        """The pages this page's links counted in its site's budget: the worker that processed it
        first died, perhaps before it queued them. Requested again outside the budget, which
        counted them already; those queued before are dropped by the shared duplicate filter."""
        again = self.store.marked(SEEN, urls)
        for url in dict.fromkeys(urls):
            if url in again:
                self.crawler.stats.inc_value("pupsniffer/requested_again")
                yield self._page_request(site, url)

    def parse_not_found(self, response: Response) -> None:
        if 200 <= response.status < 300 and isinstance(response, TextResponse):
            self.store.set_not_found(
                response.meta["site"], not_found_fingerprint(self._language_and_text(response)[1])
            )
            self.crawler.stats.inc_value("pupsniffer/soft_404_sites")

    def ignore_failure(self, failure: Failure) -> Iterator[scrapy.Request]:
        meta = failure.request.meta  # type: ignore[attr-defined]
        role = meta.get("role", "page")
        self.crawler.stats.inc_value(f"pupsniffer/failed/{role}")
        if role == "page" and meta.get("site"):  # its site may ask for another page now
            self.page_answered(meta["site"], meta, found=False)
            yield from self._next_pages(meta["site"])

    # --- the end of a stage ------------------------------------------------------------------

    def _idle(self, spider: scrapy.Spider) -> None:
        """Nothing left to fetch: move the crawl to its next stage (mine and emit after a crawl,
        start the next round after the deep pages); it ends after the last round's deep pages.
        Of several workers, one moves the crawl on, once none of them has anything left; the
        others wait for what it queues, or for the end."""
        if self._emitting:
            raise DontCloseSpider
        if self.store.stage().stage is Stage.DONE:
            return
        if not self.store.begin_transition():
            raise DontCloseSpider  # another worker is moving the crawl on
        try:
            scheduler = holding_scheduler(self.crawler)
            if scheduler is not None and not scheduler.crawl_is_idle():
                raise DontCloseSpider  # another worker queued requests meanwhile
            state = self.store.stage()  # as the last transition left it
            if state.stage is Stage.DONE:
                return
            following = self._next_stage(state)
            if following.stage is Stage.DONE or following.round > state.round:
                self._end_round(state.round)  # its deep pages are in: its groups
            if not self.store.publish(following):
                logger.warning(
                    "pupsniffer: the stage lock expired during the move to %s; the next worker "
                    "idle redoes it (BILINGUAL_PUPSNIFFER_STAGE_LOCK_SECONDS)",
                    following,
                )
        finally:
            self.store.end_transition()
        if following.stage is not Stage.DONE or self._emitting:
            raise DontCloseSpider

    def _next_stage(self, state: StageState) -> StageState:
        if self.mode == "search":  # its one stage (queries and checks) is over
            return StageState(state.round, Stage.DONE)
        if state.stage is Stage.CRAWL:
            self._end_crawl_stage(state.round)
            return StageState(state.round, Stage.DEEP)
        if state.round < self.rounds and self._start_next_round(state.round):
            return StageState(state.round + 1, Stage.CRAWL)
        return StageState(state.round, Stage.DONE)

    def _end_crawl_stage(self, round: int) -> None:
        crawled = self.store.crawled()
        round_pairs = pair_round(crawled, verifier=self.verifier, rejected_pair=_log_rejected)
        self.store.keep_round_pairs(round, round_pairs)
        self._round_pairs = {round: round_pairs}
        stats = self.crawler.stats
        for reason, count in round_pairs.rejected.items():
            stats.inc_value(f"pupsniffer/rejected/{reason}", count)
        self._emit(self._pair_items(round_pairs.pairs))
        self._emit(self._site_items(round_pairs))
        candidates = deep_page_candidates(
            crawled, round_pairs, self.deep_per_site or 0, self.store.marked(CHECKED)
        )
        logger.info(
            "pupsniffer round %d: %d sites, %d pages, %d pairs (rejected: %s), %d deep candidates",
            round,
            len(crawled.site_pages),
            len(crawled.pages),
            len(round_pairs.pairs),
            dict(round_pairs.rejected) or "none",
            len(candidates),
        )
        for candidate in candidates:
            self._crawl(self._deep_request(candidate, "HEAD", round))
        # marked once queued: a move redone after its worker died queues them again, not never
        self.store.mark_new(CHECKED, [candidate.candidate for candidate in candidates])

    def _end_round(self, round: int) -> None:
        """The translation groups of every pair found so far (this round's patterns and named
        translations, the deep pages': :mod:`.groups`), and the pairs they imply, judged."""
        round_pairs = self._pairs_of(round)
        weights = unit_weights(round_pairs.credibility.top_patterns(SIMILARITY_PATTERNS))
        found = [*round_pairs.pairs, *map(found_pair, sorted(self.store.marked(FOUND)))]
        groups = judge_group_pairs(found, self.store.page, weights, self.verifier, _log_rejected)
        self.crawler.stats.set_value("pupsniffer/groups_conflicts", groups.conflicts)
        self._emit(self._group_items(groups))

    def _start_next_round(self, round: int) -> bool:
        round_pairs = self._pairs_of(round)
        picked = next_round_sites(self.store.crawled(), round_pairs, self.next_sites or 0)
        if not picked:
            return False
        self.crawler.stats.set_value("pupsniffer/round", round + 1)
        for external, url in picked:
            found_by = f"round {round + 1}: WPR {external.wpr:.3g} from {external.in_links} site(s)"
            # a site known already but never crawled: its first page failed, or the worker that
            # picked it died before queuing it (asked again; a duplicate filter drops the first)
            requests = self._site_requests(url, found_by) or [
                self._page_request(external.site, url)
            ]
            for request in requests:
                self._crawl(request)
        return True

    def _pairs_of(self, round: int) -> RoundPairs:
        """The pairs and credibility tables of ``round`` (mined by whichever worker ended its
        crawl stage)."""
        if round not in self._round_pairs:
            found = self.store.round_pairs(round)
            if found is None:
                raise RuntimeError(f"pupsniffer: no pairing patterns recorded for round {round}")
            self._round_pairs = {round: found}
        return self._round_pairs[round]

    def _crawl(self, request: scrapy.Request) -> None:
        self.crawler.engine.crawl(request)

    # --- search mode (4.5) --------------------------------------------------------------------

    def _search(self, site: str, first: bool) -> None:
        """``inurl:MARKER site:SITE`` for each marker of the source language."""
        texts = [query(marker, site) for marker in url_markers(self.langs[0])]
        self._submit_searches(texts, first)

    def _submit_searches(self, texts: Iterable[str], first: bool) -> None:
        service = SearchService.of(self.crawler)
        for text in self.store.mark_new(QUERIES, list(dict.fromkeys(texts))):
            service.submit(
                SearchQuery.search(text), self.search_answered, cb_kwargs={"first": first}
            )
            self.crawler.stats.inc_value("pupsniffer/search/queries")

    def search_answered(self, response: Response, first: bool = False) -> Iterator[Any]:
        """Result URLs of a query: fetched as pages in the source language; after a first
        query, the domain- and directory-mode queries its results suggest."""
        page = search_page(response)
        if page.error:
            self.crawler.stats.inc_value("pupsniffer/search/queries_failed")
            logger.warning("search %s failed for good: %s", page.query.describe(), page.error)
            return
        urls = [link.url for link in page.links if link.url.startswith(("http://", "https://"))]
        if first:
            markers = url_markers(self.langs[0])
            modes = domain_mode_queries(urls, markers) + directory_mode_queries(urls, markers)
            self._submit_searches(modes, first=False)
        for url in self.store.mark_new(SEEN, list(dict.fromkeys(urls))):
            self.crawler.stats.inc_value("pupsniffer/search/results")
            yield scrapy.Request(
                url,
                callback=self.search_result_page,
                errback=self.ignore_failure,
                meta={"role": "search_result"},
            )

    def search_result_page(self, response: Response) -> Iterator[scrapy.Request]:
        """A result page in the source language: the top prior patterns of each target
        language substituted into its URL, and checked as deep pages are."""
        if not isinstance(response, TextResponse):
            return
        language, text = self._language_and_text(response)
        self.store.add_page(self._record(response, language, text, self._links(response)))
        source = self.langs[0]
        if language is None or not same_language(language, source):
            self.crawler.stats.inc_value("pupsniffer/search/results_not_in_source_language")
            return
        for target in self.langs[1:]:
            patterns = prior_patterns(source, target)
            candidates = search_substitutions(response.url, patterns, source)
            new = set(self.store.mark_new(CHECKED, [c.candidate for c in candidates]))
            if REDELIVERED_META in response.meta:  # its first worker died, perhaps before
                new = {c.candidate for c in candidates}  # it queued them: checked again
            for candidate in candidates:
                if candidate.candidate in new:
                    yield self._deep_request(candidate, "HEAD", 1, SEARCH)

    # --- deep pages (4.3) ----------------------------------------------------------------------

    def _deep_request(
        self, candidate: DeepCandidate, method: str, round: int, found_by: str = DEEP
    ) -> scrapy.Request:
        return scrapy.Request(
            candidate.candidate,
            method=method,
            callback=self.deep_answered,
            errback=self.deep_failed,
            dont_filter=True,
            meta={
                "role": "deep",
                "candidate": candidate,
                "method": found_by,
                "round": round,
                "handle_httpstatus_all": True,
            },
        )

    def deep_answered(self, response: Response) -> Iterator[Any]:
        candidate: DeepCandidate = response.meta["candidate"]
        stats = self.crawler.stats
        if response.request is not None and response.request.method == "HEAD":
            if 200 <= response.status < 300 or response.status in (405, 501):  # or no HEAD
                yield self._deep_request(
                    candidate, "GET", response.meta["round"], response.meta.get("method", DEEP)
                )
            else:
                stats.inc_value(f"pupsniffer/deep/{CandidateStatus.MISSING.value}")
            return
        source = self.store.page(candidate.source)
        if source is None:  # kept before the candidate was made: lost with the store
            stats.inc_value("pupsniffer/deep/source_missing")
            return
        language, text = (None, "")
        if isinstance(response, TextResponse):
            language, text = self._language_and_text(response)
        outcome = judge_candidate(
            candidate.candidate,
            response.status,
            response.url,
            text,
            candidate.source,
            source.text,
            self.store.not_found(site_of(candidate.source)),
        )
        stats.inc_value(f"pupsniffer/deep/{outcome.value}")
        if outcome is not CandidateStatus.EXISTS or not isinstance(response, TextResponse):
            return
        target = self._record(response, language, text, self._links(response))
        self.store.add_page(target)
        credibility = self._pairs_of(response.meta["round"]).credibility
        weights = unit_weights(credibility.top_patterns(30))
        pair = candidate_url_pair(candidate, credibility, response.meta.get("method", DEEP))
        judged, why = judge_pair(pair, source, target, weights, self.verifier)
        if judged is None:
            stats.inc_value(f"pupsniffer/rejected/{why}")
            _log_rejected(pair, why)
            return
        self.store.mark_new(FOUND, [found_pair_key(judged)])  # for the groups
        yield from self._pair_items([judged])

    def deep_failed(self, failure: Failure) -> None:
        self.crawler.stats.inc_value(f"pupsniffer/deep/{CandidateStatus.MISSING.value}")

    # --- items -----------------------------------------------------------------------------------

    def _pair_items(self, pairs: Iterable[UrlPair], group: str = "") -> Iterator[UrlPairItem]:
        wanted: dict[str, UrlPair] = {}
        for pair in pairs:
            if self.langs and not {pair.source_language, pair.target_language} <= set(self.langs):
                self.crawler.stats.inc_value("pupsniffer/pairs_other_languages")
                continue
            wanted.setdefault("pair " + " ".join(sorted((pair.source, pair.target))), pair)
        for key in self.store.mark_new(EMITTED, list(wanted)):
            pair = wanted[key]
            self.crawler.stats.inc_value(f"pupsniffer/pairs/{pair.method}")
            yield UrlPairItem(
                source_url=pair.source,
                target_url=pair.target,
                source_lang=pair.source_language or UNDETERMINED,
                target_lang=pair.target_language or UNDETERMINED,
                pattern=str(pair.pattern),
                local_credibility=round(pair.local_credibility, 4),
                global_credibility=round(pair.global_credibility, 6),
                method=pair.method,
                verification=verification_of(pair),
                score=round(max(pair.local_credibility, pair.global_credibility), 4),
                similarity=pair.similarity,
                group=group,
            )

    def _group_items(self, groups: GroupPairs) -> Iterator[UrlPairItem | TranslationGroupItem]:
        """Each group with two of the languages asked for, once, after the pairs it implies in
        those languages (method ``group``)."""
        stats = self.crawler.stats
        for verdict in groups.verdicts:
            group = verdict.group
            if not has_languages(group, self.langs):
                continue
            yield from self._pair_items(verdict.implied, group=group.group_id)
            if not self.store.mark_new(EMITTED, [f"group {group.group_id}"]):
                continue
            stats.inc_value("pupsniffer/groups")
            stats.inc_value(f"pupsniffer/groups_of/{len(group.members)}")
            for reason, count in verdict.rejected.items():
                stats.inc_value(f"pupsniffer/groups_rejected/{reason}", count)
            yield TranslationGroupItem(
                group_id=group.group_id,
                site=site_of(group.members[0].url),
                members=group.by_language(),
                joined={
                    m.url: {"method": m.method, "with": m.partner, "pattern": m.pattern}
                    for m in group.members
                },
                pairs_found=verdict.direct,
                pairs_implied=len(verdict.implied),
                pairs_rejected=dict(verdict.rejected),
            )

    def _site_items(self, round_pairs: RoundPairs) -> Iterator[BilingualSiteItem]:
        credibility = round_pairs.credibility
        bilingual = {
            f"site {site}": (site, languages)
            for site, languages in site_languages(round_pairs.pairs).items()
            if len(languages) >= 2
        }
        for key in self.store.mark_new(EMITTED, list(bilingual)):
            site, languages = bilingual[key]
            self.crawler.stats.inc_value("pupsniffer/sites_bilingual")
            local = credibility.local.get(site, {})
            best = sorted(local, key=lambda k: -local[k])[:3]
            yield BilingualSiteItem(
                site=site,
                languages=languages,
                evidence=[f"{k} C(k,w)={local[k]:.3f}" for k in best],
                score=round(credibility.site.get(site, 0.0), 4),
                found_by=self.store.found_by(site),
            )

    def _emit(self, items: Iterable[Any]) -> None:
        """Items made outside a callback (at the end of a stage) go through the pipelines and
        feeds like any other; the crawl does not close before they are through."""
        scraper = self.crawler.engine.scraper
        for item in items:
            self._emitting += 1
            done = deferred_from_coro(scraper.start_itemproc_async(item, response=None))
            done.addBoth(self._emitted)

    def _emitted(self, result: Any) -> Any:
        self._emitting -= 1
        return result

    # --- pages -----------------------------------------------------------------------------------

    def _record(
        self, response: TextResponse, language: str | None, text: str, links: PageLinks
    ) -> PageRecord:
        """The page as pair discovery needs it; its shape and own text when pairs are
        verified by content."""
        content = page_content(response.body) if self.verifier is not None else None
        return PageRecord.of(response.url, language, text, links.urls, content, links.alternates)

    def _language_and_text(self, response: TextResponse) -> tuple[str | None, str]:
        blocks, truncated = main_text_blocks(response_page(response))
        found = blocks_language(blocks, truncated, identifier=self.identifier)
        language = None
        if not found.undetermined and found.score >= MIN_LANGUAGE_SHARE:
            language = found.lang
        logger.debug("pupsniffer page language %s %s", language or UNDETERMINED, response.url)
        return language, " ".join(blocks)

    @staticmethod
    def _links(response: TextResponse) -> PageLinks:
        """The page's links (``<a>``, ``<area>``, ``<link rel=alternate hreflang>``, a
        ``<select>`` menu's URL options) and the translations it names among them."""
        if not _is_html(response):  # a JSON or plain-text body: no links
            return PageLinks([], ())
        contexts = extract_link_contexts(response_page(response), response.url)
        links = [c.url for c in contexts if c.url.startswith(("http://", "https://"))]
        return PageLinks(links, page_alternates(contexts))
