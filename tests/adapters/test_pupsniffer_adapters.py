"""PupSniffer's Scrapy adapters without a crawl: page requests, the end of a stage (items carried
by one request to a callback, the idle handler), deep-page checks, search mode's candidates and
the items, each once."""

from __future__ import annotations

import contextlib
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import DontCloseSpider, DropItem
from scrapy.http import Response

from bilingual_spider.adapters.pupsniffer_deep import MISSING, DeepPageChecks
from bilingual_spider.adapters.pupsniffer_items import ITEMS_META, PupSnifferItems
from bilingual_spider.adapters.pupsniffer_requests import (
    COUNTERPART_META,
    COUNTERPART_SECTION_META,
    NAMED_LANGUAGE_META,
    PageRequests,
)
from bilingual_spider.adapters.pupsniffer_search import PupSnifferSearch
from bilingual_spider.adapters.pupsniffer_stages import PupSnifferStages
from bilingual_spider.items import UrlPairItem, item_key
from bilingual_spider.patterns.crawl_order import NAMED_TRIES
from bilingual_spider.patterns.crawl_round import PageRecord
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pair_first import PageAsk, PairFirstOrder
from bilingual_spider.patterns.pairing import LOCAL, UrlPair
from bilingual_spider.patterns.round_driver import RoundDriver
from bilingual_spider.patterns.round_state import CHECKED, EMITTED, InMemoryRoundStore, Stage
from bilingual_spider.pipelines.duplicates import DuplicatesPipeline
from bilingual_spider.state.memory import WrittenItemsInMemory

EN_FR = PairingPattern("en", "fr")
ENGLISH = "The museum opens every day from nine in the morning until six in the evening."
FRENCH = "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir."


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count

    def set_value(self, key: str, value: Any) -> None:
        self.values[key] = value


class Engine:
    scheduler = None  # not a shared (Redis) one: this process alone decides the crawl is idle

    def __init__(self) -> None:
        self.crawled: list[scrapy.Request] = []

    def crawl(self, request: scrapy.Request) -> None:
        self.crawled.append(request)


def crawler() -> Any:
    return SimpleNamespace(stats=Stats(), engine=Engine(), settings={})


def page(response: Response) -> None: ...


def not_found(response: Response) -> None: ...


def failed(failure: Any) -> None: ...


def emit(response: Response) -> Any:
    yield from response.meta[ITEMS_META]


def test_a_new_site_asks_its_page_and_a_not_found_page_a_known_one_its_page_alone():
    store, made = InMemoryRoundStore(), crawler()
    requests = PageRequests(made, store, PairFirstOrder(store, 10), page, not_found, failed)
    first = requests.site("http://www.museum.example/en/", "seed")
    assert [(r.url, r.meta["role"]) for r in first[:2]] == [
        ("http://www.museum.example/en/", "page"),
        ("http://www.museum.example/", "page"),  # the home above it
    ]
    assert first[2].meta["role"] == "not_found" and len(first) == 3
    assert first[2].url.startswith("http://www.museum.example/") and first[2].callback is not_found
    again = requests.site("http://museum.example/fr/", "seed")
    assert [(r.url, r.meta["role"]) for r in again] == [
        ("http://museum.example/fr/", "page"),
        ("http://museum.example/", "page"),
    ]
    assert made.stats.values["pupsniffer/sites"] == 1
    ask = PageAsk("museum.example", "http://www.museum.example/fr/a.html", 10, EN_FR, section="")
    (counterpart,) = requests.pages([ask])
    assert counterpart.priority == 10 and counterpart.meta[COUNTERPART_META] == EN_FR
    assert counterpart.meta[COUNTERPART_SECTION_META] == ""
    named = PageAsk("museum.example", "http://www.museum.example/ca/a.html", 10, None, "ca")
    (version,) = requests.pages([named])
    assert version.meta[NAMED_LANGUAGE_META] == "ca" and COUNTERPART_META not in version.meta
    list(requests.order.page_came("museum.example", "http://www.museum.example/en/", "en", []))
    for _ in range(NAMED_TRIES):
        list(requests.answered("museum.example", version.meta, found=False))
    assert requests.order.progress["museum.example"].names_missing("ca")
    answered = {**counterpart.meta, COUNTERPART_SECTION_META: "manual"}
    list(requests.answered("museum.example", answered, found=True))
    progress = requests.order.progress["museum.example"]
    found = progress.counterpart_trials.found
    assert found[EN_FR, "manual"] == 1 and not found[EN_FR, ""]


