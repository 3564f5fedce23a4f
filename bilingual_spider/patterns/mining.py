"""Candidate pairing patterns, mined in linear time (Zhang et al. 2018, definitions 1 and 2).

Definition 1 (eq. 1): a unit pair k = <t, t'> is a candidate pairing pattern of the URL pair
<u, u'> when removing t from u and t' from u' leaves the same units (``u - {t} = u' - {t'}``).

Instead of comparing all pairs of URLs, every URL is hashed once per unit with that unit removed
(and once per place where a unit could be missing: the "nothing" unit ``""``); the slot the unit
came from is part of the key. URLs that share a key differ in exactly that slot, and their units
there form the pattern. The cost is one key per unit (plus one per insertion slot) and a bounded
amount of work per group, see :data:`DEFAULT_MAX_GROUP`.

Keys are Python's 64-bit hashes of tuples, not the tuples, to keep memory linear and small. Two
different remainders colliding in one site has a probability of about ``keys**2 / 2**64`` (1e-7
for a million keys); a collision can only add a spurious pair, never lose one.

Patterns are symmetric: <a, b> and <b, a> are one pattern, stored in sorted order.

An extension of ours: pages whose URLs mark the language in two places on one side
(``faq/x.en.html`` and ``faq/de/x.de.html``, the Debian FAQ's layout) differ in two units, and
no one-unit pattern can pair them. Every URL is hashed once more with all its units that name a
language removed (:func:`marker_key`); URLs sharing that key, and not already paired by a
one-unit pattern, pair when the units each has and the other lacks name one language each, two
different ones. Their pattern joins a side's units with ``+``: <de+de, en>. Still one key per
URL, so mining stays linear. An initial glued to a word of the file name, beside a unit naming
its language (``/fr/2003wgsf.htm`` and ``/en/2003wgs.htm``, ``/Francais/fblandat.htm`` and
``/English/eblandat.htm``: issue 31), gives at most two more keys, the word without it
(:func:`glued_marker_keys`): <en, fr+f>, <English+e, Francais+f>.

And pages whose URLs mark the language inside a unit, glued to other words (``arlt15EN.htm``
and ``arlt15FR.htm``, ``?goto=en_US-Home`` and ``?goto=fr_CA-Home``), differ in a unit that is
new on every page, and no whole-unit pattern is credible. Such a unit is hashed once more with
its language word taken out (:func:`inner_marker_keys`: an uppercase code, a code with its
region, or a language's name, split at case changes, digits and separators); URLs that share
that key pair by the pattern of the two words, <~EN, ~FR>.
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from bilingual_spider.language.codes import base_language
from bilingual_spider.patterns.markers import (
    INITIALS,
    INNER_MARKER,
    MARKER_JOINER,
    initial_markers,
    inner_markers,
    is_language_pattern,
    language_of_unit,
)
from bilingual_spider.patterns.units import UrlUnits, site_of, split_url

DEFAULT_MAX_GROUP = 100
"""Largest group of URLs sharing a key that is paired up. A slot that takes more than this many
values on otherwise identical URLs is an identifier (``/news/<id>.html``, ``?page=<n>``), not a
language: few pages have over a hundred language versions. Pairing inside a group is quadratic
(10,000 article ids would make 50 million pairs, each with its own useless pattern <123, 456>);
with the cap, each key costs at most ``DEFAULT_MAX_GROUP`` pair checks and mining stays linear."""

UnitFilter = Callable[[str], bool]
"""Which unit values may be part of a pattern; others are not even hashed."""
PatternFilter = Callable[["PairingPattern"], bool]
"""Which patterns are kept as candidates (URL-only mining: language patterns only)."""


@dataclass(frozen=True, order=True, slots=True)
class PairingPattern:
    """A pairing pattern k = <t, t'>, its units in sorted order (``""`` is "nothing")."""

    first: str
    second: str

    @classmethod
    def of(cls, a: str, b: str) -> PairingPattern:
        """The pattern of units ``a`` and ``b``, in either order."""
        return cls(a, b) if a <= b else cls(b, a)

    def __str__(self) -> str:
        return f"<{self.first},{self.second}>"


