"""The stores of a one-process crawl: the twins, in this process's memory, of the Redis stores of
:mod:`bilingual_spider.distributed` (same methods, same answers for one worker). A crawl with
``JOBDIR`` gives them collections kept in the frontier's file
(:mod:`bilingual_spider.state.sqlite`): one class for both twins."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableMapping, Sequence
from typing import Any

from bilingual_spider.distributed.model_store import LearningStep, Published
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier


class FoundByInMemory:
    """How each site was first reached (:class:`~bilingual_spider.distributed.found_by.
    SharedFoundBy`'s twin)."""

    def __init__(self, how: MutableMapping[str, str] | None = None) -> None:
        self._how = how if how is not None else {}

    def note(self, site: str, how: str) -> None:
        """The first page of ``site`` was fetched, reached so (the first note stays)."""
        self._how.setdefault(site, how)

    def take(self, site: str, keep: bool = False) -> str:
        """How ``site`` was reached ("" when not noted), forgotten unless ``keep``."""
        return self._how.get(site, "") if keep else self._how.pop(site, "")


class BacklinksAskedInMemory:
    """The sites whose backlinks were asked (:class:`~bilingual_spider.distributed.
    backlinks_asked.SharedBacklinksAsked`'s twin)."""

    def __init__(self, sites: Any = None) -> None:
        self._sites = sites if sites is not None else set()

    def mark(self, site: str) -> None:
        self._sites.add(site)

    def asked(self, site: str) -> bool:
        return site in self._sites


class PageBudgetInMemory:
    """The pages counted against a crawl's ``budget`` (:class:`~bilingual_spider.distributed.
    page_budget.SharedPageBudget`'s twin; a request id is never counted twice)."""

    def __init__(
        self, budget: int, totals: MutableMapping[str, int] | None = None, counted: Any = None
    ) -> None:
        self.budget = budget
        self._totals = totals if totals is not None else {}
        self._counted = counted if counted is not None else set()

    @property
    def spent(self) -> int:
        """The pages counted so far."""
        return self._totals.get("spent", 0)

    def spend(self, pages: int = 1, request_id: str | None = None) -> int:
        """Count ``pages`` more; the count, these included (0: ``request_id`` counted before)."""
        if request_id:
            if request_id in self._counted:
                return 0
            self._counted.add(request_id)
        self._totals["spent"] = spent = self.spent + pages
        return spent


class WrittenItemsInMemory:
    """The items written (:class:`~bilingual_spider.distributed.written_items.WrittenItems`'s
    twin): one worker's output holds each once."""

    def __init__(self) -> None:
        self._keys: set[tuple[str, ...]] = set()

    def claim(self, key: tuple[str, ...]) -> bool:
        """Whether ``key`` is this worker's to write (False: written before)."""
        if key in self._keys:
            return False
        self._keys.add(key)
        return True

    def settle(self, held: Iterable[tuple[str, ...]]) -> int:
        """A crawl restarted after a kill: the items its output ``held`` are claimed (emitted
        again, they are dropped); nothing else was claimed in this process: 0 forgotten."""
        self._keys.update(held)
        return 0


class LinkModelsInMemory:
    """The link classifiers' examples and models in one process (:class:`~bilingual_spider.
    distributed.model_store.SharedLinkModels`' twin, the same steps): each classifier keeps its
    own examples and retrains every ``learning_interval`` pages, and the classifiers (examples,
    fitted models, versions) are kept in ``kept`` at each learning iteration (with ``JOBDIR``, in
    the frontier's file): a crawl restarted after a kill carries on from them, and loses at most
    the examples of the pages since."""

    KEPT = "classifiers"
    """The key of the classifiers in ``kept``."""

    def __init__(
        self,
        roles: Sequence[str],
        learning_interval: int,
        kept: MutableMapping[str, Any] | None = None,
    ) -> None:
        self.roles = tuple(roles)
        self.learning_interval = learning_interval
        self.kept = kept if kept is not None else {}
        self.sent = {role: 0 for role in self.roles}
        """Examples added, per role."""
        self._classifiers: dict[str, OnlineLinkClassifier] = {}
        self._learned_at = 0

    def adopt(
        self, classifiers: Mapping[str, OnlineLinkClassifier]
    ) -> tuple[dict[str, OnlineLinkClassifier], float | None]:
        """The classifiers to learn and score with, and the harvest rate frozen with them (None:
        none yet): those kept at this crawl's last learning iteration (restarted after a kill),
        else ``classifiers``."""
        saved = self.kept.get(self.KEPT)
        if saved:
            classifiers = saved["classifiers"]
            self._learned_at = saved["pages"]
        self._classifiers = dict(classifiers)
        return self._classifiers, saved["harvest_rate"] if saved else None

    def add_example(self, role: str, tokens: Sequence[str], relevant: bool) -> None:
        """One labelled link, kept by its role's classifier."""
        self._classifiers[role].add_example(tokens, relevant)
        self.sent[role] += 1

    def step(
        self, classifiers: Mapping[str, OnlineLinkClassifier], pages: int, sites: int
    ) -> LearningStep:
        """``pages`` pages counted and ``sites`` bilingual sites found so far: a learning
        iteration when ``learning_interval`` pages passed since the last one (the harvest rate
        frozen with the backlink model then, whether or not a model came out)."""
        step = LearningStep(
            pages=pages,
            seen={role: c.examples_seen for role, c in classifiers.items()},
            versions={role: c.version for role, c in classifiers.items()},
        )
        if not classifiers or pages - self._learned_at < self.learning_interval:
            return step
        self._learned_at = pages
        step.harvest_rate = sites / pages
        for role, classifier in classifiers.items():
            model = classifier.fitted() if classifier.retrain() else None
            if model is not None:
                step.retrained.append(role)
                step.versions[role] = classifier.version
                step.models[role] = Published(classifier.version, model, step.harvest_rate)
        self.kept[self.KEPT] = {
            "classifiers": dict(classifiers),
            "harvest_rate": step.harvest_rate,
            "pages": pages,
        }
        return step
