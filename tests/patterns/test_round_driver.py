"""The stages of a PupSniffer crawl without a crawl: what the driver tells the crawler at the end
of each stage, when it keeps the crawl open, and that one caller at a time moves it on."""

from __future__ import annotations

from dataclasses import dataclass, field

from bilingual_spider.patterns.crawl_round import GroupPairs, PageRecord, RoundPairs
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.discovery import ExternalSite
from bilingual_spider.patterns.round_driver import RoundDriver
from bilingual_spider.patterns.round_state import CHECKED, InMemoryRoundStore, Stage, StageState

ENGLISH = "The museum opens every day from nine in the morning until six in the evening."
FRENCH = "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir."
OUTSIDE = "http://www.friends.example/about.html"


@dataclass
class Told:
    """The crawler's side: what it was told, in order."""

    calls: list[tuple[str, int]] = field(default_factory=list)
    pairs: list[RoundPairs] = field(default_factory=list)
    candidates: list[DeepCandidate] = field(default_factory=list)
    groups: list[GroupPairs] = field(default_factory=list)
    picked: list[tuple[ExternalSite, str]] = field(default_factory=list)

    def crawl_stage_ended(
        self, round: int, pairs: RoundPairs, candidates: list[DeepCandidate]
    ) -> None:
        self.calls.append(("crawl_stage_ended", round))
        self.pairs.append(pairs)
        self.candidates += candidates

    def round_ended(self, round: int, groups: GroupPairs) -> None:
        self.calls.append(("round_ended", round))
        self.groups.append(groups)

    def next_round_begun(self, round: int, picked: list[tuple[ExternalSite, str]]) -> None:
        self.calls.append(("next_round_begun", round))
        self.picked += picked


def museum_store(pages: int = 4, unpaired: int = 2) -> InMemoryRoundStore:
    """A site with /en/ and /fr/ versions of ``pages`` pages and ``unpaired`` English pages
    alone (deep-page candidates), linking to another site."""
    store = InMemoryRoundStore()
    home = {lang: f"http://www.museum.example/{lang}/index.html" for lang in ("en", "fr")}
    for i in range(pages + unpaired):
        for lang, text in (("en", ENGLISH), ("fr", FRENCH)):
            if lang == "fr" and i >= pages:
                continue
            url = f"http://www.museum.example/{lang}/p{i}.html"
            links = [home[lang], home["en"], OUTSIDE]
            store.add_page(PageRecord.of(url, lang, f"{text} {i} {url}", links), [OUTSIDE])
    return store


def idle() -> bool:
    return True


def test_a_round_mines_then_checks_deep_pages_then_groups_and_ends():
    store, told = museum_store(), Told()
    driver = RoundDriver(store, rounds=1, deep_per_site=10)
    assert driver.advance(idle, told)  # crawl stage over: deep pages asked, the crawl stays open
    assert store.stage() == StageState(1, Stage.DEEP)
    assert told.calls == [("crawl_stage_ended", 1)]
    assert len(told.pairs[0].pairs) == 4
    assert {c.candidate for c in told.candidates} == {
        "http://www.museum.example/fr/p4.html",
        "http://www.museum.example/fr/p5.html",
    }
    assert store.marked(CHECKED) == {c.candidate for c in told.candidates}  # asked once
    assert not driver.advance(idle, told)  # deep stage over, last round: groups, then the end
    assert told.calls[1:] == [("round_ended", 1)]
    assert store.stage().stage is Stage.DONE
    assert not driver.advance(idle, told) and len(told.calls) == 2  # done: nothing more


def test_a_second_round_crawls_the_external_sites_and_each_round_has_its_groups():
    store, told = museum_store(), Told()
    driver = RoundDriver(store, rounds=2, next_sites=5)
    assert driver.advance(idle, told) and driver.advance(idle, told)
    # the next round's sites are queued, then the groups of the round that ends are emitted
    assert told.calls == [("crawl_stage_ended", 1), ("next_round_begun", 2), ("round_ended", 1)]
    assert [(site.site, url) for site, url in told.picked] == [("friends.example", OUTSIDE)]
    assert store.stage() == StageState(2, Stage.CRAWL)
    assert driver.advance(idle, told) and not driver.advance(idle, told)
    assert told.calls[3:] == [("crawl_stage_ended", 2), ("round_ended", 2)]


def test_no_move_while_another_worker_is_busy_or_holds_the_transition():
    store, told = museum_store(), Told()
    driver = RoundDriver(store)
    assert driver.advance(lambda: False, told)  # a worker queued requests meanwhile: wait
    assert store.stage() == StageState(1, Stage.CRAWL) and told.calls == []
    store.begin_transition = lambda: False  # type: ignore[method-assign]
    assert driver.advance(idle, told) and told.calls == []


def test_search_mode_has_one_stage_with_prior_patterns_only():
    store, told = InMemoryRoundStore(), Told()
    driver = RoundDriver(store, rounds=3, search=True)
    assert driver.rounds == 1 and driver.pairs_of(1).pairs == ()
    assert not driver.advance(idle, told)
    assert told.calls == [("round_ended", 1)] and store.stage().stage is Stage.DONE


def test_another_worker_reads_the_rounds_pairs_from_the_store():
    store = museum_store()
    RoundDriver(store).end_crawl_stage(1)
    other = RoundDriver(store)  # a worker that did not mine them
    assert len(other.pairs_of(1).pairs) == 4
