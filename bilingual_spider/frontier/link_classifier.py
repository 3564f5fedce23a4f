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
seen, Vitter's algorithm R), so memory stays flat however long the crawl runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.naive_bayes import MultinomialNB

from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.links.features import link_tokens

NEIGHBOURHOOD_CONTEXTS = ("url:", "host:", "anchor:", "around:")
"""The four contexts of the paper's link neighbourhood (``url:`` holds no host words)."""
UNTRAINED_SCORE = 0.5
"""Relevance of every link before the first learning iteration: no prioritisation."""


def neighbourhood_tokens(context: LinkContext) -> list[str]:
    """The link-neighbourhood features of a link: ``url:``, ``host:``, ``anchor:``, ``around:``."""
    return [token for token in link_tokens(context) if token.startswith(NEIGHBOURHOOD_CONTEXTS)]


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

    Attributes
    ----------
    version:
        0 before the first learning iteration, then the number of iterations that trained a model.
    """

    def __init__(
        self,
        n_features: int = 2**18,
        max_examples_per_class: int = 20_000,
        alpha: float = 1.0,
        random_state: int = 0,
    ) -> None:
        self.n_features = n_features
        self.max_examples_per_class = max_examples_per_class
        self.alpha = alpha
        self.version = 0
        self._hasher = FeatureHasher(
            n_features=n_features, input_type="string", alternate_sign=False
        )
        self._rng = random.Random(random_state)
        self._reservoirs: dict[bool, list[tuple[str, ...]]] = {True: [], False: []}
        self._seen: dict[bool, int] = {True: 0, False: 0}
        self._model: MultinomialNB | None = None

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
        features = self._hasher.transform(relevant + other)
        labels = np.array([1] * len(relevant) + [0] * len(other))
        self._model = MultinomialNB(alpha=self.alpha).fit(features, labels)
        self.version += 1
        return True

    def predict_proba(self, token_lists: Sequence[Sequence[str]]) -> np.ndarray:
        """P(relevant) of each link; :data:`UNTRAINED_SCORE` before the first iteration."""
        if self._model is None:
            return np.full(len(token_lists), UNTRAINED_SCORE)
        if not token_lists:
            return np.zeros(0)
        return self._model.predict_proba(self._hasher.transform(token_lists))[:, 1]

    def score(self, tokens: Sequence[str]) -> float:
        """P(relevant) of one link."""
        return float(self.predict_proba([tokens])[0])
