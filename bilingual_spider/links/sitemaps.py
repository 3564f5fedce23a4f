"""Sitemaps as a site publishes them: the pages it lists and the translations it names.

The sitemaps protocol (sitemaps.org, 0.9) lists a site's pages in XML files, ``<urlset>``, or
lists such files in an index, ``<sitemapindex>``; either may be gzip-compressed, a file holds at
most 50,000 URLs and 50 MB, and ``robots.txt`` announces them with ``Sitemap:`` lines (else
``/sitemap.xml`` is where they usually are). Search engines ask multilingual sites to name each
page's translations there (Google, *Tell Google about localized versions of your page*):

    <url><loc>https://x.org/en/a</loc>
      <xhtml:link rel="alternate" hreflang="en" href="https://x.org/en/a"/>
      <xhtml:link rel="alternate" hreflang="fr" href="https://x.org/fr/b"/></url>

One small file can thus name every pair of a site. This module reads them (bytes in, values
out; no I/O): :func:`sitemaps_from_robots`, :func:`parse_sitemap` (urlset, index or a plain-text
list of URLs; gzip or not; size- and count-bounded; broken XML read as far as lxml's recovering
parser gets, anything else an empty :class:`SitemapFile` with its ``error``) and
:class:`SiteSitemap`, the files of one site merged, which answers the alternates of a page.

Scrapy's ``scrapy.utils.sitemap.Sitemap`` keeps an alternate's ``href`` but drops its
``hreflang``, which is what this module is for; its parser's safety options are the ones used
here (no entities resolved, no network, comments dropped, recovering). Nothing here trusts a
sitemap: whatever it names is fetched and judged as any other page and pair.
"""

from __future__ import annotations

import zlib
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar
from urllib.parse import urljoin, urlsplit

from lxml import etree

from bilingual_spider.language.codes import normalize_language_code, same_language

MAX_SITEMAP_BYTES = 50 * 1024 * 1024
"""Largest sitemap read, decompressed (the protocol's limit); a larger one is cut there."""
MAX_SITEMAP_URLS = 50_000
"""Most ``<url>`` or ``<sitemap>`` entries read of one file (the protocol's limit)."""
URLSET, INDEX, TEXT, INVALID = "urlset", "sitemapindex", "text", "invalid"
"""What a file turned out to be."""
_GZIP_MAGIC = b"\x1f\x8b"
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SitemapFile:
    """What one sitemap file lists: its pages, the translations each names, or more sitemaps."""

    url: str
    kind: str
    """:data:`URLSET`, :data:`INDEX`, :data:`TEXT` or :data:`INVALID`."""
    pages: tuple[str, ...] = ()
    alternates: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    """``(page, ((language, url), ...))`` for each listed page that names translations."""
    sitemaps: tuple[str, ...] = ()
    """The files an index lists."""
    error: str = ""
    """Why nothing (or less than the whole file) was read: ``too_large``, ``not_xml``, ..."""


def sitemaps_from_robots(robots_txt: str, robots_url: str) -> list[str]:
    """The sitemap URLs a ``robots.txt`` announces (``Sitemap:`` lines, any case, anywhere in
    the file, relative URLs resolved against ``robots_url``), in order, once each."""
    found: dict[str, None] = {}
    for line in robots_txt.splitlines():
        name, colon, value = line.partition(":")
        if colon and name.strip().lower() == "sitemap":
            url = urljoin(robots_url, value.split("#", 1)[0].strip())
            if url.startswith(("http://", "https://")):
                found.setdefault(url, None)
    return list(found)


def default_sitemap_url(page_url: str) -> str:
    """Where a site's sitemap usually is when ``robots.txt`` names none: ``/sitemap.xml``."""
    parts = urlsplit(page_url)
    return f"{parts.scheme}://{parts.netloc}/sitemap.xml"


def decompressed(body: bytes, max_bytes: int = MAX_SITEMAP_BYTES) -> tuple[bytes, str]:
    """The body, gunzipped when it is gzip (by its magic number, whatever the URL or headers
    say), at most ``max_bytes`` of it; and ``""``, or why it was cut (``too_large``) or not
    read (``bad_gzip``)."""
    if not body.startswith(_GZIP_MAGIC):
        if len(body) > max_bytes:
            return body[:max_bytes], "too_large"
        return body, ""
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    try:
        data = inflater.decompress(body, max_bytes)
    except zlib.error:
        return b"", "bad_gzip"
    if inflater.unconsumed_tail:
        return data, "too_large"
    return data, ""


def parse_sitemap(
    body: bytes,
    url: str,
    max_bytes: int = MAX_SITEMAP_BYTES,
    max_urls: int = MAX_SITEMAP_URLS,
) -> SitemapFile:
    """One sitemap file read: ``body`` as fetched from ``url`` (gzip or not).

    Relative URLs are resolved against ``url``; only ``http(s)`` URLs are kept. Never raises on
    bad input: a file it cannot read is an :data:`INVALID` one with its ``error``.
    """
    data, error = decompressed(body, max_bytes)
    if error == "bad_gzip":
        return SitemapFile(url, INVALID, error=error)
    start = data.lstrip()[:1]
    if start and start != b"<":
        return _text_sitemap(data, url, max_urls, error)
    root = _xml_root(data)
    if root is None:
        return SitemapFile(url, INVALID, error=error or "not_xml")
    kind = _local_name(root.tag)
    if kind == INDEX:
        sitemaps = _limited(_entry_locs(root, "sitemap", url), max_urls)
        return SitemapFile(url, INDEX, sitemaps=tuple(dict.fromkeys(sitemaps)), error=error)
    if kind != URLSET:
        return SitemapFile(url, INVALID, error=error or f"root_{kind[:40]}")
    pages: dict[str, None] = {}
    alternates: dict[str, tuple[tuple[str, str], ...]] = {}
    for entry in _limited(_children(root, "url"), max_urls):
        loc = _loc(entry, url)
        if loc is None:
            continue
        pages.setdefault(loc, None)
        named = _hreflang_links(entry, url)
        if named and loc not in alternates:
            alternates[loc] = named
    return SitemapFile(url, URLSET, tuple(pages), tuple(alternates.items()), error=error)


