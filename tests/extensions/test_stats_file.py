"""The stats file: rewritten atomically while the crawl runs, final at its end."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from unittest import mock

import pytest
from scrapy import signals

from bilingual_spider.extensions.stats_file import StatsFile
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.slug_sites import prepare
from tests.crawlers import get_crawler
from tests.waiting import CRAWL_SECONDS


def test_written_atomically_with_no_finish_reason_until_the_end(tmp_path: Path) -> None:
    path = tmp_path / "out" / "stats.json"
    settings = {"BILINGUAL_STATS_FILE": str(path), "BILINGUAL_STATS_FILE_INTERVAL": None}
    crawler = get_crawler(settings_dict=settings)
    extension = StatsFile.from_crawler(crawler)
    assert extension.interval == 30.0  # the progress line's interval
    crawler.stats.set_value("pupsniffer/pages", 3)
    extension.write(None)
    running = json.loads(path.read_text())
    assert running["finish_reason"] is None and running["pupsniffer/pages"] == 3
    with path.open(encoding="utf-8") as reader:  # a reader that opened the file before a write
        crawler.stats.set_value("pupsniffer/pages", 4)
        inode = path.stat().st_ino
        extension.write(None)
        assert path.stat().st_ino != inode  # a new file took the old one's name ...
        assert json.loads(reader.read())["pupsniffer/pages"] == 3  # ... whose reader reads it whole
    # a write that fails before its file takes the name leaves the last whole file, no temporary
    with mock.patch("os.replace", side_effect=OSError("disk full")), pytest.raises(OSError):
        extension.write("finished")
    assert json.loads(path.read_text())["pupsniffer/pages"] == 4
    extension.spider_closed(None, "finished")
    assert json.loads(path.read_text())["finish_reason"] == "finished"
    assert path.stat().st_mode & 0o044  # readable by others, as a file written in place is
    # no temporary left; each snapshot also in the history
    assert sorted(p.name for p in path.parent.iterdir()) == ["stats.history.jsonl", "stats.json"]
    history = [json.loads(line) for line in (path.parent / "stats.history.jsonl").open()]
    assert [h["finish_reason"] for h in history] == [None, None, "finished", "finished"]


@pytest.mark.parametrize(
    ("settings", "kept"),
    [({}, False), ({"JOBDIR": "job"}, True), ({"REDIS_URL": "redis://127.0.0.1:1/0"}, True)],
)
def test_a_new_crawl_starts_a_new_history_a_resumable_one_carries_on(
    tmp_path: Path, settings: dict, kept: bool
) -> None:
    path = tmp_path / "stats.json"
    history = tmp_path / "stats.history.jsonl"
    history.write_text('{"finish_reason": "shutdown"}\n')  # the run before, into the same place
    crawler = get_crawler(settings_dict={"BILINGUAL_STATS_FILE": str(path), **settings})
    extension = StatsFile.from_crawler(crawler)
    extension.spider_opened(None)
    extension.spider_closed(None, "finished")
    reasons = [json.loads(line)["finish_reason"] for line in history.open()]
    assert reasons == (["shutdown", "finished"] if kept else ["finished"])


def test_a_running_crawl_shows_its_figures_in_the_stats_file(tmp_path: Path) -> None:
    sites = prepare(tmp_path / "cache")
    config = tmp_path / "slow.toml"
    config.write_text(sites.config.read_text() + '\n[hosts."*"]\nlatency_ms = 40\n')
    stats, seeds = tmp_path / "stats.json", tmp_path / "seeds.txt"
    seeds.write_text("\n".join(sites.seed_urls()) + "\n")
    seen: list[dict] = []
    with SandboxServer(["--config", str(config)]) as server:
        command = spider_command(
            "pupsniffer",
            settings={
                "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
                "BILINGUAL_STATS_FILE": str(stats),
                "BILINGUAL_STATS_FILE_INTERVAL": 0.3,
                "DOWNLOAD_DELAY": 0,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
                "ROBOTSTXT_OBEY": False,
            },
            arguments={"seeds": seeds, "site_budget": 40},
        )
        log = tmp_path / "crawl.log"  # a file: a pipe read only at the end fills and blocks
        with log.open("w") as log_file:
            crawl = subprocess.Popen(
                command, env=crawl_env(), stdout=subprocess.DEVNULL, stderr=log_file
            )
        deadline = time.monotonic() + CRAWL_SECONDS
        while crawl.poll() is None and time.monotonic() < deadline:
            if stats.exists():
                seen.append(json.loads(stats.read_text()))  # whole at every read
            time.sleep(0.1)
        crawl.wait(timeout=CRAWL_SECONDS)
    assert crawl.returncode == 0, log.read_text()[-2000:]
    running = [s for s in seen if s["finish_reason"] is None]
    assert running and max(s.get("pupsniffer/pages", 0) for s in running) > 0
    final = json.loads(stats.read_text())
    assert final["finish_reason"] == "finished"
    assert final["pupsniffer/pages"] >= max(s.get("pupsniffer/pages", 0) for s in running)


def test_a_snapshot_after_every_so_many_responses_however_fast_they_came(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    settings = {"BILINGUAL_STATS_FILE": str(path), "BILINGUAL_STATS_FILE_INTERVAL": 0,
                "BILINGUAL_STATS_FILE_EVERY_RESPONSES": 3}  # fmt: skip
    crawler = get_crawler(settings_dict=settings)
    extension = StatsFile.from_crawler(crawler)  # held: signals hold their receivers weakly
    for number in range(1, 8):
        crawler.stats.set_value("pupsniffer/pages", number)
        crawler.signals.send_catch_log(signals.response_received, response=None, request=None,
                                       spider=None)  # fmt: skip
    history = [json.loads(line) for line in (tmp_path / "stats.history.jsonl").open()]
    assert [h["pupsniffer/pages"] for h in history] == [3, 6]
    assert {h["finish_reason"] for h in history} == {None} and extension.every_responses == 3