@dataclass(frozen=True, order=True, slots=True)
class CandidatePair:
    """Two URLs of one site that pattern k matches; ``first_url`` carries ``pattern.first``."""

    first_url: str
    second_url: str
    pattern: PairingPattern


@dataclass(frozen=True, slots=True)
class SiteMining:
    """Candidate pairs of one site w, and its size |w| in pages (distinct URLs)."""

    site: str
    pages: int
    pairs: tuple[CandidatePair, ...]
    pattern_pages: Mapping[PairingPattern, int] = field(default_factory=dict)
    """With page languages known: for each pattern, the pages of w in the languages its pairs
    join. A site in 19 languages has 19 pages for each one pairing patterns can match between
    two of its languages; |w| of eq. 3 counts these (on a bilingual site, all its pages)."""

    def pattern_counts(self) -> Counter[PairingPattern]:
        return pair_counts(self.pairs)


def pair_counts(pairs: Iterable[CandidatePair]) -> Counter[PairingPattern]:  # eq. 2
    """p(k, w): how many URL pairs of the site each pattern matches."""
    return Counter(pair.pattern for pair in pairs)


def matched_pages(pair_count: int) -> int:
    """N(k, w) = 2 p(k, w): pages the pattern matches (definition 3)."""
    return 2 * pair_count


def unit_values(units: UrlUnits) -> tuple[str, ...]:
    """The values of all units, in URL order (:meth:`UrlUnits.units` without the slots)."""
    return (units.host_unit, *units.dirs, *units.tokens, *units.query)


def host_unit_value(host_unit: str) -> str:
    """The host unit as a pattern sees it: ``www`` is "nothing", so that ``fr.example.com``
    and ``www.example.com`` pair by <"", fr> (a language pattern), not by <fr, www>."""
    return "" if host_unit == "www" else host_unit


def removal_keys(units: UrlUnits, keep: UnitFilter | None = None) -> list[tuple[int, str]]:
    """(key, unit) for each unit of the URL (that ``keep`` keeps): the key hashes the URL
    without that unit together with the unit's slot (its kind and position)."""
    host = (units.host_unit, units.host_rest)
    dirs, tokens, seps = units.dirs, units.tokens, units.separators
    query = tuple(sorted(units.query))
    path = (dirs, tokens, seps)
    keys = []
    host_value = host_unit_value(units.host_unit)
    if keep is None or keep(host_value):
        keys.append((hash(("h", units.host_rest, path, query)), host_value))
    file = (tokens, seps)
    for i, value in enumerate(dirs):
        if keep is None or keep(value):
            keys.append((hash(("d", i, host, dirs[:i] + dirs[i + 1 :], file, query)), value))
    for j, value in enumerate(tokens):
        if keep is None or keep(value):
            cut = max(j - 1, 0)
            rest = (tokens[:j] + tokens[j + 1 :], seps[:cut] + seps[cut + 1 :])
            keys.append((hash(("f", j, host, dirs, rest, query)), value))
    for m, value in enumerate(query):
        if keep is None or keep(value):
            keys.append((hash(("q", host, path, query[:m] + query[m + 1 :])), value))
    return keys


def inner_marker_keys(
    units: UrlUnits, markers_of: Callable[[str], tuple[tuple[tuple[str, ...], str], ...]]
) -> list[tuple[int, str]]:
    """(key, ``~word``) for each language word inside a unit: the key hashes the URL with that
    word taken out of its unit (``markers_of`` gives each unit's words without it and the
    word: ``markers.inner_markers``), so ``arlt15EN`` and ``arlt15FR`` share one."""
    host = (units.host_unit, units.host_rest)
    dirs, tokens, seps = units.dirs, units.tokens, units.separators
    query = tuple(sorted(units.query))
    keys = []
    for i, value in enumerate(dirs):
        for rest, word in markers_of(value):
            kept = (*dirs[:i], rest, *dirs[i + 1 :])
            keys.append((hash(("wd", i, host, kept, tokens, seps, query)), INNER_MARKER + word))
    for j, value in enumerate(tokens):
        for rest, word in markers_of(value):
            kept = (*tokens[:j], rest, *tokens[j + 1 :])
            keys.append((hash(("wf", j, host, dirs, kept, seps, query)), INNER_MARKER + word))
    for m, value in enumerate(query):
        for rest, word in markers_of(value):
            kept = (*query[:m], rest, *query[m + 1 :])
            keys.append((hash(("wq", host, dirs, tokens, seps, kept)), INNER_MARKER + word))
    return keys


