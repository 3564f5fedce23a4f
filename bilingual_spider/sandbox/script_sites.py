"""Sites whose links exist only once JavaScript runs, with ground truth: for rendering crawls
(``BILINGUAL_RENDER_JS``, ``docs/rendering.md``).

Three English-French sites, their pages written from the gettext catalogs' parallel messages
(:mod:`.textsource`), served only when their config is given (``sandbox serve --config
DIR/sandbox.toml``): no generated world and no real site changes, so no other benchmark sees them.

- ``www.script-built-atelier.org`` (:data:`APP_HOST`): every page's HTML is text and an empty
  ``<nav>``; ``/site.js`` (an external script) writes the navigation and the language switcher
  into it. The raw HTML has no link at all (reason ``no_links``).
- ``www.script-switcher-journal.org`` (:data:`SWITCHER_HOST`): plain ``<a>`` links between the
  pages of one language; the switcher to the other language is written by an inline
  ``document.write`` (reason ``script_switcher``). Its home links only the English pages, so
  without a browser the French pages are never seen.
- ``www.plain-html-almanac.org`` (:data:`PLAIN_HOST`): the same pages with plain ``<a>``
  switchers and an analytics-like script: a browser adds nothing, and it must never be rendered.

:func:`write_script_sites` writes them under a directory with their config (``sandbox.toml``)
and their gold (``gold.json``: per host, the pages, the true pairs and the reason
:func:`~bilingual_spider.links.script_links.render_reason` should give, or null).
"""

from __future__ import annotations

import html
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.sitemap_sites import DrawnText, SiteFiles, page_html, slug
from bilingual_spider.sandbox.textsource import TextSource

APP_HOST = "www.script-built-atelier.org"
SWITCHER_HOST = "www.script-switcher-journal.org"
PLAIN_HOST = "www.plain-html-almanac.org"
CONFIG_FILE = "sandbox.toml"
GOLD_FILE = "gold.json"
NAMES = {"en": "English", "fr": "Français"}
OTHER = {"en": "fr", "fr": "en"}


@dataclass(frozen=True)
class ScriptSitesParams:
    seed: int = 3737
    pairs: int = 8
    """English-French pairs of each site."""
    sentences: int = 6


@dataclass
class _Pages:
    """The titles, sentences and paths of one site's pairs. Paths have translated slugs
    (``/en/annual-report.html``, ``/fr/rapport-annuel.html``), so no URL pattern guesses a
    page's translation: only a link to it does."""

    titles: list[int]
    texts: list[list[int]]
    paths: list[dict[str, str]]

    @classmethod
    def draw(cls, text: DrawnText, params: ScriptSitesParams) -> _Pages:
        titles = [text.bilingual_title() for _ in range(params.pairs)]
        taken: dict[str, set[str]] = {"en": set(), "fr": set()}
        paths = [
            {lang: f"/{lang}/{slug(text.say(t, lang), taken[lang])}.html" for lang in NAMES}
            for t in titles
        ]
        return cls(titles, [text.sentences("fr", params.sentences) for _ in titles], paths)


def script_built_page(lang: str, title: str, sentences: list[str], script: str = "/site.js") -> str:
    """A page whose links ``script`` writes: no ``<a>`` in its HTML."""
    body = "".join(f"<p>{html.escape(s)}</p>" for s in sentences)
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title></head><body>"
        f'<nav id="menu"></nav><div id="content"><h1>{html.escape(title)}</h1>{body}</div>'
        f'<script src="{html.escape(script)}"></script></body></html>\n'
    )


def _app_script(menu: dict[str, list[tuple[str, str]]]) -> str:
    """``/site.js``: in ``#menu``, the home and contact pages, the page's next two pages of its
    language and its translation."""
    return (
        f"var PAGES = {json.dumps(menu, ensure_ascii=False)};\n"
        f"var NAMES = {json.dumps(NAMES, ensure_ascii=False)};\n"
        "(function () {\n"
        "  var lang = document.documentElement.lang, path = location.pathname, items = [];\n"
        "  function link(url, text) {\n"
        "    return '<li><a href=\"' + url + '\">' + text + '</a></li>';\n"
        "  }\n"
        "  if (path === '/') {\n"
        "    items.push(link(PAGES.en[0][0], NAMES.en), link(PAGES.fr[0][0], NAMES.fr));\n"
        "  } else {\n"
        "    var pages = PAGES[lang], other = lang === 'en' ? 'fr' : 'en', k = -1;\n"
        "    items.push(link('/', 'Atelier'), link('/contact.html', 'Contact'));\n"
        "    for (var i = 0; i < pages.length; i++) { if (pages[i][0] === path) { k = i; } }\n"
        "    for (var j = k + 1; j < Math.min(k + 3, pages.length); j++) {\n"
        "      items.push(link(pages[j][0], pages[j][1]));\n"
        "    }\n"
        "    if (k >= 0) { items.push(link(PAGES[other][k][0], NAMES[other])); }\n"
        "  }\n"
        "  document.getElementById('menu').innerHTML = '<ul>' + items.join('') + '</ul>';\n"
        "})();\n"
    )


