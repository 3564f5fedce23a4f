"""The shared link classifiers on the real Redis: two store instances are two workers."""

from __future__ import annotations

import threading

import numpy as np

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier
from tests.conftest import REDIS_URL
from tests.waiting import PATIENCE_SECONDS, wait_until

ROLES = ("backlink", "forward")
HUB = ["url:links", "host:es", "anchor:hotel"]
NEWS = ["url:news", "host:com", "anchor:sport"]
PROBES = [HUB, NEWS, ["url:links", "anchor:sport"], ["around:x"], []]


class GatedClassifier(OnlineLinkClassifier):
    """A classifier whose learning iteration is counted, says it began (``entered``) and waits
    until the test opens its ``gate``: a retrain as long as the test needs, on any machine."""

    fits = 0

    def __init__(
        self, gate: threading.Event | None = None, entered: threading.Event | None = None
    ) -> None:
        super().__init__()
        self.gate = gate
        self.entered = entered

    def trained_on(self, *args, **kwargs):
        GatedClassifier.fits += 1
        if self.entered is not None:
            self.entered.set()
        if self.gate is not None:
            assert self.gate.wait(PATIENCE_SECONDS), "the test never opened the gate"
        return super().trained_on(*args, **kwargs)


def worker(base: str, interval: int = 10, lock_seconds: float = 60.0, **kwargs) -> SharedLinkModels:
    """A store as one worker has it, on a connection of its own."""
    return SharedLinkModels(
        PatientRedis(REDIS_URL), base, ROLES, interval, lock_seconds=lock_seconds, **kwargs
    )


def classifiers(
    gate: threading.Event | None = None, entered: threading.Event | None = None
) -> dict[str, OnlineLinkClassifier]:
    return {role: GatedClassifier(gate, entered) for role in ROLES}


def add(store: SharedLinkModels, tokens: list[str], relevant: bool, times: int) -> None:
    for i in range(times):
        for role in ROLES:
            store.add_example(role, [*tokens, f"anchor:w{i}"], relevant)


def scores(models: dict[str, OnlineLinkClassifier]) -> dict[str, list[float]]:
    return {role: [c.score(tokens) for tokens in PROBES] for role, c in models.items()}


def test_one_retrain_uses_the_examples_of_both_workers(redis_prefix):
    one, two = worker(redis_prefix), worker(redis_prefix)
    mine, theirs = classifiers(), classifiers()
    add(one, HUB, True, 12)  # one worker saw only relevant links, the other only the others
    add(two, NEWS, False, 20)
    assert one.step(mine, pages=4, sites=1).retrained == []  # 4 crawl-wide pages: not yet
    step = two.step(theirs, pages=6, sites=1)  # 10: due, and its lock
    assert step.pages == 10 and step.retrained == list(ROLES)
    assert step.seen["forward"] == {"relevant": 12, "non_relevant": 20}
    assert step.versions == {"backlink": 1, "forward": 1}
    assert step.models["backlink"].harvest_rate == 2 / 10  # crawl-wide sites per page
    assert len(two.examples("forward", True)) == 12 and len(two.examples("forward", False)) == 20
    alone = OnlineLinkClassifier()  # one process seeing both workers' examples
    for tokens, relevant, times in ((HUB, True, 12), (NEWS, False, 20)):
        for i in range(times):
            alone.add_example([*tokens, f"anchor:w{i}"], relevant)
    assert alone.retrain()
    expected = [alone.score(tokens) for tokens in PROBES]
    assert scores(theirs) == {role: expected for role in ROLES}
    assert theirs["forward"].score(HUB) > 0.9 > 0.1 > theirs["forward"].score(NEWS)
    assert one.sent == {"backlink": 12, "forward": 12} and two.sent["forward"] == 20


def test_another_worker_loads_the_published_model_and_scores_the_same(redis_prefix):
    one, two = worker(redis_prefix), worker(redis_prefix)
    mine, theirs = classifiers(), classifiers()
    add(one, HUB, True, 10)
    add(one, NEWS, False, 10)
    assert one.step(mine, pages=10, sites=3).retrained == list(ROLES)
    assert [c.version for c in theirs.values()] == [0, 0]
    step = two.step(theirs, pages=1, sites=0)
    assert step.loaded == list(ROLES) and step.retrained == []
    assert step.models["backlink"].harvest_rate == 3 / 10
    assert [c.version for c in theirs.values()] == [1, 1]
    assert scores(theirs) == scores(mine)
    assert scores(theirs) != {role: [0.5] * len(PROBES) for role in ROLES}  # a trained model
    assert two.step(theirs, pages=2, sites=0).loaded == []  # loaded once


