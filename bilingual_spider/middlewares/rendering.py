"""Render with a headless browser the pages of the sites whose links a script builds
(``BILINGUAL_RENDER_JS``, off by default; ``docs/rendering.md``).

Two parts, both inert while the setting is off:

- :class:`RenderingAddon` (``ADDONS``) routes ``http``/``https`` downloads to scrapy-playwright's
  download handler and launches the browser Debian ships (``BILINGUAL_RENDER_BROWSER``, found on
  ``PATH``, never one Playwright downloads). scrapy-playwright downloads a request without
  ``meta["playwright"]`` with Scrapy's own handler, so plain pages cost what they did.
- :class:`RenderingMiddleware` reads the raw HTML of a site's first pages
  (``BILINGUAL_RENDER_CHECK_PAGES``) with
  :func:`~bilingual_spider.links.script_links.render_reason`. A page that needs a browser is
  asked again through it (``meta["playwright"] = True``), and so are the site's later pages.
  Stats: ``render/sites`` (sites switched to the browser), ``render/reason/<reason>`` (sites,
  by why), ``render/pages`` (pages the browser rendered) and ``render/pages_by_reason/<reason>``
  (the same, by why their site is rendered; ``asked`` for a request a spider sent with
  ``meta["playwright"]`` itself), ``render/failed`` (renderings that failed; the page is then
  downloaded plainly).

Scripts run by the browser fetch their own files (scripts, styles, data); those requests do not
go through Scrapy's middlewares, but the crawl's network safety refuses them as it refuses a link
(:class:`BrowserRequestFilter`; robots.txt is not asked for them), and images, media and fonts are
not fetched at all.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.settings import BaseSettings

from bilingual_spider.links.script_links import render_reason
from bilingual_spider.middlewares.network_safety import NetworkGuard
from bilingual_spider.response_page import response_page

if TYPE_CHECKING:
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

RENDER_META = "playwright"
"""``Request.meta`` key scrapy-playwright reads: download this request with the browser."""
FAILED_META = "render_failed"
"""``Request.meta`` key: the browser failed on this page; it is downloaded plainly."""
PLAYWRIGHT_HANDLER = "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler"
ADDON_PRIORITY = "addon"
SKIPPED_RESOURCES = frozenset({"image", "media", "font"})


class BrowserRequestFilter:
    """``PLAYWRIGHT_ABORT_REQUEST``: which of the requests the browser makes itself (a page's
    scripts, styles, data; the pages it is sent to) are aborted. Images, media and fonts, which
    no link is read from; and every request the crawl's network safety refuses
    (:class:`~bilingual_spider.middlewares.network_safety.NetworkGuard`: a script must not reach
    the network the crawler runs in where a link could not), counted as
    ``render/refused/<reason>`` once :meth:`count_in` has the crawl's stats."""

    def __init__(self, guard: NetworkGuard) -> None:
        self.guard = guard
        self.stats: StatsCollector | None = None

    def count_in(self, stats: StatsCollector) -> None:
        self.stats = stats

    async def __call__(self, request: Any) -> bool:
        if request.resource_type in SKIPPED_RESOURCES:
            return True
        reason = await self.guard.reason(request.url)
        if reason is None:
            return False
        if self.stats is not None:
            self.stats.inc_value(f"render/refused/{reason}")
        logger.info("the browser's request %s refused (%s)", request.url, reason)
        return True


def browser_path(name: str) -> str:
    """The browser's executable: ``name`` if it is a path to one, else found on ``PATH``; a
    one-line ValueError when there is none."""
    found = shutil.which(name)
    if not found:
        raise ValueError(
            f"BILINGUAL_RENDER_JS is on but no browser {name!r} was found "
            "(BILINGUAL_RENDER_BROWSER): install Debian's chromium (apt-get install chromium)"
        )
    return found


def launch_options(settings: BaseSettings) -> dict[str, Any]:
    """``PLAYWRIGHT_LAUNCH_OPTIONS``: Debian's browser, headless; through the sandbox web's proxy
    when there is one (the browser does not read Scrapy's ``meta["proxy"]``)."""
    options: dict[str, Any] = {
        "executable_path": browser_path(settings.get("BILINGUAL_RENDER_BROWSER")),
        "headless": True,
        # root in a container: Chromium's own sandbox needs namespaces it is not given
        "chromium_sandbox": False,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    }
    proxy = settings.get("BILINGUAL_SANDBOX_PROXY")
    if proxy:
        options["proxy"] = {"server": proxy}
    return options


