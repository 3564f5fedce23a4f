"""Decode every HTML page with the charset its bytes are really in.

Scrapy's ``TextResponse.encoding`` trusts, in order, a byte-order mark, the ``charset`` of the
Content-Type header, a ``<meta>`` declaration, and only then guesses (ASCII, UTF-8, then
charset-normalizer over the whole body); w3lib maps labels to supersets (``latin-1`` ->
windows-1252, ``gb2312`` -> gb18030, ``euc-kr`` -> cp949, ``shift_jis`` -> cp932). Measured on real
and generated pages (``benchmarks/charset_detection.py``), that is right whenever the declaration is
right, and wrong when:

- the header names a charset the body is not in: a server's default ``ISO-8859-1`` on an EUC-KR,
  GBK, Big5 or Shift_JIS page gives mojibake, ``utf-8`` on a legacy page gives U+FFFD;
- nothing is declared and the page is short: charset-normalizer takes about 20 % of short
  Latin-1 pages for cp1250/cp775/cp852/hp-roman8, and 2-10 % of short CJK pages for another
  charset.

This middleware decides before Scrapy does, for HTML responses only:

- **nothing declared**: a strict UTF-8 decode, else the detector (uchardet, through
  ``faust-cchardet``), kept only if it names an encoding of the WHATWG Encoding Standard (the
  only ones a browser decodes a page with) and decodes the whole body without error; else
  charset-normalizer restricted to those encodings. The page's own ``<html lang>`` decides
  between encodings of one script (which CJK encoding; windows-1252 or another Latin one), and a
  page that reads as kana-rich Japanese is taken for Japanese. Counted as ``charset/detected``.
- **declared, but wrong**: the declaration is distrusted when more than
  ``BILINGUAL_CHARSET_MAX_ERROR_SHARE`` of the non-ASCII characters it reads are decoding errors
  (a wrong charset makes 54-100 % of them errors, a stray bad byte a few), or when it is
  windows-1252 (or a label that means it: ``ISO-8859-1``, ``us-ascii``), the default that servers
  and templates add without looking at the bytes, and the bytes are cleanly UTF-8 or a CJK
  encoding, or what the page's language uses. Another declaration of the page (header vs
  ``<meta>``) is tried first, then the detector. Counted as ``charset/overridden``.
- **declared, but not a text encoding** (``zlib``, ``base64``, ``rot13``, ``punycode``: see
  ``language/charsets.py``): the declaration is ignored, for any text response (HTML, JSON, XML),
  since Scrapy would raise decoding with it. Counted as ``charset/not_text_declared`` and logged.

The choice is returned as ``response.replace(encoding=...)``: Scrapy puts an explicit encoding
before every declaration, and the headers still say what the server sent.
"""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

import cchardet
from charset_normalizer import from_bytes
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.statscollectors import StatsCollector
from w3lib.encoding import read_bom, resolve_encoding

from bilingual_spider.language.charsets import (
    DEFAULT_ENCODING,
    declared_encodings,
    is_text_encoding,
    not_text_declaration,
    text_encoding,
)
from bilingual_spider.language.codes import normalize_language_code

logger = logging.getLogger(__name__)

