"""The online link classifiers of a back-and-forth crawl (Barbosa et al. 2011, section 2.3) in
Scrapy terms: their examples, their learning iterations and the stats of both.

COBFC's Backlink and Forward-Link classifiers (FocC: its Forward-Link classifier) take their
examples as the crawl labels links; every ``learning_interval`` pages a learning iteration
retrains them, and the frontier scorer (which holds them) re-scores queued requests lazily. With
Redis every worker's examples train one model (:mod:`bilingual_spider.distributed.model_store`):
one worker retrains under a lock, the others load its models. Stats:
``backforth/classifier/<role>/version`` and ``.../examples_<label>`` (with Redis: crawl-wide,
and ``.../retrained_here``, ``.../loaded``, ``.../examples_sent``,
``backforth/classifier/pages_crawl_wide``, ``backforth/classifier/lock_lost``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.frontier.bipartite import BACKLINK, FORWARD, LinkExample
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier
from bilingual_spider.frontier.rescoring import DiscountedBacklinkModel, FrontierScorer
from bilingual_spider.frontier.strategies import StrategyRules
from bilingual_spider.state import CrawlState

logger = logging.getLogger(__name__)

KEPT = "classifiers"
"""The key of the classifiers in the crawl state's ``learning`` store."""


class LinkLearning:
    """Examples in, learning iterations out, for the classifiers of a crawl.

    Parameters
    ----------
    classifiers:
        The online link classifiers by role (none: nothing to learn).
    learning_interval:
        Pages between learning iterations.
    shared:
        The crawl's shared models (Redis), or None in one process.
    kept:
        In one process, where the classifiers are kept at each learning iteration (the crawl
        state's :attr:`~bilingual_spider.state.CrawlState.learning`: with ``JOBDIR``, in the
        frontier's file); a crawl restarted after a kill starts from what it holds.
    """

    def __init__(
        self,
        classifiers: Mapping[str, OnlineLinkClassifier],
        learning_interval: int,
        shared: SharedLinkModels | None = None,
        kept: MutableMapping[str, Any] | None = None,
    ) -> None:
        self.learning_interval = learning_interval
        self.shared = shared
        self.kept = kept if kept is not None else {}
        self._pages_at_last_learning = 0
        saved = self.kept.get(KEPT)
        self._use(saved["classifiers"] if saved else classifiers)
        if saved:
            self._backlink_model_rate(saved["harvest_rate"])
            self._pages_at_last_learning = saved["pages"]

    def _use(self, classifiers: Mapping[str, OnlineLinkClassifier]) -> None:
        self.classifiers = dict(classifiers)
        models: dict[str, Any] = dict(self.classifiers)
        if BACKLINK in models:
            models[BACKLINK] = DiscountedBacklinkModel(models[BACKLINK])
        self.scorer = FrontierScorer(models)

    def _backlink_model_rate(self, harvest_rate: float | None) -> None:
        """The harvest rate frozen with the backlink model (its discount)."""
        backlink_model = self.scorer.models.get(BACKLINK)
        if isinstance(backlink_model, DiscountedBacklinkModel):
            backlink_model.harvest_rate = harvest_rate

    @classmethod
    def for_strategy(
        cls, rules: StrategyRules, learning_interval: int, settings: BaseSettings, state: CrawlState
    ) -> LinkLearning:
        """The classifiers a strategy learns (COBFC: backlink and forward; FocC: forward; the
        others none), seeded by ``BILINGUAL_BACKFORTH_SEED``, sharing their examples and models
        through the crawl ``state`` (with Redis: every worker's)."""
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
        return cls(
            classifiers,
            learning_interval,
            state.link_models(roles, learning_interval, most, seed),
            state.learning,
        )

    def learn_from(self, examples: Iterable[LinkExample]) -> None:
        """Labelled links (from the bipartite graph) of the roles that have a classifier."""
        for example in examples:
            if example.role in self.classifiers and example.tokens:
                self.add_example(example.role, example.tokens, example.relevant)

    def add_example(self, role: str, tokens: Sequence[str], relevant: bool) -> None:
        if self.shared is not None:  # every worker's examples train one model
            self.shared.add_example(role, tokens, relevant)
        else:
            self.classifiers[role].add_example(tokens, relevant)

    def page_counted(self, pages: int, sites_found: int, stats: StatsCollector) -> None:
        """After each page: a learning iteration when one is due."""
        if self.shared is not None:
            self._learn_shared(self.shared, pages, sites_found, stats)
            return
        if not self.classifiers or pages - self._pages_at_last_learning < self.learning_interval:
            return
        self._pages_at_last_learning = pages
        self._backlink_model_rate(sites_found / pages)
        for role, classifier in self.classifiers.items():
            if classifier.retrain():
                stats.set_value(f"backforth/classifier/{role}/version", classifier.version)
            for label, count in classifier.examples_seen.items():
                stats.set_value(f"backforth/classifier/{role}/examples_{label}", count)
        # the classifiers (examples, fitted models, versions), kept: a kill loses at most the
        # examples of the pages since
        self.kept[KEPT] = {
            "classifiers": self.classifiers,
            "harvest_rate": sites_found / pages,
            "pages": pages,
        }
        versions = ", ".join(f"{role} model v{c.version}" for role, c in self.classifiers.items())
        logger.info("learning iteration at %d pages: %s", pages, versions)

    def _learn_shared(
        self, shared: SharedLinkModels, pages: int, sites_found: int, stats: StatsCollector
    ) -> None:
        """With Redis, at every page: examples sent, pages counted crawl-wide; a learning
        iteration every ``learning_interval`` crawl-wide pages by whichever worker gets the
        lock; the others load its models (and the harvest rate frozen with them)."""
        step = shared.step(self.classifiers, pages, sites_found)
        stats.set_value("backforth/classifier/pages_crawl_wide", step.pages)
        for role, classifier in self.classifiers.items():
            for label, count in step.seen[role].items():
                stats.set_value(f"backforth/classifier/{role}/examples_{label}", count)
            stats.set_value(f"backforth/classifier/{role}/examples_sent", shared.sent[role])
            stats.set_value(f"backforth/classifier/{role}/version", classifier.version)
        for role in step.retrained:
            stats.inc_value(f"backforth/classifier/{role}/retrained_here")
        for role in step.loaded:
            stats.inc_value(f"backforth/classifier/{role}/loaded")
        if step.lost_lock:
            stats.inc_value("backforth/classifier/lock_lost")
        if BACKLINK in step.models:
            self._backlink_model_rate(step.models[BACKLINK].harvest_rate)
        if step.models:
            how = "retrained here" if step.retrained else "loaded"
            versions = ", ".join(f"{r} model v{p.version}" for r, p in step.models.items())
            logger.info("learning at %d crawl-wide pages: %s %s", step.pages, how, versions)
