import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.frontier.link_classifier import (
    UNTRAINED_SCORE,
    OnlineLinkClassifier,
    _hashed_column,
    neighbourhood_tokens,
)
from bilingual_spider.links.contexts import extract_link_contexts


def test_neighbourhood_is_url_host_anchor_and_around_only():
    page = (
        '<html lang="en"><body><p>Cheap rooms near the beach: '
        '<a href="http://www.hotel-playa.es/links.html" title="Links">'
        '<img src="/flags/es.png" alt="Spain">hotel links</a> for travellers</p></body></html>'
    )
    (context,) = extract_link_contexts(page, "http://directory.example.com/travel/")
    tokens = neighbourhood_tokens(context)
    assert {"url:link", "host:hotel-playa", "host:es", "anchor:hotel"} <= set(tokens)
    assert any(t.startswith("around:") for t in tokens)
    assert not any(t.startswith(("alt:", "src:", "title:", "site:", "tld:")) for t in tokens)


def test_around_is_the_links_own_directory_entry_not_its_neighbours():
    page = (
        "<ul><li><a href=http://www.sol.es/>Hotel Sol</a> (English, Español)</li>"
        "<li><a href=http://www.berg.de/>Pension Berg</a> (Deutsch)</li></ul>"
    )
    first, second = extract_link_contexts(page, "http://directory.example.com/travel/")
    assert "around:deutsch" not in neighbourhood_tokens(first)
    assert {"around:english", "around:español"} <= set(neighbourhood_tokens(first))
    assert [t for t in neighbourhood_tokens(second) if t.startswith("around:")] == [
        "around:deutsch",
        "around:~langs=1",
    ]


def test_the_block_says_how_many_languages_it_names():
    page = (
        "<ul><li><a href=http://a.es/>Sol</a> (English, Español)</li>"
        "<li><a href=http://b.de/>Berg</a> (Deutsch)</li>"
        "<li><a href=http://c.com/>Mundo</a> (English, Español, 日本語, Deutsch)</li>"
        "<li><a href=http://d.com/>Noticias de hoy</a></li></ul>"
    )
    markers = [
        [t for t in neighbourhood_tokens(c) if t.startswith("around:~langs")]
        for c in extract_link_contexts(page, "http://directory.example.com/")
    ]
    assert markers == [["around:~langs=2"], ["around:~langs=1"], ["around:~langs=3"], []]


def test_entries_naming_two_languages_outrank_entries_naming_one_whatever_the_languages():
    """Every language name is as frequent in relevant entries as in the others, so single words
    cannot tell them apart; the count of languages the entry names can."""
    names = ["English", "Español", "Français", "Deutsch"]
    entries = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            entries.append((f"({first}, {second})", True))
        entries.append((f"({first})", False))
        entries.append((f"({first})", False))
        entries.append((f"({first})", False))
    page = "<ul>" + "".join(
        f"<li><a href=http://site{i}.example/>Site {i}</a> {text}</li>"
        for i, (text, _) in enumerate(entries * 5)
    )
    contexts = extract_link_contexts(page + "</ul>", "http://directory.example.com/")
    classifier = OnlineLinkClassifier(random_state=0)
    for context, (_, relevant) in zip(contexts, entries * 5, strict=True):
        classifier.add_example(neighbourhood_tokens(context), relevant)
    assert classifier.retrain()
    new = "<ul><li><a href=http://x.example/>X</a> (Italiano, Português)</li>"
    new += "<li><a href=http://y.example/>Y</a> (Italiano)</li></ul>"
    two, one = (neighbourhood_tokens(c) for c in extract_link_contexts(new, "http://d.example/"))
    two_score, one_score = classifier.predict_proba([two, one])
    assert two_score > 0.5 > one_score


def test_no_prioritisation_before_the_first_learning_iteration():
    classifier = OnlineLinkClassifier()
    assert classifier.version == 0 and classifier.relevant_share is None
    assert list(classifier.predict_proba([["url:a"], []])) == [UNTRAINED_SCORE] * 2
    classifier.add_example(["url:links"], True)
    assert not classifier.retrain()  # one class only: nothing to learn yet
    assert classifier.version == 0


def test_learning_ranks_links_like_the_relevant_ones_first_and_bumps_the_version():
    classifier = OnlineLinkClassifier()
    for i in range(50):
        classifier.add_example(["url:links", "host:es", f"anchor:hotel{i % 5}"], True)
        classifier.add_example(["url:news", "host:com", f"anchor:sport{i % 5}"], False)
    assert classifier.retrain() and classifier.version == 1
    assert classifier.relevant_share == 0.5
    hub, news = classifier.predict_proba([["url:links", "host:es"], ["url:news", "host:com"]])
    assert hub > 0.9 > 0.1 > news
    assert classifier.retrain() and classifier.version == 2


@given(st.lists(st.booleans(), min_size=1, max_size=400))
def test_memory_stays_bounded_whatever_the_number_of_examples(labels):
    classifier = OnlineLinkClassifier(max_examples_per_class=16, random_state=1)
    for i, relevant in enumerate(labels):
        classifier.add_example([f"url:w{i}"], relevant)
    kept = classifier._reservoirs
    assert len(kept[True]) <= 16 and len(kept[False]) <= 16
    assert classifier.examples_seen == {
        "relevant": sum(labels),
        "non_relevant": len(labels) - sum(labels),
    }


