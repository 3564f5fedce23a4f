"""The language of a web page, from its main text, with the share of text in each language.

Scripts, styles, navigation, headers, footers, forms and the like are removed; the rest is cut
into blocks (paragraphs, list items, cells, headings); each block long enough to judge is
identified, and each language's share is its share of those characters. A mixed-language page
shows as two large shares instead of one arbitrary answer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from bilingual_spider.html_page import ParsedPage, as_parsed
from bilingual_spider.language.declared_language import Signal, resolve_language
from bilingual_spider.language.identification import UNDETERMINED, LanguageIdentifier

MIN_BLOCK_CHARS = 20
"""Shorter blocks (menu items, buttons, dates) say little about a page's language."""
MIN_PAGE_CHARS = 20
SKIPPED_TAGS = (
    "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form",
    "select", "button", "iframe", "svg", "head",
)  # fmt: skip
CODE_TAGS = ("pre", "code", "tt", "kbd", "samp")
"""Code samples and commands: the same in every language, left out of a page's prose."""
NAVIGATION_TAGS = ("head", "nav", "header", "footer", "aside")
NAVIGATION_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
NAVIGATION_NAMES = frozenset(
    {
        "nav", "navbar", "navheader", "navfooter", "navigation", "navback", "breadcrumb",
        "breadcrumbs", "sidebar", "sphinxsidebar", "related", "header", "footer", "path",
        "toplang", "bottomlang", "quickview", "tocframe", "searchbox", "languages",
        "legalnotice", "copyright",
    }
)  # fmt: skip
"""Class and id names (or a ``-``/``_``-separated part of one: ``page-header``, ``nav_table``,
``global-nav``) of navigation and boilerplate: what the documentation generators of real sites
call them (DocBook's navheader/navfooter/legalnotice, Sphinx's related and sphinxsidebar,
texinfo's nav_table and tocframe, the Apache manual's page-header, path, toplang/bottomlang and
quickview). Not a page's prose (:func:`is_navigation`)."""
CONTENT_TAGS = ("html", "body", "main", "article")
_NAME_PARTS = re.compile(r"[-_\s]+")
BLOCK_TAGS = frozenset(
    {
        "p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote",
        "dd", "dt", "section", "article", "main", "table", "tr", "ul", "ol", "dl", "body", "br",
        "caption", "figcaption", "address",
    }
)  # fmt: skip


@dataclass(frozen=True)
class PageLanguage:
    lang: str
    """The language with the largest share, or ``und``."""
    score: float
    """That language's share of the judged text."""
    shares: dict[str, float] = field(default_factory=dict)
    undetermined: bool = False
    chars: int = 0
    """Characters of main text judged."""
    truncated: bool = False
    """The page was longer than :data:`~bilingual_spider.html_page.MAX_HTML_CHARS` and
    only its start was read."""
    signal: Signal = Signal.IDENTIFIER
    """Which signal decided most of the main language's text."""


def is_navigation(element: Any) -> bool:
    """Whether an element is navigation or boilerplate, not prose: a ``nav``, ``header``,
    ``footer`` or ``aside`` element, an ARIA navigation role, or a class or id that names
    navigation or a legal notice (:data:`NAVIGATION_NAMES`). The page's body is not, whatever
    its class (the Apache manual's ``class="no-sidebar"``)."""
    tag = element.tag
    if not isinstance(tag, str) or tag in CONTENT_TAGS:
        return False
    if tag in NAVIGATION_TAGS or element.get("role") in NAVIGATION_ROLES:
        return True
    names = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
    return any(part in NAVIGATION_NAMES for part in _NAME_PARTS.split(names))


LEGAL_TERMS = (
    "license", "licence", "licensed", "warranty", "copyright", "permission is granted",
    "free software foundation", "gnu general public", "gnu free documentation",
    "creative commons", "all rights reserved", "merchantability", "redistribute",
    "terms and conditions", "without any", "fitness for a particular",
)  # fmt: skip
"""Words of licences and legal notices, in English: the language a licence is left
untranslated in."""
MIN_LEGAL_TERMS = 3
"""A block with this many different :data:`LEGAL_TERMS` or more is a legal notice, not prose
(a GPL or GFDL notice has 5 to 8; prose that mentions a licence once has one or two)."""


