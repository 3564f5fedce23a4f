"""The page classifier of the focused crawler FocC, Barbosa et al.'s baseline (2011, section 3:
"a focused crawler (Chakrabarti et al., 2002) in the travel domain [...] composed by a page
classifier that restricts the crawl to pages in the travel domain and a link classifier that
guides the crawler's link visitation").

The page classifier is a multinomial Naive Bayes over hashed words of the page's main text and
URL (Chakrabarti et al. 1999 also used a Naive Bayes page classifier). It is trained by
``bilingual-spider train topic-classifier`` on the pages of a generated sandbox world whose ground
truth gives every site a topic (never the benchmarks' worlds: seeds 0-9), and ships in
``models/topic_<topic>.npz``. The link classifier is the crawl's online
:class:`~bilingual_spider.frontier.link_classifier.OnlineLinkClassifier`, taught which links led
to on-topic pages.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.naive_bayes import MultinomialNB

from bilingual_spider.naive_bayes_counts import naive_bayes_arrays, naive_bayes_from_arrays

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
DEFAULT_TOPIC = "travel"
N_FEATURES = 2**18
ON_TOPIC = 0.5
"""A page is on topic when the classifier gives it at least this probability."""
_URL_WORDS = re.compile(r"[^\W\d_]+")


def topic_model_path(topic: str = DEFAULT_TOPIC) -> Path:
    return MODELS_DIR / f"topic_{topic}.npz"


def page_document(url: str, text: str) -> str:
    """What the page classifier reads: the words of the URL, then the page's main text."""
    return " ".join(_URL_WORDS.findall(url)) + " " + text


class TopicPageClassifier:
    """Naive Bayes "is this page on the topic?" over hashed words (scikit-learn style).

    Parameters
    ----------
    topic:
        Name of the topic (``travel``).
    alpha:
        Additive smoothing.
    """

    def __init__(self, topic: str = DEFAULT_TOPIC, alpha: float = 0.1) -> None:
        self.topic = topic
        self.alpha = alpha
        self._vectorizer = HashingVectorizer(
            n_features=N_FEATURES, alternate_sign=False, norm=None, lowercase=True
        )
        self._model: MultinomialNB | None = None

    def fit(self, documents: Sequence[str], on_topic: Iterable[bool]) -> TopicPageClassifier:
        labels = np.array([int(bool(x)) for x in on_topic])
        self._model = MultinomialNB(alpha=self.alpha, fit_prior=False).fit(
            self._vectorizer.transform(documents), labels
        )
        return self

    def predict_proba(self, documents: Sequence[str]) -> np.ndarray:
        """P(on topic) of each document."""
        if self._model is None:
            raise ValueError("the topic classifier is not fitted")
        if not documents:
            return np.zeros(0)
        probabilities = self._model.predict_proba(self._vectorizer.transform(documents))
        return probabilities[:, list(self._model.classes_).index(1)]

    def save(self, path: str | os.PathLike[str]) -> None:
        if self._model is None:
            raise ValueError("the topic classifier is not fitted")
        arrays = naive_bayes_arrays(self._model, "page")
        np.savez_compressed(path, topic=np.array(self.topic), alpha=np.array(self.alpha), **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TopicPageClassifier:
        stored = np.load(path, allow_pickle=False)
        classifier = cls(str(stored["topic"]), float(stored["alpha"]))
        classifier._model = naive_bayes_from_arrays(stored, "page", N_FEATURES, classifier.alpha)
        return classifier


@lru_cache(maxsize=4)
def default_topic_classifier(topic: str = DEFAULT_TOPIC) -> TopicPageClassifier:
    path = topic_model_path(topic)
    if not path.is_file():
        raise FileNotFoundError(
            f"no page classifier for topic {topic!r} at {path}: "
            f"bilingual-spider train topic-classifier --topic {topic}"
        )
    return TopicPageClassifier.load(path)


def topic_training_set(
    world_dir: str | os.PathLike[str], topic: str = DEFAULT_TOPIC
) -> tuple[list[str], list[bool], list[str]]:
    """Documents, labels (the page's site has ``topic``) and groups (site names) of every page
    of a generated world, from its page pack and ground truth."""
    import json

    from bilingual_spider.detection.training import read_page_pack
    from bilingual_spider.language.page_language import main_text_blocks
    from bilingual_spider.language.tld import host_of

    world = Path(world_dir)
    truth = json.loads((world / "ground_truth.json").read_text(encoding="utf-8"))
    site_of_host = {host: site for site in truth["sites"] for host in site["hosts"].values()}
    documents, labels, groups = [], [], []
    for url, body in read_page_pack(world / "pages"):
        site = site_of_host.get(host_of(url))
        if site is None or site["kind"] == "hub":
            continue
        documents.append(page_document(url, " ".join(main_text_blocks(body)[0])))
        labels.append(site["topic"] == topic)
        groups.append(site["name"])
    return documents, labels, groups
