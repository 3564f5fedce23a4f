"""The Backlink and Forward-Link classifiers of Barbosa et al. (2011), section 2.3.

"For each set (backlink and forward sets), the crawler builds a classifier that outputs the
relevance of a given link in that particular set": relevant forward links lead to bilingual sites
(immediate benefit), relevant backlinks lead to backlink pages that link to bilingual sites
(delayed benefit). Features: the link neighbourhood, "URL (without the host), host, anchor, and
text around the link", stop words removed, stemmed, each word tagged with its context
(:func:`neighbourhood_tokens`). "Initially, the crawler starts with no link prioritization. After a
specified number of crawled pages, a learning iteration is performed [...] we use Naive Bayes";
then "the relevance of the links in the frontier are updated" — lazily, see
:mod:`bilingual_spider.frontier.rescoring`.

Training examples are kept in one bounded reservoir per class (uniform samples of all examples
seen, Vitter's algorithm R), so memory stays flat however long the crawl runs. A learning
iteration's result is a :class:`FittedLinkModel`, which another classifier can load (the workers of
a distributed crawl share one: :mod:`bilingual_spider.distributed.model_store`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import murmurhash3_32

from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.links.features import named_languages, neighbourhood_link_tokens

UNTRAINED_SCORE = 0.5
"""Relevance of every link before the first learning iteration: no prioritisation."""
MAX_NAMED_LANGUAGES = 3
"""``around:~langs=N``: how many languages the link's block names, counted up to this many."""
CALIBRATION_FOLDS = 3
"""Folds of the sigmoid calibration of the Naive Bayes' probabilities."""
HASHED_COLUMN_CACHE = 2**16
"""Tokens whose hashed column is remembered (least recently used out). A crawl's tokens keep
coming (host labels, words around links): a cache of 2**20 kept each one until it was full
(188 B of cache entry a token, plus the token it kept alive); the common tokens, which are
most of the lookups, stay in a cache of this size, and a miss costs one MurmurHash3 call."""


def neighbourhood_tokens(context: LinkContext) -> list[str]:
    """The link-neighbourhood features of a link: ``url:``, ``host:``, ``anchor:``, ``around:``.

    "Text around the link" is taken within the link's own block element: in a list of links
    (the hubs these classifiers learn from) a 10-word window would mix every entry with its
    neighbours'; the Link Predictor keeps the window it was trained with."""
    tokens = neighbourhood_link_tokens(context, context.block_around)
    named = len(named_languages(context.block_around))
    if named:
        tokens.append(f"around:~langs={min(named, MAX_NAMED_LANGUAGES)}")
    return tokens


@dataclass(frozen=True)
class FittedLinkModel:
    """What a learning iteration fitted: enough to score links like the classifier that fitted it.

    Attributes
    ----------
    weights:
        log P(w|relevant) - log P(w|other) of each hashed feature.
    bias:
        log P(relevant) - log P(other).
    slope, intercept:
        The sigmoid calibration of the log-odds (1 and 0: none).
    relevant_share:
        Share of relevant links among all examples seen when it was fitted.
    """

    weights: np.ndarray
    bias: float
    slope: float
    intercept: float
    relevant_share: float


