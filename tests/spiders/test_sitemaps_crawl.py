"""Crawls of sites that publish sitemaps (``BILINGUAL_SITEMAPS``), scored with the sites' gold:
the translations an hreflang sitemap names are found within a tenth of the site's pages, its
stale and wrong entries are not, and sitemaps that are plain or broken cost nothing."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.sitemap_sites import (
    ARCHIVE_HOST,
    BROKEN_HOST,
    PLAIN_HOST,
    load_gold,
    write_sitemap_sites,
)
from tests.conftest import catalog_text

CRAWL_SECONDS = 600


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    root = tmp_path_factory.mktemp("sitemap_sites")
    config = write_sitemap_sites(root, catalog_text(["en", "fr"]))
    with SandboxServer(["--config", str(config)]) as server:
        yield root, server


def crawl(server: SandboxServer, out: Path, seeds: list[str], budget: int) -> dict:
    (out / "seeds.txt").write_text("".join(url + "\n" for url in seeds))
    result = run_spider(
        "pupsniffer",
        settings={
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_SITEMAPS": True,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        },
        arguments={
            "seeds": out / "seeds.txt",
            "langs": "en,fr",
            "site_budget": budget,
            "out": out / "run",
        },
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = (out / "run" / "pairs.jsonl").read_text().splitlines()
    return {
        "pairs": [json.loads(line) for line in lines],
        "stats": json.loads((out / "run" / "stats.json").read_text()),
    }


def pair_set(pairs: list[dict], host: str) -> set[frozenset[str]]:
    return {frozenset((p["source_url"], p["target_url"])) for p in pairs if host in p["source_url"]}


def test_an_hreflang_sitemaps_pairs_are_found_in_a_tenth_of_the_site(sites, tmp_path):
    root, server = sites
    truth = load_gold(root)[ARCHIVE_HOST]
    gold = {frozenset(p) for p in truth["gold_pairs"]}
    listed = {frozenset(p) for p in truth["sitemap_pairs"]}
    budget = truth["pages"] // 10
    run = crawl(server, tmp_path, [f"http://{ARCHIVE_HOST}/"], budget)
    found = pair_set(run["pairs"], ARCHIVE_HOST)
    assert run["stats"]["pupsniffer/pages"] <= budget
    assert len(found & listed & gold) >= 0.95 * len(listed & gold)
    assert not found & (listed - gold)  # the gone and the untranslated alternates
    assert len(found & gold) >= 0.98 * len(found)
    assert run["stats"]["pupsniffer/pairs/sitemap"] > 0
    assert run["stats"]["sitemaps/files/sitemapindex"] == 1  # the gzip index announced


def test_plain_sitemaps_add_pages_and_broken_ones_cost_nothing(sites, tmp_path):
    root, server = sites
    gold = load_gold(root)
    run = crawl(server, tmp_path, [f"http://{PLAIN_HOST}/", f"http://{BROKEN_HOST}/"], 200)
    for host in (PLAIN_HOST, BROKEN_HOST):
        assert pair_set(run["pairs"], host) == {frozenset(p) for p in gold[host]["gold_pairs"]}
    stats = run["stats"]
    # the plain site's is at /sitemap.xml (no robots.txt); of the broken site's three: one gone,
    # one cut off (read as far as it goes), one an HTML page
    assert stats["sitemaps/files_failed"] == 1
    assert stats["sitemaps/files/invalid"] == 1
    assert stats["sitemaps/files/urlset"] == 2
