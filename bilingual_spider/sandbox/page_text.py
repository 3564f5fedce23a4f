"""The text of a served HTML file, as the gold of the real sites reads it: the encoding it
declares, its text blocks, and its prose (without navigation and boilerplate)."""

from __future__ import annotations

import re
from typing import Any

import lxml.html
from lxml import etree

from bilingual_spider.language.page_language import is_navigation

# Not part of a page's prose: code samples and commands are the same in every language.
_NON_TEXT_TAGS = ("script", "style", "noscript", "template", "pre", "code", "tt", "kbd", "samp")
_BLOCK_TAGS = (
    "address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl", "dt",
    "fieldset", "figcaption", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "option", "p", "section", "table", "td", "th", "title", "tr",
    "ul",
)  # fmt: skip
_XML_ENCODING = re.compile(rb"""<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)""")
_META_CHARSET = re.compile(rb"""<meta[^>]*\bcharset\s*=\s*["']?([A-Za-z0-9._:-]+)""", re.I)
_BLOCK_BREAK = "\u2029"  # PARAGRAPH SEPARATOR: line breaks in the source are mere spaces
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)


def declared_encoding(data: bytes) -> str:
    """The encoding an HTML file declares (XML declaration or meta charset), else UTF-8."""
    head = data[:4096]
    for pattern in (_XML_ENCODING, _META_CHARSET):
        found = pattern.search(head)
        if found:
            name = found.group(1).decode("ascii")
            try:
                "".encode(name)
            except LookupError:
                continue
            return name
    return "utf-8"


def text_segments(data: bytes) -> list[str]:
    """The text of an HTML file as text blocks (one per paragraph, list item, cell, title...),
    whitespace-normalised. Scripts, styles and code (``pre``, ``code``, ``tt``...) are removed:
    commands and code samples are identical in every language and would blur language ID."""
    document = _document(data)
    return [] if document is None else _segments(document)


def prose_segments(data: bytes) -> list[str]:
    """:func:`text_segments` of a page's prose: without its navigation and boilerplate (the
    ``head``, ``nav``, ``header``, ``footer`` and ``aside`` elements, ARIA navigation roles, and
    elements whose class or id names navigation or a legal notice: :func:`~bilingual_spider.
    language.page_language.is_navigation`, which the crawl's prose leaves out too).
    A translated navigation bar or sidebar beside an untranslated body is no translated prose;
    a table of contents in the body (DocBook's ``toc``) is kept: it is the page's content."""
    document = _document(data)
    if document is None:
        return []
    for element in list(document.iter()):
        if element is not document and is_navigation(element):
            element.drop_tree()
    return _segments(document)


def _document(data: bytes) -> Any:
    text = data.decode(declared_encoding(data), errors="replace")
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text.encode("utf-8"), parser=_PARSER)
    except etree.ParserError:
        return None


def _segments(document: Any) -> list[str]:
    etree.strip_elements(document, *_NON_TEXT_TAGS, with_tail=False)
    for element in document.iter(*_BLOCK_TAGS):
        element.text = _BLOCK_BREAK + (element.text or "")
        element.tail = _BLOCK_BREAK + (element.tail or "")
    blocks = (" ".join(block.split()) for block in document.text_content().split(_BLOCK_BREAK))
    return [block for block in blocks if block]
