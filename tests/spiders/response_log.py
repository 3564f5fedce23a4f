"""A test extension: every response of a crawl, with its role and referer, as JSON lines in
``RESPONSE_LOG_PATH`` (crawl tests assert on what was fetched, not on log lines)."""

from __future__ import annotations

import json
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler


class ResponseLog:
    def __init__(self, path: str) -> None:
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed at spider_closed

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ResponseLog:
        log = cls(crawler.settings["RESPONSE_LOG_PATH"])
        crawler.signals.connect(log.response_received, signal=signals.response_received)
        crawler.signals.connect(log.spider_closed, signal=signals.spider_closed)
        return log

    def response_received(self, response: Any, request: Any, **_: Any) -> None:
        referer = request.headers.get("Referer", b"").decode("latin-1")
        record = {
            "url": request.url,
            "role": request.meta.get("role", ""),
            "method": request.method,
            "referer": referer,
            "status": response.status,
            "redirected_from": request.meta.get("redirect_urls", []),
        }
        self.file.write(json.dumps(record) + "\n")

    def spider_closed(self) -> None:
        self.file.close()


def logged_crawl_settings(proxy_url: str, responses: Any, stats: Any) -> dict[str, Any]:
    """Settings of a crawl test through the sandbox: no delay, this extension logging every
    response to ``responses``, the final stats saved to ``stats``."""
    from bilingual_spider import settings as project_settings

    return {
        "BILINGUAL_SANDBOX_PROXY": proxy_url,
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "EXTENSIONS": {
            **project_settings.EXTENSIONS,
            "tests.spiders.response_log.ResponseLog": 0,
            "tests.distributed.start_barrier.StartBarrier": 0,  # off without START_BARRIER_KEY
        },
        "RESPONSE_LOG_PATH": responses,
        "BILINGUAL_STATS_FILE": stats,
    }


def logged_crawl(
    spider: str,
    proxy_url: str,
    directory: Any,
    settings: dict[str, Any] | None = None,
    arguments: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``scrapy crawl SPIDER`` through the sandbox with :func:`logged_crawl_settings` (and
    ``settings``): its ``responses``, final ``stats`` and ``items``, read from ``directory``."""
    from pathlib import Path

    from bilingual_spider.sandbox.process import run_spider
    from tests.waiting import CRAWL_SECONDS

    directory = Path(directory)
    files = {name: directory / f"{name}.jsonl" for name in ("responses", "items")}
    stats = directory / "stats.json"
    result = run_spider(
        spider,
        settings={
            **logged_crawl_settings(proxy_url, files["responses"], stats),
            **(settings or {}),
        },
        arguments=arguments,
        output=files["items"],
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    read = {
        name: [json.loads(line) for line in path.read_text().splitlines()]
        for name, path in files.items()
    }
    return {**read, "stats": json.loads(stats.read_text())}
