"""Quality focus: prioritise links from good text in good blocks, and count the crawl's yield.

Schäfer, Barbey and Bildhauer (2014), *Focused Web Corpus Crawling*, WaC-9:

* Section 2: the yield of the pages behind a crawl's links follows the yield of the pages the links
  come from (adjusted R^2 0.7831), so links from documents of low **Badness**
  (:mod:`bilingual_spider.language.badness`) are worth more;
* Section 4: the **boilerplate score** of the block enclosing a link
  (:mod:`bilingual_spider.language.boilerplate`; >= 0.5 = likely not boilerplate) predicts the
  quality of the page behind it, better than Badness does;
* Section 4, Tables 2 and 3: as binary download decisions both are weak (Badness at 10: F1 0.316;
  boilerplate at 0.5: F1 0.614), "which is why we suggest to merely prioritize URLs instead of
  discarding them" (Section 5). :func:`quality_priority` is therefore a priority, never a filter;
* Section 2: the **document yield ratio**, kept documents over downloaded ones, where a document is
  kept after boilerplate removal, removal of high-Badness documents, perfect-duplicate removal and
  deletion of documents shorter than 1,000 characters (:func:`page_yield`, :class:`YieldCounter`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bilingual_spider.focus.language_focus import is_target
from bilingual_spider.frontier.rescoring import link_priority
from bilingual_spider.language.badness import (
    BADNESS_THRESHOLD,
    LanguageProfile,
    badness,
    default_profiles,
    is_good,
)
from bilingual_spider.language.boilerplate import NOT_BOILERPLATE, scored_blocks
from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import UNDETERMINED, LanguageIdentifier
from bilingual_spider.language.page_language import page_language

UNKNOWN_SCORE = 0.5
"""The quality given to a score that is missing (no profile for the page's language, a link
outside any block): the midpoint, neither good nor bad."""
MIN_CHARS = 1_000
"""Section 2: documents shorter than 1,000 characters after boilerplate removal are not kept."""


@dataclass(frozen=True)
class QualityWeights:
    """Weights of the page's Badness and of the link block's boilerplate score in
    :func:`quality_priority`; normalised by their sum, so only their ratio matters."""

    badness: float = 0.5
    boilerplate: float = 0.5

    def __post_init__(self) -> None:
        if self.badness < 0 or self.boilerplate < 0 or self.badness + self.boilerplate <= 0:
            raise ValueError(f"weights must be >= 0 with a positive sum, got {self}")


def badness_quality(page_badness: float | None) -> float:
    """The page's Badness as a quality in [0, 1]: ``T / (T + badness)`` with T =
    :data:`~bilingual_spider.language.badness.BADNESS_THRESHOLD` (10). 1 for a Badness of 0,
    0.5 exactly at the paper's threshold (Section 3), 1/6 at the maximum of ten missing function
    words (50); falling all the way, so a worse page always ranks lower. None: 0.5."""
    if page_badness is None:
        return UNKNOWN_SCORE
    return BADNESS_THRESHOLD / (BADNESS_THRESHOLD + max(0.0, page_badness))


def boilerplate_quality(block_boilerplate: float | None) -> float:
    """The chance that the link's block is not boilerplate: its score, clipped to [0, 1] (0.5 =
    :data:`~bilingual_spider.language.boilerplate.NOT_BOILERPLATE` is the paper's cut).
    None: 0.5."""
    if block_boilerplate is None:
        return NOT_BOILERPLATE
    return min(1.0, max(0.0, block_boilerplate))


def quality_priority(
    page_badness: float | None,
    block_boilerplate: float | None,
    weights: QualityWeights = QualityWeights(),
) -> float:
    """A link's relevance in [0, 1] from the quality of its context (Sections 3-5): the weighted
    mean of :func:`badness_quality` and :func:`boilerplate_quality`. Higher for a page of lower
    Badness and for a block less likely boilerplate. Always a priority, never a filter: both
    scores are weak as download decisions (F1 0.316 and 0.614)."""
    total = weights.badness + weights.boilerplate
    return (
        weights.badness * badness_quality(page_badness)
        + weights.boilerplate * boilerplate_quality(block_boilerplate)
    ) / total


def quality_link_priority(
    page_badness: float | None,
    block_boilerplate: float | None,
    weights: QualityWeights = QualityWeights(),
) -> int:
    """:func:`quality_priority` as a frontier priority, through the frontier's one scoring path."""
    return link_priority(quality_priority(page_badness, block_boilerplate, weights))


