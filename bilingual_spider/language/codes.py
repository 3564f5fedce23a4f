"""One language-code scheme for the whole project.

Codes are BCP 47-like: a lower-case ISO 639-1 code where one exists (``en``, ``fr``), a region in
upper case when it matters (``pt-BR``), and a script for Chinese (``zh-Hans``, ``zh-Hant``), because
Simplified and Traditional Chinese sites are different targets, and for a language written in
another script than its usual one (``sr-Latn``, ``uz-Cyrl``, ``pa-Arab``): a site's two scripts
are two versions, and lid.176 reads them as a neighbour (Latin Serbian as Croatian, Cyrillic
Uzbek as Tajik), so the declared script decides. Codes found in URLs, ``hreflang``,
``<html lang>`` and Debian file names (``zh-cn``, ``zh_TW``, ``pt-br``) map onto it.
"""

from __future__ import annotations

import re

from bilingual_spider.language.language_aliases_table import ALIASES
from bilingual_spider.language.language_scripts_table import SCRIPTS

_CHINESE_BY_REGION = {
    "cn": "zh-Hans",
    "sg": "zh-Hans",
    "hans": "zh-Hans",
    "chs": "zh-Hans",
    "tw": "zh-Hant",
    "hk": "zh-Hant",
    "mo": "zh-Hant",
    "hant": "zh-Hant",
    "cht": "zh-Hant",
}
LEGACY_CODES = {"iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"}
"""ISO 639-1's withdrawn codes (Java's locales still write ``iw``, ``in``, ``ji``)."""
_ALIASES = {**ALIASES, **LEGACY_CODES, "jp": "ja", "kr": "ko"}
"""Codes that occur in the wild for a language with a two-letter code: the three-letter ones
CLDR knows (``build_language_names``), country codes written for a language, legacy codes."""
SCRIPT_WORDS = {
    "Arab": "ARABIC", "Armn": "ARMENIAN", "Beng": "BENGALI", "Cans": "CANADIAN",
    "Cyrl": "CYRILLIC", "Deva": "DEVANAGARI", "Ethi": "ETHIOPIC", "Geor": "GEORGIAN",
    "Grek": "GREEK", "Gujr": "GUJARATI", "Guru": "GURMUKHI", "Hans": "CJK", "Hant": "CJK",
    "Hebr": "HEBREW", "Khmr": "KHMER", "Knda": "KANNADA", "Kore": "HANGUL", "Laoo": "LAO",
    "Latn": "LATIN", "Mlym": "MALAYALAM", "Mymr": "MYANMAR", "Orya": "ORIYA", "Sinh": "SINHALA",
    "Syrc": "SYRIAC", "Taml": "TAMIL", "Telu": "TELUGU", "Tfng": "TIFINAGH", "Thaa": "THAANA",
    "Thai": "THAI", "Tibt": "TIBETAN", "Vaii": "VAI", "Yiii": "YI", "Cher": "CHEROKEE",
    "Nkoo": "NKO", "Olck": "OL", "Adlm": "ADLAM", "Mtei": "MEETEI", "Cakm": "CHAKMA",
    "Java": "JAVANESE", "Bali": "BALINESE", "Sund": "SUNDANESE", "Mong": "MONGOLIAN",
    "Copt": "COPTIC", "Osge": "OSAGE", "Hani": "CJK", "Plrd": "MIAO", "Hmnp": "NYIAKENG",
    "Kali": "KAYAH", "Lana": "TAI", "Tavt": "TAI", "Takr": "TAKRI", "Lisu": "LISU",
    "Bamu": "BAMUM", "Cham": "CHAM", "Lepc": "LEPCHA", "Saur": "SAURASHTRA", "Batk": "BATAK",
    "Kana": "KATAKANA", "Hang": "HANGUL", "Bopo": "BOPOMOFO",
}  # fmt: skip
"""ISO 15924 script -> the first word of the Unicode names of its letters (``LATIN SMALL LETTER
A``), as :func:`~bilingual_spider.language.declared_language.script_of` reads a text's."""
SCRIPT_SUBTAGS = frozenset({"hans", "hant", "latn", "cyrl", "arab", "deva", "beng", "guru"})
"""ISO 15924 script subtags seen in web language tags (``zh-Hant``, ``sr-Latn``, ``pa-Guru``)."""
_LANGUAGE_IN_SCRIPT = {("pa", "Arab"): "pnb", ("az", "Arab"): "azb", ("ku", "Arab"): "ckb"}
"""A language in another script that lid.176 labels as a language of its own: Punjabi in
Shahmukhi is Western Panjabi, Azerbaijani in Arabic South Azerbaijani, Kurdish in Arabic Sorani."""
# Regions kept because the variety is a target of its own.
_KEPT_REGIONS = {("pt", "br"), ("pt", "pt"), ("en", "gb"), ("en", "us")}
_SPLIT = re.compile(r"[-_]")


