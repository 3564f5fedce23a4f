"""Pairs of pages two translated lists name in the same place: a site's indexes.

A site whose pages link no translation and whose URLs share nothing a pattern or a number could
read (``/es/ayuntamiento/servicios/``, ``/ca/ajuntament/serveis/``; ``page.php?id=17`` and
``?id=117``) still lists its documents: each language's index links its own documents, in the
order the original index does. Once two such lists are paired as translations (by a switcher, a
pattern, their numbers), their documents pair in order: the i-th page in its language one list
links with the i-th the other links, when both lists name as many. A document missing from one
language (or one inserted: a manual's chapters renumbered) shifts every later place: of lists a
few apart, the i-th page of the shorter is a candidate with each of the longer's that many
places on. Each candidate is then judged as any pair is (:func:`.crawl_round.judge_pair`): the
content verifier keeps the translations, and of a page's candidates the best verified holds
(one place in a list is one document's).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Protocol

from bilingual_spider.language.codes import same_language
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import site_of

LISTED = "listed"
"""The method of a pair two paired lists name in the same place (:func:`listed_pairs`)."""
LISTED_CREDIBILITY = 0.25
"""The credibility of a listed pair: under a declaration's and a credible pattern's."""
MIN_LISTED, MAX_LISTED = 2, 100
"""Pages each list must name: one is no list; more than this many are not read."""
MAX_SHIFT = 2
"""Pages one list may name more than the other: documents missing in one language."""
MAX_LEVELS = 3
"""Levels of lists followed down from the pairs found otherwise: a home's sections, a section's
documents (each level's pairs, judged, list the next's)."""


class ListingPage(Protocol):
    """What :func:`listed_pairs` needs of a fetched page (``crawl_round.PageRecord``)."""

    @property
    def language(self) -> str | None: ...
    @property
    def links(self) -> Sequence[str]: ...


def listed_pairs(
    pages: Mapping[str, ListingPage], paired: Iterable[UrlPair], max_shift: int = MAX_SHIFT
) -> list[UrlPair]:
    """The candidate pairs the pairs ``paired`` (judged: their languages known) list in the same
    places: for a pair of pages in languages L and M, the fetched pages of their site each links
    in its own language that the other does not link (the home, a contact page) and no pair of
    ``paired`` joins with a page of the other language (a URL pattern's rejected pair too: the
    site's structure placed its translation elsewhere), paired in order: with the same place
    when the two lists are as long, else with each place up to ``max_shift`` on in the longer
    (0 without a content verifier to choose among them)."""
    paired = list(paired)
    partners: dict[str, set[str]] = defaultdict(set)
    for pair in paired:
        partners[pair.source].add(pair.target_language or "")
        partners[pair.target].add(pair.source_language or "")
    found: dict[frozenset[str], UrlPair] = {}
    for pair in paired:
        source, target = pages.get(pair.source), pages.get(pair.target)
        languages = (pair.source_language, pair.target_language)
        if source is None or target is None or not all(languages):
            continue
        lists = [
            _listed(pages, url, page, own, other, partners)
            for url, page, own, other in (
                (pair.source, source, *languages),
                (pair.target, target, *reversed(languages)),
            )
        ]
        shared = set(source.links) & set(target.links)  # the home, a contact page
        first, second = ([url for url in urls if url not in shared] for urls in lists)
        shift = len(second) - len(first)
        if not (
            min(len(first), len(second)) >= MIN_LISTED
            and max(len(first), len(second)) <= MAX_LISTED
            and abs(shift) <= max_shift
        ):
            continue
        pattern = PairingPattern.of(*languages)  # type: ignore[arg-type]
        for a, b in _in_place(first, second):
            source_url, target_url = (a, b) if pattern.first == languages[0] else (b, a)
            found.setdefault(
                frozenset((a, b)),
                UrlPair(
                    source_url, target_url, pattern, LISTED_CREDIBILITY, LISTED_CREDIBILITY, LISTED
                ),  # fmt: skip
            )
    return list(found.values())


def _in_place(first: Sequence[str], second: Sequence[str]) -> Iterator[tuple[str, str]]:
    """The pages of two lists that may hold one place: the same, or in the longer list up to as
    many places on as it names more."""
    shift = len(second) - len(first)
    for i, a in enumerate(first):
        for j in range(i + min(shift, 0), i + max(shift, 0) + 1):
            if 0 <= j < len(second):
                yield a, second[j]


def _listed(
    pages: Mapping[str, ListingPage],
    url: str,
    page: ListingPage,
    own: str,
    other: str,
    partners: Mapping[str, set[str]],
) -> list[str]:
    """The fetched pages of ``url``'s site that ``page`` links in its order, in its language
    ``own``, not itself and paired with no page in ``other``."""
    site = site_of(url)
    listed = []
    for link in page.links:
        linked = pages.get(link)
        if (
            linked is None
            or link == url
            or site_of(link) != site
            or not (linked.language and same_language(linked.language, own))
            or any(same_language(language, other) for language in partners.get(link, ()))
        ):
            continue
        listed.append(link)
    return listed
