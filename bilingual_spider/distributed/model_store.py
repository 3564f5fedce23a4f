"""The link classifiers of a distributed back-and-forth crawl (COBFC), shared by its workers: every
worker adds the training examples its bipartite graph labels, one worker at a time retrains on
all of them under a lock, and every worker scores with the model it published, under the same
version number (so the shared queue's lazy re-scoring compares versions that mean the same model
on every worker).

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:learning              HASH  pages, sites (the crawl's pages and bilingual sites, counted
                                     by every worker), learned_at (pages at the last learning
                                     iteration), seen:ROLE:LABEL (examples seen crawl-wide),
                                     version:ROLE (the last model published)
    BASE:examples:ROLE:LABEL   LIST  training examples (JSON token lists), a uniform reservoir of
                                     at most ``max_examples_per_class`` (Vitter's algorithm R,
                                     like the in-memory classifier's)
    BASE:models                HASH  ROLE -> the published model (zlib'd pickle of a
                                     :class:`Published`: version, fitted model, harvest rate)
    BASE:learning_lock         STRING the worker retraining; expires after ``lock_seconds``

Each page a worker counts is one script call (:meth:`SharedLinkModels.step`) that adds the
examples labelled since its last page, counts the page (and the bilingual sites found since)
crawl-wide, and, when ``learning_interval`` crawl-wide pages passed since the last learning
iteration, takes the lock (SET NX PX) for the caller. The worker holding it reads every example,
fits each role's model and publishes it with version + 1 if the lock is still its own (a lock
that expired while it trained lost the iteration): so no version is given twice or goes down.
The answer to every step also holds the published versions, and a worker whose classifier is
older loads the newer model (one HGET). A worker killed while holding the lock holds up the next
iteration no longer than ``lock_seconds``: then the next worker due retrains.
"""

from __future__ import annotations

import json
import logging
import pickle
import random
import uuid
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.frontier.bipartite import BACKLINK
from bilingual_spider.frontier.link_classifier import FittedLinkModel, OnlineLinkClassifier

logger = logging.getLogger(__name__)

LABELS = {True: "relevant", False: "non_relevant"}

# KEYS: learning, lock, then the example lists; ARGV: pages, sites, token, lock ms, interval,
# examples kept per class, then per example: its list's index in KEYS, its seen field, a uniform
# draw in [0, 1), its tokens. The caller gets the lock when an iteration is due (the pages at it);
# answers {pages at the lock or 0, the learning hash}.
_STEP = """
local most = tonumber(ARGV[6])
for i = 7, #ARGV, 4 do
  local list = KEYS[tonumber(ARGV[i])]
  local seen = redis.call('HINCRBY', KEYS[1], ARGV[i + 1], 1)
  if redis.call('LLEN', list) < most then
    redis.call('RPUSH', list, ARGV[i + 3])
  else
    local slot = math.floor(tonumber(ARGV[i + 2]) * seen)
    if slot < most then redis.call('LSET', list, slot, ARGV[i + 3]) end
  end
end
local pages = redis.call('HINCRBY', KEYS[1], 'pages', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'sites', ARGV[2])
local at = tonumber(redis.call('HGET', KEYS[1], 'learned_at') or '0')
local locked = 0
if pages - at >= tonumber(ARGV[5]) and redis.call('SET', KEYS[2], ARGV[3], 'NX', 'PX', ARGV[4]) then
  locked = pages
end
return {locked, redis.call('HGETALL', KEYS[1])}
"""
# KEYS: learning, lock, models; ARGV: token, pages at the lock, then per role: role, version,
# model. 1: published; 0: the lock is not the caller's any more (nothing published). Only the
# holder publishes, and it read the versions in the script that gave it the lock: each version is
# the next one, given once.
_PUBLISH = """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
for i = 3, #ARGV, 3 do
  redis.call('HSET', KEYS[1], 'version:' .. ARGV[i], ARGV[i + 1])
  redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 2])
end
redis.call('HSET', KEYS[1], 'learned_at', ARGV[2])
redis.call('DEL', KEYS[2])
return 1
"""
# KEYS: lock; ARGV: token
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Published:
    """A role's model as published: its version, the model, and the crawl's harvest rate
    (bilingual sites per page, crawl-wide) when it was fitted."""

    version: int
    model: FittedLinkModel
    harvest_rate: float


