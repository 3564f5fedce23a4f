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
from functools import lru_cache

from bilingual_spider.language.codes import base_language
from bilingual_spider.language.language_names_table import NAMES
from bilingual_spider.language.names import language_of_code, language_of_name
from bilingual_spider.patterns.mining import PairingPattern

URL_MARKERS = {
    "tc": "zh-Hant",
    "sc": "zh-Hans",
    "cht": "zh-Hant",
    "chs": "zh-Hans",
    "big5": "zh-Hant",
    "cn": "zh-Hans",
    "chinese": "zh",
}
"""URL conventions that are neither codes nor names (``sc`` is Sardinian's code, but on the web
``/sc/`` is Simplified Chinese)."""
_COMPOUND = re.compile(r"[-_]")


@lru_cache(maxsize=65536)
def language_of_unit(unit: str) -> str | None:
    """The language a URL unit names, or None. A query unit is judged by its value.

    >>> [language_of_unit(u) for u in ("en", "English", "francais", "tc_chi", "lang=fr", "page1")]
    ['en', 'en', 'fr', 'zh-Hant', 'fr', None]
    """
    if "=" in unit:
        unit = unit.partition("=")[2]
    word = unit.strip().lower()
    if not word or word.isdigit():
        return None
    found = URL_MARKERS.get(word) or language_of_code(word) or language_of_name(word)
    if found or len(word) < 4:
        return found
    return _unaccented_names().get(word) or _compound_language(word)


def _compound_language(word: str) -> str | None:
    """``tc_chi`` -> zh-Hant: every part names the same language; the most specific code wins."""
    parts = [p for p in _COMPOUND.split(word) if p]
    if len(parts) < 2:
        return None
    codes = [language_of_unit(p) for p in parts]
    if None in codes or len({base_language(c) for c in codes if c}) != 1:
        return None
    return max((c for c in codes if c), key=len)


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


def is_language_unit(unit: str) -> bool:
    """A unit that may be part of a language pattern: nothing, or a unit naming a language."""
    return not unit or language_of_unit(unit) is not None


def is_language_pattern(pattern: PairingPattern) -> bool:
    """Both units name different languages, or one names a language and the other is nothing.

    ``<en, english>`` names one language twice and is not a language pattern; nor is ``<zh, tc>``
    (Chinese and Traditional Chinese: the first is not specific enough to tell them apart).
    """
    first, second = pattern.first, pattern.second
    a = language_of_unit(first) if first else None
    b = language_of_unit(second) if second else None
    if not first or not second:
        return (a or b) is not None
    if a is None or b is None or a == b:
        return False
    return not (
        base_language(a) == base_language(b) and (a == base_language(a) or b == base_language(b))
    )
