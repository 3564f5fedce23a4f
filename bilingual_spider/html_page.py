"""One page, one parse: a page's text and its lxml tree.

Every reader of a page (language identification, link contexts and the alternates they carry,
the pair verifier's shape and main text, the WARC writer's language) reads the tree this module
makes, so they all see one text, decoded once. The crawl parses each response once and shares the
result (``bilingual_spider.responses.response_page``); tools that read files parse their bytes
here too, so training and crawling read pages alike.

Decoding: page bytes become text as Scrapy's ``TextResponse.text`` makes it, a byte-order mark
first, then the encoding given (in a crawl, the one the charset middleware chose,
``response.encoding``), else the page's own declaration (Content-Type header, ``<meta charset>``
or XML declaration) if it names a text encoding (:mod:`bilingual_spider.language.charsets`), else
UTF-8. Undecodable bytes become U+FFFD.

Parsing: libxml2's HTML parser (lxml) reads malformed HTML as browsers do, with plain elements
(``lxml.html``'s element classes cost a third of the time). Comments and processing instructions
are dropped (the text around them stays text); an XML declaration is dropped (lxml refuses it in
a str); only the first :data:`MAX_HTML_CHARS` are read. Readers only read the tree: none changes
it, since others read it after them.

This is a leaf: it imports nothing of the project but ``language/charsets.py``, and no Scrapy.
"""

from __future__ import annotations

import re
import threading
from typing import NamedTuple

from lxml import etree
from w3lib.encoding import html_to_unicode

from bilingual_spider.language.charsets import decode_html, text_encoding

MAX_HTML_CHARS = 4 * 1024 * 1024
"""Only this much of a page is parsed (for its links and its main text): bounded time and memory."""

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")
_local = threading.local()


class ParsedPage(NamedTuple):
    """A page's tree, read once for its link contexts, its language, its main text and its
    shape (all only read it)."""

    root: etree._Element | None
    """None when the page is empty or lxml cannot read it."""
    truncated: bool
    """The page was longer than :data:`MAX_HTML_CHARS` and only its start was read."""


EMPTY_PAGE = ParsedPage(None, False)
"""What a response that is no text parses to."""


def decode_page(body: bytes, encoding: str | None = None, content_type: str = "") -> str:
    """Page bytes as text. ``encoding``: the one chosen for the page (the charset middleware's,
    ``response.encoding``), read as Scrapy's ``TextResponse.text`` reads a body with it (a
    byte-order mark still wins); without it (or when it is no text encoding), the page's own
    declarations decide (:func:`~bilingual_spider.language.charsets.decode_html`)."""
    if text_encoding(encoding):
        return html_to_unicode(f"charset={encoding}", body)[1]
    return decode_html(body, content_type)


def parse_html(html: str | bytes, encoding: str | None = None) -> ParsedPage:
    """A page's tree. Bytes are decoded by :func:`decode_page` (with ``encoding`` if given);
    a str is read as it is."""
    truncated = len(html) > MAX_HTML_CHARS  # characters of a str, bytes of bytes
    if isinstance(html, bytes):
        html = decode_page(html[:MAX_HTML_CHARS], encoding)
    text = _XML_DECLARATION.sub("", html[:MAX_HTML_CHARS].replace("\x00", ""), count=1)
    if not text.strip():
        return ParsedPage(None, truncated)
    try:
        return ParsedPage(etree.fromstring(text, _parser()), truncated)
    except (etree.LxmlError, ValueError):  # ValueError: unencodable text (lone surrogates)
        return ParsedPage(None, truncated)


def as_parsed(page: str | bytes | ParsedPage) -> ParsedPage:
    """``page`` if it is parsed already, else :func:`parse_html` of it."""
    return page if isinstance(page, ParsedPage) else parse_html(page)


def _parser() -> etree.HTMLParser:
    """libxml2's HTML parser with plain elements. Parsers are not thread-safe: one per thread.
    Comments are dropped, so their tails stay text."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = etree.HTMLParser(remove_comments=True, remove_pis=True)
    return parser


def html_lang(page: ParsedPage) -> str | None:
    """The language the page declares on its root element (``<html lang>`` or ``xml:lang``,
    as the HTML parser keeps it, ``xml:lang``, or as an XML parser does, namespaced: an XHTML
    1.0 page may declare it there alone), None when it declares none."""
    if page.root is None:
        return None
    root = page.root.getroottree().getroot()
    lang = root.get("lang") or root.get("xml:lang") or root.get(_XML_LANG)
    return lang.strip() or None if lang else None


_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def canonical_link(page: ParsedPage) -> str | None:
    """The ``href`` of the page's ``<link rel="canonical">`` as written (relative or not), None
    when it has none: the URL a print version, a mobile copy or a search-highlighted copy names
    as the page it copies."""
    if page.root is None:
        return None
    for link in page.root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            return link.get("href").strip() or None
    return None