def insertion_keys(units: UrlUnits) -> list[int]:
    """The keys of the URL with a "nothing" unit in each slot where another URL may have one
    more unit: before each directory and after the last, before each file-name token and after
    the last, and among the query parameters. ``len(dirs) + len(tokens) + 3`` keys."""
    host = (units.host_unit, units.host_rest)
    dirs, tokens, seps = units.dirs, units.tokens, units.separators
    query = tuple(sorted(units.query))
    file = (tokens, seps)
    keys = [hash(("d", i, host, dirs, file, query)) for i in range(len(dirs) + 1)]
    keys += [hash(("f", j, host, dirs, file, query)) for j in range(len(tokens) + 1)]
    keys.append(hash(("q", host, (dirs, tokens, seps), query)))
    return keys


def marker_key(
    units: UrlUnits, language_of: Callable[[str], str | None]
) -> tuple[int, tuple[str, ...]]:
    """The key of the URL with every unit that names a language removed (``language_of`` says
    which), and those units in URL order. Separators are left out of the key: ``x.en.html`` and
    ``de/x.de.html`` share one."""
    markers: list[str] = []

    def kept(value: str) -> bool:
        if value and language_of(value):
            markers.append(value)
            return False
        return True

    host = host_unit_value(units.host_unit) if kept(units.host_unit) else ""
    dirs = tuple(d for d in units.dirs if kept(d))
    tokens = tuple(t for t in units.tokens if kept(t))
    query = tuple(sorted(q for q in units.query if kept(q)))
    return hash(("m", host, units.host_rest, dirs, tokens, query)), tuple(markers)


def marker_keys(units: UrlUnits) -> list[tuple[int, tuple[str, ...]]]:
    """:func:`marker_key` of the URL and its :func:`glued_marker_keys`, the URL's own
    initials taken for markers where another of its units names their language
    (:func:`~.markers.initial_markers`): two URLs sharing one of these keys differ only in
    language markers."""
    language_of = initial_markers(unit_values(units))
    return [marker_key(units, language_of), *glued_marker_keys(units, language_of)]


def marker_difference(markers_a: Iterable[str], markers_b: Iterable[str]) -> tuple[str, str] | None:
    """The two-place units (``en`` and ``de+de``) by which two URLs of one :func:`marker_keys`
    key differ: the markers of each not in the other, joined in URL order; ``None`` when they
    differ in fewer than two markers (a one-unit difference is eq. 1's own pattern)."""
    count_a, count_b = Counter(markers_a), Counter(markers_b)
    only_a = list((count_a - count_b).elements())
    only_b = list((count_b - count_a).elements())
    if len(only_a) + len(only_b) < 2:
        return None
    return MARKER_JOINER.join(only_a), MARKER_JOINER.join(only_b)


def glued_marker_keys(
    units: UrlUnits, language_of: Callable[[str], str | None]
) -> list[tuple[int, tuple[str, ...]]]:
    """:func:`marker_key` of the URL with an initial glued to one of its file name's words
    taken off, when another unit of the URL names that initial's language: ``2003wgsf`` beside
    ``/fr/`` (``2003wgs``, markers ``fr``, ``f``), ``eblandat`` beside ``/English/``
    (``blandat``; ``English``, ``e``). At most two keys: the first word with an initial at its
    end, the first with one at its front (``espelare``: ``espelar`` and ``spelare``); the
    extension never; none for most URLs (no unit naming English or French)."""
    named = {base_language(code) for value in unit_values(units) if (code := language_of(value))}
    if not named.intersection(INITIALS.values()):
        return []
    words = [(j, token) for j, token in enumerate(units.tokens[:-1]) if len(token) > 3]
    keys = []
    for end in (-1, 0):
        for j, token in words:
            initial = token[end]
            if INITIALS.get(initial) in named and not language_of(token):
                rest = token[:-1] if end == -1 else token[1:]
                tokens = (*units.tokens[:j], rest, *units.tokens[j + 1 :])
                key, markers = marker_key(replace(units, tokens=tokens), language_of)
                keys.append((key, (*markers, initial)))
                break
    return keys


