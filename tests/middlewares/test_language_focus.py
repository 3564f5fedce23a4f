"""The language-focus spider middleware on hand-made pages: each rule of the hard focus, the
undetermined anchor falling through, the soft focus's order, what it leaves alone (items, seeds,
requests that follow no link of the page), one identifier batch per page, and the frontier tag."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from typing import Any

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierTag
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.middlewares.language_focus import LanguageFocusMiddleware, parse_targets
from bilingual_spider.middlewares.outlinks import LINK_TEXT_META
from tests.crawlers import get_crawler

JAPANESE_TEXT = (
    "このページは日本語で書かれています。私たちの会社は東京にあり、旅行の情報を提供しています。"
    "ホテルの予約やツアーの案内など、さまざまなサービスをご利用いただけます。"
)
ENGLISH_TEXT = (
    "This page is written in English. Our company is in London and offers travel information, "
    "from hotel bookings to guided tours, and many other services for our visitors."
)
LINKS = {
    "http://www.shop.jp/": "Read more about our company",  # target TLD, English anchor
    "http://www.a.com/svc": "サービス",  # generic TLD, Japanese anchor
    "http://www.b.com/": "Read more about our company",  # generic TLD, English anchor
    "http://www.c.de/": "About us",  # other ccTLD, undetermined anchor
    "http://www.d.com/": "About us",  # generic TLD, undetermined anchor
    "http://www.e.com/": "会社概要",  # kanji only, on a page that writes kana: undetermined
}


def page(
    text: str, links: dict[str, str] = LINKS, url: str = "http://www.page.jp/"
) -> HtmlResponse:
    anchors = " ".join(f'<a href="{href}">{anchor}</a>' for href, anchor in links.items())
    html = f"<html><body><p>{text}</p><p>{anchors}</p></body></html>"
    return HtmlResponse(url, body=html.encode("utf-8"), encoding="utf-8", request=Request(url))


def middleware(mode: str = "hard", **kwargs: Any) -> LanguageFocusMiddleware:
    stats = MemoryStatsCollector(get_crawler())
    return LanguageFocusMiddleware(
        ("ja",), stats, mode=mode, identifier=default_identifier(), **kwargs
    )


def outputs(links: Iterable[str] = LINKS) -> list[Any]:
    return [
        {"item": 1},
        Request("http://www.seed.com/", meta={"role": "seed"}),
        Request("http://api.example/backlinks?q=x", meta={"role": "backlink"}),  # not a link
        *(Request(url, meta={"role": "forward"}) for url in links),
    ]


def kept(result: Iterable[Any]) -> dict[str, int]:
    """The link requests that came through, with their priorities."""
    return {
        r.url: r.priority
        for r in result
        if isinstance(r, Request) and r.meta.get("role") == "forward"
    }


def kept_urls(result: Iterable[Any]) -> list[str]:
    return list(kept(result))


def test_hard_focus_keeps_target_tld_then_target_anchor_and_drops_the_rest() -> None:
    focus = middleware()
    result = list(focus.process_spider_output(page(JAPANESE_TEXT), outputs()))
    assert kept_urls(result) == ["http://www.shop.jp/", "http://www.a.com/svc"]
    stats = focus.stats.get_stats()
    assert stats["focus/kept/tld"] == 1
    assert stats["focus/kept/anchor"] == 1
    assert stats["focus/dropped_anchor"] == 1  # English anchor, generic TLD
    assert stats["focus/dropped_tld"] == 1  # .de, and the undetermined anchor did not save it
    assert stats["focus/dropped_unknown"] == 2  # 'About us' and the kanji-only anchor
    assert stats["focus/links"] == len(LINKS)


def test_hard_focus_leaves_items_seeds_and_non_links_alone_and_keeps_priorities() -> None:
    result = list(middleware().process_spider_output(page(JAPANESE_TEXT), outputs()))
    assert result[0] == {"item": 1}
    assert [r.url for r in result[1:3]] == [
        "http://www.seed.com/",
        "http://api.example/backlinks?q=x",
    ]
    assert all(r.priority == 0 for r in result[1:])  # hard focus does not prioritise


def test_an_undetermined_anchor_falls_through_to_the_tld_rule() -> None:
    """'About us' is too short to identify: on a .jp link the TLD keeps it, on .com nothing does."""
    links = {"http://www.x.co.jp/": "About us", "http://www.y.com/": "About us"}
    focus = middleware()
    result = list(focus.process_spider_output(page(JAPANESE_TEXT, links), outputs(links)))
    assert kept_urls(result) == ["http://www.x.co.jp/"]
    assert focus.stats.get_value("focus/dropped_unknown") == 1


def test_anchors_of_a_page_are_identified_in_one_batch() -> None:
    focus = middleware()
    list(focus.process_spider_output(page(JAPANESE_TEXT), outputs()))
    assert focus.stats.get_value("focus/anchor_batches") == 1
    assert focus.stats.get_value("focus/anchors") == len(LINKS) - 1  # the .jp link needs none


def test_the_anchor_comes_from_link_text_when_the_spider_gives_it() -> None:
    request = Request("http://www.z.com/", meta={"role": "forward", LINK_TEXT_META: "サービス"})
    result = list(middleware().process_spider_output(page(JAPANESE_TEXT, {}), [request]))
    assert kept_urls(result) == ["http://www.z.com/"]


def test_evidence_tld_only_and_anchor_only() -> None:
    by_tld = middleware(evidence=("tld",)).process_spider_output(page(JAPANESE_TEXT), outputs())
    assert kept_urls(by_tld) == ["http://www.shop.jp/"]
    by_anchor = middleware(evidence=("anchor",))
    assert kept_urls(by_anchor.process_spider_output(page(JAPANESE_TEXT), outputs())) == [
        "http://www.a.com/svc"
    ]


def test_soft_focus_keeps_every_link_ordered_page_and_link_evidence() -> None:
    """Relevance 0.1 + 0.5 (target page) + 0.4 (target TLD or anchor): from a Japanese page a
    .jp link (1.0) before an English-anchored .com link (0.6); from an English page a .jp link
    (0.5) before an English-anchored .com link (0.1)."""
    links = {"http://www.shop.jp/": "Read more about our company", "http://www.b.com/": "About us"}
    priorities = {}
    for name, text in (("ja", JAPANESE_TEXT), ("en", ENGLISH_TEXT)):
        focus = middleware("soft")
        response = page(text, links, "http://www.page.com/")
        for url, priority in kept(focus.process_spider_output(response, outputs(links))).items():
            priorities[(name, url)] = priority
        assert focus.stats.get_value("focus/pages") == 1
    assert priorities == {
        ("ja", "http://www.shop.jp/"): 1000,
        ("ja", "http://www.b.com/"): 600,
        ("en", "http://www.shop.jp/"): 500,
        ("en", "http://www.b.com/"): 100,
    }


def test_the_bonus_is_added_to_the_priority_and_written_into_the_frontier_tag() -> None:
    tag = FrontierTag("forward", ("anchor:x",), version=2)
    request = Request(
        "http://www.shop.jp/", priority=300, meta={"role": "forward", FRONTIER_META: tag.to_meta()}
    )
    links = {"http://www.shop.jp/": "Read more about our company"}
    (result,) = middleware("soft").process_spider_output(page(JAPANESE_TEXT, links), [request])
    assert result.priority == 300 + 1000
    assert FrontierTag.from_meta(result.meta[FRONTIER_META]) == FrontierTag(
        "forward", ("anchor:x",), 2, bonus=1000
    )


def test_directory_yield_prefers_links_into_directories_of_target_pages() -> None:
    focus = middleware("hard", yield_place="directory", yield_weight=0.5)
    for i in range(3):
        list(focus.process_spider_output(page(JAPANESE_TEXT, {}, f"http://a.jp/ja/{i}.html"), []))
        list(focus.process_spider_output(page(ENGLISH_TEXT, {}, f"http://a.jp/en/{i}.html"), []))
    links = {"http://a.jp/ja/new.html": "x", "http://a.jp/en/new.html": "y"}
    result = focus.process_spider_output(page(JAPANESE_TEXT, links), outputs(links))
    priority = kept(result)
    assert priority["http://a.jp/ja/new.html"] > priority["http://a.jp/en/new.html"]
    assert focus.stats.get_value("focus/pages_target") == 4


def test_the_async_output_of_a_callback_is_judged_alike() -> None:
    async def result() -> AsyncIterator[Any]:
        for output in outputs():
            yield output

    async def collect() -> list[Any]:
        focus = middleware()
        return [o async for o in focus.process_spider_output_async(page(JAPANESE_TEXT), result())]

    assert kept_urls(asyncio.run(collect())) == ["http://www.shop.jp/", "http://www.a.com/svc"]


def test_settings() -> None:
    assert parse_targets("ja, zh") == ("ja", "zh")
    assert parse_targets("") == parse_targets(None) == parse_targets("none") == ()
    with pytest.raises(ValueError):
        middleware("sideways")
    with pytest.raises(ValueError):
        middleware(evidence=("hreflang",))
    with pytest.raises(ValueError):
        middleware(yield_place="site")


def test_url_markers_drop_another_languages_half_of_a_target_tld_site() -> None:
    """With ``url`` evidence: the /en/ half of a .jp site is dropped (its anchor is English), a
    /ja/ link on .com is kept without reading its anchor; the stats say why."""
    links = {
        "http://www.shop.jp/en/about.html": "Read more about our company",
        "http://www.shop.jp/about.html": "Read more about our company",
        "http://www.b.com/ja/": "Read more about our company",
    }
    focus = middleware(evidence=("url", "tld", "anchor"))
    result = list(focus.process_spider_output(page(JAPANESE_TEXT, links), outputs(links)))
    assert kept_urls(result) == ["http://www.shop.jp/about.html", "http://www.b.com/ja/"]
    stats = focus.stats.get_stats()
    assert stats["focus/dropped_url_marker"] == 1
    assert stats["focus/kept/tld"] == 1
    assert stats["focus/kept/url_marker"] == 1
    assert stats["focus/anchors"] == 1  # only the vetoed link's anchor was read
    paper = middleware()
    assert (
        len(kept_urls(paper.process_spider_output(page(JAPANESE_TEXT, links), outputs(links)))) == 2
    )


def test_marked_sites_drop_the_unmarked_primary_version_of_a_site_that_marks_its_target() -> None:
    """With ``site`` evidence: once a page or a link shows that shop.jp keeps its Japanese pages
    on ``ja.``, its unmarked pages (on ``www.`` and the root) are not kept by the .jp TLD; their
    English anchors drop them, a Japanese anchor keeps one; a .jp site that marks nothing is kept
    by its TLD as before. Without ``site``, the TLD rule keeps all of them."""
    links = {
        "http://ja.shop.jp/about.html": "Read more about our company",
        "http://www.shop.jp/about.html": "Read more about our company",
        "http://shop.jp/": "Read more about our company",
        "http://www.shop.jp/svc.html": "サービス",
        "http://www.plain.jp/about.html": "Read more about our company",
    }
    evidence = ("url", "site", "tld", "anchor")
    focus = middleware(evidence=evidence)
    result = list(focus.process_spider_output(page(JAPANESE_TEXT, links), outputs(links)))
    assert kept_urls(result) == [
        "http://ja.shop.jp/about.html",
        "http://www.shop.jp/svc.html",
        "http://www.plain.jp/about.html",
    ]
    stats = focus.stats.get_stats()
    assert stats["focus/dropped_unmarked_on_marked_site"] == 2
    assert stats["focus/kept/anchor"] == 1
    assert stats["focus/marked_sites"] == 1
    # the fetched page itself marks its site: its unmarked links fall to their anchors
    on_marked_page = middleware(evidence=evidence)
    unmarked = {"http://www.page.jp/company.html": "Read more about our company"}
    from_ja = page(JAPANESE_TEXT, unmarked, url="http://www.page.jp/ja/index.html")
    assert kept_urls(on_marked_page.process_spider_output(from_ja, outputs(unmarked))) == []
    # without the rule, the TLD keeps every .jp link
    without = middleware(evidence=("url", "tld", "anchor"))
    assert (
        len(kept_urls(without.process_spider_output(page(JAPANESE_TEXT, links), outputs(links))))
        == 5
    )
