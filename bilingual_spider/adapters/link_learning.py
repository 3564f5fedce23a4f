"""The online link classifiers of a back-and-forth crawl (Barbosa et al. 2011, section 2.3) in
Scrapy terms: their examples, their learning iterations and the stats of both.

COBFC's Backlink and Forward-Link classifiers (FocC: its Forward-Link classifier) take their
examples as the crawl labels links; every ``learning_interval`` pages a learning iteration
retrains them, and the frontier scorer (which holds them) re-scores queued requests lazily. With
Redis every worker's examples train one model (:mod:`bilingual_spider.distributed.model_store`):
one worker retrains under a lock, the others load its models; in one process the classifiers
learn alone, kept at each learning iteration (:class:`~bilingual_spider.state.memory.
LinkModelsInMemory`, the same steps). Stats: ``backforth/classifier/<role>/version``,
``.../examples_<label>`` (with Redis: crawl-wide), ``.../retrained_here``, ``.../loaded``,
``.../examples_sent``, ``backforth/classifier/pages_crawl_wide``,
``backforth/classifier/lock_lost``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.frontier.bipartite import BACKLINK, FORWARD, LinkExample
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier
from bilingual_spider.frontier.rescoring import DiscountedBacklinkModel, FrontierScorer
from bilingual_spider.frontier.strategies import StrategyRules
from bilingual_spider.state import CrawlState
from bilingual_spider.state.memory import LinkModelsInMemory

logger = logging.getLogger(__name__)

LinkModels = SharedLinkModels | LinkModelsInMemory


class LinkLearning:
    """Examples in, learning iterations out, for the classifiers of a crawl.

    Parameters
    ----------
    classifiers:
        The online link classifiers by role (none: nothing to learn).
    models:
        Where their examples and models are kept, the crawl state's
        :meth:`~bilingual_spider.state.CrawlState.link_models`: this process's (with ``JOBDIR``,
        kept in the frontier's file at each learning iteration), or every worker's (Redis).
    """

    def __init__(
        self, classifiers: Mapping[str, OnlineLinkClassifier], models: LinkModels | None = None
    ) -> None:
        self.models = models if models is not None else LinkModelsInMemory(list(classifiers), 1)
        adopted, harvest_rate = self.models.adopt(classifiers)
        self.classifiers = adopted
        scored: dict[str, Any] = dict(adopted)
        if BACKLINK in scored:
            scored[BACKLINK] = DiscountedBacklinkModel(scored[BACKLINK])
        self.scorer = FrontierScorer(scored)
        self._backlink_model_rate(harvest_rate)
        self._reported: dict[str, int] = {}

    def _report(self, stats: StatsCollector, key: str, value: int) -> None:
        """Set a stat that changed since the last page (a page sets a few of them, not all)."""
        if self._reported.get(key) != value:
            self._reported[key] = value
            stats.set_value(key, value)

    def _backlink_model_rate(self, harvest_rate: float | None) -> None:
        """The harvest rate frozen with the backlink model (its discount)."""
        backlink_model = self.scorer.models.get(BACKLINK)
        if harvest_rate is not None and isinstance(backlink_model, DiscountedBacklinkModel):
            backlink_model.harvest_rate = harvest_rate

    @classmethod
    def for_strategy(
        cls, rules: StrategyRules, learning_interval: int, settings: BaseSettings, state: CrawlState
    ) -> LinkLearning:
        """The classifiers a strategy learns (COBFC: backlink and forward; FocC: forward; the
        others none), seeded by ``BILINGUAL_BACKFORTH_SEED``, their examples and models kept in
        the crawl ``state`` (with Redis: every worker's)."""
        roles: tuple[str, ...] = ()
        if rules.link_classifiers:
            roles = (BACKLINK, FORWARD)
        elif rules.topic_focus:
            roles = (FORWARD,)
        seed = settings.getint("BILINGUAL_BACKFORTH_SEED")
        most = settings.getint("BILINGUAL_BACKFORTH_MAX_EXAMPLES")
        classifiers = {
            role: OnlineLinkClassifier(max_examples_per_class=most, random_state=seed)
            for role in roles
        }
        return cls(classifiers, state.link_models(roles, learning_interval, most, seed))

    def learn_from(self, examples: Iterable[LinkExample]) -> None:
        """Labelled links (from the bipartite graph) of the roles that have a classifier."""
        for example in examples:
            if example.role in self.classifiers and example.tokens:
                self.add_example(example.role, example.tokens, example.relevant)

    def add_example(self, role: str, tokens: Sequence[str], relevant: bool) -> None:
        self.models.add_example(role, tokens, relevant)

    def page_counted(self, pages: int, sites_found: int, stats: StatsCollector) -> None:
        """After each page: the examples and the page counted (with Redis, crawl-wide), and a
        learning iteration every ``learning_interval`` pages (with Redis, by whichever worker
        gets the lock; the others load its models and the harvest rate frozen with them)."""
        if not self.classifiers:
            return
        step = self.models.step(self.classifiers, pages, sites_found)
        report = self._report
        report(stats, "backforth/classifier/pages_crawl_wide", step.pages)
        for role in self.classifiers:
            for label, count in step.seen[role].items():
                report(stats, f"backforth/classifier/{role}/examples_{label}", count)
            report(stats, f"backforth/classifier/{role}/examples_sent", self.models.sent[role])
            report(stats, f"backforth/classifier/{role}/version", step.versions[role])
        for role in step.retrained:
            stats.inc_value(f"backforth/classifier/{role}/retrained_here")
        for role in step.loaded:
            stats.inc_value(f"backforth/classifier/{role}/loaded")
        if step.lost_lock:
            stats.inc_value("backforth/classifier/lock_lost")
        self._backlink_model_rate(step.harvest_rate)
        if step.models:
            how = "retrained here" if step.retrained else "loaded"
            versions = ", ".join(f"{r} model v{p.version}" for r, p in step.models.items())
            logger.info("learning iteration at %d pages: %s %s", step.pages, how, versions)
