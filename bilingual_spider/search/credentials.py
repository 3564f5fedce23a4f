"""API keys reach the service and nothing else: not a queued request, not a log line.

* :class:`SearchCredentialsMiddleware` sits last before the download handler (order 990, after
  the proxy and stats middlewares): it adds an adapter's key (Google's ``key=`` parameter, Moz's
  ``Authorization`` or ``x-moz-token`` header) to the request right before it is sent, and takes
  it out again when the response or the error comes back. Requests in the scheduler, on disk
  (``JOBDIR``) or in Redis, and every component before it, only ever see the URL without the
  key, so Scrapy's "Crawled (200) <GET ...>" and retry lines cannot show it.
* :class:`SecretRedaction` is the net under that: while a crawl runs, every log record of the
  process has each secret value replaced by ``[REDACTED]`` (messages and tracebacks, e.g. a
  timeout error that quotes the URL it was sent to).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

if TYPE_CHECKING:
    from bilingual_spider.search.service import SearchService

REDACTED = "[REDACTED]"
_PLAIN_URL = "_search_plain_url"
_ADDED_HEADERS = "_search_added_headers"


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret replaced (longest first, so no part of one survives)."""
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:
            text = text.replace(secret, REDACTED)
    return text


class SecretRedaction:
    """A log-record factory that scrubs secrets from every record made while it is installed.

    A factory, not a handler filter: Scrapy replaces its root handler while a crawl starts, and
    any handler added later (a test's, a file's) is covered as well."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = tuple(sorted({s for s in secrets if s}, key=len, reverse=True))
        self._previous: Callable[..., logging.LogRecord] | None = None

    def install(self) -> None:
        if not self.secrets or self._previous is not None:
            return
        self._previous = logging.getLogRecordFactory()
        logging.setLogRecordFactory(self._make_record)

    def uninstall(self) -> None:
        if self._previous is None:
            return
        if logging.getLogRecordFactory() == self._make_record:
            logging.setLogRecordFactory(self._previous)
        self._previous = None

    def _make_record(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        assert self._previous is not None
        record = self._previous(*args, **kwargs)
        if _may_be_emitted(record):  # Scrapy makes a DEBUG record per response, most unheard
            self.scrub(record)
        return record

    def scrub(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: logging itself will report it
            return
        if any(secret in message for secret in self.secrets):
            record.msg, record.args = redact(message, self.secrets), None
        if record.exc_info and not record.exc_text:
            text = logging.Formatter().formatException(record.exc_info)
            if any(secret in text for secret in self.secrets):
                record.exc_text = redact(text, self.secrets)
        if record.stack_info and any(secret in record.stack_info for secret in self.secrets):
            record.stack_info = redact(record.stack_info, self.secrets)


class SearchCredentialsMiddleware:
    """Downloader middleware (order 990): credentials in at the last moment, out at once."""

    def __init__(self, service: SearchService) -> None:
        self.service = service

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchCredentialsMiddleware:
        from bilingual_spider.search.service import SearchService

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


def _may_be_emitted(record: logging.LogRecord) -> bool:
    """Whether a handler on the record's way up the logger tree takes its level (or, with no
    handler at all, logging's last resort does)."""
    logger: logging.Logger | None = logging.getLogger(record.name)
    found = False
    while logger is not None:
        for handler in logger.handlers:
            found = True
            if record.levelno >= handler.level:
                return True
        if not logger.propagate:
            break
        logger = logger.parent  # type: ignore[assignment]
    last_resort = logging.lastResort
    return not found and last_resort is not None and record.levelno >= last_resort.level
