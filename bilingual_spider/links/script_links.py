"""Does a page need a browser to show its links? Read from the page's raw HTML, before any script.

Some sites publish their links, and often their language menu, only through JavaScript: a
single-page application whose HTML is an empty shell, a navigation ``<nav>`` or ``<select>``
left empty for a script to fill, a switcher written by ``document.write`` or ``innerHTML``. A
crawler that reads the raw HTML sees no translation there; a headless browser would. Rendering
costs far more than a download (``benchmarks/render_cost.py``), so a crawl renders only the
sites whose raw HTML shows one of these signs (:func:`render_reason`), and never a page that has
no script at all.

The reasons, checked in this order:

- :data:`NO_LINKS`: scripts, and not one link to another page in the raw HTML.
- :data:`SCRIPT_SWITCHER`: no language switcher in the raw HTML (no ``hreflang`` link, no link
  whose text is a language's name or code), and an inline script that writes HTML
  (``document.write``, ``innerHTML``, ``insertAdjacentHTML``, ``createElement``...) and whose
  strings name a language (``"Français"``) or carry ``hreflang``.
- :data:`EMPTY_MENU`: no language switcher in the raw HTML, and a menu left empty for a script
  to fill: a ``<select>`` with no ``<option>``, or an element whose ``id`` or ``class`` says it
  is a language menu (``lang``, ``language``, ``locale``, ``i18n``) with no content.
"""

from __future__ import annotations

import re

from lxml import etree

from bilingual_spider.html_page import MAX_HTML_CHARS, ParsedPage, parse_html
from bilingual_spider.language.names import language_of_code, language_of_name
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts

NO_LINKS = "no_links"
"""Scripts and no link to another page in the raw HTML."""
SCRIPT_SWITCHER = "script_switcher"
"""An inline script writes HTML naming languages, and the raw HTML has no switcher."""
EMPTY_MENU = "empty_menu"
"""A ``<select>`` or a language menu left empty for a script, and the raw HTML has no switcher."""
REASONS = (NO_LINKS, SCRIPT_SWITCHER, EMPTY_MENU)

_SCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module"})
_WRITES_HTML = re.compile(
    r"document\.write|\.innerHTML|\.outerHTML|insertAdjacentHTML|createElement|\.append\(|"
    r"appendChild|\.replaceChildren\("
)
_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1)[^\\\n]){1,2000})\1""")
_TAG = re.compile(r"<[^>]*>")
_WORD = re.compile(r"[^\W\d_]{4,}(?:\s[^\W\d_]{3,}){0,1}")
_MENU_NAME = re.compile(r"(?:^|[\W_])(?:lang|language|languages|locale|i18n)(?:$|[\W_])", re.I)
_PAGE_URL = "http://page.invalid/page"
_SCRIPT_TAG = re.compile(r"<script", re.I)
_SCRIPT_TAG_BYTES = re.compile(rb"<script", re.I)


def render_reason(html: str | bytes | ParsedPage) -> str | None:
    """Why a page's links or language menu need a browser (one of :data:`REASONS`), or None
    when its raw HTML shows them, or it runs no script.

    >>> render_reason('<body><div id="app"></div><script src="/app.js"></script></body>')
    'no_links'
    >>> render_reason('<body><a href="/about">About</a><script>track()</script></body>')
    """
    if isinstance(html, str | bytes) and not _has_script_tag(html):
        return None  # no parse
    parsed = html if isinstance(html, ParsedPage) else parse_html(html)
    root = parsed.root
    if root is None:
        return None
    scripts = [s for s in root.iter("script") if _is_javascript(s)]
    if not scripts:
        return None
    links = [
        link
        for link in extract_link_contexts(parsed, _PAGE_URL)
        if link.url.split("#")[0] != _PAGE_URL
    ]
    if not links:
        return NO_LINKS
    if any(_is_switcher_link(link) for link in links):
        return None  # a switcher in the raw HTML
    if any(_script_writes_a_switcher(s.text or "") for s in scripts):
        return SCRIPT_SWITCHER
    if _has_empty_menu(root):
        return EMPTY_MENU
    return None


def _has_script_tag(html: str | bytes) -> bool:
    if isinstance(html, bytes):
        return _SCRIPT_TAG_BYTES.search(html, 0, MAX_HTML_CHARS) is not None
    return _SCRIPT_TAG.search(html, 0, MAX_HTML_CHARS) is not None


def _is_javascript(script: etree._Element) -> bool:
    kind = (script.get("type") or "").strip().lower()
    return kind in _SCRIPT_TYPES or "javascript" in kind or "ecmascript" in kind


def _is_switcher_link(link: LinkContext) -> bool:
    """A link with an hreflang, or whose text, flag image or title names a language."""
    return bool(link.hreflang) or any(
        _names_a_language(text) for text in (link.anchor, link.img_alt, link.title)
    )


def _names_a_language(text: str) -> bool:
    text = text.strip()
    return bool(text) and (language_of_name(text) is not None or language_of_code(text) is not None)


def _script_writes_a_switcher(code: str) -> bool:
    """An inline script that writes HTML and whose strings name a language or carry hreflang."""
    if not _WRITES_HTML.search(code):
        return False
    for match in _STRING.finditer(code):
        text = match.group(2)
        if "hreflang" in text:
            return True
        for piece in _TAG.split(text):
            if any(language_of_name(word) for word in _WORD.findall(piece)):
                return True
    return False


def _has_empty_menu(root: etree._Element) -> bool:
    for element in root.iter("select"):
        if not any(True for _ in element.iter("option")):
            return True
    for element in root.iter("nav", "ul", "ol", "div", "span", "menu"):
        name = f"{element.get('id') or ''} {element.get('class') or ''}"
        if _MENU_NAME.search(name) and len(element) == 0 and not (element.text or "").strip():
            return True
    return False
