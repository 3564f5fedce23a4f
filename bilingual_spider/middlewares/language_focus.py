"""Language focus as a spider middleware: Chan and Yamana's queuing rules and Tamura et al.'s
soft, server- and directory-based variants, over the links of any spider
(:mod:`bilingual_spider.focus.language_focus` holds the rules; this module wires them to Scrapy).

On when ``BILINGUAL_FOCUS_LANGS`` names target languages. ``BILINGUAL_FOCUS_MODE``:

- ``hard``: keep a link whose TLD belongs to a target language, else whose anchor is identified
  as a target language; drop the rest (``BILINGUAL_FOCUS_EVIDENCE`` can restrict the rules to the
  TLD or the anchor, and adds ours, ``url``: the language a link's URL names, before its TLD;
  and ``site``: on a site seen to mark its target-language pages in their URLs, by a link or the
  page itself, an unmarked URL is not kept by its TLD).
  Kept links keep their priority: the paper does not prioritise.
- ``soft``: keep every link; add to its priority a relevance from the page's language and the
  link's TLD and anchor (0.1 to 1.0, scaled by the frontier's ``link_priority``).

``BILINGUAL_FOCUS_YIELD`` = ``server`` or ``directory`` adds Tamura's preference for the places
that have yielded target-language pages (weighed by ``BILINGUAL_FOCUS_YIELD_WEIGHT``).

Anchors are language-identified in one batch per response. Stats: ``focus/links`` (judged),
``focus/kept/<reason>`` (``tld``, ``url_marker``, ``anchor``, ``soft_target``, ``soft_other``),
``focus/dropped_tld``, ``focus/dropped_url_marker`` (a target TLD, but the URL names another
language), ``focus/dropped_unmarked_on_marked_site`` (a target TLD, but the URL is unmarked on a
site that marks its target pages), ``focus/marked_sites`` (sites remembered as marking),
``focus/dropped_anchor``, ``focus/dropped_unknown``, ``focus/anchors``
(identified) and ``focus/anchor_batches``; with a page language (soft focus, Tamura's variants):
``focus/pages`` and ``focus/pages_target``.
"""

from __future__ import annotations

import logging

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.statscollectors import StatsCollector

from bilingual_spider.focus.language_focus import (
    EVIDENCE,
    PLACES,
    YIELD_WEIGHT,
    FocusDecision,
    MarkedSites,
    TargetYield,
    anchor_reading,
    hard_focus,
    is_target,
    soft_focus,
)
from bilingual_spider.frontier.rescoring import link_priority
from bilingual_spider.language.identification import LanguageIdentifier
from bilingual_spider.middlewares.outlinks import (
    OutlinkMiddleware,
    PageLinks,
    response_language,
    with_bonus,
)

logger = logging.getLogger(__name__)

MODES = ("hard", "soft")


def parse_targets(value: str | list[str] | None) -> tuple[str, ...]:
    """``ja`` / ``ja,ko`` / ``["ja", "zh"]`` -> a tuple of codes; empty or ``none``: ()."""
    if not value:
        return ()
    items = value.split(",") if isinstance(value, str) else value
    codes = tuple(code.strip() for code in items if code.strip())
    return () if codes == ("none",) else codes


