"""Telling closely related languages apart where lid.176 confuses them.

lid.176 is right on ~95 % of single sentences, but most of its confident errors fall inside a few
groups of closely related languages: Indonesian called Malay, European Portuguese called Spanish
or Galician, Ukrainian called Russian, Czech called Slovak, Swedish called Danish or Norwegian
(``benchmarks/langid.py``, evaluation half of the catalogs). Discriminating similar languages is
its own task (the DSL shared tasks at VarDial, Zampieri et al. 2014-2017), where character n-gram
Naive Bayes is a strong, cheap baseline. So: when lid.176's best guess falls in one of
:data:`CLOSE_LANGUAGE_GROUPS`, a multinomial Naive Bayes over character 1-4-grams, trained on
human translations of that group only, re-weighs the group's languages.

The model is built by ``benchmarks/langid_calibrate.py`` from the *calibration* half of the
gettext catalogs (the benchmark reports on the other half) and ships as
``models/close_languages.npz``: the n-gram counts per language, sparse.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.naive_bayes import MultinomialNB

from bilingual_spider.naive_bayes_counts import naive_bayes_arrays, naive_bayes_from_arrays

CLOSE_LANGUAGE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("id", "ms"),  # Malayic: Indonesian and Malay
    ("pt", "es", "gl"),  # Ibero-Romance
    ("uk", "ru", "be"),  # East Slavic
    ("cs", "sk"),  # Czech-Slovak
    ("sv", "da", "no"),  # mainland Scandinavian (lid.176's "no"; trained on Bokmål, "nb")
    ("nl", "af"),  # Dutch and Afrikaans
)
"""Groups of closely related languages lid.176 confuses (by linguistic family; the members are the
languages its confident errors on catalog text fall into)."""

MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "close_languages.npz"
N_FEATURES = 2**18
"""Hashed character n-gram space: 2^16 lost 0.2 points of sentence accuracy on held-out text."""
ALPHA = 0.1
LID_WEIGHT = 0.5
"""Geometric weight of lid.176 against the n-gram model inside a group (0.5: equal; measured on
the calibration half, 0.8 or 1.0 for the n-gram model alone were no better)."""


def _vectorizer() -> HashingVectorizer:
    return HashingVectorizer(
        analyzer="char_wb",
        ngram_range=(1, 4),
        n_features=N_FEATURES,
        alternate_sign=False,
        norm=None,
    )


class CloseLanguageClassifier:
    """Multinomial Naive Bayes over hashed character 1-4-grams, one per group of close languages.

    Parameters
    ----------
    groups:
        Groups of languages to tell apart; a text is only ever compared within one group.
    alpha:
        Additive smoothing of the n-gram counts.
    """

    def __init__(
        self, groups: tuple[tuple[str, ...], ...] = CLOSE_LANGUAGE_GROUPS, alpha: float = ALPHA
    ) -> None:
        self.groups = groups
        self.alpha = alpha
        self._vectorizer = _vectorizer()
        self._models: dict[int, MultinomialNB] = {}
        self._weights: dict[int, np.ndarray] = {}
        self._group_of = {lang: i for i, group in enumerate(groups) for lang in group}

    def group_of(self, lang: str) -> int | None:
        """Index of the group ``lang`` belongs to, or ``None``."""
        return self._group_of.get(lang)

    def fit(self, texts: list[str], langs: list[str]) -> CloseLanguageClassifier:
        """Learn each group from the texts of its languages (texts of other languages are
        ignored)."""
        counts = self._vectorizer.transform(texts)
        for index, group in enumerate(self.groups):
            rows = [i for i, lang in enumerate(langs) if lang in group]
            labels = [langs[i] for i in rows]
            if len(set(labels)) < 2:
                raise ValueError(f"group {group}: texts of at least two languages are needed")
            self._models[index] = MultinomialNB(alpha=self.alpha, fit_prior=False).fit(
                counts[rows], labels
            )
        self._weights.clear()
        return self

    def predict_proba(self, texts: list[str], group: int) -> tuple[list[str], np.ndarray]:
        """The languages of ``group`` and, for each text, their probabilities."""
        model = self._models[group]
        if group not in self._weights:
            # n-gram x language, contiguous: scikit-learn's predict_proba multiplies by a
            # transposed view of feature_log_prob_ and copies it (2^18 x languages) on every call
            self._weights[group] = np.ascontiguousarray(model.feature_log_prob_.T)
        joint = self._vectorizer.transform(texts) @ self._weights[group] + model.class_log_prior_
        joint = np.exp(joint - joint.max(axis=1, keepdims=True))
        return list(model.classes_), joint / joint.sum(axis=1, keepdims=True)

    def save(self, path: str | os.PathLike[str] = MODEL_PATH) -> None:
        """Store the n-gram counts per language (sparse), enough to rebuild every model."""
        arrays: dict[str, np.ndarray] = {"alpha": np.array(self.alpha)}
        for index, model in self._models.items():
            arrays.update(naive_bayes_arrays(model, f"g{index}"))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str] = MODEL_PATH) -> CloseLanguageClassifier:
        """Rebuild the models from their stored counts."""
        stored = np.load(path, allow_pickle=False)
        classifier = cls(alpha=float(stored["alpha"]))
        for index in range(len(classifier.groups)):
            model = naive_bayes_from_arrays(stored, f"g{index}", N_FEATURES, classifier.alpha)
            if model is not None:
                classifier._models[index] = model
        return classifier


@lru_cache(maxsize=1)
def default_close_language_classifier() -> CloseLanguageClassifier | None:
    """The shipped model, or ``None`` when it has not been built (language ID then uses lid.176
    alone)."""
    return CloseLanguageClassifier.load() if MODEL_PATH.is_file() else None


def combine(lid_scores: dict[str, float], ngram_scores: dict[str, float]) -> tuple[str, float]:
    """The best language of a group and its score: lid.176's and the n-gram model's
    probabilities combined geometrically (:data:`LID_WEIGHT`), renormalised over the group, times
    the probability lid.176 gives the group as a whole (its doubt about the group stays)."""
    group_mass = sum(lid_scores.values())
    combined = {
        lang: lid_scores.get(lang, 1e-3) ** LID_WEIGHT * ngram_scores[lang] ** (1 - LID_WEIGHT)
        for lang in ngram_scores
    }
    total = sum(combined.values())
    best = max(combined, key=combined.__getitem__)
    return best, min(1.0, group_mass) * combined[best] / total
