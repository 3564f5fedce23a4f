import numpy as np
import pytest

from bilingual_spider.language.close_languages import (
    CloseLanguageClassifier,
    combine,
    default_close_language_classifier,
)
from bilingual_spider.language.identification import default_identifier

identifier = default_identifier()


def test_lid176_confusions_inside_a_group_are_resolved():
    # each of these was a confident lid.176 error (Malay, Spanish, Russian, Slovak)
    texts = {
        "Pilih sebuah kata sandi baru.": "id",
        "Repor o valor predefinido de CHAVE": "pt",
        "записати на сервер не вдалося": "uk",
        "Neočekávaný typ pomocných dat": "cs",
    }
    guesses = identifier.identify_many(list(texts))
    assert [g[0].lang for g in guesses] == list(texts.values())


def test_languages_outside_the_groups_are_left_alone():
    (guess,) = identifier.identify_many(["Le conseil municipal a voté le budget de la ville."])
    assert guess[0].lang == "fr"


def test_the_shipped_model_round_trips_through_its_stored_counts(tmp_path):
    texts = ["uma casa muito bonita", "una casa muy bonita", "unha casa moi bonita"] * 3
    langs = ["pt", "es", "gl"] * 3
    groups = (("pt", "es", "gl"),)
    fitted = CloseLanguageClassifier(groups).fit(texts, langs)
    fitted.save(tmp_path / "m.npz")
    loaded = CloseLanguageClassifier.load(tmp_path / "m.npz")
    probe = ["a casa bonita", "la casa bonita"]
    assert fitted.predict_proba(probe, 0)[0] == loaded.predict_proba(probe, 0)[0]
    np.testing.assert_allclose(fitted.predict_proba(probe, 0)[1], loaded.predict_proba(probe, 0)[1])
    assert default_close_language_classifier() is not None  # shipped in models/


def test_probabilities_are_scikit_learns_naive_bayes_and_follow_a_refit():
    texts = ["uma casa muito bonita", "una casa muy bonita", "unha casa moi bonita"] * 3
    langs = ["pt", "es", "gl"] * 3
    classifier = CloseLanguageClassifier((("pt", "es", "gl"),)).fit(texts, langs)
    probe = ["a casa bonita", "la casa bonita", "unha casa"]
    classes, probabilities = classifier.predict_proba(probe, 0)
    model = classifier._models[0]
    assert classes == list(model.classes_)
    expected = model.predict_proba(classifier._vectorizer.transform(probe))
    np.testing.assert_allclose(probabilities, expected, rtol=1e-9)
    classifier.fit(texts[:3] + ["una casa"] * 5, langs[:3] + ["es"] * 5)  # a new model
    np.testing.assert_allclose(
        classifier.predict_proba(probe, 0)[1],
        classifier._models[0].predict_proba(classifier._vectorizer.transform(probe)),
        rtol=1e-9,
    )


def test_a_group_needs_two_languages():
    with pytest.raises(ValueError, match="two languages"):
        CloseLanguageClassifier((("cs", "sk"),)).fit(["Dobrý den"], ["cs"])


def test_combine_keeps_lid176_doubt_about_the_group():
    best, score = combine({"id": 0.3, "ms": 0.3}, {"id": 0.9, "ms": 0.1})
    assert best == "id" and score == pytest.approx(0.6 * 0.75, abs=1e-9)
