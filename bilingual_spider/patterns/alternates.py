"""Pairs that URLs cannot tell: the translations a page names itself.

Half the real pairs have no pairing pattern: translated slugs (``/en/about-us`` and
``/fr/a-propos``), different ids. The page itself often says where its translation is:

- ``hreflang``: ``<link rel="alternate" hreflang="fr" href="...">`` in its head (what search
  engines ask of multilingual sites), or ``<a hreflang="fr">``;
- a language **switcher**: a link whose label names a language (``Français``, ``FR``, a flag
  image ``flags/fr.png``, a ``<select>`` menu's option), as the Link Predictor of the
  site detector scores them (:func:`~bilingual_spider.links.features.labelled_language`);
- a language **toggle** with no label (a design system's ``<xx-header lang-href>``, an icon in a
  ``lang-toggle`` element: :func:`~bilingual_spider.links.contexts.is_toggle`): it names no
  language, so the language of the page it leads to is the one it offers;
- or the site's **sitemap** names them for the page (``<xhtml:link rel="alternate" hreflang>``
  in its entry: :mod:`bilingual_spider.links.sitemaps`), added by :func:`with_sitemap`.

:func:`page_alternates` reads them off a page's links; :func:`alternate_pairs` pairs the fetched
pages they name. A switcher that leads every page of a language to the other language's home
page names one target from many pages: that target is no one page's translation and pairs with
none of them. Every pair is a claim, judged afterwards like a pattern pair (languages, shared
links, content): sites get hreflang wrong (translation ids mixed up by a CMS, links left stale
by a restructuring), and a page whose ``hreflang`` and switcher disagree offers both, for the
evidence to settle (:mod:`.declarations`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bilingual_spider.language.codes import same_language
from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.links.features import labelled_language
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import host_code_label, url_host_language

HREFLANG = "hreflang"
SWITCHER = "switcher"
SITEMAP = "sitemap"
TOGGLE = "toggle"
DECLARED_METHODS = (HREFLANG, SITEMAP, SWITCHER, TOGGLE)
"""The methods of the pairs a site declares, surest first (a pair found by several is named
by the first)."""
RECIPROCAL_CREDIBILITY = 1.0
"""Local credibility of a pair each page names: both pages say it."""
ONE_WAY_CREDIBILITY = 0.5
"""Local credibility of a pair one page names."""


@dataclass(frozen=True, slots=True)
class Alternate:
    """A page's link to what it says is its version in ``language``."""

    url: str
    language: str
    """The language it is said to be in; ``""`` for a :data:`TOGGLE`: the target page says."""
    via: str
    """:data:`HREFLANG`, :data:`SWITCHER`, :data:`TOGGLE` or :data:`SITEMAP`."""


class PageWithAlternates(Protocol):
    """What :func:`alternate_pairs` needs of a fetched page (``crawl_round.PageRecord``)."""

    @property
    def url(self) -> str: ...
    @property
    def language(self) -> str | None: ...
    @property
    def alternates(self) -> Sequence[Alternate]: ...


def flag_language(context: LinkContext) -> str:
    """The language a link's flag image names (``flags/fr.png``), "" when none. A flag is a
    country's: on a link whose host's first label names a language, that language
    (``flags/ch.gif`` on a link to ``ch.example.org`` is Chamorro's, not Swiss German's)."""
    flag = labelled_language(img_src=context.img_src)
    return (url_host_language(context.url) or flag) if flag else ""


def page_alternates(contexts: Iterable[LinkContext]) -> tuple[Alternate, ...]:
    """The page's alternates: its links that name a language, one per language and kind
    (``hreflang``, switcher), and its unlabelled language toggles.

    A language named for two different URLs of one kind (a list of English books, not a
    switcher) gives none of that kind; an ``hreflang`` and a switcher that name the same URL
    give one alternate, the ``hreflang``'s, and two different URLs give both (the evidence picks:
    :mod:`.declarations`). A toggle whose link names a language is a switcher of it.
    """
    by_language: dict[str, dict[str, set[str]]] = {}
    toggles: dict[str, None] = {}
    for context in contexts:
        if context.url == context.page_url:
            continue
        language = (
            labelled_language(context.hreflang, context.anchor, context.img_alt, lang=context.lang)
            or host_code_label(context.anchor, context.url)
            or flag_language(context)
        )
        if language:
            via = HREFLANG if context.hreflang else SWITCHER
            by_language.setdefault(language, {}).setdefault(via, set()).add(context.url)
        elif context.toggle:
            toggles[context.url] = None
    found = []
    for language, by_via in by_language.items():
        hreflang = by_via.get(HREFLANG, set())
        for via, urls in sorted(by_via.items()):
            if len(urls) == 1 and (via == HREFLANG or not urls <= hreflang):
                found.append(Alternate(next(iter(urls)), language, via))
    named = {alternate.url for alternate in found}
    found += [Alternate(url, "", TOGGLE) for url in toggles if url not in named]
    return tuple(found)


def with_sitemap(
    alternates: Sequence[Alternate], named: Iterable[tuple[str, str]], page_url: str
) -> tuple[Alternate, ...]:
    """The page's alternates and those its site's sitemap names for it (``(language, url)``,
    :meth:`~bilingual_spider.links.sitemaps.SiteSitemap.alternates_of`), for the languages the
    page itself names none: a page's own word beats its sitemap's."""
    own = {alternate.language for alternate in alternates}
    added = [
        Alternate(url, language, SITEMAP)
        for language, url in named
        if language not in own and url != page_url
    ]
    return (*alternates, *added)