class RenderingAddon:
    """With ``BILINGUAL_RENDER_JS``: scrapy-playwright's download handler and Debian's browser.
    Settings given on the command line (``-s PLAYWRIGHT_...``) win."""

    def update_settings(self, settings: BaseSettings) -> None:
        if not settings.getbool("BILINGUAL_RENDER_JS"):
            return
        if importlib.util.find_spec("scrapy_playwright") is None:
            raise ValueError(
                "BILINGUAL_RENDER_JS is on but scrapy-playwright is not installed: "
                "pip install 'bilingual-spider[render]'"
            )
        handlers = dict(settings.getdict("DOWNLOAD_HANDLERS"))
        handlers.update({"http": PLAYWRIGHT_HANDLER, "https": PLAYWRIGHT_HANDLER})
        settings.set("DOWNLOAD_HANDLERS", handlers, priority=ADDON_PRIORITY)
        defaults = {
            "PLAYWRIGHT_LAUNCH_OPTIONS": launch_options(settings),
            "PLAYWRIGHT_BROWSER_TYPE": "chromium",
            "PLAYWRIGHT_ABORT_REQUEST": BrowserRequestFilter(NetworkGuard.from_settings(settings)),
            "PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT": settings.getfloat("BILINGUAL_RENDER_TIMEOUT")
            * 1000,
        }
        for name, value in defaults.items():
            if settings.getpriority(name) in (None, 0):
                settings.set(name, value, priority=ADDON_PRIORITY)
        logger.info(
            "rendering: sites whose links a script builds are rendered by %s",
            settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS").get("executable_path"),
        )


class RenderingMiddleware:
    """Send to the browser the pages of the sites whose raw HTML needs it."""

    def __init__(self, stats: StatsCollector, check_pages: int) -> None:
        self.stats = stats
        self.check_pages = check_pages
        self.rendered_hosts: dict[str, str] = {}
        """host -> why its pages are rendered"""
        self.checked = Counter[str]()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderingMiddleware:
        if not crawler.settings.getbool("BILINGUAL_RENDER_JS"):
            raise NotConfigured
        assert crawler.stats is not None
        browser_filter = crawler.settings.get("PLAYWRIGHT_ABORT_REQUEST")
        if isinstance(browser_filter, BrowserRequestFilter):
            browser_filter.count_in(crawler.stats)
        return cls(crawler.stats, crawler.settings.getint("BILINGUAL_RENDER_CHECK_PAGES"))

    def process_request(self, request: Request) -> None:
        if self._is_page(request) and _host(request.url) in self.rendered_hosts:
            request.meta[RENDER_META] = True

    def process_response(self, request: Request, response: Response) -> Request | Response:
        if request.meta.get(RENDER_META):
            self.stats.inc_value("render/pages")
            reason = self.rendered_hosts.get(_host(request.url), "asked")
            self.stats.inc_value(f"render/pages_by_reason/{reason}")
            return response
        if not self._is_page(request) or not isinstance(response, HtmlResponse):
            return response
        if response.status != 200:
            return response
        host = _host(request.url)
        if host not in self.rendered_hosts:
            if self.checked[host] >= self.check_pages:
                return response
            self.checked[host] += 1
            reason = render_reason(response_page(response))  # the parse the spider reads
            if reason is None:
                return response
            self._switch(host, reason, request.url)
        # asked before its site was switched, or the page that switched it: ask it again
        return request.replace(meta={**request.meta, RENDER_META: True}, dont_filter=True)

    def process_exception(self, request: Request, exception: Exception) -> Request | None:
        if not request.meta.get(RENDER_META):
            return None
        self.stats.inc_value("render/failed")
        logger.warning(
            "rendering %s failed (%r): downloaded without the browser", request.url, exception
        )
        meta = {**request.meta, RENDER_META: False, FAILED_META: True}
        return request.replace(meta=meta, dont_filter=True)

    def _switch(self, host: str, reason: str, url: str) -> None:
        self.rendered_hosts[host] = reason
        self.stats.inc_value("render/sites")
        self.stats.inc_value(f"render/reason/{reason}")
        logger.info("rendering the pages of %s with the browser: %s (%s)", host, reason, url)

    @staticmethod
    def _is_page(request: Request) -> bool:
        """A page the spider asked for (GET; a HEAD is a probe of whether a page exists): not a
        robots.txt, not a sitemap file, not a page the browser failed on."""
        meta = request.meta
        return request.method == "GET" and not (
            meta.get("dont_obey_robotstxt") or meta.get("sitemap_file") or meta.get(FAILED_META)
        )


def _host(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()
