"""The sandbox API's fault mode: a share of the calls to some endpoint families go wrong.

=========  =========================================================================
mode       what a faulty call gets
=========  =========================================================================
``hang``   nothing: the server never answers (the client's timeout ends the call)
``html``   200 with an HTML page instead of the service's JSON (a captive portal, a proxy's
           error page)
``huge``   200 with a body larger than the crawler's download limit (9 MB)
``cut``    200 whose connection is closed in the middle of the body
``401``    401 with the service saying the key is not valid
``429``    429 with ``Retry-After: 1`` (a storm of throttling)
``503``    503 with ``Retry-After: 1``
=========  =========================================================================

Set by the ``[api]`` table (``fault = "html"``, ``fault_rate = 0.25``, ``fault_families =
["moz"]``; no families: all; ``fault_calls = 7``: only the next 7 calls of those families, then
the API recovers) or while the server runs, by the control host:
``GET http://sandbox.internal/_api_fault?mode=hang&rate=1&families=moz&calls=7`` (``mode=``
turns it off). Which calls fail is drawn with a seeded RNG.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from bilingual_spider.sandbox.search_api_http import ApiAnswer, json_answer

FAULT_MODES = ("hang", "html", "huge", "cut", "401", "429", "503")
HUGE_BYTES = 9 * 1024 * 1024
"""Above the crawler's DOWNLOAD_MAXSIZE (8 MB)."""
HANG = "hang"
CUT = "cut"
"""Values of :attr:`ApiAnswer.transport` the server acts on (no answer; half a body)."""

_HTML = (
    b"<!DOCTYPE html><html><head><title>Service unavailable</title></head><body>"
    b"<h1>We'll be back soon</h1><p>The service is under maintenance.</p></body></html>"
)


class ApiFaults:
    """Which calls go wrong, and how."""

    def __init__(
        self, mode: str = "", rate: float = 1.0, families: Iterable[str] = (), seed: int = 0
    ) -> None:
        self.rng = random.Random(seed)
        self.mode, self.rate, self.families = "", 1.0, frozenset[str]()
        self.calls: int | None = None
        self.set(mode, rate, families)
        self._huge: bytes | None = None

    def set(
        self,
        mode: str,
        rate: float = 1.0,
        families: Iterable[str] = (),
        calls: int | None = None,
    ) -> None:
        if mode and mode not in FAULT_MODES:
            raise ValueError(f"api fault {mode!r} is not one of {', '.join(FAULT_MODES)}")
        if not 0.0 <= rate <= 1.0:
            raise ValueError("api fault_rate must be in [0, 1]")
        if calls is not None and calls < 0:
            raise ValueError("api fault_calls must be >= 0")
        self.mode, self.rate, self.families = mode, rate, frozenset(families)
        self.calls = calls

    def describe(self) -> dict[str, object]:
        families = sorted(self.families)
        return {"mode": self.mode, "rate": self.rate, "families": families, "calls": self.calls}

    def answer(self, family: str) -> ApiAnswer | None:
        """The faulty answer of one call to ``family``, or None when this call goes well."""
        if not self.mode or (self.families and family not in self.families):
            return None
        if self.calls is not None:
            if self.calls == 0:
                return None
            self.calls -= 1
        if self.rate < 1.0 and self.rng.random() >= self.rate:
            return None
        return self._faulty()

    def _faulty(self) -> ApiAnswer:
        mode = self.mode
        if mode == HANG:
            return ApiAnswer(200, b"", transport=HANG)
        if mode == "html":
            return ApiAnswer(200, _HTML, "text/html; charset=utf-8")
        if mode == "huge":
            if self._huge is None:
                self._huge = b'{"results": [' + b" " * HUGE_BYTES + b"]}"
            return ApiAnswer(200, self._huge)
        if mode == CUT:
            body = b'{"results": [' + b'{"url": "http://cut.example/"}, ' * 2000 + b"]}"
            return ApiAnswer(200, body, transport=CUT)
        if mode == "401":
            return json_answer(401, {"error": "invalid API key"})
        return json_answer(int(mode), {"error": "try again later"}, {"Retry-After": "1"})
