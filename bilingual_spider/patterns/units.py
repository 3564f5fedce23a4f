"""A URL as PupSniffer's units, and whole-unit substitution (Zhang et al. 2018, section 3).

The units of a URL are, in this order:

- ``host``: the leftmost label of the host when the host has a subdomain (``en`` in
  ``en.example.com``, ``www`` in ``www.example.com``), else the empty unit ``""``;
- ``dir``: each directory segment of the path, whole (``yr99-00``, ``english``, ``english-news``);
- ``file``: the tokens of the file name, split on ``_``, ``-`` and ``.`` (``en_rep_thai_04.htm``
  gives ``en``, ``rep``, ``thai``, ``04``, ``htm``; the separators are kept to rebuild the URL),
  except that a language tag with its region or script stays one token (``index.zh-cn.html``
  gives ``index``, ``zh-cn``, ``html``; ``ch05.zh_CN.html``): split, ``zh-cn`` would differ from
  ``en`` in two units, and no one-unit pattern could pair the two pages;
- ``query``: each query parameter as one unit, name and value together (``lang=en``).

"Nothing" is the empty unit ``""``, so that a language marker present on one side only (an added
``&lang=fr``, a ``/fr/`` directory on the translated side, ``page.html`` vs ``page.html.fr``) is the
pattern <"", fr>. Scheme and fragment are not units: they never tell two languages apart.

Substitution replaces a whole unit, never a substring: with <en, tc>, ``/en/`` becomes ``/tc/``
but ``/english-news/`` is left alone (Ma & Zhang 2014, section 3.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from urllib.parse import urlsplit

from bilingual_spider.language.names import (
    KNOWN_LANGUAGES,
    NAMED_IN_ENGLISH_ONLY,
    is_language_code,
)
from bilingual_spider.language.tld import registered_domain
from bilingual_spider.patterns.markers import (
    INITIALS,
    MARKER_JOINER,
    is_language_tag,
    language_of_unit,
)

HOST, DIR, FILE, QUERY = "host", "dir", "file", "query"
_FILE_SPLIT = re.compile(r"([_.\-])")
_TAG_LIKE = re.compile(r"(?:^|[._-])[a-z]{2,3}[-_](?:[a-z]{2}|[a-z]{4})(?=$|[._-])", re.IGNORECASE)
"""Where a language tag could be: the file names without one (most) are split at once."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a URL: its kind, its position among units of that kind, and its text."""

    kind: str
    position: int
    value: str


@dataclass(frozen=True, slots=True)
class UrlUnits:
    """A URL split into units, with what is needed to rebuild it."""

    scheme: str
    host_unit: str
    """The leftmost host label when the host has a subdomain, else ``""``."""
    host_rest: str
    """The rest of the host (and the port): ``example.com`` for ``en.example.com``."""
    dirs: tuple[str, ...]
    tokens: tuple[str, ...]
    """The file name's tokens; ``()`` when the path ends with ``/``."""
    separators: tuple[str, ...]
    """The separators between tokens, one fewer than tokens."""
    query: tuple[str, ...]
    """Query parameters as ``name=value``, in the URL's order."""

    @property
    def site(self) -> str:
        """The site the URL belongs to (see :func:`site_of_host`)."""
        return site_of_host(self.host_unit, self.host_rest)

    @property
    def file_name(self) -> str:
        return _join_file(self.tokens, self.separators)

    def units(self) -> list[Unit]:
        """All units, in URL order."""
        found = [Unit(HOST, 0, self.host_unit)]
        found += [Unit(DIR, i, d) for i, d in enumerate(self.dirs)]
        found += [Unit(FILE, i, t) for i, t in enumerate(self.tokens)]
        found += [Unit(QUERY, i, q) for i, q in enumerate(self.query)]
        return found

    def url(self) -> str:
        """The URL again (fragment dropped)."""
        host = f"{self.host_unit}.{self.host_rest}" if self.host_unit else self.host_rest
        path = "/" + "/".join((*self.dirs, self.file_name))
        query = "?" + "&".join(self.query) if self.query else ""
        return f"{self.scheme}://{host}{path}{query}"


