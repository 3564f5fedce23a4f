"""The stores a JOBDIR crawl keeps with its frontier (issue 53): the memory store's class over
collections in the frontier's file (the detector's sites, PupSniffer's rounds), committed with
it; what a kill finds is the last commit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scrapy.utils.test import get_crawler

from bilingual_spider.detection.detector import (
    BilingualSiteDetector,
    DetectorConfig,
    LinkScore,
    link_language_hint,
)
from bilingual_spider.detection.store import InMemorySiteStore
from bilingual_spider.frontier.bipartite import BACKLINK, FORWARD
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier
from bilingual_spider.patterns.crawl_round import PageRecord, pair_round
from bilingual_spider.patterns.resemblance import fingerprint
from bilingual_spider.patterns.round_state import EMITTED, Stage, StageState
from bilingual_spider.scheduler.sqlite_frontier import SqliteFrontier
from bilingual_spider.spiders.backforth import BackForthSpider
from bilingual_spider.spiders.pupsniffer import PupSnifferSpider
from bilingual_spider.state import CrawlState
from bilingual_spider.state.sqlite import SqliteSet, SqliteTable
from tests.distributed.test_pupsniffer_store import sqlite_round_store

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


def test_the_round_store_over_the_frontier_keeps_what_was_committed(tmp_path: Path) -> None:
    frontier = SqliteFrontier(tmp_path / "frontier.sqlite3")
    store = sqlite_round_store(frontier)
    assert store.first_sight("a.com", "seed")
    assert store.reserve_pages("a.com", ["http://a.com/", "http://a.com/fr/"], 3) == [
        "http://a.com/",
        "http://a.com/fr/",
    ]
    store.add_page(PageRecord.of("http://a.com/fr/", "fr", "un", ()), ["http://b.com/"])
    store.add_page(PageRecord.of("http://a.com/", "en", "one", ()))
    store.add_page(PageRecord.of("http://a.com/fr/", "fr", "un deux", ()))  # again: its first place
    store.set_not_found("a.com", fingerprint("Page not found"))
    assert store.mark_new(EMITTED, ["pair x y"]) == ["pair x y"]
    pairs = pair_round(store.crawled())
    store.keep_round_pairs(1, pairs)
    assert store.publish(StageState(1, Stage.DEEP))
    frontier.commit()
    store.reserve_pages("a.com", ["http://a.com/de/"], 3)  # after the last commit: lost
    store.mark_new(EMITTED, ["site a.com"])
    store.publish(StageState(2, Stage.CRAWL))
    frontier.db.close()  # a kill
    again = sqlite_round_store(SqliteFrontier(tmp_path / "frontier.sqlite3"))
    assert again.found_by("a.com") == "seed" and not again.first_sight("a.com", "round 2")
    assert again.stage() == StageState(1, Stage.DEEP)
    assert again.round_pairs(1) == pairs and again.round_pairs(2) is None
    assert again.marked(EMITTED) == {"pair x y"}
    assert again.not_found("a.com") == fingerprint("Page not found")
    crawled = again.crawled()
    assert list(crawled.pages) == ["http://a.com/fr/", "http://a.com/"]
    assert crawled.pages["http://a.com/fr/"].text == "un deux"
    assert again.reserve_pages("a.com", ["http://a.com/", "http://a.com/de/"], 3) == [
        "http://a.com/de/"  # the third page of the budget: the one lost is asked for again
    ]
    assert again.reserve_pages("a.com", ["http://a.com/es/"], 3) == []  # the budget is spent


def test_a_jobdir_crawl_of_pupsniffer_keeps_its_rounds_in_the_frontier_s_file(
    tmp_path: Path,
) -> None:
    settings = {"JOBDIR": str(tmp_path / "job"), "BILINGUAL_CRASH_SAFE_FRONTIER": True}
    state = CrawlState.of(get_crawler(PupSnifferSpider, settings), "pupsniffer")
    assert state.rounds.first_sight("a.com", "seed")
    state.frontier().close()
    resumed = CrawlState.of(get_crawler(PupSnifferSpider, settings), "pupsniffer")
    assert resumed.rounds.found_by("a.com") == "seed"
    resumed.frontier().close()


def test_a_jobdir_crawl_keeps_its_link_classifiers_at_each_learning_iteration(
    tmp_path: Path,
) -> None:
    """One process learns alone (SharedLinkModels' twin, the same steps): a learning iteration
    every 10 pages retrains the classifiers and keeps them (examples, models, versions, the
    harvest rate) in the frontier's file; a crawl restarted after a kill scores with them and
    counts the pages to its next iteration from that one. The examples added since are lost."""
    settings = {"JOBDIR": str(tmp_path / "job"), "BILINGUAL_CRASH_SAFE_FRONTIER": True}
    roles = (BACKLINK, FORWARD)

    def a_run() -> tuple[CrawlState, Any, dict[str, OnlineLinkClassifier], float | None]:
        state = CrawlState.of(get_crawler(BackForthSpider, settings), "backforth")
        models = state.link_models(roles, 10, 100, 0)
        fresh = {role: OnlineLinkClassifier(n_features=2**10) for role in roles}
        return (state, models, *models.adopt(fresh))

    state, models, classifiers, rate = a_run()
    assert rate is None and all(c.version == 0 for c in classifiers.values())
    for role in roles:
        for i in range(3):
            models.add_example(role, ["hotel", f"room{i}"], True)
            models.add_example(role, ["news", f"sport{i}"], False)
    assert models.step(classifiers, 9, 3).retrained == []
    step = models.step(classifiers, 10, 3)
    assert sorted(step.retrained) == sorted(roles) and step.harvest_rate == 0.3
    assert step.models[FORWARD].version == 1 and models.sent == {BACKLINK: 3 * 2, FORWARD: 3 * 2}
    models.add_example(FORWARD, ["lost", "at", "the", "kill"], True)
    state.frontier().commit()
    state.frontier().close()  # killed: the same command again

    state, models, classifiers, rate = a_run()
    assert rate == 0.3 and all(c.version == 1 for c in classifiers.values())
    assert classifiers[FORWARD].examples_seen == {"relevant": 3, "non_relevant": 3}
    assert models.step(classifiers, 19, 5).retrained == []  # 10 pages after the kept one
    assert sorted(models.step(classifiers, 20, 5).retrained) == sorted(roles)
    assert classifiers[BACKLINK].version == 2
    state.frontier().close()
