"""A JOBDIR crawl killed with ``kill -9`` resumes with the same command: nothing lost, nothing
written twice, the budget kept (issue 32)."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request, Spider
from scrapy.utils.test import get_crawler

from bilingual_spider.distributed.frontier import Requeue
from bilingual_spider.output.feed_recovery import repair_jsonl, urls_in_jsonl
from bilingual_spider.sandbox.process import crawl_env
from bilingual_spider.scheduler.leased_scheduler import LeasedScheduler
from bilingual_spider.scheduler.sqlite_frontier import (
    EARLIER_RUN,
    FRONTIER_FILE,
    SqliteFrontier,
    resume_problem,
)
from bilingual_spider.state.request_meta import FRONTIER_ID_META, HELD_META, REDELIVERED_META
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler as project_crawler
from tests.waiting import CRAWL_SECONDS, wait_until

PROJECT = Path(__file__).resolve().parents[2]


def test_the_frontier_keeps_what_a_dead_process_had_taken(tmp_path: Path) -> None:
    path = tmp_path / "frontier.sqlite3"
    frontier = SqliteFrontier(path)
    assert frontier.push(b"a", 0, b"fa") is not None
    assert frontier.push(b"a again", 0, b"fa") is None  # a duplicate
    frontier.push(b"b", 5, b"fb")
    frontier.push(b"c", 0)
    first, _ = frontier.take()
    second, _ = frontier.take()
    assert first is not None and first.blob == b"b"  # highest priority first
    assert second is not None and second.blob == b"a"  # then first queued
    assert second.next_priority == 0 and second.redelivered_from is None
    frontier.ack([first.id], pages=1)
    frontier.commit()
    frontier.push(b"d", 0)  # not committed
    frontier.db.close()  # the process dies with "a" taken, "d" not committed
    again = SqliteFrontier(path)
    assert again.leased_by(again.worker) == [(second.id, b"a")]
    assert again.status().queued == 1 and again.seen(b"fb") and again.pages == 1
    assert again.release([second.id], redelivered=True) == 1
    taken, _ = again.take()
    assert taken is not None and (taken.id, taken.blob) == (second.id, b"a")  # its old place
    assert taken.redelivered_from == EARLIER_RUN  # its run may have done part of its work
    later, _ = again.take()
    assert later is not None and later.redelivered_from is None


def test_a_request_rescored_lower_goes_back_behind_the_next_one(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / FRONTIER_FILE)
    frontier.push(b"stale", 9)
    frontier.push(b"next", 5)
    taken, _ = frontier.take()
    assert taken is not None and taken.blob == b"stale" and taken.next_priority == 5
    # a newer model scored it lower: back with the next take
    head, acks = frontier.take(requeue=Requeue(taken.id, b"rescored", 3))
    assert head is not None and head.blob == b"next" and head.next_priority == 3
    last, _ = frontier.take()
    assert last is not None and (last.id, last.blob) == (taken.id, b"rescored")
    assert last.next_priority is None


def test_the_ack_that_counts_the_last_page_of_the_budget_ends_the_crawl(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / FRONTIER_FILE)
    for blob in (b"a", b"b", b"c"):
        frontier.push(blob, 0)
    first, _ = frontier.take()
    second, _ = frontier.take()
    assert first is not None and second is not None
    assert frontier.budget_committed() == 2  # two leased, none counted yet
    frontier.ack([first.id], pages=1, budget=2)
    assert frontier.status().ended is None
    taken, acks = frontier.take([second.id], pages=1, budget=2)
    assert taken is None and acks.acked == 1  # the budget is spent: "c" is never taken
    assert frontier.status().ended == "budget" and frontier.status().finished
    frontier.close()
    assert SqliteFrontier(tmp_path / FRONTIER_FILE).status().ended == "budget"  # every run


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


def opened_scheduler(jobdir: Path) -> LeasedScheduler:
    crawler = get_crawler(HoldingSpider, {"JOBDIR": str(jobdir)})
    spider = HoldingSpider()
    spider.crawler = crawler
    crawler.spider = spider
    crawler.engine = SimpleNamespace(_slot=None, scraper=None)  # no engine: nothing in progress
    scheduler = LeasedScheduler.from_crawler(crawler)
    scheduler.open(spider)
    return scheduler


def test_a_request_held_before_a_kill_is_given_again_marked_redelivered(tmp_path: Path) -> None:
    """The search service holds a query in the frontier before the engine gets it: a kill then
    (committed, never handed over) finds it leased, and the next run gives it again."""
    scheduler = opened_scheduler(tmp_path)
    held = Request("http://api.example/backlinks?q=a", meta={"role": "api"}, dont_filter=True)
    held_id = scheduler.hold(held)
    assert held_id is not None
    assert scheduler.next_request() is None  # not the engine's until handed over
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
    assert [request_id for request_id, _ in scheduler.frontier.leased_by("")] == [held_id]
    assert scheduler.next_request() is None  # not queued a second time


class CountingSpider(HoldingSpider):
    name = "counting"
    carried_stats = ("counting/",)


def scheduler_on(
    store: str, where: Path, prefix: str | None, in_progress: set[Request]
) -> LeasedScheduler:
    """A scheduler over the ``store`` frontier (``jobdir``: in ``where``; ``redis``: under
    ``prefix``, worker ``w1``), opened without an engine (``in_progress``: its requests in
    progress)."""
    if store == "jobdir":
        settings: dict[str, object] = {"JOBDIR": str(where)}
    else:
        settings = {
            "REDIS_URL": REDIS_URL,
            "BILINGUAL_REDIS_KEY_PREFIX": prefix,
            "BILINGUAL_REDIS_WORKER_NAME": "w1",
        }
    crawler = project_crawler(CountingSpider, settings)
    spider = CountingSpider()
    spider.crawler = crawler
    crawler.spider = spider
    slot = SimpleNamespace(inprogress=in_progress, nextcall=SimpleNamespace(schedule=print))
    crawler.engine = SimpleNamespace(_slot=slot, scraper=None)
    crawler.stats.open_spider()
    scheduler = LeasedScheduler.from_crawler(crawler)
    scheduler.open(spider)
    scheduler.spider_opened()
    return scheduler


@pytest.mark.parametrize("store", ["jobdir", "redis"])
def test_a_restart_carries_on_the_spider_s_counters_and_its_requests(
    tmp_path: Path, store: str, request: pytest.FixtureRequest
) -> None:
    """One scheduler, one rule: killed with a request taken and another queued, the crawl
    started again (``JOBDIR``, or the Redis worker under its name) gets the taken one back
    marked redelivered, then the queued one, and carries on its ``carried_stats``."""
    prefix = request.getfixturevalue("redis_prefix") if store == "redis" else None
    in_progress: set[Request] = set()
    first = scheduler_on(store, tmp_path, prefix, in_progress)
    for path in ("a", "b"):
        assert first.enqueue_request(Request(f"http://site.example/{path}"))
    assert not first.enqueue_request(Request("http://site.example/a"))  # a duplicate
    taken = first.next_request()
    assert taken is not None and taken.url == "http://site.example/a"
    in_progress.add(taken)  # the engine works on it
    first.crawler.stats.set_value("counting/pages", 7)
    first.crawler.stats.set_value("other/pages", 3)
    first.commit()
    first._renew()  # what a live worker does every third of a lease
    assert first.frontier is not None
    first.frontier.abandon() if store == "jobdir" else first.wake.cancel()
    if first._renewal is not None and first._renewal.running:
        first._renewal.stop()  # killed: never closed
    again = scheduler_on(store, tmp_path, prefix, set())
    try:
        stats = again.crawler.stats
        assert stats.get_value("counting/pages") == 7 and stats.get_value("other/pages") is None
        assert stats.get_value("scheduler/leases/resumed_requeued") == 1
        redelivered = again.next_request()
        assert redelivered is not None and redelivered.url == "http://site.example/a"
        assert redelivered.meta[REDELIVERED_META] in (EARLIER_RUN, "w1")
        queued = again.next_request()
        assert queued is not None and queued.url == "http://site.example/b"
        assert REDELIVERED_META not in queued.meta
    finally:
        again.close("finished")
