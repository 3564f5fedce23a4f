"""The sandbox web's HTTP server: one local proxy that answers for every host name.

Scrapy's HttpProxyMiddleware sends it absolute URIs (``GET http://www.example.es/a.html``); a plain
client may also send ``GET /a.html`` with a ``Host`` header. Either way the answer comes from the
directories mounted at that host and path prefix, with that host's faults applied (see
:mod:`bilingual_spider.sandbox.config`). The control host ``sandbox.internal`` answers
``/_health``, ``/_stats`` (requests and statuses per host, as JSON) and ``/_stats/arrivals``
(when each host's requests arrived, monotonic seconds), and the API host
``api.sandbox.internal`` the search/backlink API (:mod:`bilingual_spider.sandbox.search_api`),
which gets request bodies; the ``[hosts."*"]`` faults do not apply to it.

It is a small asyncio protocol rather than a framework server so that it is never the bottleneck
of a crawl benchmark: files are read once and kept in memory, and a request costs a dict lookup.
"""

from __future__ import annotations

import asyncio
import json
import logging
import mimetypes
import random
import re
import signal
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from email.utils import formatdate
from pathlib import Path
from typing import IO
from urllib.parse import parse_qsl, unquote, urlsplit

from bilingual_spider.sandbox.config import HostFaults, Mount, SandboxConfig
from bilingual_spider.sandbox.page_pack import PagePack, pack_key
from bilingual_spider.sandbox.search_api import API_HOST, SearchApi, not_configured
from bilingual_spider.sandbox.search_api_faults import CUT, HANG

logger = logging.getLogger(__name__)

CONTROL_HOST = "sandbox.internal"
# Dynamic pages stored as files: their names (maybe with "?query") are served as HTML.
DYNAMIC_PAGE_EXTENSIONS = (".php", ".asp", ".aspx", ".jsp", ".jspx", ".cgi", ".pl", ".cfm")
MAX_HEADER_BYTES = 64 * 1024
MAX_BODY_BYTES = 8 * 1024 * 1024
FILE_CACHE_BYTES = 512 * 1024 * 1024

_META_CHARSET = re.compile(
    rb"<meta[^>]+(?:charset\s*=\s*[\"']?[\w-]+[\"']?|http-equiv\s*=\s*[\"']?content-type[^>]*)[^>]*>",
    re.IGNORECASE,
)
_REASONS = {
    200: "OK",
    301: "Moved Permanently",
    302: "Found",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}
_NO_FAULTS = HostFaults()
NOT_FOUND_PAGE = (
    b"<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>"
    b"<h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>"
)


class Response:
    """Status, headers and body of one answer; ``reset`` means: drop the connection instead."""

    __slots__ = ("status", "headers", "body", "reset", "delay", "transport")

    def __init__(
        self,
        status: int,
        body: bytes = b"",
        content_type: str | None = "text/html",
        headers: dict[str, str] | None = None,
        reset: bool = False,
    ) -> None:
        self.status = status
        self.body = body
        self.headers = dict(headers or {})
        if content_type:
            self.headers.setdefault("Content-Type", content_type)
        self.reset = reset
        self.delay = 0.0
        self.transport = ""
        """``hang``: never answer; ``cut``: close the connection in the middle of the body."""


