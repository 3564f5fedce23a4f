"""Where the detector looks when a site's first page says nothing: the fallback ladder.

A crawl reaches a site where a backlink or a forward link lands, most often a deep page (a
chapter, an article) that carries no language switcher: many sites keep theirs on the home page
or on a language chooser at the root. When the first page gives the detector nothing to probe
(no link scored >= the minimum likelihood, none named a language, or every probe failed), it
climbs, inside the same page budget, and stops at the first rung that decides:

1. **URL siblings** (:func:`url_siblings`): a unit of the page's URL that names the page's own
   language (``/fr/``, ``.fr.html``, ``fr.`` host, ``?lang=fr``) is substituted, whole, with the
   site's likely languages (:func:`likely_languages`) in the same style (``fr`` -> ``en``,
   ``fr_FR`` -> ``en_US``, ``french`` -> ``english``), or dropped (the default language is often
   unmarked), as PupSniffer's deep-page check substitutes a pattern's units (Zhang et al. 2018,
   sec. 4.3; :func:`bilingual_spider.patterns.units.substitute`). A unit naming another language
   than the page's (``git-am.html`` on an English page: ``am`` is Amharic) is no marker of it.
2. **Ancestors** (:func:`ancestor_urls`): the *neutral root* above a directory that names the
   page's language (``/manual/`` for ``/manual/fr/ch01.html``, where language choosers live),
   the language root itself (``/manual/fr/``, a language's home), the page's directory index,
   then the parents up to the site root. Each is judged as a first page: its links are scored,
   and the language-hint tier and the chooser rule apply to it.

For a page that is not English the URL siblings go first (its English version is the most
likely translation, one request away); for an English page the ancestors go first (its other
languages are unknown until a chooser or switcher names them), and URL siblings come after them,
in the languages the ancestors' links named. Pure: strings in, URLs out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import SplitResult, urlsplit, urlunsplit

from bilingual_spider.language.codes import base_language
from bilingual_spider.language.tld import languages_of_host
from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.units import split_url, substitute

URL_SIBLINGS = "url siblings"
ANCESTORS = "ancestors"
FALLBACK_LANGUAGES = ("es", "fr", "de")
"""Last resort for an English page whose site named no other language: the three largest
content languages of the web after English (W3Techs' content-language survey, order of
magnitude, quoted from memory; the generated web's ``language_weights`` cite the same source)."""
ENGLISH_NAMES = {
    "en": "english", "es": "spanish", "fr": "french", "de": "german", "it": "italian",
    "pt": "portuguese", "ja": "japanese", "zh": "chinese", "ko": "korean", "ru": "russian",
    "nl": "dutch", "pl": "polish", "uk": "ukrainian", "ar": "arabic", "sv": "swedish",
}  # fmt: skip
"""A language's English name, for URL units that name languages by name (``/english/``)."""
THREE_LETTERS = {
    "en": "eng", "es": "spa", "fr": "fra", "de": "deu", "it": "ita", "pt": "por", "ja": "jpn",
    "zh": "zho", "ko": "kor", "ru": "rus", "nl": "nld",
}  # fmt: skip
REGIONS = {
    "en": "us", "es": "es", "fr": "fr", "de": "de", "it": "it", "pt": "br", "ja": "jp",
    "ko": "kr", "ru": "ru", "nl": "nl", "uk": "ua", "pl": "pl", "sv": "se",
}  # fmt: skip
"""The region a locale-style unit gets for a language (``en`` -> ``en_US``)."""
_LOCALE = re.compile(r"([a-z]{2,3})([-_])([a-z]{2}|[a-z]{4})", re.IGNORECASE)
_INDEX_NAMES = ("index.html", "index.htm", "index.php", "index.shtml", "default.aspx")


def own_markers(url: str, language: str) -> list[str]:
    """The units of ``url`` that name ``language`` (the page's own): its language markers."""
    if not language:
        return []
    wanted = base_language(language)
    found = []
    for unit in split_url(url).units():
        named = language_of_unit(unit.value) if unit.value else None
        if named and base_language(named) == wanted and unit.value not in found:
            found.append(unit.value)
    return found


def sibling_units(unit: str, target: str) -> list[str]:
    """The units that name ``target`` in the style of ``unit`` (a code, a locale, a three-letter
    code, an English name, a query parameter), in its case; a locale also gives the bare code
    (Debian's ``zh_CN/`` beside ``en/``).

    >>> [sibling_units(u, "en")[0] for u in ("fr", "fr_FR", "pt-br", "FRA", "French", "lang=fr")]
    ['en', 'en_US', 'en', 'ENG', 'English', 'lang=en']
    >>> sibling_units("zh_CN", "en"), sibling_units("fr_FR", "en"), sibling_units("es", "zh-Hant")
    (['en', 'en_US'], ['en_US', 'en'], ['zh-tw'])
    """
    if "=" in unit:
        name, _, value = unit.partition("=")
        return [f"{name}={made}" for made in sibling_units(value, target)]
    base = base_language(target)
    word = unit.lower()
    locale = _LOCALE.fullmatch(unit)
    if locale and language_of_unit(locale.group(1)):
        region = _region(target)
        region = region.upper() if locale.group(3).isupper() else region
        made = [f"{base}{locale.group(2)}{region}", _code(target)] if region else [_code(target)]
        if locale.group(1).lower() != locale.group(3).lower():  # zh_CN, pt_BR: a variant
            made.reverse()  # beside a bare en/ (Debian's layout); fr_FR: a locale system
    elif len(word) == 3 and word in {*THREE_LETTERS.values(), "fre", "ger", "chi", "dut"}:
        made = [THREE_LETTERS.get(base, base)]
    elif len(word) > 3:
        made = [ENGLISH_NAMES.get(base, base)]
    else:
        made = [_code(target)]
    return list(dict.fromkeys(_cased(m, unit) for m in made))


def _code(target: str) -> str:
    """A two-letter code, with the region where it tells the language apart (Chinese scripts,
    Brazilian Portuguese)."""
    if target == "zh-Hans":
        return "zh-cn"
    if target == "zh-Hant":
        return "zh-tw"
    return target.lower() if "-" in target else base_language(target)


def _region(target: str) -> str:
    if "-" in target and len(target.split("-", 1)[1]) == 2:
        return target.split("-", 1)[1].lower()
    return {"zh-Hans": "cn", "zh-Hant": "tw"}.get(target, REGIONS.get(base_language(target), ""))


def _cased(made: str, like: str) -> str:
    if like.isupper():
        return made.upper()
    if like[:1].isupper():
        return made[:1].upper() + made[1:]
    return made


def url_siblings(url: str, language: str, targets: Iterable[str]) -> list[tuple[str, str]]:
    """``(URL, language)`` of the versions of ``url`` in ``targets``, most likely first: each of
    the page's own language markers replaced by the target's unit in the same style; for an
    English target, also the marker dropped (``download.fr.html`` -> ``download.html``).

    >>> url_siblings("http://x.org/doc/fr/a.html", "fr", ["en"])
    [('http://x.org/doc/en/a.html', 'en'), ('http://x.org/doc/a.html', 'en')]
    >>> url_siblings("http://x.org/git-am.html", "en", ["fr"])
    []
    """
    markers = own_markers(url, language)
    made: dict[str, str] = {}
    for target in targets:
        if base_language(target) == base_language(language):
            continue
        for marker in markers:
            for unit in sibling_units(marker, target):
                for candidate in substitute(url, marker, unit):
                    made.setdefault(candidate, target)
        if base_language(target) == "en":
            for marker in markers:
                for candidate in substitute(url, marker, ""):
                    made.setdefault(_tidy(candidate), target)
    made.pop(url, None)
    return list(made.items())


def _tidy(url: str) -> str:
    """A URL whose query became empty (``?lang=fr`` dropped) without its ``?``."""
    return url.rstrip("?")


def likely_languages(
    url: str, language: str, named: Sequence[str] = (), langs: Sequence[str] = ()
) -> list[str]:
    """The languages a page's translations are most likely in, most likely first: the
    languages of interest, those its site's links named, English (for a page that is not), the
    languages of the host's country-code domain; :data:`FALLBACK_LANGUAGES` last."""
    ordered = [*langs, *named]
    if base_language(language or "en") != "en":
        ordered.insert(len(langs), "en")
    ordered += [*languages_of_host(url), *FALLBACK_LANGUAGES]
    own = base_language(language) if language else ""
    chosen: dict[str, None] = {}
    for code in ordered:
        if code and base_language(code) != own:
            chosen.setdefault(code)
    return list(chosen)


def ancestor_urls(url: str, language: str = "") -> list[str]:
    """The pages above ``url`` where a switcher or a chooser may be: the parent of a directory
    naming the page's language (the neutral root) and that directory (the language root), or,
    when no directory names it, the section above the page's directory (a documentation's or a
    site's start: a page's own directory is most often a chapter list in its language); then the
    page's directory index and each parent directory up to the site root. A directory names the
    language when it is a marker of it or one of its dot-, dash- or underscore-separated words
    is (``guide.fr.html/``).

    >>> ancestor_urls("http://x.org/manual/fr/ch01.html", "fr")
    ['http://x.org/manual/', 'http://x.org/manual/fr/', 'http://x.org/']
    >>> ancestor_urls("http://x.org/3.11/library/os.html")
    ['http://x.org/3.11/', 'http://x.org/3.11/library/', 'http://x.org/']
    """
    parts = urlsplit(url)
    segments = parts.path.split("/")[1:]
    directories, name = segments[:-1], segments[-1]
    chain = [_directory(parts, directories[:depth]) for depth in range(len(directories), -1, -1)]
    first: list[str] = []
    marked = _language_directory(directories, language)
    if marked is not None:
        first = [_directory(parts, directories[:depth]) for depth in (marked, marked + 1)]
    elif len(chain) > 1 and name.lower() not in _INDEX_NAMES:
        first = [chain[1]]  # no language directory: the section above the page's own first
    itself = {urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, parts.query, ""))}
    if name.lower() in _INDEX_NAMES and not parts.query:
        itself.add(chain[0])  # the page is its directory's index
    return [u for u in dict.fromkeys([*first, *chain]) if u not in itself]


def marked(url: str, language: str) -> bool:
    """Whether ``url`` names ``language`` (a unit, or a word of a directory): only then does
    the ladder climb more than one step (an unmarked page's one ancestor is its section)."""
    directories = urlsplit(url).path.split("/")[1:-1]
    return (
        bool(own_markers(url, language)) or _language_directory(directories, language) is not None
    )


def _directory(parts: SplitResult, directories: Sequence[str]) -> str:
    path = "/" + "".join(f"{d}/" for d in directories)
    return urlunsplit((parts.scheme, parts.netloc.lower(), path, "", ""))


_WORDS = re.compile(r"[._-]")


def _language_directory(directories: Sequence[str], language: str) -> int | None:
    """The index of the deepest directory naming ``language`` (whole, or by one of its words)."""
    if not language:
        return None
    wanted = base_language(language)
    for index in range(len(directories) - 1, -1, -1):
        directory = directories[index]
        words = [directory, *_WORDS.split(directory)] if directory else []
        for word in words:
            named = language_of_unit(word) if len(word) >= 2 else None
            if named and base_language(named) == wanted:
                return index
    return None