def test_scoring_a_long_crawls_tokens_keeps_a_bounded_column_cache_and_the_same_scores():
    """A crawl's tokens keep coming (host labels, words around links): the cache of their hashed
    columns stays bounded (one of 2**20 tokens kept about 250 B a token until it was full), and
    a token scores the same whether its column was cached or not."""
    classifier = OnlineLinkClassifier()
    for i in range(50):
        classifier.add_example(["url:links", "host:es", f"anchor:hotel{i % 5}"], True)
        classifier.add_example(["url:news", "host:com", f"anchor:sport{i % 5}"], False)
    assert classifier.retrain()
    _hashed_column.cache_clear()
    first = [classifier.score([f"host:site{i}", "url:links"]) for i in range(0, 200_000, 997)]
    for i in range(200_000):  # a long crawl's distinct tokens
        classifier.score([f"host:site{i}"])
    assert _hashed_column.cache_info().currsize <= 100_000
    again = [classifier.score([f"host:site{i}", "url:links"]) for i in range(0, 200_000, 997)]
    assert again == first
    assert classifier.predict_proba([["host:site5", "url:links"]])[0] == pytest.approx(first[0])


CONTEXTS = ("url", "host", "anchor", "around")


def noisy_examples(classifier: OnlineLinkClassifier, count: int = 400) -> None:
    """Links whose words say little, several times over (what Naive Bayes counts as independent
    evidence): 'links' pages lead to bilingual sites 60 % of the time, others 10 %."""
    rng = random.Random(3)
    for i in range(count):
        hub = i % 2 == 0
        relevant = rng.random() < (0.6 if hub else 0.1)
        words = [f"{context}:{'links' if hub else 'news'}" for context in CONTEXTS]
        words.append(f"anchor:w{rng.randrange(50)}")
        classifier.add_example(words, relevant)


def test_calibrated_probabilities_match_the_observed_rates_and_keep_the_order():
    calibrated, raw = OnlineLinkClassifier(), OnlineLinkClassifier(calibrated=False)
    for classifier in (calibrated, raw):
        noisy_examples(classifier)
        assert classifier.retrain()
    links = [[f"{c}:links" for c in CONTEXTS] + [f"anchor:w{i}"] for i in range(50)]
    links += [[f"{c}:news" for c in CONTEXTS] + [f"anchor:w{i}"] for i in range(50)]
    fair, naive = calibrated.predict_proba(links), raw.predict_proba(links)

    assert naive[50:].mean() < 0.01  # Naive Bayes counts the same evidence four times
    assert abs(fair[:50].mean() - 0.6) < 0.1 and abs(fair[50:].mean() - 0.1) < 0.07
    assert list(np.argsort(fair, kind="stable")) == list(np.argsort(naive, kind="stable"))
    # the one-link path the frontier uses gives the same numbers
    assert [calibrated.score(tokens) for tokens in links[:5]] == pytest.approx(list(fair[:5]))


def test_a_model_fitted_elsewhere_scores_the_same_once_loaded():
    trained = OnlineLinkClassifier()
    noisy_examples(trained)
    assert trained.fitted() is None
    relevant, other = (list(trained._reservoirs[label]) for label in (True, False))
    seen = (trained.examples_seen["relevant"], trained.examples_seen["non_relevant"])
    model = trained.trained_on(relevant, other, seen)
    assert model is not None and trained.version == 0 and trained.fitted() is None  # untouched
    assert trained.retrain()
    assert np.array_equal(model.weights, trained.fitted().weights)
    assert model.relevant_share == trained.relevant_share
    loader = OnlineLinkClassifier()
    loader.load(model, version=7)
    links = [["url:links", "anchor:w3"], ["url:news", "around:news"], []]
    assert loader.version == 7
    assert list(loader.predict_proba(links)) == list(trained.predict_proba(links))
    assert [loader.score(t) for t in links] == [trained.score(t) for t in links]
    assert OnlineLinkClassifier().trained_on(relevant, [], (len(relevant), 0)) is None
    with pytest.raises(ValueError):
        OnlineLinkClassifier(n_features=2**10).load(model, version=1)


def test_naive_bayes_log_odds_are_scikit_learns_multinomial_nb():
    """The closed form the classifier learns with (and, on chosen columns, its calibration
    folds) must be MultinomialNB's weights and prior, whatever the counts."""
    import numpy as np
    from scipy import sparse
    from sklearn.naive_bayes import MultinomialNB

    from bilingual_spider.frontier.link_classifier import naive_bayes_log_odds

    rng = np.random.default_rng(3)
    features = sparse.random(60, 500, density=0.05, format="csr", random_state=4)
    features.data = np.ceil(features.data * 3)
    labels = (rng.random(60) < 0.3).astype(int)
    model = MultinomialNB(alpha=0.7).fit(features, labels)
    weights, bias = naive_bayes_log_odds(features, labels, 0.7)
    expected = model.feature_log_prob_[1] - model.feature_log_prob_[0]
    assert np.allclose(weights, expected, atol=1e-12)
    assert bias == pytest.approx(model.class_log_prior_[1] - model.class_log_prior_[0])
    columns = np.array([0, 7, 499])
    partial, _ = naive_bayes_log_odds(features, labels, 0.7, columns)
    assert np.allclose(partial[columns], expected[columns], atol=1e-12)
    assert not np.delete(partial, columns).any()
