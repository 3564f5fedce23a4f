"""The simulated search engine's own crawl of the sandbox web: the files the generator writes and
the search/backlink API reads.

An engine directory holds two gzipped TSV files, each with a header line:

``pages.tsv.gz``
    ``url  status  mime  lang  title  snippet`` — every URL the engine has seen (``status`` is
    the HTTP status it got, so stale 404 pages may appear; ``lang`` is an ISO 639-1 code or empty).
``links.tsv.gz``
    ``source  target  anchor`` — every hyperlink the engine saw on a page (``source`` and
    ``target`` are absolute URLs; ``anchor`` is the anchor text, or an image's alt text).

These are what a real engine knows, not the ground truth: the crawler never reads them directly,
only through the API, which serves a partial and noisy view of them.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from operator import attrgetter
from pathlib import Path

PAGES_FILE = "pages.tsv.gz"
LINKS_FILE = "links.tsv.gz"


@dataclass(frozen=True, slots=True)
class EnginePage:
    url: str
    status: int
    mime: str
    lang: str
    title: str
    snippet: str


@dataclass(frozen=True, slots=True)
class EngineLink:
    source: str
    target: str
    anchor: str


def _clean(value: object) -> str:
    return " ".join(str(value).split())  # no tabs or newlines inside a field


def _write(path: Path, header: list[str], rows: Iterable[tuple]) -> int:
    count = 0
    # mtime=0: the same rows give the same bytes (the generator is deterministic for a seed).
    with (
        open(path, "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=1) as gz,
    ):
        gz.write(("\t".join(header) + "\n").encode())
        for row in rows:
            gz.write(("\t".join(_clean(v) for v in row) + "\n").encode())
            count += 1
    return count


def _read(path: Path, expected: list[str]) -> Iterator[list[str]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header != expected:
            raise ValueError(f"{path}: header {header!r}, expected {expected!r}")
        for number, line in enumerate(f, start=2):
            values = line.rstrip("\n").split("\t")
            if len(values) != len(expected):
                raise ValueError(f"{path}:{number}: {len(values)} fields, expected {len(expected)}")
            yield values


_PAGE_FIELDS = [f.name for f in fields(EnginePage)]
_LINK_FIELDS = [f.name for f in fields(EngineLink)]
_page_row = attrgetter(*_PAGE_FIELDS)
_link_row = attrgetter(*_LINK_FIELDS)


def write_pages(directory: Path, pages: Iterable[EnginePage]) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    return _write(directory / PAGES_FILE, _PAGE_FIELDS, map(_page_row, pages))


def write_links(directory: Path, links: Iterable[EngineLink]) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    return _write(directory / LINKS_FILE, _LINK_FIELDS, map(_link_row, links))


def read_pages(directory: Path) -> Iterator[EnginePage]:
    for url, status, mime, lang, title, snippet in _read(directory / PAGES_FILE, _PAGE_FIELDS):
        yield EnginePage(url, int(status), mime, lang, title, snippet)


def read_links(directory: Path) -> Iterator[EngineLink]:
    for source, target, anchor in _read(directory / LINKS_FILE, _LINK_FIELDS):
        yield EngineLink(source, target, anchor)
