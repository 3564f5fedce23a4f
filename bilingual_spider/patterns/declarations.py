"""What a site says of its translations is a claim: hreflang, sitemaps, switchers and toggles
earn a credibility on the site's own pairs, as PupSniffer's URL patterns do (Zhang et al. 2018,
eq. 3: a pattern is credible on a site by the share of its pages it pairs).

Sites get their declarations wrong: a CMS mixes translation ids up (page A names B's
translation, and that page names A), a template points every page at the other language's home,
a restructuring leaves links stale. So a declared pair (:mod:`.alternates`) is judged like any
pair, on its languages and its content. What a site declares still counts, by how often its
declarations hold:

- a site's **declaration credibility** is the share of its declared pairs that hold: kept by
  the checks, or rejected by the content verifier alone while a URL pattern of the site pairs
  the same two pages (``corroborated``: the site's structure says so twice, and the verifier
  finds an out-of-date translation, not another document; a mixed-up declaration is never a
  pattern's pair) (:func:`tally_declarations`);
- on a site whose declarations are credible (:data:`CREDIBLE_SHARE` of at least
  :data:`MIN_JUDGED` pairs, :attr:`DeclarationTally.credible`), a declared pair the content
  verifier finds borderline (at least :data:`BORDERLINE_PROBABILITY`: an out-of-date or
  shortened translation, the reason sites declare their pairs at all) is kept; on any other
  site, content alone decides;
- a declared pair's credibility is its site's, halved when only one page names the other
  (:func:`with_site_credibility`), so that in a conflict (one page, two candidate partners in a
  language) the pair with the better evidence wins, whatever found it (:func:`evidence`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from bilingual_spider.patterns.alternates import (
    DECLARED_METHODS,
    ONE_WAY_CREDIBILITY,
    RECIPROCAL_CREDIBILITY,
)
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import site_of

KEPT = "kept"
NOT_TRANSLATION = "not_translation"
"""The verdicts of :func:`.crawl_round.judge_pair` that a tally tells apart."""
CREDIBLE_SHARE = 0.9
"""A site's declarations are credible when this share of its declared pairs verify, or more."""
MIN_JUDGED = 5
"""Fewer declared pairs judged than this: too few to call the site's declarations credible."""
BORDERLINE_PROBABILITY = 0.3
"""The content verifier's probability from which a pair a credible site declares is kept
(the verifier's own threshold is higher: ``models/pair_verifier.json``)."""
CONTENT_UNKNOWN = 0.5
"""A pair's content score when its content was not verified (no verifier, a page not kept)."""
EVIDENCE = "declarations"
"""How a site's evidence line on its declared pairs begins (:meth:`DeclarationTally.evidence`)."""
CREDIBILITY_WEIGHT = 0.1
"""What a pair's credibility (0-1) adds to its content score in :func:`evidence`: enough to
settle a tie, never enough to outweigh content."""


def is_declared(pair: UrlPair) -> bool:
    """Whether a pair is one a page declares (hreflang, sitemap, switcher, toggle)."""
    return pair.method in DECLARED_METHODS


def reciprocal(pair: UrlPair) -> bool:
    """Whether both pages of a declared pair name each other (:func:`.alternates.alternate_pairs`
    gives such a pair :data:`RECIPROCAL_CREDIBILITY` until :func:`with_site_credibility`)."""
    return pair.local_credibility == RECIPROCAL_CREDIBILITY


