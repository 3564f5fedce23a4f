"""Backlinks from the Moz Links API v2 (``POST https://lsapi.seomoz.com/v2/links``).

The request is a JSON object: ``target`` (a URL without scheme), ``target_scope`` (``page``,
``subdomain``, ``root_domain``), ``filter`` (``external``: links from other root domains, the
paper's out-of-site links), ``limit`` (at most 50) and, for the following pages, the
``next_token`` of the page before. The answer is ``{"results": [...], "next_token": ...}``;
each result has ``source`` and ``target`` URL metrics (``page`` without scheme, ``title``) and
``anchor_text``. ``next_token`` is empty on the last page.

Authentication: HTTP Basic with an access id and secret key (``BILINGUAL_MOZ_ACCESS_ID`` /
``BILINGUAL_MOZ_SECRET_KEY``, or ``MOZ_ACCESS_ID`` / ``MOZ_SECRET_KEY`` in the environment), or
a token sent as ``x-moz-token`` (``BILINGUAL_MOZ_TOKEN`` / ``MOZ_TOKEN``). Both are added by
the credentials middleware at the last moment and never stored in a request that is queued.

Moz names pages without a scheme; the pages found are given as ``http://`` URLs (a server that
moved to https redirects, and the sandbox web speaks plain http only).
"""

from __future__ import annotations

import base64
from typing import Any, ClassVar

from bilingual_spider.search.adapter import SANDBOX_API, RemoteAdapter, load_json
from bilingual_spider.search.values import (
    BACKLINKS,
    AnswerError,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

NAME = "moz"
REAL_URL = "https://lsapi.seomoz.com/v2/links"
SANDBOX_URL = f"{SANDBOX_API}/moz/v2/links"
MAX_LIMIT = 50  # the documented maximum of "limit"
_SCOPES = {"page": "page", "host": "subdomain", "domain": "root_domain"}


def moz_target(target: str) -> str:
    """Moz's form of a URL or host: no scheme, no fragment (``moz.com/blog``)."""
    rest = target.strip().partition("://")[2] if "://" in target else target.strip()
    return rest.partition("#")[0]


def moz_request_body(
    query: SearchQuery, limit: int, next_token: str | None = None
) -> dict[str, Any]:
    """The JSON body asking for one page of ``query``'s backlinks."""
    target = moz_target(query.target)
    if query.scope != "page":
        target = target.partition("/")[0]
    body: dict[str, Any] = {
        "target": target,
        "target_scope": _SCOPES[query.scope],
        "filter": "external",
        "limit": max(1, min(MAX_LIMIT, limit)),
    }
    if next_token:
        body["next_token"] = next_token
    return body


def page_url(moz_page: str) -> str:
    """An absolute URL for a page Moz names without its scheme."""
    moz_page = moz_page.strip()
    return moz_page if "://" in moz_page else f"http://{moz_page}"


def parse_moz_links(data: Any) -> tuple[list[FoundLink], str | None]:
    """The backlinks of one answer and the ``next_token`` (None on the last page).

    >>> links, token = parse_moz_links({"next_token": "", "results": [{"source": {"page":
    ...     "a.org/links", "title": "Links"}, "target": {"page": "b.com/"}, "anchor_text": "B"}]})
    >>> (links[0].url, links[0].target, links[0].anchor, links[0].title, token)
    ('http://a.org/links', 'http://b.com/', 'B', 'Links', None)
    """
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise AnswerError("a Moz links answer is an object with a results list")
    links = []
    for result in data["results"]:
        if not isinstance(result, dict):
            raise AnswerError("a Moz link is an object")
        source, target = result.get("source"), result.get("target")
        if not isinstance(source, dict) or not isinstance(source.get("page"), str):
            raise AnswerError("a Moz link has a source page")
        target_page = target.get("page") if isinstance(target, dict) else None
        links.append(
            FoundLink(
                url=page_url(source["page"]),
                target=page_url(target_page) if isinstance(target_page, str) else "",
                anchor=_text(result.get("anchor_text")),
                title=_text(source.get("title")),
                status=_int_or_none(source.get("http_code")),
            )
        )
    token = data.get("next_token")
    return links, (token if isinstance(token, str) and token else None)


def _text(value: object) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value else None


class MozLinks(RemoteAdapter):
    """Moz Links API v2 ``links``: page-level backlinks with anchor text and source title."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (BACKLINKS,)
    default_rate: ClassVar[float] = 0.1
    """Moz's free tier: one request every ten seconds (its "Rate Limiting" documentation; paid
    plans allow more: raise ``BILINGUAL_SEARCH_RATES["moz"]``)."""

    def __init__(
        self,
        base_url: str = REAL_URL,
        page_size: int = MAX_LIMIT,
        access_id: str = "",
        secret_key: str = "",
        token: str = "",
    ) -> None:
        super().__init__(base_url, min(page_size, MAX_LIMIT))
        self.access_id, self.secret_key, self.token = access_id, secret_key, token

    def call(self, query: SearchQuery, continuation: str | None = None) -> HttpCall:
        limit = min(query.limit or self.page_size, self.page_size)
        return HttpCall.post_json(self.base_url, moz_request_body(query, limit, continuation))

    def parse(
        self, query: SearchQuery, status: int, body: bytes, continuation: str | None = None
    ) -> SearchPage:
        links, token = parse_moz_links(load_json(body))
        return SearchPage(query, self.name, tuple(links), token)

    def add_credentials(self, url: str, headers: dict[str, str]) -> tuple[str, dict[str, str]]:
        headers = dict(headers)
        if self.token:
            headers["x-moz-token"] = self.token
        elif self.access_id and self.secret_key:
            pair = f"{self.access_id}:{self.secret_key}".encode()
            headers["Authorization"] = "Basic " + base64.b64encode(pair).decode("ascii")
        return url, headers

    def secrets(self) -> tuple[str, ...]:
        values = [self.token, self.secret_key]
        if self.access_id and self.secret_key:
            pair = f"{self.access_id}:{self.secret_key}".encode()
            values.append(base64.b64encode(pair).decode("ascii"))
        return tuple(v for v in values if v)

    def missing_configuration(self) -> str | None:
        if self.sandbox or self.token or (self.access_id and self.secret_key):
            return None
        return "Moz needs BILINGUAL_MOZ_TOKEN, or BILINGUAL_MOZ_ACCESS_ID and ..._SECRET_KEY"
