"""A PupSniffer crawl of the translated-slug sites (or a copy of them), with its pairs judged
by the sites' gold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.process import crawl_in_sandbox
from bilingual_spider.sandbox.slug_sites import SlugSites
from tests.waiting import CRAWL_SECONDS


def crawl_slug_pairs(sites: SlugSites, work: Path) -> tuple[list[dict[str, Any]], list[Any]]:
    """The pairs an en-fr PupSniffer crawl (pair first, 150 pages a site) emits, and those of
    them that are gold pairs: the sites' gold, and the pages of a paginated list whose first
    pages are a gold pair (Hugo's ``/blog/page/2/`` and ``/blogue/page/2/``: the same posts
    in each language; the gold lists each section's first page only)."""
    seeds = work / "seeds.txt"
    seeds.write_text("\n".join(sites.seed_urls()) + "\n")
    items = work / "items.jsonl"
    crawl_in_sandbox(
        ["--config", str(sites.config)],
        "pupsniffer",
        settings={
            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
            "ROBOTSTXT_OBEY": False,
            "BILINGUAL_PUPSNIFFER_PAIR_FIRST": True,
        },
        arguments={"seeds": seeds, "langs": "en,fr", "site_budget": 150},
        output=items,
        timeout=CRAWL_SECONDS,
    )
    found = [json.loads(line) for line in items.read_text().splitlines() if line.strip()]
    pairs = [i for i in found if "source_url" in i]
    gold = {frozenset(pair) for pair in sites.gold_pairs()}
    served = sites.page_files()
    gold |= {
        frozenset((f"{a}page/{n}/", f"{b}page/{n}/"))
        for a, b in sites.gold_pairs()
        for n in range(2, 100)
        if f"{a}page/{n}/" in served and f"{b}page/{n}/" in served
    }
    right = [p for p in pairs if frozenset((p["source_url"], p["target_url"])) in gold]
    return pairs, right
