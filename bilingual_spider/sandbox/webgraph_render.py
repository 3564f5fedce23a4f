"""URLs and HTML of a planned world (:mod:`bilingual_spider.sandbox.webgraph`). Pure functions.

Every page is rendered together with the list of links it carries, so the engine index (what the
search/backlink API knows) is exactly what the HTML holds.

URL layouts of a site's language versions (``tok`` is the language's token in the site's style:
``es``, ``spanish``, ``es-es``, ``tc``):

============  =====================================  ==========================================
layout        page                                   home
============  =====================================  ==========================================
directory     ``/tok/slug.html``                     ``/tok/`` (primary maybe at ``/``)
filename      ``/slug_tok.html``                     ``/index_tok.html``
parameter     ``/slug.php?lang=tok``                 ``/index.php?lang=tok``
suffix        ``/slug.html.tok``                     ``/index.html.tok``
subdomain     ``http://tok.domain/slug.html``        ``http://tok.domain/``
cctld         ``http://www.name.cc/slug.html``       ``http://www.name.cc/``
unpatterned   ``/tok4x7q-3.html`` (unrelated names)  same
============  =====================================  ==========================================

Layouts whose primary home is not ``/`` get a splash page at ``/`` that links every language: a
language chooser whose labels are the site's switcher style (native names, English names, codes,
or flags with their alt), with or without ``hreflang``.

A site's switcher sits where its ``switcher_placement`` says (:data:`SWITCHER_PLACEMENTS`):
``header`` (``A | B`` in the header bar), ``footer`` ("Other languages: A, B"), ``select`` (a
``<select>`` menu; the URLs are in its options' values, followed by an ``onchange`` script), or
``list`` (a ``<ul>`` in a sidebar). A page's ``links`` list every one of them, options included.
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass

from bilingual_spider.sandbox.engine_index import stable_hash64
from bilingual_spider.sandbox.webgraph import Site, World, chosen_by_hash
from bilingual_spider.sandbox.webgraph_params import LANGUAGES, SWITCHER_PLACEMENTS

SNIPPET_CHARS = 200
OTHER_LANGUAGES = {
    "en": "Other languages", "es": "Otros idiomas", "fr": "Autres langues",
    "de": "Andere Sprachen", "ja": "他の言語", "zh-Hans": "其他语言", "zh-Hant": "其他語言",
    "ko": "다른 언어",
}  # fmt: skip
"""The heading of a footer switcher, in the page's language."""
LANGUAGES_HEADING = {
    "en": "Languages", "es": "Idiomas", "fr": "Langues", "de": "Sprachen", "ja": "言語",
    "zh-Hans": "语言", "zh-Hant": "語言", "ko": "언어",
}  # fmt: skip
"""The heading of a sidebar switcher, in the page's language."""
SELECT_ONCHANGE = "if (this.value) window.location.href = this.value;"


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    anchor: str


@dataclass(frozen=True, slots=True)
class RenderedPage:
    url: str
    language: str  # "" for a splash page
    title: str
    html: str
    links: tuple[Link, ...]
    text: str


def page_url(site: Site, language: str, page: int) -> str:
    """The URL of ``page`` of ``site`` in ``language`` (whether or not it exists)."""
    host = site.hosts[language]
    token = LANGUAGES[language].url_tokens[site.url_tokens]
    primary = language == site.primary
    slug = site.slugs[page]
    layout = site.layout
    if site.marker_shape:
        return f"http://{host}{shaped_path(site, language, page)}"
    if layout == "unpatterned" and not primary:
        return f"http://{host}/{site.slugs_by_language[language][page]}.html"
    if layout in ("plain", "subdomain", "cctld", "unpatterned") or (
        layout == "directory" and primary and site.primary_at_root
    ):
        path = "/" if page == 0 else f"/{slug}.html"
    elif layout == "directory":
        path = f"/{token}/" if page == 0 else f"/{token}/{slug}.html"
    elif layout == "parameter":
        path = f"/{slug}.php?lang={token}"
    elif layout == "suffix":
        path = f"/{slug}.html.{token}"
    elif layout == "filename":
        path = f"/{slug}_{token}.html"
    else:
        raise ValueError(f"unknown layout {layout!r}")
    return f"http://{host}{path}"


