"""Link contexts: what a page shows about each of its links.

Barbosa et al. (2011), *Crawling back and forth*, sec. 2.1 (Link-Based Prediction): the Link
Predictor reads "features in 5 different contexts: tokens in the URL, anchor, around, image alt
and image src", because a link to a page's translation is often a flag image with no text. A
:class:`LinkContext` holds those five and what else a page says about the link: its ``title`` and
``hreflang`` attributes, the page's declared language, and the text of the block around it (for a
boilerplate score, Schäfer et al. 2014).

Links wherever HTML carries them, not only ``<a href>`` (issue 37): sites built on a design
system of web components write their navigation and their language toggle as custom elements
(``<xx-nav-link href>``, ``<xx-button href>``, ``<xx-header lang-href>``), and a page may have no
``<a>`` at all. What is read as a link, and why:

- **any element's** ``href``: custom elements take the attribute from ``<a>`` (a browser renders
  them as links through their script); ``<base>``, ``<link>`` (but see below) and SVG's resource
  references (``<use>``, ``<image>``...) are no page links;
- ``data-href`` and ``data-url``: clickable rows, cards and buttons of common front-end
  frameworks, which a script turns into navigation;
- any attribute whose name ends in ``-href`` (``lang-href``, ``home-href``): a component's
  secondary link, named as components name URL properties (a language toggle's target). Its
  anchor is the element's ``text``/``label`` attribute only: the element's text is its whole
  content (a header), not the link's;
- ``location.href = '...'``, ``location.assign('...')``, ``location.replace('...')``,
  ``window.open('...')`` in an ``onclick``: buttons that navigate;
- ``<option value>`` of a ``<select>`` language menu whose value is a URL or path (a script
  follows the choice);
- ``<link rel="alternate" hreflang>``: a page's declared translations (no anchor, no text);
- ``<meta http-equiv="refresh" content="0; url=...">``: a redirect written in the page (a
  language root that sends the reader on to its home page).

A link's anchor is the element's text, else its ``text`` or ``label`` attribute (components that
draw their own label: ``<xx-button text="Français" href>``). A link is a language **toggle** by its
markup (:func:`is_toggle`): a ``lang-href`` (``*lang*-href``, ``*locale*-href``) attribute, or an
element (or its parent) whose tag, ``id`` or ``class`` names a language choice (``lang``,
``language``, ``locale``, ``i18n``: ``<a id="langSwitch">``, ``<div class="language-toggle">``)
or whose tag is a ``*-toggle`` component. A toggle need not say which language it leads to
(a design system's header draws its label by script, an icon has none): the target page does.
Each of them is a :class:`LinkContext` like an ``<a>``'s, so the Link Predictor, the switcher and
the hreflang readers see them all alike.

One pass over the parsed page (lxml) collects the page's words and, for every link, where its
anchor text starts and ends among them, so ``around`` and ``block_text`` cost nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urljoin, urlsplit

from lxml import etree
from w3lib.url import safe_url_string

from bilingual_spider.html_page import ParsedPage, as_parsed, html_lang
from bilingual_spider.language.codes import normalize_language_code, same_language

MAX_BLOCK_WORDS = 200
"""``block_text`` is cut to this many words around the link (a ``<body>`` can be the block)."""
SKIPPED_TAGS = frozenset({"script", "style", "template", "title", "textarea"})
"""Their text is not page text."""
BLOCK_TAGS = frozenset(
    {
        "p", "li", "td", "th", "div", "nav", "header", "footer", "section", "article", "aside",
        "main", "h1", "h2", "h3", "h4", "h5", "h6", "dd", "dt", "blockquote", "pre", "form",
        "ul", "ol", "dl", "table", "tr", "address", "figure", "figcaption", "caption", "center",
        "menu", "body",
    }
)  # fmt: skip
NOT_LINK_TAGS = frozenset(
    {
        "base", "link", "meta", "img", "script", "style", "template", "use", "image", "textpath",
        "feimage", "pattern", "lineargradient", "radialgradient", "filter", "mpath", "tref",
        "cursor",
    }
)  # fmt: skip
"""Elements whose ``href`` is no link to a page (``<link>`` and ``<meta>`` are read apart)."""
TEXT_URL_ATTRIBUTES = ("href", "data-href", "data-url")
"""Attributes naming where the element itself leads: its text is the anchor."""
LABEL_ATTRIBUTES = ("text", "label")
"""Attributes of a component that holds its label instead of its text."""
_SCRIPT_URL = re.compile(
    r"""(?:\blocation(?:\.href)?\s*=\s*|\blocation\.(?:assign|replace)\(\s*|\bwindow\.open\(\s*)"""
    r"""(["'])([^"'\s][^"']*)\1"""
)
"""The URL a click handler navigates to: ``location.href = '/fr/'``, ``window.location='...'``,
``location.assign("...")``, ``location.replace(...)``, ``window.open(...)``."""
_NO_LINK_ATTRIBUTES = frozenset(
    {
        "class", "id", "style", "lang", "dir", "title", "name", "alt", "src", "width", "height",
        "type", "role", "align", "valign", "border", "colspan", "rowspan", "cellpadding",
        "cellspacing", "summary", "rel", "target", "tabindex", "for", "value", "content",
        "charset", "xml:lang", "xmlns", "bgcolor", "color", "size", "face", "nowrap", "scope",
        "headers", "accesskey", "hidden", "aria-label", "aria-hidden", "checked", "selected",
        "disabled", "start", "span", "shape", "coords", "method", "action", "placeholder",
    }
)  # fmt: skip
"""Attributes that never hold a link here: an element with only these is passed over at once
(``value`` is a link only in a ``<select>`` menu, checked apart)."""
_REFRESH_URL = re.compile(r"""(?i)^\s*[\d.]*\s*[;,]?\s*url\s*=\s*(['"]?)([^'"]+)\1""")
"""The target of ``<meta http-equiv="refresh" content="5; url=/fr/">``."""
_OPTION_URL = re.compile(r"(?i)^\?|/|\.(?:s?html?|php\d?|aspx?|jsp|cgi|cfm)(?:[?#]|$)")
"""An ``<option value>`` that looks like a URL or a path (``/fr/``, ``?lang=fr``, ``index_fr.html``,
``http://fr.example.com``), not a plain value (``1``, ``fr``, ``#``)."""

_URL_CONTROL = re.compile(r"[\t\n\r]")
_NO_HOST = re.compile(r"(?i)https?:///*(?:[/?]|$)")  # "http://", "https:///x": no host
_UNSPACED = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
    "\uff66-\uff9f"  # half-width Katakana
)
_WORD = re.compile(rf"[{_UNSPACED}]|[^\s{_UNSPACED}]+")
"""A word: a run of non-space characters, or one character of a script written without spaces
(so ``around`` counts Chinese and Japanese by characters, not by sentences)."""
_IS_UNSPACED = re.compile(rf"[{_UNSPACED}]")


@dataclass(frozen=True)
class LinkContext:
    url: str
    """Absolute target URL (against ``<base href>`` if present, else ``page_url``), no fragment."""
    page_url: str
    """URL of the page the link is on."""
    anchor: str
    """Visible anchor text, whitespace collapsed."""
    around: str = ""
    """Up to N words before and N words after the link in the page text (anchor excluded)."""
    img_alt: str = ""
    """Alt text(s) of the ``<img>`` inside the link, space-joined; ``""`` if none."""
    img_src: str = ""
    """Absolute src URL(s) of the ``<img>`` inside the link, space-joined."""
    title: str = ""
    """The ``title`` attribute of the ``<a>``."""
    hreflang: str = ""
    """Project language code of the link's ``hreflang`` attribute (``""`` if none)."""
    block_text: str = ""
    """Text of the enclosing block element (p, li, td, div, nav, ...), for a boilerplate score."""
    page_lang: str = ""
    """Project code of the page's ``<html lang>`` (``""`` if none)."""
    block_around: str = ""
    """The words of ``around`` that lie in the link's own block: a list item's own text (a
    directory entry's description, its languages), not its neighbours'."""
    toggle: bool = False
    """The link is a language toggle by its markup (:func:`is_toggle`), labelled or not."""
    lang: str = ""
    """Project code of an ``<a>``'s own ``lang`` attribute, the language its label is written
    in, when other than the page's ``<html lang>``: a switcher's ``<a href="/ty/" lang="ty">Reo
    Tahiti</a>`` (``""`` if none; a design system's ``<gcds-header lang="en" lang-href>`` says
    its page's language, not its link's)."""


@dataclass
class _Block:
    start: int
    end: int = -1


@dataclass
class _Link:
    url: str
    start: int
    block: _Block | None
    element: object = None
    in_text: bool = True
    title: str = ""
    hreflang: str = ""
    end: int = -1
    alts: list[str] = field(default_factory=list)
    srcs: list[str] = field(default_factory=list)
    from_text: bool = True
    """The anchor is the element's text (False: a secondary attribute such as ``lang-href``)."""
    toggle: bool = False
    lang: str = ""


def extract_link_contexts(
    html: str | bytes | ParsedPage, page_url: str, around_words: int = 10
) -> list[LinkContext]:
    """Every followable link of a page (``<a>``, ``<area>``, ``<link rel="alternate"
    hreflang>``, and a ``<select>`` menu's ``<option>`` whose value is a URL or path), in
    document order, with its context.

    Links that lead to no other page are left out: ``javascript:``, ``mailto:``, ``tel:`` and
    other non-HTTP schemes, empty ``href`` and in-page ``#fragments``. The page is read by
    :func:`~bilingual_spider.html_page.parse_html`, unless it is given parsed already. Malformed
    HTML is read as browsers read it; a page lxml cannot read at all gives no links.
    """
    parsed = as_parsed(html)
    root = parsed.root
    if root is None:
        return []
    base = _base_url(root, page_url)
    page_lang = _language(html_lang(parsed) or "")
    words: list[str] = []
    links = _walk(root, base, words)
    # most pages have no Chinese or Japanese word: plain spaces, without a search per join
    join = _join if _IS_UNSPACED.search("".join(words)) else " ".join
    return [_context(link, page_url, page_lang, words, around_words, join) for link in links]


def _base_url(root: etree._Element, page_url: str) -> str:
    for base in root.iter("base"):
        href = base.get("href")
        if href and href.strip():
            try:
                return urljoin(page_url, _URL_CONTROL.sub("", href.strip()))
            except ValueError:
                return page_url
    return page_url


def _language(value: str) -> str:
    return (normalize_language_code(value) or "") if value else ""


def absolute_url(base: str, href: str | None) -> str | None:
    """``href`` resolved against ``base``, without fragment and without the parameters that
    only track a campaign or a session (``utm_source``, ``fbclid``, ``PHPSESSID``,
    ``;jsessionid=``: the page is the same, and each tracked link would be another URL of it to
    fetch and pair; a session's id changes with every answer, an endless space of one site's
    pages); None when it leads to no other HTTP(S) page (empty, ``#...``, ``javascript:``,
    ``mailto:``, no host)."""
    if not href:
        return None
    href = _URL_CONTROL.sub("", href.strip())
    if not href or href[0] == "#" or _NO_HOST.match(href):
        return None
    url = _plain_join(base, href)
    if url is None:
        try:
            url = urljoin(base, href)
        except ValueError:  # e.g. an unbalanced "[" of an IPv6 literal
            return None
        url = url.split("#", 1)[0]
    if url[:7].lower() == "http://":
        rest = url[7:]
    elif url[:8].lower() == "https://":
        rest = url[8:]
    else:
        return None
    if not rest or rest[0] in "/?":
        return None
    if not url.isascii() or " " in url:
        try:
            url = safe_url_string(url)
        except ValueError:
            return None
    if ";" in url:
        url = _SESSION_PARAMETER.sub("", url)
    if "?" in url and _TRACKING.search(url):
        url = without_tracking(url)
    return url


_TRACKING = re.compile(
    r"[?&](?:(?:utm_[a-z]+|fbclid|gclid|dclid|msclkid|mc_[ce]id|phpsessid|jsessionid|sessionid"
    r"|session_id|aspsessionid[a-z]*|cfid|cftoken)=|sid=[0-9a-f]{32,}(?:&|$))",
    re.I,
)
"""A query parameter that only tracks a campaign, a click or a session (``sid`` only with a
session's 32 hexadecimal digits or more: a story's or a site's id is shorter)."""
_SESSION_PARAMETER = re.compile(r";jsessionid=[^?#/]*", re.I)
"""A Java servlet's session id in the path (``/kk/;jsessionid=4CB7...``)."""


def without_tracking(url: str) -> str:
    """``url`` without its tracking parameters (:data:`_TRACKING`), its others kept in order.

    >>> without_tracking("http://x.ca/?utm_source=a&utm_medium=b&p=2")
    'http://x.ca/?p=2'
    >>> without_tracking("http://x.ca/blog/?utm_campaign=c")
    'http://x.ca/blog/'
    >>> without_tracking("http://x.ca/a.php?PHPSESSID=ek7p92&sid=7&id=3")
    'http://x.ca/a.php?sid=7&id=3'
    """
    address, _, query = url.partition("?")
    kept = [part for part in query.split("&") if not _TRACKING.match("&" + part)]
    return f"{address}?{'&'.join(kept)}" if kept else address


def _plain_join(base: str, href: str) -> str | None:
    """``urljoin(base, href)`` for the two common shapes whose answer needs no parsing, else
    None: an absolute ``http(s)://`` URL (urljoin keeps it as it is) and a path from the root
    (the base's scheme and host, then the path), each ASCII without query, parameters, fragment,
    brackets, empty or dot segments."""
    if not href.isascii() or _JOIN_PARSES.search(href):
        return None
    if href.startswith(("http://", "https://")):
        return href
    if href[0] == "/" and "//" not in href:
        origin = _origin(base)
        return origin + href if origin else None
    return None


_JOIN_PARSES = re.compile(r"[;?#\[\]\\]|/\.\.?(?:/|$)")
"""What makes urljoin change a URL: a query, parameters or fragment (an empty one is dropped), a
bracket (IPv6, or an error), a backslash, a ``.`` or ``..`` segment."""


@lru_cache(maxsize=256)
def _origin(base: str) -> str:
    """``scheme://host`` of an http(s) URL with a host, else ``""``."""
    try:
        parts = urlsplit(base)
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    return f"{parts.scheme}://{parts.netloc}"


def _walk(root: etree._Element, base: str, words: list[str]) -> list[_Link]:
    """Collect the page's words into ``words`` and return its links with their word ranges."""
    found: list[_Link] = []
    open_links: list[_Link] = []
    open_blocks: list[_Block] = []
    open_selects = 0
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, element in walker:
        tag = element.tag
        if not isinstance(tag, str):
            continue
        if event == "start":
            if tag in SKIPPED_TAGS:
                walker.skip_subtree()
                continue
            if tag in BLOCK_TAGS:
                open_blocks.append(_Block(len(words)))
            if tag == "img":
                if open_links:
                    _add_image(element, base, open_links[-1])
            elif tag == "link":
                _add_alternate(element, base, len(words), found)
            elif tag == "meta":
                _add_refresh(element, base, len(words), found)
            elif tag not in NOT_LINK_TAGS and (
                not _NO_LINK_ATTRIBUTES.issuperset(element.keys())
                or (tag == "option" and open_selects)
            ):
                in_select = tag == "option" and open_selects > 0
                _open_links(element, base, words, open_links, open_blocks, found, in_select)
            if tag == "select":
                open_selects += 1
            if element.text:
                words.extend(_WORD.findall(element.text))
        else:
            while open_links and open_links[-1].element is element:  # its links end here
                open_links.pop().end = len(words)
            if tag == "select" and open_selects:
                open_selects -= 1
            if tag in BLOCK_TAGS and open_blocks:
                open_blocks.pop().end = len(words)
            if element.tail:
                words.extend(_WORD.findall(element.tail))
    for link in open_links:
        link.end = len(words)
    for block in open_blocks:
        block.end = len(words)
    return found


def _open_links(
    element: etree._Element,
    base: str,
    words: list[str],
    open_links: list[_Link],
    open_blocks: list[_Block],
    found: list[_Link],
    in_select: bool,
) -> None:
    """The links an element carries (see the module docstring), opened at the element's start;
    those whose anchor is its text stay open until its end."""
    targets = element_urls(element, base, in_select)
    if not targets:
        return
    title = element.get("title")
    hreflang = element.get("hreflang")
    # an <a>'s lang is its label's language; a component's (<gcds-header lang>) its page's
    lang = element.get("lang") if element.tag == "a" else None
    block = open_blocks[-1] if open_blocks else None
    for url, from_text in targets:
        link = _Link(
            url,
            len(words),
            block,
            element=element,
            title=_collapse(title) if title else "",
            hreflang=_language(hreflang) if hreflang else "",
            from_text=from_text,
            toggle=is_toggle(element, url, base),
            lang=_language(lang) if lang else "",
        )
        if element.tag == "area":
            _add_image(element, base, link, src=False)
            link.end = len(words)  # a void element: nothing inside
        elif from_text:
            open_links.append(link)
        else:
            link.end = len(words)
        found.append(link)


def element_urls(
    element: etree._Element, base: str, in_select: bool = False
) -> list[tuple[str, bool]]:
    """The absolute URLs an element links to, each once, in attribute order, with whether the
    element's text is their anchor: ``href``, ``data-href``, ``data-url`` (yes), any ``*-href``
    (no), a navigation in ``onclick`` (yes), an ``<option value>`` of a ``<select>`` (yes)."""
    found: list[tuple[str, bool]] = []
    for name, value in element.items():
        if name in TEXT_URL_ATTRIBUTES:
            url, from_text = absolute_url(base, value), True
        elif name.endswith("-href"):
            url, from_text = absolute_url(base, value), False
        elif name == "onclick":
            match = _SCRIPT_URL.search(value)
            url, from_text = (absolute_url(base, match.group(2)) if match else None), True
        elif name == "value" and in_select:
            url, from_text = option_url(value, base), True
        else:
            continue
        if url is not None and not any(url == seen for seen, _ in found):
            found.append((url, from_text))
    return found


_TOGGLE_NAME = re.compile(
    r"(?:^|[^a-z])(?:lang(?:uages?)?|locales?|i18n)(?:$|[^a-z])|^lang|^locale|-toggle$",
    re.IGNORECASE,
)
"""A tag, ``id`` or ``class`` that names a language choice: ``lang-toggle``, ``langSwitch``,
``language-selector``, ``gcds-lang-toggle``, ``i18n``, a ``*-toggle`` component (``slang`` or
``language-arts`` are no such name: the word stands apart, or opens the name)."""
_TOGGLE_ATTRIBUTE = re.compile(r"(?:lang|locale)[a-z-]*-href$", re.IGNORECASE)
"""A component's secondary link to the page in the other language: ``lang-href``."""


def is_toggle(element: etree._Element, url: str, base: str) -> bool:
    """Whether ``element``'s link to ``url`` is a language toggle by its markup: the URL is
    its ``lang-href`` (any ``*lang*-href`` or ``*locale*-href``), or the element or its parent
    is named for a language choice (tag, ``id``, ``class``: :data:`_TOGGLE_NAME`)."""
    for name, value in element.items():
        if _TOGGLE_ATTRIBUTE.search(name) and absolute_url(base, value) == url:
            return True
    parent = element.getparent()
    for node in (element, parent):
        if node is None or not isinstance(node.tag, str):
            continue
        names = (node.tag, node.get("id") or "", *(node.get("class") or "").split())
        if any(name and _TOGGLE_NAME.search(name) for name in names):
            return True
    return False


def _label(element: object) -> str:
    """A component's ``text`` or ``label`` attribute (``""`` if none)."""
    get = getattr(element, "get", None)
    if get is None:
        return ""
    return next((_collapse(value) for name in LABEL_ATTRIBUTES if (value := get(name))), "")


def option_url(value: str, base: str) -> str | None:
    """The absolute URL an ``<option value>`` of a language menu holds, or None when the value
    is no URL or path (``1``, ``fr``)."""
    value = value.strip()
    if not _OPTION_URL.search(value):
        return None
    return absolute_url(base, value)


def _add_image(element: etree._Element, base: str, link: _Link, src: bool = True) -> None:
    alt = _collapse(element.get("alt") or "")
    if alt:
        link.alts.append(alt)
    if src:
        url = absolute_url(base, element.get("src"))
        if url:
            link.srcs.append(url)


def _add_alternate(element: etree._Element, base: str, position: int, found: list[_Link]) -> None:
    rel = (element.get("rel") or "").lower().split()
    hreflang = element.get("hreflang")
    if "alternate" not in rel or not hreflang:
        return
    url = absolute_url(base, element.get("href"))
    if url is None:
        return
    link = _Link(url, position, None, title=_collapse(element.get("title") or ""), in_text=False)
    link.hreflang = _language(hreflang)
    link.end = position
    found.append(link)


def _add_refresh(element: etree._Element, base: str, position: int, found: list[_Link]) -> None:
    """``<meta http-equiv="refresh" content="0; url=...">``: a link with no anchor and no text."""
    if (element.get("http-equiv") or "").strip().lower() != "refresh":
        return
    match = _REFRESH_URL.match(element.get("content") or "")
    url = absolute_url(base, match.group(2)) if match else None
    if url is None:
        return
    link = _Link(url, position, None, in_text=False)
    link.end = position
    found.append(link)


def _context(
    link: _Link,
    page_url: str,
    page_lang: str,
    words: list[str],
    around_words: int,
    join: Callable[[list[str]], str],
) -> LinkContext:
    """``join``: :func:`_join`, or plain ``" ".join`` for a page with no unspaced script."""
    around_words = max(0, around_words) if link.in_text else 0
    before = words[max(0, link.start - around_words) : link.start]
    after = words[link.end : link.end + around_words]
    block_text = block_around = ""
    if link.block is not None:
        block_before = words[max(link.block.start, link.start - around_words) : link.start]
        block_after = words[link.end : min(link.block.end, link.end + around_words)]
        block_around = " ".join(p for p in (join(block_before), join(block_after)) if p)
        start = max(link.block.start, link.start - MAX_BLOCK_WORDS // 2)
        end = min(link.block.end, start + MAX_BLOCK_WORDS)
        block_text = join(words[start:end])
    return LinkContext(
        url=link.url,
        page_url=page_url,
        anchor=(join(words[link.start : link.end]) if link.from_text else "")
        or _label(link.element),
        around=" ".join(part for part in (join(before), join(after)) if part),
        img_alt=" ".join(link.alts),
        img_src=" ".join(link.srcs),
        title=link.title,
        hreflang=link.hreflang,
        block_text=block_text,
        page_lang=page_lang,
        block_around=block_around,
        toggle=link.toggle,
        lang="" if same_language(link.lang, page_lang) else link.lang,
    )


def _join(words: list[str]) -> str:
    """Words joined by spaces, except between two characters of an unspaced script."""
    if not words:
        return ""
    joined = " ".join(words)
    if not _IS_UNSPACED.search(joined):  # no Chinese or Japanese: plain spaces (most pages)
        return joined
    parts = [words[0]]
    for previous, word in zip(words, words[1:], strict=False):
        if not (
            len(word) == 1
            and len(previous) == 1
            and _IS_UNSPACED.match(word)
            and _IS_UNSPACED.match(previous)
        ):
            parts.append(" ")
        parts.append(word)
    return "".join(parts)


def _collapse(text: str) -> str:
    return " ".join(text.split())
