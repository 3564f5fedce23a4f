"""A crawl's pages counted and charged to its page budget, as Scrapy stats (``backforth``).

A page is counted once it is answered or has failed (``PREFIX/pages``, ``PREFIX/pages/<role>``,
``PREFIX/harvest_rate`` of the sites found per page). With a budget, it is charged to the crawl
state's :class:`~bilingual_spider.state.PageBudget` by its request's frontier id: every worker's
and every run's pages count, and a request redelivered after a kill is not charged twice
(``PREFIX/pages_counted_before``). The page that spends the budget, and those in flight then, are
counted but not processed (``PREFIX/pages_after_budget``): the crawl closes with ``budget``. A
crawl started again after its budget was spent closes at once.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import deferred_from_coro

from bilingual_spider.state import PageBudget
from bilingual_spider.state.request_meta import FRONTIER_ID_META

logger = logging.getLogger(__name__)

BUDGET_REASON = "budget"


class PageCount:
    """The pages of a crawl (its stats under ``prefix``) and its page ``budget`` (None: none)."""

    def __init__(self, crawler: Crawler, prefix: str, budget: PageBudget | None = None) -> None:
        self.crawler = crawler
        self.prefix = prefix
        self.budget = budget

    @property
    def pages(self) -> int:
        """Pages counted (responses and failures): this process's, or with ``JOBDIR`` every
        run's (the stats a resumed crawl carries on)."""
        return int(self.crawler.stats.get_value(f"{self.prefix}/pages", 0))

    @property
    def sites_found(self) -> int:
        """Bilingual sites found, counted as :attr:`pages` is."""
        return int(self.crawler.stats.get_value(f"{self.prefix}/sites_bilingual", 0))

    def count(self, role: str) -> None:
        """A page (its response or failure) of ``role`` counted."""
        stats = self.crawler.stats
        stats.inc_value(f"{self.prefix}/pages/{role}")
        stats.inc_value(f"{self.prefix}/pages")
        stats.set_value(f"{self.prefix}/harvest_rate", round(self.sites_found / self.pages, 4))

    def charge(self, meta: dict[str, Any]) -> None:
        """The page of the request whose ``meta`` is given charged to the budget: the crawl
        closes once it is spent."""
        if self.budget is None:
            return
        spent = self.budget.spend(request_id=meta.get(FRONTIER_ID_META))
        if spent:
            self.crawler.stats.set_value(f"{self.prefix}/pages_crawl_wide", spent)
        else:
            self.crawler.stats.inc_value(f"{self.prefix}/pages_counted_before")
        if spent >= self.budget.budget:
            self.crawler.stats.inc_value(f"{self.prefix}/pages_after_budget")
            raise CloseSpider(BUDGET_REASON)

    def close_if_spent(self) -> None:
        """At the spider's opening: a crawl started again after its budget was spent ends."""
        if self.budget is not None and self.budget.spent >= self.budget.budget:
            logger.info("page budget spent: %d pages over every run", self.budget.spent)
            engine = self.crawler.engine
            assert engine is not None
            deferred_from_coro(engine.close_spider_async(reason=BUDGET_REASON))