def shaped_path(site: Site, language: str, page: int) -> str:
    """The path of ``page`` in ``language`` on a site of a :data:`~.webgraph.MARKER_SHAPES`
    shape: ``/report.asp`` and ``/report_f.asp``, ``/news123e.html``, ``/docs-e/10.htm``,
    ``/guide.php?Lang=2``, ``/article.php?id=7`` and ``/article.php?id=7&lang=2``. The
    primary language is unmarked in the one-sided shapes and number 1 in the numeric ones."""
    slug = site.slugs[page]
    primary = language == site.primary
    initial = language[0]  # e, f: English-French sites only
    number = site.languages.index(language) + 1
    shape = site.marker_shape
    if shape == "one_sided":
        mark = "f" if language == "fr" else LANGUAGES[language].url_tokens["code"]
        return f"/{slug}.asp" if primary else f"/{slug}_{mark}.asp"
    if shape == "glued_initial":
        return f"/{slug}{100 + page}{initial}.html"
    if shape == "initial_directory":
        return f"/docs-{initial}/{page}.htm"
    if shape == "numeric":
        return f"/{slug}.php?Lang={number}"
    if shape == "numeric_one_sided":
        query = f"id={page}" if primary else f"id={page}&lang={number}"
        return f"/article.php?{query}"
    raise ValueError(f"unknown marker shape {shape!r}")


def root_url(site: Site) -> str:
    return f"http://{site.hosts[site.primary]}/"


def has_splash(site: Site) -> bool:
    """Whether ``/`` of the primary host is a language chooser rather than the home page."""
    return page_url(site, site.primary, 0) != root_url(site)


def hub_url(site: Site, slug: str) -> str:
    return f"http://{site.hosts[site.primary]}/{slug}.html"


def gone_url(site: Site, page: int) -> str:
    return f"http://{site.hosts[site.primary]}/old/{site.slugs[page]}-{page}.html"


def display_name(site: Site) -> str:
    return site.name[:1].upper() + site.name[1:]


def switcher_languages(site: Site) -> list[str]:
    if site.decoy == "switcher_without_translation":
        return [site.primary, site.second_language]
    return list(site.languages) if site.switcher else []


def page_exists(site: Site, language: str, page: int) -> bool:
    return language == site.primary or page in site.translated.get(language, ())


def switcher_placement(site: Site) -> str:
    """Where the site's switcher sits (:data:`SWITCHER_PLACEMENTS`; a site never drawn one: the
    header)."""
    placement = site.switcher_placement or "header"
    if placement not in SWITCHER_PLACEMENTS:
        raise ValueError(f"unknown switcher placement {placement!r}")
    return placement


def switcher_label(site: Site, language: str) -> str:
    """The text naming ``language`` in the site's switcher style: its native name, code or
    English name; a flag has none, except in a ``<select>`` menu (an option holds no image),
    where the native name stands for it."""
    info = LANGUAGES[language]
    style = site.switcher
    if style == "flag":
        return info.native if switcher_placement(site) == "select" else ""
    return {"native": info.native, "code": info.short, "word": info.english_name}[style]


def switcher_link(site: Site, language: str, page: int) -> Link:
    """The switcher's link to ``language`` from ``page``: the same page when it is translated,
    else that language's home page (a switcher decoy's links lead to nothing)."""
    target = page if page_exists(site, language, page) else 0
    if site.decoy == "switcher_without_translation":
        target = page
    return Link(page_url(site, language, target), switcher_label(site, language))