def page_yield(
    kept_language: bool,
    chars: int,
    badness: float | None,
    duplicate: bool,
    min_chars: int = MIN_CHARS,
    max_badness: float = BADNESS_THRESHOLD,
) -> bool:
    """Is a downloaded page kept for the corpus (Section 2's cleaning)? It must be in a target
    language, have at least ``min_chars`` characters of text after boilerplate removal, a Badness
    of at most ``max_badness`` (10, the paper's threshold for good documents; texrex's manual
    suggests 35 for discarding) and not be a perfect duplicate. A Badness of None (no profile for
    the page's language) does not reject the page: the other tests still apply."""
    return not yield_rejections(kept_language, chars, badness, duplicate, min_chars, max_badness)


def yield_rejections(
    kept_language: bool,
    chars: int,
    badness: float | None,
    duplicate: bool,
    min_chars: int = MIN_CHARS,
    max_badness: float = BADNESS_THRESHOLD,
) -> list[str]:
    """Why :func:`page_yield` does not keep a page: any of ``language``, ``short``,
    ``badness``, ``duplicate``; empty when it is kept."""
    tests = {
        "language": kept_language,
        "short": chars >= min_chars,
        "badness": badness is None or is_good(badness, max_badness),
        "duplicate": not duplicate,
    }
    return [reason for reason, passed in tests.items() if not passed]


@dataclass
class YieldCounter:
    """The document yield ratio of a crawl (Section 2): kept documents over downloaded ones."""

    downloaded: int = 0
    kept: int = 0

    def count(self, kept: bool) -> None:
        """Count one downloaded page, kept or not (see :func:`page_yield`)."""
        self.downloaded += 1
        self.kept += kept

    @property
    def ratio(self) -> float:
        """Kept / downloaded; 0.0 before anything was downloaded."""
        return self.kept / self.downloaded if self.downloaded else 0.0


@dataclass(frozen=True)
class PageQuality:
    """What Section 2's cleaning sees of a downloaded page, and the boilerplate score of the
    block around each of its links (Section 4)."""

    language: str
    """Language of the page's main text (``und`` when there is too little)."""
    chars: int
    """Characters of its text outside boilerplate blocks."""
    badness: float | None
    """Badness of that text in the target language (the lowest over several targets; with no
    target, in the page's own language; no text at all is as bad as can be); None when there
    is no profile."""
    digest: bytes
    """Hash of that text: equal digests are perfect duplicates."""
    link_blocks: Mapping[str, float] = field(default_factory=dict)
    """Boilerplate score of the block enclosing each link, by absolute URL."""

    def rejections(
        self,
        targets: Iterable[str],
        duplicate: bool,
        min_chars: int = MIN_CHARS,
        max_badness: float = BADNESS_THRESHOLD,
    ) -> list[str]:
        """:func:`yield_rejections` of this page: it must be in a target language (any
        language when there is no target), long and good enough, not a duplicate."""
        targets = tuple(targets)
        in_language = (
            is_target(self.language, targets) if targets else self.language != UNDETERMINED
        )
        return yield_rejections(
            in_language, self.chars, self.badness, duplicate, min_chars, max_badness
        )


def target_badness(
    text: str,
    targets: Iterable[str],
    profiles: Mapping[str, LanguageProfile] | None = None,
) -> float | None:
    """Badness of ``text`` in the best-fitting target language that has a profile (``zh``
    tries both Chinese scripts' profiles); None when no target has one."""
    profiles = default_profiles() if profiles is None else profiles
    wanted = [p for code, p in profiles.items() if any(same_language(code, t) for t in targets)]
    return min((badness(text, p) for p in wanted), default=None)


def assess_page(
    html: str | bytes,
    url: str,
    targets: Iterable[str],
    identifier: LanguageIdentifier,
    profiles: Mapping[str, LanguageProfile] | None = None,
) -> PageQuality:
    """The :class:`PageQuality` of a page: its language from its main text, its blocks scored
    for boilerplate in that language, Badness of the non-boilerplate text."""
    targets = tuple(targets)
    language = page_language(html, identifier).lang
    blocks, link_blocks = scored_blocks(
        html, None if language == UNDETERMINED else language, base_url=url
    )
    clean = "\n".join(block.text for block in blocks if block.score >= NOT_BOILERPLATE)
    own = (language,) if language != UNDETERMINED else ()
    return PageQuality(
        language=language,
        chars=len(clean),
        badness=target_badness(clean, targets or own, profiles),
        digest=hashlib.blake2b(clean.encode("utf-8"), digest_size=8).digest(),
        link_blocks=link_blocks,
    )
