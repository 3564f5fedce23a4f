"""Back-and-forth crawls of a generated world through the sandbox: the bipartite rules hold, the
crawl ends by itself on an empty frontier, and what it reports is bilingual by the ground truth."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.webgraph_write import load_ground_truth
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl_settings
from tests.waiting import CRAWL_SECONDS


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("backforth") / "w", 23, 200) as served:
        yield served


def crawl(world: Path, server: SandboxServer, tmp_path: Path, **arguments: object) -> dict:
    responses, stats, items = (
        tmp_path / "responses.jsonl",
        tmp_path / "stats.json",
        tmp_path / "o.jsonl",
    )
    result = run_spider(
        "backforth",
        settings=logged_crawl_settings(server.proxy_url, responses, stats),
        arguments={"seeds": world / "seed_urls.txt", "langs": "any", **arguments},
        output=items,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        "responses": [json.loads(line) for line in responses.read_text().splitlines()],
        "stats": json.loads(stats.read_text()),
        "items": [json.loads(line) for line in items.read_text().splitlines()],
    }


def roles(responses: list[dict]) -> dict[str, set[str]]:
    """The roles each URL was fetched in (a page can be a probe and a backlink page), redirected
    URLs included."""
    found: dict[str, set[str]] = {}
    for record in responses:
        for url in [record["url"], *record["redirected_from"]]:
            found.setdefault(url, set()).add(record["role"])
    return found


def host(url: str) -> str:
    return urlsplit(url).hostname or ""


def test_obfc_keeps_to_the_bipartite_graph_and_ends_on_an_empty_frontier(served_world, tmp_path):
    world, server = served_world
    run = crawl(world, server, tmp_path, strategy="obfc")
    assert run["stats"]["finish_reason"] == "finished"  # no budget: the frontier ran dry
    roles_of = roles(run["responses"])
    forward = [r for r in run["responses"] if r["role"] == "forward"]
    assert forward and run["stats"]["backforth/pages/backlink"] > 0
    for record in forward:  # forward pages' own links are never followed
        if record["redirected_from"]:
            continue  # its referer is the URL that redirected
        assert roles_of[record["referer"]] & {"backlink", "seed"}, record
        assert host(record["referer"]) != host(record["url"])  # out-of-site links only
    first_pages = Counter(
        host(r["url"]) for r in run["responses"] if r["role"] in ("seed", "forward")
    )
    assert max(first_pages.values()) == 1  # one first page per site; in-site fetches are probes
    truth = load_ground_truth(world)
    bilingual_hosts = {h for s in truth["sites"] if s["bilingual"] for h in s["hosts"].values()}
    reported = [i["site"] for i in run["items"] if "found_by" in i]
    assert len(reported) >= 10
    assert sum(site in bilingual_hosts for site in reported) / len(reported) >= 0.9


def test_fc_follows_forward_pages_and_stops_at_its_budget(served_world, tmp_path):
    world, server = served_world
    # 60 pages: with 30, a loaded machine could spend the budget on the seeds' own links
    run = crawl(world, server, tmp_path, strategy="fc", budget=60)
    assert run["stats"]["finish_reason"] == "budget"
    assert 60 <= run["stats"]["backforth/pages"] < 60 + 40  # pages in flight still count
    roles_of = roles(run["responses"])
    assert "backforth/pages/backlink" not in run["stats"]
    referers = [r["referer"] for r in run["responses"] if r["role"] == "forward"]
    assert any("forward" in roles_of.get(referer, ()) for referer in referers)


def test_cobfc_retrains_its_classifiers_during_the_crawl(served_world, tmp_path):
    world, server = served_world
    run = crawl(world, server, tmp_path, strategy="cobfc", learning_interval=100)
    stats = run["stats"]
    assert stats["backforth/classifier/forward/version"] >= 1
    assert stats["backforth/classifier/forward/examples_relevant"] > 0
    assert stats["backforth/sites_bilingual"] >= 10