def _switcher_html(site: Site, current: str, page: int) -> tuple[str, list[Link]]:
    """The switcher of a page in ``current`` language, as its placement writes it, and its
    links (one per other language)."""
    languages = [lang for lang in switcher_languages(site) if lang != current]
    links = [switcher_link(site, language, page) for language in languages]
    if not links:
        return "", links
    placement = switcher_placement(site)
    if placement == "select":
        return _select_menu(site, current, links), links
    anchors = [
        _switcher_anchor(site, lang, link) for lang, link in zip(languages, links, strict=True)
    ]
    heading_language = current if current in OTHER_LANGUAGES else "en"
    if placement == "footer":
        label = OTHER_LANGUAGES[heading_language]
        return f'<p class="languages">{html.escape(label)}: {", ".join(anchors)}</p>', links
    if placement == "list":
        items = "".join(f"<li>{anchor}</li>" for anchor in anchors)
        heading = html.escape(LANGUAGES_HEADING[heading_language])
        return (
            f'<div id="sidebar"><h3>{heading}</h3><ul class="languages">{items}</ul></div>',
            links,
        )
    return '<div class="languages">' + " | ".join(anchors) + "</div>", links


def _switcher_anchor(site: Site, language: str, link: Link) -> str:
    if site.switcher == "flag":
        flag = LANGUAGES[language].flag
        inner = f'<img src="/images/flags/{flag}.png" width="16" height="11">'
    else:
        inner = html.escape(link.anchor)
    return f'<a href="{html.escape(link.url)}">{inner}</a>'


def _select_menu(site: Site, current: str, links: list[Link]) -> str:
    """A ``<select>`` language menu: the page's own language first (selected, no URL), then an
    option per link, its URL in ``value`` only (a script follows the choice)."""
    own = html.escape(switcher_label(site, current)) if current in LANGUAGES else ""
    options = "".join(
        f'<option value="{html.escape(link.url)}">{html.escape(link.anchor)}</option>'
        for link in links
    )
    return (
        f'<form class="languages" action="#"><select name="language" '
        f'onchange="{SELECT_ONCHANGE}"><option value="" selected>{own}</option>{options}'
        "</select></form>"
    )


def sentence(world: World, site: Site, language: str, page: int, position: int) -> str:
    message = world.text.messages[site.text[page][position]]
    if site.decoy == "mixed_language" and position % 2 == 1:
        return message.text(site.second_language)
    if position in site.english_kept.get((language, page), ()):
        return message.english
    return message.text(language)


def render_page(world: World, site: Site, language: str, page: int) -> RenderedPage:
    """One page of a site in one language, with every link it carries."""
    url = page_url(site, language, page)
    title = world.text.messages[site.titles[page]].text(language)
    name = display_name(site)
    links: list[Link] = []
    switcher, switch_links = _switcher_html(site, language, page)
    if page and switcher_home_only(world, site):
        switcher, switch_links = "", []
    links.extend(switch_links)
    nav = _nav_links(world, site, language, page)
    links.extend(nav)
    rng = random.Random(site.id * 1_000_003 + page)  # the same layout in every language
    sentences = [sentence(world, site, language, page, i) for i in range(len(site.text[page]))]
    paragraphs: list[list[str]] = []
    taken = 0
    while taken < len(sentences):
        size = rng.randint(4, 6) if site.prose else rng.randint(1, 3)
        paragraphs.append(sentences[taken : taken + size])
        taken += size
    extra: dict[int, list[Link]] = {}
    for k, target in enumerate(_external_targets(world, site, page)):
        anchor = external_anchor(world, site, page, k, target)
        link = Link(landing_url(world, site, page, k, target), anchor)
        extra.setdefault(k % len(paragraphs), []).append(link)
        links.append(link)
    if page in site.broken_links:
        link = Link(gone_url(site, page), world.text.messages[site.titles[0]].text(language))
        extra.setdefault(len(paragraphs) - 1, []).append(link)
        links.append(link)
    body = "".join(_paragraph(p, extra.get(i, [])) for i, p in enumerate(paragraphs))
    hub_list = ""
    if site.kind == "hub":
        hub_list, hub_links = _hub_index(site) if page == 0 else ("", [])
        links.extend(hub_links)
    head = _head(world, site, language, page, f"{title} - {name}")
    if page and switcher_home_only(world, site):
        head = _head(world, site, language, page, f"{title} - {name}", alternates=False)
    home = page_url(site, language, 0)
    links.insert(0, Link(home, name))
    menu = "".join(_list_item(link) for link in nav)
    placement = switcher_placement(site)
    in_header = switcher if placement in ("header", "select") else ""
    in_sidebar = switcher if placement == "list" else ""
    in_footer = switcher if placement == "footer" else ""
    document = (
        f'{head}<body><div id="header"><a href="{html.escape(home)}">{html.escape(name)}</a>'
        f'{in_header}</div><ul id="menu">{menu}</ul>{in_sidebar}<div id="content"><h1>'
        f'{html.escape(title)}</h1>{body}{hub_list}</div><div id="footer">&copy; 2026 '
        f"{html.escape(name)}{in_footer}</div></body></html>\n"
    )
    return RenderedPage(url, language, title, document, tuple(links), " ".join(sentences))


