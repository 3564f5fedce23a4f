"""Real multilingual sites published the way today's sites publish their translations (issue 37):
Debian documentation packages (``published_sites.toml``), their real text and real link
structure, served as a web-component design system writes them or with an hreflang sitemap.

The sites of ``real_sites.toml`` publish their translations in ``<a href>`` links; many sites do
not. Two styles (the ``publish`` field), each a pure function of a page or of a site's files:

- ``web_components`` (:func:`components_html`): every ``<a href>`` becomes a custom element
  with the same attributes and text, ``<TAG-nav-link href>`` for the navigation band (SiSU's
  ``target="_top"`` arrows) and ``<TAG-link href>`` elsewhere; after ``<body>`` a language toggle
  ``<TAG-header lang-href>`` whose label, as a component's, is drawn by its script (no text in
  the page): the English page's toggle leads to its French version, every other page's to its
  English one; before ``</body>`` a language menu of ``<TAG-lang-link href hreflang>`` (native
  names). The mount root is the English home (``home``), so rewritten: no page has an
  ``<a href>`` left. ``<a name>`` anchors (no link) are left as they are.
- ``hreflang_sitemap`` (:func:`sitemap_files`): the pages as they are; ``/robots.txt`` at the
  host's root announces ``PREFIX/sitemap.xml``, a sitemap index of one urlset a language
  (``PREFIX/sitemaps/LANG.xml``, the source language's first), as Hugo writes a multilingual
  site's: every served page, each with an ``<xhtml:link rel="alternate" hreflang>`` for every
  language its page has a file of its own in (itself included; an untranslated symlink is no
  translation and has none).

- ``script_menu`` (:func:`script_menu_html`): the pages as they are (their ``<a href>`` links
  within one language) and a language menu an inline script writes into an empty
  ``<div id="languages">`` (``innerHTML``, links with ``hreflang`` and native names), as sites
  whose menu is a script's do; the mount root is the English home, so extended. Without a browser
  no page of another language is linked.

Gold pairs come from the package's own files by the rule of :func:`~bilingual_spider.sandbox.
real_site_gold.derive_gold`, at the same URLs (the styles change no path). :func:`prepare` fetches
the packages (``apt-get download``, as ``sandbox fetch`` does; a package the real sites' cache
holds is copied from there) and writes, below ``CACHE/published_sites/`` (once per build key)::

    debs/ root/ stamps/ the packages, unpacked (apart from the real sites': their build key
                        counts what their tree holds)
    NAME/...            the published files of each site
    sandbox.toml        the sandbox server's [[mount]] config for them
    gold_pairs.tsv      as realsites' (src_url, tgt_url, src_lang, tgt_lang, site)
    gold_unjudged.tsv   as realsites'
    sitemap_pairs.tsv   src_url, tgt_url, src_lang, tgt_lang, site: the pairs a sitemap names
    sites.json          one summary per site (publish, seed_url, pages, gold and sitemap pairs)
"""

from __future__ import annotations

import hashlib
import json
import os
import posixpath
import re
import shutil
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from bilingual_spider.sandbox import debian_packages, realsites
from bilingual_spider.sandbox.atomic_files import exclusive_lock, write_atomically
from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.entry_pages import LANGUAGE_NAMES
from bilingual_spider.sandbox.page_text import declared_encoding
from bilingual_spider.sandbox.real_site import (
    PageFile,
    RealSite,
    group_by_page,
    page_files,
    served_html,
)
from bilingual_spider.sandbox.real_site_gold import SiteGold, derive_gold
from bilingual_spider.sandbox.site_claims import (
    FAULTS,
    claimed_alternates,
    claims_html,
    renamed_links,
    slug_href,
    toggle_html,
    toggle_slugs,
)
from bilingual_spider.sandbox.sitemap_sites import sitemap_index, urlset

DEFAULT_SITES_FILE = Path(__file__).with_name("published_sites.toml")
CACHE_SUBDIR = "published_sites"
STYLES = ("web_components", "hreflang_sitemap", "script_menu", "hreflang_claims", "toggle_only")
CONFIG_FILE = "sandbox.toml"
GOLD_PAIRS_FILE = "gold_pairs.tsv"
GOLD_UNJUDGED_FILE = "gold_unjudged.tsv"
SITEMAP_PAIRS_FILE = "sitemap_pairs.tsv"
SITES_FILE = "sites.json"
BUILD_KEY_FILE = "build.key"


