"""A JOBDIR crawl killed with ``kill -9`` resumes with the same command: nothing lost, nothing
written twice, the budget kept (issue 32)."""

from __future__ import annotations

import json
import signal
import subprocess
from collections import Counter
from pathlib import Path

from bilingual_spider.output.feed_recovery import repair_jsonl, urls_in_jsonl
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.server import CONTROL_HOST
from bilingual_spider.scheduler.sqlite_frontier import SqliteFrontier
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
    crawl = subprocess.Popen(command, cwd=PROJECT, env=crawl_env())
    try:
        wait_until(lambda: lines(feed) >= pages or crawl.poll() is not None, CRAWL_SECONDS)
        assert crawl.poll() is None, "the crawl ended before it could be killed"
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(timeout=CRAWL_SECONDS)
    finally:
        if crawl.poll() is None:
            crawl.kill()


def test_a_crawl_killed_twice_resumes_without_losing_or_repeating_a_page(
    small_web_config: Path, tmp_path: Path
) -> None:
    budget = 120
    access, jobdir, out = tmp_path / "access.tsv", tmp_path / "job", tmp_path / "out"
    feed = out / "pages.jsonl"
    with SandboxServer(["--config", str(small_web_config), "--access-log", str(access)]) as web:
        command = spider_command(
            "forward",
            {
                "BILINGUAL_SANDBOX_PROXY": web.proxy_url,
                "JOBDIR": jobdir,
                "CLOSESPIDER_PAGECOUNT": budget,
                "DOWNLOAD_DELAY": 0,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "LOG_LEVEL": "INFO",
                "LOG_FILE": tmp_path / "log.txt",
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
    log = (tmp_path / "log.txt").read_text()
    assert log.count("resuming a crawl that did not close cleanly") == 2
    assert "closespider_pagecount" in log
