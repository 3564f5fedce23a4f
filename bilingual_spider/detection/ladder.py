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
   the site's home page (``/``, whatever the depth of the page), the language root itself
   (``/manual/fr/``, a language's home), the page's directory index, then the other parents.
   Each is judged as a first page: its links are scored, and the language-hint tier and the
   chooser rule apply to it. An ancestor that fails (``HTTP 404``: many sites serve no index
   for their directories) is skipped, not the end; the home page ends the climb.

The page's language marker is the unit naming its identified language; when the text told no
language, or another one than its URL names (a partly translated page, a language the
identifier does not know), the URL's own code (:func:`path_language`). Guesses are written in
the code forms the site uses (:func:`site_codes` of the URLs its pages link, a BCP 47 locale as
``en-US``).

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
from bilingual_spider.patterns.markers import LANGUAGE_PARAMETER, language_of_unit
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
VARIANT_LANGUAGES = frozenset({"zh", "pt"})
"""Languages whose region (or script) tells written variants apart: a site naming its other
languages by bare codes still writes these with their region (Debian's ``zh_CN/``, ``pt_BR/``
beside ``en/``, ``ja/``); any other locale (``ko_KR``, ``fr_FR``) is a locale system's, whose
English is ``en_US``."""
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


def sibling_units(unit: str, target: str, seen: Sequence[str] = ()) -> list[str]:
    """The units that name ``target`` in the style of ``unit`` (a code, a locale, a three-letter
    code, an English name, a query parameter), in its case; a locale also gives the bare code
    (Debian's ``zh_CN/`` beside ``en/``). A locale written as BCP 47 writes it (``sv-SE``: a
    locale system, ``en-US`` before ``en``). ``seen``: the language units the site's own URLs
    use (:func:`site_codes`); those naming ``target`` in the form of ``unit`` (a locale for a
    locale, a code for a code) go first (``en-GB`` where the site writes it).

    >>> [sibling_units(u, "en")[0] for u in ("fr", "fr_FR", "pt-br", "FRA", "French", "lang=fr")]
    ['en', 'en_US', 'en', 'ENG', 'English', 'lang=en']
    >>> sibling_units("zh_CN", "en"), sibling_units("fr_FR", "en"), sibling_units("es", "zh-Hant")
    (['en', 'en_US'], ['en_US', 'en'], ['zh-tw'])
    >>> sibling_units("sv-SE", "en"), sibling_units("sv-SE", "en", seen=["en-GB", "en"])
    (['en-US', 'en'], ['en-GB', 'en-US', 'en'])
    >>> sibling_units("ko_KR", "en"), sibling_units("zh-cn", "en")
    (['en_US', 'en'], ['en', 'en-us'])
    """
    made = _made_units(unit, target)
    return list(dict.fromkeys([*_seen_units(unit, target, seen), *made]))


def _made_units(unit: str, target: str) -> list[str]:
    if "=" in unit:
        name, _, value = unit.partition("=")
        return [f"{name}={made}" for made in _made_units(value, target)]
    base = base_language(target)
    word = unit.lower()
    locale = _LOCALE.fullmatch(unit)
    if locale and language_of_unit(locale.group(1)):
        region = _region(target)
        region = region.upper() if locale.group(3).isupper() else region
        made = [f"{base}{locale.group(2)}{region}", _code(target)] if region else [_code(target)]
        if not _locale_system(unit) and locale.group(1).lower() in VARIANT_LANGUAGES:
            made.reverse()  # zh_CN, pt_BR: a variant beside a bare en/ (Debian's layout)
    elif len(word) == 3 and word in {*THREE_LETTERS.values(), "fre", "ger", "chi", "dut"}:
        made = [THREE_LETTERS.get(base, base)]
    elif len(word) > 3:
        made = [ENGLISH_NAMES.get(base, base)]
    else:
        made = [_code(target)]
    return list(dict.fromkeys(_cased(m, unit) for m in made))


def _locale_system(unit: str) -> bool:
    """``sv-SE``, ``pt-BR``, ``en-US``: a locale in BCP 47's own writing (hyphen, upper-case
    region), as sites that name every language by its locale write it (Fedora's and Red Hat's
    ``/en-US/``); Debian's ``zh_CN`` and ``pt-br`` are variants beside bare codes."""
    locale = _LOCALE.fullmatch(unit)
    return bool(locale and locale.group(2) == "-" and locale.group(3).isupper())


def _seen_units(unit: str, target: str, seen: Sequence[str]) -> list[str]:
    """The units of ``seen`` that name ``target`` in the form of ``unit`` (both locales with the
    same separator, or both bare codes of the same length)."""
    if "=" in unit:
        name, _, value = unit.partition("=")
        return [f"{name}={made}" for made in _seen_units(value, target, seen)]
    form = _LOCALE.fullmatch(unit)
    found = []
    for code in seen:
        named = language_of_unit(code)
        if not named or base_language(named) != base_language(target):
            continue
        if "-" in target and named != target:
            continue  # zh-Hant wanted, zh-CN seen
        other = _LOCALE.fullmatch(code)
        same = (
            bool(form and other and form.group(2) == other.group(2))
            if form or other
            else len(code) == len(unit)
        )
        if same and code != unit:
            found.append(code)
    return found


def site_codes(urls: Iterable[str]) -> tuple[str, ...]:
    """The language units of ``urls`` (:func:`path_units`), each once, in the order met: the
    code forms the site itself writes (``en-US``, ``pt_BR``, ``zh-CN``)."""
    found: dict[str, None] = {}
    for url in urls:
        for unit in path_units(url):
            found.setdefault(unit)
    return tuple(found)


def path_units(url: str) -> list[str]:
    """The units of ``url`` that name a language where a site writes its language: a directory,
    a host's first label, a dotted word of the file name that is not its stem
    (``ch01.fr.html``), a language parameter's value; a file stem is no marker (``id.html``)."""
    units = split_url(url)
    found = []
    if units.host_unit and units.host_unit != "www" and language_of_unit(units.host_unit):
        found.append(units.host_unit)
    found += [d for d in units.dirs if d and _names_a_language(d)]
    found += [w for w in units.file_name.split(".")[1:-1] if _names_a_language(w)]
    for query in units.query:
        name, _, value = query.partition("=")
        if value and LANGUAGE_PARAMETER.fullmatch(name) and _names_a_language(value):
            found.append(value)
    return found


def _names_a_language(unit: str) -> bool:
    """A code (``fr``, ``fra``) or a locale (``sv-SE``, ``zh_CN``) naming a language."""
    short = len(unit) <= 3 or bool(_LOCALE.fullmatch(unit))
    return short and unit.isascii() and language_of_unit(unit) is not None


def path_language(url: str) -> str:
    """The language ``url`` says its page is in, by its deepest unit naming one
    (:func:`path_units`), or "": the marker the URL siblings substitute when the page's text
    did not tell its language, or told another one (a partly translated page, a language the
    identifier does not know).

    >>> path_language("http://x.org/browse/sv-SE/sect.html"), path_language("http://x/id.html")
    ('sv', '')
    """
    units = path_units(url)
    return (language_of_unit(units[-1]) or "") if units else ""


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


def url_siblings(
    url: str, language: str, targets: Iterable[str], seen: Sequence[str] = ()
) -> list[tuple[str, str]]:
    """``(URL, language)`` of the versions of ``url`` in ``targets``, most likely first: each of
    the page's own language markers replaced by the target's unit in the same style; for an
    English target, also the marker dropped (``download.fr.html`` -> ``download.html``).
    ``seen``: the language units the site writes (:func:`sibling_units`).

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
            for unit in sibling_units(marker, target, seen):
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


def ancestor_urls(url: str, language: str = "", linked: Iterable[str] = ()) -> list[str]:
    """The pages above ``url`` where a switcher or a chooser may be: the parent of a directory
    naming the page's language (the neutral root), or, when its file name names it
    (``ch06.en.html``), its own directory (the languages side by side: Debian's content
    negotiation), or else the section above the page's directory (a documentation's or a site's
    start: a page's own directory is most often a chapter list in its language); then the site's
    home page (where most sites keep
    their language choice, whatever the depth of the page: issue 50), the language root (the
    directory naming the language, a language's home), the page's directory index and each
    parent directory. A directory names the language when it is a marker of it or one of its
    dot-, dash- or underscore-separated words is (``guide.fr.html/``). ``linked``: the URLs the
    page links; the ancestors among them no deeper than the first (the home page, a directory
    between) go first, in this order: a page's links show which of the directories above it
    exist (a logo's link home, a breadcrumb; many sites serve no index for a directory such as
    ``/browse/`` in ``/browse/sv-SE/x.html``); a linked language root (a table of contents in
    the page's language) keeps its place.

    >>> ancestor_urls("http://x.org/manual/fr/ch01.html", "fr")
    ['http://x.org/manual/', 'http://x.org/', 'http://x.org/manual/fr/']
    >>> ancestor_urls("http://x.org/3.11/library/os.html")
    ['http://x.org/3.11/', 'http://x.org/', 'http://x.org/3.11/library/']
    >>> ancestor_urls("http://x.org/browse/sv-SE/a.html", "sv", ["http://x.org/index.html"])[0]
    'http://x.org/'
    >>> ancestor_urls("http://x.org/doc/en/a.html", "en", ["http://x.org/doc/en/"])[0]
    'http://x.org/doc/'
    >>> ancestor_urls("http://x.org/doc/ref/ch06.en.html", "en")[:2]
    ['http://x.org/doc/ref/', 'http://x.org/']
    """
    parts = urlsplit(url)
    segments = parts.path.split("/")[1:]
    directories, name = segments[:-1], segments[-1]
    chain = [_directory(parts, directories[:depth]) for depth in range(len(directories), -1, -1)]
    first: list[str] = []
    marked = _language_directory(directories, language)
    if marked is not None:
        first = [_directory(parts, directories[:depth]) for depth in (marked, marked + 1)]
    elif _file_names(name, language) and name.lower() not in _INDEX_NAMES:
        first = [chain[0]]  # ch06.en.html: the languages side by side, the directory neutral
    elif len(chain) > 1 and name.lower() not in _INDEX_NAMES:
        first = [chain[1]]  # no language directory: the section above the page's own first
    itself = {urlunsplit((parts.scheme, parts.netloc.lower(), parts.path, parts.query, ""))}
    if name.lower() in _INDEX_NAMES and not parts.query:
        itself.add(chain[0])  # the page is its directory's index
    ordered = [u for u in dict.fromkeys([*first[:1], chain[-1], *first, *chain]) if u not in itself]
    if not ordered:
        return []
    shown = {_without_query(u) for u in linked}
    top = len(urlsplit(ordered[0]).path)  # linked pages no deeper than the first go first
    return sorted(ordered, key=lambda u: not (u in shown and len(urlsplit(u).path) <= top))


def linked_ancestors(url: str, language: str, links: Iterable[str]) -> tuple[str, ...]:
    """The pages above ``url`` (:func:`ancestor_urls`) that ``links`` lead to (``/`` for a link
    to ``/index.html``), in climbing order."""
    shown = {_without_query(u) for u in links}
    return tuple(u for u in ancestor_urls(url, language) if u in shown)


def _without_query(url: str) -> str:
    parts = urlsplit(url)
    path = parts.path or "/"
    for name in _INDEX_NAMES:
        path = path.removesuffix(name) if path.endswith("/" + name) else path
    return urlunsplit((parts.scheme, parts.netloc.lower(), path, "", ""))


def _file_names(name: str, language: str) -> bool:
    """Whether a dotted word of the file name ``name`` (not its stem) names ``language``
    (``ch06.en.html``)."""
    wanted = base_language(language) if language else ""
    words = name.split(".")[1:-1]
    return bool(wanted) and any(base_language(language_of_unit(w) or "") == wanted for w in words)


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
