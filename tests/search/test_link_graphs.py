"""The host-graph index (built from Common Crawl's file format, saved, mapped back) against a
brute-force reading of the same files, the crawl's own link graph and its bounds, and the
embedded backlinks that combine them."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.search_api_commoncrawl import HostGraph
from bilingual_spider.search.cc_hostgraph import (
    HostGraphBacklinks,
    HostGraphIndex,
    host_level_page,
    reverse_host,
)
from bilingual_spider.search.crawl_graph import CrawlLinkGraph
from bilingual_spider.search.embedded import EmbeddedBacklinks
from bilingual_spider.search.values import SearchQuery
from tests.sandbox.test_search_api import LINKERS, small_engine


def write_graph(directory: Path, hosts: list[str], edges: list[tuple[int, int]]) -> None:
    """Files in Common Crawl's format: ids in the sorted order of the reversed names."""
    directory.mkdir(parents=True, exist_ok=True)
    names = sorted(reverse_host(h) for h in hosts)
    with gzip.open(directory / "vertices.txt.gz", "wt") as f:
        f.writelines(f"{i}\t{name}\n" for i, name in enumerate(names))
    with gzip.open(directory / "edges.txt.gz", "wt") as f:
        f.writelines(f"{a}\t{b}\n" for a, b in sorted(set(edges)))


@pytest.fixture(scope="module")
def sandbox_graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sandbox fake's host graph files of the small engine."""
    directory = tmp_path_factory.mktemp("graph")
    index = EngineIndex.load([small_engine(directory / "engine")])
    for name, body in HostGraph(index, "g").files().items():
        (directory / name).write_bytes(body)
    return directory


def test_index_of_the_sandbox_graph(sandbox_graph: Path, tmp_path: Path) -> None:
    index = HostGraphIndex.build(
        sandbox_graph / "vertices.txt.gz", sandbox_graph / "edges.txt.gz", tmp_path / "index"
    )
    assert HostGraphIndex.exists(tmp_path / "index")
    assert isinstance(index.in_sources, np.memmap)  # mapped from disk, not read into memory
    referring = index.referring_hosts("www.target.com")
    assert len(referring) == LINKERS
    assert referring[-1] == "www.linker0.org"  # links to one host; the others link to two
    assert index.referring_hosts("target.com") == referring  # the www. twin
    assert index.referring_hosts("blog.target.com") == ["www.travel.hk"]
    assert index.referring_hosts("www.nowhere.example") == []
    assert index.referring_hosts("www.linker5.org") == []


@given(
    st.integers(1, 40).flatmap(
        lambda n: st.tuples(
            st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)))
        )
    )
)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_index_lookups_equal_brute_force(tmp_path: Path, graph: tuple[int, list]) -> None:
    count, edges = graph
    hosts = [f"h{i}.example{i % 3}.org" for i in range(count)]
    directory = tmp_path / f"g{abs(hash((count, tuple(edges))))}"
    write_graph(directory, hosts, edges)
    index = HostGraphIndex.build(
        directory / "vertices.txt.gz", directory / "edges.txt.gz", directory / "index"
    )
    names = sorted(reverse_host(h) for h in hosts)
    host_of_id = [reverse_host(n) for n in names]
    distinct = {(host_of_id[a], host_of_id[b]) for a, b in edges if a != b}
    out_degree = {h: sum(1 for a, _ in distinct if a == h) for h in hosts}
    for host in hosts:
        expected = {a for a, b in distinct if b == host}
        found = index.referring_hosts(host)
        assert sorted(found) == sorted(expected) and len(found) == len(set(found))
        degrees = [out_degree[h] for h in found]
        assert degrees == sorted(degrees, reverse=True)


