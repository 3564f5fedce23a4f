"""The non-bilingual pair filter (Zhang et al. 2018, section 5, definition 9, eq. 7-9).

Two parallel pages link to pages that are themselves the same page or parallel pages. For a
candidate pair (target page wT, source page wS) with links LT and LS:

    Sim(wT, wS) = a Sim_Same(LT, LS) + (1 - a) Sim_Pattern(LT, LS)       (eq. 7, a = 0.5)

Our reading of eq. 8 and 9, whose images are lost ("the ratio of the total pages of the common
page pairs in LT and LS to the total pages of LT and LS"; "the sum of N(k, pi) C(k) over the
link pairs pi a pattern matches, divided by the total pages"):

    Sim_Same    = 2 |LT & LS| / (|LT| + |LS|)                               (eq. 8)
    Sim_Pattern = sum_k N(k, LT u LS) C(k) / (|LT| + |LS|)                  (eq. 9)

with N(k, LT u LS) = 2 p(k, LT u LS): the links of wT and wS that pattern k pairs across the two
pages, each pair counted twice (its two pages), so with C(k) = 1 both terms lie in [0, 1]. The
sum runs over patterns (each matched link pair counts once, weighted by its pattern), not over
link pairs times N, which would count a pattern's pairs squared. Links are de-duplicated; a link
pair counts only when one link is on each page. The paper's experiment used the top 30 global
patterns with C(k) = 1; ``pattern_weights`` gives C(k) (default 1 for the patterns given).
Pairs with Sim = 0 are dropped. A two-place pattern (``<en,de+de>``: ``x.en.html`` and
``de/x.de.html``, mined by :mod:`.mining`'s marker keys) matches the link pairs that differ in
just its language markers, as it matches URL pairs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Container, Iterable, Mapping

from bilingual_spider.patterns.markers import MARKER_JOINER
from bilingual_spider.patterns.mining import PairingPattern, marker_difference, marker_keys
from bilingual_spider.patterns.units import split_url, substitute

ALPHA = 0.5


def same_links_similarity(
    target_links: Iterable[str], source_links: Iterable[str]
) -> float:  # eq. 8
    """Sim_Same: the share of the two pages' links that both pages have."""
    lt, ls = set(target_links), set(source_links)
    total = len(lt) + len(ls)
    return 2 * len(lt & ls) / total if total else 0.0


def pattern_links_similarity(
    target_links: Iterable[str],
    source_links: Iterable[str],
    pattern_weights: Mapping[PairingPattern, float],
) -> float:  # eq. 9
    """Sim_Pattern: link pairs (one link on each page) a pattern k matches, each counting
    2 C(k), over the two pages' links."""
    lt, ls = set(target_links), set(source_links)
    total = len(lt) + len(ls)
    if not total:
        return 0.0
    two_place = {k for k in pattern_weights if MARKER_JOINER in k.first + k.second}
    matched_two_place = two_place_link_pairs(lt, ls, two_place) if two_place else Counter()
    score = 0.0
    for pattern, weight in pattern_weights.items():
        if pattern in two_place:
            matched = matched_two_place[pattern]
        else:
            matched = link_pairs_matched(lt, ls, pattern)
        score += 2 * matched * weight
    return score / total


def link_pairs_matched(
    target_links: set[str], source_links: set[str], pattern: PairingPattern
) -> int:
    """p(k, LT u LS): links of one page whose whole-unit substitution by k is a link of the
    other (each pair once). A two-place pattern (``<en,de+de>``: ``x.en.html`` and
    ``de/x.de.html``) substitutes no one unit: it pairs the links that differ in just its
    language markers (:func:`two_place_link_pairs`)."""
    if MARKER_JOINER in pattern.first + pattern.second:
        return two_place_link_pairs(target_links, source_links, {pattern})[pattern]
    pairs = set()
    for old, new in ((pattern.first, pattern.second), (pattern.second, pattern.first)):
        for link in target_links:
            for made in substitute(link, old, new):
                if made in source_links and made != link:
                    pairs.add((link, made))
    return len(pairs)


def two_place_link_pairs(
    target_links: Iterable[str], source_links: Iterable[str], patterns: Container[PairingPattern]
) -> Counter[PairingPattern]:
    """p(k, LT u LS) of each two-place pattern k in ``patterns``: the link pairs (one link on
    each page) that share a :func:`~.mining.marker_keys` key and differ in k's two units, as
    PupSniffer's mining pairs two URLs by such a pattern."""
    keyed_sources: dict[int, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for link in source_links:
        for key, markers in marker_keys(split_url(link)):
            keyed_sources[key].append((link, markers))
    pairs: dict[PairingPattern, set[tuple[str, str]]] = defaultdict(set)
    for link in target_links:
        for key, markers in marker_keys(split_url(link)):
            for other, other_markers in keyed_sources.get(key, ()):
                units_differing = marker_difference(markers, other_markers)
                if other != link and units_differing is not None:
                    pattern = PairingPattern.of(*units_differing)
                    if pattern in patterns:
                        pairs[pattern].add((link, other))
    return Counter({pattern: len(matched) for pattern, matched in pairs.items()})


def bilingual_similarity(
    target_links: Iterable[str],
    source_links: Iterable[str],
    pattern_weights: Mapping[PairingPattern, float],
    alpha: float = ALPHA,
) -> float:  # eq. 7
    """Sim(wT, wS) = a Sim_Same + (1 - a) Sim_Pattern."""
    lt, ls = set(target_links), set(source_links)
    same = same_links_similarity(lt, ls)
    return alpha * same + (1 - alpha) * pattern_links_similarity(lt, ls, pattern_weights)


def unit_weights(patterns: Iterable[PairingPattern]) -> dict[PairingPattern, float]:
    """C(k) = 1 for each pattern, as in the paper's experiment (top 30 global patterns)."""
    return dict.fromkeys(patterns, 1.0)


def keep_pair(similarity: float) -> bool:
    """The filter: a pair whose similarity is 0 is not bilingual."""
    return similarity > 0.0
