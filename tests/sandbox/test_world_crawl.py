"""A generated world, served by the sandbox server and crawled through Scrapy, agrees with its
ground truth: hosts belong to the sites it lists, pages declare the languages it says, and the
gold pairs the crawl reaches are the translations the pages link to."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.webgraph_write import (
    load_gold_pairs,
    load_ground_truth,
)
from tests.conftest import generated_world_served
from tests.waiting import CRAWL_SECONDS


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("crawlworld") / "w", 21, 150) as served:
        yield served


def test_served_pages_match_the_ground_truth(served_world) -> None:
    world, server = served_world
    truth = load_ground_truth(world)
    for site in truth["sites"][:40]:
        status, headers, body = server.get(site["root_url"])
        assert status == 200, site["root_url"]
        assert headers["Content-Type"].startswith("text/html")
    status, _, _ = server.get(truth["sites"][0]["root_url"] + "no-such-page.html")
    assert status == 404


def test_crawl_reaches_sites_and_pairs_of_the_ground_truth(served_world, tmp_path: Path) -> None:
    world, server = served_world
    truth = load_ground_truth(world)
    site_of_host = {host: s for s in truth["sites"] for host in s["hosts"].values()}
    targets = [s for s in truth["sites"] if s["bilingual"]][:12]
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("".join(s["root_url"] + "\n" for s in targets))
    output = tmp_path / "pages.jsonl"
    result = run_spider(
        "forward",
        settings={
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            "CLOSESPIDER_PAGECOUNT": 500,
            "DEPTH_LIMIT": 3,
        },
        arguments={"seeds": seeds},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    pages = {r["url"]: r for line in output.read_text().splitlines() if (r := json.loads(line))}
    ok = {url: r for url, r in pages.items() if r["status"] == 200}
    assert len(ok) >= 200
    for url, record in ok.items():
        site = site_of_host.get(urlsplit(url).hostname or "")
        assert site is not None, url  # every host served is one the ground truth lists
        declared = record["declared_lang"]
        if declared is not None:
            assert declared in site["languages"] or site["decoy"], (url, declared)
    pairs = [
        (s, t, tl)
        for s, t, _sl, tl, _site in load_gold_pairs(world)
        if s in ok and t in ok and ok[t]["declared_lang"]
    ]
    assert len(pairs) >= 10
    for _source, target, target_lang in pairs:
        assert normalize_language_code(ok[target]["declared_lang"]) == target_lang