@dataclass(frozen=True)
class PublishedSite:
    """A real site and how it is published."""

    site: RealSite
    publish: str
    tag: str = ""
    """The custom elements' prefix (``web_components``, ``toggle_only``)."""
    toggle_lang: str = ""
    """The language besides the source one (``toggle_only``)."""
    faults: Mapping[str, float] = field(default_factory=dict)
    """The share of documents or pages with each fault (``hreflang_claims``:
    :data:`~.site_claims.FAULTS`)."""

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> PublishedSite:
        rest = dict(values)
        publish, tag = str(rest.pop("publish", "")), str(rest.pop("tag", ""))
        toggle_lang = str(rest.pop("toggle_lang", ""))
        faults = {str(k): float(v) for k, v in dict(rest.pop("faults", {})).items()}
        site = RealSite.from_dict(rest)
        if publish not in STYLES:
            raise ValueError(f"site {site.name}: publish must be one of {', '.join(STYLES)}")
        tagged = publish in ("web_components", "toggle_only")
        if tagged and not re.fullmatch(r"[a-z][a-z0-9]*", tag):
            raise ValueError(f"site {site.name}: {publish} needs a tag (lower-case letters)")
        if publish == "toggle_only" and not toggle_lang:
            raise ValueError(f"site {site.name}: toggle_only needs a toggle_lang")
        if set(faults) - set(FAULTS):
            raise ValueError(f"site {site.name}: faults are {', '.join(FAULTS)}")
        return cls(site, publish, tag, toggle_lang, faults)

    @property
    def seed_url(self) -> str:
        """The mount root: the English home (web components, script menu, toggle), or the site's
        own root page (sitemap); the English home where it is (hreflang claims)."""
        if self.publish == "hreflang_claims" and self.site.home:
            return self.site.url(self.site.home)
        return self.site.seed_url


def load_published_sites(path: str | os.PathLike[str] | None = None) -> list[PublishedSite]:
    with Path(path or DEFAULT_SITES_FILE).open("rb") as f:
        data = tomllib.load(f)
    return [PublishedSite.from_dict(entry) for entry in data.get("site", [])]


# ---------------------------------------------------------------------------------------------
# Web components

_A_TAG = re.compile(r"<a\b([^>]*)>|</a\s*>", re.I)
_HREF = re.compile(r"\bhref\s*=", re.I)
_TARGET_TOP = re.compile(r"""\btarget\s*=\s*["']?_top\b""", re.I)
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.I)
_BODY_CLOSE = re.compile(r"</body\s*>", re.I)


def component_links(html: str, tag: str) -> str:
    """``html`` with every ``<a href>`` element a custom element of the same attributes and
    content: ``<TAG-nav-link>`` when it opens at the top (``target="_top"``, a navigation band),
    ``<TAG-link>`` otherwise. An ``<a>`` with no ``href`` (a named anchor) stays."""
    out, last, open_name = [], 0, "a"
    for found in _A_TAG.finditer(html):
        out.append(html[last : found.start()])
        last = found.end()
        attributes = found.group(1)
        if attributes is not None:
            open_name = "a"
            if _HREF.search(attributes):
                nav = _TARGET_TOP.search(attributes)
                open_name = f"{tag}-nav-link" if nav else f"{tag}-link"
            out.append(f"<{open_name}{attributes}>")
        else:  # an <a> opened before closes its element (HTML does not nest them)
            out.append(f"</{open_name}>")
            open_name = "a"
    out.append(html[last:])
    return "".join(out)


def components_html(
    html: str, tag: str, lang: str, toggle: str | None, menu: Sequence[tuple[str, str]]
) -> str:
    """A page in ``lang`` as a web-component design system publishes it: its links as custom
    elements (:func:`component_links`), the language toggle ``<TAG-header lang-href=toggle>``
    after ``<body>`` and a language menu of ``(language, href)`` before ``</body>``."""
    page = component_links(html, tag)
    lang_attribute = f' lang="{escape(lang)}"'
    header = f"<{tag}-header{lang_attribute}"
    header += f' lang-href="{escape(toggle)}"' if toggle else ""
    header += f"></{tag}-header>"
    items = "".join(
        f'<{tag}-lang-link href="{escape(href)}" hreflang="{escape(code)}" lang="{escape(code)}">'
        f"{escape(LANGUAGE_NAMES.get(code, (code, code))[0])}</{tag}-lang-link>"
        for code, href in menu
    )
    footer = f"<{tag}-lang-menu>{items}</{tag}-lang-menu>" if items else ""
    opened = _BODY_OPEN.search(page)
    at = opened.end() if opened else 0
    page = page[:at] + header + page[at:]
    closes = list(_BODY_CLOSE.finditer(page))
    at = closes[-1].start() if closes else len(page)
    return page[:at] + footer + page[at:]


