"""Priorities of the frontier, and lazy re-ranking when a link classifier is retrained.

Barbosa et al. (2011), section 2.3: after a learning iteration "the relevance of the links in the
frontier are updated based on the new classifiers". Re-scoring a frontier of millions of links at
every iteration is what makes that costly; we do it lazily instead: every queued link carries the
model version that scored it (:class:`FrontierTag`), and when a link scored by an older model
reaches the head of the queue it is re-scored first and put back if it fell behind the next one.
The same logic serves Scrapy's in-memory priority queue and the Redis queue
(:mod:`bilingual_spider.scheduler.rescoring_queue`).

Roles: ``seed`` (a start URL), ``probe`` (a detector probe: always first), ``api`` (a backlink or
search API call), ``backlink`` (a backlink page, scored by the Backlink classifier), ``forward``
(an out-of-site link of a backlink page, scored by the Forward-Link classifier).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

FRONTIER_META = "frontier"
"""Key of the :class:`FrontierTag` (as a dict, so it survives disk and Redis queues) in
``Request.meta``."""

LINK_PRIORITY_SCALE = 1_000
"""A relevance in [0, 1] becomes an integer priority in [0, 1000] (Scrapy's priorities are ints)."""
ROLE_PRIORITY: Mapping[str, int] = {
    "probe": 3 * LINK_PRIORITY_SCALE,  # probes go before everything else
    "api": 2 * LINK_PRIORITY_SCALE,  # backlink calls: cheap, and they feed the frontier
    "seed": LINK_PRIORITY_SCALE + 1,  # seeds before any scored link
}
"""Fixed priorities of the roles that are not scored by a link classifier."""
SCORED_ROLES = ("backlink", "forward")


def link_priority(relevance: float) -> int:
    """The Scrapy priority of a link of relevance ``relevance`` (clipped to [0, 1])."""
    return round(min(1.0, max(0.0, relevance)) * LINK_PRIORITY_SCALE)


@dataclass(frozen=True)
class FrontierTag:
    """What the frontier knows of a queued request: its role, the features its classifier reads,
    the model version that gave its priority, and the bonus a focus policy added to it (kept
    when a newer model re-scores the request)."""

    role: str
    tokens: tuple[str, ...] = ()
    version: int = 0
    bonus: int = 0

    def to_meta(self) -> dict[str, Any]:
        meta = {"role": self.role, "tokens": list(self.tokens), "version": self.version}
        return {**meta, "bonus": self.bonus} if self.bonus else meta

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any] | None) -> FrontierTag | None:
        if not meta or "role" not in meta:
            return None
        return cls(
            str(meta["role"]),
            tuple(meta.get("tokens", ())),
            int(meta.get("version", 0)),
            int(meta.get("bonus", 0)),
        )


class RelevanceModel(Protocol):
    """A link classifier as the frontier sees it (see ``OnlineLinkClassifier``)."""

    version: int

    def score(self, tokens: Sequence[str]) -> float: ...


@dataclass
class DiscountedBacklinkModel:
    """The relevance of a backlink on the same scale as a forward link's.

    The two classifiers answer different questions: the Forward-Link classifier, "does this link
    lead to a bilingual site?" (an immediate benefit: a site per page); the Backlink classifier,
    "does this page link to bilingual sites?" (a delayed benefit: the page gives links, not a
    site). Compared as they are, backlinks win (nearly every backlink page of a bilingual site
    links to another one) and the crawl fetches hub after hub while their links wait.

    So a backlink's relevance is discounted to the crawl's harvest rate (bilingual sites per
    page so far): the marginal value theorem of foraging (Charnov 1976) says to leave a patch when
    what it still yields drops below the average yield of the environment. Forward links whose
    calibrated probability beats the harvest rate go first; when none is left, the hubs most
    likely to bring new ones; then the weak forward links. Before the first learning iteration
    every link is equal (OBFC's order).

    ``harvest_rate`` is set at each learning iteration, when the backlink classifier's version
    changes too, so a lazily re-scored backlink always sees the rate frozen with its model.
    """

    backlink: Any
    harvest_rate: float | None = None

    @property
    def version(self) -> int:
        return int(self.backlink.version)

    def score(self, tokens: Sequence[str]) -> float:
        relevance = float(self.backlink.score(tokens))
        if self.harvest_rate is None or not self.version:
            return relevance
        return relevance * self.harvest_rate


@dataclass
class FrontierScorer:
    """Gives requests their priority: fixed by role, or from the role's link classifier.

    Parameters
    ----------
    models:
        The classifier of each scored role (``backlink``, ``forward``); a role without one gets
        ``default_relevance``.
    default_relevance:
        Relevance of links nobody scores (OBFC: every link equal).
    """

    models: dict[str, RelevanceModel] = field(default_factory=dict)
    default_relevance: float = 0.5

    def tag(self, role: str, tokens: Sequence[str] = ()) -> tuple[int, FrontierTag]:
        """Priority and tag of a new request."""
        if role in ROLE_PRIORITY:
            return ROLE_PRIORITY[role], FrontierTag(role)
        model = self.models.get(role)
        if model is None:
            return link_priority(self.default_relevance), FrontierTag(role, tuple(tokens))
        tag = FrontierTag(role, tuple(tokens), model.version)
        return link_priority(model.score(tokens)), tag

    def is_stale(self, tag: FrontierTag) -> bool:
        """Whether a newer model than the one that scored ``tag`` exists."""
        model = self.models.get(tag.role)
        return model is not None and model.version > tag.version

    def rescore(self, tag: FrontierTag) -> tuple[int, FrontierTag] | None:
        """New priority and tag of a request scored by an older model (its bonus kept);
        ``None`` when current."""
        if not self.is_stale(tag):
            return None
        priority, fresh = self.tag(tag.role, tag.tokens)
        return priority + tag.bonus, replace(fresh, bonus=tag.bonus)


def keeps_head(new_priority: int, next_priority: int | None) -> bool:
    """A re-scored request stays at the head unless the next request now beats it (ties keep
    it: no needless re-queueing)."""
    return next_priority is None or new_priority >= next_priority
