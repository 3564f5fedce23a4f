"""Boilerplate score of the block of text that encloses a link.

Schäfer, Barbey and Bildhauer (2014), *Focused Web Corpus Crawling*, WaC-9, Sections 3 and 4: links
are worth following when "the local block enclosing a link" is not boilerplate, i.e. its score is
in [0.5, 1]; as a binary filter the score is weak (Table 3: F1 0.614), so it only prioritises.
texrex scores blocks with a neural network of its own; we use a kept library instead, jusText
(Pomikálek 2011, ``justext`` on PyPI), whose paragraph classifier uses the same kind of evidence:
link density, length, stop-word density, and the classes of the neighbouring blocks.

**Score convention (the paper's)**: in [0, 1], 1 = clean content, and a block scoring at least
:data:`NOT_BOILERPLATE` (0.5) is *not* boilerplate. jusText labels each block twice, first
context-free (``good``, ``neargood``, ``short``, ``bad``) and then, from its neighbours, finally
``good`` or ``bad``; the score orders those pairs (:data:`CLASS_SCORES`) so that exactly the
blocks jusText keeps score >= 0.5, and among them and among the rest, the ones with more evidence
of their own score further from 0.5.

Languages: jusText's stop lists cover about 100 languages (:data:`JUSTEXT_STOPLISTS` maps our
codes). For a language written without spaces (Chinese, Japanese, Thai, ...) stop-word density
over space-separated words means nothing, so those blocks are classified on length, link density
and context only (an empty stop list with both stop-word thresholds at 0), with the length
thresholds scaled to the denser script (:data:`UNSPACED_LENGTH_FACTOR`). For any other language
without a list, or no language at all, the union of all of jusText's lists stands in
(trafilatura's fallback).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

import justext
import lxml.sax
from justext.core import (
    LENGTH_HIGH_DEFAULT,
    LENGTH_LOW_DEFAULT,
    ParagraphMaker,
    classify_paragraphs,
    html_to_dom,
    preprocessor,
    revise_paragraph_classification,
)
from lxml import etree

from bilingual_spider.language.codes import base_language, normalize_language_code

NOT_BOILERPLATE = 0.5
"""Section 3: blocks scoring in [0.5, 1] are "likely not boilerplate"."""
CLASS_SCORES: dict[tuple[str, str], float] = {
    ("good", "good"): 1.0,  # long, few links, many stop words
    ("good", "neargood"): 0.8,  # nearly so, and next to good blocks
    ("good", "short"): 0.6,  # too short to tell, between good blocks
    ("bad", "neargood"): 0.4,  # nearly good, but between bad blocks
    ("bad", "short"): 0.2,  # too short to tell, between bad blocks
    ("bad", "bad"): 0.0,  # link-heavy, a copyright line, or no stop words
}
"""Score of a block by (jusText's final class, its context-free class)."""

JUSTEXT_STOPLISTS = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque",
    "fa": "Persian", "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian",
    "id": "Indonesian", "is": "Icelandic", "it": "Italian", "ka": "Georgian", "kk": "Kazakh",
    "ko": "Korean", "la": "Latin", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian",
    "ms": "Malay", "nb": "Norwegian_Bokmal", "nl": "Dutch", "nn": "Norwegian_Nynorsk",
    "no": "Norwegian_Bokmal", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "tl": "Tagalog",
    "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese",
}  # fmt: skip
"""Our language codes -> the names of jusText's stop lists (``justext.get_stoplists()``)."""
UNSPACED_LANGUAGES = frozenset({"zh", "ja", "th", "lo", "km", "my", "bo"})
"""Written without spaces between words: no stop-word density (length and links only)."""
UNSPACED_LENGTH_FACTOR = 0.4
"""jusText's length thresholds (70 and 200 characters) are for alphabets; the same text in
Chinese or Japanese has 0.38-0.55 times as many characters (median over the gold pairs of the
sandbox's real sites, code and names included, which are the same in both), so they are scaled
by this for unspaced languages."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class BlockScore:
    """One block of a page (a paragraph, list item, cell, heading) and how likely it is content.

    ``score`` follows the paper: in [0, 1], >= :data:`NOT_BOILERPLATE` means not boilerplate.
    ``links`` are the ``href`` values of the links whose text is in the block, as written.
    """

    text: str
    xpath: str
    score: float
    links: tuple[str, ...]
    final_class: str
    context_free_class: str

    @property
    def is_boilerplate(self) -> bool:
        return self.score < NOT_BOILERPLATE


@dataclass(frozen=True)
class StoplistSetting:
    """What jusText is told about a language: its stop list, stop-word density thresholds and
    length thresholds in characters (None means jusText's defaults)."""

    stoplist: frozenset[str]
    stopwords_low: float | None = None
    stopwords_high: float | None = None
    length_low: int | None = None
    length_high: int | None = None

    def options(self) -> dict[str, float]:
        """The keyword arguments of ``justext.core.classify_paragraphs`` that are not defaults."""
        names = ("stopwords_low", "stopwords_high", "length_low", "length_high")
        return {n: getattr(self, n) for n in names if getattr(self, n) is not None}


def stoplist_setting(language: str | None) -> StoplistSetting:
    """jusText's stop list for ``language`` (any code form: ``pt-BR``, ``zh_TW``); the
    language-independent setting for unspaced scripts; the union of all lists otherwise."""
    code = normalize_language_code(language) if language else None
    base = base_language(code) if code else None
    if base in JUSTEXT_STOPLISTS:
        return StoplistSetting(_stoplist(JUSTEXT_STOPLISTS[base]))
    if base in UNSPACED_LANGUAGES:
        return StoplistSetting(
            frozenset(),
            stopwords_low=0.0,
            stopwords_high=0.0,
            length_low=round(LENGTH_LOW_DEFAULT * UNSPACED_LENGTH_FACTOR),
            length_high=round(LENGTH_HIGH_DEFAULT * UNSPACED_LENGTH_FACTOR),
        )
    return StoplistSetting(_all_stoplists())


@lru_cache(maxsize=64)
def _stoplist(name: str) -> frozenset[str]:
    return frozenset(justext.get_stoplist(name))


@lru_cache(maxsize=1)
def _all_stoplists() -> frozenset[str]:
    return frozenset().union(*(_stoplist(name) for name in sorted(justext.get_stoplists())))


class _LinkParagraphMaker(ParagraphMaker):  # type: ignore[misc]
    """jusText's paragraph maker, also noting which paragraph holds the text of each link."""

    def __init__(self) -> None:
        self.anchor: str | None = None  # href of the <a> being read
        self.anchor_placed = False
        self.textless_links: list[str] = []
        super().__init__()

    def _start_new_pragraph(self) -> None:  # (sic) jusText's name
        super()._start_new_pragraph()
        self.paragraph.hrefs = []

    def startElementNS(self, name: Any, qname: Any, attrs: Any) -> None:  # noqa: N802
        super().startElementNS(name, qname, attrs)
        if name[1] == "a":
            href = (attrs.get((None, "href")) or "").strip()
            self.anchor = href or None
            self.anchor_placed = False

    def endElementNS(self, name: Any, qname: Any) -> None:  # noqa: N802
        if name[1] == "a" and self.anchor is not None:
            if not self.anchor_placed:
                self.textless_links.append(self.anchor)
            self.anchor = None
        super().endElementNS(name, qname)

    def characters(self, content: str) -> None:
        super().characters(content)
        if self.anchor is not None and content.strip():
            if self.anchor not in self.paragraph.hrefs:
                self.paragraph.hrefs.append(self.anchor)
            self.anchor_placed = True


def _sanitised(html: bytes | str) -> bytes | str:
    if isinstance(html, bytes):
        return html.replace(b"\x00", b"")
    return _CONTROL.sub("", html)


def _classified(html: bytes | str, language: str | None) -> tuple[list[Any], list[str]]:
    """jusText's classified paragraphs of ``html`` and the links that lie in no text."""
    html = _sanitised(html)
    if not (html.strip() if isinstance(html, str) else html.strip()):
        return [], []
    try:
        dom = preprocessor(html_to_dom(html))
    except (etree.ParserError, ValueError, justext.core.JustextError):
        return [], []
    maker = _LinkParagraphMaker()
    lxml.sax.saxify(dom, maker)
    paragraphs = maker.paragraphs
    setting = stoplist_setting(language)
    classify_paragraphs(paragraphs, setting.stoplist, **setting.options())
    revise_paragraph_classification(paragraphs)
    return paragraphs, maker.textless_links


def block_score(final_class: str, context_free_class: str) -> float:
    """The score of a block from jusText's two labels (see :data:`CLASS_SCORES`)."""
    fallback = 1.0 if final_class == "good" else 0.0
    return CLASS_SCORES.get((final_class, context_free_class), fallback)


def block_scores(html: bytes | str, language: str | None = None) -> list[BlockScore]:
    """Every block of text of a page, in document order, with its boilerplate score.

    ``html`` is the page as downloaded (bytes: the charset comes from its ``<meta>``, else
    UTF-8) or as text; ``language`` is the page's language, any code form, or None. Empty or
    unparsable input has no blocks.
    """
    return scored_blocks(html, language)[0]


def link_block_scores(
    html: bytes | str, language: str | None = None, base_url: str | None = None
) -> dict[str, float]:
    """The boilerplate score of the block enclosing each link of a page, by ``href`` (joined to
    ``base_url`` when given). A link found in several blocks keeps its best score (the best
    context it is offered in); a link with no text at all (an image alone) scores 0."""
    return scored_blocks(html, language, base_url)[1]


def scored_blocks(
    html: bytes | str, language: str | None = None, base_url: str | None = None
) -> tuple[list[BlockScore], dict[str, float]]:
    """:func:`block_scores` and :func:`link_block_scores` of a page from one jusText pass."""
    paragraphs, textless = _classified(html, language)
    blocks = [
        BlockScore(
            text=p.text,
            xpath=p.xpath,
            score=block_score(p.class_type, p.cf_class),
            links=tuple(p.hrefs),
            final_class=p.class_type,
            context_free_class=p.cf_class,
        )
        for p in paragraphs
    ]
    scores: dict[str, float] = {}

    def put(hrefs: Iterable[str], score: float) -> None:
        for href in hrefs:
            url = urljoin(base_url, href) if base_url else href
            scores[url] = max(score, scores.get(url, 0.0))

    put(textless, 0.0)
    for block in blocks:
        put(block.links, block.score)
    return blocks, scores
