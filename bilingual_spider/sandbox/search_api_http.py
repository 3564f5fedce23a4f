"""HTTP pieces the search/backlink API's services share: an answer, JSON bodies, token buckets."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

JSON = "application/json; charset=UTF-8"


@dataclass
class ApiAnswer:
    """Status, body and headers of one API answer (the server turns it into its Response)."""

    status: int
    body: bytes = b""
    content_type: str = JSON
    headers: dict[str, str] = field(default_factory=dict)
    transport: str = ""
    """``hang`` (never answer) or ``cut`` (close the connection mid-body): the fault mode's."""


def json_answer(
    status: int, value: Any, headers: dict[str, str] | None = None, indent: int | None = None
) -> ApiAnswer:
    """A JSON answer (``indent=2``: pretty-printed, as Google's APIs answer by default)."""
    body = json.dumps(value, ensure_ascii=False, indent=indent).encode("utf-8")
    return ApiAnswer(status, body, JSON, dict(headers or {}))


class TokenBucket:
    """``capacity`` requests at once, refilled at ``rate`` a second (a token bucket)."""

    def __init__(
        self, capacity: int, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = float(capacity)
        self.updated = clock()

    def take(self) -> float:
        """Take a token: 0 if there was one, else the seconds until there will be one."""
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


def retry_after(wait: float) -> dict[str, str]:
    """The ``Retry-After`` header (whole seconds, at least 1) for a wait in seconds."""
    return {"Retry-After": str(max(1, math.ceil(wait)))}


def ranged_answer(body: bytes, content_type: str, range_header: str | None) -> ApiAnswer:
    """A file answered as S3 does: the whole file (200) without a ``Range``, or with one it
    cannot read or with several ranges; a single ``bytes=a-b``, ``bytes=a-`` or suffix
    ``bytes=-n`` as 206 with ``Content-Range``; a range starting past the end as 416."""
    size = len(body)
    whole = ApiAnswer(200, body, content_type, {"Accept-Ranges": "bytes"})
    spec = (range_header or "").strip()
    if not spec.startswith("bytes=") or "," in spec:
        return whole
    first, dash, last = spec[6:].partition("-")
    if not dash or not (first or last) or not (first + last).isdigit():
        return whole
    if not first:  # the last `last` bytes
        start, end = max(0, size - int(last)), size
        if int(last) == 0:
            start = size
    else:
        start, end = int(first), min(size, int(last) + 1 if last else size)
        if last and int(last) < start:
            return whole
    if start >= size or end <= start:
        headers = {"Content-Range": f"bytes */{size}"}
        return ApiAnswer(416, b"", "application/xml", headers)
    headers = {"Accept-Ranges": "bytes", "Content-Range": f"bytes {start}-{end - 1}/{size}"}
    return ApiAnswer(206, body[start:end], content_type, headers)