class OnlineLinkClassifier:
    """Naive Bayes over hashed link-neighbourhood tokens, retrained on a bounded sample.

    Parameters
    ----------
    n_features:
        Size of the hashed feature space.
    max_examples_per_class:
        Reservoir size per class; older examples are replaced uniformly at random.
    alpha:
        Additive smoothing of the Naive Bayes.
    random_state:
        Seed of the reservoirs (a crawl is reproducible for a seed).
    calibrated:
        Calibrate the Naive Bayes' probabilities (Platt scaling of its log-odds, fitted on
        out-of-fold log-odds): Naive Bayes ranks links well but its probabilities crowd at 0 and
        1, and the frontier compares them with a harvest rate
        (:class:`~bilingual_spider.frontier.rescoring.DiscountedBacklinkModel`). The order of the
        links is the same either way (an increasing sigmoid of the Naive Bayes fitted on all
        examples).

    Attributes
    ----------
    version:
        0 before the first learning iteration, then the number of iterations that trained a model.
    relevant_share:
        Share of relevant links among all examples seen, frozen at the last learning iteration
        (the harvest rate of the links this classifier judges); ``None`` before the first.
    """

    def __init__(
        self,
        n_features: int = 2**18,
        max_examples_per_class: int = 20_000,
        alpha: float = 1.0,
        random_state: int = 0,
        calibrated: bool = True,
    ) -> None:
        self.n_features = n_features
        self.calibrated = calibrated
        self.max_examples_per_class = max_examples_per_class
        self.alpha = alpha
        self.version = 0
        self.relevant_share: float | None = None
        self._rng = random.Random(random_state)
        self._reservoirs: dict[bool, list[tuple[str, ...]]] = {True: [], False: []}
        self._seen: dict[bool, int] = {True: 0, False: 0}
        self._weights: np.ndarray | None = None  # log P(w|relevant) - log P(w|other)
        self._bias = 0.0
        self._slope, self._intercept = 1.0, 0.0

    def add_example(self, tokens: Sequence[str], relevant: bool) -> None:
        """Remember one labelled link (its neighbourhood tokens) for the next iteration."""
        reservoir = self._reservoirs[relevant]
        self._seen[relevant] += 1
        if len(reservoir) < self.max_examples_per_class:
            reservoir.append(tuple(tokens))
            return
        slot = self._rng.randrange(self._seen[relevant])
        if slot < self.max_examples_per_class:
            reservoir[slot] = tuple(tokens)

    @property
    def examples_seen(self) -> dict[str, int]:
        return {"relevant": self._seen[True], "non_relevant": self._seen[False]}

    def retrain(self) -> bool:
        """A learning iteration: fit on the kept examples. Needs both classes; returns whether a
        new model (and version) came out."""
        relevant, other = self._reservoirs[True], self._reservoirs[False]
        if not relevant or not other:
            return False
        features = self._example_features(relevant + other)
        labels = np.array([1] * len(relevant) + [0] * len(other))
        self._weights, self._bias = naive_bayes_log_odds(features, labels, self.alpha)
        self._slope, self._intercept = 1.0, 0.0
        folds = min(CALIBRATION_FOLDS, len(relevant), len(other))
        if self.calibrated and folds >= 2:
            self._calibrate(features, labels, folds)
        self.relevant_share = self._seen[True] / (self._seen[True] + self._seen[False])
        self.version += 1
        return True

    def fitted(self) -> FittedLinkModel | None:
        """The model of the last learning iteration (None before the first)."""
        if self._weights is None or self.relevant_share is None:
            return None
        return FittedLinkModel(
            self._weights, self._bias, self._slope, self._intercept, self.relevant_share
        )

    def trained_on(
        self,
        relevant: Sequence[Sequence[str]],
        non_relevant: Sequence[Sequence[str]],
        seen: tuple[int, int],
    ) -> FittedLinkModel | None:
        """The model a learning iteration of a classifier with this one's settings fits on
        these examples (``seen``: how many relevant and non-relevant examples they sample); this
        classifier is left as it is. None when a class has no example."""
        other = OnlineLinkClassifier(
            self.n_features, self.max_examples_per_class, self.alpha, calibrated=self.calibrated
        )
        other._reservoirs = {
            True: [tuple(t) for t in relevant],
            False: [tuple(t) for t in non_relevant],
        }
        other._seen = {True: seen[0], False: seen[1]}
        return other.fitted() if other.retrain() else None

    def load(self, model: FittedLinkModel, version: int) -> None:
        """Score with ``model`` from now on, as version ``version`` (the examples stay)."""
        if len(model.weights) != self.n_features:
            raise ValueError(f"a model of {len(model.weights)} features, not {self.n_features}")
        self._weights, self._bias = model.weights, model.bias
        self._slope, self._intercept = model.slope, model.intercept
        self.relevant_share = model.relevant_share
        self.version = version

    def _calibrate(self, features: sparse.csr_matrix, labels: np.ndarray, folds: int) -> None:
        """Platt scaling of the Naive Bayes' log-odds, fitted on out-of-fold log-odds."""
        log_odds = np.zeros(len(labels))
        splits = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
        for train, test in splits.split(np.zeros(len(labels)), labels):
            held_out = features[test]
            fold_weights, fold_bias = naive_bayes_log_odds(
                features[train], labels[train], self.alpha, np.unique(held_out.indices)
            )
            log_odds[test] = held_out @ fold_weights + fold_bias
        platt = LogisticRegression(C=1e4, solver="newton-cholesky")  # 4x lbfgs's speed here
        platt.fit(log_odds.reshape(-1, 1), labels)
        slope = float(platt.coef_[0, 0])
        if slope > 0:  # a sigmoid that keeps the order of the Naive Bayes
            self._slope, self._intercept = slope, float(platt.intercept_[0])

    def predict_proba(self, token_lists: Sequence[Sequence[str]]) -> np.ndarray:
        """P(relevant) of each link; :data:`UNTRAINED_SCORE` before the first iteration."""
        if self._weights is None:
            return np.full(len(token_lists), UNTRAINED_SCORE)
        if not token_lists:
            return np.zeros(0)
        log_odds = self._features(token_lists) @ self._weights + self._bias
        return 1.0 / (1.0 + np.exp(-(self._slope * log_odds + self._intercept)))

    def score(self, tokens: Sequence[str]) -> float:
        """P(relevant) of one link (the frontier's hot path: no matrix is built)."""
        if self._weights is None:
            return UNTRAINED_SCORE
        weights = self._weights
        log_odds = self._bias + sum(weights[self._index(token)] for token in tokens)
        return float(1.0 / (1.0 + math.exp(-(self._slope * log_odds + self._intercept))))

    def _index(self, token: str) -> int:
        return _hashed_column(token, self.n_features)

    def _features(self, token_lists: Sequence[Sequence[str]]) -> sparse.csr_matrix:
        """Token counts as a sparse matrix over the hashed feature space."""
        return self._matrix([self._columns_of(tokens) for tokens in token_lists])

    def _example_features(self, examples: Sequence[tuple[str, ...]]) -> sparse.csr_matrix:
        """:meth:`_features` of kept examples, each hashed once while it is kept (a learning
        iteration fits on every kept example, most of them kept since the last one)."""
        known = self.__dict__.setdefault("_example_columns", {})
        columns = [known.get(e) if e in known else self._columns_of(e) for e in examples]
        self.__dict__["_example_columns"] = dict(zip(examples, columns, strict=True))
        return self._matrix(columns)

    def _columns_of(self, tokens: Sequence[str]) -> np.ndarray:
        return np.fromiter(map(self._index, tokens), dtype=np.int64, count=len(tokens))

    def _matrix(self, columns: Sequence[np.ndarray]) -> sparse.csr_matrix:
        lengths = np.fromiter(map(len, columns), dtype=np.int64, count=len(columns))
        rows = np.repeat(np.arange(len(columns)), lengths)
        flat = np.concatenate(columns) if columns else np.zeros(0, dtype=np.int64)
        shape = (len(columns), self.n_features)
        return sparse.csr_matrix((np.ones(len(flat)), (rows, flat)), shape=shape)


