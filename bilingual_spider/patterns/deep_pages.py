"""Deep pages: the other-language URL of an unpaired page, and whether it exists (section 4.3).

For a page whose translation was never crawled, the top-10 global patterns are substituted, as
whole units, into its URL (``/tc_chi/`` -> ``/english/``; ``/english-news/`` is never touched).
Whether a generated URL exists is decided by an HTTP check done elsewhere (a Scrapy adapter:
HEAD, then GET for the text); :func:`judge_candidate` only reads what that check saw and rejects
soft 404s: a 200 whose page is the site's not-found page, or the page we came from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from bilingual_spider.patterns.credibility import Credibility
from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import DEEP, UrlPair
from bilingual_spider.patterns.resemblance import Fingerprint, fingerprint, resemblance
from bilingual_spider.patterns.units import split_url, substitute, substitute_everywhere

DEEP_TOP_PATTERNS = 10
SAME_PAGE_RESEMBLANCE = 0.9
"""Two texts at least this alike (Jaccard of 5-gram shingles) are one page."""
_URLISH = re.compile(r"\S*[/\\]\S*")


@dataclass(frozen=True)
class DeepCandidate:
    """A URL generated from ``source`` by substituting ``old`` with ``new`` (rank: the pattern's
    place among the global patterns, 0 first)."""

    source: str
    candidate: str
    pattern: PairingPattern
    old: str
    new: str
    rank: int


class CandidateStatus(StrEnum):
    EXISTS = "exists"
    MISSING = "missing"
    """An error status, or no answer."""
    SOFT_404 = "soft_404"
    """A 200 that is the site's not-found page, an empty page, or a redirect to the home page."""
    SAME_AS_SOURCE = "same_as_source"
    """A 200 that is the page we came from (the server ignored the language marker)."""


def deep_candidates(
    url: str, patterns: Sequence[PairingPattern], top: int = DEEP_TOP_PATTERNS
) -> list[DeepCandidate]:
    """The URLs the ``top`` first patterns make from ``url``, most credible pattern first.

    A pattern is tried both ways (<en, tc>: en -> tc and tc -> en); substituting "nothing" (a
    pattern <"", fr>) inserts ``fr`` as a first directory or ``lang=fr`` as a parameter. A URL
    that names its language in several units has one candidate by a pattern, every such unit
    replaced (:func:`~.units.substitute_everywhere`): the Debian FAQ's ``de/x.de.html`` has
    ``fr/x.fr.html``, and its single replacements, ``fr/x.de.html`` and ``de/x.fr.html``, are
    pages no site has.
    """
    made: dict[str, DeepCandidate] = {}
    for rank, k in enumerate(patterns[:top]):
        for old, new in ((k.first, k.second), (k.second, k.first)):
            if not old and _has_unit(url, new):
                continue
            everywhere = substitute_everywhere(url, old, new)
            for candidate in [everywhere] if everywhere else substitute(url, old, new):
                made.setdefault(candidate, DeepCandidate(url, candidate, k, old, new, rank))
    return list(made.values())


def _has_unit(url: str, unit: str) -> bool:
    """``url`` already has the unit an insertion would add (no ``/fr/fr/x``)."""
    return any(u.value == unit for u in split_url(url).units())


def judge_candidate(
    candidate_url: str,
    status: int | None,
    final_url: str | None,
    text: str,
    source_url: str,
    source_text: str | Fingerprint,
    not_found: str | Fingerprint | None = None,
    same_page: float = SAME_PAGE_RESEMBLANCE,
) -> CandidateStatus:
    """What the HTTP check of a generated URL says about it.

    Parameters
    ----------
    status : the final HTTP status after redirects (None: no answer).
    final_url : the URL that answered, after redirects.
    text : the main text of the page that answered.
    source_text : the source page's text or fingerprint.
    not_found : the text of the site's not-found page, or its :func:`not_found_fingerprint`
        (the adapter gets it by asking for a URL that cannot exist), when known.
    """
    if status is None or not 200 <= status < 300:
        return CandidateStatus.MISSING
    final = final_url or candidate_url
    if _same_url(final, source_url):
        return CandidateStatus.SAME_AS_SOURCE
    if not text.strip() or (not _same_url(final, candidate_url) and _is_home(final)):
        return CandidateStatus.SOFT_404
    if not_found is not None and _is_not_found_page(text, not_found, same_page):
        return CandidateStatus.SOFT_404
    if is_same_page(text, source_text, same_page):
        return CandidateStatus.SAME_AS_SOURCE
    return CandidateStatus.EXISTS


def is_same_page(
    text: str, other: str | Fingerprint, same_page: float = SAME_PAGE_RESEMBLANCE
) -> bool:
    """Whether two texts (or a text and another's fingerprint) are one page's."""
    return resemblance(fingerprint(text), _fingerprint(other)) >= same_page


def not_found_fingerprint(text: str) -> Fingerprint:
    """The fingerprint of a not-found page without the URLs and paths in it: such pages often
    repeat the URL that was asked for, which is different every time."""
    return fingerprint(_URLISH.sub(" ", text))


def _is_not_found_page(text: str, not_found: str | Fingerprint, same_page: float) -> bool:
    template = not_found_fingerprint(not_found) if isinstance(not_found, str) else not_found
    return resemblance(not_found_fingerprint(text), template) >= same_page


def _fingerprint(text_or_fingerprint: str | Fingerprint) -> Fingerprint:
    if isinstance(text_or_fingerprint, str):
        return fingerprint(text_or_fingerprint)
    return text_or_fingerprint


def _same_url(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.netloc.lower(), pa.path or "/", pa.query) == (
        pb.netloc.lower(),
        pb.path or "/",
        pb.query,
    )


def _is_home(url: str) -> bool:
    path = urlsplit(url).path.strip("/")
    return path in ("", "index.html", "index.htm", "index.php", "default.aspx")


def candidate_url_pair(
    candidate: DeepCandidate, credibility: Credibility, method: str = DEEP
) -> UrlPair:
    """The pair a generated URL makes once :func:`judge_candidate` says it exists: ``deep``
    (4.3) or ``search`` (4.5). Languages are those the substituted units name, if any."""
    site = split_url(candidate.source).site
    return UrlPair(
        candidate.source,
        candidate.candidate,
        candidate.pattern,
        credibility.local_of(site, candidate.pattern),
        credibility.global_credibility(candidate.pattern),
        method,
        language_of_unit(candidate.old) if candidate.old else None,
        language_of_unit(candidate.new) if candidate.new else None,
    )