def _text_sitemap(data: bytes, url: str, max_urls: int, error: str) -> SitemapFile:
    """A plain-text sitemap: one URL a line (UTF-8)."""
    lines = data.decode("utf-8", "replace").splitlines()
    urls = (_absolute(line.strip(), url) for line in lines)
    pages = _limited((u for u in urls if u), max_urls)
    return SitemapFile(url, TEXT, tuple(dict.fromkeys(pages)), error=error)


def _xml_root(data: bytes) -> etree._Element | None:
    parser = etree.XMLParser(
        recover=True,
        remove_comments=True,
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
    )
    try:
        root = etree.fromstring(data, parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    return root


def _local_name(tag: object) -> str:
    """``{namespace}urlset`` -> ``urlset``; a comment's or a processing instruction's: ""."""
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


def _children(element: etree._Element, name: str) -> Iterator[etree._Element]:
    return (child for child in element if _local_name(child.tag) == name)


def _loc(entry: etree._Element, base: str) -> str | None:
    for loc in _children(entry, "loc"):
        return _absolute((loc.text or "").strip(), base)
    return None


def _entry_locs(root: etree._Element, name: str, base: str) -> Iterator[str]:
    for entry in _children(root, name):
        loc = _loc(entry, base)
        if loc is not None:
            yield loc


def _hreflang_links(entry: etree._Element, base: str) -> tuple[tuple[str, str], ...]:
    """The ``<xhtml:link rel="alternate" hreflang href>`` of an entry: ``(language, url)`` with
    the language normalized as a page's ``hreflang`` is (``fr-ca`` -> ``fr``); ``x-default``
    and unknown codes left out, one URL per language (the first)."""
    named: dict[str, str] = {}
    for link in _children(entry, "link"):
        if "alternate" not in (link.get("rel") or "").lower().split():
            continue
        language = normalize_language_code((link.get("hreflang") or "").strip())
        href = _absolute((link.get("href") or "").strip(), base)
        if language and language != "x" and href:
            named.setdefault(language, href)
    return tuple(sorted(named.items()))


def _absolute(url: str, base: str) -> str | None:
    if not url or any(c in url for c in " \t\r\n\x00"):
        return None
    try:
        absolute = urljoin(base, url)
        parts = urlsplit(absolute)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return absolute


def _limited(items: Iterable[T], limit: int) -> Iterator[T]:
    for count, item in enumerate(items):
        if count >= limit:
            return
        yield item


@dataclass
class SiteSitemap:
    """The sitemap files read of one site, merged: its listed pages and the translations they
    name. ``alternates_of(url)`` is what a page's sitemap entries say are its translations."""

    files: list[SitemapFile] = field(default_factory=list)
    _named: dict[str, dict[str, str]] = field(default_factory=dict)
    _pages: dict[str, None] = field(default_factory=dict)

    def add(self, sitemap: SitemapFile) -> None:
        self.files.append(sitemap)
        for page in sitemap.pages:
            self._pages.setdefault(page, None)
        for page, named in sitemap.alternates:
            members = dict(named)
            for url in {page, *members.values()}:
                known = self._named.setdefault(url, {})
                for language, other in members.items():
                    if other != url:
                        known.setdefault(language, other)

    @property
    def page_count(self) -> int:
        return len(self._pages)

    @property
    def pages(self) -> list[str]:
        """Every page listed, in the order listed."""
        return list(self._pages)

    def alternates_of(self, url: str) -> tuple[tuple[str, str], ...]:
        """``(language, url)`` of each translation the sitemap names for ``url`` (an entry of
        its own, or one that lists it among its alternates)."""
        return tuple(sorted(self._named.get(url, {}).items()))

    def paired_pages(self, languages: Collection[str] = ()) -> list[str]:
        """The pages that are in a named translation group, each group's members together, in
        the order the sitemap first lists them: what to fetch to check its pairs.

        ``languages``: only the members the sitemap names in one of them (an entry's own page
        too when the sitemap says not its language), and only groups with two such members:
        a crawl for en-tr pairs need not fetch a group's ``fr``, ``ja`` and ``ko`` pages (on a
        manual in 11 languages, those were most of the pages a sitemap asked for)."""
        ordered: dict[str, None] = {}
        for sitemap in self.files:
            for page, named in sitemap.alternates:
                if languages:
                    members = [u for lang, u in named if _among(lang, languages)]
                    if page not in {u for _, u in named}:
                        members.insert(0, page)
                    if len(set(members)) < 2:
                        continue
                else:
                    members = [page, *(u for _, u in named)]
                for url in members:
                    ordered.setdefault(url, None)
        return list(ordered)

    def pairs(self) -> set[tuple[str, str]]:
        """Every unordered pair of different pages the sitemap names as translations (sorted
        tuples): what a crawl that reads it should find, if the sitemap is right."""
        found: set[tuple[str, str]] = set()
        for sitemap in self.files:
            for page, named in sitemap.alternates:
                urls = sorted({page, *(u for _, u in named)})
                found.update((a, b) for i, a in enumerate(urls) for b in urls[i + 1 :] if a != b)
        return found


def _among(language: str, languages: Collection[str]) -> bool:
    return any(same_language(language, wanted) for wanted in languages)
