"""Web search through the Google Custom Search JSON API (``GET /customsearch/v1``).

Parameters: ``key`` (the API key), ``cx`` (the search engine id), ``q`` (the query with its
operators: ``site:``, ``inurl:``, ``filetype:``), ``num`` (1-10) and ``start`` (1-based; the API
never answers beyond result 100). The answer's ``items`` carry ``link``, ``title``, ``snippet``
and, for non-HTML files, ``mime``; ``queries.nextPage[0].startIndex`` gives the next page;
``searchInformation.totalResults`` is a string.

**Closing.** Google closed the API to new customers and ends it for existing ones on 2027-01-01;
the service logs :data:`CLOSING` (a WARNING) when it is the crawl's web-search adapter.

The key travels in the URL, so it is never put into a queued request: the credentials
middleware adds ``key=`` right before the download and takes it out of the response, and a log
filter redacts it from anything logged meanwhile (a timeout message, say).
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import urlencode

from bilingual_spider.search.adapter import SANDBOX_API, RemoteAdapter, load_json, result_links
from bilingual_spider.search.values import (
    SEARCH,
    AnswerError,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

NAME = "google_cse"
REAL_URL = "https://www.googleapis.com/customsearch/v1"
SANDBOX_URL = f"{SANDBOX_API}/customsearch/v1"
MAX_NUM = 10
MAX_REACHABLE = 100  # "The JSON API will never return more than 100 results"
CLOSING = (
    "web search through Google Custom Search (google_cse): the API is closed to new customers "
    "and ends for existing ones on 2027-01-01; use the Brave Search API instead "
    "(BILINGUAL_SEARCH_WEB=brave, key in BILINGUAL_BRAVE_KEY or BRAVE_API_KEY)"
)


def cse_params(query: SearchQuery, cx: str, num: int, start: int = 1) -> dict[str, str]:
    """The query parameters of one page, without the key."""
    num = max(1, min(MAX_NUM, num, MAX_REACHABLE - start + 1))
    return {"cx": cx, "q": query.target, "num": str(num), "start": str(start)}


def parse_cse(data: Any) -> tuple[list[FoundLink], str | None, int | None]:
    """The results of one answer page, the next ``start`` (None on the last page) and the
    estimated total.

    >>> parse_cse({"items": [{"link": "http://a.es/", "title": "A", "snippet": "s"}],
    ...            "queries": {"nextPage": [{"startIndex": 11}]},
    ...            "searchInformation": {"totalResults": "42"}})[1:]
    ('11', 42)
    """
    if not isinstance(data, dict) or "error" in data:
        raise AnswerError("a Custom Search answer is an object without an error")
    links = result_links(data.get("items", []), "link", "snippet", "Custom Search")
    following = None
    pages = (
        data.get("queries", {}).get("nextPage") if isinstance(data.get("queries"), dict) else None
    )
    if isinstance(pages, list) and pages and isinstance(pages[0], dict):
        start = pages[0].get("startIndex")
        if isinstance(start, int) and not isinstance(start, bool) and 1 <= start <= MAX_REACHABLE:
            following = str(start)
    total = None
    information = data.get("searchInformation")
    if isinstance(information, dict):
        try:
            total = int(information.get("totalResults", ""))
        except (TypeError, ValueError, OverflowError):
            total = None
    return links, following, total


class GoogleCse(RemoteAdapter):
    """Google Custom Search: ``site:``/``inurl:``/``filetype:`` queries, 10 results a page."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (SEARCH,)
    default_rate: ClassVar[float] = 1.0
    """The API's default quota: 100 queries per 100 seconds per user (Google Cloud console)."""

    def __init__(
        self, base_url: str = REAL_URL, page_size: int = MAX_NUM, key: str = "", cx: str = ""
    ) -> None:
        super().__init__(base_url, min(page_size, MAX_NUM))
        self.key, self.cx = key, cx

    def call(self, query: SearchQuery, continuation: str | None = None) -> HttpCall:
        start = int(continuation) if continuation else 1
        num = min(query.limit or self.page_size, self.page_size)
        return HttpCall(f"{self.base_url}?{urlencode(cse_params(query, self.cx, num, start))}")

    def parse(
        self, query: SearchQuery, status: int, body: bytes, continuation: str | None = None
    ) -> SearchPage:
        links, following, total = parse_cse(load_json(body))
        return SearchPage(query, self.name, tuple(links), following, total)

    def add_credentials(self, url: str, headers: dict[str, str]) -> tuple[str, dict[str, str]]:
        if not self.key:
            return url, headers
        separator = "&" if "?" in url else "?"
        return f"{url}{separator}{urlencode({'key': self.key})}", headers

    def secrets(self) -> tuple[str, ...]:
        if not self.key:
            return ()
        return tuple(dict.fromkeys((self.key, urlencode({"k": self.key})[2:])))

    def missing_configuration(self) -> str | None:
        if not self.key or not self.cx:
            return "Google Custom Search needs BILINGUAL_GOOGLE_CSE_KEY and BILINGUAL_GOOGLE_CSE_CX"
        return None