def _head(
    world: World, site: Site, language: str, page: int, title: str, alternates: bool = True
) -> str:
    lang_attr = f' lang="{language}"' if site.html_lang else ""
    links = ""
    if site.hreflang and alternates:
        links = "".join(
            f'<link rel="alternate" hreflang="{lang}" '
            f'href="{html.escape(page_url(site, lang, page))}">'
            for lang in site.languages
            if page_exists(site, lang, page)
        )
    return (
        f'<!DOCTYPE html>\n<html{lang_attr}><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title>{links}</head>"
    )


def _nav_links(world: World, site: Site, language: str, page: int) -> list[Link]:
    """Home links the first pages; every page links the next three (so all are reachable)."""
    pages = site.pages_in(language) if language in site.languages else [0]
    if page == 0:
        chosen = pages[1:13]
    else:
        at = pages.index(page) if page in pages else 0
        chosen = [pages[(at + k) % len(pages)] for k in (1, 2, 3) if len(pages) > k]
    return [
        Link(page_url(site, language, p), world.text.messages[site.titles[p]].text(language))
        for p in dict.fromkeys(chosen)
        if p != page
    ]


def landing_url(world: World, site: Site, page: int, k: int, target: Site) -> str:
    """Where the ``k``-th out-of-site link of ``page`` lands: the target's root, or, for a share
    ``deep_link_share`` of links (chosen by a hash: no random draw), one of its deeper pages in
    its primary language, drawn by a hash too."""
    key = f"deep:{site.id}:{page}:{k}"
    if len(target.slugs) < 2 or not chosen_by_hash(key, world.params.deep_link_share):
        return root_url(target)
    deeper = 1 + stable_hash64(key + ":page") % (len(target.slugs) - 1)
    return page_url(target, target.primary, deeper)


def switcher_home_only(world: World, site: Site) -> bool:
    """Whether ``site`` shows its switcher (and hreflang alternates) on its home pages only
    (``share_switcher_home_only``, chosen by a hash)."""
    return chosen_by_hash(f"home-switcher:{site.id}", world.params.share_switcher_home_only)


def external_anchor(world: World, site: Site, page: int, k: int, target: Site) -> str:
    """The anchor of the ``k``-th out-of-site link of ``page``: the target's name, or, for a
    share ``title_anchor_share`` of links (chosen by a hash: no random draw), the title of the
    page it leads to in that page's language (a splash page has none: the name)."""
    share = world.params.title_anchor_share
    if chosen_by_hash(f"{site.id}:{page}:{k}", share) and not has_splash(target):
        return world.text.messages[target.titles[0]].text(target.primary)
    return display_name(target)


def _external_targets(world: World, site: Site, page: int) -> list[Site]:
    return [world.sites[target] for p, target in site.external if p == page]


def _paragraph(sentences: list[str], links: list[Link]) -> str:
    text = " ".join(html.escape(s) for s in sentences)
    anchors = "".join(
        f' <a href="{html.escape(link.url)}">{html.escape(link.anchor)}</a>' for link in links
    )
    return f"<p>{text}{anchors}</p>"


