"""Generate ``language_names_table.py``: the names of languages, in many languages, from CLDR;
``language_scripts_table.py``: the script each language is written in; and
``language_aliases_table.py``: the two-letter code of a language written with three letters.

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
  The languages with a three-letter code only that CLDR has locale data for (``haw``, ``chr``,
  ``tpi``, ``pap``: 153) are named by their own name and their English name. Every other
  language CLDR names in English (``ty`` Tahitian, ``mh`` Marshallese, ``hmn`` Hmong, ``tet``
  Tetum: 328, none with locale data) by its English name alone (a site's "Language assistance"
  list of Pacific or African languages names them so), but for :data:`NOT_NAMES`, names that
  are as often an English word, a place or a person (``Slave``, ``Delaware``, ``Nauru``,
  ``Iban``), and CLDR's names of no language (``und``, ``mul``, ``zxx``).
- A name is kept lower-cased (NFKC, casefold). Names in the Latin script of fewer than
  :data:`MIN_LATIN_CHARS` characters are left out (``Ido``, ``Ewe`` are also ordinary words);
  names in other scripts are kept from two characters on (``中文``, ``한국어``).
- A name that two languages share is ambiguous: the autonym wins (``dansk``), otherwise the name
  is left out.
- Besides names, :data:`SWITCHER_PHRASES`: how switchers say "in this language" where CLDR has
  only the noun (LilyPond's switcher says ``Česky``, CLDR ``čeština``). They count as autonyms.
- Scripts: CLDR's likely subtags (``rw`` -> ``rw_Latn_RW``) for every two-letter code, the
  three-letter codes of the country table (``tld_table.py``) and of the languages CLDR has
  locale data for (``haw``), and every three-letter code of a language written in another
  script than Latin (``byn``, ``tig``), the script named as
  :func:`~bilingual_spider.language.declared_language.script_of` names a text's
  (:data:`SCRIPT_WORDS`: ``Latn`` -> ``LATIN``); a three-letter code's script without a word
  there is kept as its ISO code (``XSUX``), which names no text's script: such a language is
  never taken over the identifier, nor for a Latin one. So every three-letter code the table
  lacks is of a language CLDR writes in the Latin script, or one CLDR does not know
  (:func:`~bilingual_spider.language.declared_language.language_script`).
- Aliases: CLDR's language aliases from a three-letter code to a two-letter one, the ISO 639-2
  and 639-3 codes of a language ISO 639-1 names (``ger``, ``deu`` -> ``de``; ``lug`` -> ``lg``)
  and of a member of a macrolanguage it names (``swh`` -> ``sw``, ``zsm`` -> ``ms``, as lid.176
  labels them; ``twi`` -> ``ak``, Akan, as ``tw`` is Taiwan's in a URL), but for
  :data:`ALIAS_EXCEPTIONS` and those to a two-letter code the project takes for no language
  (:func:`~bilingual_spider.language.names.is_language_code`: ``kr``, ``ae``). So one
  language reaches a corpus under one code whether a site writes ``lg`` or ``lug``. The aliases
  are built first: the names and scripts are keyed by the codes they make.
"""

from __future__ import annotations

import importlib
import unicodedata
from pathlib import Path

from bilingual_spider.language import codes as language_codes
from bilingual_spider.language.codes import SCRIPT_WORDS

OUTPUT = Path(__file__).with_name("language_names_table.py")
SCRIPTS_OUTPUT = Path(__file__).with_name("language_scripts_table.py")
ALIASES_OUTPUT = Path(__file__).with_name("language_aliases_table.py")
ALIAS_EXCEPTIONS = {"als": "gsw", "tgl": "tl"}
"""CLDR's aliases not taken: ``als`` is Alemannic, ``gsw``, in lid.176's labels and Wikipedia's
codes (ISO's Tosk Albanian, CLDR ``sq``, whose sites write ``sq``); ``tgl`` is lid.176's ``tl``
(CLDR: ``fil``)."""
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
    "so": ("soomaaliga",), "yo": ("yorùbá",), "jv": ("basa jawa",),
    "ny": ("chichewa", "chi-chewa"), "qu": ("runa simi",), "sm": ("gagana samoa",),
    "mi": ("te reo māori",), "bm": ("bamanankan",), "fj": ("na vosa vakaviti", "vosa vakaviti"),
    "to": ("lea faka-tonga",), "ay": ("aymar aru",),
    "lad": ("djudeo-espanyol", "judeo-espanyol"), "fkv": ("kainun kieli",),
}  # fmt: skip
"""Project code -> what switchers write for it that no name of it contains: the adverb "in X"
(``Česky``, ``magyarul``, ``po polsku``, ``по-русски``) and the Chinese scripts' toggles
(``繁體 | 简体``); and the own names Wikipedia's list of languages gives where CLDR's lacks a
word or has another (``Bahasa Indonesia``, ``Afaan Oromoo``, ``Soomaaliga``: CLDR says
``Indonesia``, ``Oromoo``, ``Soomaali``; Ladino's ``Djudeo-espanyol`` and Kven's ``Kainun
kieli``, which CLDR lacks), which a link's label must match whole
(``links.features.labelled_language``). A phrase around a name (``en français``, ``中文版``)
needs none: the link features find the name in it word by word."""
MIN_LATIN_CHARS = 4
NOT_NAMES = frozenset(
    {
        "slave", "fang", "mongo", "gothic", "iban", "mari", "seri", "bini", "beja", "kawi",
        "koro", "maba", "mafa", "susu", "delaware", "alabama", "dakota", "seneca", "cayuga",
        "cheyenne", "okanagan", "nauru", "tuvalu", "tokelau",
    }
)  # fmt: skip
"""English names of languages without CLDR locale data left out: as often a word (``slave``,
``gothic``, ``iban``), a place (``delaware``, ``nauru``) or a person (``mari``)."""


