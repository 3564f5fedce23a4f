"""``scrapy crawl detect -a seeds=URL,URL``: judge each given site with the bilingual-site
detector (Barbosa et al. 2011, section 2.1) and emit one
:class:`~bilingual_spider.items.SiteVerdictItem` per site (``-O verdicts.jsonl``).

It fetches each site's first page and the detector's probes, nothing else. The detector's
settings are ``BILINGUAL_DETECTOR_*`` (see ``settings.py``); ``bilingual-spider detect`` is the
command-line front end (:func:`detect_sites`).

With ``-s JOBDIR=DIR`` it resumes after a kill: its state is in stores kept with the frontier
and committed with it (:class:`~bilingual_spider.state.CrawlState`): the detector's sites under
way and verdicts, and how many of its seeds it handed out. The requests in flight at the kill are
given again, marked redelivered, and the detector redoes what follows from what its store
recorded (a site's pending probes asked again, a verdict recorded and not written emitted again:
:mod:`bilingual_spider.adapters.site_detection`), as a Redis worker's redelivered requests do.
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
from bilingual_spider.state import CrawlState


class DetectSpider(DetectorCallbacks, scrapy.Spider):
    name = "detect"
    item_types = (SiteVerdictItem,)
    """What it makes: their feeds are in a run directory even when empty."""
    custom_settings = {"BILINGUAL_CRASH_SAFE_FRONTIER": True}  # with JOBDIR: resumed after a kill
    carried_stats = ("detector/",)
    """Counters a crawl resumed from ``JOBDIR`` carries on from where they were last committed."""
    settles_in_flight_by_url = False
    """Restarted after a kill, every request in flight is given again (redelivered): a page's
    verdict in the output says nothing of the probes that site still awaits."""

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
        self.counters: Any = {}
        """The crawl state's counters: ``seeds_given``, the seeds handed to the frontier (a
        resumed crawl skips them)."""

    def run_parameters(self) -> dict[str, Any]:
        """What this crawl is (the report's header)."""
        return {"seeds": len(self.seed_urls)}

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> DetectSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        if not spider.seed_urls:
            spider.seed_urls = default_or_given_seeds(spider.seeds_argument, crawler)
        spider.bind_detection(crawler)
        spider.counters = CrawlState.of(crawler, spider.name).counters
        return spider

    async def start(self) -> AsyncIterator[Any]:
        for item in self.replayed_verdicts:  # a restart's, not in the output
            yield item
        given = self.counters.get("seeds_given", 0)
        for number, url in enumerate(announced(self.seed_urls)):
            if number < given:
                continue  # queued (or done) before a kill; counted once the next is asked for
            if number:
                self.counters["seeds_given"] = number  # the seed before was taken
            yield scrapy.Request(
                url,
                callback=self.parse,
                errback=self.first_page_failed,
                dont_filter=True,
                meta={"role": "seed"},
            )
        self.counters["seeds_given"] = len(self.seed_urls)

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
