"""The quality-priority spider middleware on hand-made pages: links in content blocks of a good
page go before links in its menus and before links of a page in another language; no link is
ever dropped; every page is counted in the crawl's yield, with why it was not kept."""

from __future__ import annotations

from typing import Any

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider.language.identification import default_identifier
from bilingual_spider.middlewares.quality_priority import QualityPriorityMiddleware
from tests.crawlers import get_crawler

PROSE = [
    "The old harbour of the town was built in the sixteenth century, when the merchants of the "
    "region began to trade with the islands to the south. It is still the heart of the town, and "
    "most visitors start their walk there. From the harbour, a narrow street leads up to the "
    "castle, which stands on a hill above the river.",
    "In the summer there are concerts in the courtyard of the castle, and the gardens are open to "
    "the public every day. You can also take a boat trip on the river, which is one of the best "
    "ways to see the old houses along the water. Many of them were built by the families of the "
    "merchants, and some of them have been turned into small hotels and restaurants.",
    "If you have more time, it is worth going to the villages in the hills, where life is quieter "
    "and the views are wonderful. There is a bus from the station every hour, and the journey "
    "takes about forty minutes. In the autumn, when the leaves change colour, the hills are at "
    "their most beautiful, and there are fewer people on the roads.",
]
GERMAN = (
    "Der alte Hafen der Stadt wurde im sechzehnten Jahrhundert gebaut, als die Kaufleute der "
    "Region mit den Inseln im Süden zu handeln begannen. Er ist noch immer das Herz der Stadt."
)


def page(paragraphs: list[str], url: str) -> HtmlResponse:
    """A menu of in-site links (boilerplate), the paragraphs, and a link inside the last one."""
    menu = "".join(f'<li><a href="/{w}">{w}</a></li>' for w in ("home", "contact", "prices"))
    body = "".join(f"<p>{p}</p>" for p in paragraphs[:-1])
    last = f'<p>{paragraphs[-1]} <a href="http://next.com/walk">a walk along the harbour</a></p>'
    html = f'<html><body><ul id="menu">{menu}</ul>{body}{last}</body></html>'
    return HtmlResponse(url, body=html.encode("utf-8"), encoding="utf-8", request=Request(url))


def links_of(response: HtmlResponse) -> list[Any]:
    return [
        {"url": response.url},
        *(
            Request(response.urljoin(href), meta={"role": "forward"})
            for href in ("/home", "/contact", "http://next.com/walk")
        ),
    ]


def middleware(**kwargs: Any) -> QualityPriorityMiddleware:
    kwargs.setdefault("max_badness", 20.0)
    stats = MemoryStatsCollector(get_crawler())
    return QualityPriorityMiddleware(
        stats, targets=("en",), identifier=default_identifier(), **kwargs
    )


def priorities(result: Any) -> dict[str, int]:
    return {r.url: r.priority for r in result if isinstance(r, Request)}


def test_content_links_of_good_pages_go_first_and_no_link_is_dropped() -> None:
    quality = middleware()
    good = page(PROSE, "http://good.com/")
    german = page([GERMAN, GERMAN], "http://gut.de/")
    from_good = priorities(quality.process_spider_output(good, links_of(good)))
    from_german = priorities(quality.process_spider_output(german, links_of(german)))
    assert len(from_good) == len(from_german) == 3
    assert from_good["http://next.com/walk"] > from_good["http://good.com/home"]
    assert from_good["http://next.com/walk"] > from_german["http://next.com/walk"]
    assert from_good["http://good.com/home"] > from_german["http://gut.de/home"]
    assert quality.stats.get_value("quality/links") == 6


def test_every_page_is_counted_in_the_yield_with_its_rejections() -> None:
    quality = middleware()
    for response in (page(PROSE, "http://a.com/"), page(PROSE, "http://b.com/copy")):
        list(quality.process_spider_output(response, links_of(response)))
    german = page([GERMAN], "http://gut.de/")
    list(quality.process_spider_output(german, []))
    stats = quality.stats.get_stats()
    assert stats["quality/pages"] == 3
    assert stats["quality/pages_kept"] == 1
    assert stats["quality/yield_ratio"] == round(1 / 3, 4)
    assert stats["quality/rejected/duplicate"] == 1
    assert stats["quality/rejected/language"] == 1
    assert stats["quality/rejected/short"] == 1


def test_without_priority_the_yield_is_counted_and_priorities_are_untouched() -> None:
    quality = middleware(prioritise=False)
    good = page(PROSE, "http://good.com/")
    assert set(priorities(quality.process_spider_output(good, links_of(good))).values()) == {0}
    assert quality.stats.get_value("quality/pages_kept") == 1
