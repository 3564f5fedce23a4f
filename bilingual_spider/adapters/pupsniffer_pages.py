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

from scrapy.http import TextResponse

from bilingual_spider.language.identification import UNDETERMINED
from bilingual_spider.language.page_language import (
    MIN_BLOCK_CHARS,
    LanguageBlock,
    language_blocks,
    language_of_blocks,
    main_text_blocks,
)
from bilingual_spider.patterns.crawl_round import marked_language
from bilingual_spider.patterns.pair_language import MIN_LANGUAGE_SHARE
from bilingual_spider.response_page import response_page

logger = logging.getLogger(__name__)


class PageText(NamedTuple):
    """A page's language and main text; a mixed page's judged blocks (``PageRecord``)."""

    language: str | None
    text: str
    mixed_blocks: tuple[LanguageBlock, ...] = ()
    language_share: float = 0.0
    """The share of its main text in its main language."""
    prose: str = ""
    """Its main text's blocks of :data:`~bilingual_spider.language.page_language.
    MIN_BLOCK_CHARS` or more, without code: what the copy check compares (a table of package
    names or a shell session is the same in every language, and no prose)."""


NO_TEXT = PageText(None, "")


def page_text(response: TextResponse, identifier: Any = None) -> PageText:
    """The language and main text of ``response`` (see the module's docstring)."""
    parsed = response_page(response)
    blocks, truncated = main_text_blocks(parsed)
    judged = language_blocks(blocks, identifier=identifier)
    found = language_of_blocks(judged, truncated)
    prose_blocks, _ = main_text_blocks(parsed, code=False)
    language: str | None = None
    mixed: tuple[LanguageBlock, ...] = ()
    if not found.undetermined and found.score >= MIN_LANGUAGE_SHARE:
        language = found.lang
    elif not found.undetermined:  # mixed: each pair decides (pair_language.own_prose)
        language = marked_language(response.url, found.shares)
        mixed = tuple(language_blocks(prose_blocks, identifier=identifier) or judged)
    logger.debug("pupsniffer page language %s %s", language or UNDETERMINED, response.url)
    share = 0.0 if found.undetermined else found.score
    prose = " ".join(block for block in prose_blocks if len(block) >= MIN_BLOCK_CHARS)
    return PageText(language, " ".join(blocks), mixed, share, prose)
