"""The backlink expansion middleware alone: a bilingual verdict becomes one backlink query, its
answer becomes backlink page requests, each page once (the crawl: test_backlink_expansion_crawl)."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse, TextResponse
from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.middlewares.backlink_expansion import (
    BACKLINK_OF_META,
    BACKLINKS_OF_META,
    BacklinkExpansionMiddleware,
    backlink_query,
)
from bilingual_spider.search.calls import SEARCH_PAGE
from bilingual_spider.search.crawl_graph import CrawlLinkGraph
from bilingual_spider.search.values import BACKLINKS, FoundLink, SearchPage, SearchQuery
from tests.crawlers import get_crawler


class RecordingSearch:
    def __init__(self, backlinks: str = "moz") -> None:
        self.submitted: list[tuple[SearchQuery, dict[str, Any]]] = []
        self.defaults = {BACKLINKS: backlinks}
        self.crawl_graph = CrawlLinkGraph()

    def record_links(self, page_url: str, links: Any) -> None:
        self.crawl_graph.add_page(page_url, links)

    def submit(self, query: SearchQuery, meta: dict[str, Any]) -> str:
        self.submitted.append((query, meta))
        return "sandbox"

    def failing(self, kind: str) -> bool:
        return False


def verdict(site: str, bilingual: bool) -> SiteVerdictItem:
    url = f"http://{site}/en/a.html"
    return SiteVerdictItem(
        site=site, url=url, bilingual=bilingual, languages=[], reason="", pages_downloaded=1
    )


def middleware(
    scope: str = "page", backlinks: str = "moz"
) -> tuple[BacklinkExpansionMiddleware, RecordingSearch]:
    search = RecordingSearch(backlinks)
    stats = MemoryStatsCollector(get_crawler())
    return BacklinkExpansionMiddleware(search, stats, scope=scope), search  # type: ignore[arg-type]


def answer(origin: str, *urls: str, error: str | None = None) -> TextResponse:
    page = SearchPage(
        SearchQuery.backlinks(f"http://{origin}/"),
        "sandbox",
        links=tuple(FoundLink(url) for url in urls),
        error=error,
    )
    request = Request("data:,", meta={SEARCH_PAGE: page, BACKLINKS_OF_META: origin})
    return TextResponse("data:,", body=b"", request=request)


@pytest.mark.parametrize("scope", ["page", "host"])
def test_a_bilingual_verdict_asks_its_backlinks_once(scope):
    expansion, search = middleware(scope)
    expansion.item_scraped(verdict("mono.example", False))
    expansion.item_scraped(verdict("bi.example", True))
    assert [meta[BACKLINKS_OF_META] for _, meta in search.submitted] == ["bi.example"]
    assert search.submitted[0][0] == backlink_query(verdict("bi.example", True), scope)
    assert expansion.stats.get_value("backlinks/queries") == 1


def test_an_answer_becomes_backlink_pages_each_requested_once():
    expansion, _ = middleware()
    spider_output = [Request("http://never.example/")]  # the callback's output is not used
    first = list(expansion.process_spider_output(answer("a.example", "http://hub/1"), []))
    second = list(
        expansion.process_spider_output(
            answer("b.example", "http://hub/1", "http://hub/2"), spider_output
        )
    )
    assert [(r.url, r.meta["role"], r.meta[BACKLINK_OF_META]) for r in first + second] == [
        ("http://hub/1", "backlink", "a.example"),
        ("http://hub/2", "backlink", "b.example"),
    ]
    assert expansion.stats.get_value("backlinks/pages_known") == 1


def test_a_failed_answer_requests_nothing_and_is_counted():
    expansion, _ = middleware()
    failed = answer("a.example", error="HTTP 503")
    assert list(expansion.process_spider_output(failed, [])) == []
    assert expansion.stats.get_value("backlinks/queries_failed") == 1


def test_a_scope_other_than_page_or_host_is_refused():
    with pytest.raises(ValueError, match="page or host"):
        middleware("site")


def page(url: str, body: str, role: str = "forward") -> HtmlResponse:
    request = Request(url, meta={"role": role})
    return HtmlResponse(url, body=body.encode(), encoding="utf-8", request=request)


@pytest.mark.parametrize("backlinks, recorded", [("embedded", True), ("moz", False)])
def test_with_no_backlink_api_the_pages_links_are_the_backlinks(backlinks, recorded):
    expansion, search = middleware(backlinks=backlinks)
    body = '<p><a href="http://bi.example/fr/">le site</a> <a href="/other.html">here</a></p>'
    output = [Request("http://bi.example/fr/")]
    assert list(expansion.process_spider_output(page("http://hub.example/", body), output)) == (
        output
    )
    probe = page("http://probe.example/", '<a href="http://bi.example/x">x</a>', role="probe")
    list(expansion.process_spider_output(probe, []))
    found = [(b.source, b.anchor) for b in search.crawl_graph.backlinks("http://bi.example/")]
    assert found == ([("http://hub.example/", "le site")] if recorded else [])