def named_languages() -> list[str]:
    """CLDR identifiers of the languages named (two-letter codes with locale data, and extras)."""
    from babel import localedata

    codes = {i for i in localedata.locale_identifiers() if len(i) == 2 and i.isalpha()}
    return sorted(codes | set(EXTRA_LANGUAGES))


def three_letter_languages() -> list[str]:
    """CLDR identifiers of the languages with a three-letter code only that CLDR has locale
    data for (``haw``, ``chr``)."""
    from babel import localedata

    return sorted(i for i in localedata.locale_identifiers() if len(i) == 3 and i.isalpha())


def english_named_languages(named: set[str]) -> list[str]:
    """CLDR identifiers of the other languages CLDR names in English (``ty``, ``hmn``): no
    locale data, no region or script subtag, a language."""
    from babel import Locale

    from bilingual_spider.language.names import NOT_LANGUAGES

    english = Locale.parse("en").languages
    return sorted(i for i in english if "_" not in i and i not in named | NOT_LANGUAGES)


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
    three_letter = three_letter_languages()
    for cldr in [*languages, *three_letter]:
        code = language_codes.normalize_language_code(cldr)
        if code is None:
            continue
        try:
            own = Locale.parse(cldr).languages.get(cldr)
        except (UnknownLocaleError, ValueError):
            own = None
        if own and keep_name(name_key(own)):
            autonyms.setdefault(name_key(own), code)
        for written_in in ("en",) if cldr in three_letter else WEB_LANGUAGES:
            name = Locale.parse(written_in).languages.get(cldr)
            if name and keep_name(name_key(name)):
                others.setdefault(name_key(name), set()).add(code)
    english = Locale.parse("en").languages
    for cldr in english_named_languages({*languages, *three_letter}):
        code, key = language_codes.normalize_language_code(cldr), name_key(english[cldr])
        aliased = cldr in language_codes.ALIASES  # fat: Fanti, Akan
        if (code == cldr or aliased) and keep_name(key) and key not in NOT_NAMES:  # kr: Kanuri
            others.setdefault(key, set()).add(code)
    for code, phrases in SWITCHER_PHRASES.items():
        for phrase in phrases:
            autonyms.setdefault(name_key(phrase), code)
    names = dict(autonyms)
    for key, codes in others.items():
        if key not in names and len(codes) == 1:
            names[key] = next(iter(codes))
    return dict(sorted(names.items()))


def english_only() -> list[str]:
    """The project codes of the languages CLDR names in English alone (no locale data, no
    switcher phrase), their names kept or not (``Twi`` is too short): named, never coded in a
    URL (``/ch/``, ``/sh/``, ``/ae/`` are Switzerland, shell scripts, the Emirates far more often
    than Chamorro, Serbo-Croatian, Avestan, a ``tw.`` host Taiwan's), taken by ``--langs``."""
    with_data = set(named_languages()) | set(three_letter_languages())
    normalized = language_codes.normalize_language_code
    tier = {cldr for cldr in english_named_languages(with_data) if normalized(cldr) == cldr}
    return sorted(tier - set(SWITCHER_PHRASES))


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
    lines += ["}", "_ENGLISH_ONLY = ("]
    lines.extend(f'    "{chunk}"' for chunk in _wrapped(" ".join(english_only()), 84))
    lines += [
        ")",
        "NAMED_IN_ENGLISH_ONLY: frozenset[str] = frozenset(_ENGLISH_ONLY.split())",
        '"""The languages CLDR names in English alone: named, never coded in a URL; ``--langs``',
        'takes them (see build_language_names.english_only)."""',
    ]
    return "\n".join(lines) + "\n"


def _quoted(text: str) -> str:
    """A Python literal of ``text`` as ``ruff format`` writes it: in double quotes."""
    literal = repr(text)
    if literal.startswith("'") and '"' not in text:
        return '"' + literal[1:-1].replace("\\'", "'") + '"'
    return literal


