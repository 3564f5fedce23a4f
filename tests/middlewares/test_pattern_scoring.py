"""The pattern scoring middleware alone: which pages it records, the items it carries, the pairs
and counterparts of an empty pause (the crawl: test_pattern_scoring_crawl)."""

from __future__ import annotations

from scrapy import Request
from scrapy.http import HtmlResponse, TextResponse
from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider.adapters.pupsniffer_items import ITEMS_META
from bilingual_spider.middlewares.pattern_scoring import PAIRS_META, PatternScoringMiddleware
from tests.crawlers import get_crawler


def html(url: str, body: str, role: str = "forward") -> HtmlResponse:
    request = Request(url, meta={"role": role})
    return HtmlResponse(url, body=body.encode(), encoding="utf-8", request=request)


def middleware() -> PatternScoringMiddleware:
    return PatternScoringMiddleware(MemoryStatsCollector(get_crawler()), verifier=None)


def test_probes_api_answers_and_non_html_are_not_recorded():
    scoring = middleware()
    for response in (
        html("http://a.example/p.html", "<p>x</p>", role="probe"),
        html("http://a.example/q.html", "<p>x</p>", role="api"),
        TextResponse(
            "http://a.example/d.json",
            body=b'{"a": 1}',
            encoding="utf-8",
            request=Request("http://a.example/d.json"),
        ),
    ):
        assert list(scoring.process_spider_output(response, ["kept"])) == ["kept"]
    assert scoring.crawled.pages == {}


def test_a_carried_items_response_yields_its_items_not_the_callbacks_output():
    scoring = middleware()
    request = Request("data:,", meta={PAIRS_META: True, ITEMS_META: ["a", "b"]})
    carried = TextResponse("data:,", body=b"", request=request)
    assert list(scoring.process_spider_output(carried, ["callback's"])) == ["a", "b"]


def test_a_pause_without_pages_asks_for_nothing():
    scoring = middleware()
    assert scoring.pause() == []
    assert scoring.stats.get_value("patterns/counterparts") == 0
