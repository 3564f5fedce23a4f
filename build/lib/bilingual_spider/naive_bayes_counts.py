"""Multinomial Naive Bayes models stored as their sparse feature counts (no pickle).

A fitted :class:`~sklearn.naive_bayes.MultinomialNB` is fully described by its classes and
feature counts (with its ``alpha`` and ``fit_prior=False``): fitting it again on one row of summed
counts per class gives back exactly the same model. Over hashed features most counts are zero, so
the counts are stored sparse in an ``.npz`` (a few hundred KB where the dense arrays would take
tens of MB), under a key prefix so one file can hold several models.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import sparse
from sklearn.naive_bayes import MultinomialNB


def naive_bayes_arrays(model: MultinomialNB, prefix: str) -> dict[str, np.ndarray]:
    """The arrays that store ``model`` (to pass to ``np.savez_compressed``)."""
    counts = sparse.csr_matrix(model.feature_count_.astype(np.float32))
    return {
        f"{prefix}_classes": np.array(model.classes_),
        f"{prefix}_data": counts.data,
        f"{prefix}_indices": counts.indices,
        f"{prefix}_indptr": counts.indptr,
    }


def naive_bayes_from_arrays(
    stored: Mapping[str, np.ndarray], prefix: str, n_features: int, alpha: float
) -> MultinomialNB | None:
    """The model stored under ``prefix``, or ``None`` when there is none."""
    if f"{prefix}_classes" not in stored:
        return None
    classes = stored[f"{prefix}_classes"].tolist()
    counts = sparse.csr_matrix(
        (stored[f"{prefix}_data"], stored[f"{prefix}_indices"], stored[f"{prefix}_indptr"]),
        shape=(len(classes), n_features),
    )
    return MultinomialNB(alpha=alpha, fit_prior=False).fit(counts, classes)
