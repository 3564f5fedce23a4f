"""The sitemap middleware with a fake downloader: what it asks for, in what order, and what it
puts on responses."""

import asyncio
import gzip
from collections import Counter

from scrapy import Request
from scrapy.http import Response

from bilingual_spider.middlewares.sitemaps import DONT_READ_META, SITEMAP_META, SitemapMiddleware

SITE = "http://x.org"
URLSET = (
    b'<urlset xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>/en/a</loc>'
    b'<xhtml:link rel="alternate" hreflang="fr" href="/fr/b"/></url>'
    b"<url><loc>/en/c</loc></url></urlset>"
)


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1) -> None:
        self.values[key] += count


def middleware(files: dict[str, tuple[int, bytes]], max_files: int = 10):
    asked: list[str] = []

    async def download(request: Request) -> Response:
        asked.append(request.url)
        if request.url not in files:
            return Response(request.url, status=404, body=b"not found", request=request)
        status, body = files[request.url]
        if status < 0:
            raise ConnectionError("reset")
        return Response(request.url, status=status, body=body, request=request)

    stats = Stats()
    return SitemapMiddleware(download, stats, max_files, 1_000_000), asked, stats


def fetched(mw: SitemapMiddleware, url: str, **meta) -> Request:
    request = Request(url, meta=meta)
    asyncio.run(mw.process_request(request))
    mw.process_response(request, Response(url, request=request))
    return request


def test_robots_index_and_gzip_files_read_once_per_host():
    index = b"<sitemapindex><sitemap><loc>/s/pages.xml.gz</loc></sitemap></sitemapindex>"
    mw, asked, stats = middleware(
        {
            f"{SITE}/robots.txt": (200, b"User-agent: *\nSitemap: /s/index.xml\n"),
            f"{SITE}/s/index.xml": (200, index),
            f"{SITE}/s/pages.xml.gz": (200, gzip.compress(URLSET)),
        }
    )
    first = fetched(mw, f"{SITE}/")
    second = fetched(mw, f"{SITE}/en/a")
    assert asked == [f"{SITE}/robots.txt", f"{SITE}/s/index.xml", f"{SITE}/s/pages.xml.gz"]
    assert first.meta[SITEMAP_META] is second.meta[SITEMAP_META]
    assert second.meta[SITEMAP_META].alternates_of(f"{SITE}/en/a") == (("fr", f"{SITE}/fr/b"),)
    assert stats.values["sitemaps/files/sitemapindex"] == 1
    assert stats.values["sitemaps/pages_listed"] == 2


def test_without_a_sitemap_line_sitemap_xml_is_tried_and_failures_cost_their_file():
    mw, asked, stats = middleware(
        {f"{SITE}/robots.txt": (-1, b""), f"{SITE}/sitemap.xml": (200, b"<html>moved</html>")}
    )
    request = fetched(mw, f"{SITE}/")
    assert asked == [f"{SITE}/robots.txt", f"{SITE}/sitemap.xml"]
    assert SITEMAP_META not in request.meta  # nothing listed: nothing put on responses
    assert stats.values["sitemaps/files/invalid"] == 1


def test_files_beyond_the_limit_are_not_asked():
    index = (
        b"<sitemapindex>"
        + b"".join(b"<sitemap><loc>/s%d.xml</loc></sitemap>" % k for k in range(5))
        + b"</sitemapindex>"
    )
    files = {f"{SITE}/robots.txt": (200, b"Sitemap: /index.xml"), f"{SITE}/index.xml": (200, index)}
    files.update({f"{SITE}/s{k}.xml": (200, URLSET) for k in range(5)})
    mw, asked, stats = middleware(files, max_files=3)
    fetched(mw, f"{SITE}/")
    assert len(asked) == 1 + 3
    assert stats.values["sitemaps/files_skipped"] == 3


def test_robots_requests_and_opted_out_requests_read_nothing():
    mw, asked, _ = middleware({})
    fetched(mw, f"{SITE}/robots.txt")
    fetched(mw, f"{SITE}/", **{DONT_READ_META: True})
    fetched(mw, f"{SITE}/x", dont_obey_robotstxt=True)
    assert asked == []


def test_no_more_files_once_a_host_lists_enough_pages(monkeypatch):
    monkeypatch.setattr("bilingual_spider.middlewares.sitemaps.MAX_SITEMAP_URLS", 2)
    robots = b"Sitemap: /a.xml\nSitemap: /b.xml\n"
    files = {f"{SITE}/robots.txt": (200, robots), f"{SITE}/a.xml": (200, URLSET)}
    files[f"{SITE}/b.xml"] = (200, URLSET)
    mw, asked, stats = middleware(files)
    fetched(mw, f"{SITE}/")
    assert asked == [f"{SITE}/robots.txt", f"{SITE}/a.xml"]  # a.xml lists 2 pages
    assert stats.values["sitemaps/files_skipped"] == 1
