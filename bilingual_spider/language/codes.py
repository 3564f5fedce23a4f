"""One language-code scheme for the whole project.

Codes are BCP 47-like: a lower-case ISO 639-1 code where one exists (``en``, ``fr``), a region in
upper case when it matters (``pt-BR``), and a script for Chinese (``zh-Hans``, ``zh-Hant``), because
Simplified and Traditional Chinese sites are different targets. Codes found in URLs, ``hreflang``,
``<html lang>`` and Debian file names (``zh-cn``, ``zh_TW``, ``pt-br``) map onto it.
"""

from __future__ import annotations

import re

from bilingual_spider.language.language_aliases_table import ALIASES

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
_ALIASES = {**ALIASES, "jp": "ja", "kr": "ko", "iw": "he", "in": "id"}
"""Codes that occur in the wild for a language with a two-letter code: the three-letter ones
CLDR knows (``build_language_names``), country codes written for a language, legacy codes."""
# Regions kept because the variety is a target of its own.
_KEPT_REGIONS = {("pt", "br"), ("pt", "pt"), ("en", "gb"), ("en", "us")}
_SPLIT = re.compile(r"[-_]")


def normalize_language_code(code: str) -> str | None:
    """Return the project's code for ``code`` (``zh_TW`` -> ``zh-Hant``), or None if it is no code.

    >>> [normalize_language_code(c) for c in ("pt-br", "zh-cn", "EN")]
    ['pt-BR', 'zh-Hans', 'en']
    """
    parts = [p for p in _SPLIT.split(code.strip().lower()) if p]
    if not parts or not all(p.isalnum() and p.isascii() for p in parts):
        return None
    base = _ALIASES.get(parts[0], parts[0])
    if not (2 <= len(base) <= 3 and base.isalpha()):
        return None
    if base == "zh":
        for part in parts[1:]:
            if part in _CHINESE_BY_REGION:
                return _CHINESE_BY_REGION[part]
        return "zh"
    if len(parts) > 1 and (base, parts[1]) in _KEPT_REGIONS:
        return f"{base}-{parts[1].upper()}"
    return base


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
    script_a, script_b = _script(a), _script(b)
    return script_a is None or script_b is None or script_a == script_b


def _script(code: str) -> str | None:
    """The script subtag of a code (``zh-Hant`` -> ``Hant``), None when it has none."""
    return next((p for p in code.split("-")[1:] if len(p) == 4 and p.isalpha()), None)