class Sandbox:
    """Request -> response logic of the sandbox web (no sockets: easy to test directly)."""

    def __init__(self, config: SandboxConfig) -> None:
        self.config = config
        self._mounts: dict[str, list[Mount]] = defaultdict(list)
        for mount in config.mounts:
            self._mounts[mount.host].append(mount)
        for mounts in self._mounts.values():
            mounts.sort(key=lambda m: len(m.prefix), reverse=True)  # longest prefix first
        self._packs = [PagePack(directory) for directory in config.packs]
        self._rng = random.Random(config.seed)
        self._files: dict[Path, bytes] = {}
        self._file_bytes = 0
        self._huge_pages: dict[int, bytes] = {}
        self.requests: Counter[str] = Counter()
        self.arrivals: dict[str, list[float]] = defaultdict(list)
        """When each host's requests arrived (monotonic seconds): ``/_stats/arrivals``."""
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.api = SearchApi.load(config.api, config.seed) if config.api is not None else None

    @property
    def hosts(self) -> list[str]:
        return sorted({*self._mounts, *(h for pack in self._packs for h in pack.hosts)})

    def handle(
        self,
        method: str,
        target: str,
        host_header: str,
        body: bytes = b"",
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """Answer one request: ``target`` is an absolute URI, or a path on ``host_header``;
        ``body`` and ``headers`` (lower-case names) are read by the API host only."""
        if target.startswith(("http://", "https://")):
            parts = urlsplit(target)
            host, path, query = (parts.hostname or ""), (parts.path or "/"), parts.query
        else:
            path, _, query = target.partition("?")
            host = host_header.rsplit(":", 1)[0] if "]" not in host_header else host_header
        host = host.lower().rstrip(".")
        self.requests[host] += 1
        if host != CONTROL_HOST:
            self.arrivals[host].append(time.monotonic())
        if host == API_HOST:
            response = self._api_answer(method, unquote(path), query, body, headers or {})
            faults = self.config.faults.get(API_HOST, _NO_FAULTS)  # not those of "*"
        else:
            response = self._answer(method, host, unquote(path), query)
            faults = self.config.faults_for(host)
        response.delay = faults.latency_ms / 1000.0
        self.statuses[host][response.status] += 1
        return response

    def _api_answer(
        self, method: str, path: str, query: str, body: bytes, headers: Mapping[str, str]
    ) -> Response:
        if self.api is None:
            answer = not_configured()
        else:
            answer = self.api.handle(method, path, query, body, headers)
        response = Response(answer.status, answer.body, answer.content_type, answer.headers)
        response.transport = answer.transport
        return response

    def _answer(self, method: str, host: str, path: str, query: str) -> Response:
        if host == CONTROL_HOST:
            return self._control(path, query)
        if method not in ("GET", "HEAD"):
            return Response(405, b"", headers={"Allow": "GET, HEAD"})
        faults = self.config.faults_for(host)
        if faults.reset_rate and self._rng.random() < faults.reset_rate:
            return Response(0, reset=True)
        if faults.error_rate and self._rng.random() < faults.error_rate:
            return Response(faults.error_status, b"<html><body>server error</body></html>")
        if path == "/robots.txt" and faults.robots_txt is not None:
            return Response(200, faults.robots_txt.encode(), "text/plain")
        special = self._special_path(faults, path)
        if special is not None:
            return special
        return self._static(host, path, query, faults)

    def _special_path(self, faults: HostFaults, path: str) -> Response | None:
        if faults.redirect_loop_prefix and path.startswith(faults.redirect_loop_prefix):
            rest = path[len(faults.redirect_loop_prefix) :]
            nxt = "b" if rest == "a" else "a"
            return Response(302, b"", headers={"Location": faults.redirect_loop_prefix + nxt})
        if faults.huge_page_prefix and path.startswith(faults.huge_page_prefix):
            return Response(200, self._huge_page(faults.huge_page_bytes))
        if faults.calendar_trap_prefix and path.startswith(faults.calendar_trap_prefix):
            return Response(200, calendar_page(faults.calendar_trap_prefix, path))
        return None

    def _static(self, host: str, path: str, query: str, faults: HostFaults) -> Response:
        """A mounted file. A query string selects the file literally named ``name?query`` when
        there is one (how generated sites store ``page.php?lang=fr``), else it is ignored."""
        if "\x00" in path or ".." in path.split("/"):
            return Response(400, b"bad path")
        for pack in self._packs:
            found = pack.lookup(host, path, query)
            if found is not None:
                return self._page_response(found[0], found[1], faults)
            if not path.endswith("/") and pack_key(host, path + "/") in pack:
                return Response(301, b"", headers={"Location": path + "/"})
        for mount in self._mounts.get(host, ()):
            if path + "/" == mount.prefix:
                return Response(301, b"", headers={"Location": mount.prefix})
            if not path.startswith(mount.prefix):
                continue
            relative = path[len(mount.prefix) :]
            for directory in mount.dirs:
                if query and relative and (directory / f"{relative}?{query}").is_file():
                    return self._file_response(directory / f"{relative}?{query}", faults)
                candidate = directory / relative if relative else directory
                if candidate.is_dir():
                    if relative and not relative.endswith("/"):
                        return Response(301, b"", headers={"Location": path + "/"})
                    candidate = candidate / "index.html"
                if candidate.is_file():
                    return self._file_response(candidate, faults)
        if faults.soft_404:
            return Response(200, NOT_FOUND_PAGE)
        return Response(404, NOT_FOUND_PAGE)

    def _file_response(self, path: Path, faults: HostFaults) -> Response:
        return self._page_response(self._read(path), guess_content_type(path.name), faults)

    def _page_response(self, body: bytes, content_type: str, faults: HostFaults) -> Response:
        if content_type.startswith("text/html"):
            content_type = "text/html"
            if faults.strip_meta_charset:
                body = _META_CHARSET.sub(b"", body)
            if faults.charset_header:
                content_type += f"; charset={faults.charset_header}"
        return Response(200, body, content_type)

    def _read(self, path: Path) -> bytes:
        body = self._files.get(path)
        if body is None:
            body = path.read_bytes()
            if self._file_bytes + len(body) <= FILE_CACHE_BYTES:
                self._files[path] = body
                self._file_bytes += len(body)
        return body

    def _huge_page(self, size: int) -> bytes:
        page = self._huge_pages.get(size)
        if page is None:
            head, tail = b"<html><body><p>", b"</p></body></html>"
            filler = b"lorem ipsum dolor sit amet " * (size // 27 + 1)
            page = head + filler[: max(0, size - len(head) - len(tail))] + tail
            self._huge_pages[size] = page
        return page

    def _control(self, path: str, query: str = "") -> Response:
        if path == "/_health":
            return Response(200, b"ok", "text/plain")
        if path == "/_stats":
            stats = {
                "requests": dict(self.requests),
                "statuses": {h: dict(c) for h, c in self.statuses.items()},
                "hosts": self.hosts,
            }
            return Response(200, json.dumps(stats).encode(), "application/json")
        if path == "/_stats/arrivals":  # politeness measured where it matters: at the hosts
            body = json.dumps({h: [round(t, 4) for t in ts] for h, ts in self.arrivals.items()})
            return Response(200, body.encode(), "application/json")
        if path == "/_api_fault" and self.api is not None:  # the API's fault mode, changed live
            params = dict(parse_qsl(query, keep_blank_values=True))
            families = [f for f in params.get("families", "").split(",") if f]
            try:
                calls = int(params["calls"]) if params.get("calls") else None
                rate = float(params.get("rate", 1))
                self.api.faults.set(params.get("mode", ""), rate, families, calls)
            except ValueError as exc:
                return Response(400, str(exc).encode(), "text/plain")
            return Response(
                200, json.dumps(self.api.faults.describe()).encode(), "application/json"
            )
        return Response(404, NOT_FOUND_PAGE)


def guess_content_type(name: str) -> str:
    """Content type by file name. HTML: ``page.html.es``-style language suffixes, and dynamic
    pages stored as files (``page.php``, ``list.asp?lang=fr``: the query is part of the name)."""
    lowered = name.lower().partition("?")[0]
    if lowered.endswith((".html", ".htm")) or ".html." in lowered or ".htm." in lowered:
        return "text/html"
    if lowered.endswith(DYNAMIC_PAGE_EXTENSIONS):
        return "text/html"
    guessed, _ = mimetypes.guess_type(lowered)
    return guessed or "application/octet-stream"


def calendar_page(prefix: str, path: str) -> bytes:
    """A month of an endless calendar: links to the previous and next month and to each day."""
    parts = [p for p in path[len(prefix) :].split("/") if p]
    try:
        year, month = int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        year, month = 2000, 1
    month = min(max(month, 1), 12)
    prev_y, prev_m = (year, month - 1) if month > 1 else (year - 1, 12)
    next_y, next_m = (year, month + 1) if month < 12 else (year + 1, 1)
    days = "".join(f'<a href="{prefix}{year}/{month:02d}/{d:02d}/">{d}</a> ' for d in range(1, 29))
    return (
        f"<html><head><title>Calendar {year}-{month:02d}</title></head><body>"
        f'<a href="{prefix}{prev_y}/{prev_m:02d}/">previous</a> '
        f'<a href="{prefix}{next_y}/{next_m:02d}/">next</a><p>{days}</p></body></html>'
    ).encode()


class SandboxProtocol(asyncio.Protocol):
    """HTTP/1.1 with keep-alive over one connection; requests are answered in order."""

    def __init__(self, sandbox: Sandbox, access_log: IO[str] | None = None) -> None:
        self.sandbox = sandbox
        self.access_log = access_log
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.waiting = False  # a delayed answer is pending: later requests wait in the buffer

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.waiting:
            self._process()

    def _process(self) -> None:
        while self.transport is not None and not self.transport.is_closing():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > MAX_HEADER_BYTES:
                    self._send_simple(400, close=True)
                return
            head = self.buffer[:end].decode("latin-1")
            lines = head.split("\r\n")
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            if length > MAX_BODY_BYTES:
                self._send_simple(413, close=True)
                return
            if len(self.buffer) < end + 4 + length:
                return  # body not complete yet
            body = self.buffer[end + 4 : end + 4 + length]
            self.buffer = self.buffer[end + 4 + length :]
            request_line = lines[0].split(" ")
            if len(request_line) != 3:
                self._send_simple(400, close=True)
                return
            method, target, version = request_line
            keep_alive = (
                headers.get("connection", "").lower() != "close"
                if version == "HTTP/1.1"
                else headers.get("connection", "").lower() == "keep-alive"
            )
            response = self.sandbox.handle(method, target, headers.get("host", ""), body, headers)
            self._log(method, target, headers.get("host", ""), response.status)
            if response.transport == HANG:  # the API's fault mode: no answer, ever
                self.waiting = True
                return
            if response.delay > 0:
                self.waiting = True
                loop = asyncio.get_running_loop()
                loop.call_later(response.delay, self._send_later, response, method, keep_alive)
                return
            self._send(response, method, keep_alive)

    def _send_later(self, response: Response, method: str, keep_alive: bool) -> None:
        self.waiting = False
        self._send(response, method, keep_alive)
        self._process()

    def _send(self, response: Response, method: str, keep_alive: bool) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        if response.reset:
            transport.abort()
            return
        headers = response.headers
        headers["Content-Length"] = str(len(response.body))
        headers["Date"] = formatdate(usegmt=True)
        headers["Server"] = "bilingual-spider-sandbox"
        headers["Connection"] = "keep-alive" if keep_alive else "close"
        reason = _REASONS.get(response.status, "Unknown")
        head = f"HTTP/1.1 {response.status} {reason}\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in headers.items()
        )
        payload = (head + "\r\n").encode("latin-1")
        if response.transport == CUT:  # the API's fault mode: half the body, then no more
            transport.write(payload + response.body[: len(response.body) // 2])
            transport.close()
            return
        transport.write(payload if method == "HEAD" else payload + response.body)
        if not keep_alive:
            transport.close()

    def _send_simple(self, status: int, close: bool) -> None:
        self._send(Response(status, b"", "text/plain"), "GET", keep_alive=not close)

    def _log(self, method: str, target: str, host: str, status: int) -> None:
        if self.access_log is not None:
            self.access_log.write(f"{time.time():.3f}\t{method}\t{host}\t{target}\t{status}\n")

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None


async def serve(
    config: SandboxConfig,
    host: str = "127.0.0.1",
    port: int = 8399,
    access_log_path: str | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Run the sandbox server until cancelled, or until SIGTERM or SIGINT (then it ends cleanly,
    its access log flushed: :class:`~bilingual_spider.sandbox.process.SandboxServer` stops it
    with SIGTERM, and a process started in the background by a shell ignores SIGINT)."""
    sandbox = Sandbox(config)
    access_log = None
    if access_log_path:
        access_log = open(access_log_path, "a", buffering=1 << 16)  # noqa: SIM115 (closed below)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SandboxProtocol(sandbox, access_log), host, port)
    bound = server.sockets[0].getsockname()
    logger.info(
        "sandbox web on http://%s:%s (proxy for %d hosts: %s)",
        bound[0],
        bound[1],
        len(sandbox.hosts),
        ", ".join(sandbox.hosts[:8]) + (" ..." if len(sandbox.hosts) > 8 else ""),
    )
    print(f"sandbox listening on {bound[0]}:{bound[1]}", flush=True)
    if ready is not None:
        ready.set()
    stopped = asyncio.Event()
    signals = _stop_on_signals(loop, stopped)
    try:
        async with server:
            await stopped.wait()
    finally:
        for signal_number in signals:
            loop.remove_signal_handler(signal_number)
        if access_log is not None:
            access_log.close()


def _stop_on_signals(loop: asyncio.AbstractEventLoop, stopped: asyncio.Event) -> list[int]:
    """SIGTERM and SIGINT set ``stopped``; the signals handled (none outside the main thread)."""
    handled = []
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signal_number, stopped.set)
        except (ValueError, RuntimeError, NotImplementedError):  # not the main thread
            continue
        handled.append(signal_number)
    return handled
