"""PupSniffer crawls the generated sites whose URLs mark languages in issue 31's shapes (one side
only, initials glued to a number, initials in a directory, numbers for languages) and pairs
their pages right; a number's language comes from the pages' (``Lang=1`` is English)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bilingual_spider.patterns.units import site_of
from tests.conftest import generated_world_served
from tests.spiders.test_pupsniffer_crawl import sniff

SEED, SITES = 33, 300
"""A small world with a site of every shape (webgraph.MARKER_SHAPES)."""
EXPECTED_PATTERNS = {
    "one_sided": {"<,f>", "<,de>", "<,es>", "<,zh-tw>"},
    "glued_initial": {"<~e,~f>"},
    "initial_directory": {"<docs-e,docs-f>"},
    "numeric": {"<Lang=1,Lang=2>"},
    "numeric_one_sided": {"<,lang=2>"},
}


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    directory = tmp_path_factory.mktemp("shapes") / "w"
    with generated_world_served(directory, SEED, SITES) as served:
        truth = json.loads((directory / "ground_truth.json").read_text())
        truth_sites = [site for site in truth["sites"] if site.get("marker_shape")]
        seeds = [site["root_url"] for site in truth_sites]
        run = sniff(served, tmp_path_factory.mktemp("crawl"), seeds, site_budget=100)
        run["shaped"] = {site_of(site["root_url"]): site["marker_shape"] for site in truth_sites}
        yield run


def test_the_world_has_every_shape(crawled: dict) -> None:
    assert set(crawled["shaped"].values()) == set(EXPECTED_PATTERNS)


def test_every_shape_is_paired_right_by_its_pattern(crawled: dict) -> None:
    pairs = [item for item in crawled["items"] if "source_url" in item]
    fetched = {r["url"] for r in crawled["responses"] if r.get("status") == 200}
    for site, shape in crawled["shaped"].items():
        found = [  # the gold pairs each page with its English version only
            p
            for p in pairs
            if site_of(p["source_url"]) == site and "en" in (p["source_lang"], p["target_lang"])
        ]
        right = [
            p for p in found if frozenset((p["source_url"], p["target_url"])) in crawled["gold"]
        ]
        assert found and len(right) == len(found), (shape, [p for p in found if p not in right])
        assert {p["pattern"] for p in right} <= EXPECTED_PATTERNS[shape] | {"<en,fr>"}, shape
        gold_fetched = [
            pair
            for pair in crawled["gold"]
            if site_of(next(iter(pair))) == site and pair <= fetched
        ]
        reported = {frozenset((p["source_url"], p["target_url"])) for p in right}
        assert len(reported & set(gold_fetched)) >= 0.9 * len(gold_fetched), shape


def test_a_numbers_language_is_its_pages(crawled: dict) -> None:
    """``Lang=1`` and ``&lang=2`` name no language; the pairs' languages are the pages'."""
    numeric = [i for i in crawled["items"] if "source_url" in i and "ang=" in i["pattern"]]
    assert len(numeric) >= 5
    for item in numeric:
        by_url = {item["source_url"]: item["source_lang"], item["target_url"]: item["target_lang"]}
        for url, language in by_url.items():
            marked = "Lang=1" not in url and ("lang=" in url or "Lang=" in url)
            assert (language != "en") is marked, (url, language)
