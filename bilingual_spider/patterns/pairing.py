"""Pair discovery from credible patterns (Zhang et al. 2018, sections 4.1 and 4.2).

4.1: a candidate pair is kept when its pattern's local credibility C(k, w) reaches a threshold
(0.1 in the paper). 4.2 rescues weak patterns in two ways:

- a pattern under the local threshold is kept when it is globally credible. The paper's
  theta = 500 applies to C(k) without its constant 1/N (section 3 says N is dropped in the
  experiments), i.e. to sum_i N(k, w_i) C(k, w_i): "pages matched across the crawl, each
  weighted by how credible k is in its site". Its value depends on the crawl's size (12,800
  sites), so a pattern is also rescued when it ranks among the ``rescue_top`` global patterns
  (10, the number section 4.3 trusts for deep pages); either is enough.
- a site whose *domain* (its public suffix: ``gov.hk``, ``edu.hk``) is credible gets a lower
  local threshold. The paper does not define a domain's credibility beyond "associating
  pattern credibility with domain names"; we take the mean site credibility C(w) of the
  domain's sites, counted only when the domain has at least ``domain_min_sites`` sites.

Each URL keeps at most one partner per pattern (the most credible pair wins), so a pattern that
matches a URL twice (``/x`` <-> ``/fr/x`` and ``/x?lang=fr``) cannot pair it twice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from bilingual_spider.language.tld import public_suffix
from bilingual_spider.patterns.credibility import Credibility
from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.mining import CandidatePair, PairingPattern, SiteMining

LOCAL, RESCUE, DEEP, SEARCH = "local", "rescue", "deep", "search"


@dataclass(frozen=True)
class PairingConfig:
    local_threshold: float = 0.1
    """4.1: minimum C(k, w)."""
    rescue_theta: float | None = 500.0
    """4.2: minimum sum_i N(k, w_i) C(k, w_i) (C(k) without 1/N) to rescue a weak pattern."""
    rescue_top: int = 10
    """4.2: a pattern among this many top global patterns is rescued too (0: never)."""
    domain_credibility: float = 0.5
    """4.2: a domain whose sites' mean C(w) reaches this gets ``domain_local_threshold``."""
    domain_local_threshold: float = 0.05
    domain_min_sites: int = 3


@dataclass(frozen=True)
class UrlPair:
    """A pair of pages taken as translations of each other, and why."""

    source: str
    target: str
    pattern: PairingPattern
    local_credibility: float
    global_credibility: float
    method: str
    """``local`` (4.1), ``rescue`` (4.2), ``deep`` (4.3) or ``search`` (4.5)."""
    source_language: str | None = None
    target_language: str | None = None
    similarity: float | None = None
    """Sim(wT, wS) of eq. 7, once the pages' links are known."""
    verification: Mapping[str, Any] | None = field(default=None, hash=False, compare=False)
    """The content signals of the two pages and the verifier's probability, once verified."""
    language_signals: tuple[str, str] | None = field(default=None, hash=False, compare=False)
    """Which signal decided each page's language (``identifier``, ``declared_close``,
    ``declared_unknown``: :mod:`bilingual_spider.language.declared_language`), once judged."""


def domain_of(site: str) -> str:
    """The domain a site's credibility is pooled under: its public suffix (``gov.hk``)."""
    return public_suffix(site) or site


def domain_credibility(credibility: Credibility, min_sites: int = 1) -> dict[str, float]:
    """Mean C(w) of the sites of each domain that has at least ``min_sites`` sites."""
    by_domain: dict[str, list[float]] = defaultdict(list)
    for site, value in credibility.site.items():
        by_domain[domain_of(site)].append(value)
    return {d: mean(v) for d, v in by_domain.items() if len(v) >= min_sites}


def rescued_patterns(credibility: Credibility, config: PairingConfig) -> frozenset[PairingPattern]:
    """4.2: the patterns global credibility rescues."""
    kept = set(credibility.top_patterns(config.rescue_top)) if config.rescue_top > 0 else set()
    if config.rescue_theta is not None:
        kept |= {k for k, s in credibility.global_score.items() if s >= config.rescue_theta}
    return frozenset(kept)


def local_threshold(site: str, domains: Mapping[str, float], config: PairingConfig) -> float:
    """The site's local threshold: lower when its domain is credible (4.2)."""
    if domains.get(domain_of(site), 0.0) >= config.domain_credibility:
        return min(config.domain_local_threshold, config.local_threshold)
    return config.local_threshold


def discover_pairs(
    mined: Mapping[str, SiteMining],
    credibility: Credibility,
    config: PairingConfig | None = None,
    languages: Mapping[str, str] | None = None,
) -> list[UrlPair]:
    """4.1 and 4.2: the candidate pairs whose pattern is credible in their site, or rescued."""
    config = config or PairingConfig()
    rescued = rescued_patterns(credibility, config)
    domains = domain_credibility(credibility, config.domain_min_sites)
    kept = []
    for site, mining in mined.items():
        threshold = local_threshold(site, domains, config)
        for pair in mining.pairs:
            local = credibility.local_of(site, pair.pattern)
            if local >= config.local_threshold:
                method = LOCAL
            elif local >= threshold or pair.pattern in rescued:
                method = RESCUE
            else:
                continue
            kept.append(_url_pair(pair, local, credibility, method, languages))
    return one_partner_per_pattern(kept)


def _url_pair(
    pair: CandidatePair,
    local: float,
    credibility: Credibility,
    method: str,
    languages: Mapping[str, str] | None,
) -> UrlPair:
    k = pair.pattern
    if languages is not None:
        first, second = languages.get(pair.first_url), languages.get(pair.second_url)
    else:
        first, second = _marker_language(k.first), _marker_language(k.second)
    return UrlPair(
        pair.first_url,
        pair.second_url,
        k,
        local,
        credibility.global_credibility(k),
        method,
        first,
        second,
    )


def _marker_language(unit: str) -> str | None:
    return language_of_unit(unit) if unit else None


def one_partner_per_pattern(pairs: list[UrlPair]) -> list[UrlPair]:
    """Keep, for each URL and pattern, only its most credible pair (ties: URL order)."""
    ranked = sorted(pairs, key=lambda p: (-p.local_credibility, p.source, p.target))
    taken: set[tuple[str, PairingPattern]] = set()
    kept = []
    for pair in ranked:
        ends = ((pair.source, pair.pattern), (pair.target, pair.pattern))
        if ends[0] in taken or ends[1] in taken:
            continue
        taken.update(ends)
        kept.append(pair)
    return sorted(kept, key=lambda p: (p.source, p.target))
