"""The backforth spider's settings and arguments, without a crawl (its backlink queries:
tests/middlewares/test_backlink_expansion.py)."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError

from bilingual_spider import settings as project_settings
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.spiders.backforth import BackForthSpider
from bilingual_spider.state import CrawlState
from tests.crawlers import get_crawler


def spider(strategy: str = "cobfc", **settings: object) -> BackForthSpider:
    every = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}
    crawler = get_crawler(BackForthSpider, {**every, **settings})
    # langs="": from_crawler leaves the (frozen) settings as they are
    return BackForthSpider.from_crawler(
        crawler, seeds="http://www.museo.example/", langs="", strategy=strategy
    )


@pytest.mark.parametrize(("strategy", "expands"), [("cobfc", True), ("obfc", True), ("fc", False)])
def test_the_strategies_that_expand_backlinks_take_the_middleware(strategy, expands):
    assert spider(strategy).expands_backlinks is expands
    assert BackForthSpider.custom_settings["BILINGUAL_BACKLINK_EXPANSION"] is True


def test_how_a_site_was_found_is_kept_until_its_verdict_only():
    """One entry per site reached and not judged yet (a long crawl's memory: judged sites,
    bilingual or not, leave theirs)."""
    backforth = spider("obfc")
    for url in ("http://www.museo.example/", "http://www.hotel.example/"):
        assert backforth.seed_request(url) is not None
    assert backforth.origins._noted == {
        "www.museo.example": "seed",
        "www.hotel.example": "seed",
    }
    for site, bilingual in (("www.museo.example", False), ("www.hotel.example", True)):
        verdict = SiteVerdictItem(
            site=site, url=f"http://{site}/", bilingual=bilingual, languages=["en", "es"],
            reason="", pages_downloaded=2,
        )  # fmt: skip
        items = list(backforth._on_verdict(verdict))
        assert [item.found_by for item in items] == (["seed"] if bilingual else [])
    assert backforth.origins._noted == {}


def test_an_unknown_scope_is_refused():
    with pytest.raises(UsageError, match="BACKLINK_SCOPE"):
        spider(BILINGUAL_BACKFORTH_BACKLINK_SCOPE="domain")


def test_focc_workers_on_redis_send_their_link_examples_to_the_shared_classifier(redis_prefix):
    from scrapy import Request
    from scrapy.http import HtmlResponse

    from bilingual_spider.frontier.rescoring import FRONTIER_META
    from tests.conftest import REDIS_URL

    every = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}
    settings = {**every, "REDIS_URL": REDIS_URL, "BILINGUAL_REDIS_KEY_PREFIX": redis_prefix}
    crawler = get_crawler(BackForthSpider, settings)
    focc = BackForthSpider.from_crawler(
        crawler, seeds="http://www.museo.example/", langs="", strategy="focc"
    )
    assert isinstance(focc.learning.models, SharedLinkModels)
    assert focc.learning.models.roles == ("forward",)
    url = "http://www.hotels.example/rooms.html"
    request = Request(url, meta={FRONTIER_META: {"role": "forward", "tokens": ["hotel", "room"]}})
    body = b"<html><body><p>Hotel rooms, flights and beach holidays.</p></body></html>"
    focc._on_topic(HtmlResponse(url, body=body, request=request))
    assert focc.classifiers["forward"].examples_seen == {"relevant": 0, "non_relevant": 0}
    step = focc.learning.models.step(focc.classifiers, 1, 0)
    assert focc.learning.models.sent["forward"] == 1
    assert sum(step.seen["forward"].values()) == 1  # counted crawl-wide, in Redis


def test_a_jobdir_crawl_resumed_with_another_strategy_is_refused(tmp_path):
    """The strategy is recorded with the crawl's stores; the same command resumes it, another
    strategy is refused in one line (as ``pupsniffer``'s mode)."""
    jobdir = {"JOBDIR": str(tmp_path), "BILINGUAL_CRASH_SAFE_FRONTIER": True}
    for strategy in ("cobfc", "cobfc"):  # the first run, then the same command again
        run = spider(strategy, **jobdir)
        CrawlState.of(run.crawler, run.name).frontier().close()  # the run ends
    with pytest.raises(UsageError, match="strategy is cobfc, and this command asks for obfc"):
        spider("obfc", **jobdir)
    assert spider("obfc").strategy.value == "obfc"  # no JOBDIR: nothing recorded
