"""The stages of a PupSniffer crawl (Zhang et al. 2018, sections 4.1-4.4), moved on each time
nothing is left to fetch: the ``pupsniffer`` spider calls :meth:`RoundDriver.advance` from
Scrapy's ``spider_idle`` and does what its :class:`StageActions` are told (emit items, queue
requests).

A round's ``CRAWL`` stage ends by mining every page seen and judging the pairs
(:func:`~.crawl_round.pair_round`), then choosing the deep-page candidates (4.3); its ``DEEP``
stage ends with the translation groups of every pair found so far (:mod:`.groups`), then the
next round's sites ranked by WPR (4.4), or the end (``DONE``). Search mode (4.5) has one stage,
its queries and their checks. The state is in a :class:`~.round_state.RoundStore`: of several
workers, one at a time moves the crawl on (:meth:`~.round_state.RoundStore.begin_transition`),
once none of them has anything left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bilingual_spider.patterns.crawl_round import (
    SIMILARITY_PATTERNS,
    CrawledSites,
    GroupPairs,
    LanguageKnown,
    Rejection,
    RoundPairs,
    deep_page_candidates,
    judge_group_pairs,
    next_round_sites,
    pair_round,
    relabelled,
)
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.discovery import ExternalSite
from bilingual_spider.patterns.round_state import (
    CHECKED,
    FOUND,
    RoundStore,
    Stage,
    StageState,
    found_pair,
)
from bilingual_spider.patterns.similarity import unit_weights
from bilingual_spider.patterns.verification import PairVerifier

logger = logging.getLogger(__name__)


class StageActions(Protocol):
    """What the crawler does when a stage ends (the spider: items and requests)."""

    def crawl_stage_ended(
        self, round: int, pairs: RoundPairs, candidates: list[DeepCandidate]
    ) -> None:
        """The round's pairs are mined: emit them, queue the deep-page ``candidates``."""
        ...

    def round_ended(self, round: int, groups: GroupPairs) -> None:
        """The round's deep pages are in: emit its translation groups."""
        ...

    def next_round_begun(self, round: int, picked: list[tuple[ExternalSite, str]]) -> None:
        """Queue the first page of each site ``picked`` for ``round``."""
        ...


@dataclass
class RoundDriver:
    """Moves a PupSniffer crawl through its rounds and stages.

    Parameters
    ----------
    store:
        The crawl's state, shared by its workers.
    rounds:
        Rounds to crawl (4.4: each after the first crawls the best external sites).
    next_sites:
        External sites a round adds, best WPR first.
    deep_per_site:
        Deep-page candidates checked per site and round (4.3).
    search:
        Search mode (4.5): one stage, no mining.
    verifier, rejected_pair:
        The pair verifier, and who is told of each pair a check rejected.
    knows:
        Whether the language identifier has a label for a language (where it has none, the
        links naming a page may decide its language: :func:`.crawl_round.linked_language_pages`).
    """

    store: RoundStore
    rounds: int = 1
    next_sites: int = 0
    deep_per_site: int = 0
    search: bool = False
    verifier: PairVerifier | None = None
    rejected_pair: Rejection | None = None
    knows: LanguageKnown | None = None
    _pairs: dict[int, RoundPairs] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.search:  # no crawl to mine: prior patterns only
            self.rounds = 1
            self._pairs[1] = pair_round(CrawledSites())

    def advance(self, crawl_is_idle: Callable[[], bool], actions: StageActions) -> bool:
        """Nothing left to fetch here: move the crawl to its next stage if it is this caller's
        turn and no worker has anything left (``crawl_is_idle``). True: the crawl stays open
        (a stage begun, or another worker moving it on or busy); False: it is over."""
        if self.store.stage().stage is Stage.DONE:
            return False
        if not self.store.begin_transition():
            return True  # another worker is moving the crawl on
        try:
            if not crawl_is_idle():
                return True  # another worker queued requests meanwhile
            state = self.store.stage()  # as the last transition left it
            if state.stage is Stage.DONE:
                return False
            following = self.next_stage(state, actions)
            if following.stage is Stage.DONE or following.round > state.round:
                actions.round_ended(state.round, self.end_round(state.round))
            if not self.store.publish(following):
                logger.warning(
                    "pupsniffer: the stage lock expired during the move to %s; the next worker "
                    "idle redoes it (BILINGUAL_PUPSNIFFER_STAGE_LOCK_SECONDS)",
                    following,
                )
        finally:
            self.store.end_transition()
        return following.stage is not Stage.DONE

    def next_stage(self, state: StageState, actions: StageActions) -> StageState:
        """End the stage ``state`` is in and begin the next one."""
        if self.search:  # its one stage (queries and checks) is over
            return StageState(state.round, Stage.DONE)
        if state.stage is Stage.CRAWL:
            pairs, candidates = self.end_crawl_stage(state.round)
            actions.crawl_stage_ended(state.round, pairs, candidates)
            # marked once queued: a move redone after its worker died queues them again
            self.store.mark_new(CHECKED, [candidate.candidate for candidate in candidates])
            return StageState(state.round, Stage.DEEP)
        if state.round < self.rounds:
            pairs = self.pairs_of(state.round)
            picked = next_round_sites(self.store.crawled(), pairs, self.next_sites)
            if picked:
                actions.next_round_begun(state.round + 1, picked)
                return StageState(state.round + 1, Stage.CRAWL)
        return StageState(state.round, Stage.DONE)

    def end_crawl_stage(self, round: int) -> tuple[RoundPairs, list[DeepCandidate]]:
        """Mine every page seen so far, judge the pairs (kept in the store for every worker) and
        choose the deep-page candidates not checked yet."""
        crawled = self.store.crawled()
        pairs = pair_round(crawled, None, self.verifier, self.rejected_pair, self.knows)
        self.store.keep_round_pairs(round, pairs)
        self._pairs = {round: pairs}
        checked = self.store.marked(CHECKED)
        return pairs, deep_page_candidates(crawled, pairs, self.deep_per_site, checked)

    def end_round(self, round: int) -> GroupPairs:
        """The translation groups of every pair found so far (the round's patterns and named
        translations, the deep pages'), and the pairs they imply, judged."""
        pairs = self.pairs_of(round)
        weights = unit_weights(pairs.credibility.top_patterns(SIMILARITY_PATTERNS))
        found = [*pairs.pairs, *map(found_pair, sorted(self.store.marked(FOUND)))]
        linked = {url: (language, signal) for url, language, signal in pairs.linked}
        return judge_group_pairs(
            found,
            lambda url: relabelled(self.store.page(url), linked),
            weights,
            self.verifier,
            self.rejected_pair,
        )

    def pairs_of(self, round: int) -> RoundPairs:
        """The pairs and credibility tables of ``round`` (mined by whichever worker ended its
        crawl stage)."""
        if round not in self._pairs:
            found = self.store.round_pairs(round)
            if found is None:
                raise RuntimeError(f"pupsniffer: no pairing patterns recorded for round {round}")
            self._pairs = {round: found}
        return self._pairs[round]
