import asyncio
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector

from bilingual_spider import settings as project_settings
from bilingual_spider.middlewares.network_safety import NetworkGuard
from bilingual_spider.middlewares.rendering import (
    PLAYWRIGHT_HANDLER,
    RENDER_META,
    BrowserRequestFilter,
    RenderingAddon,
    RenderingMiddleware,
    browser_path,
)
from tests.crawlers import get_crawler

SPA = b'<html><body><div id="app"></div><script src="/app.js"></script></body></html>'
PLAIN = b'<html><body><a href="/a.html">A</a><a href="/fr/">Fran\xc3\xa7ais</a><script>t()</script>'


def middleware(check_pages: int = 3) -> RenderingMiddleware:
    return RenderingMiddleware(MemoryStatsCollector(get_crawler()), check_pages)


def answer(request: Request, body: bytes, status: int = 200) -> HtmlResponse:
    return HtmlResponse(request.url, status=status, body=body, encoding="utf-8", request=request)


def test_a_site_whose_links_a_script_builds_is_asked_again_through_the_browser():
    mw = middleware()
    first = Request("http://spa.example/")
    again = mw.process_response(first, answer(first, SPA))
    assert isinstance(again, Request) and again.meta[RENDER_META] and again.dont_filter
    later = Request("http://spa.example/about")
    mw.process_request(later)
    assert later.meta[RENDER_META]
    assert mw.process_response(again, answer(again, PLAIN)).status == 200
    stats = mw.stats.get_stats()
    assert stats["render/sites"] == 1
    assert stats["render/reason/no_links"] == 1
    assert stats["render/pages"] == 1
    assert stats["render/pages_by_reason/no_links"] == 1


@pytest.mark.parametrize(
    "request_",
    [
        Request("http://spa.example/", method="HEAD"),  # a probe of whether a page exists
        Request("http://spa.example/robots.txt", meta={"dont_obey_robotstxt": True}),
        Request("http://spa.example/sitemap.xml", meta={"sitemap_file": True}),
    ],
)
def test_probes_robots_and_sitemaps_are_never_rendered(request_):
    mw = middleware()
    assert mw.process_response(request_, answer(request_, SPA)).status == 200
    assert not mw.stats.get_stats()


def test_a_plain_site_is_never_rendered_and_read_only_for_its_first_pages():
    mw = middleware(check_pages=2)
    for k in range(2):
        request = Request(f"http://plain.example/{k}")
        assert mw.process_response(request, answer(request, PLAIN)).status == 200
    late = Request("http://plain.example/late")
    assert mw.process_response(late, answer(late, SPA)).status == 200  # no longer read
    gone = Request("http://other.example/")
    assert mw.process_response(gone, answer(gone, SPA, status=404)).status == 404
    mw.process_request(Request("http://plain.example/next"))
    assert not mw.stats.get_stats()


def test_a_failed_rendering_is_downloaded_plainly_and_counted():
    mw = middleware()
    request = Request("http://spa.example/", meta={RENDER_META: True})
    plain = mw.process_exception(request, TimeoutError())
    assert isinstance(plain, Request) and not plain.meta[RENDER_META]
    assert mw.process_response(plain, answer(plain, SPA)).status == 200  # not asked again
    assert mw.stats.get_stats() == {"render/failed": 1}


def settings(**values) -> Settings:
    result = Settings()
    result.setmodule(project_settings, priority="project")
    result.update(values, priority="cmdline")
    return result


def test_the_addon_changes_nothing_while_rendering_is_off():
    off = settings()
    RenderingAddon().update_settings(off)
    assert PLAYWRIGHT_HANDLER not in off.getdict("DOWNLOAD_HANDLERS").values()
    assert not off.get("PLAYWRIGHT_LAUNCH_OPTIONS")


@pytest.fixture
def rendering_on(tmp_path) -> tuple[Settings, str]:
    """Project settings with rendering on through the sandbox proxy, after the addon ran, and
    the (fake) browser it found."""
    browser = tmp_path / "chromium"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    on = settings(
        BILINGUAL_RENDER_JS=True,
        BILINGUAL_RENDER_BROWSER=str(browser),
        BILINGUAL_SANDBOX_PROXY="http://127.0.0.1:9",
    )
    RenderingAddon().update_settings(on)
    return on, str(browser)


def test_the_addon_launches_the_browser_found_through_the_sandbox_proxy(rendering_on):
    on, browser = rendering_on
    assert on.getdict("DOWNLOAD_HANDLERS")["http"] == PLAYWRIGHT_HANDLER
    options = on.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
    assert options["executable_path"] == browser
    assert options["proxy"] == {"server": "http://127.0.0.1:9"}


def test_the_addon_has_the_browser_refuse_what_network_safety_refuses(rendering_on):
    on, _ = rendering_on
    browser_filter = on.get("PLAYWRIGHT_ABORT_REQUEST")
    assert isinstance(browser_filter, BrowserRequestFilter)
    assert browser_filter.guard.sandbox  # the crawl's own network safety settings
    crawler = get_crawler(
        settings_dict={"BILINGUAL_RENDER_JS": True, "PLAYWRIGHT_ABORT_REQUEST": browser_filter}
    )
    RenderingMiddleware.from_crawler(crawler)
    counting = crawler.settings.get("PLAYWRIGHT_ABORT_REQUEST")  # what scrapy-playwright loads
    assert counting.stats is crawler.stats  # refusals are counted in the crawl's stats


@pytest.mark.parametrize(
    ("url", "resource_type", "refused"),
    [
        ("http://www.example.org/app.js", "script", None),  # any name: the sandbox proxy's
        ("http://www.example.org/logo.png", "image", "skipped"),
        ("http://127.0.0.1:6379/", "fetch", "loopback"),
        ("http://[::ffff:169.254.169.254]/latest/meta-data/", "xhr", "link_local"),
        ("http://10.1.2.3/allowed", "fetch", None),  # BILINGUAL_ALLOWED_NETWORKS
        ("http://192.168.1.1/", "document", "private"),
        ("file:///etc/passwd", "fetch", "scheme"),
    ],
)
def test_the_browser_fetches_neither_images_nor_what_a_link_could_not_reach(
    url, resource_type, refused
):
    stats = MemoryStatsCollector(get_crawler())
    browser_filter = BrowserRequestFilter(
        NetworkGuard(allowed_networks=["10.1.0.0/16"], sandbox=True)
    )
    browser_filter.count_in(stats)
    request = SimpleNamespace(url=url, resource_type=resource_type)
    assert asyncio.run(browser_filter(request)) is (refused is not None)
    counted = {key: n for key, n in stats.get_stats().items() if key.startswith("render/")}
    assert counted == ({} if refused in (None, "skipped") else {f"render/refused/{refused}": 1})


def test_no_browser_is_a_one_line_error():
    with pytest.raises(ValueError, match="no browser 'no-such-browser' was found") as error:
        browser_path("no-such-browser")
    assert "\n" not in str(error.value)
