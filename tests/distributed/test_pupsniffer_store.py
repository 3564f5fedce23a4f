"""The state of a PupSniffer crawl, in memory, in a JOBDIR's SQLite file and in the real Redis:
the same answers from the three stores, one answer per key across workers, and one worker at a
time moving the crawl on."""

from __future__ import annotations

import pytest

from bilingual_spider.distributed.pupsniffer_store import RedisRoundStore
from bilingual_spider.patterns.crawl_round import PageRecord, pair_round
from bilingual_spider.patterns.resemblance import fingerprint
from bilingual_spider.patterns.round_state import (
    CHECKED,
    EMITTED,
    SEEN,
    InMemoryRoundStore,
    Stage,
    StageState,
)
from bilingual_spider.scheduler.sqlite_frontier import SqliteFrontier
from bilingual_spider.state.sqlite import SqliteSet, SqliteTable
from tests.waiting import wait_until


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request, redis_prefix, tmp_path):
    if request.param == "memory":
        return InMemoryRoundStore()
    if request.param == "sqlite":  # a JOBDIR crawl's: in the frontier's file
        frontier = SqliteFrontier(tmp_path / "frontier.sqlite3")
        request.addfinalizer(frontier.close)
        return sqlite_round_store(frontier)
    return RedisRoundStore(request.getfixturevalue("redis"), f"{redis_prefix}:pupsniffer")


def sqlite_round_store(frontier: SqliteFrontier) -> InMemoryRoundStore:
    """The memory store's class over collections in the frontier's file, as
    :attr:`~bilingual_spider.state.CrawlState.rounds` builds it with ``JOBDIR``."""
    return InMemoryRoundStore(
        lambda name: SqliteTable(lambda: frontier, f"rounds_{name}"),
        lambda name: SqliteSet(lambda: frontier, f"rounds_{name}"),
    )


def page(url: str, language: str, text: str, links: tuple[str, ...] = ()) -> PageRecord:
    return PageRecord.of(url, language, text, links)


def test_a_sites_budget_counts_each_url_once(store) -> None:
    urls = [f"http://a.com/{n}.html" for n in range(5)]
    assert store.reserve_pages("a.com", urls[:2], 3) == urls[:2]
    assert store.reserve_pages("a.com", [urls[1], urls[2], urls[3], urls[2]], 3) == [urls[2]]
    assert store.reserve_pages("a.com", urls, 3) == []
    assert store.reserve_pages("b.com", urls[3:], 3) == urls[3:]
    assert store.reserve_pages("c.com", ["http://c.com/"], 0) == []


def test_a_key_is_new_once_and_kinds_are_apart(store) -> None:
    assert store.mark_new(CHECKED, ["x", "y", "x"]) == ["x", "y"]
    assert store.mark_new(CHECKED, ["y", "z"]) == ["z"]
    assert store.mark_new(EMITTED, ["x"]) == ["x"]
    assert store.mark_new(EMITTED, []) == []
    assert store.marked(CHECKED) == {"x", "y", "z"}
    assert store.marked(CHECKED, ["x", "q", "z"]) == {"x", "z"}
    assert store.marked(EMITTED, []) == set()


def test_pages_come_back_in_the_order_first_kept_with_their_external_sites(store) -> None:
    store.add_page(page("http://a.com/en/1.html", "en", "one"), ["http://b.com/x"])
    store.add_page(page("http://a.com/fr/1.html", "fr", "un"))
    store.add_page(page("http://c.com/", "de", "eins"), ["http://a.com/", "http://d.com/"])
    crawled = store.crawled()
    assert list(crawled.pages) == [
        "http://a.com/en/1.html",
        "http://a.com/fr/1.html",
        "http://c.com/",
    ]
    assert crawled.site_pages["a.com"] == ["http://a.com/en/1.html", "http://a.com/fr/1.html"]
    assert crawled.external == {
        "a.com": {"b.com": "http://b.com/x"},
        "c.com": {"a.com": "http://a.com/", "d.com": "http://d.com/"},
    }
    assert store.page("http://a.com/fr/1.html").text == "un"
    assert store.page("http://a.com/de/1.html") is None
    assert store.reserve_pages("a.com", ["http://a.com/en/1.html"], 10) == []  # fetched: seen
    assert store.mark_new(SEEN, ["http://c.com/"]) == []


def test_sites_found_by_and_not_found_pages(store) -> None:
    assert store.first_sight("a.com", "seed")
    assert not store.first_sight("a.com", "round 2")
    assert store.found_by("a.com") == "seed" and store.found_by("b.com") == ""
    assert store.not_found("a.com") is None
    store.set_not_found("a.com", fingerprint("Page not found, sorry"))
    assert store.not_found("a.com") == fingerprint("Page not found, sorry")


def test_the_stage_moves_only_under_the_transition_and_round_pairs_are_kept(store) -> None:
    assert store.stage() == StageState(1, Stage.CRAWL)
    assert store.begin_transition()
    pairs = pair_round(store.crawled())
    store.keep_round_pairs(1, pairs)
    assert store.publish(StageState(1, Stage.DEEP))
    store.end_transition()
    assert store.stage() == StageState(1, Stage.DEEP)
    assert store.round_pairs(1) == pairs and store.round_pairs(2) is None


def test_one_worker_at_a_time_moves_the_crawl_on(redis, redis_prefix) -> None:
    base = f"{redis_prefix}:pupsniffer"
    first, second = RedisRoundStore(redis, base), RedisRoundStore(redis, base)
    assert first.begin_transition()
    assert not second.begin_transition()
    assert not second.publish(StageState(1, Stage.DONE))  # never took it
    second.end_transition()  # not its lock: nothing released
    assert not second.begin_transition()
    assert first.publish(StageState(1, Stage.DEEP))
    first.end_transition()
    assert second.begin_transition()
    assert second.stage() == StageState(1, Stage.DEEP)


def test_a_dead_holders_lock_expires_and_its_late_move_is_lost(redis, redis_prefix) -> None:
    base = f"{redis_prefix}:pupsniffer"
    dead = RedisRoundStore(redis, base, lock_seconds=1.0)
    alive = RedisRoundStore(redis, base, lock_seconds=1.0)
    assert dead.begin_transition()
    assert not alive.begin_transition()
    wait_until(alive.begin_transition)  # the dead holder's lock expired
    assert not dead.publish(StageState(2, Stage.CRAWL))  # its lock expired: no effect
    assert alive.publish(StageState(1, Stage.DEEP))
    dead.end_transition()  # does not release the lock of another
    assert not RedisRoundStore(redis, base).begin_transition()
    assert alive.stage() == StageState(1, Stage.DEEP)


def test_two_workers_reserving_one_sites_pages_share_its_budget(redis, redis_prefix) -> None:
    base = f"{redis_prefix}:pupsniffer"
    one, two = RedisRoundStore(redis, base), RedisRoundStore(redis, base)
    urls = [f"http://a.com/{n}.html" for n in range(10)]
    granted = one.reserve_pages("a.com", urls[:6], 8) + two.reserve_pages("a.com", urls[3:], 8)
    assert granted == urls[:8]