def test_broken_graph_files_are_refused(tmp_path: Path) -> None:
    write_graph(tmp_path, ["a.org", "b.org"], [(0, 5)])
    with pytest.raises(ValueError, match="not in the vertex file"):
        HostGraphIndex.from_files(tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz")
    with gzip.open(tmp_path / "vertices.txt.gz", "wt") as f:
        f.write("0\torg.b\n1\torg.a\n")
    with pytest.raises(ValueError, match="not sorted"):
        HostGraphIndex.from_files(tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz")


def test_host_graph_adapter_downloads_once_then_answers_by_pages(
    sandbox_graph: Path, tmp_path: Path
) -> None:
    adapter = HostGraphBacklinks(tmp_path, "http://api.sandbox.internal/cc-data/x", "g", 50)
    downloads = adapter.downloads()
    assert [call.url.rsplit("/", 1)[1] for call, _ in downloads] == [
        "g-host-vertices.txt.gz",
        "g-host-edges.txt.gz",
    ]
    for (_, path), name in zip(downloads, ("vertices.txt.gz", "edges.txt.gz"), strict=True):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((sandbox_graph / name).read_bytes())
    assert not adapter.ready
    adapter.prepare()
    assert adapter.ready and adapter.downloads() == []
    query = SearchQuery.backlinks("http://www.target.com/en/a.html")
    first = adapter.answer(query)
    second = adapter.answer(query, first.continuation)
    third = adapter.answer(query, second.continuation)
    assert [len(p.links) for p in (first, second, third)] == [50, 50, 20]
    assert third.continuation is None and first.total == LINKERS
    assert {link.level for link in first.links} == {"host"}
    assert first.links[0].target == "http://www.target.com/"
    again = HostGraphBacklinks(tmp_path, "http://x", "g")
    assert again.downloads() == []  # the index on disk is found by the next crawl


def test_out_of_site_only(sandbox_graph: Path, tmp_path: Path) -> None:
    write_graph(tmp_path, ["www.a.com", "es.a.com", "b.org"], [(0, 1), (2, 1), (1, 0)])
    index = HostGraphIndex.from_files(tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz")
    page = host_level_page("x", SearchQuery.backlinks("www.a.com", "host"), index, None, 10)
    assert [link.url for link in page.links] == ["http://b.org/"]  # es.a.com is the same site


# --- the crawl's own link graph ----------------------------------------------------------------


def test_crawl_graph_records_out_of_site_links_only() -> None:
    graph = CrawlLinkGraph()
    added = graph.add_page(
        "http://hub.org/links.html",
        [
            ("http://www.a.es/", "Spain  hotel"),
            "http://www.a.es/en/",
            ("http://hub.org/about", "about"),  # internal
            ("http://es.hub.org/", "es"),  # same site
            ("mailto:x@y", "mail"),
        ],
    )
    assert added == 1  # one page linking into www.a.es, counted once
    graph.add_page("http://other.net/", [("http://www.a.es/en/", "English")])
    found = graph.backlinks("http://www.a.es/en/")
    assert [(b.source, b.anchor) for b in found] == [
        ("http://other.net/", "English"),  # links to the page itself: first
        ("http://hub.org/links.html", "Spain hotel"),
    ]
    assert len(graph.backlinks("a.es", "domain")) == 2
    assert graph.backlinks("www.b.es") == []


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=300))
def test_crawl_graph_stays_within_its_bounds(links: list[tuple[int, int]]) -> None:
    graph = CrawlLinkGraph(max_hosts=5, max_sources=3)
    for source, target in links:
        graph.add_page(f"http://s{source}.org/", [f"http://t{target}.com/"])
    assert len(graph) <= 5
    assert all(len(graph.backlinks(f"t{t}.com", "host")) <= 3 for t in range(31))
    if links:  # the most recent target is always remembered
        last_source, last_target = links[-1]
        assert graph.backlinks(f"t{last_target}.com", "host")


def test_embedded_backlinks_put_the_crawl_graph_first(sandbox_graph: Path, tmp_path: Path) -> None:
    for name in ("vertices.txt.gz", "edges.txt.gz"):
        (tmp_path / name).write_bytes((sandbox_graph / name).read_bytes())
    graph = CrawlLinkGraph()
    graph.add_page("http://www.linker7.org/deep/list.html", [("http://www.target.com/", "T")])
    embedded = EmbeddedBacklinks(graph, tmp_path, page_size=200)
    assert not embedded.ready
    embedded.prepare()  # indexes the files in that directory
    assert HostGraphIndex.exists(tmp_path)
    page = embedded.answer(SearchQuery.backlinks("http://www.target.com/"))
    assert page.links[0].url == "http://www.linker7.org/deep/list.html"
    assert page.links[0].anchor == "T" and page.links[0].level == "page"
    hosts = [link.url for link in page.links[1:]]
    assert len(hosts) == LINKERS - 1 and "http://www.linker7.org/" not in hosts
    assert EmbeddedBacklinks(graph).answer(SearchQuery.backlinks("x.org")).links == ()


def test_referring_host_pages_prefer_link_lists_then_the_root() -> None:
    from bilingual_spider.search.backlink_pages import backlink_candidates
    from bilingual_spider.search.values import FoundLink

    captures = [
        FoundLink("http://hub.org/about.html", status=200),
        FoundLink("http://hub.org/", status=200),
        FoundLink("http://hub.org/a/b/c.html", status=200),
        FoundLink("http://hub.org/resources/travel-en-es.html", status=200),
        FoundLink("http://hub.org/links.php?page=2", status=200),
        FoundLink("http://hub.org/gone-links.html", status=404),
        FoundLink("http://hub.org/", status=200),
    ]
    assert [link.url for link in backlink_candidates(captures, 4)] == [
        "http://hub.org/links.php?page=2",
        "http://hub.org/resources/travel-en-es.html",
        "http://hub.org/",
        "http://hub.org/about.html",
    ]
