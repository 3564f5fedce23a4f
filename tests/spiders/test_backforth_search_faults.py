"""Back-and-forth crawls whose backlink API (the sandbox's Moz fake, in fault mode) hangs: the
crawl goes on with what it can fetch without backlinks, ends by itself once the API has been down
for BILINGUAL_SEARCH_GIVE_UP_AFTER, and a Ctrl-C does not wait for the hanging calls."""

from __future__ import annotations

import json
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, run_spider, spider_command
from bilingual_spider.sandbox.search_api import API_HOST
from bilingual_spider.sandbox.webgraph_write import load_ground_truth
from tests.conftest import generated_world_served
from tests.spiders.response_log import logged_crawl_settings
from tests.waiting import CRAWL_SECONDS, PATIENCE_SECONDS, wait_until


@pytest.fixture(scope="module")
def served_world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SandboxServer]]:
    with generated_world_served(tmp_path_factory.mktemp("faults") / "w", 23, 200) as served:
        yield served


@pytest.fixture
def hanging_moz(served_world: tuple[Path, SandboxServer]) -> Iterator[tuple[Path, SandboxServer]]:
    world, server = served_world
    server.set_api_fault("hang", families=["moz"])
    yield world, server
    server.set_api_fault("")


def crawl(world: Path, server: SandboxServer, tmp_path: Path, **settings: object) -> dict:
    """An OBFC crawl of the world (backlinks from Moz) with these settings: what it fetched,
    its stats, its items."""
    responses, stats, items = (tmp_path / "r.jsonl", tmp_path / "s.json", tmp_path / "o.jsonl")
    result = run_spider(
        "backforth",
        settings={
            **logged_crawl_settings(server.proxy_url, responses, stats),
            "BILINGUAL_SEARCH_BACKLINKS": "moz",
            **settings,
        },
        arguments={"seeds": world / "seed_urls.txt", "langs": "any", "strategy": "obfc"},
        output=items,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return {
        "responses": [json.loads(line) for line in responses.read_text().splitlines()],
        "stats": json.loads(stats.read_text()),
        "items": [json.loads(line) for line in items.read_text().splitlines()],
    }


def test_backlinks_hang_the_crawl_goes_on_and_ends_by_itself(hanging_moz, tmp_path: Path):
    world, server = hanging_moz
    run = crawl(
        world,
        server,
        tmp_path,
        BILINGUAL_SEARCH_TIMEOUT=1,
        BILINGUAL_SEARCH_BREAKER_PAUSE=1,
        BILINGUAL_SEARCH_GIVE_UP_AFTER=4,
    )
    stats = run["stats"]
    assert stats["finish_reason"] == "finished"  # not held by the queries that never came
    assert stats["search/moz/down"] >= 1 and stats["search/moz/unanswered"] >= 1
    assert stats["backlinks/queries_failed"] == stats["backlinks/queries"]
    assert stats["backforth/backlinks_unavailable"].startswith("moz down for")  # its progress
    fetched = {r["role"] for r in run["responses"] if r["status"] == 200}
    assert {"seed", "probe"} <= fetched and "backlink" not in fetched  # what it could fetch
    truth = load_ground_truth(world)
    bilingual = {h for s in truth["sites"] if s["bilingual"] for h in s["hosts"].values()}
    reported = [i["site"] for i in run["items"] if "found_by" in i]
    assert reported and stats["backlinks/queries"] == len(reported)
    hosts = {site.split("//")[-1].split("/")[0] for site in reported}
    assert len(hosts & bilingual) >= 0.8 * len(hosts)


def test_ctrl_c_does_not_wait_for_a_hanging_backlink_api(hanging_moz, tmp_path: Path):
    """The hanging calls would time out in 600 s: the crawl, told to stop, must end well before
    (within the patience of a test, 60 s), its calls cancelled."""
    world, server = hanging_moz
    stats_file = tmp_path / "stats.json"
    settings = {
        "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
        "DOWNLOAD_DELAY": 0,
        "BILINGUAL_STATS_FILE": stats_file,
        "BILINGUAL_SEARCH_BACKLINKS": "moz",
        "BILINGUAL_SEARCH_TIMEOUT": 600,
        "DOWNLOAD_TIMEOUT": 600,
        "BILINGUAL_SEARCH_GIVE_UP_AFTER": 600,
    }
    before = server.stats()["requests"].get(API_HOST, 0)
    arguments = {"seeds": world / "seed_urls.txt", "langs": "any", "strategy": "obfc"}
    log_path = tmp_path / "crawl.log"  # a file: a pipe read only at the end fills and blocks
    log_file = log_path.open("w")
    process = subprocess.Popen(
        spider_command("backforth", settings, arguments, tmp_path / "o.jsonl"),
        env=crawl_env(),
        stdout=subprocess.DEVNULL,
        stderr=log_file,
    )
    try:

        def backlink_call_out() -> bool:
            return server.stats()["requests"].get(API_HOST, 0) > before

        wait_until(backlink_call_out)
        process.send_signal(signal.SIGINT)
        process.wait(timeout=PATIENCE_SECONDS)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        log_file.close()
    log = log_path.read_text()
    assert process.returncode == 0, log[-3000:]
    stats = json.loads(stats_file.read_text())
    assert stats["finish_reason"] == "shutdown"
    assert stats["search/moz/cancelled"] >= 1  # the hanging calls, cancelled
    assert "search/moz/unfinished" in stats
