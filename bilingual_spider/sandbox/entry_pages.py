"""The entry pages of the real sites: each site's home offers its languages in one of the real
styles (:data:`~bilingual_spider.sandbox.real_site.ENTRY_STYLES`): a chooser of names, codes,
flags, titles or a ``<select>`` menu, or the source language's start page with a switcher in its
header or footer. :func:`write_entry_pages` writes every style of a site as an overlay of the
cache (``overlays/<site>/<style>/index.html``), served in front of the site's files
(:func:`site_dirs`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath
from urllib.parse import quote

import lxml.html

from bilingual_spider.sandbox.atomic_files import write_if_changed
from bilingual_spider.sandbox.page_text import declared_encoding
from bilingual_spider.sandbox.real_site import ENTRY_STYLES, PageFile, RealSite

# Native and English names of the languages of the sites, for the generated language index.
LANGUAGE_NAMES: dict[str, tuple[str, str]] = {
    "ca": ("català", "Catalan"),
    "cs": ("čeština", "Czech"),
    "da": ("dansk", "Danish"),
    "de": ("Deutsch", "German"),
    "el": ("Ελληνικά", "Greek"),
    "en": ("English", "English"),
    "es": ("español", "Spanish"),
    "fi": ("suomi", "Finnish"),
    "fr": ("français", "French"),
    "hu": ("magyar", "Hungarian"),
    "id": ("Indonesia", "Indonesian"),
    "it": ("Italiano", "Italian"),
    "ja": ("日本語", "Japanese"),
    "ko": ("한국어", "Korean"),
    "nl": ("Nederlands", "Dutch"),
    "pl": ("polski", "Polish"),
    "pt": ("Português", "Portuguese"),
    "pt-BR": ("Português (Brasil)", "Portuguese (Brazil)"),
    "ro": ("română", "Romanian"),
    "ru": ("Русский", "Russian"),
    "sv": ("svenska", "Swedish"),
    "tr": ("Türkçe", "Turkish"),
    "uk": ("українська", "Ukrainian"),
    "vi": ("Tiếng Việt", "Vietnamese"),
    "zh-Hans": ("中文(简)", "Chinese (Simplified)"),
    "zh-Hant": ("中文(繁)", "Chinese (Traditional)"),
}


def start_pages(files: Iterable[PageFile], home_page: str | None = None) -> dict[str, str]:
    """language -> relative path of its start page: its version of the home page (page id
    ``home_page``) if it has one, else its index page, else its first page in path order. Only
    languages with a real (non-symlink) file count."""
    best: dict[str, tuple[tuple[int, int, str], str]] = {}
    for page_file in files:
        if page_file.symlink:
            continue
        is_index = PurePosixPath(page_file.page).name in ("index", "index.html")
        rank = 0 if page_file.page == home_page else 1 if is_index else 2
        key = (rank, page_file.relative.count("/"), page_file.relative)
        if page_file.lang not in best or key < best[page_file.lang][0]:
            best[page_file.lang] = (key, page_file.relative)
    return {lang: relative for lang, (_, relative) in sorted(best.items())}


FLAG_COUNTRIES = {
    "en": "gb", "ja": "jp", "zh-Hans": "cn", "zh-Hant": "tw", "pt-BR": "br", "ko": "kr",
    "el": "gr", "cs": "cz", "da": "dk", "sv": "se", "uk": "ua", "vi": "vn", "ca": "es-ct",
}  # fmt: skip
"""The country whose flag stands for a language on a flags-only chooser (else its own code)."""
_HTML_TEMPLATE = (
    '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n{head}'
    "</head>\n<body>\n{body}\n</body>\n</html>\n"
)


@dataclass(frozen=True)
class LanguageStart:
    """A language's start page, as an entry page links to it."""

    lang: str
    href: str
    """Its path from the site's mount root (quoted)."""
    title: str = ""
    """Its own ``<title>``, in its language."""

    @property
    def native(self) -> str:
        return LANGUAGE_NAMES.get(self.lang, (self.lang, self.lang))[0]

    @property
    def english(self) -> str:
        return LANGUAGE_NAMES.get(self.lang, (self.lang, self.lang))[1]


