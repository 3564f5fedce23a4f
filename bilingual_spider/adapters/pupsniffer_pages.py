"""A PupSniffer page's language and main text, read from the response's one parse.

A page counts for its main language when that language has ``MIN_LANGUAGE_SHARE`` of its main
text. A page where no language has it is *mixed* (a translation with an untranslated appendix,
code and UI strings kept): it keeps the language its URL names, if its text has some of it, and
its judged prose blocks (code left out), so that each pair it is in decides by the language of
its prose that is not copied from the other page
(:func:`~bilingual_spider.patterns.pair_language.own_prose`). The copy check compares the
pages' prose (``PageText.prose``).
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple
from urllib.parse import urldefrag, urljoin

from scrapy.http import HtmlResponse, TextResponse, XmlResponse

from bilingual_spider.html_page import canonical_link, html_lang
from bilingual_spider.language.declared_language import Signal
from bilingual_spider.language.identification import UNDETERMINED, default_identifier
from bilingual_spider.language.page_language import (
    LanguageBlock,
    language_blocks,
    language_of_blocks,
    main_text_blocks,
)
from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.patterns.alternates import Alternate, page_alternates
from bilingual_spider.patterns.crawl_round import PageRecord, marked_language
from bilingual_spider.patterns.pair_language import BLOCK_SEPARATOR, MIN_LANGUAGE_SHARE
from bilingual_spider.patterns.verification import page_content
from bilingual_spider.response_page import page_declared_language, response_page

logger = logging.getLogger(__name__)


class PageText(NamedTuple):
    """A page's language and main text; a mixed page's judged blocks (``PageRecord``)."""

    language: str | None
    text: str
    mixed_blocks: tuple[LanguageBlock, ...] = ()
    language_share: float = 0.0
    """The share of its main text in its main language."""
    prose: str = ""
    """Its prose: its main text's blocks without code and navigation, joined by
    :data:`~bilingual_spider.patterns.pair_language.BLOCK_SEPARATOR`; what the copy check
    compares (:mod:`~bilingual_spider.patterns.copied_prose`: a table of package names or a
    shell session is the same in every language, and no prose)."""
    signal: Signal | None = None
    """Which signal decided ``language``: the identifier, or the language the site declares
    (:mod:`~bilingual_spider.language.declared_language`); None without a language."""


NO_TEXT = PageText(None, "")


class PageLinks(NamedTuple):
    """A page's followable links and the translations it names (:mod:`.alternates`)."""

    urls: list[str]
    alternates: tuple[Alternate, ...]
    canonical: str | None = None
    """The page it copies, when it names another as canonical (a print version, a mobile
    copy)."""


def is_html(response: TextResponse) -> bool:
    """HTML or XML, or a text body that is no JSON (what Scrapy's selector reads as HTML)."""
    if isinstance(response, HtmlResponse | XmlResponse):
        return True
    return response.text.lstrip()[:1] not in ("{", "[")


def page_links(response: TextResponse) -> PageLinks:
    """The page's links (``<a>``, ``<area>``, ``<link rel=alternate hreflang>``, a ``<select>``
    menu's URL options) and the translations it names among them."""
    if not is_html(response):  # a JSON or plain-text body: no links
        return PageLinks([], ())
    parsed = response_page(response)
    contexts = extract_link_contexts(parsed, response.url)
    links = [c.url for c in contexts if c.url.startswith(("http://", "https://"))]
    canonical = canonical_link(parsed)
    if canonical is not None:
        canonical = urldefrag(urljoin(response.url, canonical))[0]
        if not canonical.startswith(("http://", "https://")) or canonical == response.url:
            canonical = None
    return PageLinks(links, page_alternates(contexts), canonical)


def page_record(
    response: TextResponse, page: PageText, links: PageLinks, with_content: bool
) -> PageRecord:
    """The page as pair discovery needs it; its shape and own text when pairs are verified by
    content (``with_content``)."""
    content = page_content(response_page(response)) if with_content else None
    own = html_lang(response_page(response)) if is_html(response) else None
    return PageRecord.of(
        response.url, page.language, page.text, links.urls, content, links.alternates,
        page.mixed_blocks, page.language_share, page.prose, page.signal or "identifier", own,
        links.canonical,
    )  # fmt: skip


def page_text(response: TextResponse, identifier: Any = None, stats: Any = None) -> PageText:
    """The language and main text of ``response`` (see the module's docstring). ``stats``:
    the crawl's, where the signal that decided each page's language is counted
    (``pupsniffer/page_language/identifier``, ``.../declared_close``, ``.../declared_unknown``:
    :mod:`~bilingual_spider.language.declared_language`)."""
    parsed = response_page(response)
    blocks, truncated = main_text_blocks(parsed)
    if identifier is None:
        identifier = default_identifier()
    declared = page_declared_language(response, parsed)
    # its share of each language is its whole main text's (a page with a fifth of it in
    # other languages may be the copy of another: crawl_round.copy_side); a mixed page's own
    # language is its prose's, decided against each pair's other page (own_prose)
    judged = language_blocks(blocks, identifier=identifier, declared=declared, unsure_declared=True)
    found = language_of_blocks(judged, truncated)
    prose_blocks, _ = main_text_blocks(parsed, code=False, navigation=False)
    language: str | None = None
    mixed: tuple[LanguageBlock, ...] = ()
    if not found.undetermined and found.score >= MIN_LANGUAGE_SHARE:
        language = found.lang
    elif not found.undetermined:  # mixed: each pair decides (pair_language.own_prose)
        language = marked_language(response.url, found.shares)
        prose = language_blocks(
            prose_blocks, identifier=identifier, declared=declared, unsure_declared=True
        )
        mixed = tuple(prose or judged)
    logger.debug(
        "pupsniffer page language %s (%s) %s", language or UNDETERMINED, found.signal, response.url
    )
    share = 0.0 if found.undetermined else found.score
    if stats is not None and language:
        stats.inc_value(f"pupsniffer/page_language/{found.signal}")
    return PageText(
        language, " ".join(blocks), mixed, share, BLOCK_SEPARATOR.join(prose_blocks),
        found.signal if language else None,
    )  # fmt: skip