def is_legal_notice(block: str) -> bool:
    """Whether a block of text is a licence or legal notice (:data:`MIN_LEGAL_TERMS`): what a
    documentation page keeps in its main text untranslated, and no sign of its language."""
    lowered = block.lower()
    return sum(term in lowered for term in LEGAL_TERMS) >= MIN_LEGAL_TERMS


def language_prose(prose: list[str]) -> list[str]:
    """The blocks of a page's prose that say its language: without legal notices
    (:func:`is_legal_notice`), which stay untranslated. (The copy check still counts them: a
    page half of whose prose is the other page's licence is a copy.)"""
    return [block for block in prose if not is_legal_notice(block)]


def main_text_blocks(
    page: str | bytes | ParsedPage, *, code: bool = True, navigation: bool = True
) -> tuple[list[str], bool]:
    """The text blocks of a page's main content, and whether the page was truncated; without
    its code samples and commands (:data:`CODE_TAGS`) when not ``code``, and without what
    :func:`is_navigation` calls navigation when not ``navigation`` (a page's *prose*).

    A :class:`~bilingual_spider.html_page.ParsedPage` (the tree the link contexts are read
    from) is read as it is, not parsed again, and not changed."""
    page = as_parsed(page)
    if page.root is None:
        return [], page.truncated
    skipped = SKIPPED_TAGS if code else (*SKIPPED_TAGS, *CODE_TAGS)
    return _blocks(page.root, skipped, None if navigation else is_navigation), page.truncated


def _blocks(
    root: etree._Element,
    skipped_tags: tuple[str, ...] = SKIPPED_TAGS,
    skip: Callable[[Any], bool] | None = None,
) -> list[str]:
    """The blocks of text under ``root``, without the text of :data:`SKIPPED_TAGS` (and of the
    elements ``skip`` names), comments and processing instructions (their tails are kept: they
    are the text after them)."""
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        text = " ".join("".join(current).split())
        if text:
            blocks.append(text)
        current.clear()

    walker = etree.iterwalk(root, events=("start", "end"))
    skipped = None  # the skipped element being left (its "end" comes after skip_subtree)
    for event, element in walker:
        tag = element.tag
        if not isinstance(tag, str):  # a comment or a processing instruction: its tail only
            if event == "start" and element.tail:
                current.append(element.tail)
            continue
        if event == "start":
            if (tag in skipped_tags or (skip and skip(element))) and element is not root:
                walker.skip_subtree()
                skipped = element
                if element.tail:
                    current.append(element.tail)
                continue
            if tag in BLOCK_TAGS:
                flush()
            if element.text:
                current.append(element.text)
        else:
            if element is skipped:  # its tail is taken already
                skipped = None
                continue
            if tag in BLOCK_TAGS:
                flush()
            if element.tail:
                current.append(element.tail)
    flush()
    return blocks


def page_language(
    page: str | bytes | ParsedPage,
    identifier: LanguageIdentifier,
    declared: str | None = None,
    offered: Collection[str] | None = None,
) -> PageLanguage:
    """The language of a page's main text and the share of each language in it; ``declared``:
    the language the site declares for it, ``offered``: the languages of its site, where known
    (:func:`language_blocks`). Prose before boilerplate:
    the page's prose decides (no navigation, legal notice or code: a long untranslated licence
    on a translated index page does not), its whole main text only when the prose is too
    short to judge."""
    page = as_parsed(page)
    prose, truncated = main_text_blocks(page, code=False, navigation=False)
    found = blocks_language(
        language_prose(prose), truncated, identifier=identifier, declared=declared, offered=offered
    )
    if found.undetermined:
        found = blocks_language(
            *main_text_blocks(page), identifier=identifier, declared=declared, offered=offered
        )
    return found


@dataclass(frozen=True)
class LanguageBlock:
    """A block of a page's main text judged on its own, with its language."""

    text: str
    lang: str | None
    """Its language (language ID's, or the declared one: :mod:`.declared_language`); ``None``:
    none found."""
    signal: Signal = Signal.IDENTIFIER
    """Which signal decided ``lang``."""
    score: float | None = None
    """The identifier's probability for its guess (None: not known)."""


