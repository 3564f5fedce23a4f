"""The Link Predictor: the likelihood that a link leads to the same content in another language.

Barbosa et al. (2011), *Crawling back and forth*, sec. 2.1 (Link-Based Prediction): "The role of
the Link Predictor is to identify links that point to parallel text in a Web site [...] We use
probabilistic SVM (Platt, 1999) as the learning algorithm". Here: a linear SVM (``LinearSVC``)
over the hashed features of :func:`bilingual_spider.links.features.link_tokens`, with Platt's
sigmoid fitted on held-out decisions (``CalibratedClassifierCV(method="sigmoid",
ensemble=False)``): ``P(y=1 | x) = 1 / (1 + exp(A f(x) + B))``  # Platt 1999, eq. 1

Only the weights, the intercept and Platt's (A, B) are kept, so a saved model is a small ``.npz``
(no pickle) with its version, its feature settings and a description of its training data; the
shipped one is ``models/link_predictor.npz`` (card: ``models/link_predictor.md``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp
import sklearn
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.feature_extraction import FeatureHasher
from sklearn.model_selection import GroupKFold, StratifiedKFold
from sklearn.svm import LinearSVC
from sklearn.utils import murmurhash3_32

from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.links.features import FEATURES_VERSION, link_tokens

DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "link_predictor.npz"
MODEL_FORMAT = "bilingual_spider.link_predictor"
MODEL_FORMAT_VERSION = 1
AROUND_WORDS = 10
"""Words of ``around`` the model is trained with (``extract_link_contexts``' default)."""
TOKEN_COLUMN_CACHE = 2**16
"""Tokens whose column :class:`TokenColumns` remembers. A crawl's tokens keep coming (host
labels, words around links): a bound of 1,000,000 kept each one until then (70 B of entry a
token, plus the token it kept alive, about 66 B): 5.5 MB of a COBFC crawl's traced growth from
40,000 to 73,862 pages (issue 32). A miss costs one MurmurHash3 call."""


class LinkPredictor(ClassifierMixin, BaseEstimator):
    """Probabilistic linear SVM over link contexts (scikit-learn estimator API).

    Parameters
    ----------
    C : float
        Inverse regularisation strength of the linear SVM.
    n_features : int
        Width of the hashed feature space (``FeatureHasher``, no sign flipping).
    norm : "l2" or None
        Normalisation of each link's binary feature vector.
    hide_languages : float
        Share of the training links (drawn with ``random_state``) seen without the words that
        name a language or are its code, markers kept (``link_tokens(hide_languages=True)``):
        the model then also trusts the markers alone, and ranks a switcher to a language it
        never saw (Korean, Swahili) as it ranks one to Spanish.
    class_weight : dict, "balanced" or None
        Weights of the classes in the SVM's loss; "balanced" because about 1 link in 20 is
        positive. Platt's sigmoid is fitted without weights, so probabilities stay calibrated.
    calibration_folds : int
        Folds of the held-out decisions Platt's sigmoid is fitted on (grouped by site when
        ``fit`` is given ``groups``).
    max_iter : int
        Iterations of liblinear.
    random_state : int
        Seed of the calibration folds when there are no groups.
    """

    def __init__(
        self,
        C: float = 0.5,  # noqa: N803 (scikit-learn's name)
        n_features: int = 2**18,
        norm: str | None = "l2",
        hide_languages: float = 0.5,
        class_weight: dict[int, float] | str | None = "balanced",
        calibration_folds: int = 5,
        max_iter: int = 5000,
        random_state: int = 0,
    ) -> None:
        self.C = C
        self.n_features = n_features
        self.norm = norm
        self.hide_languages = hide_languages
        self.class_weight = class_weight
        self.calibration_folds = calibration_folds
        self.max_iter = max_iter
        self.random_state = random_state

    # -- features --------------------------------------------------------------------------

    def transform(
        self, contexts: Sequence[LinkContext], hidden: Sequence[bool] | None = None
    ) -> sp.csr_matrix:
        """Hashed binary features of each context (normalised as ``norm`` says); ``hidden[i]``:
        context i without its language words (see ``hide_languages``).

        The same matrix as ``FeatureHasher(n_features, input_type="string",
        alternate_sign=False)`` with every value set to 1, then ``normalize(norm=norm)``; each
        token is hashed once per model (:class:`TokenColumns`), so scoring a page's links costs
        dictionary lookups, not a scikit-learn transform per page."""
        flags = hidden if hidden is not None else [False] * len(contexts)
        columns = self._token_columns()
        rows = columns.rows([link_tokens(c, bool(h)) for c, h in zip(contexts, flags, strict=True)])
        return binary_rows(rows, self.n_features, self.norm)

    def _token_columns(self) -> TokenColumns:
        columns = self.__dict__.get("_columns")
        if columns is None or columns.n_features != self.n_features:
            columns = self.__dict__["_columns"] = TokenColumns(self.n_features)
        return columns

    def training_features(
        self, contexts: Sequence[LinkContext], features: sp.csr_matrix | None = None
    ) -> sp.csr_matrix:
        """The features :meth:`fit` learns from: :meth:`transform`'s (``features``, if made
        already), with a ``hide_languages`` share of the rows made without language words."""
        if features is None:
            features = self.transform(contexts)
        rng = np.random.default_rng(self.random_state)
        chosen = np.flatnonzero(rng.random(len(contexts)) < self.hide_languages)
        if not len(chosen):
            return features
        hidden = self.transform([contexts[i] for i in chosen], [True] * len(chosen))
        rows = np.arange(len(contexts))
        rows[chosen] = len(contexts) + np.arange(len(chosen))
        return sp.vstack([features, hidden], format="csr")[rows]

    # -- fitting ---------------------------------------------------------------------------

    def fit(
        self,
        contexts: Sequence[LinkContext],
        y: Sequence[int] | np.ndarray,
        groups: Sequence[str] | None = None,
    ) -> LinkPredictor:
        """Fit the SVM on all contexts and Platt's sigmoid on held-out decisions.

        Parameters
        ----------
        contexts : list of LinkContext
        y : array of 0/1, 1 = the link leads to the same content in another language
        groups : optional site of each context; the calibration folds then never split a site
        """
        return self.fit_features(self.training_features(contexts), y, groups)

    def fit_features(
        self,
        features: sp.csr_matrix,
        y: Sequence[int] | np.ndarray,
        groups: Sequence[str] | None = None,
    ) -> LinkPredictor:
        """:meth:`fit` on features already made by :meth:`transform` (cross-validation makes
        them once)."""
        labels = np.asarray(y, dtype=int)
        if set(np.unique(labels)) != {0, 1}:
            raise ValueError("LinkPredictor.fit needs both positive and negative links")
        svm = LinearSVC(
            C=self.C, class_weight=self.class_weight, max_iter=self.max_iter, dual="auto"
        )
        calibrated = CalibratedClassifierCV(
            svm, method="sigmoid", cv=self._folds(features, labels, groups), ensemble=False
        )
        calibrated.fit(features, labels)
        fitted = calibrated.calibrated_classifiers_[0]
        self.coef_ = np.asarray(fitted.estimator.coef_, dtype=np.float64).ravel()
        self.intercept_ = float(fitted.estimator.intercept_[0])
        sigmoid = fitted.calibrators[0]
        self.platt_ = (float(sigmoid.a_), float(sigmoid.b_))
        self.classes_ = np.array([0, 1])
        self.training_: dict[str, Any] = {}
        return self

    def _folds(
        self, features: sp.csr_matrix, labels: np.ndarray, groups: Sequence[str] | None
    ) -> list[tuple[np.ndarray, np.ndarray]]:
        if groups is not None and len(set(groups)) >= self.calibration_folds:
            splitter = GroupKFold(self.calibration_folds)
            return list(splitter.split(features, labels, np.asarray(groups)))
        stratified = StratifiedKFold(
            self.calibration_folds, shuffle=True, random_state=self.random_state
        )
        return list(stratified.split(features, labels))

    # -- prediction ------------------------------------------------------------------------

    def decision_function(self, contexts: Sequence[LinkContext]) -> np.ndarray:
        """The SVM's signed distance of each context (positive: likely a translation link)."""
        self._check_fitted()
        if not contexts:
            return np.zeros(0)
        # transform(contexts) @ coef_ + intercept_, without the matrix: a row's binary features
        # all have the same value (its norm's scale), so its decision is that value times the
        # sum of its columns' weights. A page's few links cost dictionary lookups, not a sparse
        # matrix built and multiplied per page.
        columns, weights = self._token_columns(), self._column_weights()
        scale = _ROW_SCALE.get(self.norm)
        if scale is None:
            raise ValueError(f"unknown norm {self.norm!r}")
        decisions = np.empty(len(contexts))
        for i, context in enumerate(contexts):
            distinct = columns.distinct(link_tokens(context))
            total = sum(weights.get(c, 0.0) for c in distinct)
            decisions[i] = total * scale(len(distinct)) if distinct else 0.0
        return decisions + self.intercept_

    def _column_weights(self) -> dict[int, float]:
        """The non-zero weights of ``coef_`` by column (made again when ``coef_`` is replaced,
        by :meth:`fit` or :meth:`load`)."""
        cached = self.__dict__.get("_weights")
        if cached is None or cached[0] is not self.coef_:
            nonzero = np.flatnonzero(self.coef_)
            weights = dict(zip(nonzero.tolist(), self.coef_[nonzero].tolist(), strict=True))
            cached = self.__dict__["_weights"] = (self.coef_, weights)
        return cached[1]

    def predict_proba(self, contexts: Sequence[LinkContext]) -> np.ndarray:
        """``(n, 2)``; column 1 = P(the link leads to the same content in another language)."""
        return self._probabilities(self.decision_function(contexts))

    def predict_proba_features(self, features: sp.csr_matrix) -> np.ndarray:
        """:meth:`predict_proba` of features made by :meth:`transform`."""
        self._check_fitted()
        return self._probabilities(features @ self.coef_ + self.intercept_)

    def _probabilities(self, decisions: np.ndarray) -> np.ndarray:
        a, b = self.platt_
        positive = expit(-(a * decisions + b))  # Platt 1999, eq. 1
        return np.column_stack([1.0 - positive, positive])

    def predict(self, contexts: Sequence[LinkContext]) -> np.ndarray:
        return (self.predict_proba(contexts)[:, 1] >= 0.5).astype(int)

    def _check_fitted(self) -> None:
        if not hasattr(self, "coef_"):
            raise ValueError("this LinkPredictor is not fitted yet: call fit() or load()")

    # -- persistence -----------------------------------------------------------------------

    def save(self, path: str | Path, training: dict[str, Any] | None = None) -> Path:
        """Write the model to ``path`` (``.npz``): weights, intercept, Platt's (A, B), and as
        JSON its format version, feature settings, parameters and ``training`` (a description
        of the data and the scores; kept from :meth:`load` when not given)."""
        self._check_fitted()
        if training is not None:
            self.training_ = training
        nonzero = np.flatnonzero(self.coef_)
        meta = {
            "format": MODEL_FORMAT,
            "format_version": MODEL_FORMAT_VERSION,
            "saved": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "features": feature_settings(self.n_features),
            "params": self.get_params(),
            "scikit_learn": sklearn.__version__,
            "nonzero_weights": int(len(nonzero)),
            "platt": [round(v, 4) for v in self.platt_],
            "training": self.training_,
        }
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            np.savez_compressed(
                f,
                indices=nonzero.astype(np.int32),
                weights=self.coef_[nonzero].astype(np.float32),
                intercept=np.array([self.intercept_]),
                platt=np.array(self.platt_),
                meta=np.array(json.dumps(meta, ensure_ascii=False)),
            )
        return path

    @classmethod
    def load(cls, path: str | Path) -> LinkPredictor:
        """A model written by :meth:`save`; ValueError when its features are not this code's."""
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != MODEL_FORMAT:
                raise ValueError(f"{path}: not a link predictor model")
            expected = feature_settings(meta["features"]["n_features"])
            if meta["features"] != expected:
                raise ValueError(
                    f"{path}: trained with features {meta['features']}, this code makes "
                    f"{expected}: retrain it (bilingual-spider train link-predictor)"
                )
            model = cls(**meta["params"])
            coef = np.zeros(model.n_features)
            coef[data["indices"]] = data["weights"]
            model.coef_ = coef
            model.intercept_ = float(data["intercept"][0])
            a, b = (float(v) for v in data["platt"])
            model.platt_ = (a, b)
        model.classes_ = np.array([0, 1])
        model.training_ = meta.get("training", {})
        model.meta_ = meta
        return model


def feature_settings(n_features: int) -> dict[str, Any]:
    """What a model's features depend on; a saved model is only valid with the same."""
    return {
        "version": FEATURES_VERSION,
        "contexts": f"extract_link_contexts(around_words={AROUND_WORDS})",
        "tokens": "bilingual_spider.links.features.link_tokens",
        "hashing": "FeatureHasher (MurmurHash3), alternate_sign=False",
        "n_features": int(n_features),
        "values": "binary (1 if the token occurs), rows normalised by the `norm` parameter",
    }


class TokenColumns:
    """The column of each token in a hashed feature space of ``n_features`` columns, as
    scikit-learn's ``FeatureHasher(alternate_sign=False)`` puts it: MurmurHash3 (seed 0) of the
    token's UTF-8 bytes, its absolute value modulo ``n_features``. Each token is hashed once and
    remembered (at most ``max_tokens``; then all forgotten and learned again). The one hash whose
    absolute value is not an int32 (-2**31) is left to ``FeatureHasher`` itself."""

    def __init__(self, n_features: int, max_tokens: int = TOKEN_COLUMN_CACHE) -> None:
        self.n_features = n_features
        self.hasher = FeatureHasher(n_features, input_type="string", alternate_sign=False)
        self.max_tokens = max_tokens
        self._columns: dict[str, int] = {}

    def rows(self, token_lists: Sequence[Sequence[str]]) -> list[list[int]]:
        """The sorted distinct columns of each list of tokens."""
        return [sorted(self.distinct(tokens)) for tokens in token_lists]

    def distinct(self, tokens: Sequence[str]) -> set[int]:
        """The distinct columns of a list of tokens."""
        known = self._columns
        column = self.column
        return {known[t] if t in known else column(t) for t in tokens}

    def column(self, token: str) -> int:
        hashed = murmurhash3_32(token, seed=0)
        if hashed == _INT32_MIN:
            found = int(self.hasher.transform([[token]]).indices[0])
        else:
            found = abs(hashed) % self.n_features
        if len(self._columns) >= self.max_tokens:
            self._columns.clear()
        self._columns[token] = found
        return found


_INT32_MIN = -(2**31)


_ROW_SCALE = {
    "l2": lambda n: 1.0 / math.sqrt(n),
    "l1": lambda n: 1.0 / n,
    "max": lambda n: 1.0,
    None: lambda n: 1.0,
}
"""The value of each of a binary row's ``n`` features after ``normalize(norm=...)``."""


def binary_rows(rows: Sequence[Sequence[int]], n_features: int, norm: str | None) -> sp.csr_matrix:
    """A CSR matrix with a 1 in each row's columns, each row normalised as scikit-learn's
    ``normalize`` does (``l2``, ``l1``, ``max``) or not (None)."""
    counts = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = np.fromiter((c for r in rows for c in r), dtype=np.int32, count=int(indptr[-1]))
    if norm == "l2":
        data = np.repeat(1.0 / np.sqrt(np.maximum(counts, 1)), counts)
    elif norm == "l1":
        data = np.repeat(1.0 / np.maximum(counts, 1), counts)
    elif norm in (None, "max"):
        data = np.ones(int(indptr[-1]))
    else:
        raise ValueError(f"unknown norm {norm!r}")
    return sp.csr_matrix((data, indices, indptr), shape=(len(rows), n_features))


@lru_cache(maxsize=1)
def default_link_predictor() -> LinkPredictor:
    """The shipped model (``models/link_predictor.npz``), loaded once per process."""
    if not DEFAULT_MODEL_PATH.is_file():
        raise FileNotFoundError(
            f"{DEFAULT_MODEL_PATH} is missing: build it with "
            "`bilingual-spider train link-predictor`"
        )
    return LinkPredictor.load(DEFAULT_MODEL_PATH)