def script_menu_html(html: str, menu: Sequence[tuple[str, str]]) -> str:
    """A page whose language menu of ``(language, href)`` a script writes: an empty
    ``<div id="languages">`` and an inline script that fills it, before ``</body>``."""
    translations = {code: [href, LANGUAGE_NAMES.get(code, (code, code))[0]] for code, href in menu}
    data = json.dumps(translations, ensure_ascii=False).replace("</", "<\\/")
    script = (
        '<div id="languages" class="language-menu"></div>\n<script>\n'
        f"var TRANSLATIONS = {data};\n"
        "(function () {\n"
        "  var items = [];\n"
        "  for (var code in TRANSLATIONS) {\n"
        "    items.push('<a href=\"' + TRANSLATIONS[code][0] + '\" hreflang=\"' + code +\n"
        "      '\" lang=\"' + code + '\">' + TRANSLATIONS[code][1] + '</a>');\n"
        "  }\n"
        "  document.getElementById('languages').innerHTML = items.join(' | ');\n"
        "})();\n</script>\n"
    )
    closes = list(_BODY_CLOSE.finditer(html))
    at = closes[-1].start() if closes else len(html)
    return html[:at] + script + html[at:]


def _relative_href(from_relative: str, to_relative: str) -> str:
    start = posixpath.dirname(from_relative) or "."
    return quote(posixpath.relpath(to_relative, start), safe="/")


def publish_pages(published: PublishedSite, served: Mapping[str, Path], out: Path) -> None:
    """Write the web-component or script-menu copy of the served files into ``out`` (and its
    home as ``index.html``)."""
    site = published.site
    groups = group_by_page(page_files(site, served))
    by_relative = {f.relative: f for by_lang in groups.values() for f in by_lang.values()}

    def rewrite(relative: str, as_relative: str) -> str:
        data = served[relative].read_bytes()
        html = data.decode(declared_encoding(data), errors="replace")
        page_file = by_relative.get(relative)
        if page_file is None:
            return component_links(html, published.tag) if published.tag else html
        versions = {
            lang: f for lang, f in groups[page_file.page].items() if not f.symlink or f is page_file
        }
        source = versions.get(site.source_lang)
        if page_file.lang == site.source_lang:
            target = versions.get("fr") or next(
                (f for lang, f in sorted(versions.items()) if lang != site.source_lang), None
            )
        else:
            target = source
        toggle = _relative_href(as_relative, target.relative) if target else None
        menu = [
            (lang, _relative_href(as_relative, f.relative))
            for lang, f in sorted(versions.items())
            if f is not page_file
        ]
        if published.publish == "script_menu":
            return script_menu_html(html, menu)
        return components_html(html, published.tag, page_file.lang, toggle, menu)

    shutil.rmtree(out, ignore_errors=True)
    for relative in served:
        target_path = out / relative
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target_path.write_text(rewrite(relative, relative), encoding="utf-8")
    if site.home and site.home in served:
        (out / "index.html").write_text(rewrite(site.home, "index.html"), encoding="utf-8")


def _read_html(path: Path) -> str:
    data = path.read_bytes()
    return data.decode(declared_encoding(data), errors="replace")


def publish_claims(published: PublishedSite, served: Mapping[str, Path], out: Path) -> dict:
    """Write the served files with their (partly wrong) hreflang claims into ``out``
    (:func:`~.site_claims.claimed_alternates`); return how many pages have each fault."""
    declared, faults = claimed_alternates(
        published.site, page_files(published.site, served), published.faults
    )
    shutil.rmtree(out, ignore_errors=True)
    for relative, path in served.items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        html = claims_html(_read_html(path), declared.get(relative, []))
        target.write_text(html, encoding="utf-8")
    return faults


def publish_toggle(published: PublishedSite, served: Mapping[str, Path], out: Path) -> dict:
    """Write the site's pages of two languages at translated slugs, each with a toggle to its
    other version as its one cross-language link (:mod:`.site_claims`), into ``out`` (the
    source language's home as ``index.html``); return old relative path -> new."""
    site = published.site
    files = page_files(site, served)
    moved = toggle_slugs(site, files, published.toggle_lang)
    slugs = {relative: new for relative, (new, _) in moved.items()}
    groups = group_by_page(f for _, f in moved.values())

    def rewrite(relative: str, as_relative: str) -> str:
        page_file = moved[relative][1]
        other = next((f for la, f in groups[page_file.page].items() if la != page_file.lang), None)
        toggle = slug_href(as_relative, slugs[other.relative]) if other else None
        html = renamed_links(_read_html(served[relative]), relative, as_relative, slugs)
        html = component_links(html, published.tag)
        return toggle_html(html, published.tag, page_file.lang, toggle)

    shutil.rmtree(out, ignore_errors=True)
    for relative, new in slugs.items():
        target = out / new
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rewrite(relative, new), encoding="utf-8")
    if site.home in slugs:
        (out / "index.html").write_text(rewrite(site.home, "index.html"), encoding="utf-8")
    return slugs


