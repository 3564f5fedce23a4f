"""Two ``scrapy crawl pupsniffer`` workers on the real Redis and the sandbox: they share the
pages, budgets and stages of one crawl (two rounds, deep pages), end by themselves, and emit the
pairs one process finds, each once."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, spider_command
from tests.distributed.start_barrier import with_start_barrier
from tests.distributed.workers import (
    run_to_end,
    slow_world_served,
    worker_settings,
)

LATENCY_MS = 100
"""Every host answers this late: both workers have responses in flight at once."""
ARGUMENTS = {"site_budget": 400, "rounds": 2, "next_sites": 4, "langs": "any"}
"""Budgets that take in whole sites, so that which pages a site gives does not depend on the order
of responses: one process's pairs are then the same from run to run."""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    directory = tmp_path_factory.mktemp("pupsniffer-workers") / "w"
    with slow_world_served(directory, 31, 40, LATENCY_MS) as served:
        yield served


def command(served, out: Path, prefix: str | None) -> list[str]:
    world, server = served
    out.mkdir(parents=True, exist_ok=True)
    seeds = out / "seeds.txt"
    seeds.write_text("\n".join((world / "seed_urls.txt").read_text().split()[:8]) + "\n")
    # pair-first crawling mines the pages each worker fetched itself, so which pages a site's
    # budget buys depends on how the workers shared them: off, to compare with one process
    settings = {**worker_settings(server, out, prefix), "BILINGUAL_PUPSNIFFER_PAIR_FIRST": False}
    return spider_command(
        "pupsniffer",
        settings,
        {"seeds": seeds, **ARGUMENTS},
        out / "items.jsonl",
    )


def emitted(out: Path) -> tuple[Counter[frozenset[str]], Counter[str]]:
    """The pairs and the bilingual sites a worker emitted, with how often."""
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    pairs = Counter(
        frozenset((i["source_url"], i["target_url"])) for i in items if "source_url" in i
    )
    sites = Counter(i["site"] for i in items if i["type"] == "bilingual_site")
    return pairs, sites


def test_two_workers_emit_one_processs_pairs_each_once(served, redis_prefix, tmp_path) -> None:
    one = tmp_path / "one"
    assert run_to_end([command(served, one, None)]) == [0]
    one_pairs, one_sites = emitted(one)
    one_stats = json.loads((one / "stats.json").read_text())
    assert one_stats.get("pupsniffer/round") == 2  # two rounds
    assert one_stats.get("downloader/request_method_count/HEAD")  # deep pages checked

    # Which worker leases which hosts first depends on the machine's load: a busy moment can let
    # one worker lease every host before the other takes. Such a run proves nothing about two
    # workers emitting, so the crawl is run again (a new crawl under a new prefix), up to 3 times.
    for attempt in range(3):
        outs = [tmp_path / f"try{attempt}" / f"worker{n}" for n in range(2)]
        prefix = f"{redis_prefix}:try{attempt}"
        commands = [command(served, out, prefix) for out in outs]
        assert run_to_end(with_start_barrier(commands, f"{prefix}:test:start")) == [0, 0]
        stats = [json.loads((out / "stats.json").read_text()) for out in outs]
        assert all(s["finish_reason"] == "finished" for s in stats)
        if all(s.get("pupsniffer/pages", 0) >= 10 for s in stats):
            break
    assert all(s.get("pupsniffer/pages", 0) >= 10 for s in stats), "one worker did all the work"
    pairs: Counter[frozenset[str]] = Counter()
    sites: Counter[str] = Counter()
    for out in outs:
        worker_pairs, worker_sites = emitted(out)
        pairs += worker_pairs
        sites += worker_sites
    assert max(pairs.values()) == 1 and max(sites.values()) == 1, "emitted twice"
    assert set(pairs) == set(one_pairs)
    assert set(sites) == set(one_sites)
    fetched: Counter[tuple[str, str]] = Counter()
    for out in outs:
        for line in (out / "responses.jsonl").read_text().splitlines():
            response = json.loads(line)
            if response["role"] in ("page", "deep"):
                fetched[(response["method"], response["url"])] += 1
    refetched = sum(s.get("scheduler/leases/refetched", 0) for s in stats)
    assert sum(fetched.values()) - len(fetched) <= refetched, fetched.most_common(3)