def mine_site(
    urls: Iterable[str],
    languages: Mapping[str, str] | None = None,
    keep: UnitFilter | None = None,
    accept: PatternFilter | None = None,
    max_group: int = DEFAULT_MAX_GROUP,
) -> SiteMining:  # eq. 1
    """Candidate pairs of one site's URLs.

    Parameters
    ----------
    urls : the site's URLs; duplicates count once.
    languages : the language of each URL, when known (page language ID). Then only URLs of two
        different known languages pair up (the paper's U x U'); without it all URLs are pooled.
    keep : unit values that may be part of a pattern (see :data:`UnitFilter`); all when None.
    accept : patterns that are kept (see :data:`PatternFilter`); all when None.
    max_group : see :data:`DEFAULT_MAX_GROUP`.
    """
    unique = sorted(set(urls))
    units = [split_url(u) for u in unique]
    site = units[0].site if units else ""
    return _mine(site, unique, units, languages, keep, accept, max_group)


def mine_sites(
    urls: Iterable[str],
    languages: Mapping[str, str] | None = None,
    keep: UnitFilter | None = None,
    accept: PatternFilter | None = None,
    max_group: int = DEFAULT_MAX_GROUP,
) -> dict[str, SiteMining]:
    """:func:`mine_site` for each site (registered domain) of ``urls``. Sites are split and
    mined one at a time, so that only one site's units are in memory at once."""
    by_site: dict[str, list[str]] = defaultdict(list)
    for url in set(urls):
        by_site[site_of(url)].append(url)
    mined = {}
    with collector_paused():
        for site, site_urls in sorted(by_site.items()):
            site_urls.sort()
            units = [split_url(u) for u in site_urls]
            mined[site] = _mine(site, site_urls, units, languages, keep, accept, max_group)
    return mined


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector, then restore it as it was.

    Mining makes no reference cycles, so reference counting frees everything as usual; but the
    cyclic collector, triggered by the allocations, traverses every live pair again and again:
    with it, time per URL grew by a third from 10k to 1M URLs (benchmarks/pupsniffer_scaling.py).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _mine(
    site: str,
    urls: list[str],
    units: list[UrlUnits],
    languages: Mapping[str, str] | None,
    keep: UnitFilter | None,
    accept: PatternFilter | None,
    max_group: int,
) -> SiteMining:
    groups: dict[int, list[tuple[int, str]]] = defaultdict(list)
    inner_groups: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for index, url_units in enumerate(units):
        for key, value in removal_keys(url_units, keep):
            groups[key].append((index, value))
        for key, value in inner_marker_keys(url_units, inner_markers):
            inner_groups[key].append((index, value))
        if keep is None or keep(""):
            for key in insertion_keys(url_units):
                groups[key].append((index, ""))
    langs = [languages.get(u) for u in urls] if languages is not None else None
    found: set[tuple[int, int, str, str]] = set()
    for members in groups.values():
        if 1 < len(members) <= max_group:
            found.update(_pairs_in_group(members, langs))
    if inner_groups:  # a pair two words inside a unit tell: <~EN,~FR>, not <arlt15EN,arlt15FR>
        inner: set[tuple[int, int, str, str]] = set()
        for members in inner_groups.values():
            if 1 < len(members) <= max_group:
                inner.update(_pairs_in_group(members, langs))
        covered = {frozenset((i, j)) for i, j, _, _ in inner}
        found = {f for f in found if frozenset(f[:2]) not in covered} | inner
    found.update(_marker_pairs(units, langs, found, max_group))
    patterns = {(a, b): PairingPattern(a, b) for _, _, a, b in found}
    if accept is not None:
        patterns = {units: k for units, k in patterns.items() if accept(k)}
    pairs = sorted((urls[i], urls[j], patterns[a, b]) for i, j, a, b in found if (a, b) in patterns)
    pattern_pages = _pattern_pages(found, patterns, langs, units) if langs else {}
    candidates = tuple(CandidatePair(*pair) for pair in pairs)
    return SiteMining(site, len(urls), candidates, pattern_pages)


