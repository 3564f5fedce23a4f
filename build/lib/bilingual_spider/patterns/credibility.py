"""Credibility of pairing patterns and of sites (Zhang et al. 2018, definitions 3-5).

- local credibility  C(k, w) = N(k, w) / |w|                        (eq. 3)
- global credibility C(k) = sum_i N(k, w_i) / N * C(k, w_i)          (eq. 4)
- site credibility   C(w) = max_k C(k, w)                             (eq. 5)

N(k, w) = 2 p(k, w) is the number of pages k matches in site w, |w| the pages of w, N the pages
of all candidate sites. When page languages are known, |w| for k counts only the pages k could
apply to (``SiteMining.pattern_pages``): those whose URL carries one of its units when both name
a language, else those in the languages its pairs join. The paper's sites are bilingual, where
that is all of w; on a site in 19 languages eq. 3 as written caps every language-pair pattern at
2/19, under the 0.1 threshold however regular the site. The paper drops the constant 1/N when
ranking and thresholds the sum itself (theta = 500): we keep both,
:attr:`Credibility.global_score` (the sum without 1/N, in "pages matched, weighted by local
credibility") and :meth:`Credibility.global_credibility` (eq. 4 as written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bilingual_spider.patterns.mining import PairingPattern, SiteMining, matched_pages


def local_credibility(matched: int, pages: int) -> float:  # eq. 3
    """C(k, w) = N(k, w) / |w|."""
    return matched / pages if pages else 0.0


def global_credibility(
    per_site: Iterable[tuple[int, float]], total_pages: int | None = None
) -> float:  # eq. 4
    """C(k) = sum_i N(k, w_i) / N * C(k, w_i), from (N(k, w_i), C(k, w_i)) of each site.

    Without ``total_pages`` (N) the constant is dropped, as in the paper's experiments.
    """
    score = sum(matched * local for matched, local in per_site)
    return score / total_pages if total_pages else score


def site_credibility(local: Iterable[float]) -> float:  # eq. 5
    """C(w) = max_k C(k, w); 0 for a site with no pattern."""
    return max(local, default=0.0)


@dataclass(frozen=True)
class Credibility:
    """The credibility of every pattern in every site, of every pattern, and of every site."""

    pages: Mapping[str, int]
    """|w| of each site."""
    matched: Mapping[str, Mapping[PairingPattern, int]]
    """N(k, w) of each site and pattern."""
    local: Mapping[str, Mapping[PairingPattern, float]]
    """C(k, w) of each site and pattern."""
    global_score: Mapping[PairingPattern, float]
    """N * C(k): eq. 4 without the constant 1/N (what the paper's theta = 500 applies to)."""
    site: Mapping[str, float]
    """C(w) of each site."""
    total_pages: int
    """N."""
    _ranked: tuple[PairingPattern, ...] = field(default=(), repr=False)

    def global_credibility(self, pattern: PairingPattern) -> float:  # eq. 4
        """C(k) with its constant 1/N."""
        score = self.global_score.get(pattern, 0.0)
        return score / self.total_pages if self.total_pages else 0.0

    def top_patterns(self, n: int | None = None) -> tuple[PairingPattern, ...]:
        """Patterns by decreasing global credibility (ties: the pattern's sort order)."""
        return self._ranked if n is None else self._ranked[:n]

    def local_of(self, site: str, pattern: PairingPattern) -> float:
        return self.local.get(site, {}).get(pattern, 0.0)


def credibility(mined: Mapping[str, SiteMining]) -> Credibility:
    """Credibility tables from the candidate pairs of each site (eq. 2-5)."""
    pages = {site: m.pages for site, m in mined.items()}
    matched = {
        site: {k: matched_pages(p) for k, p in m.pattern_counts().items()}
        for site, m in mined.items()
    }
    local = {
        site: {
            k: local_credibility(n, mined[site].pattern_pages.get(k, pages[site]))
            for k, n in counts.items()
        }
        for site, counts in matched.items()
    }
    per_pattern: dict[PairingPattern, list[tuple[int, float]]] = {}
    for site, counts in matched.items():
        for k, n in counts.items():
            per_pattern.setdefault(k, []).append((n, local[site][k]))
    score = {k: global_credibility(values) for k, values in per_pattern.items()}
    sites = {site: site_credibility(values.values()) for site, values in local.items()}
    ranked = tuple(sorted(score, key=lambda k: (-score[k], k)))
    return Credibility(pages, matched, local, score, sites, sum(pages.values()), ranked)
