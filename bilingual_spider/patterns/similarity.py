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
Pairs with Sim = 0 are dropped. Beyond the paper, for a pair a page declares (hreflang, a
switcher, a toggle), a link pair one of whose pages names the other as its translation
(``declared``) counts as a link pair a pattern with C(k) = 1 matches: on a site of translated
slugs (``/en/components/`` and ``/fr/composants/``) no pattern pairs the links of two
translations, and their menus' links are each other's declared versions. A pattern's pair is
filtered as the paper filters it (a menu's declared links would let any two pages of a site
through). A two-place pattern (``<en,de+de>``: ``x.en.html`` and
``de/x.de.html``, mined by :mod:`.mining`'s marker keys) matches the link pairs that differ in
just its language markers, as it matches URL pairs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Container, Iterable, Mapping

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
    declared: Mapping[str, Collection[str]] | None = None,
) -> float:  # eq. 9
    """Sim_Pattern: link pairs (one link on each page) a pattern k matches, each counting
    2 C(k), and those a page ``declared`` its versions (URL -> the URLs named as its versions,
    either way), each counting 2, over the two pages' links."""
    lt, ls = set(target_links), set(source_links)
    total = len(lt) + len(ls)
    if not total:
        return 0.0
    score = 2.0 * declared_link_pairs(lt, ls, declared) if declared else 0.0
    two_place = {k for k in pattern_weights if MARKER_JOINER in k.first + k.second}
    matched_two_place = two_place_link_pairs(lt, ls, two_place) if two_place else Counter()
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


def declared_link_pairs(
    target_links: set[str], source_links: set[str], declared: Mapping[str, Collection[str]]
) -> int:
    """The link pairs (one link on each page) of which one names the other as its version."""
    return sum(
        1
        for link in target_links
        for other in declared.get(link, ())
        if other in source_links and other != link
    )


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
    declared: Mapping[str, Collection[str]] | None = None,
) -> float:  # eq. 7
    """Sim(wT, wS) = a Sim_Same + (1 - a) Sim_Pattern."""
    lt, ls = set(target_links), set(source_links)
    same = same_links_similarity(lt, ls)
    pattern = pattern_links_similarity(lt, ls, pattern_weights, declared)
    return alpha * same + (1 - alpha) * pattern


def unit_weights(patterns: Iterable[PairingPattern]) -> dict[PairingPattern, float]:
    """C(k) = 1 for each pattern, as in the paper's experiment (top 30 global patterns)."""
    return dict.fromkeys(patterns, 1.0)


def keep_pair(similarity: float) -> bool:
    """The filter: a pair whose similarity is 0 is not bilingual."""
    return similarity > 0.0