# The encodings of the WHATWG Encoding Standard (https://encoding.spec.whatwg.org/), as the Python
# codecs w3lib resolves their labels to. A page in any other encoding does not render in a browser.
_WHATWG_LABELS = (
    "utf-8 ibm866 iso-8859-2 iso-8859-3 iso-8859-4 iso-8859-5 iso-8859-6 iso-8859-7 iso-8859-8"
    " iso-8859-10 iso-8859-13 iso-8859-14 iso-8859-15 iso-8859-16 koi8-r koi8-u macintosh"
    " windows-874 windows-1250 windows-1251 windows-1252 windows-1253 windows-1254 windows-1255"
    " windows-1256 windows-1257 windows-1258 x-mac-cyrillic gbk gb18030 big5 euc-jp iso-2022-jp"
    " shift_jis euc-kr"
)
WEB_ENCODINGS: frozenset[str] = frozenset(
    name for label in _WHATWG_LABELS.split() if (name := resolve_encoding(label))
)
WINDOWS_1252 = "cp1252"
# Encodings whose clean decode of non-ASCII bytes is strong evidence: a windows-1252 text almost
# never happens to be valid UTF-8 or valid double-byte CJK as well.
MULTIBYTE_ENCODINGS: frozenset[str] = frozenset(
    resolve_encoding(label) or label
    for label in ("utf-8", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr")
)
# CJK languages -> their legacy encodings, most used first.
CJK_ENCODINGS: dict[str, tuple[str, ...]] = {
    "ja": ("cp932", "euc_jp", "iso2022_jp"),
    "ko": ("cp949",),
    "zh-Hans": ("gb18030",),
    "zh-Hant": ("big5hkscs",),
    "zh": ("gb18030", "big5hkscs"),
}
# Other languages whose pages are not in windows-1252 when they are not in UTF-8: the HTML
# standard's table of fallback encodings by locale, plus KOI8. Every other language: windows-1252.
SINGLE_BYTE_ENCODINGS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("ar", "fa", "ur"), ("cp1256",)),
    **dict.fromkeys(("be", "bg", "kk", "ky", "mk", "sr", "tg", "tt", "ba"), ("cp1251",)),
    "ru": ("cp1251", "koi8-r"),
    "uk": ("cp1251", "koi8-u"),
    **dict.fromkeys(("cs", "sk", "hr", "hu", "pl", "sl"), ("cp1250", "iso8859-2")),
    "el": ("iso8859-7", "cp1253"),
    "he": ("cp1255", "iso8859-8"),
    **dict.fromkeys(("tr", "ku"), ("cp1254",)),
    **dict.fromkeys(("et", "lt", "lv"), ("cp1257",)),
    "th": ("cp874",),
    "vi": ("cp1258",),
    **dict.fromkeys(("ro", "bs"), ("cp1250", "iso8859-16")),
}
# Single-byte encodings of the Latin script: on a short page, detectors confuse them.
LATIN_ENCODINGS: frozenset[str] = frozenset(
    {"cp1250", "cp1252", "cp1254", "cp1257", "cp1258", "mac-roman"}
    | {f"iso8859-{part}" for part in (2, 3, 4, 10, 13, 14, 15, 16)}
)
_HTML_LANG = re.compile(
    rb"<html\b[^>]*?\b(?:xml:)?lang\s*=\s*[\"']?([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)",
    re.IGNORECASE,
)
_ASCII = bytes(range(128))
_KANA = re.compile("[\u3041-\u30ff]")
KANA_SHARE = 0.2
_MIXED_SCRIPT = re.compile("[A-Za-z][\u0370-\u0e7f]|[\u0370-\u0e7f][A-Za-z]")


@dataclass(frozen=True)
class CharsetChoice:
    """What to decode a page with, instead of what Scrapy would have used."""

    encoding: str
    """A Python codec name, as w3lib resolves it (``cp949`` for EUC-KR)."""
    declared: str | None
    """The declaration it replaces (header, else ``<meta>``), None when nothing was declared."""

    @property
    def reason(self) -> str:
        return "overridden" if self.declared else "detected"


def choose_encoding(
    body: bytes, content_type: str = "", max_error_share: float = 0.2
) -> CharsetChoice | None:
    """The encoding to decode an HTML ``body`` with, or None to leave it to Scrapy.

    ``content_type`` is the raw Content-Type header. None means: a byte-order mark decides, or the
    body is ASCII, or the declaration decodes the body (see the module docstring).

    A declaration that names a codec which is not a text encoding (``zlib``, ``rot13``,
    ``punycode``: :mod:`bilingual_spider.language.charsets`) is ignored; since Scrapy would decode
    with it, the choice is then never None (UTF-8 for a page nothing else decodes).

    >>> page = "<p>아파치 웹서버 문서입니다</p>".encode("euc-kr")
    >>> choose_encoding(page, "text/html; charset=iso-8859-1")
    CharsetChoice(encoding='cp949', declared='cp1252')
    >>> choose_encoding(b"<meta charset=zlib><p>plain</p>")
    CharsetChoice(encoding='utf-8', declared='zlib')
    """
    if read_bom(body)[0]:
        return None
    header, meta = (text_encoding(name) for name in declared_encodings(body, content_type))
    choice = _choose(body, header, meta, max_error_share)
    not_text = not_text_declaration(body, content_type)
    if not_text:  # the declaration Scrapy would decode with: always replaced
        encoding = choice.encoding if choice else header or meta or DEFAULT_ENCODING
        return CharsetChoice(encoding, not_text)
    return choice


