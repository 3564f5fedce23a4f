"""URL-index lookups in Common Crawl's CDX index (``index.commoncrawl.org``, served by pywb).

``GET <base>/collinfo.json`` lists the collections, newest first; ``GET <base>/<COLL>-index``
takes ``url``, ``matchType`` (``exact``, ``prefix``, ``host``, ``domain``), ``output=json`` (one
JSON object a line), ``filter`` (pywb's ``[!][=|~]field:value``), ``limit``, ``page`` and
``showNumPages=true``. Records carry ``url``, ``status``, ``mime`` and, for HTML captures,
``languages`` (ISO 639-3); every value is a string.

Paging follows pywb's ZipNum indexes: a first call with ``showNumPages=true`` says how many
pages the query has (a *preflight*: no links), then ``page=0, 1, ...`` fetch them. A query with
a ``limit`` asks one page only. No match is answered **404** ``{"message": "No Captures found
for: ..."}``: an empty answer, not an error. Common Crawl asks clients that get a 503 to slow
down (cdx_toolkit backs off); the service does so for every 429 and 5xx.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar
from urllib.parse import urlencode

from bilingual_spider.search.adapter import SANDBOX_API, RemoteAdapter, load_json
from bilingual_spider.search.values import (
    URL_INDEX,
    AnswerError,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

NAME = "cc_index"
REAL_URL = "https://index.commoncrawl.org"
SANDBOX_URL = f"{SANDBOX_API}/cc-index"
PAGES_ONLY_FILTERS = ("=status:200", "=mime:text/html")


def cdx_params(
    query: SearchQuery, page: int | None = None, show_num_pages: bool = False
) -> list[tuple[str, str]]:
    """The parameters of one call (a list: ``filter`` may repeat)."""
    params = [("url", query.target), ("matchType", query.scope or "exact"), ("output", "json")]
    if query.pages_only:
        params += [("filter", f) for f in PAGES_ONLY_FILTERS]
    if show_num_pages:
        return [*params, ("showNumPages", "true")]
    if query.limit:
        params.append(("limit", str(query.limit)))
    if page is not None:
        params.append(("page", str(page)))
    return params


def parse_cdx_lines(body: bytes) -> list[FoundLink]:
    """The captures of an NDJSON answer (``output=json``), blank lines skipped.

    >>> line = b'{"url": "http://a.es/", "status": "200", "languages": "spa,eng"}'
    >>> [(c.url, c.status, c.languages) for c in parse_cdx_lines(line + b"\\n")]
    [('http://a.es/', 200, ('spa', 'eng'))]
    """
    found = []
    for number, line in enumerate(body.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # see adapter.load_json
            raise AnswerError(f"CDX line {number} is not JSON: {str(exc)[:200]}") from None
        if not isinstance(record, dict) or not isinstance(record.get("url"), str):
            raise AnswerError(f"CDX line {number} is not a capture record")
        found.append(
            FoundLink(
                url=record["url"],
                status=_status(record.get("status")),
                mime=str(record.get("mime", "")),
                languages=tuple(x for x in str(record.get("languages", "")).split(",") if x),
            )
        )
    return found


def parse_num_pages(data: Any) -> int:
    """The page count of a ``showNumPages`` answer."""
    pages = data.get("pages") if isinstance(data, dict) else None
    if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
        raise AnswerError("a showNumPages answer has a number of pages")
    return pages


def parse_collinfo(data: Any) -> str:
    """The id of the newest collection in ``collinfo.json`` (listed first)."""
    if not isinstance(data, list) or not data or not isinstance(data[0], dict):
        raise AnswerError("collinfo.json is a non-empty list of collections")
    collection = data[0].get("id")
    if not isinstance(collection, str) or not collection:
        raise AnswerError("a collection has an id")
    return collection


def _status(value: object) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None  # "-" for revisit records


def _continuation(page: int, pages: int) -> str | None:
    return f"{page}/{pages}" if page < pages else None


def _split(continuation: str) -> tuple[int, int]:
    try:
        page, pages = (int(x) for x in continuation.split("/"))
    except ValueError:
        raise ValueError(f"bad CDX continuation {continuation!r}") from None
    return page, pages


class CcIndex(RemoteAdapter):
    """Common Crawl's CDX server: the captures of a URL, a prefix, a host or a domain."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (URL_INDEX,)
    default_rate: ClassVar[float] = 1.0
    """Common Crawl publishes no number; it asks to slow down on 503. One a second."""
    empty_statuses: ClassVar[tuple[int, ...]] = (404,)
    takes_key: ClassVar[bool] = False

    def __init__(self, base_url: str = REAL_URL, collection: str | None = None) -> None:
        super().__init__(base_url, 0)
        self.collection = collection

    def setup_call(self) -> HttpCall | None:
        """``collinfo.json``, when no collection was named: the newest is used."""
        return None if self.collection else HttpCall(f"{self.base_url}/collinfo.json")

    def setup(self, body: bytes) -> None:
        self.collection = parse_collinfo(load_json(body))

    @property
    def endpoint(self) -> str:
        if not self.collection:
            raise RuntimeError("the CDX collection is not known yet (setup_call first)")
        return f"{self.base_url}/{self.collection}-index"

    def call(self, query: SearchQuery, continuation: str | None = None) -> HttpCall:
        if continuation is None and query.limit:
            params = cdx_params(query, page=0)
        elif continuation is None:
            params = cdx_params(query, show_num_pages=True)
        else:
            params = cdx_params(query, page=_split(continuation)[0])
        return HttpCall(f"{self.endpoint}?{urlencode(params)}")

    def parse(
        self, query: SearchQuery, status: int, body: bytes, continuation: str | None = None
    ) -> SearchPage:
        if status == 404:
            return SearchPage(query, self.name, (), None, 0)  # "No Captures found"
        if continuation is None and not query.limit:
            pages = parse_num_pages(load_json(body))
            return SearchPage(query, self.name, (), _continuation(0, pages), preflight=True)
        found = tuple(parse_cdx_lines(body))
        if continuation is None:  # a limited query: one page
            return SearchPage(query, self.name, found)
        page, pages = _split(continuation)
        return SearchPage(query, self.name, found, _continuation(page + 1, pages))