# ---------------------------------------------------------------------------------------------
# Sitemaps with hreflang


def sitemap_files(
    site: RealSite, served: Mapping[str, Path]
) -> tuple[dict[str, bytes], dict[str, bytes], list[tuple[str, str, str, str]]]:
    """``(root files, prefix files, sitemap pairs)`` of a site published with an hreflang
    sitemap: the files below the host's root (``robots.txt``) and below the site's prefix (the
    index and one urlset a language), and the (source url, target url, source language, target
    language) pairs its alternates name."""
    files = page_files(site, served)
    groups = group_by_page(files)
    by_relative = {f.relative: f for f in files}
    entries: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {}
    pairs = []
    for relative in served:
        page_file = by_relative.get(relative)
        alternates: list[tuple[str, str]] = []
        lang = site.source_lang
        if page_file is not None:
            lang = page_file.lang
            own = {la: f for la, f in groups[page_file.page].items() if not f.symlink}
            if not page_file.symlink and len(own) > 1:
                alternates = [(la, site.url(f.relative)) for la, f in sorted(own.items())]
        entries.setdefault(lang, []).append((site.url(relative), alternates))
    for by_lang in groups.values():
        own = {la: f for la, f in by_lang.items() if not f.symlink}
        source = own.get(site.source_lang)
        if source is None or len(own) < 2:
            continue
        for lang, f in sorted(own.items()):
            if lang != site.source_lang:
                pairs.append((site.url(source.relative), site.url(f.relative), source.lang, lang))
    order = sorted(entries, key=lambda la: (la != site.source_lang, la))
    prefix_files = {f"sitemaps/{la}.xml": urlset(entries[la]) for la in order}
    prefix_files["sitemap.xml"] = sitemap_index([site.url(f"sitemaps/{la}.xml") for la in order])
    robots = f"User-agent: *\nDisallow:\n\nSitemap: {site.url('sitemap.xml')}\n"
    return {"robots.txt": robots.encode()}, prefix_files, pairs


def _write_files(directory: Path, files: Mapping[str, bytes]) -> None:
    for relative, data in files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


# ---------------------------------------------------------------------------------------------
# Everything together


@dataclass(frozen=True)
class PublishedSites:
    """The published sites in the cache: where they are and what a crawl of them needs."""

    root: Path
    summaries: list[dict[str, Any]]

    @property
    def config(self) -> Path:
        return self.root / CONFIG_FILE

    def site(self, name: str) -> dict[str, Any]:
        return next(s for s in self.summaries if s["name"] == name)

    def _rows(self, name: str) -> list[list[str]]:
        text = (self.root / name).read_text(encoding="utf-8")
        return [line.split("\t") for line in text.splitlines() if line.strip()]

    def gold_pairs(self, site: str) -> list[tuple[str, str]]:
        return [(r[0], r[1]) for r in self._rows(GOLD_PAIRS_FILE) if r[4] == site]

    def sitemap_pairs(self, site: str) -> list[tuple[str, str, str, str]]:
        return [(r[0], r[1], r[2], r[3]) for r in self._rows(SITEMAP_PAIRS_FILE) if r[4] == site]

    def unjudged(self) -> list[list[str]]:
        return self._rows(GOLD_UNJUDGED_FILE)


def prepare(
    cache_dir: str | os.PathLike[str] | None = None,
    config_path: str | os.PathLike[str] | None = None,
) -> PublishedSites:
    """Fetch the packages (into the real-sites cache), publish each site and derive its gold;
    idempotent (nothing is done again while the build key is the same)."""
    cache = realsites.resolve_cache_dir(cache_dir)
    config = Path(config_path) if config_path else DEFAULT_SITES_FILE
    sites = load_published_sites(config)
    out = cache / CACHE_SUBDIR
    out.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(cache / ".lock"):  # one lock for the one cache
        root = fetch(cache, out, sites)
        digest = hashlib.sha256(realsites.build_key(out, config).encode())
        digest.update(Path(__file__).read_bytes())
        key = digest.hexdigest()
        key_file, sites_file = out / BUILD_KEY_FILE, out / SITES_FILE
        if key_file.is_file() and key_file.read_text().strip() == key and sites_file.is_file():
            return PublishedSites(out, json.loads(sites_file.read_text(encoding="utf-8")))
        summaries = build(out, root, sites)
        write_atomically(key_file, key + "\n")
    return PublishedSites(out, summaries)


