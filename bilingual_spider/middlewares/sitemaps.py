"""Downloader middleware: each site's sitemaps read once, before its first page, and what they
say of a page put on its response (``BILINGUAL_SITEMAPS``).

The first request of a host (a GET; not ``robots.txt``, not one carrying
``meta["dont_read_sitemap"]``) waits, as Scrapy's robots.txt middleware makes it wait for the
host's rules, while this middleware reads the host's sitemaps (requests of the host made
meanwhile do not wait, and their responses carry none): its ``robots.txt``'s ``Sitemap:``
lines, else ``/sitemap.xml``, and the files a sitemap index lists, breadth-first, at most
``BILINGUAL_SITEMAPS_MAX_FILES`` files of at most ``BILINGUAL_SITEMAPS_MAX_BYTES`` each, and
no more files once 50,000 pages are listed (what a host's sitemaps keep in memory)
(:mod:`bilingual_spider.links.sitemaps` reads them: gzip or not, broken XML read as far as it
goes; a file that fails costs that file). Those requests go through the whole downloader chain
(robots.txt rules, per-host delay and concurrency, the sandbox proxy) with a high priority, and
count in no spider's page budget: a site's sitemaps cost ``1 + files`` requests (its
``robots.txt`` is asked once more, by this middleware, than Scrapy's middleware asks it).

Every response of the host from then on carries, in ``meta``, the host's :class:`SiteSitemap`
(``SITEMAP_META``) when it listed anything; a spider reads it there (``pupsniffer``: the pages in
its translation groups asked first, its hreflang alternates as pairs of their own, judged as
any pair). Several workers each read a host's sitemaps once.

Stats under ``sitemaps/``: ``hosts``, ``requests``, ``files/<kind>`` (urlset, sitemapindex, text,
invalid), ``files_failed``, ``files_cut`` (a file larger than the limit), ``files_skipped``
(over ``MAX_FILES``), ``pages_listed``, ``pages_with_alternates``.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.httpobj import urlparse_cached

from bilingual_spider.links.sitemaps import (
    MAX_SITEMAP_URLS,
    SiteSitemap,
    default_sitemap_url,
    parse_sitemap,
    sitemaps_from_robots,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.statscollectors import StatsCollector

logger = logging.getLogger(__name__)

SITEMAP_META = "sitemap"
"""``Response.meta`` key of the host's :class:`SiteSitemap` (absent when it listed nothing)."""
DONT_READ_META = "dont_read_sitemap"
"""``Request.meta`` key: this request does not make its host's sitemaps be read."""
OWN_META = "sitemap_file"
"""``Request.meta`` key of this middleware's own requests."""
DOWNLOAD_PRIORITY = 1000


class SitemapMiddleware:
    def __init__(
        self,
        download: Callable[[Request], Awaitable[Response]],
        stats: StatsCollector,
        max_files: int,
        max_bytes: int,
    ) -> None:
        self.download = download
        self.stats = stats
        self.max_files = max_files
        self.max_bytes = max_bytes
        self._sites: dict[str, SiteSitemap | None] = {}
        """Each host's sitemaps (None: none, or being read)."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SitemapMiddleware:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_SITEMAPS"):
            raise NotConfigured

        def download(request: Request) -> Awaitable[Response]:
            assert crawler.engine is not None
            return crawler.engine.download_async(request)

        return cls(
            download,
            crawler.stats,
            settings.getint("BILINGUAL_SITEMAPS_MAX_FILES"),
            settings.getint("BILINGUAL_SITEMAPS_MAX_BYTES"),
        )

    async def process_request(self, request: Request) -> None:
        """The first request of a host waits while its sitemaps are read; the others of the
        host go on meanwhile (their responses carry no sitemap)."""
        if not self._reads_for(request):
            return
        origin = _origin(request)
        if origin in self._sites:
            return
        self._sites[origin] = None
        try:
            self._sites[origin] = await self._read_site(origin)
        except Exception:  # a bug here must cost the host's sitemaps, not its first page
            logger.exception("sitemaps of %s could not be read", origin)
            self.stats.inc_value("sitemaps/hosts_failed")

    def process_response(self, request: Request, response: Response) -> Response:
        read = self._sites.get(_origin(request))
        if isinstance(read, SiteSitemap) and not request.meta.get(OWN_META):
            # the response's meta is its request's; a redirect (RedirectMiddleware, 600, sees
            # the response first) made its new request already, without it
            request.meta[SITEMAP_META] = read
        return response

    def _reads_for(self, request: Request) -> bool:
        parts = urlparse_cached(request)
        return (
            request.method == "GET"
            and parts.scheme in ("http", "https")
            and parts.path != "/robots.txt"
            and not request.meta.get(OWN_META)
            and not request.meta.get(DONT_READ_META)
            and not request.meta.get("dont_obey_robotstxt")
        )

    async def _read_site(self, origin: str) -> SiteSitemap | None:
        """The host's sitemaps, read breadth-first (an index's files after it); None when none
        could be read or they list nothing."""
        self.stats.inc_value("sitemaps/hosts")
        robots_url = f"{origin}/robots.txt"
        robots = await self._fetch(robots_url)
        announced = []
        if robots is not None and robots.status == 200:
            announced = sitemaps_from_robots(_text(robots.body), robots_url)
        queue = deque(announced or [default_sitemap_url(origin + "/")])
        seen = set(queue)
        site = SiteSitemap()
        fetched = 0
        while queue:
            url = queue.popleft()
            if fetched >= self.max_files or site.page_count >= MAX_SITEMAP_URLS:
                self.stats.inc_value("sitemaps/files_skipped", len(queue) + 1)
                break
            fetched += 1
            response = await self._fetch(url)
            if response is None or response.status != 200:
                self.stats.inc_value("sitemaps/files_failed")
                continue
            read = parse_sitemap(response.body, response.url, self.max_bytes)
            self.stats.inc_value(f"sitemaps/files/{read.kind}")
            if read.error == "too_large":
                self.stats.inc_value("sitemaps/files_cut")
            site.add(read)
            for child in read.sitemaps:
                if child not in seen:
                    seen.add(child)
                    queue.append(child)
        listed = site.pages
        if not listed and not site.paired_pages():
            return None
        self.stats.inc_value("sitemaps/pages_listed", len(listed))
        named = sum(len(f.alternates) for f in site.files)
        self.stats.inc_value("sitemaps/pages_with_alternates", named)
        logger.info(
            "sitemaps of %s: %d files, %d pages, %d with translations named",
            origin,
            fetched,
            len(listed),
            named,
        )
        return site

    async def _fetch(self, url: str) -> Response | None:
        request = Request(
            url,
            callback=NO_CALLBACK,
            priority=DOWNLOAD_PRIORITY,
            meta={
                OWN_META: True,
                "download_maxsize": self.max_bytes,
            },
        )
        self.stats.inc_value("sitemaps/requests")
        try:
            return await self.download(request)
        except Exception as exc:  # any failure costs this file, never the crawl
            logger.debug("sitemap %s failed: %r", url, exc)
            return None


def _origin(request: Request) -> str:
    parts = urlparse_cached(request)
    return f"{parts.scheme}://{parts.netloc}"


def _text(body: bytes) -> str:
    return body.decode("utf-8", "replace")
