"""``scrapy crawl forward`` plus the pattern scoring middleware yields verified URL pairs: right by
the generated world's gold, judged by content, and found again from counterpart requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("patterns") / "w", 31, 60) as served:
        yield served


def first_seeds(world: Path, tmp_path: Path, count: int = 15) -> Path:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join((world / "seed_urls.txt").read_text().split()[:count]) + "\n")
    return seeds


def gold_pairs(world: Path) -> set[frozenset[str]]:
    lines = (world / "gold_pairs.tsv").read_text().splitlines()
    return {frozenset(line.split("\t")[:2]) for line in lines}


def judged_pairs(world: Path, items: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """The crawl's URL pairs, those with an English side (the gold pairs English pages only),
    and those of them right by the gold."""
    gold = gold_pairs(world)
    pairs = [item for item in items if item.get("type") == "url_pair"]
    english = [p for p in pairs if "en" in (p["source_lang"], p["target_lang"])]
    right = [p for p in english if frozenset((p["source_url"], p["target_url"])) in gold]
    return pairs, english, right


def test_forward_with_pattern_scoring_yields_verified_pairs(served_world, tmp_path):
    world, server = served_world
    seeds = first_seeds(world, tmp_path)
    run = logged_crawl(
        "forward",
        server.proxy_url,
        tmp_path,
        # depth 1: translations left for counterpart requests to find
        settings={"BILINGUAL_PATTERN_SCORING": True, "DEPTH_LIMIT": 1},
        arguments={"seeds": seeds},
    )
    stats, items = run["stats"], run["items"]
    assert stats["finish_reason"] == "finished"
    assert stats["patterns/minings"] >= 2  # the counterparts' pages were mined again

    pairs, english, right = judged_pairs(world, items)
    assert len(right) >= 20, (len(pairs), len(english))
    assert len(right) / len(english) >= 0.95, [p for p in english if p not in right][:5]
    for pair in pairs:
        assert pair["source_lang"] != pair["target_lang"] and pair["similarity"] > 0
        assert "content" in pair["verification"]["checks"], pair
    counterparts = {
        r["url"] for r in run["responses"] if r["role"] == "counterpart" and r["status"] == 200
    }
    paired_pages = {url for p in right for url in (p["source_url"], p["target_url"])}
    assert counterparts & paired_pages  # a counterpart request found a pair's page


def test_a_crawl_that_ends_on_its_page_budget_still_yields_the_pairs_mined_on_the_way(
    served_world, tmp_path
):
    world, server = served_world
    seeds = first_seeds(world, tmp_path)
    run = logged_crawl(
        "forward",
        server.proxy_url,
        tmp_path,
        settings={
            "BILINGUAL_PATTERN_SCORING": True,
            "BILINGUAL_PATTERN_SCORING_EVERY": 50,
            "CLOSESPIDER_PAGECOUNT": 500,
        },
        arguments={"seeds": seeds},
    )
    stats, items = run["stats"], run["items"]
    assert stats["finish_reason"] == "closespider_pagecount"  # the frontier never ran dry
    assert stats["patterns/minings"] >= 2
    pairs, english, right = judged_pairs(world, items)
    assert len(right) >= 5, (len(pairs), stats.get("patterns/pages"))
    assert len(right) / len(english) >= 0.8, [p for p in english if p not in right][:5]
