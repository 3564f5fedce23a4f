"""``scrapy crawl forward`` plus the backlink expansion middleware is a back-and-forth crawl: it
judges the sites it reaches, asks the backlinks of the bilingual ones, and finds bilingual sites
that only those backlink pages lead to."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.webgraph_write import load_ground_truth
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("expansion") / "w", 23, 120) as served:
        yield served


def host(url: str) -> str:
    return urlsplit(url).hostname or ""


def test_forward_with_backlink_expansion_finds_sites_only_backlinks_reach(served_world, tmp_path):
    world, server = served_world
    run = logged_crawl(
        "forward",
        server.proxy_url,
        tmp_path,
        settings={"BILINGUAL_BACKLINK_EXPANSION": True},
        arguments={"seeds": world / "seed_urls.txt"},
    )
    stats, fetched, items = run["stats"], run["responses"], run["items"]
    assert stats["finish_reason"] == "finished"  # the bipartite frontier ran dry
    assert stats["backlinks/queries"] > 0 and stats["backlinks/requested"] > 0

    roles_of: dict[str, set[str]] = {}  # a page can be a probe and a seed or backlink page
    for record in fetched:
        roles_of.setdefault(record["url"], set()).add(record["role"])
    first_pages = [r for r in fetched if r["role"] == "forward" and not r["redirected_from"]]
    for record in first_pages:  # forward pages' own links are never followed
        assert roles_of.get(record["referer"], set()) & {"seed", "backlink"}, record
    by_backlinks = {host(r["url"]) for r in first_pages if "backlink" in roles_of[r["referer"]]}

    truth = load_ground_truth(world)
    bilingual_hosts = {h for s in truth["sites"] if s["bilingual"] for h in s["hosts"].values()}
    found = {i["site"] for i in items if i.get("type") == "site_verdict" and i["bilingual"]}
    assert len(found) >= 10
    assert len(found & bilingual_hosts) / len(found) >= 0.9
    seed_hosts = {host(url) for url in (world / "seed_urls.txt").read_text().split()}
    only_by_backlinks = (found & by_backlinks & bilingual_hosts) - seed_hosts
    assert len(only_by_backlinks) >= 5, (len(found), len(by_backlinks))


def test_with_no_backlink_api_the_crawls_own_pages_are_the_backlinks(served_world, tmp_path):
    """``BILINGUAL_SEARCH_BACKLINKS=embedded`` (the default without Moz keys): a bilingual
    site's backlinks are the fetched pages that link to it, which the middleware records."""
    world, server = served_world
    run = logged_crawl(
        "forward",
        server.proxy_url,
        tmp_path,
        settings={"BILINGUAL_BACKLINK_EXPANSION": True, "BILINGUAL_SEARCH_BACKLINKS": "embedded"},
        arguments={"seeds": world / "seed_urls.txt"},
    )
    stats, fetched = run["stats"], run["responses"]
    assert stats["search/crawl_graph/pages"] > 0
    assert stats["search/embedded/found"] > 0 and stats["backlinks/requested"] > 0
    backlink_pages = {r["url"] for r in fetched if r["role"] == "backlink"}
    followed = [r for r in fetched if r["role"] == "forward" and r["referer"] in backlink_pages]
    assert followed  # a backlink page's links led somewhere