class LanguageFocusMiddleware(OutlinkMiddleware):
    """Keeps, drops or prioritises a page's outlinks by their language evidence."""

    def __init__(
        self,
        targets: tuple[str, ...],
        stats: StatsCollector,
        mode: str = "hard",
        evidence: tuple[str, ...] = EVIDENCE,
        yield_place: str | None = None,
        yield_weight: float = YIELD_WEIGHT,
        identifier: LanguageIdentifier | None = None,
    ) -> None:
        if not targets:
            raise ValueError("no target language")
        if mode not in MODES:
            raise ValueError(f"BILINGUAL_FOCUS_MODE must be one of {MODES}, got {mode!r}")
        if yield_place not in (None, *PLACES):
            raise ValueError(f"BILINGUAL_FOCUS_YIELD must be none or one of {PLACES}")
        hard_focus("http://example.com/", None, targets, evidence)  # checks the evidence names
        self.targets = targets
        self.stats = stats
        self.mode = mode
        self.evidence = evidence
        self.yield_place = yield_place
        self.yield_weight = yield_weight
        self.target_yield = TargetYield() if yield_place else None
        self.marked_sites = MarkedSites(targets) if "site" in evidence else None
        self._identifier = identifier

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LanguageFocusMiddleware:
        settings = crawler.settings
        targets = parse_targets(settings.get("BILINGUAL_FOCUS_LANGS"))
        if not targets:
            raise NotConfigured
        place = str(settings.get("BILINGUAL_FOCUS_YIELD")).lower()
        return cls(
            targets,
            crawler.stats,
            mode=str(settings.get("BILINGUAL_FOCUS_MODE")).lower(),
            evidence=tuple(e.strip().lower() for e in settings.getlist("BILINGUAL_FOCUS_EVIDENCE")),
            yield_place=None if place == "none" else place,
            yield_weight=settings.getfloat("BILINGUAL_FOCUS_YIELD_WEIGHT"),
        )

    def judge(
        self, response: Response, links: PageLinks, requests: list[Request]
    ) -> list[Request | None]:
        page_language = self._page_language(response)
        if not requests:
            return []
        self._observe_markers(response, requests)
        anchors = self._anchor_languages(links, requests)
        judged: list[Request | None] = []
        for request, anchor in zip(requests, anchors, strict=True):
            if self.mode == "soft":
                decision = soft_focus(
                    request.url,
                    anchor,
                    page_language,
                    self.targets,
                    self.evidence,
                    self.marked_sites,
                )
            else:
                decision = hard_focus(
                    request.url, anchor, self.targets, self.evidence, self.marked_sites
                )
            judged.append(self._scheduled(request, decision))
        self.stats.inc_value("focus/links", len(requests))
        return judged

    def _observe_markers(self, response: Response, requests: list[Request]) -> None:
        """The page and its links tell which sites mark their target-language pages, before
        any link of the page is judged."""
        if self.marked_sites is None:
            return
        before = len(self.marked_sites)
        for url in (response.url, *(request.url for request in requests)):
            self.marked_sites.observe(url)
        self.stats.inc_value("focus/marked_sites", len(self.marked_sites) - before)

    def _page_language(self, response: Response) -> str | None:
        """The page's language, identified only when the policy reads it (soft focus, Tamura's
        variants); its server and directory are counted."""
        if self.mode != "soft" and self.target_yield is None:
            return None
        language = response_language(response, self.identifier).lang
        target = is_target(language, self.targets)
        self.stats.inc_value("focus/pages")
        self.stats.inc_value("focus/pages_target", int(target))
        if self.target_yield is not None:
            self.target_yield.add_page(response.url, target)
        return language

    def _anchor_languages(self, links: PageLinks, requests: list[Request]) -> list[str | None]:
        """The language of each request's anchor, one identifier call for the page (none when
        the rules do not read anchors); ``None`` for a link with no text, or one hard focus keeps
        whatever its anchor (by its TLD or its URL)."""
        if "anchor" not in self.evidence:
            return [None] * len(requests)
        texts = [
            "" if self._kept_without_anchor(request.url) else links.anchor(request)
            for request in requests
        ]
        todo = [i for i, text in enumerate(texts) if text]
        languages: list[str | None] = [None] * len(requests)
        if todo:
            decisions = self.identifier.decide_many([texts[i] for i in todo])
            kana = links.has_kana()
            for i, decision in zip(todo, decisions, strict=True):
                languages[i] = anchor_reading(str(decision.lang), texts[i], kana)
            self.stats.inc_value("focus/anchors", len(todo))
            self.stats.inc_value("focus/anchor_batches")
        return languages

    def _kept_without_anchor(self, url: str) -> bool:
        """Hard focus keeps the link whatever its anchor (a target TLD or URL marker): no need
        to read it."""
        return (
            self.mode == "hard"
            and hard_focus(url, None, self.targets, self.evidence, self.marked_sites).keep
        )

    def _scheduled(self, request: Request, decision: FocusDecision) -> Request | None:
        if not decision.keep:
            self.stats.inc_value(f"focus/{decision.reason}")
            logger.debug("focus: dropped %s (%s)", request.url, decision.reason)
            return None
        self.stats.inc_value(f"focus/kept/{decision.reason}")
        relevance = decision.relevance
        if self.target_yield is not None:
            relevance = self.target_yield.relevance(
                request.url, relevance, self.yield_weight, self.yield_place or "directory"
            )
        elif self.mode == "hard":
            return request  # hard focus alone does not prioritise (Chan and Yamana, Section 3)
        return with_bonus(request, link_priority(relevance))