def _app_site(root: Path, text: DrawnText, params: ScriptSitesParams) -> SiteFiles:
    site = SiteFiles(root, APP_HOST)
    pages = _Pages.draw(text, params)
    menu: dict[str, list[tuple[str, str]]] = {"en": [], "fr": []}
    for k, (title, sentences) in enumerate(zip(pages.titles, pages.texts, strict=True)):
        for lang in ("en", "fr"):
            said = [text.say(s, lang) for s in sentences]
            path = pages.paths[k][lang]
            site.write(path, script_built_page(lang, text.say(title, lang), said))
            menu[lang].append((path, text.say(title, lang)))
        site.gold.append((site.url(pages.paths[k]["en"]), site.url(pages.paths[k]["fr"])))
    intro = [text.say(s, "en") for s in pages.texts[0][:2]]
    site.write("/", script_built_page("en", "Atelier", intro))
    site.write("/site.js", _app_script(menu), page=False)
    return site


def _linked_site(
    root: Path, host: str, text: DrawnText, params: ScriptSitesParams, scripted: bool
) -> SiteFiles:
    """English and French pages, each linking the next two of its language;
    the switcher a plain link, or (``scripted``) written by ``document.write``."""
    site = SiteFiles(root, host)
    name = host.split(".")[1]
    pages = _Pages.draw(text, params)
    for k, (title, sentences) in enumerate(zip(pages.titles, pages.texts, strict=True)):
        for lang in ("en", "fr"):
            other = OTHER[lang]
            nav = [
                (pages.paths[j][lang], text.say(pages.titles[j], lang))
                for j in range(k + 1, min(k + 3, params.pairs))
            ]
            switcher = [] if scripted else [(pages.paths[k][other], NAMES[other])]
            said = [text.say(s, lang) for s in sentences]
            page = page_html(lang, text.say(title, lang), said, [*switcher, *nav], name)
            if scripted:
                written = f'<a href="{pages.paths[k][other]}">{NAMES[other]}</a>'
                script = f"<script>document.write('{written}');</script>"
            else:
                script = "<script>window.dataLayer = window.dataLayer || [];</script>"
            site.write(pages.paths[k][lang], page.replace("</body>", f"{script}</body>"))
        site.gold.append((site.url(pages.paths[k]["en"]), site.url(pages.paths[k]["fr"])))
    home = [(pages.paths[0]["en"], NAMES["en"])]
    if not scripted:
        home.append((pages.paths[0]["fr"], NAMES["fr"]))
    intro = [text.say(s, "en") for s in pages.texts[0][:2]]
    site.write("/", page_html("en", name, intro, home, name))
    return site


def write_script_sites(
    root: Path, text: TextSource, params: ScriptSitesParams | None = None
) -> Path:
    """Write the three sites under ``root`` with their config and gold; returns the config."""
    params = params or ScriptSitesParams()
    text.require(["en", "fr"])
    writer = DrawnText(text, random.Random(params.seed), set())
    sites = {
        APP_HOST: (_app_site(root, writer, params), "no_links"),
        SWITCHER_HOST: (_linked_site(root, SWITCHER_HOST, writer, params, True), "script_switcher"),
        PLAIN_HOST: (_linked_site(root, PLAIN_HOST, writer, params, False), None),
    }
    config = root / CONFIG_FILE
    config.write_text(render_sandbox_toml([(h, "/", [s.dir]) for h, (s, _) in sites.items()]))
    gold: dict[str, Any] = {
        host: {**site.truth(), "render_reason": reason} for host, (site, reason) in sites.items()
    }
    (root / GOLD_FILE).write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n")
    return config


def load_gold(root: Path) -> dict[str, Any]:
    """``gold.json`` of sites written by :func:`write_script_sites`."""
    return json.loads((root / GOLD_FILE).read_text())
