"""The values that travel between the crawler and a search or backlink service: a query, the
links an answer found, one page of an answer, and the HTTP call that asks for it.

Plain frozen dataclasses, no Scrapy: an adapter turns a :class:`SearchQuery` into an
:class:`HttpCall` and an answer's bytes into a :class:`SearchPage`; the Scrapy side
(:mod:`bilingual_spider.search.service`) turns the call into a ``scrapy.Request``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

BACKLINKS = "backlinks"
"""Pages that link to ``target`` (a URL, or with scope ``host``/``domain`` a host name)."""
SEARCH = "search"
"""A web search: ``target`` is the query text with its operators (``site:``, ``inurl:``,
``filetype:``)."""
URL_INDEX = "url_index"
"""A URL-index lookup: the captures of ``target`` (scope ``exact``, ``prefix``, ``host`` or
``domain``)."""
KINDS = (BACKLINKS, SEARCH, URL_INDEX)

BACKLINK_SCOPES = ("page", "host", "domain")
INDEX_SCOPES = ("exact", "prefix", "host", "domain")


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """One question to a search or backlink service.

    Parameters
    ----------
    kind:
        :data:`BACKLINKS`, :data:`SEARCH` or :data:`URL_INDEX`.
    target:
        The URL or host whose backlinks are asked, the search text, or the URL looked up.
    scope:
        Backlinks: ``page`` (links into this URL), ``host`` or ``domain`` (into any page of
        it). URL index: ``exact``, ``prefix``, ``host`` or ``domain``. Search: ``""``.
    pages_only:
        Keep only successful HTML pages (URL index: ``status:200`` and ``text/html``).
    limit:
        At most this many results per answer page (``None``: the adapter's page size).
    """

    kind: str
    target: str
    scope: str = ""
    pages_only: bool = False
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown query kind {self.kind!r} (one of {', '.join(KINDS)})")
        if not self.target.strip():
            raise ValueError("a query needs a target")
        scopes = {BACKLINKS: BACKLINK_SCOPES, URL_INDEX: INDEX_SCOPES, SEARCH: ("",)}[self.kind]
        if self.scope not in scopes:
            raise ValueError(f"{self.kind}: scope {self.scope!r} is not one of {scopes}")
        if self.limit is not None and self.limit < 1:
            raise ValueError("limit must be positive")

    @classmethod
    def backlinks(cls, target: str, scope: str = "page", limit: int | None = None) -> SearchQuery:
        """The pages that link to ``target`` (a URL; a host name with scope ``host``)."""
        return cls(BACKLINKS, target, scope, limit=limit)

    @classmethod
    def search(cls, text: str, limit: int | None = None) -> SearchQuery:
        """A web search, e.g. ``inurl:en site:gov.hk filetype:html`` (Zhang et al. 4.5)."""
        return cls(SEARCH, text, "", limit=limit)

    @classmethod
    def url_index(
        cls, target: str, scope: str = "exact", pages_only: bool = False, limit: int | None = None
    ) -> SearchQuery:
        """The captures of a URL (or of every URL under a prefix, a host, a domain)."""
        return cls(URL_INDEX, target, scope, pages_only, limit)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> SearchQuery:
        return cls(**values)

    def describe(self) -> str:
        """A short human form for logs: ``backlinks(page) of http://...``."""
        scope = f"({self.scope})" if self.scope else ""
        return f"{self.kind}{scope} {self.target!r}"


@dataclass(frozen=True, slots=True)
class FoundLink:
    """One URL an answer found, with whatever context the service gave.

    ``level`` is ``page`` when the service names the page itself, ``host`` when it only knows a
    host (a host-graph edge): the URL is then that host's home page.
    """

    url: str
    target: str = ""
    """Backlinks: the page it links to (when the service says which)."""
    anchor: str = ""
    title: str = ""
    snippet: str = ""
    status: int | None = None
    """URL index: the HTTP status of the capture."""
    mime: str = ""
    languages: tuple[str, ...] = ()
    """Languages the service detected (Common Crawl: ISO 639-3 codes)."""
    level: str = "page"
    via_host: str = ""
    """Set when a host-level backlink was resolved to this page: the referring host."""

    def as_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["languages"] = list(self.languages)
        return values


@dataclass(frozen=True, slots=True)
class SearchPage:
    """One page of an answer.

    ``continuation`` asks for the next page (a Moz ``next_token``, a Google ``start``, a CDX
    page number), ``None`` on the last one. ``preflight`` marks an answer that holds no links
    but only says how to page (a CDX ``showNumPages``): the service follows it without handing
    it to the spider. ``error`` is set when the call failed for good (the links are then empty);
    ``error_reported`` when the search service reports that failure itself (the API's health: it
    is down, stopped or fails too often, in one WARNING or ERROR of its own), so that a spider
    logs it as INFO, not as one more WARNING.
    """

    query: SearchQuery
    adapter: str
    links: tuple[FoundLink, ...] = ()
    continuation: str | None = None
    total: int | None = None
    preflight: bool = False
    error: str | None = None
    page_number: int = 1
    cached: bool = False
    error_reported: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "query": self.query.as_dict(),
            "adapter": self.adapter,
            "links": [link.as_dict() for link in self.links],
            "continuation": self.continuation,
            "total": self.total,
            "error": self.error,
            "page_number": self.page_number,
            "cached": self.cached,
        }


@dataclass(frozen=True, slots=True)
class HttpCall:
    """The HTTP request an adapter wants sent, without its credentials (added at the last
    moment by the downloader middleware in
    :mod:`bilingual_spider.middlewares.search_credentials`)."""

    url: str
    method: str = "GET"
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = field(default=())

    @classmethod
    def post_json(cls, url: str, value: Any) -> HttpCall:
        body = json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8")
        return cls(url, "POST", body, (("Content-Type", "application/json"),))


class AnswerError(ValueError):
    """An answer that cannot be read (not the format the service speaks)."""


class QueryRefused(ValueError):
    """A query an adapter will not answer (a substring search over a whole Common Crawl index
    without a ``site:`` would read all of it): its answer is a page with this error."""