def _pattern_pages(
    found: set[tuple[int, int, str, str]],
    patterns: Mapping[tuple[str, str], PairingPattern],
    langs: list[str | None],
    units: list[UrlUnits],
) -> dict[PairingPattern, int]:
    """|w| of eq. 3 for each pattern of a site whose page languages are known (``langs``: the
    language of each of its URLs): the pages the pattern could apply to.

    - Both units name a language (<en,ko>): the pages whose URL carries one of them. Pages are
      not counted by their text's language here: an untranslated ``/ko/x.html`` that serves the
      English text is still one of the pages the pattern speaks of, and the English text of
      every other language's fallbacks must not swell the count.
    - Otherwise (<"",fr>, <de+de,en>, or a pattern of other units): the pages in the languages
      its pairs join.
    """
    joined: dict[PairingPattern, set[str]] = defaultdict(set)
    for i, j, a, b in found:
        pattern = patterns.get((a, b))
        if pattern is not None:
            joined[pattern].update((langs[i] or "", langs[j] or ""))
    marked = [
        k
        for k in joined
        if language_of_unit(k.first)
        and language_of_unit(k.second)
        and MARKER_JOINER not in k.first + k.second  # units no URL carries whole
        and INNER_MARKER not in k.first + k.second
    ]
    wanted = {unit for k in marked for unit in (k.first, k.second)}
    carrying: Counter[str] = Counter()
    if wanted:
        for u in units:
            carrying.update(wanted.intersection((u.host_unit, *u.dirs, *u.tokens, *u.query)))
    per_language = Counter(lang for lang in langs if lang)
    pages = {k: sum(per_language[lang] for lang in of_k) for k, of_k in joined.items()}
    pages.update({k: carrying[k.first] + carrying[k.second] for k in marked})
    return pages


def _marker_pairs(
    units: list[UrlUnits],
    langs: list[str | None] | None,
    found: set[tuple[int, int, str, str]],
    max_group: int,
) -> Iterable[tuple[int, int, str, str]]:
    """Pairs of URLs that share a :func:`marker_key` and differ in language units naming one
    language on each side (two different ones), not already paired by a one-unit pattern.
    Only keys with a URL marked in two places or more are paired: one side of a pair that
    differs in more than one unit is such a URL, save in layouts that mark each language once
    but in different places (``/en/x.html``, ``/x.fr.html``), which are left out."""
    keyed = [(index, *key) for index, u in enumerate(units) for key in marker_keys(u)]
    wanted = {key for _, key, markers in keyed if len(markers) > 1}  # the two-place side
    if not wanted:
        return
    groups: dict[int, list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
    for index, key, markers in keyed:
        if key in wanted:
            groups[key].append((index, markers))
    paired = {(i, j) for i, j, _, _ in found} | {(j, i) for i, j, _, _ in found}
    for members in groups.values():
        if not 1 < len(members) <= max_group:
            continue
        for n, (a, markers_a) in enumerate(members):
            for b, markers_b in members[n + 1 :]:
                if a == b or (a, b) in paired:
                    continue
                if langs is not None and (not langs[a] or not langs[b] or langs[a] == langs[b]):
                    continue
                units_differing = marker_difference(markers_a, markers_b)
                if units_differing is None:  # a one-unit difference: eq. 1's own
                    continue
                unit_a, unit_b = units_differing
                sides_named = all(language_of_unit(u) for u in (unit_a, unit_b) if u)
                if sides_named and is_language_pattern(PairingPattern.of(unit_a, unit_b)):
                    yield (a, b, unit_a, unit_b) if unit_a < unit_b else (b, a, unit_b, unit_a)


def _pairs_in_group(
    members: list[tuple[int, str]], langs: list[str | None] | None
) -> Iterable[tuple[int, int, str, str]]:
    """(URL carrying the first unit, URL carrying the second, first unit, second unit)."""
    for i, (a, unit_a) in enumerate(members):
        for b, unit_b in members[i + 1 :]:
            if unit_a == unit_b or a == b:
                continue
            if langs is not None and (not langs[a] or not langs[b] or langs[a] == langs[b]):
                continue
            yield (a, b, unit_a, unit_b) if unit_a < unit_b else (b, a, unit_b, unit_a)
