"""Generate ``language_names_table.py``: the names of languages, in many languages, from CLDR.

    python -m bilingual_spider.language.build_language_names   # needs babel (a dev dependency)

A language switcher names its languages by their own names (``Español``, ``日本語``), by their
names in the page's language (``Spanish``, ``Spanisch``, ``西班牙语``) or by codes. The link
features (:mod:`bilingual_spider.links.features`) mark a word that names a language, so that a
switcher to a language the Link Predictor never saw in training still looks like one.

Sources and rule
----------------
- The languages named: every language with a two-letter code that CLDR has locale data for
  (``babel.localedata.locale_identifiers()``), plus the Chinese scripts (``zh_Hans``,
  ``zh_Hant``) and Brazilian Portuguese, written in the project's codes.
- Their names: each language's own name (its autonym), and its names in :data:`WEB_LANGUAGES`,
  the languages most used on the web (W3Techs' content-language ranking, order of magnitude).
- A name is kept lower-cased (NFKC, casefold). Names in the Latin script of fewer than
  :data:`MIN_LATIN_CHARS` characters are left out (``Ido``, ``Ewe`` are also ordinary words);
  names in other scripts are kept from two characters on (``中文``, ``한국어``).
- A name that two languages share is ambiguous: the autonym wins (``dansk``), otherwise the name
  is left out.
- Besides names, :data:`SWITCHER_PHRASES`: how switchers say "in this language" where CLDR has
  only the noun (LilyPond's switcher says ``Česky``, CLDR ``čeština``). They count as autonyms.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

from bilingual_spider.language.codes import normalize_language_code

OUTPUT = Path(__file__).with_name("language_names_table.py")
WEB_LANGUAGES = (
    "en", "es", "de", "ja", "fr", "ru", "pt", "it", "nl", "pl", "tr", "fa", "zh", "zh_Hant",
    "vi", "id", "cs", "ko", "uk", "ar", "sv", "el", "hu", "ro", "da", "fi", "he", "nb", "sk",
    "th", "bg", "hr", "lt", "sr", "sl", "ca", "et", "lv", "ms", "hi", "bn", "fil", "eu", "gl",
)  # fmt: skip
EXTRA_LANGUAGES = ("zh_Hans", "zh_Hant", "pt_BR")
SWITCHER_PHRASES = {
    "cs": ("česky",), "sk": ("slovensky",), "pl": ("po polsku",), "hu": ("magyarul",),
    "fi": ("suomeksi",), "lt": ("lietuviškai",), "lv": ("latviski",),
    "ru": ("по-русски", "на русском"), "uk": ("українською",), "be": ("па-беларуску",),
    "zh-Hans": ("简体", "簡體", "简体版"), "zh-Hant": ("繁體", "繁体", "繁體版"),
    "id": ("bahasa indonesia",), "ms": ("bahasa melayu",), "om": ("afaan oromoo",),
    "so": ("soomaaliga",), "yo": ("yorùbá",), "jv": ("basa jawa",), "ny": ("chichewa",),
    "qu": ("runa simi",), "sm": ("gagana samoa",), "mi": ("te reo māori",),
}  # fmt: skip
"""Project code -> what switchers write for it that no name of it contains: the adverb "in X"
(``Česky``, ``magyarul``, ``po polsku``, ``по-русски``) and the Chinese scripts' toggles
(``繁體 | 简体``); and the own names Wikipedia's list of languages gives where CLDR's lacks a
word or has another (``Bahasa Indonesia``, ``Afaan Oromoo``, ``Soomaaliga``: CLDR says
``Indonesia``, ``Oromoo``, ``Soomaali``), which a link's label must match whole
(``links.features.labelled_language``). A phrase around a name (``en français``, ``中文版``)
needs none: the link features find the name in it word by word."""
MIN_LATIN_CHARS = 4


def named_languages() -> list[str]:
    """CLDR identifiers of the languages named (two-letter codes with locale data, and extras)."""
    from babel import localedata

    codes = {i for i in localedata.locale_identifiers() if len(i) == 2 and i.isalpha()}
    return sorted(codes | set(EXTRA_LANGUAGES))


def name_key(name: str) -> str:
    """How a name is compared: NFKC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def keep_name(key: str) -> bool:
    latin = all(ch < "\u0250" for ch in key)
    return len(key) >= (MIN_LATIN_CHARS if latin else 2)


def build() -> dict[str, str]:
    """name -> project code."""
    from babel import Locale, UnknownLocaleError

    languages = named_languages()
    autonyms: dict[str, str] = {}
    others: dict[str, set[str]] = {}
    for cldr in languages:
        code = normalize_language_code(cldr)
        if code is None:
            continue
        try:
            own = Locale.parse(cldr).languages.get(cldr)
        except (UnknownLocaleError, ValueError):
            own = None
        if own and keep_name(name_key(own)):
            autonyms.setdefault(name_key(own), code)
        for written_in in WEB_LANGUAGES:
            name = Locale.parse(written_in).languages.get(cldr)
            if name and keep_name(name_key(name)):
                others.setdefault(name_key(name), set()).add(code)
    for code, phrases in SWITCHER_PHRASES.items():
        for phrase in phrases:
            autonyms.setdefault(name_key(phrase), code)
    names = dict(autonyms)
    for key, codes in others.items():
        if key not in names and len(codes) == 1:
            names[key] = next(iter(codes))
    return dict(sorted(names.items()))


def render(names: dict[str, str]) -> str:
    import babel

    lines = [
        '"""Names of languages in many languages: GENERATED by',
        "``python -m bilingual_spider.language.build_language_names``; do not edit.",
        "",
        f"Source: CLDR (babel {babel.__version__}); rule: see build_language_names.py.",
        '"""',
        "",
        "# name (NFKC, case-folded) -> project language code",
        "NAMES: dict[str, str] = {",
    ]
    lines.extend(f"    {_quoted(key)}: {_quoted(code)}," for key, code in names.items())
    lines.append("}")
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A Python literal of ``text`` as ``ruff format`` writes it: in double quotes."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        return '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


def main() -> None:
    names = build()
    OUTPUT.write_text(render(names), encoding="utf-8")
    print(f"wrote {OUTPUT}: {len(names)} names of {len(set(names.values()))} languages")


if __name__ == "__main__":
    main()
