"""Sites whose pages carry no language links, with ground truth: for the detector entered from a
deep page (issue 50).

On much of the web a deep page has no language switcher: the language choice is on the home page,
or in a menu built by JavaScript. These sites have the shapes of such sites, their pages written
from the gettext catalogs' parallel messages (:mod:`.textsource`: a page and its translation say
the same messages), served only when their config is given (``sandbox serve --config
DIR/sandbox.toml``): no generated world and no real site changes, so no other benchmark sees
them. Each site is drawn at random (seeded) from these shapes:

- ``root_chooser``: each language's pages in a directory named by its code, below a prefix
  (``/browse/sv-SE/``, ``/docs/7.4/en-US/``, ``/manual/fr/``, ``/help/guide/pt_BR/``, ``/de/``);
  the code written bare, as BCP 47 (``fr-FR``), in lower case (``fr-fr``) or with ``_``
  (``fr_FR``). A page links its site's home page and the next pages of its language, never
  another language; the prefix's directories have no index page (HTTP 404); the home page
  (``/``) is the only language chooser (native names). Half the sites give each language
  directory an index (a list of its pages).
- ``suffix``: ``/guide/NAME.CODE.html`` (``intro.fr.html``), the chooser at the root.
- ``partly_translated``: ``root_chooser`` whose translations leave a third of the pages in
  English (the page at ``/fr-FR/x.html`` is English text).
- ``script_menu``: ``root_chooser`` whose every menu, the home page's chooser included, is written
  by ``/menu.js``: the HTML has no link at all (a crawl without a browser sees none).
- ``monolingual`` (not bilingual): one language, English or not, in the same layouts (its code
  in the path, a home page linking its start page).

Bilingual sites have English and one or two other languages (the catalogs' languages: regions
as sites write them, ``pt-BR``, ``zh-CN``). :func:`write_deep_sites` writes them under a
directory with their config (``sandbox.toml``) and their gold (``gold.json``: per host, its
shape, languages, bilingual or not, and its pages).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.entry_pages import LANGUAGE_NAMES
from bilingual_spider.sandbox.script_sites import script_built_page
from bilingual_spider.sandbox.sitemap_sites import SiteFiles, page_html, slug
from bilingual_spider.sandbox.textsource import TextSource

CONFIG_FILE = "sandbox.toml"
GOLD_FILE = "gold.json"
MENU_SCRIPT = "/menu.js"
SHAPES = ("root_chooser", "suffix", "partly_translated", "script_menu", "monolingual")
OTHER_LANGUAGES = ("fr", "es", "de", "ja", "zh-Hans", "pt-BR", "it", "ru", "ko")
PREFIXES = ("browse", "docs/7.4", "manual", "help/guide", "")
CODE_FORMS = ("bare", "bcp47", "lower", "underscore")
REGIONS = {
    "en": "US", "fr": "FR", "es": "ES", "de": "DE", "ja": "JP", "zh-Hans": "CN", "pt-BR": "BR",
    "it": "IT", "ru": "RU", "ko": "KR",
}  # fmt: skip
"""The region each language's locale is written with (``en-US``, ``zh-CN``)."""
WORDS = ("atlas", "harbor", "lumen", "quarry", "tundra", "vertex", "willow", "zephyr", "cobalt")


@dataclass(frozen=True)
class DeepSitesParams:
    seed: int = 50
    sites: int = 20
    pages: int = 8
    """Pages of each language of a site."""
    sentences: int = 6
    shape_weights: dict[str, float] = field(
        default_factory=lambda: {
            "root_chooser": 0.35,
            "suffix": 0.1,
            "partly_translated": 0.1,
            "script_menu": 0.1,
            "monolingual": 0.35,
        }
    )


def code_of(lang: str, form: str) -> str:
    """``lang`` as a directory or file unit in ``form``.

    >>> [code_of("pt-BR", f) for f in CODE_FORMS], code_of("zh-Hans", "bcp47")
    (['pt', 'pt-BR', 'pt-br', 'pt_BR'], 'zh-CN')
    """
    base = lang.split("-")[0]
    region = REGIONS[lang]
    if form == "bare":
        return base
    if form == "bcp47":
        return f"{base}-{region}"
    if form == "lower":
        return f"{base}-{region.lower()}"
    return f"{base}_{region}"


@dataclass(frozen=True)
class Layout:
    """Where a site's pages are: a language's pages' paths."""

    shape: str
    prefix: str
    form: str

    def path(self, lang: str, name: str) -> str:
        code = code_of(lang, self.form)
        if self.shape == "suffix":
            return f"/guide/{name}.{code}.html"
        prefix = f"/{self.prefix}" if self.prefix else ""
        return f"{prefix}/{code}/{name}.html"

    def language_root(self, lang: str) -> str | None:
        if self.shape == "suffix":
            return None
        prefix = f"/{self.prefix}" if self.prefix else ""
        return f"{prefix}/{code_of(lang, self.form)}/"


def _pool(text: TextSource, languages: list[str], titles: bool) -> list[int]:
    source = text.titles if titles else text.sentences
    return [
        i
        for i in source["en"]
        if all(lang in text.messages[i].translations for lang in languages if lang != "en")
    ]