def fetch(cache: Path, out: Path, sites: Sequence[PublishedSite]) -> Path:
    """``apt-get download`` and unpack the sites' packages into ``out`` (``debs/``, ``root/``,
    ``stamps/``, as :func:`~bilingual_spider.sandbox.debian_packages.fetch` does for ``cache``); a
    package the real sites' cache holds already is copied from there, not downloaded again.
    The real sites' own tree is left alone: what it holds is part of their build key."""
    debs = out / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for package in dict.fromkeys(p for published in sites for p in published.site.packages):
        shared = debian_packages.deb_file(cache / "debs", package)
        if shared is not None and debian_packages.deb_file(debs, package) is None:
            shutil.copyfile(shared, debs / shared.name)
    return debian_packages.fetch(out, [published.site for published in sites])


def toggle_gold(gold: SiteGold, site: RealSite, slugs: Mapping[str, str], lang: str) -> SiteGold:
    """The gold of a ``toggle_only`` site: its pairs of ``lang`` at their slugs' URLs."""
    prefix = site.url("")

    def moved(url: str) -> str:
        return site.url(posixpath.dirname(slugs[unquote(url[len(prefix) :])]) + "/")

    pairs = [
        replace(pair, source_url=moved(pair.source_url), target_url=moved(pair.target_url))
        for pair in gold.pairs
        if pair.target_lang == lang
    ]
    return replace(gold, pairs=pairs, unjudged=[])


def build(out: Path, root: Path, sites: Sequence[PublishedSite]) -> list[dict[str, Any]]:
    """Publish every site from the unpacked tree at ``root`` into ``out``; return sites.json."""
    mounts, gold_rows, unjudged, sitemap_rows, summaries = [], [], [], [], []
    for published in sites:
        site = published.site
        dirs = [root / d for d in site.dirs]
        served = served_html(dirs)
        files: list[PageFile] = page_files(site, served)
        gold = derive_gold(site, files)
        site_out = out / site.name
        sitemap_pairs: list[tuple[str, str, str, str]] = []
        extra: dict[str, Any] = {}
        if published.publish in ("web_components", "script_menu"):
            publish_pages(published, served, site_out / "pages")
            mounts.append((site.host, site.prefix, [site_out / "pages"]))
        elif published.publish == "hreflang_claims":
            extra["faults"] = publish_claims(published, served, site_out / "pages")
            mounts.append((site.host, site.prefix, [site_out / "pages"]))
        elif published.publish == "toggle_only":
            slugs = publish_toggle(published, served, site_out / "pages")
            mounts.append((site.host, site.prefix, [site_out / "pages"]))
            gold = toggle_gold(gold, site, slugs, published.toggle_lang)
        else:
            root_files, prefix_files, sitemap_pairs = sitemap_files(site, served)
            shutil.rmtree(site_out, ignore_errors=True)
            _write_files(site_out / "root", root_files)
            _write_files(site_out / "prefix", prefix_files)
            mounts.append((site.host, "/", [site_out / "root"]))
            mounts.append((site.host, site.prefix, [site_out / "prefix", *dirs]))
        gold_rows += [p.tsv() for p in gold.pairs]
        unjudged += ["\t".join(group) for group in gold.unjudged]
        sitemap_rows += ["\t".join((*p, site.name)) for p in sitemap_pairs]
        summary = realsites.site_summary(site, len(served), gold)
        summary.update(publish=published.publish, seed_url=published.seed_url, **extra)
        summary["sitemap_pairs"] = len(sitemap_pairs)
        summaries.append(summary)
    write = write_atomically
    write(out / CONFIG_FILE, render_sandbox_toml(mounts))
    write(out / GOLD_PAIRS_FILE, "".join(row + "\n" for row in gold_rows))
    write(out / GOLD_UNJUDGED_FILE, "".join(row + "\n" for row in unjudged))
    write(out / SITEMAP_PAIRS_FILE, "".join(row + "\n" for row in sitemap_rows))
    write(out / SITES_FILE, json.dumps(summaries, indent=2, ensure_ascii=False) + "\n")
    return summaries
