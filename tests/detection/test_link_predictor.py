"""The Link Predictor: scikit-learn's estimator API, save/load, and the shipped model, which
loads without network and ranks language-switcher links far above ordinary links."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from bilingual_spider.detection.link_predictor import (
    DEFAULT_MODEL_PATH,
    TOKEN_COLUMN_CACHE,
    LinkPredictor,
    TokenColumns,
    default_link_predictor,
)
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts
from bilingual_spider.links.features import FEATURES_VERSION, link_tokens

SWITCHERS = [  # (page URL, page language, switcher href, switcher label or <img>, pair)
    ("http://example.com/about.html", "en", "/es/about.html", "Español", "en-es"),
    ("http://example.com/es/about.html", "es", "/about.html", "English", "es-en"),
    ("http://www.hotel.fr/fr/chambres.html", "fr", "/de/zimmer.html", "Deutsch", "fr-de"),
    ("http://www.shop.co.jp/", "ja", "http://en.shop.co.jp/", "English", "ja-en"),
    ("http://www.gov.hk/tc/news.htm", "zh-Hant", "/en/news.htm", "English", "zh-Hant-en"),
    ("http://example.com/index_en.html", "en", "index_zh.html", "简体中文", "en-zh-Hans"),
    ("http://www.city.kr/en/", "en", "/ko/", "한국어", "en-ko"),
    ("http://example.ru/ru/", "ru", "/en/", "English", "ru-en"),
    ("http://example.com/page.php?lang=en", "en", "page.php?lang=fr",
     '<img src="/img/flags/fr.png" alt="">', "en-fr flag"),
]  # fmt: skip


def page_with_switcher(page_url: str, lang: str, href: str, label: str) -> str:
    return (
        f'<html lang="{lang}"><body><div id="header"><a href="/">Home</a> '
        f'<a href="{href}">{label}</a></div><ul id="menu"><li><a href="products.html">Products'
        '</a></li><li><a href="/contact.html">Contact</a></li></ul><p>Our company makes fine '
        'things. Read the <a href="news/2024.html">latest news</a> or visit '
        '<a href="http://partner.example.org/">our partner</a>.</p></body></html>'
    )


@pytest.fixture(scope="module")
def shipped() -> LinkPredictor:
    if not DEFAULT_MODEL_PATH.is_file():
        pytest.fail(f"{DEFAULT_MODEL_PATH} is missing: bilingual-spider train link-predictor")
    return default_link_predictor()


def test_the_shipped_model_loads_without_network(monkeypatch: pytest.MonkeyPatch):
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Link Predictor tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    model = LinkPredictor.load(DEFAULT_MODEL_PATH)
    assert model.meta_["features"]["version"] == FEATURES_VERSION
    assert model.training_["data"]["positives"] > 0
    assert DEFAULT_MODEL_PATH.stat().st_size < 5 * 1024 * 1024
    assert DEFAULT_MODEL_PATH.with_suffix(".md").is_file()


@pytest.mark.parametrize(("page_url", "lang", "href", "label", "pair"), SWITCHERS)
def test_switcher_links_score_far_above_ordinary_links(
    shipped: LinkPredictor, page_url: str, lang: str, href: str, label: str, pair: str
):
    contexts = extract_link_contexts(page_with_switcher(page_url, lang, href, label), page_url)
    scores = shipped.predict_proba(contexts)[:, 1]
    switcher = next(i for i, c in enumerate(contexts) if c.url.endswith(href.lstrip("/")))
    others = np.delete(scores, switcher)
    assert scores[switcher] >= 0.5, pair
    assert scores[switcher] - others.max() >= 0.4, pair


def test_hreflang_alternates_score_high(shipped: LinkPredictor):
    page = (
        '<html lang="en"><head><link rel="alternate" hreflang="de" href="/de/preise.html">'
        '</head><body><a href="/contact.html">Contact</a></body></html>'
    )
    scores = shipped.predict_proba(extract_link_contexts(page, "http://example.com/prices.html"))
    assert scores[0, 1] > 0.8 > 0.2 > scores[1, 1]


def synthetic_data() -> tuple[list[LinkContext], np.ndarray, list[str]]:
    contexts, labels, groups = [], [], []
    for site, (page_url, lang, href, label, _) in enumerate(SWITCHERS * 3):
        page = page_with_switcher(page_url, lang, href, label)
        for context in extract_link_contexts(page, page_url.replace("example", f"ex{site}")):
            contexts.append(context)
            labels.append(int(href.lstrip("/") in context.url))
            groups.append(f"site{site}")
    return contexts, np.array(labels), groups


@pytest.fixture(scope="module")
def small_model() -> tuple[LinkPredictor, list[LinkContext], np.ndarray]:
    contexts, labels, groups = synthetic_data()
    model = LinkPredictor(n_features=2**14, calibration_folds=3).fit(contexts, labels, groups)
    return model, contexts, labels


def test_estimator_api(small_model: tuple[LinkPredictor, list[LinkContext], np.ndarray]):
    model, contexts, labels = small_model
    probabilities = model.predict_proba(contexts)
    assert probabilities.shape == (len(contexts), 2)
    assert np.allclose(probabilities.sum(axis=1), 1.0)
    assert set(model.predict(contexts)) <= {0, 1}
    assert list(model.classes_) == [0, 1]
    assert model.decision_function(contexts)[labels == 1].min() > 0
    assert clone(model).get_params() == model.get_params()
    assert model.predict_proba([]).shape == (0, 2)


def test_save_and_load_give_the_same_probabilities_and_keep_the_description(
    small_model: tuple[LinkPredictor, list[LinkContext], np.ndarray], tmp_path: Path
):
    model, contexts, _ = small_model
    path = model.save(tmp_path / "m.npz", {"data": {"links": len(contexts)}})
    loaded = LinkPredictor.load(path)
    assert np.allclose(loaded.predict_proba(contexts), model.predict_proba(contexts), atol=1e-6)
    assert loaded.training_ == {"data": {"links": len(contexts)}}
    assert loaded.get_params() == model.get_params()


def test_a_model_of_other_features_is_refused(
    small_model: tuple[LinkPredictor, list[LinkContext], np.ndarray], tmp_path: Path
):
    model, _, _ = small_model
    path = model.save(tmp_path / "m.npz")
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["features"]["version"] = "0"
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="retrain"):
        LinkPredictor.load(path)


def test_unfitted_and_one_class_models_are_refused():
    contexts, _, _ = synthetic_data()
    with pytest.raises(ValueError, match="not fitted"):
        LinkPredictor().predict_proba(contexts[:2])
    with pytest.raises(ValueError, match="both"):
        LinkPredictor().fit(contexts[:3], [0, 0, 0])


def test_a_share_of_the_training_links_is_seen_without_language_words():
    contexts, _, _ = synthetic_data()
    plain = LinkPredictor(n_features=2**14, hide_languages=0.0)
    assert (plain.training_features(contexts) != plain.transform(contexts)).nnz == 0
    half = LinkPredictor(n_features=2**14, hide_languages=0.5)
    learned, shown = half.training_features(contexts), half.transform(contexts)
    changed = np.flatnonzero(np.abs(learned - shown).sum(axis=1))
    assert 0.2 * len(contexts) < len(changed) < 0.6 * len(contexts)


@pytest.mark.parametrize("norm", ["l2", "l1", None])
def test_features_are_scikit_learns_hashed_binary_rows_whatever_the_token_cache_holds(norm):
    """transform() hashes each token once per model and builds the rows itself: the matrix
    must stay FeatureHasher's, binarised and normalised, including rows without a token, the
    language-hidden rows, and after the cache was emptied for being full."""
    from sklearn.feature_extraction import FeatureHasher
    from sklearn.preprocessing import normalize

    contexts = [
        c
        for url, lang, href, label, _ in SWITCHERS
        for c in extract_link_contexts(page_with_switcher(url, lang, href, label), url)
    ]
    hidden = [i % 3 == 0 for i in range(len(contexts))]
    model = LinkPredictor(n_features=2**12, norm=norm)
    hasher = FeatureHasher(2**12, input_type="string", alternate_sign=False)
    for _ in range(3):
        tokens = [link_tokens(c, h) for c, h in zip(contexts, hidden, strict=True)]
        expected = hasher.transform(tokens + [[]]).tocsr()
        expected.data[:] = 1.0
        if norm:
            expected = normalize(expected, norm=norm)
        got = model.transform(contexts, hidden)
        got = sp.vstack([got, sp.csr_matrix((1, 2**12))]).tocsr()
        assert got.shape == expected.shape
        assert abs(got - expected).max() < 1e-12
        model.__dict__["_columns"].max_tokens = 10  # the next round forgets and hashes again


def test_the_token_cache_stays_within_its_bound_whatever_a_crawl_brings():
    """A crawl's tokens keep coming (host labels, words around links): the cache of their
    columns holds at most TOKEN_COLUMN_CACHE of them (it held up to 1,000,000, about 136 MB with
    the tokens it kept alive), and a column is the same remembered or not."""
    columns, fresh = TokenColumns(2**20), TokenColumns(2**20, max_tokens=10**9)
    tokens = [f"around:word{i}" for i in range(TOKEN_COLUMN_CACHE + 5000)]
    assert columns.distinct(tokens[:100]) == fresh.distinct(tokens[:100])
    for start in range(0, len(tokens), 1000):  # a page's links at a time, then all at once
        columns.distinct(tokens[start : start + 1000])
        assert len(columns._columns) <= TOKEN_COLUMN_CACHE
    assert columns.rows([tokens]) == fresh.rows([tokens])
    assert len(columns._columns) <= TOKEN_COLUMN_CACHE


@pytest.mark.parametrize("norm", ["l2", "l1", "max", None])
def test_decisions_are_the_feature_matrix_times_the_weights(norm):
    """decision_function() sums each row's weights without building the matrix: its decisions
    must stay transform(contexts) @ coef_ + intercept_, for every norm, with hash collisions
    (a small feature space: two tokens of a link in one column count once), and after the
    weights were replaced by a new fit."""
    contexts, labels, groups = synthetic_data()
    model = LinkPredictor(n_features=2**6, norm=norm, calibration_folds=3)
    for seed in (0, 1):
        model.set_params(random_state=seed, C=0.5 + seed).fit(contexts, labels, groups)
        features = model.transform(contexts)
        assert (features.getnnz(axis=1) < [len(set(t)) for t in map(link_tokens, contexts)]).any()
        expected = features @ model.coef_ + model.intercept_
        assert np.allclose(model.decision_function(contexts), expected, rtol=1e-12, atol=1e-12)
        assert np.allclose(
            model.predict_proba(contexts), model.predict_proba_features(features), atol=1e-12
        )
    with pytest.raises(ValueError, match="unknown norm"):
        model.set_params(norm="l3").decision_function(contexts)