def as_declared(page: PageWithAlternates, declared: Mapping[str, set[str]]) -> bool:
    """Whether the page is in a language other pages' links declare for it, if they declare
    one: a page that ``/en/x.html`` names for ``es`` but whose text is English is an
    untranslated fallback (the Apache manual's), and Debian's ``en/bind.html``, named ``en``,
    is Portuguese: neither is that page's translation."""
    languages = declared.get(page.url)
    if not languages or page.language is None:
        return True
    return any(same_language(language, page.language) for language in languages)


def linked_languages(pages: Iterable[PageWithAlternates]) -> dict[str, set[str]]:
    """URL -> the languages the links naming it declare: their ``hreflang``, a switcher's label,
    a sitemap's entry (the alternates of ``pages``)."""
    declared: dict[str, set[str]] = {}
    for page in pages:
        for alternate in page.alternates:
            if alternate.language:
                declared.setdefault(alternate.url, set()).add(alternate.language)
    return declared


def declared_versions(pages: Iterable[PageWithAlternates]) -> dict[str, set[str]]:
    """URL -> the URLs named as its versions, either way (for the link-similarity filter:
    :func:`~.similarity.declared_link_pairs`)."""
    versions: dict[str, set[str]] = {}
    for page in pages:
        for alternate in page.alternates:
            if alternate.url != page.url:
                versions.setdefault(page.url, set()).add(alternate.url)
                versions.setdefault(alternate.url, set()).add(page.url)
    return versions


def lists_versions(page: PageWithAlternates, namers: Mapping[str, int]) -> bool:
    """Whether the page lists a document's versions rather than offering its own (a separate
    "other languages" page per document): its links name two languages or more, and it has no
    language of its own, or names for its own language another URL that no other page names
    (``namers``: how many pages name each URL; a switcher whose "English" leads every page to
    the English home is a page's own)."""
    languages = {alternate.language for alternate in page.alternates if alternate.language}
    if len(languages) < 2:
        return False
    if page.language is None:
        return True
    return any(
        same_language(alternate.language, page.language) and namers[alternate.url] == 1
        for alternate in page.alternates
        if alternate.language
    )


def alternate_pairs(pages: Mapping[str, PageWithAlternates]) -> list[UrlPair]:
    """The pairs of fetched pages that one of them names as the other's version, or that a page
    listing versions names both (:func:`lists_versions`).

    A page of identified language L pairs with the fetched page it names for a language M other
    than L (a toggle: the target's identified language), unless pages of language L name that
    target more than once (a language's home page in a switcher), or either page is not in a
    language that the links naming it declare. A list of versions pairs with none of them; its
    versions in two languages pair with each other when no other page names either (a site's
    list of its languages' home pages is no document's). Unordered pairs count once:
    ``method`` is the surest way a page names them (:data:`DECLARED_METHODS`); the source is
    the page whose language the pattern ``<L, M>`` names first; its credibility says whether
    both pages name each other (:data:`RECIPROCAL_CREDIBILITY`) or one page does, until the
    site's own evidence replaces it (:func:`.declarations.with_site_credibility`).
    """
    named: Counter[tuple[str, str]] = Counter()
    namers: Counter[str] = Counter()
    for page in pages.values():
        namers.update({alternate.url for alternate in page.alternates})
        if page.language is not None:
            for alternate in page.alternates:
                named[alternate.url, page.language] += 1
    declared = linked_languages(pages.values())
    offers: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for page in pages.values():
        if lists_versions(page, namers):
            _offer_versions(page, pages, namers, declared, offers)
            continue
        if page.language is None:
            continue
        for alternate in page.alternates:
            target = pages.get(alternate.url)
            if target is None or target.url == page.url:
                continue
            offered = alternate.language or target.language
            if (
                not offered
                or same_language(offered, page.language)
                or named[alternate.url, page.language] > 1
                or not as_declared(page, declared)
                or not as_declared(target, declared)
            ):
                continue
            key = (min(page.url, target.url), max(page.url, target.url))
            offers.setdefault(key, set()).add((page.url, alternate.via))
    pairs = []
    for (first, second), offered_by in sorted(offers.items()):
        a, b = pages[first], pages[second]
        pattern = PairingPattern.of(a.language or "", b.language or "")
        source, target = (a, b) if (a.language or "") == pattern.first else (b, a)
        naming = {url for url, _ in offered_by}
        credibility = RECIPROCAL_CREDIBILITY if len(naming) == 2 else ONE_WAY_CREDIBILITY
        vias = {via for _, via in offered_by}
        method = next(via for via in DECLARED_METHODS if via in vias)
        pairs.append(UrlPair(source.url, target.url, pattern, credibility, credibility, method))
    return pairs


def _offer_versions(
    page: PageWithAlternates,
    pages: Mapping[str, PageWithAlternates],
    namers: Mapping[str, int],
    declared: Mapping[str, set[str]],
    offers: dict[tuple[str, str], set[tuple[str, str]]],
) -> None:
    """The pairs a list of versions offers (:func:`alternate_pairs`): its fetched versions,
    named by no other page and in the language they are named for, two by two."""
    listed = [
        (pages[alternate.url], alternate.via)
        for alternate in page.alternates
        if alternate.language and alternate.url in pages and namers[alternate.url] == 1
    ]
    for n, (a, via_a) in enumerate(listed):
        for b, via_b in listed[n + 1 :]:
            if a.language is None or b.language is None or same_language(a.language, b.language):
                continue
            if not (as_declared(a, declared) and as_declared(b, declared)):
                continue
            via = next(via for via in DECLARED_METHODS if via in (via_a, via_b))
            offers.setdefault((min(a.url, b.url), max(a.url, b.url)), set()).add((page.url, via))
