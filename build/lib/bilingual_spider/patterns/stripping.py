"""The comparator PupSniffer must beat: strip language identifiers, match equal remainders.

Every unit of a URL that names a language (``markers.language_of_unit``: ``en``, ``fr``,
``english``, ``lang=fr``, ``en`` in ``en_rep_04.htm``) is removed; URLs of one site whose
remainders are equal and whose removed markers name different languages are paired. No
credibility, no patterns: what a hand-written matcher does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations

from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.units import QUERY, split_url

MAX_GROUP = 20
"""Remainders shared by more URLs than this are not paired (the same cap idea as mining)."""


def stripped(url: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The URL's units without language markers (query sorted), and the languages removed."""
    kept, languages = [], set()
    units = split_url(url)
    for unit in units.units():
        language = language_of_unit(unit.value) if unit.value else None
        if language is not None:
            languages.add(language)
        elif unit.kind != QUERY:
            kept.append(f"{unit.kind}:{unit.value}")
    query = sorted(
        u.value for u in units.units() if u.kind == QUERY and not language_of_unit(u.value)
    )
    return (units.site, *kept, *query), frozenset(languages)


def stripping_pairs(urls: Iterable[str], max_group: int = MAX_GROUP) -> list[tuple[str, str]]:
    """Pairs of URLs equal once their language markers are stripped (sorted within a pair)."""
    groups: dict[tuple[str, ...], list[tuple[str, frozenset[str]]]] = defaultdict(list)
    for url in sorted(set(urls)):
        key, languages = stripped(url)
        groups[key].append((url, languages))
    pairs = []
    for members in groups.values():
        if len(members) > max_group:
            continue
        for (a, la), (b, lb) in combinations(members, 2):
            if la != lb:
                pairs.append((min(a, b), max(a, b)))
    return sorted(pairs)
