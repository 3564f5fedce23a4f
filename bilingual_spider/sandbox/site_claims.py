"""Real sites that say wrong things of their translations, or say them only by a toggle
(issue 51): two publish styles of :mod:`.published_sites`, each a pure function of a site's
files.

- ``hreflang_claims`` (:func:`claimed_alternates`, :func:`claims_html`): the pages as they are,
  each with ``<link rel="alternate" hreflang>`` in its head for every language its page has a
  file of its own in (itself included), as a CMS writes them, and with the faults real sites
  have, drawn per document or page by a hash of its name (the same every build):

  - ``mixed``: documents mixed up in twos, both ways (a page of document A names B's version,
    and that page names A's): translation ids confused by a CMS;
  - ``home``: a page names the other language's home page for every language (a template's
    link);
  - ``one_way``: a page names the next document's version, which names its own (not back);
  - ``stale``: a page names its translation under its old name (``old-`` before the file
    name), which the site no longer serves: a restructuring left the link behind.

- ``toggle_only`` (:func:`toggle_slugs`, :func:`toggle_html`): the site in its source language
  and one other (``toggle_lang``), every page at a translated slug of its own
  (``LANG/<hash>/``: no URL pattern pairs two versions), its links custom elements
  (:func:`~.published_sites.component_links`), and one cross-language link: the header's toggle
  as design systems write it, attributes across lines in single quotes, no label, no
  ``hreflang``, no menu (``<TAG-header\\n  lang="en"\\n  lang-href='...'>``). A page whose
  translation is an untranslated copy toggles to the copy.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Mapping, Sequence
from html import escape

from bilingual_spider.sandbox.real_site import PageFile, RealSite, group_by_page

FAULTS = ("mixed", "home", "one_way", "stale")
_HEAD_OPEN = re.compile(r"<head\b[^>]*>", re.IGNORECASE)
_HTML_OPEN = re.compile(r"<html\b[^>]*>", re.IGNORECASE)
_A_HREF = re.compile(r"""(<a\b[^>]*?\bhref\s*=\s*)(["'])([^"']*)\2""", re.IGNORECASE)


def draw(key: str) -> float:
    """A number in [0, 1) drawn from ``key`` (the same every build)."""
    return int(hashlib.sha1(key.encode("utf-8")).hexdigest()[:8], 16) / 2**32


def fault_of(key: str, shares: Mapping[str, float], kinds: Sequence[str]) -> str | None:
    """The fault of ``kinds`` drawn for ``key`` by ``shares`` (``None``: right)."""
    point, start = draw(key), 0.0
    for kind in kinds:
        start += shares.get(kind, 0.0)
        if point < start:
            return kind
    return None


def _own_versions(files: Sequence[PageFile]) -> dict[str, dict[str, PageFile]]:
    """Page id -> language -> its file of its own (no untranslated symlink), for the pages in
    two languages or more."""
    groups = {
        page: {lang: f for lang, f in by_lang.items() if not f.symlink}
        for page, by_lang in group_by_page(files).items()
    }
    return {page: own for page, own in sorted(groups.items()) if len(own) > 1}


def claimed_alternates(
    site: RealSite, files: Sequence[PageFile], shares: Mapping[str, float]
) -> tuple[dict[str, list[tuple[str, str]]], dict[str, int]]:
    """Each page file's declared alternates (relative path -> ``(language, url)``) with the
    faults of ``shares`` (per :data:`FAULTS` kind), and how many pages have each fault."""
    documents = _own_versions(files)
    names = list(documents)
    mixed = [page for page in names if fault_of(page, shares, ("mixed",)) == "mixed"]
    partner = {page: page for page in names}
    for a, b in zip(mixed[::2], mixed[1::2], strict=False):
        partner[a], partner[b] = b, a
    home_page = next((f.page for f in files if f.relative == site.home), None)
    home = documents.get(home_page or "", {})
    declared: dict[str, list[tuple[str, str]]] = {}
    counts = dict.fromkeys(FAULTS, 0)
    for index, page in enumerate(names):
        following = documents[names[(index + 1) % len(names)]]
        for lang, page_file in documents[page].items():
            fault = "mixed" if partner[page] != page else None
            fault = fault or fault_of(page_file.relative, shares, FAULTS[1:])
            named = documents[partner[page]]
            alternates = [(lang, site.url(page_file.relative))]
            for other, other_file in sorted(documents[page].items()):
                if other == lang:
                    continue
                target = named.get(other, other_file).relative
                if fault == "home" and other in home:
                    target = home[other].relative
                elif fault == "one_way" and other in following:
                    target = following[other].relative
                elif fault == "stale":
                    head, tail = posixpath.split(target)
                    target = posixpath.join(head, "old-" + tail)
                alternates.append((other, site.url(target)))
            declared[page_file.relative] = alternates
            if fault:
                counts[fault] += 1
    return declared, counts


def claims_html(html: str, alternates: Sequence[tuple[str, str]]) -> str:
    """``html`` with ``<link rel="alternate" hreflang>`` of each ``(language, url)`` at the top
    of its head."""
    links = "".join(
        f'\n<link rel="alternate" hreflang="{escape(lang)}" href="{escape(url)}">'
        for lang, url in alternates
    )
    opened = _HEAD_OPEN.search(html) or _HTML_OPEN.search(html)
    at = opened.end() if opened else 0
    return html[:at] + links + html[at:]


def toggle_slugs(
    site: RealSite, files: Sequence[PageFile], toggle_lang: str
) -> dict[str, tuple[str, PageFile]]:
    """The pages of the source language and ``toggle_lang``, each at a translated slug of its
    own: relative path -> (its new relative path, its file)."""
    wanted = (site.source_lang, toggle_lang)
    slugs = {}
    for f in files:
        if f.lang in wanted:
            digest = hashlib.sha1(f"{f.lang} {f.page}".encode()).hexdigest()[:10]
            slugs[f.relative] = (f"{f.lang}/{digest}/index.html", f)
    return slugs


def slug_href(from_relative: str, to_relative: str) -> str:
    """A relative link from the page at ``from_relative`` to the slug directory of
    ``to_relative`` (``../../fr/<hash>/``)."""
    start = posixpath.dirname(from_relative) or "."
    return posixpath.relpath(posixpath.dirname(to_relative), start) + "/"


def renamed_links(html: str, relative: str, new_relative: str, slugs: Mapping[str, str]) -> str:
    """``html`` of the page at ``relative``, now at ``new_relative``, with each ``<a href>`` to
    a page of ``slugs`` (old relative path -> new) led to its new place (fragment kept)."""

    def rename(found: re.Match[str]) -> str:
        href = found.group(3)
        path, _, fragment = href.partition("#")
        if not path or "://" in path or path.startswith(("/", "mailto:")):
            return found.group(0)
        target = posixpath.normpath(posixpath.join(posixpath.dirname(relative), path))
        if target not in slugs:
            return found.group(0)
        new = slug_href(new_relative, slugs[target]) + (f"#{fragment}" if fragment else "")
        return f"{found.group(1)}{found.group(2)}{new}{found.group(2)}"

    return _A_HREF.sub(rename, html)


def toggle_html(page: str, tag: str, lang: str, toggle: str | None) -> str:
    """A page's language toggle as a design system's header writes it, after ``<body>``: its
    attributes across lines in single quotes, no label (its script draws one)."""
    header = f'<{tag}-header\n  lang="{escape(lang)}"'
    if toggle:
        header += f"\n  lang-href='{escape(toggle)}'"
    header += "\n  skip-to-href='#main-content'>\n" + f"</{tag}-header>"
    opened = re.search(r"<body\b[^>]*>", page, re.IGNORECASE)
    at = opened.end() if opened else 0
    return page[:at] + header + page[at:]
