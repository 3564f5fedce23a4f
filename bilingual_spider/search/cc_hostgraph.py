"""Backlinks of a host from Common Crawl's host-level web graph, indexed on disk.

Common Crawl publishes each graph release as two gzipped text files under
``data.commoncrawl.org/projects/hyperlinkgraph/<NAME>/host/``:

``<NAME>-host-vertices.txt.gz``
    ``id<TAB>reversed.host.name`` (``com.example.www``), ids in the sorted order of the names;
``<NAME>-host-edges.txt.gz``
    ``from_id<TAB>to_id``, one line per pair of hosts with at least one link.

:class:`HostGraphIndex` reads both files in chunks, in memory bounded by the number of hosts
(:mod:`~bilingual_spider.search.cc_hostgraph_build`), and writes numpy arrays to a cache
directory: the names (one blob and its offsets, sorted, so a host is found by binary search),
and the edges grouped by target (CSR: ``in_sources[in_offsets[t]:in_offsets[t + 1]]`` are the
hosts linking to ``t``). Within a target, referring hosts are ordered by out-degree, highest
first: a host that links to many hosts is likely a directory, which is what the paper's Backlink
classifier learns to prefer ("links", "directory"). Loading maps the arrays from disk
(``mmap``), so a crawl starts at once and a lookup is two binary searches and a slice.

**From hosts to pages.** The graph says *which host* links to a site, not which page. The
service (``BILINGUAL_HOSTGRAPH_PAGES``) turns each referring host into pages in one of two ways:

* ``index`` (the default when the answers come from Common Crawl): look the host up in the
  Common Crawl URL index (:mod:`~bilingual_spider.search.cc_index`, ``matchType=host``,
  successful HTML captures only, at most 10 per page wanted) and take
  ``BILINGUAL_HOSTGRAPH_PAGES_PER_HOST`` of them: pages whose URL names a link list first
  ("links", "directory", "resources", ...: the words the paper's Backlink classifier learned),
  then the home page and the pages nearest the root. Each is marked with ``via_host``; a host
  with no captures falls back to its home page. The Backlink classifier then ranks them.
* ``home``: the referring host's home page only (one request, no index; the default of the
  embedded backlinks, which use no API). Cheaper, but a directory that lists sites on inner pages
  is reached only through its home page's links.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import ClassVar

import numpy as np

from bilingual_spider.language.tld import host_of, registered_domain
from bilingual_spider.search.adapter import (
    SANDBOX_API,
    LocalAdapter,
    offset_continuation,
    parse_offset,
)
from bilingual_spider.search.cc_hostgraph_build import CHUNK_EDGES, FILES, write_index
from bilingual_spider.search.values import (
    BACKLINKS,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

NAME = "cc_hostgraph"
REAL_URL = "https://data.commoncrawl.org/projects/hyperlinkgraph"
SANDBOX_URL = f"{SANDBOX_API}/cc-data/projects/hyperlinkgraph"
DEFAULT_GRAPH = "cc-main-2024-aug-sep-oct"
INDEX_VERSION = 1


def reverse_host(host: str) -> str:
    """``www.example.com`` <-> ``com.example.www`` (Common Crawl's vertex names)."""
    return ".".join(reversed(host.split(".")))


def graph_file_urls(base_url: str, name: str) -> tuple[str, str]:
    """The URLs of a release's vertex and edge files."""
    prefix = f"{base_url.rstrip('/')}/{name}/host/{name}-host-"
    return prefix + "vertices.txt.gz", prefix + "edges.txt.gz"


class HostGraphIndex:
    """The referring hosts of every host of a host graph, as arrays (see the module docstring)."""

    def __init__(
        self,
        names: bytes | np.ndarray,
        name_offsets: np.ndarray,
        in_sources: np.ndarray,
        in_offsets: np.ndarray,
        out_degree: np.ndarray,
    ) -> None:
        self._names = names
        self.name_offsets = name_offsets
        self.in_sources = in_sources
        self.in_offsets = in_offsets
        self.out_degree = out_degree

    # --- building and storing ------------------------------------------------------------------

    @classmethod
    def from_files(
        cls, vertices_path: Path, edges_path: Path, chunk_edges: int = CHUNK_EDGES
    ) -> HostGraphIndex:
        """Read a release's two files into memory (names must be sorted, as Common Crawl
        writes them). For a graph of any size, :meth:`build` an index on disk instead."""
        with tempfile.TemporaryDirectory() as directory:
            write_index(vertices_path, edges_path, Path(directory), chunk_edges)
            names = (Path(directory) / "names.bin").read_bytes()
            arrays = [np.load(Path(directory) / name) for name in FILES[1:]]
        return cls(names, *arrays)

    def save(self, directory: Path) -> None:
        """Write the arrays (atomically: a crawl never loads a half-written index)."""
        staging = _staging(directory)
        (staging / "names.bin").write_bytes(bytes(self._names))
        np.save(staging / "name_offsets.npy", self.name_offsets)
        np.save(staging / "in_sources.npy", self.in_sources)
        np.save(staging / "in_offsets.npy", self.in_offsets)
        np.save(staging / "out_degree.npy", self.out_degree)
        _publish(staging, directory, self.hosts, int(self.in_sources.size))

    @classmethod
    def exists(cls, directory: Path) -> bool:
        info = directory / "index.json"
        if not info.is_file():
            return False
        try:
            return json.loads(info.read_text()).get("version") == INDEX_VERSION
        except (OSError, ValueError):
            return False

    @classmethod
    def load(cls, directory: Path) -> HostGraphIndex:
        """Map a saved index from disk."""
        names = (
            np.memmap(directory / "names.bin", dtype=np.uint8, mode="r")
            if ((directory / "names.bin").stat().st_size)
            else np.zeros(0, dtype=np.uint8)
        )
        return cls(
            names,
            np.load(directory / "name_offsets.npy", mmap_mode="r"),
            np.load(directory / "in_sources.npy", mmap_mode="r"),
            np.load(directory / "in_offsets.npy", mmap_mode="r"),
            np.load(directory / "out_degree.npy", mmap_mode="r"),
        )

    @classmethod
    def build(
        cls,
        vertices_path: Path,
        edges_path: Path,
        directory: Path,
        chunk_edges: int = CHUNK_EDGES,
    ) -> HostGraphIndex:
        """Index the files into ``directory`` in chunks of about ``chunk_edges`` edges, in memory
        bounded by the number of hosts (:mod:`~bilingual_spider.search.cc_hostgraph_build`),
        and return the index mapped from there."""
        staging = _staging(directory)
        try:
            hosts, edges = write_index(vertices_path, edges_path, staging, chunk_edges)
        except BaseException:
            shutil.rmtree(staging)  # the bucket files may be large
            raise
        _publish(staging, directory, hosts, edges)
        return cls.load(directory)

    # --- lookups -------------------------------------------------------------------------------

    @property
    def hosts(self) -> int:
        return len(self.name_offsets) - 1

    def name(self, vertex: int) -> str:
        """The reversed host name of a vertex."""
        start, end = int(self.name_offsets[vertex]), int(self.name_offsets[vertex + 1])
        return bytes(self._names[start:end]).decode("utf-8")

    def vertex(self, reversed_name: str) -> int | None:
        """The id of a reversed host name (binary search), or None."""
        low, high = 0, self.hosts
        while low < high:
            middle = (low + high) // 2
            if self.name(middle) < reversed_name:
                low = middle + 1
            else:
                high = middle
        return low if low < self.hosts and self.name(low) == reversed_name else None

    def host_vertex(self, host: str) -> int | None:
        """The vertex of a host, trying its ``www.`` twin when the host itself is absent."""
        host = host_of(host)
        twin = host[4:] if host.startswith("www.") else f"www.{host}"
        for candidate in (host, twin):
            found = self.vertex(reverse_host(candidate))
            if found is not None:
                return found
        return None

    def referring_hosts(self, host: str) -> list[str]:
        """The hosts that link to ``host`` (not itself), most linking first."""
        vertex = self.host_vertex(host)
        if vertex is None:
            return []
        start, end = int(self.in_offsets[vertex]), int(self.in_offsets[vertex + 1])
        return [reverse_host(self.name(int(v))) for v in self.in_sources[start:end]]


class HostGraphBacklinks(LocalAdapter):
    """Backlinks of a host from a Common Crawl host graph, downloaded once and indexed in
    ``cache_dir/<NAME>/``. Answers are referring hosts (``level="host"``, the URL is the host's
    home page), out-of-site only (another registered domain), ``page_size`` a page."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (BACKLINKS,)
    default_rate: ClassVar[float] = 1.0
    """Downloads of the graph files: data.commoncrawl.org publishes no limit (S3 answers
    ``SlowDown``); two files per release."""

    def __init__(
        self,
        cache_dir: Path,
        base_url: str = REAL_URL,
        graph: str = DEFAULT_GRAPH,
        page_size: int = 10,
    ) -> None:
        self.base_url, self.graph, self.page_size = base_url.rstrip("/"), graph, page_size
        self.directory = Path(cache_dir) / graph
        self.index: HostGraphIndex | None = None
        self.build_seconds: float | None = None

    @property
    def sandbox(self) -> bool:
        return self.base_url.startswith(SANDBOX_API)

    @property
    def ready(self) -> bool:
        return self.index is not None

    def downloads(self) -> list[tuple[HttpCall, Path]]:
        if self.index is not None or HostGraphIndex.exists(self.directory):
            return []
        vertices, edges = graph_file_urls(self.base_url, self.graph)
        files = [(HttpCall(vertices), self.directory / "vertices.txt.gz")]
        files.append((HttpCall(edges), self.directory / "edges.txt.gz"))
        return [(call, path) for call, path in files if not path.is_file()]

    def prepare(self) -> None:
        if self.index is not None:
            return
        if not HostGraphIndex.exists(self.directory):
            started = time.perf_counter()
            HostGraphIndex.build(
                self.directory / "vertices.txt.gz", self.directory / "edges.txt.gz", self.directory
            )
            self.build_seconds = time.perf_counter() - started
        self.index = HostGraphIndex.load(self.directory)

    def answer(self, query: SearchQuery, continuation: str | None = None) -> SearchPage:
        if self.index is None:
            raise RuntimeError("the host graph is not indexed yet (prepare first)")
        return host_level_page(self.name, query, self.index, continuation, self.page_size)


def _staging(directory: Path) -> Path:
    """A fresh directory next to the index for its files while they are written."""
    staging = directory / f".staging-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)  # left by a build of this pid that failed
    staging.mkdir(parents=True)
    return staging


def _publish(staging: Path, directory: Path, hosts: int, edges: int) -> None:
    """Move the written files into place, ``index.json`` last: the index is whole."""
    (directory / "index.json").unlink(missing_ok=True)  # an older index is no longer whole
    for name in FILES:
        os.replace(staging / name, directory / name)
    info = {"version": INDEX_VERSION, "hosts": hosts, "edges": edges}
    (directory / "index.json").write_text(json.dumps(info))
    staging.rmdir()


def host_level_page(
    adapter: str,
    query: SearchQuery,
    index: HostGraphIndex,
    continuation: str | None,
    page_size: int,
    skip: frozenset[str] = frozenset(),
) -> SearchPage:
    """One page of the out-of-site hosts that link to the query's host, as home-page links."""
    host = host_of(query.target)
    site = registered_domain(host) or host
    referring = [
        h
        for h in index.referring_hosts(host)
        if (registered_domain(h) or h) != site and h not in skip
    ]
    offset = parse_offset(continuation)
    target = f"http://{host}/"
    links = tuple(
        FoundLink(url=f"http://{h}/", target=target, level="host")
        for h in referring[offset : offset + page_size]
    )
    following = offset_continuation(offset, page_size, len(referring))
    return SearchPage(query, adapter, links, following, len(referring))
