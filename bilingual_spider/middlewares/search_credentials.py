"""Downloader middleware (order 990, after the proxy and stats middlewares): a search
adapter's key (Google's ``key=`` parameter, Moz's ``Authorization`` or ``x-moz-token`` header)
goes into the request right before it is sent, and comes out again when the response or the
error comes back. Requests in the scheduler, on disk (``JOBDIR``) or in Redis, and every
component before this one, only ever see the URL without the key (see
:mod:`bilingual_spider.search.credentials` for the log redaction under it).
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from bilingual_spider.search.service import SearchService

_PLAIN_URL = "_search_plain_url"
_ADDED_HEADERS = "_search_added_headers"


class SearchCredentialsMiddleware:
    """Downloader middleware (order 990): credentials in at the last moment, out at once."""

    def __init__(self, service: SearchService) -> None:
        self.service = service

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchCredentialsMiddleware:
        service = crawler.get_extension(SearchService)
        if service is None:
            raise NotConfigured("the search service extension is not enabled")
        return cls(service)

    def process_request(self, request: Request) -> None:
        adapter = self.service.remote_adapter_of(request)
        if adapter is None or not adapter.secrets():
            return
        headers: dict[str, str] = {}
        url, headers = adapter.add_credentials(request.url, headers)
        request.meta[_PLAIN_URL] = request.url
        request.meta[_ADDED_HEADERS] = list(headers)
        for name, value in headers.items():
            request.headers[name] = value
        if url != request.url:
            # Request.url is read-only for a reason: only this middleware may change it in place,
            # and it changes it back before anything else sees the request again.
            request._set_url(url)

    def process_response(self, request: Request, response: Response) -> Response:
        plain = self._restore(request)
        if plain is not None and response.url != plain:
            return response.replace(url=plain)
        return response

    def process_exception(self, request: Request, exception: Exception) -> None:
        self._restore(request)

    @staticmethod
    def _restore(request: Request) -> str | None:
        plain = request.meta.pop(_PLAIN_URL, None)
        for name in request.meta.pop(_ADDED_HEADERS, ()):
            request.headers.pop(name, None)
        if plain is not None and request.url != plain:
            request._set_url(plain)
        return plain