def split_url(url: str) -> UrlUnits:
    """Split ``url`` into its units.

    >>> split_url("http://www.x.hk/en/en_rep_04.htm?lang=en").units()[1:4]
    [Unit(kind='dir', position=0, value='en'), Unit(kind='file', position=0, value='en'), \
Unit(kind='file', position=1, value='rep')]
    """
    scheme, netloc, path, query_string = _split(url.strip())
    host_unit, host_rest = split_host(netloc.rpartition("@")[2].lower())
    segments = (path[1:] if path.startswith("/") else path).split("/")
    tokens, separators = split_file_name(segments[-1])
    query = tuple(q for q in query_string.split("&") if q)
    return UrlUnits(
        scheme.lower() or "http",
        host_unit,
        host_rest,
        tuple(segments[:-1]),
        tokens,
        separators,
        query,
    )


def site_of(url: str) -> str:
    """The site of a URL (:attr:`UrlUnits.site`) without splitting the rest of it."""
    netloc = _split(url.strip())[1]
    return site_of_host(*split_host(netloc.rpartition("@")[2].lower()))


@lru_cache(maxsize=65536)
def site_of_host(host_unit: str, host_rest: str) -> str:
    """The site of a host split by :func:`split_host`: the host without its subdomain unit when
    that unit is ``www`` or names a language (``en.example.com`` and ``fr.example.com`` are one
    site, paired by the pattern <en, fr>), else the whole host. As a host's first label, any
    language's two-letter code names it, not only those of the languages the names table
    names (``ch.example.org``: Chamorro, as Wikipedia's hosts say; in a path ``ch`` is as
    likely a country or a chapter). ``d-i.debian.org`` and ``www.debian.org`` are two sites:
    pooled, one site's patterns would be judged on the other's pages (a pattern credible on the
    small site is too rare on the pooled one)."""
    if not host_unit or host_unit == "www" or host_language(host_unit):
        return host_rest
    return f"{host_unit}.{host_rest}"


def host_language(host_unit: str) -> str | None:
    """The language a host's first label names: as any other unit's
    (:func:`~.markers.language_of_unit`), or any language's two-letter code (``ch``)."""
    found = language_of_unit(host_unit)
    if found is None and len(host_unit) == 2 and is_language_code(host_unit):
        return host_unit
    return found


def url_host_language(url: str, declared: str | None = None) -> str | None:
    """The language the first label of ``url``'s host names (:func:`host_language`:
    ``ch.example.org`` is Chamorro's), None when it names none, the host has no subdomain, or
    the label is the country whose region ``declared`` names (:func:`country_host`)."""
    netloc = urlsplit(url).netloc.rpartition("@")[2].lower()
    host_unit = split_host(netloc)[0]
    if not host_unit or country_host(host_unit, declared):
        return None
    return host_language(host_unit)


def country_host(label: str, html_lang: str | None) -> bool:
    """Whether a host's first label is the country whose region the page's ``<html lang>``
    names, not a language: ``br.`` declaring ``pt-BR`` is Brazil's site, not Breton's; ``uk.``
    declaring ``en-GB`` the United Kingdom's (ISO 3166 reserves ``UK`` for it), not
    Ukrainian's."""
    region = html_lang.rpartition("-")[2].lower() if html_lang and "-" in html_lang else ""
    return len(region) == 2 and {"uk": "gb"}.get(label, label) == region


def host_code_label(label: str, url: str) -> str | None:
    """The language a link's whole label names as a three-letter code its host repeats as its
    first label (``PCD`` to ``pcd.example.org``: Picard), of a language CLDR names; None
    otherwise. Bare, three letters are as often a word (``FAQ``, ``NEW``: Newari's code): a
    host named so is a language's."""
    code = label.strip().lower()
    if len(code) != 3 or not code.isalpha() or code not in CLDR_CODES:
        return None
    netloc = urlsplit(url).netloc.rpartition("@")[2].lower()
    return code if split_host(netloc)[0] == code else None


