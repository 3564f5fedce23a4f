"""A pack of pages: many small HTTP bodies in one file plus an index, served by URL.

A generated world of 10,000 sites has ~160,000 pages; written as files, its speed depends on the
file system (0.05-0.8 ms a file here), as one pack it takes a second. A pack directory holds

``pages.pack``
    the bodies, one after the other;
``pages.index.tsv.gz``
    ``url  offset  length  content_type``, one line per page, with a header line.

The sandbox server maps the pack into memory and answers a URL with a dict lookup and a slice.
"""

from __future__ import annotations

import gzip
import mmap
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

PACK_FILE = "pages.pack"
INDEX_FILE = "pages.index.tsv.gz"
_HEADER = "url\toffset\tlength\tcontent_type"


def pack_key(host: str, path: str, query: str = "") -> str:
    """The lookup key of a URL: ``host/path?query`` (host lower-case, no scheme, no port)."""
    return f"{host.lower()}{path or '/'}" + (f"?{query}" if query else "")


def url_key(url: str) -> str:
    parts = urlsplit(url)
    return pack_key(parts.hostname or "", parts.path, parts.query)


class PagePackWriter:
    """Append pages to a new pack in ``directory``; :meth:`close` writes the index."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._pack = (self.directory / PACK_FILE).open("wb")
        self._index: list[str] = []
        self._offset = 0
        self._seen: set[str] = set()

    def add(self, url: str, body: bytes, content_type: str = "text/html; charset=utf-8") -> None:
        key = url_key(url)
        if key in self._seen:
            raise ValueError(f"page pack: {url} added twice")
        self._seen.add(key)
        self._pack.write(body)
        self._index.append(f"{url}\t{self._offset}\t{len(body)}\t{content_type}\n")
        self._offset += len(body)

    @property
    def hosts(self) -> set[str]:
        return {key.split("/", 1)[0] for key in self._seen}

    def close(self) -> None:
        self._pack.close()
        with (
            open(self.directory / INDEX_FILE, "wb") as raw,
            gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=1) as index,
        ):
            index.write((_HEADER + "\n").encode())
            index.write("".join(self._index).encode())

    def __enter__(self) -> PagePackWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class PagePack:
    """A read-only pack, memory-mapped."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._entries: dict[str, tuple[int, int, str]] = {}
        with gzip.open(self.directory / INDEX_FILE, "rt", encoding="utf-8") as index:
            if index.readline().rstrip("\n") != _HEADER:
                raise ValueError(f"{self.directory / INDEX_FILE}: not a page-pack index")
            for line in index:
                url, offset, length, content_type = line.rstrip("\n").split("\t")
                self._entries[url_key(url)] = (int(offset), int(length), content_type)
        with (self.directory / PACK_FILE).open("rb") as f:
            size = f.seek(0, 2)
            self._data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
        self.hosts = sorted({key.split("/", 1)[0] for key in self._entries})

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def get(self, key: str) -> tuple[bytes, str] | None:
        """Body and content type stored under ``key`` (see :func:`pack_key`), or None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        offset, length, content_type = entry
        return bytes(self._data[offset : offset + length]), content_type

    def lookup(self, host: str, path: str, query: str) -> tuple[bytes, str] | None:
        """The page of a request; a query string the pack does not know is ignored, as a
        static server would."""
        if query:
            found = self.get(pack_key(host, path, query))
            if found is not None:
                return found
        return self.get(pack_key(host, path))
