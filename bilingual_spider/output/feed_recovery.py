"""What a killed crawl's JSON-lines feeds hold, read back when it resumes (issue 32).

A feed flushed per item (:mod:`~bilingual_spider.output.flushed_feed`) ends with whole lines; one
written through a buffer may end in the middle of one. :func:`repair_jsonl` cuts the file after
its last whole, valid line, so that the resumed crawl appends after it; :func:`urls_in_jsonl`
reads the ``url`` of every line, which says which pages the killed crawl had finished.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from bilingual_spider.items import record_key

logger = logging.getLogger(__name__)

JSONL_FORMATS = frozenset({"jsonlines", "jsonl", "jl"})


def local_jsonl_feeds(feeds: Mapping[str, Mapping[str, Any]]) -> list[Path]:
    """The local files among Scrapy ``FEEDS`` written as JSON lines."""
    paths = (local_jsonl_path(uri, options) for uri, options in feeds.items())
    return [path for path in paths if path is not None]


def local_jsonl_path(uri: str, options: Mapping[str, Any]) -> Path | None:
    """The file of one ``FEEDS`` entry if it is local and JSON lines, else None (as for URIs
    with ``%(...)s`` placeholders: their names change from run to run)."""
    if "%(" in uri or str(options.get("format", "")).lower() not in JSONL_FORMATS:
        return None
    parts = urlsplit(uri)
    if parts.scheme == "file":
        return Path(url2pathname(parts.path))
    if not parts.scheme or len(parts.scheme) == 1:  # a plain path (or C:\\...)
        return Path(uri)
    return None


def repair_jsonl(path: Path) -> int:
    """Cut ``path`` after its last whole line that is valid JSON; the bytes cut (0: it was
    whole, or missing)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return 0
    keep = len(data)
    while keep:
        start = data.rfind(b"\n", 0, keep - 1) + 1
        line = data[start:keep]
        if line.endswith(b"\n") and _valid(line):
            break
        keep = start
    if keep < len(data):
        with open(path, "r+b") as file:
            file.truncate(keep)
            os.fsync(file.fileno())
        logger.warning("%s: cut %d bytes after its last whole line", path, len(data) - keep)
    return len(data) - keep


def urls_in_jsonl(path: Path) -> Iterator[str]:
    """The ``url`` field of every line of ``path`` that has one."""
    for record in _records(path):
        url = record.get("url")
        if isinstance(url, str):
            yield url


def record_keys_in_jsonl(paths: Iterable[Path]) -> set[tuple[str, ...]]:
    """The identities (:func:`~bilingual_spider.items.record_key`) of the items in the
    JSON-lines files ``paths`` (after :func:`repair_jsonl`)."""
    keys = set()
    for path in paths:
        for record in _records(path):
            key = record_key(record)
            if key is not None:
                keys.add(key)
    return keys


def _records(path: Path) -> Iterator[dict[str, Any]]:
    """Every line of ``path`` that is a JSON object."""
    if not path.is_file():
        return
    with open(path, "rb") as file:
        for line in file:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                yield record


def settle_in_flight(
    leased: Iterable[tuple[Any, bytes]],
    feeds: Iterable[Path],
    url_of: Callable[[bytes], str | None],
) -> tuple[list[Any], list[Any], int]:
    """The requests a killed crawl had in flight (``leased``: id and stored request), split into
    those done (their URL is in one of the crawl's JSON-lines ``feeds``: the page was written) and
    those to queue again, after the feeds' cut last lines are repaired; with the bytes cut."""
    feeds = list(feeds)
    cut = sum(repair_jsonl(feed) for feed in feeds)
    written = {url for feed in feeds for url in urls_in_jsonl(feed)}
    done: list[Any] = []
    again: list[Any] = []
    for request_id, blob in leased:
        url = url_of(blob)
        (done if url is not None and url in written else again).append(request_id)
    return done, again, cut


def _valid(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True