def normalize_language_code(code: str) -> str | None:
    """Return the project's code for ``code`` (``zh_TW`` -> ``zh-Hant``), or None if it is no code.

    >>> [normalize_language_code(c) for c in ("pt-br", "zh-cn", "EN", "sr-Latn", "sr-Cyrl")]
    ['pt-BR', 'zh-Hans', 'en', 'sr-Latn', 'sr']
    """
    parts = [p for p in _SPLIT.split(code.strip().lower()) if p]
    if not parts or not all(p.isalnum() and p.isascii() for p in parts):
        return None
    base = _ALIASES.get(parts[0], parts[0])
    if not (2 <= len(base) <= 3 and base.isalpha()):
        return None
    if len(parts) > 1 and len(parts[1]) == 3 and parts[1].isalpha():  # an extended language
        return normalize_language_code("-".join(parts[1:]))  # zh-yue: Cantonese, yue
    if base == "zh":
        for part in parts[1:]:
            if part in _CHINESE_BY_REGION:
                return _CHINESE_BY_REGION[part]
        return "zh"
    script = _unusual_script(base, parts[1:])
    if script is not None:
        return _LANGUAGE_IN_SCRIPT.get((base, script), f"{base}-{script}")
    if len(parts) > 1 and (base, parts[1]) in _KEPT_REGIONS:
        return f"{base}-{parts[1].upper()}"
    return base


def _unusual_script(base: str, subtags: list[str]) -> str | None:
    """The script subtag of a language written in another script than its usual one (CLDR's
    likely script, Latin for a three-letter code CLDR does not know): ``Latn`` of ``sr-latn``,
    ``Cyrl`` of ``uz-Cyrl``; None for the usual one (``sr-Cyrl`` is ``sr``) or none."""
    script = next((p.title() for p in subtags if len(p) == 4 and p.isalpha()), None)
    word = SCRIPT_WORDS.get(script or "")
    usual = SCRIPTS.get(base, "LATIN" if len(base) == 3 else None)
    return script if word is not None and word != usual else None


ISO_639_3 = {
    "ar": "ara", "de": "deu", "en": "eng", "es": "spa", "fr": "fra", "he": "heb", "id": "ind",
    "it": "ita", "ja": "jpn", "ko": "kor", "nl": "nld", "pl": "pol", "pt": "por", "ru": "rus",
    "sv": "swe", "tr": "tur", "uk": "ukr", "vi": "vie", "zh": "zho", "ca": "cat", "eu": "eus",
    "gl": "glg", "el": "ell", "cs": "ces", "da": "dan", "fi": "fin", "hu": "hun", "ro": "ron",
}  # fmt: skip
"""ISO 639-1 -> ISO 639-3 (the codes of Common Crawl's ``content_languages``, from CLD2)."""


def iso_639_3(code: str) -> str | None:
    """The ISO 639-3 code of a language code (``zh-Hant`` -> ``zho``; a 3-letter code stays)."""
    base = base_language(normalize_language_code(code) or code.lower())
    return base if len(base) == 3 else ISO_639_3.get(base)


def base_language(code: str) -> str:
    """The language without region or script: ``pt-BR`` -> ``pt``, ``zh-Hant`` -> ``zh``."""
    return code.split("-", 1)[0]


def same_language(a: str, b: str) -> bool:
    """Whether two codes name one language: the region is ignored (``pt-BR`` is ``pt``), the
    script is not (``zh-Hans`` is not ``zh-Hant``), and a code without a script matches every
    script of its language (``zh`` is ``zh-Hant``).

    >>> same_language("en-GB", "en"), same_language("zh-Hans", "zh-Hant")
    (True, False)
    >>> same_language("zh", "zh-Hant")
    True
    """
    a, b = normalize_language_code(a) or a, normalize_language_code(b) or b
    if a == b:
        return True
    if base_language(a) != base_language(b):
        return False
    script_a, script_b = script_subtag(a), script_subtag(b)
    return script_a is None or script_b is None or script_a == script_b


def script_subtag(code: str) -> str | None:
    """The script subtag of a code (``zh-Hant`` -> ``Hant``), None when it has none."""
    return next((p for p in code.split("-")[1:] if len(p) == 4 and p.isalpha()), None)
