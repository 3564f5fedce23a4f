"""The pupsniffer spider's arguments and seeds, without a crawl."""

from __future__ import annotations

import pytest
from scrapy.exceptions import UsageError

from bilingual_spider import settings as project_settings
from bilingual_spider.spiders.pupsniffer import PupSnifferSpider
from tests.crawlers import get_crawler


def spider(**arguments: object) -> PupSnifferSpider:
    settings = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}
    crawler = get_crawler(PupSnifferSpider, settings)
    return PupSnifferSpider.from_crawler(crawler, **arguments)


def test_every_seed_of_a_site_is_crawled_and_its_not_found_page_asked_once():
    seeds = "http://www.x.example/doc/a/,http://x.example/manual/,http://d-i.x.example/manual/"
    sniffer = spider(seeds=seeds)
    first, second, other = (sniffer.requests.site(url, "seed") for url in sniffer.seed_urls)
    # a site entered deep is entered at the directories above the page and its home too
    assert [(r.url, r.meta["role"]) for r in first[:-1]] == [
        ("http://www.x.example/doc/a/", "page"),
        ("http://www.x.example/doc/", "page"),
        ("http://www.x.example/", "page"),
    ]
    assert first[-1].meta["role"] == "not_found"
    assert [(r.url, r.meta["role"]) for r in second] == [
        ("http://x.example/manual/", "page"),
        ("http://x.example/", "page"),
    ]
    assert first[0].meta["site"] == second[0].meta["site"] == "x.example"
    # another project of the domain is another site, with its own not-found page
    assert [r.meta["role"] for r in other] == ["page", "page", "not_found"]
    assert other[0].meta["site"] == "d-i.x.example"


@pytest.mark.parametrize(
    "arguments",
    [
        {"mode": "google"},
        {"mode": "search"},  # search mode needs a source and a target language
        {"mode": "search", "langs": "en"},
        {"rounds": "0"},
        {"site_budget": "many"},
        {"site_budget": "0"},
    ],
)
def test_bad_arguments_are_refused_with_a_clear_error(arguments: dict) -> None:
    with pytest.raises(UsageError, match="pupsniffer"):
        spider(seeds="http://www.x.example/", **arguments)


def test_a_seed_pushed_to_redis_asks_its_sites_not_found_page_once_its_page_has_come():
    from scrapy.http import HtmlResponse

    sniffer = spider(seeds="http://www.y.example/")
    page = sniffer.seed_request("http://www.x.example/doc/")
    assert page is not None and page.meta["role"] == "page"
    assert sniffer.seed_request("http://www.x.example/doc/") is None  # requested already
    body = b"<html><body><p>Some text.</p><a href='/doc/b.html'>b</a></body></html>"
    response = HtmlResponse(page.url, body=body, request=page)
    follow = list(sniffer.parse(response))
    assert [(r.meta["role"], r.url.endswith("-not-found.html")) for r in follow] == [
        ("page", False),
        ("not_found", True),
    ]
    assert follow[1].url.startswith("http://www.x.example/")


def test_a_page_redelivered_after_its_worker_died_asks_again_for_the_pages_it_counted():
    from scrapy.http import HtmlResponse

    from bilingual_spider.state.request_meta import REDELIVERED_META

    sniffer = spider(seeds="http://www.x.example/", site_budget=3)
    page = sniffer.seed_request("http://www.x.example/")
    links = "".join(f"<a href='/{n}.html'>{n}</a>" for n in range(5))
    body = f"<html><body><p>Some text.</p>{links}</body></html>".encode()
    first = [r.url for r in sniffer.parse(HtmlResponse(page.url, body=body, request=page))]
    counted = ["http://www.x.example/0.html", "http://www.x.example/1.html"]
    assert first[:2] == counted  # the budget of 3 holds the seed and two pages
    page.meta[REDELIVERED_META] = "host:1:dead"  # its worker died before queuing them
    again = sniffer.parse(HtmlResponse(page.url, body=body, request=page))
    assert [r.url for r in again if r.meta["role"] == "page"] == counted
    page.meta.pop(REDELIVERED_META)
    assert not [
        r
        for r in sniffer.parse(HtmlResponse(page.url, body=body, request=page))
        if r.meta["role"] == "page"
    ]