def language_blocks(
    blocks: list[str],
    *,
    identifier: LanguageIdentifier,
    declared: str | None = None,
    offered: Collection[str] | None = None,
    unsure_declared: bool = False,
) -> list[LanguageBlock]:
    """The blocks long enough to judge (:data:`MIN_BLOCK_CHARS`; all of them together when
    none is), each with its language: the identifier's, or the ``declared`` language of the
    page where the identifier cannot know it or names a close neighbour
    (:func:`~.declared_language.resolve_language`, each guess weighed with all the blocks it
    names, so an English licence on a Galician page stays English, and short English blocks
    under a Dzongkha URL are read as the English they are together)."""
    judged = [b for b in blocks if len(b) >= MIN_BLOCK_CHARS]
    if not judged and blocks:  # a page of short blocks only: judge them together
        judged = [" ".join(blocks)]
    guessed = [
        LanguageBlock(block, guesses[0].lang, score=guesses[0].score)
        if guesses
        else LanguageBlock(block, None)
        for block, guesses in zip(judged, identifier.identify_many(judged), strict=True)
    ]
    return resolved_blocks(guessed, declared, identifier.knows, offered, unsure_declared)


def resolved_blocks(
    blocks: Sequence[LanguageBlock],
    declared: str | None,
    knows: Callable[[str], bool],
    offered: Collection[str] | None = None,
    unsure_declared: bool = False,
) -> list[LanguageBlock]:
    """Blocks whose identified language the ``declared`` one overrules where
    :func:`~.declared_language.resolve_language` says so, each guess weighed with all the
    blocks it names (one short block reads as no language), with the identifier's probability
    for it over them (by characters; None where a block's is not known); ``offered``: the
    languages of the page's site, where known."""
    if declared is None:
        return list(blocks)
    by_guess: dict[str, list[LanguageBlock]] = {}
    for block in blocks:
        if block.lang is not None:
            by_guess.setdefault(block.lang, []).append(block)
    resolved = {
        lang: resolve_language(
            lang,
            " ".join(b.text for b in named),
            declared,
            knows,
            _confidence(named),
            offered,
            unsure_declared,
        )  # fmt: skip
        for lang, named in by_guess.items()
    }
    found = []
    for block in blocks:
        decided = resolved.get(block.lang) if block.lang is not None else None
        if decided is None or decided.signal is Signal.IDENTIFIER:
            found.append(block)
        else:
            found.append(LanguageBlock(block.text, decided.lang, decided.signal, block.score))
    return found


def _confidence(blocks: Sequence[LanguageBlock]) -> float | None:
    """The identifier's probability for the blocks' guess, weighted by their characters."""
    if any(block.score is None for block in blocks):
        return None
    chars = sum(len(block.text) for block in blocks)
    return sum(len(block.text) * (block.score or 0.0) for block in blocks) / max(1, chars)


def blocks_language(
    blocks: list[str],
    truncated: bool = False,
    *,
    identifier: LanguageIdentifier,
    declared: str | None = None,
    offered: Collection[str] | None = None,
) -> PageLanguage:
    """:func:`page_language` of the main text blocks of a page (:func:`main_text_blocks`)."""
    judged = language_blocks(blocks, identifier=identifier, declared=declared, offered=offered)
    return language_of_blocks(judged, truncated)


def language_of_blocks(judged: list[LanguageBlock], truncated: bool = False) -> PageLanguage:
    """The languages' shares of judged blocks (:func:`language_blocks`), by characters."""
    weights: Counter[str] = Counter()
    signals: dict[str, Counter[Signal]] = {}
    for block in judged:
        if block.lang:
            weights[block.lang] += len(block.text)
            signals.setdefault(block.lang, Counter())[block.signal] += len(block.text)
    total = sum(weights.values())
    if total < MIN_PAGE_CHARS:
        return PageLanguage(UNDETERMINED, 0.0, {}, True, total, truncated)
    shares = {lang: round(n / total, 4) for lang, n in weights.most_common()}
    lang, share = next(iter(shares.items()))
    signal = signals[lang].most_common(1)[0][0]
    return PageLanguage(lang, share, shares, False, total, truncated, signal)
