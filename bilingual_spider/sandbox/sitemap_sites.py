"""Sites that publish sitemaps the way real ones do, with ground truth: for sitemap crawls.

Three English-French sites, their pages written from the gettext catalogs' parallel messages
(:mod:`.textsource`: a page and its translation say the same messages), served only when their
config is given (``sandbox serve --config DIR/sandbox.toml``): no generated world and no real
site changes, so no other benchmark sees them.

- ``www.hreflang-sitemap-archive.org`` (:data:`ARCHIVE_HOST`): a large English archive (chained
  pages, each linking the next three) with a small translated core whose pages have translated
  slugs (``/en/annual-report/`` and ``/fr/rapport-annuel/``) and name no translation in their
  HTML: the English home links only the French home, which lists the French pages; the English
  translated pages are linked only from deep in the archive. Its ``robots.txt`` announces a
  gzip-compressed sitemap index (``/sitemaps/index.xml.gz``) of a gzip urlset of the archive
  and a plain urlset of the translated pages with ``<xhtml:link rel="alternate" hreflang>``.
  The sitemap is partly stale or wrong, as real ones are: one listed French alternate is gone
  (404) and one is an English page (an untranslated fallback). The gold pairs are the
  translated pages' true pairs, not what the sitemap says.
- ``www.plain-sitemap-docs.org`` (:data:`PLAIN_HOST`): ``/en/page-N.html`` and
  ``/fr/page-N.html`` with language switchers, a plain ``/sitemap.xml`` (no hreflang, not
  announced in ``robots.txt``, which it has none of) that also lists a few pairs no page links.
- ``www.broken-sitemap-guide.org`` (:data:`BROKEN_HOST`): the same shape as the plain site,
  whose ``robots.txt`` announces a sitemap that is gone, one cut off mid-file and one that is an
  HTML page; a crawl must not suffer from them.

:func:`write_sitemap_sites` writes them under a directory with their config (``sandbox.toml``)
and their gold (``gold.json``: per host, the pages, the true pairs and the pairs the sitemap
names).
"""

from __future__ import annotations

import gzip
import html
import json
import random
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.textsource import TextSource

ARCHIVE_HOST = "www.hreflang-sitemap-archive.org"
PLAIN_HOST = "www.plain-sitemap-docs.org"
BROKEN_HOST = "www.broken-sitemap-guide.org"
CONFIG_FILE = "sandbox.toml"
GOLD_FILE = "gold.json"
XHTML = "http://www.w3.org/1999/xhtml"
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@dataclass(frozen=True)
class SitemapSitesParams:
    """Sizes of the three sites."""

    seed: int = 37
    archive_pages: int = 960
    """English-only archive pages of the archive site."""
    translated_pairs: int = 40
    """True English-French pairs of the archive site (named in its sitemap)."""
    linked_from: int = 800
    """The archive pages from this one on link the English translated pages (one each)."""
    docs_pairs: int = 24
    """Pairs of the plain and the broken site."""
    orphan_pairs: int = 4
    """Pairs of the plain site no page links: only its sitemap lists them."""
    sentences: int = 8


@dataclass
class DrawnText:
    """Titles and sentences of the text source drawn for the pages of generated sites, each title
    once (``used_titles``)."""

    source: TextSource
    rng: random.Random
    used_titles: set[int]

    def bilingual_title(self) -> int:
        pool = [i for i in self.source.titles["fr"] if i not in self.used_titles]
        chosen = self.rng.choice(pool)
        self.used_titles.add(chosen)
        return chosen

    def sentences(self, language: str, count: int) -> list[int]:
        return self.rng.sample(self.source.sentences[language], count)

    def say(self, index: int, language: str) -> str:
        return self.source.messages[index].text(language)


