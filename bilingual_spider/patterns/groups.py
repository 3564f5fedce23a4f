"""Translation groups: the pages that translate each other, one document in N languages.

PupSniffer's pairs (patterns 4.1-4.2, deep pages 4.3, hreflang and switchers) each join two
pages. Pairs that share a page join their groups (union-find, Tarjan 1975): ``de-DE/x.html``
paired with ``en-US/x.html`` and with ``fr-FR/x.html`` is one document in de, en and fr, and
implies the pair ``en-US/x.html`` - ``fr-FR/x.html`` that no method found directly (a star of
pairs around the page a deep-page check started from). The pairs a group implies are judged like
any other pair (``crawl_round.judge_group_pairs``) before they are reported.

A group holds at most one page per language. A pair that would put two pages of one language in
one group (a wrong pair joining two documents, or two versions of one page) does not merge them:
the pair given first keeps its place and the conflict is counted. :func:`strongest_first` orders
pairs so that the best attested comes first (:func:`.declarations.evidence`: content, then
credibility, whatever method found the pair).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum

from bilingual_spider.patterns.declarations import evidence
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import split_url

GROUP = "group"
"""Method of a pair implied by a group (two members no method paired directly)."""


class Outcome(StrEnum):
    """What adding a pair did to the groups."""

    NEW = "new"
    """Two pages in no group: a new group of two."""
    JOINED = "joined"
    """A page joined the other page's group."""
    MERGED = "merged"
    """Two groups of different languages became one."""
    KNOWN = "known"
    """Both pages were in one group already."""
    CONFLICT = "conflict"
    """The pair would put two pages of one language in a group: nothing changed."""
    NO_LANGUAGE = "no_language"
    """A page of the pair has no language, or both the same one: nothing changed."""


@dataclass(frozen=True)
class Member:
    """A page of a group, and the pair that brought it in."""

    url: str
    language: str
    method: str
    """The method of the pair that brought it in (``local``, ``deep``, ``hreflang``, ...)."""
    partner: str
    """The page it was paired with then."""
    pattern: str
    local_credibility: float = 0.0
    global_credibility: float = 0.0


@dataclass(frozen=True)
class TranslationGroup:
    """Pages that translate each other, at most one per language, in the order they joined."""

    members: tuple[Member, ...]

    @property
    def group_id(self) -> str:
        """A name for the group that depends only on its pages."""
        urls = "\n".join(sorted(member.url for member in self.members))
        return hashlib.sha1(urls.encode("utf-8")).hexdigest()[:16]

    def by_language(self) -> dict[str, str]:
        return {member.language: member.url for member in self.members}

    def implied(self, found: Iterable[tuple[str, str]]) -> list[tuple[Member, Member]]:
        """The pairs of members that no pair in ``found`` joins directly: N(N-1)/2 minus the
        direct ones, in joining order."""
        direct = {frozenset(pair) for pair in found}
        return [
            (a, b)
            for i, a in enumerate(self.members)
            for b in self.members[i + 1 :]
            if frozenset((a.url, b.url)) not in direct
        ]


