"""The stores a JOBDIR crawl keeps with its frontier (issue 53): the memory store's class over
collections in the frontier's file, committed with it; what a kill finds is the last commit."""

from __future__ import annotations

from pathlib import Path

from bilingual_spider.detection.detector import (
    BilingualSiteDetector,
    DetectorConfig,
    LinkScore,
    link_language_hint,
)
from bilingual_spider.detection.store import InMemorySiteStore
from bilingual_spider.scheduler.sqlite_frontier import SqliteFrontier
from bilingual_spider.state.sqlite import SqliteSet, SqliteTable

SITE = "www.example.com"


class Page:
    lang = "en"
    chars = 800
    shares = {"en": 1.0}  # noqa: RUF012
    undetermined = False


def sqlite_store(frontier: SqliteFrontier) -> InMemorySiteStore:
    return InMemorySiteStore(
        SqliteSet(lambda: frontier, "site_claims"),
        SqliteTable(lambda: frontier, "site_states"),
        SqliteTable(lambda: frontier, "site_verdicts"),
    )


def test_a_table_is_a_mapping_in_the_frontier_s_transaction(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / "frontier.sqlite3")
    table = SqliteTable(lambda: frontier, "t")
    table["a"] = {"x": 1}
    table["b"] = 2
    assert table["a"] == {"x": 1} and "b" in table and "c" not in table
    assert sorted(table) == ["a", "b"] and len(table) == 2
    assert frontier.in_transaction  # written with the frontier's changes
    frontier.commit()
    del table["b"]
    table["a"] = 3
    frontier.db.close()  # killed before the next commit
    again = SqliteFrontier(tmp_path / "frontier.sqlite3")
    table = SqliteTable(lambda: again, "t")
    assert dict(table) == {"a": {"x": 1}, "b": 2}  # the last commit's
    assert SqliteTable(lambda: again, "other").get("a") is None  # tables do not mix


def test_the_site_store_over_the_frontier_keeps_what_was_committed(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / "frontier.sqlite3")
    store = sqlite_store(frontier)
    bsd = BilingualSiteDetector(DetectorConfig())
    assert store.claim(SITE) and not store.claim(SITE)
    assert store.claim("b.example") and store.claim("c.example")
    step = bsd.begin(
        SITE,
        bsd.page(f"http://{SITE}/", Page()),
        [LinkScore(f"http://{SITE}/es/", 0.9, link_language_hint(f"http://{SITE}/es/"))],
    )
    assert step.state is not None
    store.save(step.state)
    verdict = bsd.fail_start("c.example", "http://c.example/", "timeout")
    assert store.finish(verdict)
    frontier.commit()
    frontier.db.close()  # a kill
    again = sqlite_store(SqliteFrontier(tmp_path / "frontier.sqlite3"))
    assert again.load(SITE) == step.state and again.verdict("c.example") == verdict
    assert not again.claim(SITE) and not again.claim("c.example")
    assert again.unfinished() == ["b.example", SITE]
    assert again.forget_claims() == 1  # b.example: claimed, nothing saved of it
    assert again.claim("b.example")  # its first page, given again, claims it again
    assert len(again) == 1
