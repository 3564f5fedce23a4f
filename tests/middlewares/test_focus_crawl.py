"""Crawls of a generated world with the focus policies switched on by settings: hard language focus
raises the share of Japanese pages of a forward crawl, and every spider of the project runs with
the soft language focus and the quality priority together (its links judged, its pages counted)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.language.codes import same_language
from bilingual_spider.sandbox.engine_files import read_pages
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.webgraph_write import ENGINE_DIR
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl_settings
from tests.waiting import CRAWL_SECONDS

PAGES = 300


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("focus") / "w", 17, 150) as served:
        yield served


def crawl(
    served: tuple[Path, SandboxServer], spider: str, out: Path, settings: dict, **arguments: object
) -> dict:
    world, server = served
    responses, stats = out / "responses.jsonl", out / "stats.json"
    result = run_spider(
        spider,
        settings={
            **logged_crawl_settings(server.proxy_url, responses, stats),
            "ROBOTSTXT_OBEY": False,
            **settings,
        },
        arguments={"seeds": world / "seed_urls.txt", **arguments},
        output=out / "items.jsonl",
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        "responses": [json.loads(line) for line in responses.read_text().splitlines()],
        "stats": json.loads(stats.read_text()),
    }


def japanese_share(world: Path, responses: list[dict]) -> float:
    languages = {p.url: p.lang for p in read_pages(world / ENGINE_DIR)}
    pages = [r["url"] for r in responses if r["status"] == 200 and r["role"] == "forward"]
    return sum(1 for url in pages if same_language(languages.get(url) or "und", "ja")) / len(pages)


def test_hard_focus_raises_the_share_of_target_language_pages(served_world, tmp_path: Path):
    budget = {"CLOSESPIDER_PAGECOUNT": PAGES}
    (tmp_path / "none").mkdir()
    (tmp_path / "ja").mkdir()
    plain = crawl(served_world, "forward", tmp_path / "none", budget)
    focused = crawl(
        served_world, "forward", tmp_path / "ja", {**budget, "BILINGUAL_FOCUS_LANGS": "ja"}
    )
    stats = focused["stats"]
    kept = sum(v for k, v in stats.items() if k.startswith("focus/kept/"))  # by TLD, anchor, ...
    assert stats["focus/links"] > 0 and kept > 0
    assert stats["focus/dropped_anchor"] + stats["focus/dropped_unknown"] > 0
    world = served_world[0]
    before = japanese_share(world, plain["responses"])
    assert japanese_share(world, focused["responses"]) > 2 * before


@pytest.mark.parametrize(
    ("spider", "arguments"),
    [
        ("forward", {}),
        ("backforth", {"strategy": "fc", "budget": 120, "langs": "any"}),
        ("backforth", {"strategy": "cobfc", "budget": 120, "langs": "any"}),
        ("pupsniffer", {"site_budget": 20}),
        ("detect", {}),
    ],
)
def test_every_spider_runs_with_soft_focus_and_quality_priority(
    served_world, tmp_path: Path, spider: str, arguments: dict
):
    settings = {
        "BILINGUAL_FOCUS_LANGS": "ja,zh",
        "BILINGUAL_FOCUS_MODE": "soft",
        "BILINGUAL_QUALITY_ENABLED": True,
        "CLOSESPIDER_PAGECOUNT": PAGES,
    }
    run = crawl(served_world, spider, tmp_path, settings, **arguments)
    stats = run["stats"]
    assert stats["quality/pages"] > 0 and "quality/yield_ratio" in stats
    if spider != "detect":  # the detector fetches probes only, which no focus touches
        assert stats["focus/links"] > 0
        kept = stats.get("focus/kept/soft_target", 0) + stats.get("focus/kept/soft_other", 0)
        assert kept == stats["focus/links"]  # soft focus drops nothing
