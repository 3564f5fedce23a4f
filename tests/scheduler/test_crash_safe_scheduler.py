"""A JOBDIR crawl killed with ``kill -9`` resumes with the same command: nothing lost, nothing
written twice, the budget kept (issue 32)."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

from scrapy import Request, Spider
from scrapy.utils.test import get_crawler

from bilingual_spider.output.feed_recovery import repair_jsonl, urls_in_jsonl
from bilingual_spider.sandbox.process import crawl_env
from bilingual_spider.scheduler.crash_safe_scheduler import EARLIER_RUN, CrashSafeScheduler
from bilingual_spider.scheduler.sqlite_frontier import (
    FRONTIER_FILE,
    SqliteFrontier,
    resume_problem,
)
from bilingual_spider.state.request_meta import FRONTIER_ID_META, HELD_META, REDELIVERED_META
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


class HoldingSpider(Spider):
    name = "holding"
    settles_in_flight_by_url = False

    def parse(self, response):  # pragma: no cover - never called
        return iter(())


def opened_scheduler(jobdir: Path) -> CrashSafeScheduler:
    crawler = get_crawler(HoldingSpider, {"JOBDIR": str(jobdir)})
    spider = HoldingSpider()
    spider.crawler = crawler
    crawler.spider = spider
    crawler.engine = SimpleNamespace(_slot=None, scraper=None)  # no engine: nothing in progress
    scheduler = CrashSafeScheduler.from_crawler(crawler)
    scheduler.open(spider)
    return scheduler


def test_a_request_held_before_a_kill_is_given_again_marked_redelivered(tmp_path: Path) -> None:
    """The search service holds a query in the frontier before the engine gets it: a kill then
    (committed, never handed over) finds it leased, and the next run gives it again."""
    scheduler = opened_scheduler(tmp_path)
    held = Request("http://api.example/backlinks?q=a", meta={"role": "api"}, dont_filter=True)
    held_id = scheduler.hold(held)
    assert held_id is not None
    assert not scheduler.has_pending_requests()  # not the engine's until handed over
    assert scheduler.frontier is not None
    scheduler.frontier.commit()
    scheduler.frontier.abandon()  # killed: never closed
    again = opened_scheduler(tmp_path)
    request = again.next_request()
    assert request is not None and request.url == held.url
    assert request.meta[REDELIVERED_META] == EARLIER_RUN
    assert again.next_request() is None


def test_a_held_request_handed_over_is_taken_under_its_id_once(tmp_path: Path) -> None:
    scheduler = opened_scheduler(tmp_path)
    held = Request("http://api.example/backlinks?q=b", meta={"role": "api"}, dont_filter=True)
    held.meta[HELD_META] = held_id = scheduler.hold(held)
    assert scheduler.enqueue_request(held)
    request = scheduler.next_request()
    assert request is held and request.meta[FRONTIER_ID_META] == held_id
    assert scheduler.frontier is not None
    assert [request_id for request_id, _ in scheduler.frontier.leased()] == [int(held_id)]
    assert scheduler.next_request() is None  # not queued a second time
