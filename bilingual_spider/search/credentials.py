"""API keys reach the service and nothing else: not a queued request, not a log line.

* :class:`~bilingual_spider.middlewares.search_credentials.SearchCredentialsMiddleware` adds an
  adapter's key to a request right before it is sent and takes it out when the answer comes
  back, so requests in the scheduler, on disk (``JOBDIR``) or in Redis never hold it, and
  Scrapy's "Crawled (200) <GET ...>" and retry lines cannot show it.
* :class:`SecretRedaction` (here) is the net under that: while a crawl runs, every log record of
  the process has each secret value replaced by ``[REDACTED]`` (messages and tracebacks, e.g. a
  timeout error that quotes the URL it was sent to).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

REDACTED = "[REDACTED]"


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
