"""Web search through the Brave Search API (``GET https://api.search.brave.com/res/v1/web/search``).

Parameters (Brave's API reference): ``q`` (1-400 characters, at most 50 words), ``count`` (1-20
results a page), ``offset`` (the zero-based *page* index, 0-9, in units of ``count``: at most 200
results are reachable), and ``spellcheck``, ``text_decorations``, ``result_filter``. The key
travels in the ``X-Subscription-Token`` header. The answer (``"type": "search"``) has
``web.results[]`` with ``url``, ``title`` and ``description`` (``<strong>`` marks unless
``text_decorations=false``), and ``query.more_results_available``; with no web result there is
no ``web`` object. Errors are ``{"type": "ErrorResponse", "error": {"code", "detail", "status",
"meta"}}``: 422 for a missing or invalid key (``VALIDATION`` with ``loc: ["header",
"x-subscription-token"]``, ``SUBSCRIPTION_TOKEN_INVALID``) and for bad parameters, 429
``RATE_LIMITED`` / ``QUOTA_LIMITED``. Every answer carries ``X-RateLimit-Limit``,
``-Policy``, ``-Remaining`` and ``-Reset``, one value per window (``1, 2000``: a second, a month).

**Operators.** Brave documents ``site:``, ``ext:``, ``filetype:``, ``intitle:``, ``inbody:``,
``inpage:``, ``lang:``, ``loc:``, ``+term``, ``-term``, ``"phrase"``, ``AND``/``OR``/``NOT``.
There is **no** ``inurl:``, which PupSniffer's search mode (Ma & Zhang; ``inurl:en
site:gov.hk``) is built on. This adapter rewrites such a query: every ``inurl:`` term is taken
out of ``q`` (so Brave is asked ``site:gov.hk``) and applied to the answers instead, keeping
only the URLs that contain it (``-inurl:`` drops them), compared as Google does, on the URL
without its scheme, case-insensitively. A query of ``inurl:`` terms alone sends them as plain
words. The filter sees at most the 20 x ``BILINGUAL_SEARCH_MAX_PAGES`` results asked (200 at
most), so a site whose language pages rank low is found less often than through Google.

The key is added by the credentials middleware right before the download, never in a queued
request, and redacted from every log record.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import urlencode

from bilingual_spider.search.adapter import SANDBOX_API, RemoteAdapter, load_json, result_links
from bilingual_spider.search.rate_limit import parse_retry_after
from bilingual_spider.search.values import (
    SEARCH,
    AnswerError,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

NAME = "brave"
REAL_URL = "https://api.search.brave.com/res/v1/web/search"
SANDBOX_URL = f"{SANDBOX_API}/res/v1/web/search"
TOKEN_HEADER = "X-Subscription-Token"
MAX_COUNT = 20
MAX_OFFSET = 9  # offset counts pages of ``count`` results
_INURL = re.compile(r'(?<!\S)(-?)inurl:("[^"]*"|\S+)', re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BraveQuery:
    """A query in Brave's terms: the text sent as ``q`` and the ``inurl:`` terms applied to the
    answers' URLs (``required`` must occur, ``excluded`` must not)."""

    q: str
    required: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()

    def keeps(self, url: str) -> bool:
        """True when ``url`` passes the ``inurl:`` terms."""
        bare = url.partition("://")[2].lower() if "://" in url else url.lower()
        return all(t in bare for t in self.required) and not any(t in bare for t in self.excluded)


def brave_query(text: str) -> BraveQuery:
    """``inurl:`` terms out of the query text, into a client-side URL filter.

    >>> brave_query("inurl:en site:gov.hk filetype:html")
    BraveQuery(q='site:gov.hk filetype:html', required=('en',), excluded=())
    >>> brave_query('-inurl:"Print" inurl:zh').q
    'zh'
    """
    required: list[str] = []
    excluded: list[str] = []
    for negated, term in _INURL.findall(text):
        term = term.strip('"').lower()
        if term:
            (excluded if negated else required).append(term)
    rest = " ".join(_INURL.sub(" ", text).split())
    return BraveQuery(rest or " ".join(required), tuple(required), tuple(excluded))


def brave_params(query: SearchQuery, count: int, offset: int = 0) -> dict[str, str]:
    """The query parameters of one page, without the key."""
    return {
        "q": brave_query(query.target).q,
        "count": str(max(1, min(MAX_COUNT, count))),
        "offset": str(offset),
        "spellcheck": "false",  # a corrected query is searched instead of ours
        "text_decorations": "false",
        "result_filter": "web",
    }


