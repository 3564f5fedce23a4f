"""Quality priority as a spider middleware (Schäfer, Barbey and Bildhauer 2014): links from pages
of good text, in blocks that are not boilerplate, go first; the crawl's yield is counted as it
goes (:mod:`bilingual_spider.focus.quality` holds the scores; this module wires them to Scrapy).

On with ``BILINGUAL_QUALITY_ENABLED``. Every page a callback receives is assessed (its language,
its text outside boilerplate, that text's Badness in the target languages of
``BILINGUAL_QUALITY_LANGS`` (else ``BILINGUAL_FOCUS_LANGS``), or in its own language when none
is set) and counted: kept when in a
target language, at least ``BILINGUAL_QUALITY_MIN_CHARS`` long, of Badness at most
``BILINGUAL_QUALITY_MAX_BADNESS`` and no perfect duplicate. With ``BILINGUAL_QUALITY_PRIORITY``
(the default) each outlink's priority gets a bonus from the page's Badness and its block's
boilerplate score, weighed by ``BILINGUAL_QUALITY_BADNESS_WEIGHT`` and
``BILINGUAL_QUALITY_BOILERPLATE_WEIGHT``; no link is ever dropped (both scores are weak filters).

Stats: ``quality/pages``, ``quality/pages_kept``, ``quality/yield_ratio`` (kept / pages),
``quality/rejected/<reason>`` (``language``, ``short``, ``badness``, ``duplicate``; a page may
have several) and ``quality/links`` (links prioritised).
"""

from __future__ import annotations

import logging
from collections import OrderedDict

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.statscollectors import StatsCollector

from bilingual_spider.focus.quality import (
    MIN_CHARS,
    PageQuality,
    QualityWeights,
    YieldCounter,
    assess_page,
    quality_link_priority,
)
from bilingual_spider.language.badness import BADNESS_THRESHOLD
from bilingual_spider.language.identification import LanguageIdentifier
from bilingual_spider.middlewares.language_focus import parse_targets
from bilingual_spider.middlewares.outlinks import OutlinkMiddleware, PageLinks, with_bonus

logger = logging.getLogger(__name__)

MAX_DIGESTS = 1_000_000
"""Texts remembered for perfect-duplicate removal (8-byte hashes; the oldest is forgotten)."""


class QualityPriorityMiddleware(OutlinkMiddleware):
    """Counts the crawl's document yield and prioritises links by the quality of their context."""

    def __init__(
        self,
        stats: StatsCollector,
        targets: tuple[str, ...] = (),
        weights: QualityWeights | None = None,
        prioritise: bool = True,
        min_chars: int = MIN_CHARS,
        max_badness: float = BADNESS_THRESHOLD,
        identifier: LanguageIdentifier | None = None,
        max_digests: int = MAX_DIGESTS,
    ) -> None:
        self.stats = stats
        self.targets = targets
        self.weights = weights or QualityWeights()
        self.prioritise = prioritise
        self.min_chars = min_chars
        self.max_badness = max_badness
        self.counter = YieldCounter()
        self._digests: OrderedDict[bytes, None] = OrderedDict()
        self._max_digests = max_digests
        self._identifier = identifier

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> QualityPriorityMiddleware:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_QUALITY_ENABLED"):
            raise NotConfigured
        return cls(
            crawler.stats,
            targets=parse_targets(
                settings.get("BILINGUAL_QUALITY_LANGS") or settings.get("BILINGUAL_FOCUS_LANGS")
            ),
            weights=QualityWeights(
                settings.getfloat("BILINGUAL_QUALITY_BADNESS_WEIGHT"),
                settings.getfloat("BILINGUAL_QUALITY_BOILERPLATE_WEIGHT"),
            ),
            prioritise=settings.getbool("BILINGUAL_QUALITY_PRIORITY"),
            min_chars=settings.getint("BILINGUAL_QUALITY_MIN_CHARS"),
            max_badness=settings.getfloat("BILINGUAL_QUALITY_MAX_BADNESS"),
        )

    def judge(
        self, response: Response, links: PageLinks, requests: list[Request]
    ) -> list[Request | None]:
        if not isinstance(response, TextResponse):
            return list(requests)
        quality = assess_page(response.body, response.url, self.targets, self.identifier)
        self._count(quality)
        if not self.prioritise:
            return list(requests)
        self.stats.inc_value("quality/links", len(requests))
        return [
            with_bonus(
                request,
                quality_link_priority(
                    quality.badness, quality.link_blocks.get(request.url), self.weights
                ),
            )
            for request in requests
        ]

    def _count(self, quality: PageQuality) -> None:
        duplicate = quality.chars > 0 and self._seen(quality.digest)
        rejections = quality.rejections(self.targets, duplicate, self.min_chars, self.max_badness)
        self.counter.count(not rejections)
        stats = self.stats
        stats.inc_value("quality/pages")
        stats.inc_value("quality/pages_kept", int(not rejections))
        stats.set_value("quality/yield_ratio", round(self.counter.ratio, 4))
        for reason in rejections:
            stats.inc_value(f"quality/rejected/{reason}")

    def _seen(self, digest: bytes) -> bool:
        """Whether this text was seen before (and remember it)."""
        if digest in self._digests:
            self._digests.move_to_end(digest)
            return True
        self._digests[digest] = None
        if len(self._digests) > self._max_digests:
            self._digests.popitem(last=False)
        return False
