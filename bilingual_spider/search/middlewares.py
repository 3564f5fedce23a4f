"""The search service's two downloader middlewares: the adapters of Scrapy's download path to
:class:`~bilingual_spider.search.service.SearchService` (enabled in ``settings.py``)."""

from __future__ import annotations

from scrapy import Request
from scrapy.core.downloader.handlers import DownloadHandlers
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from bilingual_spider.search.calls import SEARCH_CALL, SEARCH_PAGE
from bilingual_spider.search.service import SearchService


class SearchDownloadMiddleware:
    """Downloader middleware (order 995: after the proxy and the credentials, the last before
    the download) that downloads search calls itself, with the crawl's download handlers, as
    tasks the service cancels when the crawl stops (see :meth:`SearchService.download`)."""

    def __init__(self, service: SearchService, handlers: DownloadHandlers) -> None:
        self.service, self.handlers = service, handlers

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchDownloadMiddleware:
        service = crawler.get_extension(SearchService)
        if service is None:
            raise NotConfigured("the search service extension is not enabled")
        return cls(service, DownloadHandlers(crawler))

    async def process_request(self, request: Request) -> Response | None:
        if SEARCH_CALL not in request.meta or not request.url.startswith(("http:", "https:")):
            return None
        return await self.service.download(request, self.handlers.download_request_async)


class SearchMiddleware:
    """Downloader middleware (order 40, before network safety and robots.txt: cached and local
    answers never touch the network) that runs the service's hooks for search requests."""

    def __init__(self, service: SearchService) -> None:
        self.service = service

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchMiddleware:
        service = crawler.get_extension(SearchService)
        if service is None:
            raise NotConfigured("the search service extension is not enabled")
        return cls(service)

    async def process_request(self, request: Request) -> Response | None:
        if SEARCH_CALL not in request.meta:
            return None
        return await self.service.before_download(request)

    def process_response(self, request: Request, response: Response) -> Response | Request:
        if SEARCH_CALL not in request.meta:
            return response
        return self.service.after_download(request, response)

    def process_exception(
        self, request: Request, exception: Exception
    ) -> Response | Request | None:
        if SEARCH_CALL not in request.meta or SEARCH_PAGE in request.meta:
            return None
        return self.service.on_exception(request, exception)