def pair(source: str, target: str) -> UrlPair:
    return UrlPair(source, target, EN_FR, 0.5, 0.1, LOCAL, "en", "fr")


def test_items_are_made_once_in_the_languages_asked_for():
    store, made = InMemoryRoundStore(), crawler()
    items = PupSnifferItems(store, made, ["en", "fr"])
    pairs = [pair("http://a.example/en/", "http://a.example/fr/")] * 2
    pairs.append(
        UrlPair("http://a.example/en/", "http://a.example/de/", EN_FR, 0.5, 0.1, LOCAL, "en", "de")
    )
    found = list(items.new_items(items.pair_items(pairs)))
    assert [(i.source_url, i.target_url) for i in found] == [(pairs[0].source, pairs[0].target)]
    assert list(items.new_items(items.pair_items(pairs[:1]))) == []  # emitted (by any worker)
    assert made.stats.values["pupsniffer/pairs/local"] == 1
    assert made.stats.values["pupsniffer/pairs_other_languages"] == 1


def test_an_item_is_marked_emitted_as_it_is_handed_on():
    store = InMemoryRoundStore()
    items = PupSnifferItems(store, crawler(), [])
    first, second = (
        pair("http://a.example/en/", "http://a.example/fr/"),
        pair("http://a.example/en/b", "http://a.example/fr/b"),
    )
    keyed = list(items.pair_items([first, second]))
    handed = items.new_items(keyed)
    next(handed)  # through the pipelines (the frontier committed) and written
    assert store.marked(EMITTED) == {keyed[0][0]}  # a kill now: the second is emitted again
    assert [item.source_url for item in items.new_items(keyed)] == ["http://a.example/en/b"]


def test_a_redelivered_batch_offers_again_what_was_marked_and_the_record_writes_it_once():
    """Items run ahead of the feeds: a kill can leave one marked emitted (committed with the
    item before it) and not written. The restarted crawl's redelivered batch offers its marked
    pairs again; the record of the items written, settled against the output, lets through the
    one the output lacks, once. A batch first delivered, and a restart that could not read its
    output, offer nothing again."""
    store, made = InMemoryRoundStore(), crawler()
    items = PupSnifferItems(store, made, [])
    keyed = list(
        items.pair_items(
            [
                pair("http://a.example/en/", "http://a.example/fr/"),
                pair("http://a.example/en/b", "http://a.example/fr/b"),
            ]
        )
    )
    written, lost = list(items.new_items(keyed))  # both marked; the kill cut the second off
    assert made.stats.values["pupsniffer/pairs/local"] == 2
    record = WrittenItemsInMemory()
    record.settle([item_key(written)])  # the restart read the output
    pipeline = DuplicatesPipeline(made.stats, record)
    assert list(items.new_items(keyed)) == []  # a batch first delivered: marked is emitted

    def through_pipeline(offered: list[Any]) -> list[str]:
        kept = []
        for item in offered:
            with contextlib.suppress(DropItem):
                kept.append(pipeline.process_item(item).source_url)
        return kept

    assert through_pipeline(list(items.new_items(keyed, redelivered=True))) == [lost.source_url]
    assert through_pipeline(list(items.new_items(keyed, redelivered=True))) == []  # once
    assert made.stats.values["pupsniffer/items_offered_again"] == 4
    assert made.stats.values["pupsniffer/pairs/local"] == 2  # counted when first marked
    items.offer_again = False  # restarted with no JSON-lines output to read
    assert list(items.new_items(keyed, redelivered=True)) == []


def museum_store() -> InMemoryRoundStore:
    store = InMemoryRoundStore()
    home = "http://www.museum.example/en/index.html"
    for i in range(4):
        for lang, text in (("en", ENGLISH), ("fr", FRENCH)):
            url = f"http://www.museum.example/{lang}/p{i}.html"
            store.add_page(PageRecord.of(url, lang, f"{text} {i} {url}", [home]))
    store.add_page(PageRecord.of("http://www.museum.example/en/p9.html", "en", ENGLISH, [home]))
    return store