@lru_cache(maxsize=HASHED_COLUMN_CACHE)
def _hashed_column(token: str, n_features: int) -> int:
    """A token's column in a hashed feature space of ``n_features`` columns (MurmurHash3)."""
    return murmurhash3_32(token, positive=True) % n_features


def naive_bayes_log_odds(
    features: sparse.csr_matrix,
    labels: np.ndarray,
    alpha: float,
    columns: np.ndarray | None = None,
) -> tuple[np.ndarray, float]:
    """The log-odds weights and bias of a multinomial Naive Bayes fitted on ``features`` and 0/1
    ``labels``: scikit-learn's ``MultinomialNB(alpha)``'s ``feature_log_prob_[1] -
    feature_log_prob_[0]`` and ``class_log_prior_[1] - class_log_prior_[0]``, in closed form
    (McCallum and Nigam 1998: Laplace-smoothed word counts per class). ``columns``: the weights
    of only these columns (the others are 0), which is all a held-out fold needs; a learning
    iteration fits six models (five calibration folds), each over 2**18 columns otherwise."""
    counts = np.vstack(
        [np.asarray(features[labels == label].sum(axis=0)).ravel() for label in (0, 1)]
    )
    totals = np.log(counts.sum(axis=1) + alpha * features.shape[1])
    weights = np.zeros(features.shape[1])
    chosen = slice(None) if columns is None else columns
    smoothed = np.log(counts[:, chosen] + alpha)
    weights[chosen] = (smoothed[1] - totals[1]) - (smoothed[0] - totals[0])
    class_counts = np.bincount(labels, minlength=2)
    return weights, float(np.log(class_counts[1]) - np.log(class_counts[0]))
