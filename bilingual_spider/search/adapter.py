"""What every search or backlink adapter offers: the one interface of this package.

A **remote** adapter speaks to a service over HTTP. It turns a :class:`SearchQuery` (and the
continuation of the page before, if any) into an :class:`HttpCall`, and an answer's status and
bytes into a :class:`SearchPage`. It never sends anything itself and holds no state but its
configuration, so it is tested without Scrapy; the service
(:mod:`bilingual_spider.search.service`) sends its calls as Scrapy requests.

A **local** adapter answers from data in this process (the crawl's own link graph, a host graph
indexed on disk). It may first need files fetched over HTTP (:meth:`LocalAdapter.downloads`),
which the service also fetches with Scrapy.

A **fetching** adapter (:class:`FetchingAdapter`) answers in this process from parts of remote
files (Common Crawl's Parquet index, by HTTP Range requests): its answers are coroutines given a
``fetch`` function, through which the service sends each call as a Scrapy request (paced,
retried on 429/5xx, counted), so the adapter itself still sends nothing.
"""

from __future__ import annotations

import html
import json
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from bilingual_spider.search.rate_limit import parse_retry_after
from bilingual_spider.search.values import (
    AnswerError,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

SANDBOX_API = "http://api.sandbox.internal"
"""Where the sandbox web serves every service's fake (see ``bilingual_spider/sandbox``)."""


class RemoteAdapter(ABC):
    """A service reached over HTTP.

    Subclasses set :attr:`name` (the key of its settings and stats), :attr:`kinds` (the query
    kinds it answers) and :attr:`default_rate` (requests per second the real service allows).
    """

    name: ClassVar[str]
    kinds: ClassVar[tuple[str, ...]]
    default_rate: ClassVar[float]
    empty_statuses: ClassVar[tuple[int, ...]] = ()
    """Error statuses that mean "no result" for this service (Common Crawl's 404)."""

    def __init__(self, base_url: str, page_size: int) -> None:
        self.base_url = base_url.rstrip("/")
        self.page_size = page_size

    @property
    def sandbox(self) -> bool:
        """True when the adapter speaks to the sandbox web's fake of its service."""
        return self.base_url.startswith(SANDBOX_API)

    @abstractmethod
    def call(self, query: SearchQuery, continuation: str | None = None) -> HttpCall:
        """The HTTP call that asks for one page of ``query``'s answer (no credentials)."""

    @abstractmethod
    def parse(
        self, query: SearchQuery, status: int, body: bytes, continuation: str | None = None
    ) -> SearchPage:
        """One answer page from a response's status (200 or an empty status) and bytes.

        Raises :class:`AnswerError` when the body is not what the service answers."""

    def setup_call(self) -> HttpCall | None:
        """A call to answer before the first query (e.g. which collection is the newest)."""
        return None

    def setup(self, body: bytes) -> None:
        """Take in the answer of :meth:`setup_call`."""
        return None

    def retry_after(self, header: Callable[[str], str | bytes | None]) -> float | None:
        """Seconds a throttled or failed answer asks to wait, from its headers (``header(name)``
        gives one): its ``Retry-After``; None when it says nothing."""
        return parse_retry_after(header("Retry-After"))

    def key_refused(self, status: int, body: bytes) -> bool:
        """True when an error answer says the key is wrong or missing (the adapter then stops
        for the crawl): 401 or 403 from a service that takes a key."""
        return status in (401, 403) and self.takes_key

    takes_key: ClassVar[bool] = True
    """False for services without keys (Common Crawl): their 401/403 refuse one call only."""

    def add_credentials(self, url: str, headers: dict[str, str]) -> tuple[str, dict[str, str]]:
        """The URL and headers with the secrets added (called at the last moment)."""
        return url, headers

    def secrets(self) -> tuple[str, ...]:
        """Every secret value this adapter sends: none of them may reach a log."""
        return ()

    def missing_configuration(self) -> str | None:
        """What the adapter lacks to work (a key, an engine id), or None."""
        return None


class LocalAdapter(ABC):
    """A service answered in this process."""

    name: ClassVar[str]
    kinds: ClassVar[tuple[str, ...]]

    def downloads(self) -> list[tuple[HttpCall, Path]]:
        """Files to fetch before the first answer: (call, where to store it). Empty when ready."""
        return []

    def prepare(self) -> None:
        """Build what answers need from the downloaded files (may be slow: run in a thread)."""
        return None

    @property
    def ready(self) -> bool:
        return True

    @abstractmethod
    def answer(self, query: SearchQuery, continuation: str | None = None) -> SearchPage:
        """One page of the answer."""

    def missing_configuration(self) -> str | None:
        return None


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """What a fetch got: status (200 or 206), body, and headers (names in lower case)."""

    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)


