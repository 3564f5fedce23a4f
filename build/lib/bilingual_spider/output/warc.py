"""Fetched pages as WARC files (ISO 28500, WARC/1.1), written by warcio, for the tools that
come after a crawl (Bitextor's WARC input, ParaCrawl-style pipelines).

:class:`WarcFiles` writes request/response record pairs into rolling files
``PREFIX-YYYYmmddHHMMSS-NNNNN.warc.gz`` in a directory: each record gzipped on its own (as WARC
readers expect, so a file can be read from any record), a ``warcinfo`` record first in each
file, and a new file once the current one holds ``max_bytes``. A response record carries the
HTTP headers as Scrapy received them and the body as Scrapy holds it, decoded from any
``Content-Encoding`` (Scrapy keeps no other bytes): so the stored headers drop
``Content-Encoding`` and ``Transfer-Encoding`` (kept as ``X-Crawler-Content-Encoding`` ...) and
give the body's own ``Content-Length``, as warcio's own capture does. Its WARC headers add
``WARC-IP-Address`` when known, ``WARC-Identified-Payload-Type`` and
``WARC-Identified-Content-Language`` (the language the crawl identified, ISO 639 code).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import BinaryIO
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

DEFAULT_MAX_BYTES = 1_000_000_000
"""A file is closed and the next begun once it holds this many bytes (1 GB, as Heritrix does)."""
DROPPED_HEADERS = ("content-encoding", "transfer-encoding", "content-length")
"""HTTP headers that describe the bytes on the wire, not the decoded body that is stored."""


@dataclass(frozen=True)
class Exchange:
    """One HTTP request and its response, as the crawler saw them."""

    url: str
    status: int
    response_headers: list[tuple[str, str]]
    body: bytes
    method: str = "GET"
    request_headers: list[tuple[str, str]] = field(default_factory=list)
    reason: str = ""
    protocol: str = "HTTP/1.1"
    ip_address: str | None = None
    payload_type: str | None = None
    """What the payload is (``text/html``), when known from its bytes or the crawl."""
    language: str | None = None
    """The identified language of its content, when identified."""


class WarcFiles:
    """Rolling gzip WARC files in ``directory``."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        prefix: str = "bilingual-spider",
        max_bytes: int = DEFAULT_MAX_BYTES,
        info: dict[str, str] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.prefix = prefix
        self.max_bytes = max_bytes
        self.info = {"software": "bilingual_spider (warcio)", "format": "WARC File Format 1.1"}
        self.info.update(info or {})
        self.paths: list[Path] = []
        self.records = 0
        self._file: BinaryIO | None = None
        self._writer: WARCWriter | None = None

    def write(self, exchange: Exchange) -> None:
        """The exchange's response record, then its request record (``WARC-Concurrent-To``)."""
        writer = self._current()
        response = writer.create_warc_record(
            exchange.url,
            "response",
            payload=BytesIO(exchange.body),
            http_headers=_response_headers(exchange),
            warc_headers_dict=_response_warc_headers(exchange),
        )
        writer.write_record(response)
        path = urlsplit(exchange.url)
        target = (path.path or "/") + (f"?{path.query}" if path.query else "")
        request_headers = StatusAndHeaders(
            f"{exchange.method} {target} {exchange.protocol}",
            _with_host(exchange.request_headers, path.netloc),
            is_http_request=True,
        )
        request = writer.create_warc_record(
            exchange.url,
            "request",
            payload=BytesIO(b""),
            http_headers=request_headers,
            warc_headers_dict={
                "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID")
            },
        )
        writer.write_record(request)
        self.records += 2
        assert self._file is not None
        self._file.flush()
        if self._file.tell() >= self.max_bytes:
            self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file, self._writer = None, None

    def __enter__(self) -> WarcFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _current(self) -> WARCWriter:
        if self._writer is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
            path = self.directory / f"{self.prefix}-{stamp}-{len(self.paths):05d}.warc.gz"
            self._file = path.open("xb")
            self._writer = WARCWriter(self._file, gzip=True, warc_version="1.1")
            self._writer.write_record(self._writer.create_warcinfo_record(path.name, self.info))
            self.paths.append(path)
        return self._writer


def _response_headers(exchange: Exchange) -> StatusAndHeaders:
    kept = [(k, v) for k, v in exchange.response_headers if k.lower() not in DROPPED_HEADERS]
    moved = [
        (f"X-Crawler-{k}", v)
        for k, v in exchange.response_headers
        if k.lower() in DROPPED_HEADERS and k.lower() != "content-length"
    ]
    headers = [*kept, *moved, ("Content-Length", str(len(exchange.body)))]
    status = f"{exchange.status} {exchange.reason}".strip()
    return StatusAndHeaders(status, headers, protocol=exchange.protocol)


def _response_warc_headers(exchange: Exchange) -> dict[str, str]:
    headers = {}
    if exchange.ip_address:
        headers["WARC-IP-Address"] = exchange.ip_address
    if exchange.payload_type:
        headers["WARC-Identified-Payload-Type"] = exchange.payload_type
    if exchange.language:
        headers["WARC-Identified-Content-Language"] = exchange.language
    return headers


def _with_host(headers: Iterable[tuple[str, str]], netloc: str) -> list[tuple[str, str]]:
    headers = list(headers)
    if not any(k.lower() == "host" for k, _ in headers):
        headers.insert(0, ("Host", netloc))
    return headers
