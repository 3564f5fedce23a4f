"""``scrapy crawl detect -a seeds=URL,URL``: judge each given site with the bilingual-site
detector (Barbosa et al. 2011, section 2.1) and emit one
:class:`~bilingual_spider.items.SiteVerdictItem` per site (``-O verdicts.jsonl``).

It fetches each site's first page and the detector's probes, nothing else. The detector's
settings are ``BILINGUAL_DETECTOR_*`` (see ``settings.py``); ``bilingual-spider detect`` is the
command-line front end (:func:`detect_sites`).

With ``-s JOBDIR=DIR`` it resumes after a kill as ``backforth`` does
(:mod:`bilingual_spider.scheduler.crash_safe_scheduler`): its state is the detector's sites under
way and verdicts, and how many of its seeds it handed out.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.http import Response
from twisted.python.failure import Failure

from bilingual_spider.adapters.site_detection import DetectorCallbacks
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.seeds import announced
from bilingual_spider.spiders.forward import default_or_given_seeds


class DetectSpider(DetectorCallbacks, scrapy.Spider):
    name = "detect"
    item_types = (SiteVerdictItem,)
    """What it makes: their feeds are in a run directory even when empty."""
    custom_settings = {"BILINGUAL_CRASH_SAFE_FRONTIER": True}  # with JOBDIR: resumed after a kill
    carried_stats = ("detector/",)
    """Counters a crawl resumed from ``JOBDIR`` carries on from where they were saved."""

    def __init__(
        self,
        seeds: str | None = None,
        seed_urls: Sequence[str] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seeds_argument = seeds
        self.seed_urls: list[str] = list(seed_urls or [])
        self.seeds_given = 0  # seeds handed to the frontier (a resumed crawl skips them)

    def run_parameters(self) -> dict[str, Any]:
        """What this crawl is (the report's header)."""
        return {"seeds": len(self.seed_urls)}

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> DetectSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        if not spider.seed_urls:
            spider.seed_urls = default_or_given_seeds(spider.seeds_argument, crawler)
        spider.bind_detection(crawler)
        return spider

    def crawl_state(self) -> dict[str, Any]:
        """What a ``JOBDIR`` keeps besides the frontier (see the module docstring)."""
        return {"sites": self.detection.store, "seeds_given": self.seeds_given}

    def restore_crawl_state(self, parts: dict[str, Any]) -> None:
        self.detection.store = parts["sites"]
        self.seeds_given = parts["seeds_given"]

    async def start(self) -> AsyncIterator[scrapy.Request]:
        for number, url in enumerate(announced(self.seed_urls)):
            if number < self.seeds_given:
                continue  # queued (or done) before a kill; counted once the next is asked for
            if number:
                self.seeds_given = number  # the seed before was taken by the frontier
            yield scrapy.Request(
                url,
                callback=self.parse,
                errback=self.first_page_failed,
                dont_filter=True,
                meta={"role": "seed"},
            )
        self.seeds_given = len(self.seed_urls)

    def parse(self, response: Response) -> Iterator[Any]:
        yield from self.detection.examine(response)

    def first_page_failed(self, failure: Failure) -> Iterator[Any]:
        yield from self.detection.first_page_failed(failure)


def detect_sites(
    urls: Sequence[str],
    settings: Mapping[str, object] | None = None,
    on_verdict: Callable[[SiteVerdictItem], None] | None = None,
) -> dict[str, Any]:
    """Run the ``detect`` spider on ``urls`` in this process, with the project's settings and
    ``settings`` on top; ``on_verdict`` gets each verdict as it is reached. Returns the crawl's
    stats. Once per process: Twisted's reactor cannot be restarted."""
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "bilingual_spider.settings")
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    project = get_project_settings()
    project.setdict(dict(settings or {}), priority="cmdline")
    process = CrawlerProcess(project)
    crawler = process.create_crawler(DetectSpider)
    if on_verdict is not None:

        def scraped(item: Any, **_: Any) -> None:
            if isinstance(item, SiteVerdictItem):
                on_verdict(item)

        crawler.signals.connect(scraped, signal=signals.item_scraped, weak=False)
    failures: list[Failure] = []
    process.crawl(crawler, seed_urls=list(urls)).addErrback(failures.append)
    process.start()
    if failures:
        raise RuntimeError(f"the crawl failed: {failures[0].getErrorMessage()}")
    assert crawler.stats is not None
    return crawler.stats.get_stats()