def test_a_page_redelivered_after_its_worker_died_asks_again_for_its_version_sites():
    from scrapy.http import HtmlResponse

    from bilingual_spider.state.request_meta import REDELIVERED_META

    sniffer = spider(seeds="http://www.kestrel.com/")
    page = sniffer.seed_request("http://www.kestrel.com/")
    versions = {"de": "http://www.kestrel.de/handbuch.html", "fr": "http://www.kestrel.fr/"}
    head = "".join(f'<link rel="alternate" hreflang="{k}" href="{u}">' for k, u in versions.items())
    body = (
        f'<html lang="en"><head>{head}</head><body><p>The manual of the kestrel.</p>'
        "<a href='/manual.html'>Manual</a></body></html>"
    ).encode()

    def asked(response: HtmlResponse) -> list[str]:
        return sorted(
            r.url
            for r in sniffer.parse(response)
            if r.meta["role"] == "page" and "kestrel.com" not in r.url
        )

    first = asked(HtmlResponse(page.url, body=body, request=page))
    assert first == sorted([*versions.values(), "http://www.kestrel.de/"])  # and its home
    assert not asked(HtmlResponse(page.url, body=body, request=page))  # taken up once
    page.meta[REDELIVERED_META] = "host:1:dead"  # its worker died before queuing them
    again = asked(HtmlResponse(page.url, body=body, request=page))
    assert again == first


def test_a_next_round_site_counted_but_never_crawled_is_asked_for_again():
    from bilingual_spider.patterns.crawl_round import PageRecord, pair_round
    from bilingual_spider.patterns.round_state import Stage, StageState

    sniffer = spider(seeds="http://www.x.example/", next_sites=5, rounds=2)
    other = "http://www.y.example/start.html"
    sniffer.store.add_page(PageRecord.of("http://www.x.example/", "en", "text", [other]), [other])
    sniffer.store.keep_round_pairs(1, pair_round(sniffer.store.crawled()))
    # the worker that picked it died after counting it, before queuing it
    assert sniffer.store.first_sight("y.example", "round 2")
    assert sniffer.store.reserve_pages("y.example", [other], 10) == [other]
    queued = []
    sniffer.stages.crawl = queued.append
    following = sniffer.driver.next_stage(StageState(1, Stage.DEEP), sniffer.stages)
    assert following == StageState(2, Stage.CRAWL)
    assert [(r.url, r.meta["role"]) for r in queued][:1] == [(other, "page")]


def test_a_select_language_menu_is_followed() -> None:
    from scrapy.http import HtmlResponse

    from bilingual_spider.adapters.pupsniffer_pages import page_links

    page = HtmlResponse(
        "http://www.example.org/doc/",
        body=b'<html><body><a href="a.html">A</a><select><option value="">Language</option>'
        b'<option value="es/index.html">Espa\xc3\xb1ol</option><option value="2">x</option>'
        b"</select></body></html>",
        encoding="utf-8",
    )
    links = page_links(page)
    assert links.urls == [
        "http://www.example.org/doc/a.html",
        "http://www.example.org/doc/es/index.html",
    ]
    # the menu's option names its language: the page says where its Spanish version is
    assert [(a.url, a.language, a.via) for a in links.alternates] == [
        ("http://www.example.org/doc/es/index.html", "es", "switcher")
    ]


def test_a_json_body_has_no_links() -> None:
    from scrapy.http import TextResponse

    from bilingual_spider.adapters.pupsniffer_pages import page_links

    body = b'{"next": "http://www.example.org/doc/b.html", "items": []}'
    page = TextResponse("http://www.example.org/api", body=body, encoding="utf-8")
    assert page_links(page) == ([], (), None)


def test_a_print_version_names_the_page_it_copies_and_its_original_site_is_taken_up() -> None:
    from scrapy.http import HtmlResponse

    from bilingual_spider.adapters.pupsniffer_pages import page_links

    url = "http://www.x.example/print/en/analysis/1224-all-equal/"
    body = b'<html><head><link rel="canonical" href="/en/analysis/1224-all-equal/#top"></head>'
    body += b"<body><p>All are equal before the law.</p></body></html>"
    page = HtmlResponse(url, body=body)
    assert page_links(page).canonical == "http://www.x.example/en/analysis/1224-all-equal/"
    sniffer = spider(seeds="http://m.x.example/")
    seed = sniffer.seed_request("http://m.x.example/kreol/18763/dan-sak/")
    mobile = b'<html><head><link rel="canonical" href="http://www.x.example/kreol/2/"></head>'
    mobile += b"<body><p>Dan sak pei.</p></body></html>"
    asked = [r.url for r in sniffer.parse(HtmlResponse(seed.url, body=mobile, request=seed))]
    assert asked[:2] == ["http://www.x.example/kreol/2/", "http://www.x.example/kreol/"]
    assert page_links(HtmlResponse(url, body=b"<html><body>x</body></html>")).canonical is None