class TranslationGroups:
    """Groups built pair by pair (union-find with one page per language per group)."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}
        self._members: dict[str, dict[str, Member]] = {}  # root -> language -> member
        self._found: set[frozenset[str]] = set()
        self.conflicts = 0

    def add(self, pair: UrlPair) -> Outcome:
        """Add a pair judged a translation (its two languages known)."""
        source_language, target_language = pair.source_language, pair.target_language
        if not source_language or not target_language or source_language == target_language:
            return Outcome.NO_LANGUAGE
        a, b = self._root(pair.source), self._root(pair.target)
        if a is not None and a == b:
            self._found.add(frozenset((pair.source, pair.target)))
            return Outcome.KNOWN
        languages_a = set(self._members[a]) if a else {source_language}
        languages_b = set(self._members[b]) if b else {target_language}
        if languages_a & languages_b:
            self.conflicts += 1
            return Outcome.CONFLICT
        self._found.add(frozenset((pair.source, pair.target)))
        if a is None and b is None:
            root = pair.source
            self._parent[pair.source] = self._parent[pair.target] = root
            self._members[root] = {
                source_language: _member(pair, pair.source, source_language, pair.target),
                target_language: _member(pair, pair.target, target_language, pair.source),
            }
            return Outcome.NEW
        if a is None or b is None:
            root = a or b
            url, language, partner = (
                (pair.source, source_language, pair.target)
                if a is None
                else (pair.target, target_language, pair.source)
            )
            assert root is not None
            self._parent[url] = root
            self._members[root][language] = _member(pair, url, language, partner)
            return Outcome.JOINED
        self._parent[b] = a
        self._members[a].update(self._members.pop(b))
        return Outcome.MERGED

    def groups(self) -> list[TranslationGroup]:
        """Every group, in the order their first pages came."""
        return [TranslationGroup(tuple(members.values())) for members in self._members.values()]

    def found(self) -> set[frozenset[str]]:
        """The pairs of members joined directly (by a pair added)."""
        return set(self._found)

    def _root(self, url: str) -> str | None:
        if url not in self._parent:
            return None
        root = url
        while self._parent[root] != root:
            root = self._parent[root]
        while self._parent[url] != root:  # path compression
            self._parent[url], url = root, self._parent[url]
        return root


def _member(pair: UrlPair, url: str, language: str, partner: str) -> Member:
    return Member(
        url,
        language,
        pair.method,
        partner,
        str(pair.pattern),
        pair.local_credibility,
        pair.global_credibility,
    )


def strongest_first(pairs: Iterable[UrlPair]) -> list[UrlPair]:
    """The pairs by :func:`.declarations.evidence`, best attested first (ties: in the order
    given)."""
    return sorted(pairs, key=lambda pair: -evidence(pair))


def build_groups(pairs: Iterable[UrlPair]) -> TranslationGroups:
    """The groups of ``pairs``, added strongest first."""
    groups = TranslationGroups()
    for pair in strongest_first(pairs):
        groups.add(pair)
    return groups


def implied_pair(a: Member, b: Member) -> UrlPair:
    """The pair of two members of a group that no method paired directly (method ``group``).
    Its pattern is the unit their URLs differ by when they differ by one (``<de-DE,fr-FR>``),
    else that of their languages (as a page's named translations get); its credibilities are
    the weaker of those of the pairs that brought the two members in."""
    pattern = url_difference(a.url, b.url) or PairingPattern.of(a.language, b.language)
    first, second = (a, b) if _is_first(pattern, a) else (b, a)
    return UrlPair(
        first.url,
        second.url,
        pattern,
        min(a.local_credibility, b.local_credibility),
        min(a.global_credibility, b.global_credibility),
        GROUP,
        source_language=first.language,
        target_language=second.language,
    )


def _is_first(pattern: PairingPattern, member: Member) -> bool:
    if pattern.first == member.language:
        return True
    return pattern.first != "" and pattern.first in {u.value for u in split_url(member.url).units()}


def url_difference(a: str, b: str) -> PairingPattern | None:
    """The pattern ``<t, t'>`` when URLs ``a`` and ``b`` differ in exactly one unit (of the same
    kind and place), else ``None``."""
    first, second = split_url(a), split_url(b)
    if first.host_rest != second.host_rest or first.scheme != second.scheme:
        return None
    units_a, units_b = first.units(), second.units()
    if [(u.kind, u.position) for u in units_a] != [(u.kind, u.position) for u in units_b]:
        return None
    differing = [(u, v) for u, v in zip(units_a, units_b, strict=True) if u.value != v.value]
    if len(differing) != 1:
        return None
    u, v = differing[0]
    return PairingPattern.of(u.value, v.value)


def has_languages(group: TranslationGroup, wanted: Collection[str]) -> bool:
    """Whether a group holds two of the ``wanted`` languages (any two when none are)."""
    if not wanted:
        return len(group.members) >= 2
    return sum(1 for member in group.members if member.language in wanted) >= 2
