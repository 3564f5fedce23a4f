"""Which URL units name a language: ``en``, ``eng``, ``english``, ``francais``, ``tc``, ``lang=fr``.

URL-only mining (no page languages) needs this: without it every ``page1``/``page2`` pair of a
paginated list would be a pairing pattern. A pattern is a *language pattern* when its two units
name two different languages, or one names a language and the other is "nothing" (the default
language left unmarked). Codes and names come from ``language/codes.py`` and ``language/names.py``;
this module adds only the markers that are URL conventions rather than codes or names (``tc`` and
``sc`` for Traditional and Simplified Chinese on Hong Kong sites, ``chs``, ``cht``, ``big5``),
names written without accents (``francais``), and compounds of markers of one language
(``tc_chi``, ``zh-hk``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from bilingual_spider.language.codes import SCRIPT_SUBTAGS, base_language, normalize_language_code
from bilingual_spider.language.language_names_table import NAMES
from bilingual_spider.language.names import is_language_code, language_of_code, language_of_name

if TYPE_CHECKING:
    from bilingual_spider.patterns.mining import PairingPattern

MARKER_JOINER = "+"
"""Joins the language units of one side of a two-place pattern (<de+de, en>, see
``mining.marker_key``); no single unit is such a side, so no substitution makes one."""
INNER_MARKER = "~"
"""Starts the unit of a pattern that is a language word inside a URL unit (``~EN`` for the
``EN`` of ``winkler15EN``, see ``mining.inner_marker_keys``); no URL carries it whole, so no
substitution makes one."""
_LANGUAGE_SUBTAG = re.compile(r"[a-z]{2,3}", re.IGNORECASE)
_REGION = re.compile(r"[a-z]{2}", re.IGNORECASE)

URL_MARKERS = {
    "tc": "zh-Hant",
    "sc": "zh-Hans",
    "cht": "zh-Hant",
    "chs": "zh-Hans",
    "big5": "zh-Hant",
    "cn": "zh-Hans",
    "chinese": "zh",
    "us": "en-US",
}
"""URL conventions that are neither codes nor names (``sc`` is Sardinian's code, but on the web
``/sc/`` is Simplified Chinese)."""
_COMPOUND = re.compile(r"[-_]")
_WORD = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_]+")
INITIALS = {"e": "en", "f": "fr"}
"""Initials taken as language marks, never as languages: ``_e.html`` and ``_f.html`` on
Canadian sites, ``report.asp`` and ``report_f.asp`` (the other language left unmarked), and
glued to a number, ``news123e.html`` and ``news123f.html``. Alone, a letter names no language:
:func:`language_of_unit` gives None for it."""
LANGUAGE_PARAMETER = re.compile(
    r"L|hl|(?i:[a-z_]*(?:lang|lng|locale|sprache|langue|idioma)[a-z_]*)"
)
"""Query parameter names that say "language": ``lang``, ``clang``, ``LangID``, ``locale``,
TYPO3's ``L`` (upper case only: a lower-case ``l`` is as often a limit or a list) and Google's
``hl`` ("host language", copied by many sites: ``?hl=nr``)."""
_NUMERIC_VALUE = re.compile(r"[0-9]{1,2}")


def is_language_tag(language: str, subtag: str) -> bool:
    """``zh`` + ``cn``, ``pt`` + ``BR``, ``zh`` + ``Hant``: a language code followed by a region
    or script subtag (BCP 47's shape; the language must be a known code)."""
    return bool(
        _LANGUAGE_SUBTAG.fullmatch(language)
        and (_REGION.fullmatch(subtag) or subtag.lower() in SCRIPT_SUBTAGS)
        and language_of_code(language.lower())
    )


@lru_cache(maxsize=65536)
def language_of_unit(unit: str) -> str | None:
    """The language a URL unit names, or None. A query unit is judged by its value.

    >>> [language_of_unit(u) for u in ("en", "English", "francais", "tc_chi", "lang=fr", "page1")]
    ['en', 'en', 'fr', 'zh-Hant', 'fr', None]

    The value of a parameter whose name says "language" is any language's code, three letters
    too: ``lang=yua`` (Yucatec Maya; a bare ``yua`` is as likely any word).

    >>> language_of_unit("lang=yua"), language_of_unit("yua"), language_of_unit("lang=und")
    ('yua', None, None)
    """
    if "=" in unit:
        name, _, unit = unit.partition("=")
        if LANGUAGE_PARAMETER.fullmatch(name):
            code = normalize_language_code(unit.strip())
            if code is not None and is_language_code(code):
                return code
    word = unit.strip().lower().removeprefix(INNER_MARKER)
    if not word or word.isdigit():
        return None
    found = URL_MARKERS.get(word) or language_of_code(word) or language_of_name(word)
    if found or len(word) < 4:
        return found
    return _unaccented_names().get(word) or _compound_language(word)


@lru_cache(maxsize=65536)
def numeric_language_parameter(unit: str) -> str | None:
    """The name of the parameter when ``unit`` is a number given to a language parameter
    (``clang=2``, ``Lang=1``, ``L=3``), else None. Which language the number is, no URL says:
    the site's URLs show only that the parameter is its language (by the parameter's name);
    the crawl's page languages tell which (mining with languages pairs only pages of two)."""
    name, equals, value = unit.partition("=")
    if equals and _NUMERIC_VALUE.fullmatch(value) and LANGUAGE_PARAMETER.fullmatch(name):
        return name
    return None


def is_initial(unit: str) -> bool:
    """``e``, ``f`` (:data:`INITIALS`), or such an initial found inside a unit (``~e``)."""
    return unit.removeprefix(INNER_MARKER) in INITIALS


def _compound_language(word: str) -> str | None:
    """``tc_chi`` -> zh-Hant, ``de+de`` -> de: every part names the same language; the most
    specific code wins. Units joined by ``+`` (one side of a two-unit pattern, see
    ``mining.marker_key``) are judged whole, each by itself (``zh-tw+zh-tw``)."""
    joined = MARKER_JOINER in word
    pieces = word.split(MARKER_JOINER) if joined else _COMPOUND.split(word)
    parts = [p for p in pieces if p]
    if len(parts) < 2:
        return None
    codes = [language_of_unit(p) for p in parts]
    if joined:  # an initial beside the language it is the initial of: English+e
        named = {base_language(c) for c in codes if c}
        codes = [c or _initial_of(p, named) for c, p in zip(codes, parts, strict=True)]
    if None in codes or len({base_language(c) for c in codes if c}) != 1:
        return None
    return max((c for c in codes if c), key=len)


_MAYBE_INNER = re.compile(
    r"[A-Z]{2}|[a-z][A-Z0-9_-]|[a-z]{2}[_-][A-Za-z]{2}|[A-Za-z]{4}|[0-9][ef]$"
)
"""A unit that may hold a language word among others: cheap to test before splitting it."""


@lru_cache(maxsize=65536)
def inner_markers(unit: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The language words inside a unit of several words, each with the unit's other words:
    ``arlt15EN`` -> ``(((arlt, 15, ""), EN),)``; ``goto=en_US-Home`` ->
    ``(((goto, "", Home), en-US),)``. A word is taken for a language when it is an ISO code in
    upper case (``EN``), a lower-case code with its region in upper case or its script
    (``en_US``, ``zh-Hant``), or a language's name (``English``, ``Francais``): a lower-case
    code among other words (``how-to-do-it``) is too often a word; or an initial (``e``,
    ``f``) that ends the unit right after a number (``news123e``, ``005f``). A unit that names
    a language whole (``en-US``, ``english``) is a whole-unit marker, not one of these."""
    if len(unit) < 4 or not _MAYBE_INNER.search(unit) or language_of_unit(unit):
        return ()
    words = _WORD.findall(unit)
    if len(words) < 2:
        return ()
    found = []
    skip = -1
    for i, word in enumerate(words):
        if i == skip:
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if (
            word.islower()
            and len(word) <= 3
            and (following.isupper() or following.lower() in SCRIPT_SUBTAGS)
            and is_language_tag(word, following)
        ):
            run, marker, skip = 2, f"{word}-{following}", i + 1
        elif _is_inner_language_word(word) or _is_glued_initial(words, i):
            run, marker = 1, word
        else:
            continue
        found.append(((*words[:i], "", *words[i + run :]), marker))
    return tuple(found)


def _is_glued_initial(words: list[str], i: int) -> bool:
    """``e`` of ``news123e``: an initial that is the unit's last word, right after a number."""
    return i == len(words) - 1 and i > 0 and words[i] in INITIALS and words[i - 1].isdigit()


def _is_inner_language_word(word: str) -> bool:
    if word.isupper() and len(word) <= 3:
        return language_of_code(word.lower()) is not None
    return len(word) >= 4 and language_of_unit(word) is not None


def _initial_of(unit: str, named: set[str]) -> str | None:
    """The language of an initial (``e``, ``f``) when it is one of the ``named`` languages."""
    language = INITIALS.get(unit.lower())
    return language if language in named else None


def initial_markers(values: Iterable[str]) -> Callable[[str], str | None]:
    """:func:`language_of_unit` for the units of one URL, which also takes an initial for a
    marker when another unit of the URL names its language: ``/English/report_e_12.html``
    is marked twice, ``English`` and ``e`` (``/Francais/report_f_12.html`` pairs with it by
    the two-place pattern <English+e, Francais+f>)."""
    values = list(values)
    if not any(value.lower() in INITIALS for value in values):  # most URLs: no initial
        return language_of_unit
    named = {base_language(code) for value in values if (code := language_of_unit(value))}
    if not named:
        return language_of_unit
    return lambda unit: language_of_unit(unit) or _initial_of(unit, named)


@lru_cache(maxsize=1)
def _unaccented_names() -> dict[str, str]:
    """Language names folded to ASCII (``français`` -> ``francais``), kept when unambiguous."""
    folded: dict[str, set[str]] = {}
    for name, code in NAMES.items():
        ascii_name = _fold(name)
        if ascii_name != name and ascii_name.isascii() and len(ascii_name) >= 4:
            folded.setdefault(ascii_name, set()).add(code)
    return {name: codes.pop() for name, codes in folded.items() if len(codes) == 1}


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def is_language_unit(unit: str) -> bool:
    """A unit that may be part of a language pattern: nothing, a unit naming a language, an
    initial (``e``, ``f``), a number given to a language parameter (``clang=2``), or a unit
    with a language word at one end (``winkler15EN``, ``goto=en_US-Main``)."""
    if not unit or unit in INITIALS or language_of_unit(unit) is not None:
        return True
    if numeric_language_parameter(unit):
        return True
    words = _words(unit)
    return len(words) > 1 and any(
        _names_language(word) or word.lower() in INITIALS for word in (words[0], words[-1])
    )


@lru_cache(maxsize=65536)
def is_language_pattern(pattern: PairingPattern) -> bool:
    """Both units name different languages, or one names a language and the other is nothing.

    ``<en, english>`` names one language twice and is not a language pattern; nor is ``<zh, tc>``
    (Chinese and Traditional Chinese: the first is not specific enough to tell them apart).
    Two units that differ only in a run of words naming two languages are a language pattern
    too (``<winkler15EN, winkler15FR>``, ``<goto=en_US-Home, goto=fr_CA-Home>``), and so is
    ``<e, f>``, the English/French initials of Canadian sites (``index_e.html``), inside a
    unit too (``<~e, ~f>``, ``news123e.html``). One-sided marks (issue 31): an initial against
    nothing (``<"", f>``: ``report.asp`` and ``report_f.asp``), and numbers given to a language
    parameter (``<clang=1, clang=2>``, ``<"", lang=2>``: ``page.php?id=7`` and
    ``page.php?id=7&lang=2``), whose parameter name shows they are a language.
    """
    first, second = pattern.first, pattern.second
    if not first or not second:
        unit = first or second
        return bool(language_of_unit(unit) or is_initial(unit) or numeric_language_parameter(unit))
    if is_initial(first) and is_initial(second):
        return (
            INITIALS[first.removeprefix(INNER_MARKER)]
            != INITIALS[second.removeprefix(INNER_MARKER)]
        )
    numeric = numeric_language_parameter(first)
    if numeric and numeric == numeric_language_parameter(second):
        return True
    if _different_languages(language_of_unit(first), language_of_unit(second)):
        return True
    return _differ_in_language_words(first, second)


def _different_languages(a: str | None, b: str | None) -> bool:
    if a is None or b is None or a == b:
        return False
    same_base = base_language(a) == base_language(b)
    return not (same_base and (a == base_language(a) or b == base_language(b)))


def _differ_in_language_words(first: str, second: str) -> bool:
    """The units' words differ in one run only, and the two runs name different languages."""
    a, b = _words(first), _words(second)
    if len(a) < 2 and len(b) < 2:
        return False
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    run_a, run_b = a[head : len(a) - tail], b[head : len(b) - tail]
    if not run_a or not run_b or len(run_a) > 2 or len(run_b) > 2:
        return False
    initials = [INITIALS.get(run[0].lower()) for run in (run_a, run_b) if len(run) == 1]
    if len(initials) == 2 and None not in initials:  # news-e, news-f: Canadian initials
        return initials[0] != initials[1]
    return _different_languages(
        language_of_unit("-".join(run_a)), language_of_unit("-".join(run_b))
    )


def _names_language(word: str) -> bool:
    return language_of_unit(word) is not None


def _words(unit: str) -> list[str]:
    """Words of a unit, split at non-letters, digits and case changes: ``winkler15EN`` ->
    ``winkler``, ``15``, ``EN``."""
    return _WORD.findall(unit)