@dataclass
class LearningStep:
    """What one :meth:`SharedLinkModels.step` saw and did.

    Attributes
    ----------
    pages:
        The crawl's pages so far (every worker's).
    seen:
        Examples seen crawl-wide, per role and label (``relevant``, ``non_relevant``).
    versions:
        The published version of each role.
    retrained:
        Roles this worker retrained (and published) in this step.
    loaded:
        Roles whose newer model this worker loaded (fitted by another worker).
    models:
        What this worker now scores with, for each role retrained or loaded.
    lost_lock:
        This worker retrained but its lock had expired: nothing published.
    harvest_rate:
        The crawl's harvest rate to freeze with the backlink model from this step on (None:
        unchanged).
    """

    pages: int
    seen: dict[str, dict[str, int]]
    versions: dict[str, int]
    retrained: list[str] = field(default_factory=list)
    loaded: list[str] = field(default_factory=list)
    models: dict[str, Published] = field(default_factory=dict)
    lost_lock: bool = False
    harvest_rate: float | None = None


class SharedLinkModels:
    """Training examples and models of the link classifiers of ``roles`` in the crawl under
    ``base``, shared by its workers.

    Parameters
    ----------
    learning_interval:
        Crawl-wide pages between two learning iterations.
    max_examples_per_class:
        Examples kept per role and class (a uniform reservoir, as in
        :class:`~bilingual_spider.frontier.link_classifier.OnlineLinkClassifier`).
    lock_seconds:
        How long the retraining lock lasts: a worker killed while holding it holds up the next
        iteration no longer than that.
    seed:
        Seed of this worker's reservoir draws.
    """

    def __init__(
        self,
        redis: PatientRedis,
        base: str,
        roles: Sequence[str],
        learning_interval: int,
        max_examples_per_class: int = 20_000,
        lock_seconds: float = 60.0,
        seed: int = 0,
    ) -> None:
        self.redis = redis
        self.roles = tuple(roles)
        self.learning_interval = learning_interval
        self.max_examples_per_class = max_examples_per_class
        self.lock_ms = max(1, round(lock_seconds * 1000))
        self.token = uuid.uuid4().hex
        self.learning_key = f"{base}:learning"
        self.lock_key = f"{base}:learning_lock"
        self.models_key = f"{base}:models"
        self.example_keys = {
            (role, relevant): f"{base}:examples:{role}:{label}"
            for role in self.roles
            for relevant, label in LABELS.items()
        }
        self._list_index = {pair: i + 3 for i, pair in enumerate(self.example_keys)}  # in KEYS
        self._step = redis.script(_STEP)
        self._publish = redis.script(_PUBLISH)
        self._release = redis.script(_RELEASE)
        self._rng = random.Random(seed)
        self._pending: list[tuple[str, bool, str]] = []
        self._counted = (0, 0)  # pages and sites of this worker already counted crawl-wide
        self.sent = {role: 0 for role in self.roles}
        """Examples this worker added, per role."""

    def adopt(
        self, classifiers: Mapping[str, OnlineLinkClassifier]
    ) -> tuple[dict[str, OnlineLinkClassifier], float | None]:
        """The classifiers this worker scores with, and the harvest rate frozen with them
        (None: none yet): ``classifiers``, fresh; a restarted worker loads the published
        models at its first :meth:`step`."""
        return dict(classifiers), None

    def add_example(self, role: str, tokens: Sequence[str], relevant: bool) -> None:
        """One labelled link, sent to Redis with the next :meth:`step`."""
        self._pending.append((role, relevant, json.dumps(list(tokens), ensure_ascii=False)))

    def step(
        self, classifiers: Mapping[str, OnlineLinkClassifier], pages: int, sites: int
    ) -> LearningStep:
        """This worker counted ``pages`` pages and found ``sites`` bilingual sites so far: send
        the examples added since the last step, count the new pages and sites crawl-wide,
        retrain when an iteration is due and the lock is free, and load into ``classifiers``
        any model newer than theirs."""
        locked, state = self._send(pages, sites)
        step = LearningStep(
            pages=int(state.get("pages", 0)),
            seen={
                role: {
                    label: int(state.get(f"seen:{role}:{label}", 0)) for label in LABELS.values()
                }
                for role in self.roles
            },
            versions={role: int(state.get(f"version:{role}", 0)) for role in self.roles},
        )
        if locked:
            self._retrain(classifiers, step, locked, int(state.get("sites", 0)))
        for role, classifier in classifiers.items():
            if step.versions.get(role, 0) > classifier.version:
                published = self.published(role)
                if published is not None and published.version > classifier.version:
                    classifier.load(published.model, published.version)
                    step.loaded.append(role)
                    step.models[role] = published
        if BACKLINK in step.models:
            step.harvest_rate = step.models[BACKLINK].harvest_rate
        return step

    def _send(self, pages: int, sites: int) -> tuple[int, dict[str, str]]:
        counted_pages, counted_sites = self._counted
        self._counted = (pages, sites)
        keys = [self.learning_key, self.lock_key, *self.example_keys.values()]
        args: list[str | int | float] = [pages - counted_pages, sites - counted_sites, self.token]
        args += [self.lock_ms, self.learning_interval, self.max_examples_per_class]
        for role, relevant, tokens in self._pending:
            args += [self._list_index[(role, relevant)], f"seen:{role}:{LABELS[relevant]}"]
            args += [repr(self._rng.random()), tokens]
            self.sent[role] += 1
        self._pending = []
        locked, flat = self._step(keys, args)
        state = {_text(k): _text(v) for k, v in zip(flat[::2], flat[1::2], strict=True)}
        return int(locked), state

    def _retrain(
        self,
        classifiers: Mapping[str, OnlineLinkClassifier],
        step: LearningStep,
        pages: int,
        sites: int,
    ) -> None:
        """A learning iteration under the lock: fit every role on all the examples, publish."""
        harvest_rate = sites / pages
        fitted: dict[str, Published] = {}
        try:
            for role, classifier in classifiers.items():
                seen = step.seen[role]
                model = classifier.trained_on(
                    self.examples(role, True),
                    self.examples(role, False),
                    (seen["relevant"], seen["non_relevant"]),
                )
                if model is not None:
                    fitted[role] = Published(step.versions[role] + 1, model, harvest_rate)
            args: list[str | int | bytes] = [self.token, pages]
            for role, published in fitted.items():
                args += [role, published.version, _dumps(published)]
            keys = [self.learning_key, self.lock_key, self.models_key]
            outcome = int(self._publish(keys, args))
        finally:
            self._release([self.lock_key], [self.token])
        if outcome != 1:
            step.lost_lock = True
            logger.warning(
                "learning iteration at %d pages not published: the lock expired while this "
                "worker retrained (longer than %.1f s)",
                pages,
                self.lock_ms / 1000,
            )
            fields = [f"version:{role}" for role in self.roles]  # another worker's, meanwhile
            now = self.redis.call(self.redis.client.hmget, self.learning_key, fields)
            step.versions = {role: int(v or 0) for role, v in zip(self.roles, now, strict=True)}
            return
        for role, published in fitted.items():
            classifiers[role].load(published.model, published.version)
            step.versions[role] = published.version
            step.retrained.append(role)
            step.models[role] = published

    def examples(self, role: str, relevant: bool) -> list[list[str]]:
        """The training examples of ``role`` and class ``relevant`` kept crawl-wide."""
        key = self.example_keys[(role, relevant)]
        return [json.loads(raw) for raw in self.redis.call(self.redis.client.lrange, key, 0, -1)]

    def published(self, role: str) -> Published | None:
        """The last model of ``role`` published by any worker."""
        raw = self.redis.call(self.redis.client.hget, self.models_key, role)
        return None if raw is None else pickle.loads(zlib.decompress(raw))


def _dumps(published: Published) -> bytes:
    """A published model as stored: the weights of the features no example had are all equal,
    so the pickle compresses to tens of kilobytes (2 MB raw for 2**18 features)."""
    return zlib.compress(pickle.dumps(published, protocol=5), 1)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
