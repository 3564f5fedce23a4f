"""Pairs with little prior knowledge, through a search engine (section 4.5; Ma & Zhang 2014).

1. The language markers of a language are read off the top global patterns (``en``, ``eng``,
   ``english`` for English).
2. A first query finds pages of that language in a domain: ``inurl:en site:gov.hk
   filetype:html``. Its result URLs are then reduced two ways and searched again:
   *domain mode* keeps the host (``www.immd.gov.hk``), *directory mode* keeps the path up to the
   language directory (``www.immd.gov.hk/en/``), for file types html, htm, asp, aspx and php
   (directory mode is also searched without a file type).
3. For each result URL, the top 5 patterns of its language are substituted (whole units, most
   credible first); the first generated URL that exists makes the pair (the check is the
   spider's, see ``deep_pages.judge_candidate``).

Only strings are made here; the search adapter sends the queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from bilingual_spider.language.codes import base_language
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.markers import URL_MARKERS, language_of_unit
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.units import substitute

FILE_TYPES = ("html", "htm", "asp", "aspx", "php")
SEARCH_TOP_PATTERNS = 5


def _names(unit: str, language: str) -> bool:
    found = language_of_unit(unit) if unit else None
    return found is not None and base_language(found) == base_language(language)


def language_markers(patterns: Iterable[PairingPattern], language: str) -> list[str]:
    """The units of ``patterns`` (ranked) that name ``language``, first seen first, without
    query units: ``inurl:`` looks for a word, not ``lang=en``."""
    found: dict[str, None] = {}
    for k in patterns:
        for unit in (k.first, k.second):
            if "=" not in unit and _names(unit, language):
                found.setdefault(unit.lower())
    return list(found)


def query(marker: str, site: str, filetype: str | None = None) -> str:
    """``inurl:en site:gov.hk filetype:html``."""
    parts = [f"inurl:{marker}" if marker else "", f"site:{site}"]
    if filetype:
        parts.append(f"filetype:{filetype}")
    return " ".join(p for p in parts if p)


def domain_mode_sites(urls: Iterable[str]) -> list[str]:
    """The hosts of result URLs, de-duplicated: ``www.immd.gov.hk``."""
    return list(dict.fromkeys(urlsplit(u).netloc.lower() for u in urls if urlsplit(u).netloc))


def directory_mode_sites(urls: Iterable[str], markers: Sequence[str]) -> list[str]:
    """Result URLs cut after their first language directory: ``www.immd.gov.hk/en/``."""
    wanted = {m.lower() for m in markers}
    found: dict[str, None] = {}
    for url in urls:
        parts = urlsplit(url)
        dirs = parts.path.lstrip("/").split("/")[:-1]
        for i, segment in enumerate(dirs):
            if segment.lower() in wanted:
                found.setdefault(parts.netloc.lower() + "/" + "/".join(dirs[: i + 1]) + "/")
                break
    return list(found)


def domain_mode_queries(
    urls: Iterable[str], markers: Sequence[str], filetypes: Sequence[str] = FILE_TYPES
) -> list[str]:
    """``inurl:en site:www.immd.gov.hk filetype:html`` for each host, marker and file type."""
    return [
        query(marker, site, filetype)
        for site in domain_mode_sites(urls)
        for marker in markers
        for filetype in filetypes
    ]


def directory_mode_queries(
    urls: Iterable[str], markers: Sequence[str], filetypes: Sequence[str] = FILE_TYPES
) -> list[str]:
    """``site:www.immd.gov.hk/en/ filetype:html`` for each directory and file type, and once
    without a file type."""
    return [
        query("", site, filetype)
        for site in directory_mode_sites(urls, markers)
        for filetype in (*filetypes, None)
    ]


def patterns_of_language(
    patterns: Iterable[PairingPattern], language: str, top: int = SEARCH_TOP_PATTERNS
) -> list[PairingPattern]:
    """The first ``top`` patterns (ranked) with one unit naming ``language`` and the other
    naming another language or nothing."""
    chosen = []
    for k in patterns:
        if _names(k.first, language) != _names(k.second, language):
            chosen.append(k)
            if len(chosen) == top:
                break
    return chosen


def search_substitutions(
    url: str,
    patterns: Iterable[PairingPattern],
    language: str,
    top: int = SEARCH_TOP_PATTERNS,
) -> list[DeepCandidate]:
    """The other-language URLs to check for a search result ``url`` in ``language``, in the
    order to check them: the ``language`` marker replaced by the other unit of each of the top
    patterns of that language."""
    made: dict[str, DeepCandidate] = {}
    for rank, k in enumerate(patterns_of_language(patterns, language, top)):
        mine, other = (k.first, k.second) if _names(k.first, language) else (k.second, k.first)
        for candidate in substitute(url, mine, other):
            made.setdefault(candidate, DeepCandidate(url, candidate, k, mine, other, rank))
    return list(made.values())


def url_markers(language: str) -> list[str]:
    """The URL units that name ``language`` with no crawl to learn them from: its code
    (``zh-hant``, and ``zh_tw``-style region forms are left to the search results) and the web's
    conventions for it (``tc``, ``cht``, ``big5`` for Traditional Chinese)."""
    code = language.lower()
    return [code, *(unit for unit, named in URL_MARKERS.items() if named.lower() == code)]


def prior_patterns(source: str, target: str) -> list[PairingPattern]:
    """4.5 with little prior knowledge: the patterns to try between two languages when no crawl
    has ranked any, most common on the web first (``shared/data/README.md``: a swapped
    directory or file-name code, then a ``lang=`` parameter, then a code added to the URL of an
    unmarked default language): <en,fr>, <lang=en,lang=fr>, <"",fr>, then the conventions."""
    first, second = url_markers(source), url_markers(target)
    patterns = [
        PairingPattern.of(first[0], second[0]),
        PairingPattern.of(f"lang={first[0]}", f"lang={second[0]}"),
        PairingPattern.of("", second[0]),
    ]
    patterns += [PairingPattern.of(a, b) for a in first for b in second]
    return list(dict.fromkeys(patterns))
