"""A JOBDIR crawl killed with ``kill -9`` resumes with the same command: nothing lost, nothing
written twice, the budget kept (issue 32)."""

from __future__ import annotations

import json
import signal
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from bilingual_spider.output.feed_recovery import repair_jsonl, urls_in_jsonl
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.server import CONTROL_HOST
from bilingual_spider.scheduler.sqlite_frontier import (
    FRONTIER_FILE,
    SqliteFrontier,
    resume_problem,
)
from tests.conftest import REDIS_URL
from tests.waiting import CRAWL_SECONDS, wait_until

PROJECT = Path(__file__).resolve().parents[2]


def test_the_frontier_keeps_what_a_dead_process_had_taken(tmp_path: Path) -> None:
    path = tmp_path / "frontier.sqlite3"
    frontier = SqliteFrontier(path)
    assert frontier.first_seen(b"fa") and frontier.first_seen(b"fb")
    assert not frontier.first_seen(b"fa")  # a duplicate
    frontier.push(b"a", 0)
    frontier.push(b"b", 5)
    frontier.push(b"c", 0)
    first, second = frontier.take(), frontier.take()
    assert first is not None and first[1] == b"b"  # highest priority first
    assert second is not None and second[1] == b"a"  # then first queued
    frontier.ack([first[0]], pages=1)
    frontier.commit()
    frontier.push(b"d", 0)  # not committed
    frontier.db.close()  # the process dies with "a" taken, "d" not committed
    again = SqliteFrontier(path)
    assert again.leased() == [second]
    assert again.queued() == 1 and again.seen() == 2 and again.pages == 1
    again.release([second[0]])
    taken = again.take()
    assert taken == second  # back in its old place, ahead of the later "c"


def test_a_request_rescored_lower_goes_back_behind_the_next_one(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / FRONTIER_FILE)
    frontier.push(b"stale", 9)
    frontier.push(b"next", 5)
    taken = frontier.take()
    assert taken is not None and taken[1] == b"stale" and frontier.next_priority() == 5
    frontier.requeue(taken[0], b"rescored", 3)  # a newer model scored it lower
    assert frontier.take() == (frontier_id(frontier, b"next"), b"next")
    assert frontier.take() == (taken[0], b"rescored")
    assert frontier.next_priority() is None


def frontier_id(frontier: SqliteFrontier, blob: bytes) -> int:
    return frontier.db.execute("SELECT id FROM requests WHERE blob = ?", (blob,)).fetchone()[0]


def test_a_damaged_file_or_another_spider_s_frontier_cannot_be_resumed(tmp_path: Path) -> None:
    assert resume_problem(tmp_path / "none", "backforth") is None
    frontier = SqliteFrontier(tmp_path / "fwd" / FRONTIER_FILE)
    frontier.set("spider", "forward")
    frontier.close()
    assert resume_problem(tmp_path / "fwd", "forward") is None
    assert "of the forward spider, not of backforth" in (
        resume_problem(tmp_path / "fwd", "backforth") or ""
    )
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / FRONTIER_FILE).write_bytes(b"not a database, not at all" * 10)
    assert "cannot be read (file is not a database)" in (
        resume_problem(tmp_path / "bad", "backforth") or ""
    )


def test_a_feed_cut_mid_line_is_repaired(tmp_path: Path) -> None:
    feed = tmp_path / "pages.jsonl"
    feed.write_bytes(b'{"url": "http://a/"}\n{"url": "http://b/"}\n{"url": "http://c/", "st')
    assert repair_jsonl(feed) == len(b'{"url": "http://c/", "st')
    assert list(urls_in_jsonl(feed)) == ["http://a/", "http://b/"]
    assert repair_jsonl(feed) == 0 and repair_jsonl(tmp_path / "missing.jsonl") == 0


def lines(feed: Path) -> int:
    return feed.read_bytes().count(b"\n") if feed.is_file() else 0


def kill_when_written(command: list[str], feed: Path, pages: int) -> None:
    """Run the crawl ``command`` and SIGKILL it once ``feed`` has ``pages`` lines."""
    kill_when(command, lambda: lines(feed) >= pages)


def kill_when(command: list[str], ready: Callable[[], bool]) -> None:
    """Run the crawl ``command`` and SIGKILL it once ``ready()`` is true."""
    crawl = subprocess.Popen(command, cwd=PROJECT, env=crawl_env())
    try:
        wait_until(lambda: ready() or crawl.poll() is not None, CRAWL_SECONDS)
        assert crawl.poll() is None, "the crawl ended before it could be killed"
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(timeout=CRAWL_SECONDS)
    finally:
        if crawl.poll() is None:
            crawl.kill()


def killed_twice_and_resumed(web_config: Path, tmp_path: Path, **settings: object) -> None:
    """A forward crawl of the small web's endless calendar, killed at 30 and at 70 pages written,
    run again each time and left to end at its budget: no page lost, none written twice, valid
    JSON lines, the budget's pages."""
    budget = 120
    access, out = tmp_path / "access.tsv", tmp_path / "out"
    feed = out / "pages.jsonl"
    with SandboxServer(["--config", str(web_config), "--access-log", str(access)]) as web:
        command = spider_command(
            "forward",
            {
                "BILINGUAL_SANDBOX_PROXY": web.proxy_url,
                "CLOSESPIDER_PAGECOUNT": budget,
                "DOWNLOAD_DELAY": 0,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "LOG_LEVEL": "INFO",
                "LOG_FILE": tmp_path / "log.txt",
                **settings,
            },
            {"seeds": "http://mono.example/", "out": out},  # its calendar never ends
        )
        for kill_at in (30, 70):  # pages in the output when it is killed
            kill_when_written(command, feed, kill_at)
        last = subprocess.run(command, cwd=PROJECT, env=crawl_env(), timeout=CRAWL_SECONDS)
        assert last.returncode == 0
        assert web.process is not None
        web.process.send_signal(signal.SIGINT)  # ends cleanly: its access log is flushed
        web.process.wait(timeout=CRAWL_SECONDS)
    records = [json.loads(line) for line in feed.read_bytes().splitlines()]  # all valid JSON
    written = Counter(record["url"] for record in records)
    assert [url for url, times in written.items() if times > 1] == []  # none written twice
    served = set()
    for line in access.read_text().splitlines():
        _, _, host, target, status = line.split("\t")
        if status == "200" and host != CONTROL_HOST and not target.endswith("/robots.txt"):
            served.add(target if target.startswith("http") else f"http://{host}{target}")
    assert served - set(written) == set()  # every page fetched is in the output
    assert len(written) == budget  # the budget over the three runs


def test_a_jobdir_crawl_killed_twice_resumes_without_losing_or_repeating_a_page(
    small_web_config: Path, tmp_path: Path
) -> None:
    killed_twice_and_resumed(small_web_config, tmp_path, JOBDIR=tmp_path / "job")
    log = (tmp_path / "log.txt").read_text()
    assert log.count("resuming a crawl that did not close cleanly") == 2
    assert "closespider_pagecount" in log


def test_a_redis_worker_killed_twice_settles_its_leases_from_its_output(
    small_web_config: Path, tmp_path: Path, redis_prefix: str
) -> None:
    killed_twice_and_resumed(
        small_web_config,
        tmp_path,
        REDIS_URL=REDIS_URL,
        BILINGUAL_REDIS_KEY_PREFIX=redis_prefix,
        BILINGUAL_REDIS_WORKER_NAME="w1",
    )
    log = (tmp_path / "log.txt").read_text()
    assert log.count("worker w1 restarted") == 2
