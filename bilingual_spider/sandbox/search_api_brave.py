"""Web search in the format of the Brave Search API (``GET /res/v1/web/search``).

Parameters as Brave's API reference gives them: ``q`` (required, 1-400 characters, at most 50
words), ``count`` (1-20, default 20), ``offset`` (the zero-based page index in units of
``count``, 0-9, default 0: at most 200 results are reachable), ``text_decorations`` (default true:
the query's words in ``<strong>`` in descriptions), ``spellcheck``, ``result_filter``,
``country``, ``search_lang`` (accepted, not used). The key comes in the ``X-Subscription-Token``
header; any non-empty value is accepted.

The answer is ``{"type": "search", "query": {..., "more_results_available"}, "mixed": {...},
"web": {"type": "search", "results": [...], "family_friendly": true}}``; each result has
``title``, ``url``, ``description``, ``profile``, ``language``, ``meta_url`` and ``type:
"search_result"``. With no web result there is no ``web`` object. Errors are Brave's
``{"type": "ErrorResponse", "error": {"id", "status", "code", "detail", "meta"}, "time"}``:

- 422 ``VALIDATION`` for a request without the key (``meta.errors[].loc`` is ``["header",
  "x-subscription-token"]``, as the real API answers: it has no 401) and for bad parameters
  (``["query", "count"]``...), the ``meta.errors`` entries in the form of the real answers
  (pydantic's ``type``, ``loc``, ``msg``, ``input``, ``ctx``);
- 429 ``RATE_LIMITED`` when the sandbox config turns rate limiting on and the ``brave`` token
  bucket is empty, with ``Retry-After`` (which Brave does not document: the adapter also reads
  ``X-RateLimit-Reset``).

With rate limiting on, every answer carries ``X-RateLimit-Limit``, ``-Policy``, ``-Remaining``
and ``-Reset`` for two windows, the bucket's and a month's (:data:`MONTHLY_QUOTA`, never spent
in the sandbox), as Brave sends them (``X-RateLimit-Limit: 1, 2000``).

The query language is the Google fake's over the same index (:mod:`.search_api_google`, whose
ranking it shares), restricted to the operators Brave documents and the fake models:
``site:``, ``filetype:``/``ext:``, ``intitle:``, ``lang:``, ``"phrase"``, ``-term``. **No
``inurl:``**: Brave has none, and here ``inurl:en`` is two words that no page has in common
(``inurl`` and ``en``), so a client that sends it gets no result rather than a generous one.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from bilingual_spider.sandbox.search_api_google import (
    CustomSearch,
    ParsedQuery,
    highlight,
    parse_query,
)
from bilingual_spider.sandbox.search_api_http import ApiAnswer, TokenBucket, json_answer

PATH = "/res/v1/web/search"
MAX_COUNT = 20
MAX_OFFSET = 9
MAX_QUERY_CHARACTERS = 400
MAX_QUERY_WORDS = 50
OPERATORS = frozenset({"site", "filetype", "ext", "intitle", "lang"})
TOKEN_HEADER = "x-subscription-token"
MONTHLY_QUOTA = 2000
"""Requests a month of the free plan (Brave's plan page); the sandbox never counts them down."""
MONTH = 2_592_000  # the monthly window, in seconds, as X-RateLimit-Policy gives it
_FALSE = frozenset({"false", "0"})


def brave_error(
    status: int, code: str, detail: str, meta: dict[str, Any], headers: dict | None = None
) -> ApiAnswer:
    """Brave's error JSON."""
    error = {"id": str(uuid.uuid4()), "status": status, "code": code, "detail": detail}
    return json_answer(
        status,
        {"type": "ErrorResponse", "error": {**error, "meta": meta}, "time": 1_700_000_000},
        headers,
    )


def validation_error(problems: list[dict[str, Any]]) -> ApiAnswer:
    return brave_error(
        422, "VALIDATION", "Unable to validate request parameter(s)", {"errors": problems}
    )


def rate_limited(headers: dict[str, str]) -> ApiAnswer:
    return brave_error(
        429,
        "RATE_LIMITED",
        "Request rate limit exceeded for plan.",
        {"component": "rate_limiter"},
        headers,
    )


def rate_limit_headers(bucket: TokenBucket) -> dict[str, str]:
    """Brave's rate-limit headers: the bucket's window (``capacity`` a ``capacity / rate``
    seconds) and the month's, as ``second, month`` pairs."""
    window = max(1, math.ceil(bucket.capacity / bucket.rate))
    left = max(0, math.floor(bucket.tokens))
    reset = max(1, math.ceil((1.0 - min(1.0, bucket.tokens)) / bucket.rate)) if left < 1 else 0
    return {
        "X-RateLimit-Limit": f"{bucket.capacity}, {MONTHLY_QUOTA}",
        "X-RateLimit-Policy": f"{bucket.capacity};w={window}, {MONTHLY_QUOTA};w={MONTH}",
        "X-RateLimit-Remaining": f"{left}, {MONTHLY_QUOTA}",
        "X-RateLimit-Reset": f"{reset}, {MONTH}",
    }


def _problem(kind: str, name: str, message: str, value: object, **ctx: object) -> dict:
    problem = {"type": kind, "loc": ["query", name], "msg": message, "input": value}
    if ctx:
        problem["ctx"] = ctx
    return problem


def _bounded_int(
    params: Mapping[str, str], name: str, default: int, low: int, high: int
) -> tuple[int, dict | None]:
    """A parameter read as pydantic does for Brave: (value, None) or (default, the problem)."""
    text = params.get(name)
    if text is None:
        return default, None
    try:
        value = int(text)
    except ValueError:
        message = "Input should be a valid integer, unable to parse string as an integer"
        return default, _problem("int_parsing", name, message, text)
    if value < low:
        message = f"Input should be greater than or equal to {low}"
        return default, _problem("greater_than_equal", name, message, text, ge=low)
    if value > high:
        message = f"Input should be less than or equal to {high}"
        return default, _problem("less_than_equal", name, message, text, le=high)
    return value, None


def _query_problem(q: str | None) -> dict | None:
    if q is None:
        return {"type": "missing", "loc": ["query", "q"], "msg": "Field required", "input": None}
    if not q.strip():
        message = "String should have at least 1 character"
        return _problem("string_too_short", "q", message, q, min_length=1)
    if len(q) > MAX_QUERY_CHARACTERS:
        message = f"String should have at most {MAX_QUERY_CHARACTERS} characters"
        return _problem("string_too_long", "q", message, q, max_length=MAX_QUERY_CHARACTERS)
    if len(q.split()) > MAX_QUERY_WORDS:
        return _problem("value_error", "q", f"Query has more than {MAX_QUERY_WORDS} words", q)
    return None


class BraveWebSearch:
    """The ``res/v1/web/search`` endpoint over the Google fake's index and ranking."""

    def __init__(self, engine: CustomSearch) -> None:
        self.engine = engine
        self.index = engine.index

    def answer(
        self,
        params: Mapping[str, str],
        headers: Mapping[str, str],
        bucket: TokenBucket | None = None,
    ) -> ApiAnswer:
        if not headers.get(TOKEN_HEADER):
            missing = {"type": "missing", "loc": ["header", TOKEN_HEADER]}
            return validation_error([{**missing, "msg": "Field required", "input": None}])
        count, count_problem = _bounded_int(params, "count", MAX_COUNT, 1, MAX_COUNT)
        offset, offset_problem = _bounded_int(params, "offset", 0, 0, MAX_OFFSET)
        problems = [
            p for p in (_query_problem(params.get("q")), count_problem, offset_problem) if p
        ]
        if problems:
            return validation_error(problems)
        q = params["q"]
        query = parse_query(q, OPERATORS)
        results = self.engine.search(query)
        decorated = params.get("text_decorations", "true").lower() not in _FALSE
        spellcheck_off = params.get("spellcheck", "true").lower() in _FALSE
        body = self._json(q, query, results, count, offset, decorated, spellcheck_off)
        return json_answer(200, body, rate_limit_headers(bucket) if bucket else None)

    def _json(
        self,
        q: str,
        query: ParsedQuery,
        results: Any,
        count: int,
        offset: int,
        decorated: bool,
        spellcheck_off: bool,
    ) -> dict[str, Any]:
        start = offset * count
        page = results[start : start + count].tolist()
        more = offset < MAX_OFFSET and start + count < int(results.size)
        answer: dict[str, Any] = {
            "type": "search",
            "query": {
                "original": q,
                "show_strict_warning": False,
                "is_navigational": False,
                "is_news_breaking": False,
                "spellcheck_off": spellcheck_off,
                "country": "us",
                "bad_results": False,
                "should_fallback": False,
                "postal_code": "",
                "city": "",
                "header_country": "",
                "more_results_available": more,
                "state": "",
            },
            "mixed": {
                "type": "mixed",
                "main": [{"type": "web", "index": i, "all": False} for i in range(len(page))],
                "top": [],
                "side": [],
            },
        }
        if page:
            words = query.words + query.title_words if decorated else []
            results_json = [self._result(doc, words) for doc in page]
            answer["web"] = {"type": "search", "results": results_json, "family_friendly": True}
        return answer

    def _result(self, doc: int, words: list[str]) -> dict[str, Any]:
        index = self.index
        url = index.urls[doc]
        parts = urlsplit(url)
        host = parts.hostname or ""
        crumbs = " › ".join(s for s in parts.path.split("/") if s)
        description = index.snippet[doc]
        return {
            "title": index.title[doc],
            "url": url,
            "is_source_local": False,
            "is_source_both": False,
            "description": highlight(description, words, "strong") if words else description,
            "profile": {"name": host, "url": url, "long_name": host, "img": ""},
            "language": index.lang[doc].split("-")[0].lower() or "en",
            "family_friendly": True,
            "type": "search_result",
            "subtype": "generic",
            "is_live": False,
            "meta_url": {
                "scheme": parts.scheme,
                "netloc": parts.netloc,
                "hostname": host,
                "favicon": "",
                "path": f"› {crumbs}" if crumbs else "",
            },
        }
