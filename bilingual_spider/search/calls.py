"""What a search request carries: the :class:`SearchCall` in its meta, the answer page a callback
reads (:func:`search_page`), and the exceptions by which the service drops a request it will
answer otherwise (asked later, the crawl stopping)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response

from bilingual_spider.search.answer_cache import CacheKey
from bilingual_spider.search.values import SearchPage, SearchQuery
from bilingual_spider.state.request_meta import REDELIVERED_META, WORKER_LOCAL_META

SEARCH_CALL = "search_call"
"""Request meta key of the :class:`SearchCall` a request carries."""
SEARCH_PAGE = "search_page"
"""Request/response meta key of the :class:`SearchPage` answered."""
FAILED_STATUS = 599
"""Status of the response a callback gets when a call failed for good without an answer."""


class SearchFailed(Exception):
    """A call the service made for itself (a file download, a setup call) failed for good."""


class AskedLater(IgnoreRequest):
    """A query's call failed and the query is held to be asked again later."""


class CrawlStopping(IgnoreRequest):
    """A search call cancelled because the crawl is stopping (Ctrl-C, a budget spent)."""


@dataclass(frozen=True, slots=True)
class SearchCall:
    """What one search request asks (kept in its meta; picklable for disk and Redis queues)."""

    adapter: str
    query: SearchQuery | None
    continuation: str | None = None
    page_number: int = 1
    max_pages: int = 1
    attempt: int = 1
    later_round: int = 0
    inline: bool = False
    """Fetched by the service itself (``engine.download_async``), not for a spider callback."""
    raw: bool = False
    """A file download or setup call: the body is the answer, nothing is parsed."""
    error: str | None = None
    """Answer with this error, without any download (the query was given up)."""

    @property
    def key(self) -> CacheKey:
        assert self.query is not None
        return (self.adapter, self.query, self.continuation)


def search_page(response: Response) -> SearchPage:
    """The answer page a search request's callback received."""
    page = response.meta.get(SEARCH_PAGE)
    if not isinstance(page, SearchPage):
        raise ValueError(f"{response} is not the answer to a search request")
    return page


def user_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The meta a spider gave, without what Scrapy and the service added."""
    ours = {
        SEARCH_CALL,
        SEARCH_PAGE,
        "dont_retry",
        "dont_obey_robotstxt",
        "handle_httpstatus_all",
        "allow_offsite",
        "download_slot",
        WORKER_LOCAL_META,
        REDELIVERED_META,
        "depth",
        "retry_times",
        "download_latency",
        "download_timeout",
        "proxy",
        "_auth_proxy",
        "redirect_times",
        "redirect_urls",
        "redirect_ttl",
        "redirect_reasons",
    }
    return {k: v for k, v in meta.items() if k not in ours}


def describe_call(call: SearchCall) -> str:
    """How a log line names a call: its adapter, query and page (or its setup)."""
    if call.query is None:
        return f"{call.adapter} setup"
    page = f", page {call.page_number}" if call.page_number > 1 else ""
    return f"{call.adapter}: {call.query.describe()}{page}"