def stages_of(store: InMemoryRoundStore, rounds: int = 1) -> tuple[PupSnifferStages, Any]:
    made = crawler()
    driver = RoundDriver(store, rounds=rounds, deep_per_site=5)
    requests = PageRequests(made, store, PairFirstOrder(store, 10), page, not_found, failed)
    deep = DeepPageChecks(store, driver, made, None, lambda p, why: None, page, failed)
    items = PupSnifferItems(store, made, [])
    return PupSnifferStages(made, driver, requests, deep, items, emit, failed), made


def test_the_end_of_a_crawl_stage_sends_its_items_in_one_request_then_the_deep_pages():
    store = museum_store()
    stages, made = stages_of(store)
    with pytest.raises(DontCloseSpider):  # the deep stage begins
        stages.idle(scrapy.Spider("pupsniffer"))
    carrier, *deep = made.engine.crawled
    assert carrier.url.startswith("data:") and carrier.callback is emit
    assert carrier.priority > max(r.priority for r in deep)  # out before the next stage's pages
    items = [item for _, item in carrier.meta[ITEMS_META]]
    assert sum(isinstance(i, UrlPairItem) for i in items) == 4
    assert {r.url for r in deep} == {"http://www.museum.example/fr/p9.html"}
    assert {r.method for r in deep} == {"HEAD"} and store.marked(CHECKED)
    response = Response(carrier.url, request=carrier)
    assert list(stages.items.new_items(emit(response))) == items  # to pipelines and feeds
    assert made.stats.values["pupsniffer/pairs/local"] == 4
    assert list(stages.items.new_items(emit(response))) == []  # the request came again
    made.engine.crawled.clear()
    stages.idle(scrapy.Spider("pupsniffer"))  # deep stage over, last round: the end
    assert store.stage().stage is Stage.DONE
    assert [r.url[:5] for r in made.engine.crawled] in ([], ["data:"])  # groups, if any


class Killed(BaseException):
    """kill -9 of the worker moving the crawl on."""


def test_a_stages_items_lost_with_the_worker_that_made_them_are_made_again_by_the_redo():
    """The worker moving the crawl to its deep stage is killed after making the stage's items
    and before queuing the request that carries them: the worker that redoes the move (the
    transition's lock expired) queues them (they were marked emitted as they were made, and the
    redo found nothing to emit: a round's pairs lost)."""
    store = museum_store()
    stages, made = stages_of(store)

    def killed(request: scrapy.Request) -> None:
        raise Killed

    made.engine.crawl = killed
    with pytest.raises(Killed):
        stages.idle(scrapy.Spider("pupsniffer"))
    store.end_transition()  # its lock expired
    again, made_again = stages_of(store)
    with pytest.raises(DontCloseSpider):
        again.idle(scrapy.Spider("pupsniffer"))
    carrier, *_ = made_again.engine.crawled
    items = list(again.items.new_items(carrier.meta[ITEMS_META]))
    assert sum(isinstance(i, UrlPairItem) for i in items) == 4


def test_a_deep_candidate_answered_to_head_is_asked_with_get_a_missing_one_counted():
    store = museum_store()
    stages, made = stages_of(store)
    candidate = DeepCandidate(
        "http://www.museum.example/en/p9.html",
        "http://www.museum.example/fr/p9.html",
        EN_FR,
        "en",
        "fr",
        0,
    )
    head = stages.deep.request(candidate, "HEAD", 1)
    (get,) = stages.deep.head_answered(Response(head.url, status=200, request=head))
    assert get.method == "GET" and get.meta["candidate"] == candidate
    assert list(stages.deep.head_answered(Response(head.url, status=404, request=head))) == []
    assert made.stats.values[MISSING] == 1


def test_search_results_in_the_source_language_give_candidates_once():
    store, made = InMemoryRoundStore(), crawler()
    search = PupSnifferSearch(made, store, ["en", "fr"], page, page, failed)
    url = "http://www.museum.example/en/p1.html"
    found = [c.candidate for c in search.candidates(url, "en")]
    assert "http://www.museum.example/fr/p1.html" in found
    assert list(search.candidates(url, "en")) == []  # checked already
    assert [c.candidate for c in search.candidates(url, "en", redelivered=True)] == found
    assert list(search.candidates(url, "de")) == []
    assert made.stats.values["pupsniffer/search/results_not_in_source_language"] == 1