Fetch = Callable[[HttpCall], Awaitable[HttpAnswer]]
"""Sends one call and returns its answer; raises when it failed for good (after retries)."""


class FetchingAdapter(LocalAdapter):
    """A service answered here from data fetched, call by call, while answering.

    :attr:`counts` holds what the adapter wants in the crawl's stats (``search/<name>/<key>``);
    the service adds it there after each preparation and answer."""

    default_rate: ClassVar[float]

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    async def prepare_fetching(self, fetch: Fetch) -> None:
        """Fetch and build what every answer needs (called until :attr:`ready`)."""
        return None

    @abstractmethod
    async def answer_fetching(
        self, query: SearchQuery, fetch: Fetch, continuation: str | None = None
    ) -> SearchPage:
        """One page of the answer, fetching what it needs."""

    def answer(self, query: SearchQuery, continuation: str | None = None) -> SearchPage:
        raise RuntimeError(f"{self.name} answers while fetching: use answer_fetching")

    def take_counts(self) -> dict[str, int]:
        """The counts since the last call (emptied)."""
        counts, self.counts = dict(self.counts), Counter()
        return counts


def load_json(body: bytes) -> Any:
    """JSON from an answer's bytes, or :class:`AnswerError`: for bytes that are no UTF-8 or no
    JSON (an HTML error page, a cut answer), and for JSON Python will not read (nested deeper
    than its recursion limit, a number of more than 4,300 digits)."""
    try:
        return json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # ValueError: UnicodeDecodeError, JSONDecodeError
        raise AnswerError(f"the answer is not JSON: {str(exc)[:200]}") from None


def result_links(items: Any, url: str, snippet: str, service: str) -> list[FoundLink]:
    """A search answer's results (a list of objects) as links: ``url`` and ``snippet`` name
    their fields; ``title``, the snippet and ``mime`` become plain text."""
    if not isinstance(items, list):
        raise AnswerError(f"the {service} results are a list")
    links = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get(url), str):
            raise AnswerError(f"a {service} result has a {url}")
        links.append(
            FoundLink(
                url=item[url],
                title=plain_text(item.get("title")),
                snippet=plain_text(item.get(snippet)),
                mime=plain_text(item.get("mime")),
            )
        )
    return links


_TAG = re.compile(r"<[^<>]+>")
_MARKUP = re.compile(r"</?[a-z]+>|&(?:[a-z]+|#\d+);")


def plain_text(value: object) -> str:
    """An answer's text with its spaces collapsed and, when it has any, highlighting tags
    (``<strong>``) taken out and entities decoded; "" for what is not text."""
    if not isinstance(value, str):
        return ""
    if _MARKUP.search(value):
        value = html.unescape(_TAG.sub("", value))
    return " ".join(value.split())


def offset_continuation(offset: int, page_size: int, total: int) -> str | None:
    """The continuation of a list answered in slices: the next offset, or None at the end."""
    following = offset + page_size
    return str(following) if following < total else None


def parse_offset(continuation: str | None) -> int:
    if not continuation:
        return 0
    try:
        offset = int(continuation)
    except ValueError:
        raise ValueError(f"bad continuation {continuation!r}") from None
    if offset < 0:
        raise ValueError(f"bad continuation {continuation!r}")
    return offset