@dataclass(frozen=True)
class DeclarationTally:
    """What became of a site's declared pairs."""

    verified: int = 0
    """Declared pairs kept by every check (a rescued one included)."""
    failed: int = 0
    """Declared pairs a check rejected."""
    rescued: int = 0
    """Of the verified, those kept as borderline translations of a credible site."""
    corroborated: int = 0
    """Of those the content verifier rejected (before any rescue), those a URL pattern of the
    site pairs too."""
    outweighed: int = 0
    """Of the verified, those one of whose pages had a better attested partner."""

    @property
    def judged(self) -> int:
        return self.verified + self.failed

    @property
    def overruled(self) -> int:
        """The declarations not taken: rejected by a check, or outweighed."""
        return self.failed + self.outweighed

    @property
    def credibility(self) -> float:
        """The share of its declared pairs that hold: kept by the checks before any rescue, or
        corroborated by a URL pattern (0.0 when none was judged)."""
        held = self.verified - self.rescued + self.corroborated
        return held / self.judged if self.judged else 0.0

    @property
    def credible(self) -> bool:
        return self.judged >= MIN_JUDGED and self.credibility >= CREDIBLE_SHARE

    def plus(self, **counts: int) -> DeclarationTally:
        return replace(self, **{name: getattr(self, name) + n for name, n in counts.items()})

    def evidence(self) -> str:
        """The tally in one line of a site's evidence: ``declarations: 30 of 40 verified, 2
        corroborated by a URL pattern (credibility 0.80), 1 rescued, 12 overruled``."""
        return (
            f"{EVIDENCE}: {self.verified - self.rescued} of {self.judged} verified, "
            f"{self.corroborated} corroborated by a URL pattern "
            f"(credibility {self.credibility:.2f}), {self.rescued} rescued, "
            f"{self.overruled} overruled"
        )

    def as_dict(self) -> dict[str, float | int]:
        return {
            "judged": self.judged,
            "verified": self.verified,
            "rescued": self.rescued,
            "corroborated": self.corroborated,
            "overruled": self.overruled,
            "credibility": round(self.credibility, 4),
        }


def tally_declarations(
    judged: Iterable[tuple[UrlPair, str]], pattern_pairs: Collection[frozenset[str]] = ()
) -> dict[str, DeclarationTally]:
    """Each site's tally of its declared pairs, from ``(pair, why)`` for every pair judged
    (``why``: ``kept``, or why it was rejected; pairs found otherwise are left out), with the
    pairs URL patterns found (``pattern_pairs``, unordered) that corroborate a declared pair
    the content verifier rejected."""
    tallies: dict[str, DeclarationTally] = {}
    for pair, why in judged:
        if is_declared(pair):
            site = site_of(pair.source)
            kept = why == KEPT
            corroborated = why == NOT_TRANSLATION and frozenset((pair.source, pair.target)) in (
                pattern_pairs
            )
            tallies[site] = tallies.get(site, DeclarationTally()).plus(
                verified=int(kept), failed=int(not kept), corroborated=int(corroborated)
            )
    return tallies


def with_site_credibility(pair: UrlPair, tallies: Mapping[str, DeclarationTally]) -> UrlPair:
    """A declared pair with its site's declaration credibility (halved for a pair one page
    names); any other pair as it is."""
    if not is_declared(pair):
        return pair
    tally = tallies.get(site_of(pair.source))
    share = tally.credibility if tally else 0.0
    factor = 1.0 if reciprocal(pair) else ONE_WAY_CREDIBILITY
    credibility = round(share * factor, 4)
    return replace(pair, local_credibility=credibility, global_credibility=credibility)


def evidence(pair: UrlPair, corroborated: bool = False) -> float:
    """How strongly a pair is attested: the content verifier's probability (or
    :data:`CONTENT_UNKNOWN`), plus :data:`CREDIBILITY_WEIGHT` times its best credibility (a
    pattern's local or global, a site's declarations'), plus as much again when both a URL
    pattern and a declaration found it (``corroborated``: two sources). Content first: a
    declaration, however credible its site, does not outweigh a pair whose content is clearly
    the better translation."""
    verification = pair.verification or {}
    probability = verification.get("probability")
    content = float(probability) if probability is not None else CONTENT_UNKNOWN
    credibility = max(pair.local_credibility, pair.global_credibility)
    return content + CREDIBILITY_WEIGHT * (min(credibility, 1.0) + corroborated)
