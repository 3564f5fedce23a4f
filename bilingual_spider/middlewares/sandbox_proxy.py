"""Send every plain-http request through the sandbox web's proxy (``BILINGUAL_SANDBOX_PROXY``).

Scrapy's HttpProxyMiddleware then writes absolute URIs, never resolves the (fake) host names, and
keeps a download slot per host, so per-host politeness works as on the real web.

A sandbox started a moment before the crawl (``bilingual-spider sandbox serve ... &``) may still
be loading its sites: the crawl waits for it to answer, up to ``BILINGUAL_SANDBOX_WAIT`` seconds,
before its first request, and says so once; one that never answers stops the crawl with a clear
error instead of failing every request.
"""

from __future__ import annotations

import logging
import time
import urllib.error
import urllib.request

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)


def sandbox_answers(proxy_url: str, timeout: float = 2.0) -> bool:
    """Whether the sandbox at ``proxy_url`` answers its control page."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({"http": proxy_url}))
    try:
        with opener.open("http://sandbox.internal/_stats", timeout=timeout):
            return True
    except (OSError, urllib.error.URLError):
        return False


def wait_for_sandbox(proxy_url: str, seconds: float) -> None:
    """Return once the sandbox answers; a ValueError naming it after ``seconds``."""
    deadline = time.monotonic() + seconds
    said = False
    while not sandbox_answers(proxy_url):
        if time.monotonic() > deadline:
            raise ValueError(
                f"no sandbox web answers at {proxy_url} (BILINGUAL_SANDBOX_PROXY) after "
                f"{seconds:.0f} s: start one with bilingual-spider sandbox serve"
            )
        if not said:
            logger.info("waiting for the sandbox web at %s", proxy_url)
            said = True
        time.sleep(0.25)


class SandboxProxyMiddleware:
    def __init__(self, proxy_url: str) -> None:
        self.proxy_url = proxy_url

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SandboxProxyMiddleware:
        proxy_url = crawler.settings.get("BILINGUAL_SANDBOX_PROXY")
        if not proxy_url:
            raise NotConfigured
        wait_for_sandbox(proxy_url, crawler.settings.getfloat("BILINGUAL_SANDBOX_WAIT"))
        return cls(proxy_url)

    def process_request(self, request: Request) -> None:
        if request.url.startswith("http:"):
            request.meta.setdefault("proxy", self.proxy_url)