def slug(text: str, taken: set[str]) -> str:
    """``Rapport annuel (2024)`` -> ``rapport-annuel-2024``; unique among ``taken``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60] or "page"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    taken.add(name)
    return name


def page_html(
    language: str, title: str, sentences: list[str], links: list[tuple[str, str]], site: str
) -> str:
    """A plain page: title, paragraphs, its links in a menu and a footer."""
    menu = "".join(f'<li><a href="{html.escape(u)}">{html.escape(t)}</a></li>' for u, t in links)
    body = "".join(
        f"<p>{html.escape(' '.join(sentences[i : i + 3]))}</p>" for i in range(0, len(sentences), 3)
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)} - {html.escape(site)}</title></head><body>"
        f'<div id="header"><a href="/">{html.escape(site)}</a></div><ul id="menu">{menu}</ul>'
        f'<div id="content"><h1>{html.escape(title)}</h1>{body}</div>'
        f'<div id="footer"><a href="/contact.html">Contact</a></div></body></html>\n'
    )


def urlset(entries: list[tuple[str, list[tuple[str, str]]]]) -> bytes:
    """A ``<urlset>``: each page with its ``(hreflang, url)`` alternates."""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<urlset xmlns="{SITEMAP_NS}" xmlns:xhtml="{XHTML}">',
    ]
    for loc, alternates in entries:
        links = "".join(
            f'<xhtml:link rel="alternate" hreflang="{lang}" href="{html.escape(url)}"/>'
            for lang, url in alternates
        )
        lines.append(f"<url><loc>{html.escape(loc)}</loc>{links}</url>")
    lines.append("</urlset>")
    return ("\n".join(lines) + "\n").encode()


def sitemap_index(urls: list[str]) -> bytes:
    entries = "".join(f"<sitemap><loc>{html.escape(u)}</loc></sitemap>" for u in urls)
    xml = f'<?xml version="1.0"?>\n<sitemapindex xmlns="{SITEMAP_NS}">{entries}</sitemapindex>\n'
    return xml.encode()


class SiteFiles:
    """Files of one host being written, and its truth."""

    def __init__(self, root: Path, host: str) -> None:
        self.host = host
        self.dir = root / host
        self.pages: list[str] = []
        self.gold: list[tuple[str, str]] = []
        self.sitemap_pairs: list[tuple[str, str]] = []

    def url(self, path: str) -> str:
        return f"http://{self.host}{path}"

    def write(self, path: str, body: str | bytes, page: bool = True) -> None:
        target = self.dir / (path.lstrip("/") + ("index.html" if path.endswith("/") else ""))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body.encode() if isinstance(body, str) else body)
        if page:
            self.pages.append(self.url(path))

    def truth(self) -> dict[str, Any]:
        return {
            "pages": len(self.pages),
            "gold_pairs": [list(p) for p in self.gold],
            "sitemap_pairs": [list(p) for p in self.sitemap_pairs],
        }


def _archive_site(root: Path, text: DrawnText, params: SitemapSitesParams) -> SiteFiles:
    site = SiteFiles(root, ARCHIVE_HOST)
    name = "Archive"
    taken: dict[str, set[str]] = {"en": set(), "fr": set()}
    groups = []
    for _ in range(params.translated_pairs + 2):  # two more: the sitemap's stale entries
        title = text.bilingual_title()
        sentences = text.sentences("fr", params.sentences)
        paths = {
            lang: f"/{lang}/{slug(text.say(title, lang), taken[lang])}/" for lang in ("en", "fr")
        }
        groups.append((title, sentences, paths))
    true_groups, fallback = groups[: params.translated_pairs], groups[-1]
    english_pages = [g[2]["en"] for g in groups]
    # the translated pages: each language's in its language; links home, contact, a shared page
    for k, (title, sentences, paths) in enumerate(groups):
        for lang in ("en", "fr"):
            if k == len(groups) - 2 and lang == "fr":
                continue  # listed in the sitemap, never published (404)
            language = "en" if k == len(groups) - 1 else lang  # the last: an untranslated copy
            home = "/fr/" if lang == "fr" else "/"
            links = [(home, name), ("/about/", "About")]
            said = [text.say(s, language) for s in sentences]
            site.write(paths[lang], page_html(lang, text.say(title, language), said, links, name))
    for _, _, paths in true_groups:
        site.gold.append((site.url(paths["en"]), site.url(paths["fr"])))
    french_links = [(g[2]["fr"], text.say(g[0], "fr")) for g in true_groups + [fallback]]
    site.write("/fr/", page_html("fr", "Accueil", [], [("/", "English"), *french_links], name))
    archive = [f"/archive/{k}.html" for k in range(1, params.archive_pages + 1)]
    home_links = [(archive[0], "Archive"), ("/fr/", "Français"), ("/about/", "About")]
    intro = [text.say(s, "en") for s in text.sentences("en", 3)]
    site.write("/", page_html("en", name, intro, home_links, name))
    site.write("/about/", page_html("en", "About", intro, [("/", name)], name))
    for k, path in enumerate(archive):
        following = [
            (archive[j], f"Archive {j + 1}") for j in range(k + 1, min(k + 4, len(archive)))
        ]
        deep = k - params.linked_from
        if 0 <= deep < len(english_pages):
            following.append((english_pages[deep], "Report"))
        said = [text.say(s, "en") for s in text.sentences("en", params.sentences)]
        site.write(path, page_html("en", f"Archive {k + 1}", said, [("/", name), *following], name))
    site.write(
        "/robots.txt",
        "User-agent: *\nDisallow: /private/\n\nSitemap: /sitemaps/index.xml.gz\n",
        page=False,
    )
    translated = []
    for _, _, paths in groups:
        alternates = [("en", site.url(paths["en"])), ("fr", site.url(paths["fr"]))]
        translated += [(site.url(paths["en"]), alternates), (site.url(paths["fr"]), alternates)]
        site.sitemap_pairs.append((site.url(paths["en"]), site.url(paths["fr"])))
    plain = [(site.url(p), []) for p in ["/", "/about/", "/fr/", *archive]]
    site.write("/sitemaps/archive.xml.gz", gzip.compress(urlset(plain), mtime=0), page=False)
    site.write("/sitemaps/translations.xml", urlset(translated), page=False)
    index = sitemap_index(
        [site.url("/sitemaps/archive.xml.gz"), site.url("/sitemaps/translations.xml")]
    )
    site.write("/sitemaps/index.xml.gz", gzip.compress(index, mtime=0), page=False)
    return site


def _docs_site(
    root: Path, host: str, text: DrawnText, pairs: int, orphans: int, sentences: int
) -> SiteFiles:
    """``/en/page-N.html`` and ``/fr/page-N.html`` with switchers; the last ``orphans`` pairs
    linked by no page."""
    site = SiteFiles(root, host)
    name = host.split(".")[1]
    titles = [text.bilingual_title() for _ in range(pairs)]
    texts = [text.sentences("fr", sentences) for _ in range(pairs)]
    linked = pairs - orphans
    for k in range(pairs):
        for lang, other, label in (("en", "fr", "Français"), ("fr", "en", "English")):
            nav = [
                (f"/{lang}/page-{j}.html", text.say(titles[j], lang))
                for j in range(k + 1, min(k + 3, linked))
            ]
            links = [(f"/{other}/page-{k}.html", label), *nav]
            said = [text.say(s, lang) for s in texts[k]]
            site.write(
                f"/{lang}/page-{k}.html",
                page_html(lang, text.say(titles[k], lang), said, links, name),
            )
        site.gold.append((site.url(f"/en/page-{k}.html"), site.url(f"/fr/page-{k}.html")))
    home = [("/en/page-0.html", "English"), ("/fr/page-0.html", "Français")]
    site.write("/", page_html("en", name, [text.say(s, "en") for s in texts[0][:2]], home, name))
    return site


def write_sitemap_sites(
    root: Path, text: TextSource, params: SitemapSitesParams | None = None
) -> Path:
    """Write the three sites under ``root`` with their config and gold; returns the config."""
    params = params or SitemapSitesParams()
    text.require(["en", "fr"])
    writer = DrawnText(text, random.Random(params.seed), set())
    archive = _archive_site(root, writer, params)
    plain = _docs_site(
        root, PLAIN_HOST, writer, params.docs_pairs, params.orphan_pairs, params.sentences
    )
    plain.write("/sitemap.xml", urlset([(u, []) for u in plain.pages]), page=False)
    broken = _docs_site(root, BROKEN_HOST, writer, params.docs_pairs, 0, params.sentences)
    broken.write(
        "/robots.txt",
        "User-agent: *\nSitemap: /gone.xml\nSitemap: /cut.xml\nSitemap: /page.xml\n",
        page=False,
    )
    whole = urlset(
        [
            (broken.url(f"/en/page-{k}.html"), [("fr", broken.url(f"/fr/page-{k}.html"))])
            for k in range(3)
        ]
    )
    broken.write("/cut.xml", whole[: len(whole) // 2] + b"<url><loc>http://\x00\xff", page=False)
    broken.write("/page.xml", b"<!DOCTYPE html><html><body><p>Moved</p></body></html>", page=False)
    sites = [archive, plain, broken]
    config = root / CONFIG_FILE
    config.write_text(render_sandbox_toml([(s.host, "/", [s.dir]) for s in sites]))
    (root / GOLD_FILE).write_text(json.dumps({s.host: s.truth() for s in sites}, indent=1) + "\n")
    return config


def load_gold(root: Path) -> dict[str, Any]:
    """``gold.json`` of sites written by :func:`write_sitemap_sites`."""
    return json.loads((root / GOLD_FILE).read_text())
