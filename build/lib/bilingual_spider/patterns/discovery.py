"""Incremental discovery of bilingual sites (Zhang et al. 2018, section 4.4, definitions 6-8).

Seed sites link to external sites; the external sites are ranked and the top K crawled next
round. Each seed site w_i has three values, computed on the links *among seed sites* only (the
paper does so to save cost):

- Linkout(w_i): the number of links from w_i to other seed sites (definition 6);
- PR(w_i): its PageRank in the seed-site graph (definition 7; damping 0.85);
- WPR(w_i) = C(w_i) PR(w_i): PageRank weighted by the site's credibility (eq. 6).

An external site x is scored by the sum of each value over the seed sites that link to it
(sum Linkout, sum PR, sum WPR); sum WPR was best in the paper (about 50% of the top 500 were
bilingual). The plain number of seed sites linking to x is reported too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DAMPING = 0.85

SiteGraph = Mapping[str, Iterable[str]]
"""Each site and the sites it links to (a site linking to itself is ignored)."""


@dataclass(frozen=True)
class ExternalSite:
    site: str
    in_links: int
    """Seed sites linking to it."""
    linkout: float
    """sum of Linkout(w_i) over the seed sites w_i linking to it."""
    pagerank: float
    """sum of PR(w_i)."""
    wpr: float
    """sum of WPR(w_i) = C(w_i) PR(w_i)."""


def pagerank(
    graph: SiteGraph, damping: float = DAMPING, tolerance: float = 1e-12, max_iter: int = 200
) -> dict[str, float]:  # definition 7
    """PageRank by power iteration; a site without out-links spreads its rank evenly. Sums to 1."""
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    if not nodes:
        return {}
    out = {n: sorted(set(graph.get(n, ())) - {n}) for n in nodes}
    size = len(nodes)
    rank = dict.fromkeys(nodes, 1.0 / size)
    for _ in range(max_iter):
        dangling = sum(rank[n] for n in nodes if not out[n])
        base = (1.0 - damping) / size + damping * dangling / size
        new = dict.fromkeys(nodes, base)
        for n in nodes:
            if out[n]:
                share = damping * rank[n] / len(out[n])
                for target in out[n]:
                    new[target] += share
        change = sum(abs(new[n] - rank[n]) for n in nodes)
        rank = new
        if change < tolerance:
            break
    return rank


def linkout(graph: SiteGraph, seeds: Iterable[str]) -> dict[str, int]:  # definition 6
    """Linkout(w_i): how many other seed sites each seed site links to."""
    seed_set = set(seeds)
    return {s: len(set(graph.get(s, ())) & seed_set - {s}) for s in seed_set}


def weighted_pagerank(
    ranks: Mapping[str, float], site_credibility: Mapping[str, float]
) -> dict[str, float]:  # eq. 6
    """WPR(w) = C(w) PR(w); a site without credibility counts 0."""
    return {site: site_credibility.get(site, 0.0) * pr for site, pr in ranks.items()}


def rank_external_sites(
    graph: SiteGraph,
    seeds: Iterable[str],
    site_credibility: Mapping[str, float],
    by: str = "wpr",
    top: int | None = None,
) -> list[ExternalSite]:
    """External sites linked from seed sites, best first by ``by`` (``wpr``, ``pagerank``,
    ``linkout`` or ``in_links``); ties broken by site name."""
    seed_set = set(seeds)
    seed_graph = {s: [t for t in graph.get(s, ()) if t in seed_set] for s in seed_set}
    ranks = pagerank(seed_graph)
    wpr = weighted_pagerank(ranks, site_credibility)
    outs = linkout(graph, seed_set)
    scores: dict[str, list[float]] = {}
    for seed in sorted(seed_set):
        for target in set(graph.get(seed, ())) - seed_set:
            row = scores.setdefault(target, [0, 0.0, 0.0, 0.0])
            row[0] += 1
            row[1] += outs[seed]
            row[2] += ranks[seed]
            row[3] += wpr[seed]
    sites = [ExternalSite(t, int(r[0]), r[1], r[2], r[3]) for t, r in scores.items()]
    sites.sort(key=lambda s: (-getattr(s, by), s.site))
    return sites if top is None else sites[:top]
