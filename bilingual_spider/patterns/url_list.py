"""Offline mining of a list of URLs (what ``bilingual-spider patterns URLS_FILE`` will call).

URLs are grouped by site (the registered domain, so that ``en.x.com`` and ``fr.x.com`` are one
site), mined (eq. 1-2), their patterns' credibility computed (eq. 3-5), and pairs discovered
(4.1, 4.2).

With a language for each URL (page language ID), only URLs of different languages pair up, as
in the paper. Without languages (URL-only mode), a pattern is a candidate only when it is a
*language pattern* (``markers.is_language_pattern``): its units name two different languages
(``en``/``fr``, ``english``/``francais``, ``lang=en``/``lang=fr``, ``tc``/``english``) or one
language and nothing (``/fr/`` added on one side); or two initials, or one and nothing
(``_e``/``_f``, ``report_f.asp``), or numbers given to a language parameter (``clang=1`` /
``clang=2``, ``&lang=2`` added), which pair pages without saying their languages. Otherwise
every ``page1``/``page2`` of a paginated list would be a pattern, and in small sites it would be
as credible as a real one.
Units that cannot be part of a language pattern are not even hashed, which also makes URL-only
mining several times faster.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bilingual_spider.patterns.credibility import Credibility, credibility
from bilingual_spider.patterns.markers import is_language_pattern, is_language_unit
from bilingual_spider.patterns.mining import (
    DEFAULT_MAX_GROUP,
    PairingPattern,
    SiteMining,
    collector_paused,
    mine_sites,
)
from bilingual_spider.patterns.pairing import PairingConfig, UrlPair, discover_pairs
from bilingual_spider.patterns.units import is_well_formed

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class UrlListResult:
    mined: Mapping[str, SiteMining]
    """Candidate pairs of each site."""
    credibility: Credibility
    pairs: tuple[UrlPair, ...]
    malformed: tuple[str, ...] = ()
    """The URLs left out because they are no URL (``http://[::1/x``: see
    :func:`~.units.is_well_formed`), in input order."""

    def top_patterns(self, n: int | None = None) -> tuple[PairingPattern, ...]:
        return self.credibility.top_patterns(n)


def mine_url_list(
    urls: Iterable[str],
    languages: Mapping[str, str] | None = None,
    config: PairingConfig | None = None,
    language_patterns_only: bool | None = None,
    max_group: int = DEFAULT_MAX_GROUP,
) -> UrlListResult:
    """Patterns, credibilities and pairs of a list of URLs.

    Parameters
    ----------
    urls : any URLs, of any number of sites; duplicates count once.
    languages : the language of each URL (a URL missing from it pairs with none), or None.
    config : thresholds of pair discovery.
    language_patterns_only : keep only language patterns; by default, when no languages.
    max_group : see ``mining.DEFAULT_MAX_GROUP``.

    A URL that is malformed costs that URL only: it is left out, logged, and listed in the
    result's ``malformed``.
    """
    urls, malformed = _well_formed(urls)
    if language_patterns_only is None:
        language_patterns_only = languages is None
    keep = is_language_unit if language_patterns_only else None
    accept = is_language_pattern if language_patterns_only else None
    with collector_paused():
        mined = mine_sites(urls, languages, keep, accept, max_group)
        table = credibility(mined)
        pairs = discover_pairs(mined, table, config, languages)
        return UrlListResult(mined, table, tuple(pairs), malformed)


def _well_formed(urls: Iterable[str]) -> tuple[list[str], tuple[str, ...]]:
    """The URLs that are well formed, and the others (each logged)."""
    kept, malformed = [], []
    for url in urls:
        (kept if is_well_formed(url) else malformed).append(url)
    for url in malformed:
        logger.warning("malformed URL left out of pattern mining: %r", url)
    return kept, tuple(malformed)