def parse_brave(data: Any, offset: int) -> tuple[list[FoundLink], str | None]:
    """The web results of one answer page and the next offset (None on the last page).

    >>> parse_brave({"type": "search", "query": {"more_results_available": True},
    ...              "web": {"results": [{"url": "http://a.es/", "title": "A"}]}}, 0)[1]
    '1'
    """
    if not isinstance(data, dict) or data.get("type") != "search":
        raise AnswerError('a Brave answer is an object of "type": "search"')
    web = data.get("web", {})
    results = web.get("results", []) if isinstance(web, dict) else None
    links = result_links(results, "url", "description", "Brave web")
    about = data.get("query")
    more = isinstance(about, dict) and about.get("more_results_available") is True
    following = str(offset + 1) if more and offset < MAX_OFFSET else None
    return links, following


def rate_limit_wait(header: Callable[[str], str | bytes | None]) -> float | None:
    """Seconds to wait after a 429: the ``Retry-After`` if sent, else the longest
    ``X-RateLimit-Reset`` of the windows with nothing left in ``X-RateLimit-Remaining`` (the
    first window's when Remaining is missing).

    >>> headers = {"X-RateLimit-Remaining": "0, 1500", "X-RateLimit-Reset": "1, 1419704"}
    >>> rate_limit_wait(headers.get)
    1.0
    """
    retry_after = parse_retry_after(header("Retry-After"))
    if retry_after is not None:
        return retry_after
    resets = _numbers(header("X-RateLimit-Reset"))
    if not resets:
        return None
    remaining = _numbers(header("X-RateLimit-Remaining"))
    spent = [reset for reset, left in zip(resets, remaining, strict=False) if left <= 0]
    return max(spent) if spent else resets[0]


def _numbers(value: str | bytes | None) -> list[float]:
    text = value.decode("latin-1") if isinstance(value, bytes) else (value or "")
    try:
        return [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        return []


class BraveSearch(RemoteAdapter):
    """Brave Search: ``site:``/``filetype:`` queries (``inurl:`` filtered here), 20 results a
    page, at most 10 pages."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (SEARCH,)
    default_rate: ClassVar[float] = 1.0
    """The free plan's limit: 1 request a second (``X-RateLimit-Limit: 1, ...``); paid plans
    allow more (raise it with ``BILINGUAL_SEARCH_RATES``)."""

    def __init__(self, base_url: str = REAL_URL, page_size: int = MAX_COUNT, key: str = "") -> None:
        super().__init__(base_url, min(page_size, MAX_COUNT))
        self.key = key

    def call(self, query: SearchQuery, continuation: str | None = None) -> HttpCall:
        offset = _offset(continuation)
        count = min(query.limit or self.page_size, self.page_size)
        params = urlencode(brave_params(query, count, offset))
        return HttpCall(f"{self.base_url}?{params}", headers=(("Accept", "application/json"),))

    def parse(
        self, query: SearchQuery, status: int, body: bytes, continuation: str | None = None
    ) -> SearchPage:
        links, following = parse_brave(load_json(body), _offset(continuation))
        wanted = brave_query(query.target)
        kept = tuple(link for link in links if wanted.keeps(link.url))
        return SearchPage(query, self.name, kept, following)

    def retry_after(self, header: Callable[[str], str | bytes | None]) -> float | None:
        return rate_limit_wait(header)

    def key_refused(self, status: int, body: bytes) -> bool:
        """Brave has no 401: a missing or wrong key is a 422 whose error names the token
        (``SUBSCRIPTION_TOKEN_INVALID``, or a ``VALIDATION`` error at ``x-subscription-token``)."""
        if status == 422:
            text = body[:4000].decode("utf-8", "replace").lower()
            return "subscription_token" in text or TOKEN_HEADER.lower() in text
        return super().key_refused(status, body)

    def add_credentials(self, url: str, headers: dict[str, str]) -> tuple[str, dict[str, str]]:
        if self.key:
            headers = {**headers, TOKEN_HEADER: self.key}
        return url, headers

    def secrets(self) -> tuple[str, ...]:
        return (self.key,) if self.key else ()

    def missing_configuration(self) -> str | None:
        if not self.key:
            return "the Brave Search API needs BILINGUAL_BRAVE_KEY (or BRAVE_API_KEY)"
        return None


def _offset(continuation: str | None) -> int:
    offset = int(continuation) if continuation else 0
    if not 0 <= offset <= MAX_OFFSET:
        raise ValueError(f"bad continuation {continuation!r}")
    return offset