SCRIPTS_WRITTEN = {"lad": "Latn"}
"""Languages whose writing today is not CLDR's likely script: Ladino, Hebrew (Rashi, Solitreo)
in CLDR, is written in Latin by its academy (Aki Yerushalayim's spelling), its Wikipedia and
its UDHR translation."""


def build_scripts() -> dict[str, str]:
    """Project code -> the script its language is written in (see the module docstring;
    :data:`SCRIPTS_WRITTEN` first)."""
    from babel.core import get_global

    from bilingual_spider.language.tld_table import CCTLD_LANGUAGES

    named = {code for listed in CCTLD_LANGUAGES.values() for code in listed.split()}
    named |= set(three_letter_languages())
    scripts: dict[str, str] = {}
    for key, likely in sorted(get_global("likely_subtags").items()):
        script = SCRIPTS_WRITTEN.get(key, likely.split("_")[1])
        word = SCRIPT_WORDS.get(script)
        if not key.isalpha() or (word is None and len(key) == 2):
            continue  # Japanese (Jpan: kanji and kana) and Avestan have no one word
        word = word or script.upper()
        if len(key) == 2 or key in named or word != "LATIN":
            code = language_codes.normalize_language_code(key)
            if code is not None:
                scripts.setdefault(code, word)
    return scripts


def build_aliases() -> dict[str, str]:
    """Three-letter code -> two-letter code (see the module docstring)."""
    from babel.core import get_global

    from bilingual_spider.language.names import is_language_code

    aliases = {
        code: alias
        for code, alias in get_global("language_aliases").items()
        if len(code) == 3 and code.isalpha() and len(alias) == 2 and is_language_code(alias)
    }  # not Kanuri's kr (Korea's), Avestan's ae (the Emirates'): the three letters stay
    aliases.update(ALIAS_EXCEPTIONS)
    return {code: alias for code, alias in sorted(aliases.items()) if alias}


def render_scripts(scripts: dict[str, str]) -> str:
    return _render_grouped(
        "Scripts of languages",
        "CLDR's likely subtags",
        "script (the first word of its letters' Unicode names) -> the languages written in it",
        scripts,
        "SCRIPTS",
        "Project language code -> its script (``rw``: ``LATIN``, ``ti``: ``ETHIOPIC``).",
    )


def render_aliases(aliases: dict[str, str]) -> str:
    return _render_grouped(
        "Two-letter codes of languages written with three letters",
        "CLDR's language aliases",
        "two-letter code -> the three-letter codes of its language",
        aliases,
        "ALIASES",
        "Three-letter code -> its language's code (``ger``: ``de``, ``als``: ``gsw``).",
    )


def _render_grouped(title: str, source: str, comment: str, table: dict, name: str, doc: str):
    """A generated module of ``table`` (key -> value), written as value -> its keys."""
    import babel

    by_value: dict[str, list[str]] = {}
    for key, value in sorted(table.items()):
        by_value.setdefault(value, []).append(key)
    lines = [
        f'"""{title}: GENERATED by',
        "``python -m bilingual_spider.language.build_language_names``; do not edit.",
        "",
        f"Source: {source} (babel {babel.__version__}); rule: see",
        "build_language_names.py.",
        '"""',
        "",
        f"# {comment}",
        "_GROUPED: dict[str, str] = {",
    ]
    for value, keys in sorted(by_value.items()):
        chunks = _wrapped(" ".join(keys), 84)
        if len(chunks) == 1:
            lines.append(f'    "{value}": "{chunks[0]}",')
        else:
            lines.append(f'    "{value}": (')
            lines.extend(f'        "{chunk}"' for chunk in chunks)
            lines.append("    ),")
    lines += [
        "}",
        f"{name}: dict[str, str] = "
        "{key: value for value, keys in _GROUPED.items() for key in keys.split()}",
        f'"""{doc}"""',
    ]
    return "\n".join(lines) + "\n"


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` in chunks of at most ``width`` characters, each but the last ending in a space
    (so that the chunks, concatenated, give ``text`` back)."""
    chunks, line = [], ""
    for word in text.split():
        if line and len(line) + len(word) + 1 > width:
            chunks.append(line + " ")
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*chunks, line]


def main() -> None:
    from bilingual_spider.language import language_aliases_table

    aliases = build_aliases()
    ALIASES_OUTPUT.write_text(render_aliases(aliases), encoding="utf-8")
    print(f"wrote {ALIASES_OUTPUT}: {len(aliases)} three-letter codes")
    importlib.reload(language_aliases_table)
    importlib.reload(language_codes)  # names and scripts are keyed by the codes aliases make
    names = build()
    OUTPUT.write_text(render(names), encoding="utf-8")
    print(f"wrote {OUTPUT}: {len(names)} names of {len(set(names.values()))} languages")
    scripts = build_scripts()
    SCRIPTS_OUTPUT.write_text(render_scripts(scripts), encoding="utf-8")
    print(f"wrote {SCRIPTS_OUTPUT}: the scripts of {len(scripts)} languages")


if __name__ == "__main__":
    main()