def test_only_one_of_two_workers_due_at_once_retrains(redis_prefix):
    one, two = worker(redis_prefix), worker(redis_prefix)
    add(one, HUB, True, 5)
    add(two, NEWS, False, 5)
    one.step(classifiers(), pages=4, sites=0)
    two.step(classifiers(), pages=4, sites=0)
    GatedClassifier.fits = 0
    gate = threading.Event()  # the retrain lasts until the other worker's step is over
    models = [classifiers(gate), classifiers(gate)]
    steps = {}

    def run(i: int, store: SharedLinkModels) -> None:
        steps[i] = store.step(models[i], pages=9, sites=0)  # 5 more each: both due

    threads = [threading.Thread(target=run, args=(i, s)) for i, s in enumerate((one, two))]
    for thread in threads:
        thread.start()
    wait_until(lambda: len(steps) == 1)  # one step returned while the other retrains
    gate.set()
    for thread in threads:
        thread.join()
    assert GatedClassifier.fits == len(ROLES)  # one learning iteration, by one worker
    assert sorted(len(step.retrained) for step in steps.values()) == [0, len(ROLES)]
    assert not any(step.lost_lock for step in steps.values())
    idle = next(i for i, step in steps.items() if not step.retrained)
    after = (one, two)[idle].step(models[idle], pages=10, sites=0)
    assert after.loaded == list(ROLES) and after.versions == {"backlink": 1, "forward": 1}
    assert scores(models[0]) == scores(models[1])


def test_the_lock_of_a_dead_worker_expires(redis, redis_prefix):
    store = worker(redis_prefix)
    add(store, HUB, True, 5)
    add(store, NEWS, False, 5)
    redis.client.set(store.lock_key, "a worker killed while retraining", px=1000)
    step = store.step(classifiers(), pages=10, sites=0)
    assert step.retrained == [] and step.versions == {"backlink": 0, "forward": 0}
    wait_until(lambda: not redis.client.exists(store.lock_key))
    step = store.step(classifiers(), pages=11, sites=0)
    assert step.retrained == list(ROLES) and step.versions == {"backlink": 1, "forward": 1}
    assert not redis.client.exists(store.lock_key)  # released by the publish


def test_versions_only_grow_and_a_holder_whose_lock_expired_publishes_nothing(redis, redis_prefix):
    slow, other = worker(redis_prefix, lock_seconds=0.2), worker(redis_prefix)
    add(other, HUB, True, 5)
    add(other, NEWS, False, 5)
    versions = []
    for pages in (10, 20, 30):  # one learning iteration every 10 crawl-wide pages
        step = other.step(classifiers(), pages=pages, sites=0)
        assert step.retrained == list(ROLES)
        versions.append(step.versions["forward"])
    assert versions == [1, 2, 3]
    late_gate, late_began, later_gate, later_began = (threading.Event() for _ in range(4))
    late, later = classifiers(late_gate, late_began), classifiers(later_gate, later_began)
    steps = {}
    first = threading.Thread(target=lambda: steps.update(late=slow.step(late, 10, 0)))
    first.start()
    assert late_began.wait(PATIENCE_SECONDS)  # slow holds the lock and retrains ...
    wait_until(lambda: not redis.client.exists(slow.lock_key))  # ... longer than its lock
    second = threading.Thread(target=lambda: steps.update(later=other.step(later, 40, 0)))
    second.start()
    assert later_began.wait(PATIENCE_SECONDS)  # the other worker due took the lock
    late_gate.set()
    first.join()  # slow is done first, with version 4 next, but the lock is not its own
    later_gate.set()
    second.join()
    assert steps["late"].lost_lock and steps["late"].retrained == []
    assert steps["later"].retrained == list(ROLES) and not steps["later"].lost_lock
    assert steps["later"].versions == {"backlink": 4, "forward": 4}
    assert late["forward"].version == 3  # the last published then, not a version 4 of its own
    assert slow.step(late, 11, 0).loaded == list(ROLES) and late["forward"].version == 4
    published = other.published("forward")
    assert published is not None and published.version == 4
    assert np.array_equal(late["forward"].fitted().weights, published.model.weights)
    assert int(redis.client.hget(other.learning_key, "version:forward")) == 4


def test_the_shared_examples_are_a_bounded_reservoir(redis_prefix):
    store = worker(redis_prefix, interval=1000, max_examples_per_class=5)
    for i in range(50):
        store.add_example("forward", [f"url:w{i}"], i % 2 == 0)
    step = store.step(classifiers(), pages=1, sites=0)
    assert step.seen["forward"] == {"relevant": 25, "non_relevant": 25}
    assert step.seen["backlink"] == {"relevant": 0, "non_relevant": 0}
    kept = store.examples("forward", True)
    assert len(kept) == 5 and len(store.examples("forward", False)) == 5
    assert {tuple(tokens) for tokens in kept} - {(f"url:w{i}",) for i in range(0, 5 * 2, 2)}
    assert store.sent == {"backlink": 0, "forward": 50}