def _choose(
    body: bytes, header: str | None, meta: str | None, max_error_share: float
) -> CharsetChoice | None:
    """:func:`choose_encoding` for a page without a byte-order mark, given its declarations that
    are text encodings."""
    if body.isascii() and b"\x1b" not in body:
        return None
    declared = header or meta
    language = page_language(body)
    if declared is None:
        detected = detect_encoding(body, language)
        return CharsetChoice(detected, None) if detected else None
    if error_share(body, declared) <= max_error_share:
        if declared != WINDOWS_1252:
            return None
        better = _better_than_windows_1252(body, meta, language)
        return CharsetChoice(better, declared) if better else None
    for encoding in _alternatives(body, header, meta, language):
        if encoding and encoding != declared and error_share(body, encoding) == 0:
            return CharsetChoice(encoding, declared)
    return None


def _alternatives(
    body: bytes, header: str | None, meta: str | None, language: str | None
) -> Iterator[str | None]:
    """What else the page may be in, when its declaration fails: its other declaration first."""
    yield header
    yield meta
    yield detect_encoding(body, language)


def _better_than_windows_1252(body: bytes, meta: str | None, language: str | None) -> str | None:
    """An encoding that explains the bytes better than a windows-1252 declaration, if any."""
    if meta and meta != WINDOWS_1252 and error_share(body, meta) == 0:
        return meta
    detected = detect_encoding(body, language)
    if detected is None or detected == WINDOWS_1252:
        return None
    if detected in MULTIBYTE_ENCODINGS or detected in SINGLE_BYTE_ENCODINGS.get(language or "", ()):
        return detected
    return None


def detect_encoding(body: bytes, language: str | None = None) -> str | None:
    """The encoding of an undeclared ``body`` (a Python codec name), or None if none decodes it.

    ``language`` is the page's own (project code, from ``<html lang>``). A page that says it is
    Japanese, Korean or Chinese is in one of its language's encodings; a page in a Latin-script
    language is in its language's Latin encoding (windows-1252 for most) rather than another Latin
    one, which is all a detector can tell apart on a short page. Across scripts the detector is
    trusted more than the attribute, which templates often leave at ``en``.
    """
    if _decodes(body, "utf-8"):
        return "utf-8"
    if language is None and reads_as_japanese(body):
        language = "ja"
    expected = language_encodings(language)
    guess = cchardet.detect(body)["encoding"]
    encoding = resolve_encoding(guess) if guess else None
    if encoding not in WEB_ENCODINGS or not _decodes(body, encoding):
        encoding = None
    if encoding and _plausible(body, encoding, expected):
        return encoding
    pool = [e for e in expected if _decodes(body, e)]
    if not pool:
        pool = [encoding] if encoding else sorted(WEB_ENCODINGS)
    if len(pool) == 1:
        return pool[0]
    match = from_bytes(body, cp_isolation=pool).best()
    found = resolve_encoding(match.encoding) if match else None
    return found if found and _decodes(body, found) else None


def reads_as_japanese(body: bytes) -> bool:
    """Whether a Japanese encoding reads ``body`` as Japanese: at least a fifth of the non-ASCII
    characters kana. Japanese text is about half kana; Chinese, Korean or European text read as a
    Japanese encoding has next to none (detectors take short EUC-JP pages for Big5).
    """
    for encoding in ("euc_jp", "cp932"):
        try:
            text = codecs.decode(body, encoding)
        except UnicodeDecodeError:
            continue
        non_ascii = len(text) - len(text.encode("ascii", "ignore"))
        if len(_KANA.findall(text)) >= KANA_SHARE * non_ascii > 0:
            return True
    return False


