"""One crawl state (issue 53): the stores a crawl keeps, chosen once from the settings; the
memory twins answer as the Redis stores do for one worker (the real Redis, a prefix of the
test's own)."""

from __future__ import annotations

import pytest
from scrapy.utils.test import get_crawler

from bilingual_spider.detection.store import InMemorySiteStore
from bilingual_spider.distributed.backlinks_asked import SharedBacklinksAsked
from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.found_by import SharedFoundBy
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.distributed.page_budget import SharedPageBudget
from bilingual_spider.distributed.site_store import RedisSiteStore
from bilingual_spider.distributed.written_items import WrittenItems
from bilingual_spider.patterns.round_state import InMemoryRoundStore
from bilingual_spider.state import CrawlState
from bilingual_spider.state.memory import (
    BacklinksAskedInMemory,
    FoundByInMemory,
    LinkModelsInMemory,
    PageBudgetInMemory,
    WrittenItemsInMemory,
)
from tests.conftest import REDIS_URL


@pytest.fixture(params=["memory", "redis"])
def stores(request):
    """A factory of a store by name: in memory, or in Redis under the test's prefix."""
    if request.param == "memory":
        yield {
            "found_by": FoundByInMemory,
            "asked": BacklinksAskedInMemory,
            "budget": PageBudgetInMemory,
            "written": WrittenItemsInMemory,
        }
        return
    prefix = request.getfixturevalue("redis_prefix")
    redis = PatientRedis(REDIS_URL)
    base = f"{prefix}:backforth"
    yield {
        "found_by": lambda: SharedFoundBy(redis, base),
        "asked": lambda: SharedBacklinksAsked(redis, base),
        "budget": lambda budget: SharedPageBudget(redis, base, budget),
        "written": lambda: WrittenItems(redis, base, "w1"),
    }
    redis.close()


def test_how_a_site_was_reached_first_note_stays_and_is_taken_once(stores) -> None:
    found_by = stores["found_by"]()
    found_by.note("a.example", "seed")
    found_by.note("a.example", "forward link of http://b.example/")  # the first note stays
    assert found_by.take("a.example", keep=True) == "seed"
    assert found_by.take("a.example") == "seed"
    assert found_by.take("a.example") == ""  # taken without keep: forgotten
    assert found_by.take("never.example") == ""


def test_backlinks_asked_and_written_items_are_marked_once(stores) -> None:
    asked = stores["asked"]()
    assert not asked.asked("a.example")
    asked.mark("a.example")
    assert asked.asked("a.example") and not asked.asked("b.example")
    written = stores["written"]()
    assert written.claim(("verdict", "a.example"))
    assert not written.claim(("verdict", "a.example"))  # its output holds it
    assert written.claim(("site", "a.example"))


def test_a_page_budget_counts_every_page_and_a_request_once(stores) -> None:
    budget = stores["budget"](3)
    assert budget.spend() == 1
    assert budget.spend(request_id="7") == 2
    assert budget.spend(request_id="7") == 0  # that request's page was counted before
    assert budget.spend(2) == 4


def test_the_settings_choose_the_stores_once_per_crawl_and_spider(redis_prefix) -> None:
    alone = get_crawler()
    state = CrawlState.of(alone, "backforth")
    assert CrawlState.of(alone, "backforth") is state and not state.shares_requests
    assert isinstance(state.sites, InMemorySiteStore)
    assert isinstance(state.rounds, InMemoryRoundStore)
    assert isinstance(state.found_by, FoundByInMemory)
    assert state.page_budget(10) is state.page_budget(10)
    assert isinstance(state.link_models(("forward",), 50, 100, 0), LinkModelsInMemory)
    settings = {"REDIS_URL": REDIS_URL, "BILINGUAL_REDIS_KEY_PREFIX": redis_prefix}
    shared = CrawlState.of(get_crawler(settings_dict=settings), "backforth")
    assert shared.shares_requests and shared.base == f"{redis_prefix}:backforth"
    assert isinstance(shared.sites, RedisSiteStore)
    assert isinstance(shared.found_by, SharedFoundBy)
    assert isinstance(shared.written_items, WrittenItems)
    models = shared.link_models(("forward",), 50, 100, 0)
    assert isinstance(models, SharedLinkModels) and models.roles == ("forward",)
