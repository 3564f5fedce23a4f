"""The end of each stage of a PupSniffer crawl in Scrapy terms: Scrapy's ``spider_idle`` asks the
:class:`~bilingual_spider.patterns.round_driver.RoundDriver` to move the crawl on, and what it
tells (:class:`~bilingual_spider.patterns.round_driver.StageActions`) becomes items and requests
here. Stats ``pupsniffer/rejected/<reason>``, ``pupsniffer/round``,
``pupsniffer/groups_conflicts``.

Items made at the end of a stage (outside any callback) go out through the spider's
``emit_items`` callback (:func:`~.pupsniffer_items.items_request`): Scrapy's public API only.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import scrapy
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider

from bilingual_spider.adapters.pupsniffer_deep import DeepPageChecks
from bilingual_spider.adapters.pupsniffer_items import Keyed, PupSnifferItems, items_request
from bilingual_spider.adapters.pupsniffer_requests import PageRequests
from bilingual_spider.patterns.crawl_round import GroupPairs, RoundPairs
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.discovery import ExternalSite
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.round_driver import RoundDriver
from bilingual_spider.scheduler.backend import holding_scheduler

logger = logging.getLogger(__name__)


def log_rejected(pair: UrlPair, why: str) -> None:
    """One DEBUG line per pair a check rejected (``benchmarks/pupsniffer.py``'s recall audit
    reads them)."""
    logger.debug("pupsniffer rejected %s %s %s %s", why, pair.method, pair.source, pair.target)


class PupSnifferStages:
    """The :class:`~bilingual_spider.patterns.round_driver.StageActions` of a crawl, and its
    ``spider_idle`` handler (:meth:`idle`).

    Parameters
    ----------
    crawler:
        The crawl (its engine, stats and scheduler).
    driver, requests, deep, items:
        The crawl's rounds, page requests, deep-page checks and items.
    emit, failed:
        The spider's callback that yields the items a request carries, and its errback.
    """

    def __init__(
        self,
        crawler: Crawler,
        driver: RoundDriver,
        requests: PageRequests,
        deep: DeepPageChecks,
        items: PupSnifferItems,
        emit: Callable[..., Any],
        failed: Callable[..., Any],
    ) -> None:
        self.crawler, self.driver = crawler, driver
        self.requests, self.deep, self.items = requests, deep, items
        self.emit_callback, self.failed = emit, failed

    def idle(self, spider: scrapy.Spider) -> None:
        """Nothing left to fetch: the driver moves the crawl to its next stage; it ends after the
        last round's deep pages. Of several workers, one moves the crawl on, once none of them
        has anything left; the others wait for what it queues, or for the end."""

        def crawl_is_idle() -> bool:
            scheduler = holding_scheduler(self.crawler)
            return scheduler is None or scheduler.crawl_is_idle()  # type: ignore[attr-defined]

        if self.driver.advance(crawl_is_idle, self):
            raise DontCloseSpider

    def crawl_stage_ended(
        self, round: int, pairs: RoundPairs, candidates: list[DeepCandidate]
    ) -> None:
        stats = self.crawler.stats
        for reason, count in pairs.rejected.items():
            stats.inc_value(f"pupsniffer/rejected/{reason}", count)
        totals: Counter[str] = Counter()  # a round judges every page seen so far: set, not add
        for tally in pairs.declarations.values():
            totals.update({k: v for k, v in tally.as_dict().items() if k != "credibility"})
        for name, count in totals.items():
            stats.set_value(f"pupsniffer/declarations/{name}", count)
        self.emit([*self.items.pair_items(pairs.pairs), *self.items.site_items(pairs)])
        crawled = self.driver.store.crawled()
        logger.info(
            "pupsniffer round %d: %d sites, %d pages, %d pairs (rejected: %s), %d deep candidates",
            round,
            len(crawled.site_pages),
            len(crawled.pages),
            len(pairs.pairs),
            dict(pairs.rejected) or "none",
            len(candidates),
        )
        for candidate in candidates:
            self.crawl(self.deep.request(candidate, "HEAD", round))

    def round_ended(self, round: int, groups: GroupPairs) -> None:
        self.crawler.stats.set_value("pupsniffer/groups_conflicts", groups.conflicts)
        self.emit(self.items.group_items(groups))

    def next_round_begun(self, round: int, picked: list[tuple[ExternalSite, str]]) -> None:
        self.crawler.stats.set_value("pupsniffer/round", round)
        for external, url in picked:
            found_by = f"round {round}: WPR {external.wpr:.3g} from {external.in_links} site(s)"
            # a site known already but never crawled: its first page failed, or the worker that
            # picked it died before queuing it (asked again; a duplicate filter drops the first)
            requests = self.requests.site(url, found_by)
            if url not in {request.url for request in requests}:
                requests.insert(0, self.requests.page(external.site, url))
            for request in requests:
                self.crawl(request)

    def emit(self, keyed: Iterable[Keyed]) -> None:
        """Items made outside a callback: a request carries those not emitted yet to the
        spider's callback, which marks them as it yields them
        (:meth:`~.pupsniffer_items.PupSnifferItems.new_items`)."""
        request = items_request(self.items.unmarked(keyed), self.emit_callback, self.failed)
        if request is not None:
            self.crawl(request)

    def crawl(self, request: scrapy.Request) -> None:
        self.crawler.engine.crawl(request)
