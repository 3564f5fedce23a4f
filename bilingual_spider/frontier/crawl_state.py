"""A crawl's state beyond its frontier, as a ``JOBDIR`` keeps it (issue 32).

A back-and-forth crawl is more than its queue: the bipartite graph (sites reached, backlink
pages waiting for their labels, verdicts), the link classifiers with their training examples,
the detector's sites under way (probes asked, answers recorded) and its verdicts, the backlink
queries asked and not yet answered, the page count. The crash-safe scheduler
(:mod:`bilingual_spider.scheduler.crash_safe_scheduler`) writes what the spider hands it in the
same SQLite transaction as the frontier, so that a crawl killed at any moment resumes from a
state and a frontier that agree.

This module is the state's format: a header (the format's version, the spider's name, the names
of the parts) and each part (a plain picklable object) as bytes of its own, so that a part that
did not change is not written again. :func:`decode_state` refuses, in one line, the state of
another spider, of a newer format, or one it cannot read: a crawl must stop then, never resume
empty.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from collections.abc import Callable, Mapping
from typing import Any

CRAWL_STATE_FORMAT = 1
"""Version of the layout; raised when a part changes in a way older code cannot read."""


class CrawlStateError(Exception):
    """A saved crawl state that cannot be resumed; the message is one line saying why."""


def encode_parts(parts: Mapping[str, Any]) -> dict[str, bytes]:
    """Each part of a state as bytes (a part unchanged since it was last written gives the same
    bytes, so its writer can skip it: a classifier's weights change only when it retrains)."""
    return {name: pickle.dumps(value, protocol=5) for name, value in parts.items()}


def digest(blob: bytes) -> bytes:
    """A short fingerprint of a part's bytes (to tell whether it changed)."""
    return hashlib.blake2b(blob, digest_size=16).digest()


def header(spider: str, names: list[str]) -> str:
    """The state's header: its format, its spider, the names of its parts."""
    return json.dumps({"format": CRAWL_STATE_FORMAT, "spider": spider, "parts": names})


def decode_state(
    head: str, read: Callable[[str], bytes | None], spider: str, where: str
) -> dict[str, Any]:
    """The parts of the state whose :func:`header` is ``head`` (``read(name)``: the bytes of a
    part, None if missing), saved by ``spider``; :class:`CrawlStateError`, naming ``where``
    (the file), when it is another spider's, of a newer format, or unreadable."""
    try:
        record = json.loads(head)
    except ValueError:
        record = None
    if not isinstance(record, dict) or not isinstance(record.get("format"), int):
        raise CrawlStateError(f"{where}: its crawl state is damaged; start again with a new JOBDIR")
    version = record["format"]
    if version > CRAWL_STATE_FORMAT:
        raise CrawlStateError(
            f"{where}: the crawl state is of format {version}, newer than this version of "
            f"bilingual_spider reads ({CRAWL_STATE_FORMAT}): resume it with the version that "
            "wrote it"
        )
    if version < CRAWL_STATE_FORMAT:
        raise CrawlStateError(
            f"{where}: the crawl state is of an older format ({version}) this version cannot "
            "resume; start again with a new JOBDIR"
        )
    if record.get("spider") != spider:
        raise CrawlStateError(
            f"{where}: the crawl state is of the {record.get('spider')} spider, not of "
            f"{spider}: give this crawl a JOBDIR of its own"
        )
    parts = {}
    for name in record.get("parts") or []:
        blob = read(name)
        if blob is None:
            raise CrawlStateError(f"{where}: the crawl state's {name} is missing; start again")
        try:
            parts[name] = pickle.loads(blob)
        except Exception as exc:  # any damage: truncated, garbled, a class renamed since
            raise CrawlStateError(
                f"{where}: the crawl state's {name} cannot be read ({type(exc).__name__}: "
                f"{exc}); start again with a new JOBDIR"
            ) from None
    return parts