def language_starts(
    files: Iterable[PageFile],
    titles: Callable[[PageFile], str] | None = None,
    home_page: str | None = None,
) -> list[LanguageStart]:
    """Every language's start page (:func:`start_pages`), sorted by code, with its title when
    ``titles`` is given."""
    by_relative = {f.relative: f for f in files}
    return [
        LanguageStart(
            lang, quote(relative, safe="/"), titles(by_relative[relative]) if titles else ""
        )
        for lang, relative in start_pages(by_relative.values(), home_page).items()
    ]


def _chooser(style: str, title: str, starts: Sequence[LanguageStart]) -> tuple[str, str]:
    """The ``(head, body)`` of a language chooser of ``style``."""
    head = ""
    if style == "native_list":  # like the language footers of www.debian.org
        items = "\n".join(
            f'<li><a href="{escape(s.href)}" title="{escape(s.english)}" lang="{escape(s.lang)}" '
            f'hreflang="{escape(s.lang)}" rel="alternate">{escape(s.native)}</a> '
            f"({escape(s.lang)})</li>"
            for s in starts
        )
        links = (
            "<p>This document is available in the following languages:</p>\n"
            f'<ul id="languages">\n{items}\n</ul>'
        )
    elif style == "english_names":
        links = (
            "<p>Choose your language:</p>\n<p>"
            + " | ".join(f'<a href="{escape(s.href)}">{escape(s.english)}</a>' for s in starts)
            + "</p>"
        )
    elif style == "codes":
        links = (
            '<p class="languages">'
            + " | ".join(f'<a href="{escape(s.href)}">{escape(s.lang.upper())}</a>' for s in starts)
            + "</p>"
        )
    elif style == "flags":
        links = (
            '<div class="flags">'
            + " ".join(
                f'<a href="{escape(s.href)}"><img src="images/flags/'
                f'{escape(FLAG_COUNTRIES.get(s.lang, s.lang.lower()))}.png" alt="" width="32" '
                'height="21"></a>'
                for s in starts
            )
            + "</div>"
        )
    elif style == "hreflang":
        head = "".join(
            f'<link rel="alternate" hreflang="{escape(s.lang)}" href="{escape(s.href)}">\n'
            for s in starts
        )
        links = (
            "<ul>\n"
            + "\n".join(
                f'<li><a href="{escape(s.href)}" hreflang="{escape(s.lang)}">'
                f"{escape(s.title or s.href)}</a></li>"
                for s in starts
            )
            + "\n</ul>"
        )
    elif style == "select":
        options = "\n".join(
            f'<option value="{escape(s.href)}">{escape(s.native)}</option>' for s in starts
        )
        links = (
            '<form action="#"><label for="lang">Language</label>\n'
            '<select id="lang" name="lang" onchange="window.location=this.value">\n'
            f"{options}\n</select></form>"
        )
    else:
        raise ValueError(f"not a chooser style: {style!r}")
    return head, f"<h1>{escape(title)}</h1>\n{links}"


def _switcher(style: str, prefix: str, starts: Sequence[LanguageStart], current: str) -> str:
    """A switcher for a page in ``current``: header (native names) or "Other languages:" footer
    (the others' native names, as on lilypond.org); absolute paths, the page has a ``<base>``."""
    if style == "header":
        return (
            '<div id="language-switcher" class="header">'
            + " · ".join(
                f'<a href="{escape(prefix + s.href)}" lang="{escape(s.lang)}">'
                f"{escape(s.native)}</a>"
                for s in starts
            )
            + "</div>"
        )
    others = [s for s in starts if s.lang != current]
    return (
        '<div class="footer"><p>Other languages: '
        + ", ".join(f'<a href="{escape(prefix + s.href)}">{escape(s.native)}</a>' for s in others)
        + ".</p></div>"
    )