CLDR_CODES = KNOWN_LANGUAGES | NAMED_IN_ENGLISH_ONLY
"""The languages CLDR names: those it has locale data for and those it names in English."""


def is_well_formed(url: str) -> bool:
    """Whether ``urlsplit`` reads ``url``: not, for instance, when a bracket of an IPv6 host is
    left open (``http://[::1/x``) or the host normalises into a delimiter. Such a URL still has
    units (:func:`split_url` never raises), but they mean nothing: mining skips it."""
    try:
        urlsplit(url.strip())
    except ValueError:
        return False
    return True


def _split(url: str) -> tuple[str, str, str, str]:
    """Scheme, netloc, path and query; by hand for http(s) URLs (the bulk, five times faster
    than ``urlsplit``) and for what ``urlsplit`` refuses, by ``urlsplit`` otherwise."""
    if not url.startswith(("http://", "https://")):
        try:
            parts = urlsplit(url)
        except ValueError:  # "Invalid IPv6 URL": split by hand, as a browser would try
            pass
        else:
            return parts.scheme, parts.netloc, parts.path, parts.query
    scheme, _, rest = url.partition("://") if "://" in url else ("", "", url)
    rest = rest.partition("#")[0]
    rest, _, query = rest.partition("?")
    netloc, slash, path = rest.partition("/")
    return scheme, netloc, slash + path, query


@lru_cache(maxsize=65536)
def split_host(netloc: str) -> tuple[str, str]:
    """``("en", "example.com")`` for ``en.example.com``; ``("", "example.com")`` without a
    subdomain. The registered domain comes from the Public Suffix List (``gov.hk`` is a suffix)."""
    host, colon, port = netloc.partition(":")
    domain = registered_domain(host) or host
    if host == domain or not host.endswith("." + domain):
        return "", netloc
    label, _, rest = host.partition(".")
    return label, rest + colon + port


