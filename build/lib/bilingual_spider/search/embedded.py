"""The backlinks a crawl can know with no API: its own link graph, and a host graph on disk.

Answers list first the fetched pages that link to the target
(:class:`~bilingual_spider.search.crawl_graph.CrawlLinkGraph`, page level, with anchor text),
then, when a host graph index is given (``BILINGUAL_HOSTGRAPH_DIR``: a directory written by
:meth:`HostGraphIndex.save`, or one holding a release's ``vertices.txt.gz`` and
``edges.txt.gz``, indexed there on first use), the other hosts that link to the target's host,
as their home pages (``level="host"``).

The crawl graph grows while the crawl runs, so these answers are never cached. The pages found
in it were fetched already: a spider that wants their out-of-site links again must request them
with ``dont_filter=True`` (or have kept their links).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from bilingual_spider.language.tld import host_of
from bilingual_spider.search.adapter import LocalAdapter, offset_continuation, parse_offset
from bilingual_spider.search.cc_hostgraph import HostGraphIndex, host_level_page
from bilingual_spider.search.crawl_graph import CrawlLinkGraph
from bilingual_spider.search.values import BACKLINKS, FoundLink, SearchPage, SearchQuery

NAME = "embedded"


class EmbeddedBacklinks(LocalAdapter):
    """Backlinks from the crawl's link graph, then from a host graph on disk (if any)."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (BACKLINKS,)
    cacheable: ClassVar[bool] = False

    def __init__(
        self, graph: CrawlLinkGraph, hostgraph_dir: Path | None = None, page_size: int = 50
    ) -> None:
        self.graph, self.page_size = graph, page_size
        self.hostgraph_dir = Path(hostgraph_dir) if hostgraph_dir else None
        self.index: HostGraphIndex | None = None

    @property
    def ready(self) -> bool:
        return self.hostgraph_dir is None or self.index is not None

    def prepare(self) -> None:
        directory = self.hostgraph_dir
        if directory is None or self.index is not None:
            return
        if not HostGraphIndex.exists(directory):
            vertices, edges = directory / "vertices.txt.gz", directory / "edges.txt.gz"
            if not (vertices.is_file() and edges.is_file()):
                raise FileNotFoundError(
                    f"BILINGUAL_HOSTGRAPH_DIR {directory}: neither a host graph index nor "
                    "vertices.txt.gz and edges.txt.gz"
                )
            HostGraphIndex.build(vertices, edges, directory)
        self.index = HostGraphIndex.load(directory)

    def answer(self, query: SearchQuery, continuation: str | None = None) -> SearchPage:
        found = [
            FoundLink(url=b.source, target=b.target, anchor=b.anchor)
            for b in self.graph.backlinks(query.target, query.scope)
        ]
        if self.index is not None:
            known = frozenset(host_of(link.url) for link in found)
            everything = host_level_page(self.name, query, self.index, None, 10**9, known)
            found += everything.links
        offset = parse_offset(continuation)
        page = tuple(found[offset : offset + self.page_size])
        following = offset_continuation(offset, self.page_size, len(found))
        return SearchPage(query, self.name, page, following, len(found))
