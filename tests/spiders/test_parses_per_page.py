"""One page, one parse (issue 34): in a back-and-forth crawl and a PupSniffer crawl of a
generated world, every HTML page the spider reads is parsed by lxml exactly once, whoever reads
it (language identification, link contexts, alternates, the pair verifier, the WARC writer)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl_settings
from tests.waiting import CRAWL_SECONDS


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("parses") / "w", 41, 40) as served:
        yield served


def counted_crawl(
    served: tuple[Path, SandboxServer], out: Path, spider: str, **arguments: object
) -> dict:
    """``scrapy crawl SPIDER`` with the WARC writer on and every lxml HTML parse counted."""
    world, server = served
    settings = logged_crawl_settings(server.proxy_url, out / "responses.jsonl", out / "s.json")
    settings["EXTENSIONS"] = {**settings["EXTENSIONS"], "tests.spiders.parse_count.ParseCount": 0}
    settings["PARSE_COUNT_PATH"] = out / "parses.json"
    settings["BILINGUAL_WARC_PATH"] = out / "warc"
    result = run_spider(
        spider,
        settings=settings,
        arguments={"seeds": world / "seed_urls.txt", **arguments},
        output=out / "items.jsonl",
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads((out / "parses.json").read_text())


def assert_one_parse_per_html_page(counted: dict, least: int) -> None:
    """Every HTML page is parsed once, but a page fetched again whose first copy was parsed
    (a detector's probe of a page the crawl meets again): nothing may need it a second time (the
    WARC holds each URL once, issue 52), so it is parsed once at most."""
    pages = [r for r in counted["responses"] if r["html"] and r["status"] == 200]
    assert len(pages) >= least
    first: dict[str, dict] = {}
    again = []
    for response in pages:
        (again if response["url"] in first else []).append(response)
        first.setdefault(response["url"], response)
    assert Counter(r["parses"] for r in first.values()) == {1: len(first)}, [
        r for r in first.values() if r["parses"] != 1
    ]
    assert all(r["parses"] <= 1 for r in again), again
    assert all(r["parses"] == 0 for r in counted["responses"] if not r["html"])
    assert counted["unattributed"] == 0


def test_a_back_and_forth_crawl_parses_each_page_once(served, tmp_path):
    counted = counted_crawl(served, tmp_path, "backforth", langs="any", strategy="cobfc")
    assert_one_parse_per_html_page(counted, least=30)


def test_a_pupsniffer_crawl_with_the_verifier_parses_each_page_once(served, tmp_path):
    counted = counted_crawl(served, tmp_path, "pupsniffer", site_budget=20, rounds=1)
    assert_one_parse_per_html_page(counted, least=30)
