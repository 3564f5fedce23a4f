"""Send every plain-http request through the sandbox web's proxy (``BILINGUAL_SANDBOX_PROXY``).

Scrapy's HttpProxyMiddleware then writes absolute URIs, never resolves the (fake) host names, and
keeps a download slot per host, so per-host politeness works as on the real web.
"""

from __future__ import annotations

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured


class SandboxProxyMiddleware:
    def __init__(self, proxy_url: str) -> None:
        self.proxy_url = proxy_url

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SandboxProxyMiddleware:
        proxy_url = crawler.settings.get("BILINGUAL_SANDBOX_PROXY")
        if not proxy_url:
            raise NotConfigured
        return cls(proxy_url)

    def process_request(self, request: Request) -> None:
        if request.url.startswith("http:"):
            request.meta.setdefault("proxy", self.proxy_url)