def _menu_script(menus: dict[str, list[tuple[str, str]]]) -> str:
    """``/menu.js``: writes the menu of the page it runs on (``MENUS[location.pathname]``)."""
    return (
        f"var MENUS = {json.dumps(menus, ensure_ascii=False)};\n"
        "(function () {\n"
        "  var items = (MENUS[location.pathname] || []).map(function (l) {\n"
        "    return '<li><a href=\"' + l[0] + '\">' + l[1] + '</a></li>';\n"
        "  });\n"
        "  document.getElementById('menu').innerHTML = '<ul>' + items.join('') + '</ul>';\n"
        "})();\n"
    )


def _site(
    root: Path, host: str, shape: str, languages: list[str], text: TextSource, rng: random.Random,
    params: DeepSitesParams,
) -> tuple[SiteFiles, dict[str, Any]]:  # fmt: skip
    site = SiteFiles(root, host)
    layout = Layout(
        shape,
        rng.choice(PREFIXES),
        "bare" if shape == "suffix" else rng.choice(CODE_FORMS),
    )
    name = host.split(".")[1].capitalize()
    titles = rng.sample(_pool(text, languages, True), params.pages)
    sentence_pool = _pool(text, languages, False)
    texts = [rng.sample(sentence_pool, params.sentences) for _ in titles]
    taken: set[str] = set()
    names = [slug(text.messages[t].english, taken) for t in titles]
    untranslated = set(rng.sample(range(params.pages), params.pages // 3))
    scripted = shape == "script_menu"
    menus: dict[str, list[tuple[str, str]]] = {}
    for lang in languages:
        for k, (title, sentences) in enumerate(zip(titles, texts, strict=True)):
            shown = lang
            if shape == "partly_translated" and lang != "en" and k in untranslated:
                shown = "en"
            links = [("/", name)] + [
                (layout.path(lang, names[j]), text.messages[titles[j]].text(shown))
                for j in range(k + 1, min(k + 3, params.pages))
            ]
            heading = text.messages[title].text(shown)
            said = [text.messages[s].text(shown) for s in sentences]
            path = layout.path(lang, names[k])
            if scripted:
                site.write(path, script_built_page(shown, heading, said, MENU_SCRIPT))
                menus[path] = links
            else:
                site.write(path, page_html(shown, heading, said, links, name))
        index = layout.language_root(lang)
        if index and rng.random() < 0.5:
            links = [("/", name)] + [
                (layout.path(lang, names[j]), text.messages[titles[j]].text(lang))
                for j in range(params.pages)
            ]
            heading = LANGUAGE_NAMES.get(lang, (lang, lang))[0]
            said = [text.messages[s].text(lang) for s in texts[0][:2]]
            if scripted:
                site.write(index, script_built_page(lang, heading, said, MENU_SCRIPT))
                menus[index] = links
            else:
                site.write(index, page_html(lang, heading, said, links, name))
    chooser = [(layout.path(lang, names[0]), LANGUAGE_NAMES[lang][0]) for lang in languages]
    intro = [text.messages[s].text(languages[0]) for s in texts[0][:2]]
    if scripted:
        site.write("/", script_built_page(languages[0], name, intro, MENU_SCRIPT))
        menus["/"] = chooser
        site.write(MENU_SCRIPT, _menu_script(menus), page=False)
    else:
        site.write("/", page_html(languages[0], name, intro, chooser, name))
    truth = {
        "shape": shape,
        "languages": languages,
        "bilingual": len(languages) > 1,
        "layout": {"prefix": layout.prefix, "form": layout.form},
        "pages": site.pages,
    }
    return site, truth


def write_deep_sites(root: Path, text: TextSource, params: DeepSitesParams | None = None) -> Path:
    """Write ``params.sites`` sites under ``root`` with their config and gold; returns the
    config."""
    params = params or DeepSitesParams()
    rng = random.Random(params.seed)
    shapes, weights = zip(*params.shape_weights.items(), strict=True)
    sites: dict[str, tuple[SiteFiles, dict[str, Any]]] = {}
    for number in range(params.sites):
        shape = rng.choices(shapes, weights)[0]
        others = rng.sample(OTHER_LANGUAGES, rng.choice((1, 1, 2)))
        if shape == "monolingual":
            languages = [rng.choice(["en", "en", *OTHER_LANGUAGES])]
        else:
            languages = ["en", *others]
        host = f"www.{rng.choice(WORDS)}{params.seed}-{number}.example"
        sites[host] = _site(root, host, shape, languages, text, rng, params)
    config = root / CONFIG_FILE
    config.write_text(render_sandbox_toml([(h, "/", [s.dir]) for h, (s, _) in sites.items()]))
    gold = {host: truth for host, (_, truth) in sites.items()}
    (root / GOLD_FILE).write_text(json.dumps(gold, indent=1, ensure_ascii=False) + "\n")
    return config


def load_gold(root: Path) -> dict[str, Any]:
    """``gold.json`` of sites written by :func:`write_deep_sites`."""
    return json.loads((root / GOLD_FILE).read_text())


def deep_entries(gold: dict[str, Any], per_site: int, seed: int) -> list[tuple[str, bool, str]]:
    """``(URL, bilingual, host)``: ``per_site`` pages of each site drawn at random (seeded) from
    every page but its home page, in every language."""
    rng = random.Random(seed)
    entries = []
    for host, truth in sorted(gold.items()):
        deep = sorted(u for u in truth["pages"] if not u.endswith(f"{host}/"))
        for url in rng.sample(deep, min(per_site, len(deep))):
            entries.append((url, truth["bilingual"], host))
    return entries