def split_file_name(name: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Tokens and separators: ``page.html.fr`` -> ``(page, html, fr), (., .)``; a language tag
    joined by ``-`` or ``_`` is one token (``page.pt-br.html`` -> ``(page, pt-br, html)``)."""
    if not name:
        return (), ()
    pieces = _FILE_SPLIT.split(name)
    if not _TAG_LIKE.search(name):
        return tuple(pieces[0::2]), tuple(pieces[1::2])
    tokens, separators = [pieces[0]], []
    for separator, token in zip(pieces[1::2], pieces[2::2], strict=True):
        if separator != "." and is_language_tag(tokens[-1], token):
            tokens[-1] += separator + token
        else:
            separators.append(separator)
            tokens.append(token)
    return tuple(tokens), tuple(separators)


def _join_file(tokens: tuple[str, ...], separators: tuple[str, ...]) -> str:
    if not tokens:
        return ""
    out = [tokens[0]]
    for sep, token in zip(separators, tokens[1:], strict=True):
        out += (sep, token)
    return "".join(out)


def replace_unit(units: UrlUnits, unit: Unit, value: str) -> UrlUnits:
    """``units`` with ``unit`` replaced by ``value``; an empty ``value`` removes the unit (a file
    token with its separator, a query parameter, a directory)."""
    if unit.kind == HOST:
        return replace(units, host_unit=value)
    if unit.kind == DIR:
        dirs = list(units.dirs)
        dirs[unit.position : unit.position + 1] = [value] if value else []
        return replace(units, dirs=tuple(dirs))
    if unit.kind == QUERY:
        query = list(units.query)
        query[unit.position : unit.position + 1] = [value] if value else []
        return replace(units, query=tuple(query))
    tokens, separators = list(units.tokens), list(units.separators)
    if value:
        tokens[unit.position] = value
    else:
        del tokens[unit.position]
        if separators:
            del separators[max(unit.position - 1, 0)]
    return replace(units, tokens=tuple(tokens), separators=tuple(separators))


def insert_unit(units: UrlUnits, value: str) -> list[UrlUnits]:
    """``units`` with a unit that was "nothing" made ``value``: a query parameter when ``value``
    is ``name=value``; an initial (``f``) as the file name's token before its extension, joined
    by ``_`` or by ``-`` (``report.asp`` -> ``report_f.asp``, ``report-f.asp``: a directory
    ``/f/`` is no language's); else a first directory (``/page`` -> ``/fr/page``, the
    default-language layout). Other insertion points are not guessed. A parameter the query
    sets already is not set twice: ``read.php?doc=0&hl=nr`` by <"", hl=ts> is no page (a
    crawl fetched 216 such URLs on an 86-page site, each served as one of its pages)."""
    if "=" in value:
        name = value.partition("=")[0]
        if any(part.partition("=")[0] == name for part in units.query):
            return []
        return [replace(units, query=(*units.query, value))]
    if value in INITIALS:
        if len(units.tokens) < 2:
            return []
        *stem, extension = units.tokens
        return [
            replace(
                units,
                tokens=(*stem, value, extension),
                separators=(*units.separators[:-1], joiner, units.separators[-1]),
            )
            for joiner in ("_", "-")
        ]
    return [replace(units, dirs=(value, *units.dirs))]


def substitute(url: str, old: str, new: str) -> list[str]:
    """Every URL made from ``url`` by replacing one whole unit equal to ``old`` with ``new``.

    ``old == ""`` inserts ``new`` (see :func:`insert_unit`); ``new == ""`` removes the unit.

    >>> substitute("http://x.hk/en/english-news/a_en.htm", "en", "tc")
    ['http://x.hk/tc/english-news/a_en.htm', 'http://x.hk/en/english-news/a_tc.htm']
    """
    if old and old not in url and old not in url.lower():  # most patterns' units are in few URLs
        return []  # (a unit is a piece of the URL, its host lower-cased: :func:`split_url`)
    return list(_substituted(url, old, new))


def substitute_everywhere(url: str, old: str, new: str) -> str | None:
    """The URL made from ``url`` by replacing every whole unit equal to ``old`` with ``new``,
    when ``old`` is more than one of its units; else None. A URL that names its language in two
    places names the other language in both: the counterpart of ``faq/de/x.de.html`` by <de, fr>
    is ``faq/fr/x.fr.html``, where :func:`substitute` makes ``faq/fr/x.de.html`` and
    ``faq/de/x.fr.html``. A side of a two-place pattern that is one unit repeated (<de+de,
    fr+fr>) stands for that unit in exactly as many places. Neither side may be "nothing".

    >>> substitute_everywhere("http://x.hk/en/english-news/a_en.htm", "en", "tc")
    'http://x.hk/tc/english-news/a_tc.htm'
    >>> substitute_everywhere("http://x.hk/en/a.htm", "en", "tc") is None
    True
    """
    old_units, new_units = old.split(MARKER_JOINER), new.split(MARKER_JOINER)
    if len(old_units) != len(new_units) or len(set(old_units)) > 1 or len(set(new_units)) > 1:
        return None
    old, new = old_units[0], new_units[0]
    if not old or not new or (old not in url and old not in url.lower()):
        return None
    units = split_url(url)
    places = [unit for unit in units.units() if unit.value == old]
    if len(places) < 2 or (len(old_units) > 1 and len(places) != len(old_units)):
        return None
    for place in places:  # a unit replaced keeps its place: the others' positions hold
        units = replace_unit(units, place, new)
    return units.url()


SUBSTITUTED_CACHE = 1 << 16
"""Substitutions kept (:func:`substitute`): the pairing at a crawl's end substitutes every link
of both pages of every candidate pair by every pattern, and a site's navigation links recur on
each of its pages."""


@lru_cache(maxsize=SUBSTITUTED_CACHE)
def _substituted(url: str, old: str, new: str) -> tuple[str, ...]:
    """:func:`substitute`, as a tuple (kept by the cache, not to be changed)."""
    if MARKER_JOINER in old + new:  # a two-place pattern: not one unit's substitution
        return ()
    units = split_url(url)
    if not old:
        return tuple(made.url() for made in insert_unit(units, new)) if new else ()
    made = [replace_unit(units, u, new).url() for u in units.units() if u.value == old]
    return tuple(dict.fromkeys(m for m in made if m != units.url()))