def render_entry_page(
    style: str,
    title: str,
    starts: Sequence[LanguageStart],
    prefix: str = "/",
    source: LanguageStart | None = None,
    source_html: str = "",
) -> str:
    """The entry page of a site with the languages ``starts``, in ``style`` (:data:`ENTRY_STYLES`).

    A chooser (native_list ... select) is a short page of its own. ``header`` and ``footer`` are
    the ``source`` language's start page, ``source_html``, with a switcher inserted after its
    ``<body>`` (or before its ``</body>``) and a ``<base>`` that keeps its own relative links
    where they were; the switcher's links are absolute paths below ``prefix``.
    """
    if style in ("header", "footer"):
        if source is None or not source_html:
            raise ValueError(f"{style}: needs the source language's start page")
        switcher = _switcher(style, prefix, starts, source.lang)
        base = f'<base href="{escape(prefix + source.href)}">'
        page = _insert_after(source_html, _HEAD_OPEN, base) or base + source_html
        if style == "header":
            return _insert_after(page, _BODY_OPEN, switcher) or switcher + page
        return _insert_before(page, _BODY_CLOSE, switcher) or page + switcher
    head, body = _chooser(style, title, starts)
    return _HTML_TEMPLATE.format(title=escape(title), head=head, body=body)


_HEAD_OPEN = re.compile(r"<head\b[^>]*>", re.I)
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.I)
_BODY_CLOSE = re.compile(r"</body\s*>", re.I)


def _insert_after(html: str, tag: re.Pattern[str], text: str) -> str | None:
    found = tag.search(html)
    return None if found is None else html[: found.end()] + "\n" + text + html[found.end() :]


def _insert_before(html: str, tag: re.Pattern[str], text: str) -> str | None:
    found = ([None, *tag.finditer(html)])[-1]
    return None if found is None else html[: found.start()] + text + "\n" + html[found.start() :]


def page_title(data: bytes) -> str:
    """The text of an HTML file's ``<title>`` (whitespace-normalised), or ``""``."""
    text = data.decode(declared_encoding(data), errors="replace")
    found = re.search(r"<title[^>]*>(.*?)</title\s*>", text, re.I | re.S)
    if not found:
        return ""
    return " ".join(lxml.html.fromstring(f"<p>{found.group(1)}</p>").text_content().split())


def write_entry_pages(cache: Path, site: RealSite, files: Sequence[PageFile]) -> dict[str, Path]:
    """Write the site's entry page in every style (``overlays/SITE/STYLE/index.html``); return
    style -> its overlay directory. A monolingual site's pages list its one language."""
    home = site.match(site.home) if site.home else None
    starts = language_starts(
        files, lambda f: page_title(f.path.read_bytes()), home[1] if home else None
    )
    source = next((s for s in starts if s.lang == site.source_lang), starts[0] if starts else None)
    source_html = ""
    if source is not None:
        data = next(
            f for f in files if quote(f.relative, safe="/") == source.href
        ).path.read_bytes()
        source_html = data.decode(declared_encoding(data), errors="replace")
    ordered = sorted(starts, key=lambda s: (s is not source, s.lang))
    entry_dirs = {}
    for style in ENTRY_STYLES:
        directory = cache / "overlays" / site.name / style
        title = source.title if source is not None and source.title else site.name
        page = render_entry_page(style, title, ordered, site.prefix, source, source_html)
        write_if_changed(directory / "index.html", page)
        entry_dirs[style] = directory
    return entry_dirs


def site_dirs(cache: Path, site: RealSite, root: Path | None = None) -> list[Path]:
    """The directories served at the site's own host and prefix, first one first: its entry
    page's overlay (unless it keeps its own root), then its packages' directories (below
    ``root``, default the cache's)."""
    dirs = [(root or cache / "root") / d for d in site.dirs]
    if site.entry_style != "none":
        dirs.insert(0, cache / "overlays" / site.name / site.entry_style)
    return dirs
