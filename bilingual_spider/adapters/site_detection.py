"""The bilingual-site detector in a crawl: Scrapy requests, callbacks and stats around the pure
:class:`~bilingual_spider.detection.detector.BilingualSiteDetector`.

A spider that judges sites mixes in :class:`DetectorCallbacks`, builds a :class:`SiteDetection`
with :meth:`SiteDetection.from_crawler`, and hands it each site's first page::

    def parse(self, response):
        for output in self.detection.examine(response):
            yield output  # probe requests, then (later) one SiteVerdictItem per site

Probes go before everything else (``BILINGUAL_DETECTOR_PROBE_PRIORITY``); their answers and
failures come back through the spider's ``detector_probe`` / ``detector_probe_failed`` methods
(spider methods, so that requests survive a disk or Redis queue). Per-site state lives in a
:class:`~bilingual_spider.detection.store.SiteStore`. Stats: ``detector/sites``,
``detector/sites_bilingual``, ``detector/sites_monolingual``, ``detector/sites_no_candidates``,
``detector/first_page_failed``, ``detector/sites_already_judged``, ``detector/probes``,
``detector/probes_failed`` (and ``detector/probes_failed/<why>``), ``detector/probes_late``,
``detector/pages``, ``detector/links_scored``, ``detector/sites_unfinished``,
``detector/probes_reissued``, ``detector/verdicts_replayed``, ``detector/claims_taken_over``,
``detector/home_pages_asked`` (``BILINGUAL_DETECTOR_START=home``: a site judged from its home
page, asked for when another of its pages came first), ``detector/ladder/url_siblings`` and
``detector/ladder/ancestors`` (pages the fallback ladder asked for when the first page said
nothing, see
:mod:`bilingual_spider.detection.ladder`), ``detector/ladder/soft_404`` (a URL sibling that
answered with the page itself or a redirect to the home page), ``detector/ladder/ancestors_skipped``
(an ancestor page that failed, ``HTTP 404`` most often: the climb goes on above it),
``detector/second_looks`` (a second page of a language whose first page behind a link naming it
showed another language, ``BILINGUAL_DETECTOR_SECOND_LOOK``), ``detector/other_sites`` (a
link of the first page naming a language on another site, ``BILINGUAL_DETECTOR_OTHER_SITES``).

**A worker that died mid-way** (a distributed crawl): the request it was processing comes back
to another worker marked as redelivered (``REDELIVERED_META``, the dead worker's name). The
site's state in the store may then be ahead of what was queued (state saved, probes not queued
yet; verdict recorded, its item and what follows it not emitted yet). So a redelivered first
page or probe of a site under way asks the state's pending probes again, whoever saved the state
last (the dead worker may have queued one probe of a batch and died; another worker recorded
that probe's answer since), and when the dead worker recorded the site's verdict, a redelivered
request emits it again. That is at least once: if the dead worker had queued them after all, a
probe is fetched twice and a verdict emitted twice (both counted). When the dead worker had
claimed the site and saved nothing of it yet, the redelivered request takes its claim over and
begins the site afresh (``detector/claims_taken_over``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import replace
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
)
from scrapy.http import Response, TextResponse
from scrapy.settings import BaseSettings
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.statscollectors import StatsCollector
from scrapy.utils.misc import load_object
from twisted.internet.error import (
    ConnectError,
    ConnectionLost,
    DNSLookupError,
    TCPTimedOutError,
    TimeoutError,
)
from twisted.python.failure import Failure

from bilingual_spider.detection.detector import (
    OTHER_SITE,
    SECOND_LOOK,
    BilingualSiteDetector,
    DetectionState,
    DetectorConfig,
    LinkScore,
    ProbeResult,
    SiteVerdict,
    Step,
    parse_langs,
    probe_able_from,
    same_site,
    score_links,
)
from bilingual_spider.detection.ladder import ANCESTORS, URL_SIBLINGS
from bilingual_spider.detection.store import (
    ConcurrentUpdate,
    InMemorySiteStore,
    SiteJudged,
    SiteStore,
)
from bilingual_spider.html_page import html_lang
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.language.page_language import main_text_blocks
from bilingual_spider.language.tld import host_of
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts
from bilingual_spider.links.features import labelled_language
from bilingual_spider.middlewares.outlinks import response_page
from bilingual_spider.middlewares.sitemaps import SITEMAP_META
from bilingual_spider.patterns.crawl_round import declared_language
from bilingual_spider.patterns.deep_pages import CandidateStatus, judge_candidate
from bilingual_spider.patterns.pair_language import BLOCK_SEPARATOR
from bilingual_spider.response_page import LINKED_LANGUAGE_META, SITE_LANGUAGES_META
from bilingual_spider.state import CrawlState
from bilingual_spider.state.request_meta import REDELIVERED_META

logger = logging.getLogger(__name__)

SITE_KEYS = ("host", "url")
STARTS = ("page", "home")
HOME_META = "detector_home_of"
"""Request meta key: the request is the home page of this site, to judge it from."""


class LinkScorer(Protocol):
    """Scores the links of a page (the Link Predictor over the page's link contexts)."""

    def score(self, html: str, page_url: str) -> list[LinkScore]: ...


class PredictorLinkScorer:
    """The links of a page (:func:`bilingual_spider.links.contexts.extract_link_contexts`) scored
    by a Link Predictor.

    Parameters
    ----------
    predictor:
        A fitted ``LinkPredictor`` (anything with ``predict_proba(contexts)``).
    around_words:
        Words of text on each side of a link that make its "around" context.
    """

    def __init__(self, predictor: Any, around_words: int = 10) -> None:
        self.predictor = predictor
        self.around_words = around_words

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> PredictorLinkScorer:
        """``BILINGUAL_DETECTOR_MODEL``: a model saved by ``LinkPredictor.save`` (``.npz``);
        unset: the shipped ``models/link_predictor.npz``."""
        from bilingual_spider.detection.link_predictor import LinkPredictor, default_link_predictor

        path = settings.get("BILINGUAL_DETECTOR_MODEL")
        predictor = LinkPredictor.load(path) if path else default_link_predictor()
        return cls(predictor, settings.getint("BILINGUAL_DETECTOR_AROUND_WORDS"))

    def score(
        self, html: str, page_url: str, contexts: Sequence[LinkContext] | None = None
    ) -> list[LinkScore]:
        """Scores of the page's links; ``contexts``: the page's link contexts when the caller
        extracted them already with the same ``around_words``."""
        if contexts is None:
            contexts = extract_link_contexts(html, page_url, self.around_words)
        return score_links(contexts, self.predictor)


SITEMAP_LINK_SCORE = 1.0
"""The score of a translation the site's sitemap names for the first page: the site says so, as
surely as the page's own ``hreflang`` would."""


def sitemap_link_scores(response: Response) -> list[LinkScore]:
    """The translations the site's sitemap names for the page (``BILINGUAL_SITEMAPS``:
    :mod:`bilingual_spider.middlewares.sitemaps`), as links of it with their language as hint;
    none without a sitemap."""
    sitemap = response.meta.get(SITEMAP_META)
    if sitemap is None:
        return []
    named = sitemap.alternates_of(response.url)
    return [LinkScore(url, SITEMAP_LINK_SCORE, language) for language, url in named]


def home_url_of(url: str) -> str:
    """The home page of the host of ``url``: ``scheme://host/``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.lower(), "/", "", ""))


def site_key_of(url: str, site_key: str = "host") -> str:
    """The site ``url`` belongs to: its host, or (``site_key="url"``) the URL without fragment."""
    if site_key == "url":
        parts = urlsplit(url)
        path = parts.path or "/"
        return urlunsplit((parts.scheme, parts.netloc.lower(), path, parts.query, ""))
    return host_of(url)


def detector_config(settings: BaseSettings) -> DetectorConfig:
    """The :class:`DetectorConfig` the ``BILINGUAL_DETECTOR_*`` settings describe."""
    max_probes = settings.get("BILINGUAL_DETECTOR_MAX_PROBES")
    return DetectorConfig(
        langs=parse_langs(settings.get("BILINGUAL_DETECTOR_LANGS")),
        min_likelihood=settings.getfloat("BILINGUAL_DETECTOR_MIN_LIKELIHOOD"),
        max_probes=None if max_probes in (None, "", "None", "none") else int(max_probes),
        probe_batch=settings.getint("BILINGUAL_DETECTOR_PROBE_BATCH"),
        min_text_chars=settings.getint("BILINGUAL_DETECTOR_MIN_TEXT_CHARS"),
        min_share=settings.getfloat("BILINGUAL_DETECTOR_MIN_SHARE"),
        hosts=settings.get("BILINGUAL_DETECTOR_HOSTS"),
        mode=settings.get("BILINGUAL_DETECTOR_MODE"),
        language_hints=settings.getbool("BILINGUAL_DETECTOR_LANGUAGE_HINTS"),
        chooser_labels=settings.getbool("BILINGUAL_DETECTOR_CHOOSER_LABELS"),
        chooser_max_chars=settings.getint("BILINGUAL_DETECTOR_CHOOSER_MAX_CHARS"),
        ladder=settings.getbool("BILINGUAL_DETECTOR_LADDER"),
        ladder_siblings=settings.getint("BILINGUAL_DETECTOR_LADDER_SIBLINGS"),
        ladder_ancestors=settings.getint("BILINGUAL_DETECTOR_LADDER_ANCESTORS"),
        second_look=settings.getbool("BILINGUAL_DETECTOR_SECOND_LOOK"),
        other_sites=settings.getbool("BILINGUAL_DETECTOR_OTHER_SITES"),
    )


def verdict_item(verdict: SiteVerdict) -> SiteVerdictItem:
    return SiteVerdictItem(
        site=verdict.site,
        url=verdict.url,
        bilingual=verdict.bilingual,
        languages=list(verdict.languages),
        reason=verdict.reason,
        pages_downloaded=verdict.pages_downloaded,
        status=verdict.status,
        rule=verdict.rule,
        best_score=None if verdict.best_score is None else round(verdict.best_score, 4),
        links=verdict.links,
        candidates=verdict.candidates,
        mode=verdict.mode,
        min_likelihood=verdict.min_likelihood,
        langs=list(verdict.langs),
        evidence=[_evidence(page) for page in verdict.evidence],
    )


def _evidence(page: ProbeResult) -> dict[str, Any]:
    record = page.to_dict()
    record["shares"] = dict(list(page.shares.items())[:5])
    if page.score is not None:
        record["score"] = round(page.score, 4)
    return record


def failure_reason(failure: Failure) -> tuple[str, str]:
    """A failed request's reason for the verdict, and the stats key suffix that counts it."""
    error = failure.value
    if isinstance(error, HttpError):
        status = error.response.status
        return f"HTTP {status}", f"http_{status}"
    if isinstance(error, (DownloadTimeoutError, TimeoutError, TCPTimedOutError)):
        return "timeout", "timeout"
    if isinstance(error, (CannotResolveHostError, DNSLookupError)):
        return "DNS lookup failed", "dns"
    if isinstance(
        error,
        (
            DownloadConnectionRefusedError,
            DownloadFailedError,
            ResponseDataLossError,
            ConnectError,
            ConnectionLost,
        ),
    ):
        return f"connection failed ({type(error).__name__})", "connection"
    if isinstance(error, IgnoreRequest):
        message = str(error) or "request ignored"
        return message, "robots" if "robots" in message.lower() else "ignored"
    return f"{type(error).__name__}: {error}"[:200], type(error).__name__


class SiteDetection:
    """Runs the detector over a crawl: one verdict per site.

    Parameters
    ----------
    detector:
        The pure detector (its config holds the settings of the verdict).
    scorer:
        Scores the links of a first page (see :class:`PredictorLinkScorer`).
    store:
        Per-site state (default: in memory).
    stats:
        The crawl's stats collector.
    identifier:
        Language identifier for pages (default: the shipped fastText model, loaded on first use).
    site_key:
        ``host``: a site is a host name; ``url``: every first URL is a site of its own (the
        benchmark's Debian manuals share www.debian.org).
    start:
        ``page``: a site is judged from the first of its pages the crawl reaches (the paper's
        crawler: "given a Web site's page"); ``home`` (with host sites): from its home page,
        asked for when another page came first, so that the verdict does not depend on which
        page came first (several workers reach a site's pages in another order than one
        process).
    home_callback, home_errback:
        Spider methods that hand the home page back (see :class:`DetectorCallbacks`).
    probe_priority, probe_timeout, probe_retries:
        Of every probe request.
    probe_callback, probe_errback:
        Spider methods that hand probe answers back (see :class:`DetectorCallbacks`).
    """

    def __init__(
        self,
        detector: BilingualSiteDetector,
        scorer: LinkScorer,
        store: SiteStore | None = None,
        stats: StatsCollector | None = None,
        identifier: Any = None,
        site_key: str = "host",
        probe_priority: int = 10_000,
        probe_timeout: float = 15.0,
        probe_retries: int = 1,
        probe_callback: Callable[..., Any] | None = None,
        probe_errback: Callable[..., Any] | None = None,
        start: str = "page",
        home_callback: Callable[..., Any] | None = None,
        home_errback: Callable[..., Any] | None = None,
    ) -> None:
        if site_key not in SITE_KEYS:
            raise ValueError(f"site key must be one of {', '.join(SITE_KEYS)}, not {site_key!r}")
        if start not in STARTS:
            raise ValueError(f"detector start must be one of {', '.join(STARTS)}, not {start!r}")
        if start == "home" and site_key != "host":
            raise ValueError("a detector starting from home pages needs host sites")
        self.start = start
        self.home_callback = home_callback
        self.home_errback = home_errback
        self.detector = detector
        self.scorer = scorer
        self.store: SiteStore = store if store is not None else InMemorySiteStore()
        self.stats = stats
        self._identifier = identifier
        self.site_key = site_key
        self.probe_priority = probe_priority
        self.probe_timeout = probe_timeout
        self.probe_retries = probe_retries
        self.probe_callback = probe_callback
        self.probe_errback = probe_errback
        self._keep: Any = None

    @classmethod
    def from_crawler(
        cls,
        crawler: Crawler,
        probe_callback: Callable[..., Any] | None = None,
        probe_errback: Callable[..., Any] | None = None,
        store: SiteStore | None = None,
        home_callback: Callable[..., Any] | None = None,
        home_errback: Callable[..., Any] | None = None,
    ) -> SiteDetection:
        settings = crawler.settings
        scorer_class = load_object(settings.get("BILINGUAL_DETECTOR_LINK_SCORER"))
        scorer = (
            scorer_class.from_settings(settings)
            if hasattr(scorer_class, "from_settings")
            else scorer_class()
        )
        config = detector_config(settings)
        identifier = None
        if config.mode == "detector":  # models loaded before the crawl, not on its first pages
            from bilingual_spider.language.identification import default_identifier

            identifier = default_identifier()
        detection = cls(
            BilingualSiteDetector(config),
            scorer,
            store=store,
            identifier=identifier,
            site_key=settings.get("BILINGUAL_DETECTOR_SITE_KEY"),
            probe_priority=settings.getint("BILINGUAL_DETECTOR_PROBE_PRIORITY"),
            probe_timeout=settings.getfloat("BILINGUAL_DETECTOR_PROBE_TIMEOUT"),
            probe_retries=settings.getint("BILINGUAL_DETECTOR_PROBE_RETRIES"),
            probe_callback=probe_callback,
            probe_errback=probe_errback,
            start=settings.get("BILINGUAL_DETECTOR_START"),
            home_callback=home_callback,
            home_errback=home_errback,
        )

        def spider_opened() -> None:  # Crawler.stats exists from then on (Scrapy >= 2.13)
            detection.stats = crawler.stats

        detection._keep = spider_opened  # signals hold weak references
        crawler.signals.connect(spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(detection.spider_closed, signal=signals.spider_closed)
        return detection

    @property
    def config(self) -> DetectorConfig:
        return self.detector.config

    @property
    def identifier(self) -> Any:
        if self._identifier is None:
            from bilingual_spider.language.identification import default_identifier

            self._identifier = default_identifier()
        return self._identifier

    def site_of(self, url: str) -> str:
        """The key of the site ``url`` belongs to."""
        return site_key_of(url, self.site_key)

    # --- the first page ----------------------------------------------------------------------

    def examine(
        self,
        response: Response,
        site: str | None = None,
        contexts: Sequence[LinkContext] | None = None,
        climb: bool = True,
    ) -> Iterator[Any]:
        """Start judging the site of ``response`` (a site's first page): yields probe requests,
        or the verdict at once. Nothing when the site is judged or being judged already.
        ``contexts``: the page's link contexts if the spider extracted them already (with the
        scorer's ``around_words``); ``climb=False``: the site is judged without the fallback
        ladder (a page fetched for another purpose, whose site is judged on the side)."""
        first_url = response.meta.get("redirect_urls", [response.url])[0]
        site = site or self.site_of(first_url)
        if not self._claim(site, response.meta):
            yield from self._already_claimed(site, response.meta)
            return
        self._inc("detector/sites")
        if self.start == "home" and first_url != home_url_of(first_url):
            self._inc("detector/home_pages_asked")
            yield self._home_request(site, home_url_of(first_url))
            return
        yield from self._begin(site, first_url, response, contexts, climb)

    def home_answered(self, response: Response) -> Iterator[Any]:
        """The home page of a site claimed from another of its pages (``start="home"``)."""
        site = response.meta[HOME_META]
        if self._begun(site):
            yield from self._already_claimed(site, response.meta)
            return
        first_url = response.meta.get("redirect_urls", [response.url])[0]
        yield from self._begin(site, first_url, response)

    def home_failed(self, failure: Failure) -> Iterator[Any]:
        """The home page could not be fetched: the site's verdict, with the reason."""
        request = failure.request  # type: ignore[attr-defined]
        site = request.meta[HOME_META]
        if self._begun(site):
            yield from self._already_claimed(site, request.meta)
            return
        self._inc("detector/first_page_failed")
        reason, _ = failure_reason(failure)
        yield from self._conclude(self.detector.fail_start(site, request.url, reason))

    def _begun(self, site: str) -> bool:
        """Whether the site's detection has begun: a home page asked twice (its request
        redelivered, or the site claimed again after its claim expired) is judged once."""
        return self.store.verdict(site) is not None or self.store.load(site) is not None

    def _home_request(self, site: str, url: str) -> scrapy.Request:
        return scrapy.Request(
            url,
            callback=self.home_callback,
            errback=self.home_errback,
            priority=self.probe_priority,
            dont_filter=True,  # the detector needs this page even if the crawl saw it
            meta={"role": "probe", HOME_META: site, "download_timeout": self.probe_timeout},
        )

    def _begin(
        self,
        site: str,
        first_url: str,
        response: Response,
        contexts: Sequence[LinkContext] | None = None,
        climb: bool = True,
    ) -> Iterator[Any]:
        links: list[LinkScore] = []
        try:
            start = self._first_page(first_url, response)
            if start.ok and isinstance(response, TextResponse):
                page_urls = (first_url,) if first_url == response.url else (first_url, response.url)
                links = self._scored_links(response, page_urls, contexts, elsewhere=True)
                named = sitemap_link_scores(response)  # BILINGUAL_SITEMAPS
                if named:
                    self._inc("detector/sitemap_links", len(named))
                    links += named
        except Exception as exc:  # a page we cannot read must not leave its site unjudged
            start = self._unreadable(first_url, response, exc)
        try:  # the state is saved (or the verdict recorded) before anything is yielded
            outputs = list(self._follow(self.detector.begin(site, start, links, climb)))
        except (ConcurrentUpdate, SiteJudged):  # another worker began it meanwhile: a home
            self._inc("detector/sites_already_judged")  # page asked twice after a worker died
            return
        yield from outputs

    def _scored_links(
        self,
        response: TextResponse,
        page_urls: Sequence[str],
        contexts: Sequence[LinkContext] | None,
        elsewhere: bool = False,
    ) -> list[LinkScore]:
        """The Link Predictor's scores of the page's probe-able links (the only ones it
        scores: a hub's out-of-site links never are), counted in ``detector/links_scored``;
        ``elsewhere``: then its links naming a language on another site, unscored (a toggle to
        another domain, or back from it:
        :data:`~bilingual_spider.detection.detector.OTHER_SITE`)."""
        if not isinstance(self.scorer, PredictorLinkScorer):
            scores = self.scorer.score(response.text, response.url)
            self._inc("detector/links_scored", len(scores))
            return scores
        if contexts is None:
            page = response_page(response)
            contexts = extract_link_contexts(page, response.url, self.scorer.around_words)
        rule = self.config.hosts
        own = [c for c in contexts if probe_able_from(page_urls, c.url, rule)]
        scores = self.scorer.score(response.text, response.url, own)
        self._inc("detector/links_scored", len(scores))
        if elsewhere and self.config.other_sites:  # named by their labels, not their URLs
            scored = {id(c) for c in own}  # (``fr.wikipedia.org`` is no toggle)
            hinted = (
                (c, labelled_language(c.hreflang, c.anchor, c.img_alt, lang=c.lang))
                for c in contexts
                if id(c) not in scored
            )
            scores += [LinkScore(c.url, 0.0, hint) for c, hint in hinted if hint]
        return scores

    def _unreadable(self, url: str, response: Response, error: Exception) -> ProbeResult:
        logger.warning("cannot read %s: %r", response.url, error, exc_info=True)
        self._inc("detector/pages_unreadable")
        reason = f"unreadable page ({type(error).__name__})"
        return self.detector.failed(url, reason, final_url=response.url)

    def first_page_failed(self, failure: Failure, site: str | None = None) -> Iterator[Any]:
        """The first page of a site could not be fetched: the site's verdict, with the reason."""
        request = failure.request  # type: ignore[attr-defined]
        site = site or self.site_of(request.url)
        if not self._claim(site, request.meta):
            yield from self._already_claimed(site, request.meta)
            return
        self._inc("detector/sites")
        self._inc("detector/first_page_failed")
        reason, _ = failure_reason(failure)
        yield from self._conclude(self.detector.fail_start(site, request.url, reason))

    def _first_page(self, url: str, response: Response) -> ProbeResult:
        if not isinstance(response, TextResponse):
            return self.detector.failed(url, "not a web page", final_url=response.url)
        if not same_site(url, response.url, self.config.hosts):
            reason = f"redirected off-site to {host_of(response.url)}"
            return self.detector.failed(url, reason, final_url=response.url)
        if self.config.mode != "detector":
            return self.detector.page(url, None, final_url=response.url)
        return self._read(url, response, None)

    def _read(self, url: str, response: TextResponse, score: float | None) -> ProbeResult:
        """A fetched page as the detector reads it: its language, its prose and the language
        its URL or ``<html lang>`` declares."""
        page = response_page(response)
        blocks, _ = main_text_blocks(page, code=False, navigation=False)
        declared = declared_language(response.url, html_lang(page)) or ""
        prose = BLOCK_SEPARATOR.join(blocks)
        return self.detector.page(
            url, self._language(response), score, response.url, prose, declared
        )

    # --- probes ------------------------------------------------------------------------------

    def probe_answered(self, response: Response) -> Iterator[Any]:
        """A probe's page arrived (callback of the probe requests)."""
        site, url, score = self._probe_meta(response.meta)
        state = self.store.load(site)
        if state is None:
            yield from self._late_probe(site, response.meta)
            return
        page_url = state.start.final_url or state.start.url
        via = response.meta.get("detector_via", "")
        links: list[LinkScore] | None = None
        soft_404 = via == URL_SIBLINGS and self._soft_404(url, response, page_url)
        if not isinstance(response, TextResponse):
            result = self.detector.failed(url, "not a web page", score, response.url)
            self._inc("detector/probes_failed/not_html")
        elif not same_site(url if via == OTHER_SITE else page_url, response.url, self.config.hosts):
            reason = f"redirected off-site to {host_of(response.url)}"
            result = self.detector.failed(url, reason, score, response.url)
            self._inc("detector/probes_failed/offsite_redirect")
        elif soft_404:
            result = self.detector.failed(url, f"URL sibling: {soft_404}", score, response.url)
            self._inc("detector/ladder/soft_404")
        else:
            try:
                result = self._read(url, response, score)
                if self.detector.wants_links(state, result):  # an ancestor, a second look
                    page_urls = (url,) if url == response.url else (url, response.url)
                    links = self._scored_links(response, page_urls, None, via == OTHER_SITE)
            except Exception as exc:  # counted as a failed probe
                result = replace(self._unreadable(url, response, exc), score=score)
        if not result.ok:
            self._inc("detector/probes_failed")
        logger.debug("probe %s of %s: %s", url, site, result.counted or result.reason or "no lang")
        yield from self._record(state, result, response.meta, links)

    @staticmethod
    def _soft_404(url: str, response: Response, page_url: str) -> str:
        """Why a URL sibling's answer is no page of its own (PupSniffer's deep-page judge: the
        page we came from, or a redirect to the home page), or ""."""
        text = response.text[:2000] if isinstance(response, TextResponse) else ""
        outcome = judge_candidate(url, response.status, response.url, text, page_url, frozenset())
        return "" if outcome == CandidateStatus.EXISTS else outcome.value

    def probe_failed(self, failure: Failure) -> Iterator[Any]:
        """A probe failed (errback of the probe requests): counts for no language."""
        meta = failure.request.meta  # type: ignore[attr-defined]
        site, url, score = self._probe_meta(meta)
        state = self.store.load(site)
        if state is None:
            yield from self._late_probe(site, meta)
            return
        reason, key = failure_reason(failure)
        self._inc("detector/probes_failed")
        self._inc(f"detector/probes_failed/{key}")
        logger.debug("probe %s of %s failed: %s", url, site, reason)
        yield from self._record(state, self.detector.failed(url, reason, score), meta)

    def _record(
        self,
        state: DetectionState,
        result: ProbeResult,
        meta: dict[str, Any],
        links: list[LinkScore] | None = None,
    ) -> Iterator[Any]:
        """Record a probe's result; when another worker recorded one of the site's probes
        meanwhile (a shared store), record it again on the state that worker saved."""
        if not result.ok and meta.get("detector_via") == ANCESTORS:
            self._inc("detector/ladder/ancestors_skipped")  # the climb goes on above it
        while True:
            if not any(p.url == result.url for p in state.pending):
                yield from self._late_probe(state.site, meta, state)
                return
            try:  # the state is saved (or the verdict recorded) before anything is yielded
                outputs = list(self._follow(self.detector.record(state, result, links)))
            except SiteJudged:  # by another worker, since this one loaded the state
                yield from self._late_probe(state.site, meta)
                return
            except ConcurrentUpdate:
                self._inc("detector/concurrent_updates")
                reloaded = self.store.load(state.site)
                if reloaded is None:  # judged meanwhile
                    yield from self._late_probe(state.site, meta)
                    return
                state = reloaded
                continue
            yield from outputs
            return

    # --- after a worker died -------------------------------------------------------------------

    def _claim(self, site: str, meta: dict[str, Any]) -> bool:
        """Whether this request begins the site: the first to claim it, or a request redelivered
        from a dead worker that claimed the site and saved nothing of it (its claim outlives
        the lease that brought the request back, and the site's first page may never come
        again)."""
        if self.store.claim(site):
            return True
        dead = meta.get(REDELIVERED_META)
        if dead is None or not self.store.take_over_claim(site, dead):
            return False
        self._inc("detector/claims_taken_over")
        logger.info("site %s: claimed by %s, which died before saving anything of it", site, dead)
        return True

    def _already_claimed(self, site: str, meta: dict[str, Any]) -> Iterator[Any]:
        """A first page of a site another request claimed: nothing to do, unless this request
        was redelivered (then its dead worker may have claimed the site itself)."""
        yield from self._redo(site, meta, None, "detector/sites_already_judged")

    def _late_probe(
        self, site: str, meta: dict[str, Any], state: DetectionState | None = None
    ) -> Iterator[Any]:
        """A probe whose answer is no longer awaited (recorded already, or the site judged):
        nothing to do, unless it was redelivered (see the module doc)."""
        yield from self._redo(site, meta, state, "detector/probes_late")

    def _redo(
        self, site: str, meta: dict[str, Any], state: DetectionState | None, nothing: str
    ) -> Iterator[Any]:
        """What a redelivered request of the site redoes of what its dead worker may have left
        undone (counted as ``nothing`` when it redoes nothing): the pending probes of the
        site's state, whoever saved it last (the dead worker may have queued only some of a
        batch, and another worker recorded one of those since: the others are asked again; one
        asked twice is answered twice, the second a late probe), or the site's verdict when the
        dead worker recorded it."""
        dead = meta.get(REDELIVERED_META)
        if dead is None:
            self._inc(nothing)
            return
        state = state or self.store.load(site)
        if state is not None:
            self._inc("detector/probes_reissued", len(state.pending))
            for probe in state.pending:
                yield self._probe_request(state, probe)
            return
        verdict = self.store.verdict(site)
        if verdict is None or self.store.written_by(site) not in (dead, None):
            self._inc(nothing)  # a live worker claimed it (no state yet), or judged it
            return
        self._inc("detector/verdicts_replayed")
        logger.info("site %s: its verdict emitted again (its worker died)", site)
        yield verdict_item(verdict)

    @staticmethod
    def _probe_meta(meta: dict[str, Any]) -> tuple[str, str, float]:
        return meta["detector_site"], meta["detector_probe"], float(meta["detector_score"])

    def _follow(self, step: Step) -> Iterator[Any]:
        if step.verdict is not None:
            yield from self._conclude(step.verdict)
            return
        assert step.state is not None
        self.store.save(step.state)
        for probe in step.probes:
            self._inc("detector/probes")
            if probe.via == SECOND_LOOK:
                self._inc("detector/second_looks")
            elif probe.via == OTHER_SITE:
                self._inc("detector/other_sites")
            elif probe.via:
                self._inc(f"detector/ladder/{probe.via.replace(' ', '_')}")
            yield self._probe_request(step.state, probe)

    def _probe_request(self, state: DetectionState, probe: LinkScore) -> scrapy.Request:
        return scrapy.Request(
            probe.url,
            callback=self.probe_callback,
            errback=self.probe_errback,
            priority=self.probe_priority,
            dont_filter=True,  # the detector needs this page even if the crawl saw it
            meta={
                "role": "probe",
                "detector_site": state.site,
                "detector_probe": probe.url,
                "detector_score": probe.score,
                "detector_via": probe.via,
                LINKED_LANGUAGE_META: probe.hint,  # the language its link names, if any
                SITE_LANGUAGES_META: state.site_languages,
                "download_timeout": self.probe_timeout,
                "max_retry_times": self.probe_retries,
            },
        )

    def _conclude(self, verdict: SiteVerdict) -> Iterator[SiteVerdictItem]:
        if not self.store.finish(verdict):
            self._inc("detector/sites_already_judged")
            return
        self._inc("detector/pages", verdict.pages_downloaded)
        self._inc(f"detector/rule/{verdict.rule.replace(': ', '/').replace(' ', '_')}")
        if verdict.bilingual:
            self._inc("detector/sites_bilingual")
        elif verdict.status == "not_judged":
            self._inc("detector/sites_not_judged")
        else:
            self._inc("detector/sites_monolingual")
            if not verdict.candidates:
                self._inc("detector/sites_no_candidates")
        logger.info(
            "site %s after %d page(s): %s",
            verdict.site,
            verdict.pages_downloaded,
            verdict.describe(),
        )
        yield verdict_item(verdict)

    def _language(self, response: TextResponse) -> Any:
        """The page's language, identified once per response (the WARC writer, the focus
        middleware and the detector share it)."""
        from bilingual_spider.middlewares.outlinks import response_language

        return response_language(response, self.identifier)

    def forget_claims(self) -> None:
        """A crawl restarted after a kill: the sites its former self claimed and saved nothing
        of are let go (``detector/claims_forgotten``)."""
        self._inc("detector/claims_forgotten", self.store.forget_claims())

    def unwritten_verdicts(self, in_output: Collection[tuple[str, ...]]) -> list[SiteVerdictItem]:
        """A crawl restarted after a kill: the verdicts its former self recorded that its output
        (``in_output``: the output's item keys) lacks (killed between the two; the request that
        would replay one may never be processed again: a page budget spent first).
        ``detector/verdicts_replayed_at_restart``."""
        found = []
        for site in self.store.judged_here():
            written = ("verdict", site.lower()) in in_output
            verdict = None if written else self.store.verdict(site)
            if verdict is not None:
                found.append(verdict_item(verdict))
        self._inc("detector/verdicts_replayed_at_restart", len(found))
        return found

    def _inc(self, key: str, count: int = 1) -> None:
        if self.stats is not None:
            self.stats.inc_value(key, count)

    def spider_closed(self) -> None:
        unfinished = self.store.unfinished()
        if unfinished:
            self._inc("detector/sites_unfinished", len(unfinished))
            logger.warning(
                "%d site(s) left without a verdict (crawl closed while probing): %s",
                len(unfinished),
                ", ".join(unfinished[:10]),
            )


class DetectorCallbacks:
    """Mix into a spider that uses a :class:`SiteDetection` as ``self.detection``: the probe
    callbacks are spider methods, so probe requests can be serialized (disk or Redis queues)."""

    detection: SiteDetection

    def bind_detection(self, crawler: Crawler, store: SiteStore | None = None) -> SiteDetection:
        """``store``: default, in this process's memory, or in Redis when ``REDIS_URL`` is set
        (one verdict per site, whichever worker probes it)."""
        if store is None:
            store = CrawlState.of(crawler, getattr(self, "name", "detect")).sites
        self.detection = SiteDetection.from_crawler(
            crawler,
            probe_callback=self.detector_probe,
            probe_errback=self.detector_probe_failed,
            store=store,
            home_callback=self.detector_home_page,
            home_errback=self.detector_home_page_failed,
        )
        return self.detection

    replayed_verdicts: list[SiteVerdictItem] = []
    """The verdicts a restart found recorded and not in the output, emitted first (:meth:`start`
    yields them)."""

    def worker_restarted(self, in_output: Collection[tuple[str, ...]] | None = None) -> None:
        """Told when this crawl restarts after a kill (``JOBDIR``, or a Redis worker under its
        former name), before its former self's requests go back to the queue: the sites it
        claimed and saved nothing of are let go (their first pages, given again, claim them
        again), and the verdicts it recorded that its output (``in_output``: its items' keys;
        None: no JSON-lines output to read) lacks are emitted again."""
        detection = getattr(self, "detection", None)
        if detection is not None:
            detection.forget_claims()
            if in_output is not None:
                self.replayed_verdicts = detection.unwritten_verdicts(in_output)

    def detector_page(self, meta: dict[str, Any], outputs: Iterator[Any]) -> Iterator[Any]:
        """What the detector made of one of its pages (a probe or a home page, answered or
        failed; ``meta``: its request's): a spider that counts pages or acts on verdicts
        overrides this."""
        return outputs

    def detector_home_page(self, response: Response) -> Iterator[Any]:
        yield from self.detector_page(response.meta, self.detection.home_answered(response))

    def detector_home_page_failed(self, failure: Failure) -> Iterator[Any]:
        meta = failure.request.meta  # type: ignore[attr-defined]
        yield from self.detector_page(meta, self.detection.home_failed(failure))

    def detector_probe(self, response: Response) -> Iterator[Any]:
        yield from self.detector_page(response.meta, self.detection.probe_answered(response))

    def detector_probe_failed(self, failure: Failure) -> Iterator[Any]:
        meta = failure.request.meta  # type: ignore[attr-defined]
        yield from self.detector_page(meta, self.detection.probe_failed(failure))
