"""``scrapy crawl backforth``: back-and-forth crawling (Barbosa et al. 2011, sections 2.2-3).

    scrapy crawl backforth [-a seeds=FILE|url,url] [-a langs=any|en,es] [-a strategy=cobfc]
        [-a budget=PAGES] [-a min_likelihood=0.8] [-a learning_interval=PAGES] -O sites.jsonl

Every site reached goes through the bilingual-site detector (its probes are its only in-site
fetches, one verdict per site). OBFC and COBFC ask the backlinks of each bilingual site
(:mod:`bilingual_spider.middlewares.backlink_expansion` asks :meth:`BackForthSpider.
backlink_request` for each backlink page); a backlink page's out-of-site links become forward
requests, whose own links are not followed. FC follows the out-of-site links of every page in
random order. COBFC orders the frontier with the Backlink and Forward-Link classifiers,
retrained every ``learning_interval`` pages (:mod:`bilingual_spider.adapters.link_learning`);
requests scored by an older model are re-scored lazily. The research is in
:mod:`bilingual_spider.frontier`; this module wires it to Scrapy. What the crawl keeps (page
budget, how sites were found, the detector's sites; with ``REDIS_URL`` shared by every worker,
COBFC's examples and models too; with ``JOBDIR``, in the frontier's file) is its
:class:`~bilingual_spider.state.CrawlState`'s. **Resumed after a kill** (``-s JOBDIR=DIR``, or a
Redis worker restarted under its name): the requests in flight come back marked redelivered and
the stores say what was done (docs/crawl_state.md); the bipartite graph starts empty.

Items: a :class:`~bilingual_spider.items.SiteVerdictItem` per site judged and a
:class:`~bilingual_spider.items.BilingualSiteItem` per bilingual site, with how it was found.
Stats: ``backforth/pages/<role>``, ``backforth/pages_crawl_wide`` (with a budget; with Redis,
every worker's), ``backforth/pages_after_budget`` (counted, not processed: the page that spent
the budget and those in flight then), ``backforth/sites_bilingual``, ``backforth/harvest_rate``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured, UsageError
from scrapy.http import Response, TextResponse
from twisted.python.failure import Failure

from bilingual_spider.adapters.link_learning import LinkLearning
from bilingual_spider.adapters.page_count import PageCount
from bilingual_spider.adapters.site_detection import DetectorCallbacks
from bilingual_spider.adapters.site_origins import SiteOrigins
from bilingual_spider.commands.arguments import number_between, whole_number
from bilingual_spider.detection.detector import parse_langs
from bilingual_spider.extensions.fetch_outcomes import PAGES_KEY
from bilingual_spider.frontier.bipartite import (
    BACKLINK,
    FORWARD,
    BipartiteGraph,
    LinkExample,
    leaves_site,
)
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier, neighbourhood_tokens
from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierScorer, link_priority
from bilingual_spider.frontier.strategies import RULES, follows_links_of, parse_strategy
from bilingual_spider.frontier.topic import ON_TOPIC, default_topic_classifier, page_document
from bilingual_spider.items import BilingualSiteItem, SiteVerdictItem
from bilingual_spider.language.page_language import main_text_blocks
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts
from bilingual_spider.middlewares.backlink_expansion import BACKLINK_OF_META, SCOPES
from bilingual_spider.response_page import response_page
from bilingual_spider.search.service import SearchService
from bilingual_spider.search.values import BACKLINKS as BACKLINKS_KIND
from bilingual_spider.search.values import FoundLink
from bilingual_spider.seeds import announced
from bilingual_spider.spiders.forward import default_or_given_seeds
from bilingual_spider.state import CrawlState, PageBudget
from bilingual_spider.state.memory import FoundByInMemory
from bilingual_spider.state.request_meta import DUPLICATE_KEY_META

logger = logging.getLogger(__name__)

FETCHED_ROLES = ("seed", "backlink", "forward", "probe")
"""Roles whose pages count against the page budget (API answers do not)."""
VERDICT_READING_PAGES = 20
"""With Redis, every so many of its pages a worker reads the verdicts the other workers gave
since it last looked (:meth:`BackForthSpider._read_other_workers_verdicts`)."""


class BackForthSpider(DetectorCallbacks, scrapy.Spider):
    name = "backforth"
    item_types = (SiteVerdictItem, BilingualSiteItem)
    """What it makes: their feeds are in a run directory even when empty."""
    custom_settings = {
        "SCHEDULER_PRIORITY_QUEUE": "bilingual_spider.scheduler.rescoring_queue."
        "RescoringPriorityQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "DEPTH_PRIORITY": 0,
        "BILINGUAL_BACKLINK_EXPANSION": True,  # for the strategies that expand backlinks
        "BILINGUAL_CRASH_SAFE_FRONTIER": True,  # with JOBDIR: resumed after a kill
    }
    carried_stats = ("backforth/", "detector/", "backlinks/", "frontier/")
    """Counters a crawl resumed from ``JOBDIR`` carries on from where they were last committed."""
    settles_in_flight_by_url = False
    """Read by the Redis scheduler when this worker restarts: every request its former self had
    in flight is redelivered (its work redone from the shared state; the items already written
    are dropped by the crawl-wide duplicate filter), none taken as done because its URL is in
    the output (a page's verdict there says nothing of the bilingual-site record after it)."""

    def __init__(
        self,
        seeds: str | None = None,
        langs: str = "any",
        strategy: str = "cobfc",
        budget: str | int | None = None,
        min_likelihood: str | float | None = None,
        learning_interval: str | int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        try:
            self.strategy = parse_strategy(strategy)
            self.langs = parse_langs(langs)
            self.budget = whole_number("budget", budget, minimum=1)
            self.min_likelihood = number_between("min_likelihood", min_likelihood, 0.0, 1.0)
            self.learning_interval = whole_number("learning_interval", learning_interval, 1)
        except ValueError as exc:
            raise UsageError(f"backforth: {exc}") from None
        self.rules = RULES[self.strategy]
        self.expands_backlinks = self.rules.expands_backlinks
        """Read by the backlink expansion middleware: FC and FocC decline it."""
        self.seeds_argument = seeds
        self.seed_urls: list[str] = []
        self.graph = BipartiteGraph()
        self.learning = LinkLearning({})
        self.topic_classifier: Any = None
        self.page_count: PageCount | None = None
        self.page_budget: PageBudget | None = None
        """Read by the Redis scheduler: the spider counts its pages against it, by request."""
        self.shares_requests = False
        """With Redis: the workers' requests meet in one queue and one duplicate filter."""
        self.origins = SiteOrigins(FoundByInMemory(), lambda url: url)
        """How each site was reached, for whichever worker judges it (the crawl state's)."""
        self._rng = random.Random(0)
        self._verdict_cursor = 0  # verdicts of the crawl read so far (with Redis)

    def run_parameters(self) -> dict[str, Any]:
        """What this crawl is (the report's header): strategy, languages, budget, seeds."""
        return {
            "strategy": self.strategy.value,
            "languages": ",".join(self.langs) or "any",
            "budget": self.budget,
            "seeds": len(self.seed_urls),
        }

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> BackForthSpider:
        settings = crawler.settings
        if kwargs.get("min_likelihood") is not None:
            settings.set("BILINGUAL_DETECTOR_MIN_LIKELIHOOD", kwargs["min_likelihood"], "spider")
        if kwargs.get("langs"):  # else BILINGUAL_DETECTOR_LANGS (any two, as detect, pupsniffer)
            settings.set("BILINGUAL_DETECTOR_LANGS", kwargs["langs"], "spider")
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.seed_urls = default_or_given_seeds(spider.seeds_argument, crawler)
        state = CrawlState.of(crawler, spider.name)
        state.same_run("strategy", spider.strategy.value)
        spider.shares_requests = state.shares_requests
        spider.budget = spider.budget or settings.getint("BILINGUAL_BACKFORTH_BUDGET") or None
        if spider.budget is not None:
            spider.page_budget = state.page_budget(spider.budget)
        spider.page_count = PageCount(crawler, "backforth", spider.page_budget)
        spider.learning_interval = spider.learning_interval or settings.getint(
            "BILINGUAL_BACKFORTH_LEARNING_INTERVAL"
        )
        scope = settings.get("BILINGUAL_BACKFORTH_BACKLINK_SCOPE")
        if scope not in SCOPES:
            raise UsageError(f"BILINGUAL_BACKFORTH_BACKLINK_SCOPE is page or host, not {scope!r}")
        spider._rng = random.Random(settings.getint("BILINGUAL_BACKFORTH_SEED"))
        if spider.rules.topic_focus:  # FocC: the page classifier + a link classifier
            topic = settings.get("BILINGUAL_FOCC_TOPIC")
            spider.topic_classifier = default_topic_classifier(topic)
        spider.learning = LinkLearning.for_strategy(
            spider.rules, spider.learning_interval, settings, state
        )
        spider.bind_detection(crawler)
        spider.origins = SiteOrigins(state.found_by, spider.detection.site_of)
        crawler.signals.connect(spider.page_count.close_if_spent, signal=signals.spider_opened)
        crawler.signals.connect(spider._request_dropped, signal=signals.request_dropped)
        return spider

    # --- start and pages ----------------------------------------------------------------------

    async def start(self) -> AsyncIterator[Any]:
        for item in self._judged(self.replayed_verdicts):  # a restart's, not in the output
            yield item
        for url in announced(self.seed_urls):
            request = self.seed_request(url)
            if request is not None:
                yield request

    def seed_request(self, url: str) -> scrapy.Request | None:
        """The request of a seed (None: its site was reached already). Also called by the Redis
        frontier for seeds pushed with ``bilingual-spider seed``. A crawl restarted after a kill
        asks for them again: the frontier's duplicate filter drops those it had."""
        site = self.detection.site_of(url)
        if not self.graph.reach(site):
            return None
        self.origins.reached(site, "seed")
        return self._request(url, "seed", errback=self.first_page_failed)

    def parse(self, response: Response) -> Iterator[Any]:
        role = response.meta.get("role", "forward")
        self._count_page(role, response.meta)
        self.origins.first_page(response.meta, response.url)
        on_topic = self._on_topic(response) if self.rules.topic_focus else True
        contexts = None  # extracted once, for the links followed and the detector alike
        if role == "backlink":
            contexts = self._contexts(response)
            site = self.detection.site_of(response.url)
            if self.graph.reach(site):  # a backlink page's own site is judged too
                how = f"backlink page of {response.meta.get(BACKLINK_OF_META)}"
                self.origins.reached(site, how)
            # its verdict may come to another worker; a site this worker reached before (a
            # link whose request another worker's duplicate made drop) is noted here too
            self.origins.share(site)
            yield from self._forward_links(response, contexts)
        elif follows_links_of(role, self.rules, on_topic):
            contexts = self._contexts(response)
            yield from self._out_links(response, contexts, role)
        # a backlink page was fetched for its links: its own site is judged from it alone (the
        # fallback ladder climbs for the sites the crawl lands on: seeds and forward links)
        climb = role != "backlink"
        yield from self._judged(self.detection.examine(response, contexts=contexts, climb=climb))

    def first_page_failed(self, failure: Failure) -> Iterator[Any]:
        meta = failure.request.meta  # type: ignore[attr-defined]
        self._count_page(meta.get("role", "forward"), meta)
        self.origins.first_page(meta, failure.request.url)  # type: ignore[attr-defined]
        yield from self._judged(self.detection.first_page_failed(failure))

    def backlink_page_failed(self, failure: Failure) -> Iterator[Any]:
        self._count_page("backlink", failure.request.meta)  # type: ignore[attr-defined]
        self.crawler.stats.inc_value("backforth/backlink_pages_failed")
        return iter(())

    def detector_page(self, meta: dict[str, Any], outputs: Iterator[Any]) -> Iterator[Any]:
        self._count_page("probe", meta)  # a probe or a home page, answered or failed
        yield from self._judged(outputs)

    def _on_topic(self, response: Response) -> bool:
        """FocC: is the page on the topic? Also teaches the link classifier whether the link
        that led here was worth following."""
        text = ""
        if isinstance(response, TextResponse):
            text = " ".join(main_text_blocks(response_page(response))[0])
        score = float(self.topic_classifier.predict_proba([page_document(response.url, text)])[0])
        on_topic = score >= ON_TOPIC
        self.crawler.stats.inc_value(f"backforth/focc/pages_{'on' if on_topic else 'off'}_topic")
        tokens = response.meta.get(FRONTIER_META, {}).get("tokens")
        if tokens:
            self.learning.add_example(FORWARD, tokens, on_topic)
        return on_topic

    # --- the bipartite graph --------------------------------------------------------------------

    def _forward_links(self, response: Response, contexts: list[LinkContext]) -> Iterator[Any]:
        """A backlink page: its out-of-site links become forward requests."""
        page_site = self.detection.site_of(response.url)
        out = self._out_of_site(contexts, page_site)
        tokens = response.meta.get(FRONTIER_META, {}).get("tokens", ())
        # relevant: it links to bilingual sites *besides* the one whose backlinks gave it
        origin = response.meta.get(BACKLINK_OF_META)
        others = [site for c in out if (site := self.detection.site_of(c.url)) != origin]
        self._learn_from(self.graph.add_backlink_page(response.url, tokens, others))
        for context in out:
            yield from self._forward_request(context, found_by=f"forward link of {response.url}")

    def _out_links(
        self, response: Response, contexts: list[LinkContext], role: str
    ) -> Iterator[Any]:
        """FC, FocC, and seed pages: out-of-site links of a page, as forward requests."""
        page_site = self.detection.site_of(response.url)
        for context in self._out_of_site(contexts, page_site):
            yield from self._forward_request(context, found_by=f"{role} link of {response.url}")

    def _forward_request(self, context: LinkContext, found_by: str) -> Iterator[scrapy.Request]:
        site = self.detection.site_of(context.url)
        if self.graph.reached(site):  # one request per site: the features of the first link
            return
        tokens = neighbourhood_tokens(context) if self.classifiers else ()
        self.graph.reach(site, tokens)
        self.origins.reached(site, found_by)
        yield self._request(context.url, FORWARD, tokens, errback=self.first_page_failed)

    def _out_of_site(self, contexts: list[LinkContext], page_site: str) -> list[LinkContext]:
        seen: set[str] = set()
        kept = []
        for context in contexts:
            site = self.detection.site_of(context.url)
            if site not in seen and leaves_site(context.url, site, page_site):
                seen.add(site)
                kept.append(context)
        return kept

    # --- verdicts and backlinks -----------------------------------------------------------------

    def _judged(self, outputs: Iterable[Any]) -> Iterator[Any]:
        for output in outputs:
            yield output
            if isinstance(output, SiteVerdictItem):
                yield from self._on_verdict(output)

    def _on_verdict(self, verdict: SiteVerdictItem) -> Iterator[Any]:
        self._learn_from(self.graph.judge(verdict.site, verdict.bilingual))
        # noted by the worker that fetched its first page (with Redis, most often another)
        found_by = self.origins.judged(verdict.site, verdict.bilingual)
        if not verdict.bilingual:
            return
        self.crawler.stats.inc_value("backforth/sites_bilingual")
        yield BilingualSiteItem(
            site=verdict.site,
            languages=list(verdict.languages),
            evidence=[e["url"] for e in verdict.evidence if e.get("ok")],
            score=float(verdict.best_score or 0.0),
            found_by=found_by,
        )

    def backlink_request(self, link: FoundLink, origin: str) -> scrapy.Request | None:
        """The request of a backlink page of the bilingual site ``origin`` (the backlink
        expansion middleware asks); None when the page was requested already."""
        if not self.graph.claim_backlink_page(link.url):
            return None
        context = LinkContext(link.url, page_url=link.target or link.url, anchor=link.title)
        tokens = neighbourhood_tokens(context) if self.rules.link_classifiers else ()
        request = self._request(link.url, BACKLINK, tokens, errback=self.backlink_page_failed)
        request.meta[BACKLINK_OF_META] = origin
        return request

    # --- learning -------------------------------------------------------------------------------

    def _request_dropped(self, request: scrapy.Request, spider: scrapy.Spider) -> None:
        """The scheduler dropped a request as a duplicate (with Redis: another worker requested
        the site first): a forward link dropped is not followed, and labels nothing here."""
        if request.meta.get("role") == FORWARD:
            self.graph.not_followed(self.detection.site_of(request.url))

    def _read_other_workers_verdicts(self) -> None:
        """With Redis, a site is judged by whichever worker takes its last probe, often not the
        one that followed a link to it or fetched a backlink page linking to it: the verdicts
        the other workers gave since this worker last looked label those links here (and the
        sites judged are not requested again from this worker)."""
        store = self.detection.store
        verdicts, self._verdict_cursor = store.verdicts_since(self._verdict_cursor)
        for site, bilingual in verdicts:
            if site in self.graph.verdicts:
                continue  # judged here
            self.origins.forget(site)
            self._learn_from(self.graph.judge(site, bilingual))
            self.crawler.stats.inc_value("backforth/verdicts_of_other_workers")

    def _learn_from(self, examples: Iterable[LinkExample]) -> None:
        """COBFC's labels from the bipartite graph (FocC labels its links by topic instead)."""
        if self.rules.link_classifiers:
            self.learning.learn_from(examples)

    @property
    def classifiers(self) -> dict[str, OnlineLinkClassifier]:
        return self.learning.classifiers

    @property
    def frontier_scorer(self) -> FrontierScorer:
        """Read by the re-scoring queues (scheduler/rescoring_queue.py, leased_scheduler.py)."""
        return self.learning.scorer

    # --- helpers --------------------------------------------------------------------------------

    def _request(
        self, url: str, role: str, tokens: Iterable[str] = (), errback: Any = None
    ) -> scrapy.Request:
        priority, tag = self.frontier_scorer.tag(role, tuple(tokens))
        if self.rules.random_order and role == FORWARD:
            priority = link_priority(self._rng.random())
        meta = {"role": role, FRONTIER_META: tag.to_meta()}
        if role in (FORWARD, "seed"):  # one a site: across workers too (this graph's is local)
            site = self.detection.site_of(url)
            meta[DUPLICATE_KEY_META] = (url, f"site {site}")
            meta.update(self.origins.meta(site))
        # a backlink page may be a page the crawl saw already: never filtered by its URL; with
        # Redis, one a URL across workers by its own key (a hub is a backlink page of many
        # sites, judged by several workers), as this graph's claim makes it one in this one
        filtered = role != BACKLINK or self.shares_requests
        if role == BACKLINK and self.shares_requests:
            meta[DUPLICATE_KEY_META] = (url, f"backlink page {url}")
        return scrapy.Request(
            url,
            callback=self.parse,
            errback=errback,
            priority=priority,
            meta=meta,
            dont_filter=not filtered,
        )

    def _contexts(self, response: Response) -> list[LinkContext]:
        if not isinstance(response, TextResponse):
            return []
        around_words = getattr(self.detection.scorer, "around_words", 10)
        return extract_link_contexts(response_page(response), response.url, around_words)

    @property
    def pages(self) -> int:
        assert self.page_count is not None
        return self.page_count.pages

    @property
    def sites_found(self) -> int:
        assert self.page_count is not None
        return self.page_count.sites_found

    def _count_page(self, role: str, meta: dict[str, Any]) -> None:
        """A page (its response or failure) counted, then charged to the budget (the crawl
        closes once it is spent: :mod:`~bilingual_spider.adapters.page_count`)."""
        assert self.page_count is not None
        self.page_count.count(role)
        self.learning.page_counted(self.pages, self.sites_found, self.crawler.stats)
        if self.pages % VERDICT_READING_PAGES == 0:
            self._read_other_workers_verdicts()
        self.page_count.charge(meta)

    def progress_line(self, minutes: float) -> str:
        """The crawl so far in one line (logged by :mod:`~bilingual_spider.extensions.
        progress_line` every ``BILINGUAL_PROGRESS_INTERVAL`` seconds and at the end)."""
        stats = self.crawler.stats
        not_judged = stats.get_value("detector/sites_not_judged", 0)
        rate = self.sites_found / self.pages if self.pages else 0.0
        return (
            f"backforth {self.strategy.value}: {self.pages} pages "
            f"({stats.get_value(PAGES_KEY, 0)} fetched), {self.sites_found} bilingual sites, "
            f"harvest rate {rate:.3f}, {len(self.graph.verdicts) - not_judged} sites judged, "
            f"{not_judged} could not be ({minutes:.1f} min){self._backlinks_unavailable()}"
        )

    def _backlinks_unavailable(self) -> str:
        """``; backlinks unavailable: ...`` while the backlink API is down (the crawl goes on
        with forward links and probes), else ""."""
        if not self.rules.expands_backlinks:
            return ""
        try:
            reason = SearchService.of(self.crawler).unavailable(BACKLINKS_KIND)
        except NotConfigured:
            return ""
        if reason is None:
            return ""
        self.crawler.stats.set_value("backforth/backlinks_unavailable", reason)
        return f"; backlinks unavailable: {reason}"