def _hub_index(site: Site) -> tuple[str, list[Link]]:
    links = [Link(hub_url(site, hp.slug), _hub_title(hp.topic, hp.pair)) for hp in site.hub_pages]
    items = "".join(_list_item(link) for link in links)
    return f'<ul class="directory">{items}</ul>', links


def _list_item(link: Link) -> str:
    return f'<li><a href="{html.escape(link.url)}">{html.escape(link.anchor)}</a></li>'


def _hub_title(topic: str, pair: str) -> str:
    names = [LANGUAGES[code].english_name for code in _pair_languages(pair)]
    return f"{topic.capitalize()} sites" + (f" in {' and '.join(names)}" if names else "")


def _pair_languages(pair: str) -> list[str]:
    if not pair:
        return []
    first, _, second = pair.partition("-")
    return [first, second] if second else [first]


def render_hub_page(world: World, site: Site, index: int) -> RenderedPage:
    """A hub's directory page: a list of sites of one topic and language pair."""
    hub_page = site.hub_pages[index]
    url = hub_url(site, hub_page.slug)
    title = _hub_title(hub_page.topic, hub_page.pair)
    links = [Link(page_url(site, site.primary, 0), display_name(site))]
    items = []
    for target_id in hub_page.sites:
        target = world.sites[target_id]
        link = Link(root_url(target), display_name(target))
        links.append(link)
        languages = ", ".join(LANGUAGES[lang].native for lang in target.languages)
        items.append(
            f'<li><a href="{html.escape(link.url)}">{html.escape(link.anchor)}</a> '
            f"({html.escape(languages)})</li>"
        )
    head = _head(world, site, site.primary, 0, title)
    document = (
        f'{head}<body><div id="header"><a href="{html.escape(links[0].url)}">'
        f"{html.escape(links[0].anchor)}</a></div><h1>{html.escape(title)}</h1>"
        f'<ul class="directory">{"".join(items)}</ul></body></html>\n'
    )
    return RenderedPage(url, site.primary, title, document, tuple(links), title)


def render_splash(site: Site) -> RenderedPage:
    """``/`` of a site whose home pages live elsewhere: a language chooser that also redirects.
    Its labels are the site's switcher style (native names, English names, codes, or flag images
    with the native name as alt), with ``hreflang`` when the site's ``chooser_hreflang`` says."""
    home = page_url(site, site.primary, 0)
    languages = switcher_languages(site) or list(site.languages)
    links = [Link(page_url(site, lang, 0), _chooser_label(site, lang)) for lang in languages]
    items = " | ".join(
        _chooser_anchor(site, lang, link) for lang, link in zip(languages, links, strict=True)
    )
    document = (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
        f'<meta http-equiv="refresh" content="0; url={html.escape(home)}">'
        f"<title>{html.escape(display_name(site))}</title></head><body>{items}</body></html>\n"
    )
    return RenderedPage(root_url(site), "", display_name(site), document, tuple(links), "")


def _chooser_label(site: Site, language: str) -> str:
    """A chooser's label: the switcher's style (a site without one: the native name)."""
    info = LANGUAGES[language]
    labels = {"native": info.native, "code": info.short, "word": info.english_name, "flag": ""}
    return labels.get(site.switcher, info.native)


def _chooser_anchor(site: Site, language: str, link: Link) -> str:
    info = LANGUAGES[language]
    hreflang = f' hreflang="{language}"' if site.chooser_hreflang else ""
    if site.switcher == "flag":
        inner = (
            f'<img src="/images/flags/{info.flag}.png" alt="{html.escape(info.native)}" '
            'width="16" height="11">'
        )
    else:
        inner = html.escape(link.anchor)
    return f'<a href="{html.escape(link.url)}"{hreflang}>{inner}</a>'


def render_site(world: World, site: Site) -> list[RenderedPage]:
    """Every page the server will serve for ``site``."""
    pages = [
        render_page(world, site, language, page)
        for language in site.languages
        for page in site.pages_in(language)
    ]
    pages.extend(render_hub_page(world, site, i) for i in range(len(site.hub_pages)))
    if has_splash(site):
        pages.append(render_splash(site))
    return pages
