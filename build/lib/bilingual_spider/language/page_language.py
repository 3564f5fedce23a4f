"""The language of a web page, from its main text, with the share of text in each language.

Scripts, styles, navigation, headers, footers, forms and the like are removed; the rest is cut
into blocks (paragraphs, list items, cells, headings); each block long enough to judge is
identified, and each language's share is its share of those characters. A mixed-language page
shows as two large shares instead of one arbitrary answer.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html
from w3lib.encoding import html_to_unicode

from bilingual_spider.language.identification import UNDETERMINED, LanguageIdentifier

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
MAX_HTML_BYTES = 4 * 1024 * 1024
"""Only this much of a page is parsed (the result says ``truncated``): bounded time and memory."""
MIN_BLOCK_CHARS = 20
"""Shorter blocks (menu items, buttons, dates) say little about a page's language."""
MIN_PAGE_CHARS = 20
SKIPPED_TAGS = (
    "script", "style", "noscript", "template", "nav", "header", "footer", "aside", "form",
    "select", "button", "iframe", "svg", "head",
)  # fmt: skip
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
    """The page was longer than :data:`MAX_HTML_BYTES` and only its start was read."""


def main_text_blocks(page: str | bytes) -> tuple[list[str], bool]:
    """The text blocks of a page's main content, and whether the page was truncated."""
    truncated = len(page) > MAX_HTML_BYTES
    if truncated:
        page = page[:MAX_HTML_BYTES]
    root = parse_page(page)
    if root is None:
        return [], truncated
    for element in list(root.iter(*SKIPPED_TAGS, etree.Comment, etree.ProcessingInstruction)):
        if element.getparent() is not None:
            element.drop_tree()
    return _blocks(root), truncated


def parse_page(page: str | bytes) -> etree._Element | None:
    """Bytes are decoded as Scrapy decodes a body without headers (w3lib: BOM, ``<meta
    charset>``, XML declaration, else UTF-8), so an EUC-KR page stays Korean; the XML
    declaration is then dropped, as lxml refuses it in a str."""
    if isinstance(page, bytes):
        page = html_to_unicode(None, page)[1]
    page = _XML_DECLARATION.sub("", page.replace("\x00", ""), count=1)
    if not page.strip():
        return None
    try:
        return lxml_html.document_fromstring(page)
    except (etree.ParserError, ValueError):
        return None


def _blocks(root: etree._Element) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []

    def flush() -> None:
        text = " ".join("".join(current).split())
        if text:
            blocks.append(text)
        current.clear()

    for event, element in etree.iterwalk(root, events=("start", "end")):
        if not isinstance(element.tag, str):
            continue
        if event == "start":
            if element.tag in BLOCK_TAGS:
                flush()
            if element.text:
                current.append(element.text)
        else:
            if element.tag in BLOCK_TAGS:
                flush()
            if element.tail:
                current.append(element.tail)
    flush()
    return blocks


def page_language(page: str | bytes, identifier: LanguageIdentifier) -> PageLanguage:
    """The language of a page's main text and the share of each language in it."""
    return blocks_language(*main_text_blocks(page), identifier=identifier)


def blocks_language(
    blocks: list[str], truncated: bool = False, *, identifier: LanguageIdentifier
) -> PageLanguage:
    """:func:`page_language` of the main text blocks of a page (:func:`main_text_blocks`)."""
    judged = [b for b in blocks if len(b) >= MIN_BLOCK_CHARS]
    if not judged and blocks:  # a page of short blocks only: judge them together
        judged = [" ".join(blocks)]
    weights: Counter[str] = Counter()
    for block, guesses in zip(judged, identifier.identify_many(judged), strict=True):
        if guesses:
            weights[guesses[0].lang] += len(block)
    total = sum(weights.values())
    if total < MIN_PAGE_CHARS:
        return PageLanguage(UNDETERMINED, 0.0, {}, True, total, truncated)
    shares = {lang: round(n / total, 4) for lang, n in weights.most_common()}
    lang, share = next(iter(shares.items()))
    return PageLanguage(lang, share, shares, False, total, truncated)
