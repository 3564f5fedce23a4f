"""How each site a ``backforth`` crawl reached was found (``seed``, ``forward link of URL``,
``backlink page of SITE``), for the :class:`~bilingual_spider.items.BilingualSiteItem` of its
verdict.

The worker that reaches a site notes how, and its request carries the note
(:data:`FOUND_BY_META`); with Redis the site's verdict often comes to another worker, so the
first page of the site, or a backlink page on it, writes the note to the crawl state's
:class:`~bilingual_spider.state.FoundBy` store, where whichever worker judges the site takes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bilingual_spider.state import FoundBy

FOUND_BY_META = "found_by"
"""Request meta key: how the site of a seed or forward request was reached."""


class SiteOrigins:
    """The notes of this worker (until each site's verdict) over the crawl's ``store``;
    ``site_of``: a URL's site."""

    def __init__(self, store: FoundBy | None, site_of: Callable[[str], str]) -> None:
        self.store = store
        self.site_of = site_of
        self._noted: dict[str, str] = {}

    def reached(self, site: str, how: str) -> None:
        """This worker reached ``site`` (it requests its first page, or fetched a page of it)."""
        self._noted[site] = how

    def meta(self, site: str) -> dict[str, str]:
        """What the request of ``site``'s first page carries of how it was reached."""
        how = self._noted.get(site)
        return {FOUND_BY_META: how} if how else {}

    def first_page(self, meta: dict[str, Any], url: str) -> None:
        """The first page of a site was answered (or failed): the note its request carried
        goes to the store (the site of its first URL, before any redirect)."""
        how = meta.get(FOUND_BY_META)
        if how and self.store is not None:
            self.store.note(self.site_of(meta.get("redirect_urls", [url])[0]), how)

    def share(self, site: str) -> None:
        """This worker's note of ``site``, if any, goes to the store (a backlink page on it:
        its verdict may come to another worker)."""
        how = self._noted.get(site)
        if how and self.store is not None:
            self.store.note(site, how)

    def judged(self, site: str, bilingual: bool) -> str:
        """How ``site``, judged now, was found: the store's note, else this worker's; both
        forgotten."""
        noted = self._noted.pop(site, "")
        taken = self.store.take(site, bilingual) if self.store is not None else None
        return taken or noted

    def forget(self, site: str) -> None:
        """Another worker judged ``site``: this worker's note is of no use."""
        self._noted.pop(site, None)