def language_encodings(language: str | None) -> tuple[str, ...]:
    """The legacy encodings pages in ``language`` use (Python codec names), most used first."""
    if not language:
        return ()
    return CJK_ENCODINGS.get(language) or SINGLE_BYTE_ENCODINGS.get(language) or (WINDOWS_1252,)


def _plausible(body: bytes, encoding: str, expected: tuple[str, ...]) -> bool:
    """Whether the detector's ``encoding`` fits a page whose language uses ``expected``."""
    if not expected or encoding in expected:
        return True
    if expected[0] in MULTIBYTE_ENCODINGS:  # a CJK page
        return False
    if encoding in LATIN_ENCODINGS and set(expected) <= LATIN_ENCODINGS:
        return False
    # Another script: trusted, unless its reading splices letters of two scripts into words.
    return mixed_script_words(body, encoding) <= mixed_script_words(body, expected[0])


def mixed_script_words(body: bytes, encoding: str) -> int:
    """How often a Latin letter touches a Greek, Cyrillic, Hebrew, Arabic or Thai one when
    ``body`` is read as ``encoding`` (``dйjа`` is French read as windows-1251)."""
    return len(_MIXED_SCRIPT.findall(codecs.decode(body, encoding, "replace")))


def page_language(body: bytes) -> str | None:
    """The project language code of the page's ``<html lang>``, if it has one early on."""
    found = _HTML_LANG.search(body[:4096])
    return normalize_language_code(found.group(1).decode("ascii")) if found else None


def error_share(body: bytes, encoding: str) -> float:
    """The share of the non-ASCII characters ``encoding`` reads from ``body`` that are decoding
    errors (U+FFFD): 0.0 when it decodes the body, about 1.0 when it is the wrong charset."""
    if _decodes(body, encoding):
        return 0.0
    try:
        text = codecs.decode(body, encoding, "replace")
    except LookupError:
        return 1.0
    errors = text.count("\ufffd")
    if encoding == "utf-8":
        errors -= body.count("\ufffd".encode())  # a U+FFFD the page itself holds is no error
    return errors / max(1, len(text) - len(text.encode("ascii", "ignore")))


def _decodes(body: bytes, encoding: str) -> bool:
    try:
        codecs.decode(body, encoding)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


class CharsetMiddleware:
    """Downloader middleware: hands HTML responses on with the encoding their bytes are in.

    Place it between HttpCompressionMiddleware (590: the body must be decompressed) and
    MetaRefreshMiddleware (580: a refresh URL is read from the decoded text).
    """

    def __init__(self, stats: StatsCollector, max_error_share: float = 0.2) -> None:
        self.stats = stats
        self.max_error_share = max_error_share

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CharsetMiddleware:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_CHARSET_ENABLED"):
            raise NotConfigured
        return cls(crawler.stats, settings.getfloat("BILINGUAL_CHARSET_MAX_ERROR_SHARE"))

    def process_response(self, request: Request, response: Response) -> Response:
        if not isinstance(response, TextResponse):
            return response
        content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1")
        if isinstance(response, HtmlResponse):
            choice = choose_encoding(response.body, content_type, self.max_error_share)
        else:  # JSON, XML, plain text: only a declaration that is no text encoding is replaced
            not_text = not_text_declaration(response.body, content_type)
            choice = CharsetChoice(DEFAULT_ENCODING, not_text) if not_text else None
        if choice is None:
            return response
        if choice.declared and not is_text_encoding(choice.declared):
            self.stats.inc_value("charset/not_text_declared")
            logger.info(
                "%s declares charset %r, which is not a text encoding: read as %s",
                response.url,
                choice.declared,
                choice.encoding,
            )
        self.stats.inc_value(f"charset/{choice.reason}")
        self.stats.inc_value(f"charset/{choice.reason}/{choice.encoding}")
        logger.debug(
            "charset of %s: %s (declared: %s)", response.url, choice.encoding, choice.declared
        )
        return response.replace(encoding=choice.encoding)
