"""Waiting on a condition instead of a fixed sleep, so that a slow or busy machine makes a test
take longer, never fail."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: The longest any test waits for something that takes milliseconds on an idle machine.
PATIENCE_SECONDS = 60.0


def wait_until(
    condition: Callable[[], T], limit: float = PATIENCE_SECONDS, interval: float = 0.02
) -> T:
    """Call ``condition`` until it returns something true, and return that; fail the test
    (AssertionError naming the condition) when ``limit`` seconds pass first."""
    deadline = time.monotonic() + limit
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            name = getattr(condition, "__name__", repr(condition))
            raise AssertionError(f"still false after {limit:.0f} s: {name}")
        time.sleep(interval)


#: The longest a test waits for a crawl, a worker or a server in a subprocess: the longest of
#: them takes about a minute on an idle machine here, so this is only for a hang.
CRAWL_SECONDS = 900.0
