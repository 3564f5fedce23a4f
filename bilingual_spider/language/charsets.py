"""Which charsets a page may declare: text encodings only.

A page names its charset in the Content-Type header, a ``<meta charset>`` or an XML declaration,
and w3lib resolves the name with ``codecs.lookup``, which also knows Python's codecs that are not
text encodings: bytes-to-bytes transforms (``zlib``, ``hex``, ``base64``, ``bz2``, ``uu``,
``quopri``), str-to-str ones (``rot13``), and text codecs that raise on ordinary bytes even with
``errors="replace"`` (``idna``, ``punycode``, ``undefined``) or read backslashes as escapes
(``unicode_escape``). Decoding a page with one of them raises, and the page and its links would be
lost. A declaration naming one is treated as no declaration at all (what a browser does with a
label it does not know).

This module is the one place that decides whether a declared name is a text encoding
(:func:`text_encoding`), and that decodes page bytes the way Scrapy does without the charset
middleware's choice (:func:`decode_html`).
"""

from __future__ import annotations

import codecs

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding

NOT_TEXT_CODECS = frozenset(
    {"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape"}
)
"""Codecs (``codecs.lookup(name).name``) that say they are text encodings but do not decode
arbitrary page bytes into text."""
DEFAULT_ENCODING = "utf-8"
"""What undeclared bytes are read as (after a byte-order mark), as Scrapy and w3lib do."""


def is_text_encoding(name: str | None) -> bool:
    """Whether ``name`` is a codec that decodes any bytes into text (with ``errors="replace"``).

    >>> is_text_encoding("latin-1"), is_text_encoding("zlib"), is_text_encoding("punycode")
    (True, False, False)
    """
    if not name:
        return False
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):  # ValueError: a NUL in the name
        return False
    return getattr(info, "_is_text_encoding", True) and info.name not in NOT_TEXT_CODECS


def text_encoding(name: str | None) -> str | None:
    """``name`` if it is a text encoding, else None (a declaration to ignore)."""
    return name if is_text_encoding(name) else None


def declared_encodings(body: bytes, content_type: str = "") -> tuple[str | None, str | None]:
    """The raw declarations of a page: its Content-Type header's charset and its body's (``<meta
    charset>`` or XML declaration), as w3lib resolves them (None: nothing declared). They may name
    codecs that are not text encodings: see :func:`text_encoding`."""
    return http_content_type_encoding(content_type or ""), html_body_declared_encoding(body)


def not_text_declaration(body: bytes, content_type: str = "") -> str | None:
    """The declaration Scrapy would decode the page with (header first, then body), when it is
    not a text encoding (``zlib_codec``); None when it is one or when nothing is declared."""
    header, meta = declared_encodings(body, content_type)
    declared = header or meta
    return declared if declared and not is_text_encoding(declared) else None


def decode_html(body: bytes, content_type: str = "") -> str:
    """Page bytes as text, as Scrapy decodes a body (byte-order mark, then the header's charset,
    then ``<meta charset>`` or the XML declaration, else UTF-8), a declaration that is not a text
    encoding being ignored. Undecodable bytes become U+FFFD; never raises."""
    header, meta = (text_encoding(name) for name in declared_encodings(body, content_type))
    return html_to_unicode(f"charset={header or meta or DEFAULT_ENCODING}", body)[1]
