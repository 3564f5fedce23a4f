"""The Universal Declaration of Human Rights as documents in English, Oromo and Dzongkha (the
Oromo and Dzongkha of the test world's ``udhr`` sites: :mod:`bilingual_spider.sandbox.udhr`)."""

from __future__ import annotations

from bilingual_spider.sandbox.language_sites import SITES, site_documents
from bilingual_spider.sandbox.udhr import FILES, declaration, udhr_documents


def test_each_declaration_is_a_preamble_and_thirty_articles_of_prose() -> None:
    for lang in ("en", "om", "dz"):
        parts = declaration(lang)
        assert len(parts) == 31
        assert all(heading and len(text) > 40 for heading, text in parts), lang
    assert declaration("en")[1] == (
        "Article 1",
        "All human beings are born free and equal in dignity and rights. They are endowed with "
        "reason and conscience and should act towards one another in a spirit of brotherhood.",
    )
    assert declaration("om")[1][0] == "Qabxii 1"
    assert "\u0f0b" in declaration("dz")[1][1]  # the Tibetan script's syllable mark: read as UTF-8


def test_the_documents_are_the_preamble_then_three_articles_each_in_every_language() -> None:
    docs = udhr_documents(("en", "om", "dz"))
    assert len(docs) == 11
    assert [len(doc) for doc in docs] == [2] + [4] * 10  # a heading, then each part's text
    assert docs[1][0] == {"en": "Article 1", "om": "Qabxii 1", "dz": declaration("dz")[1][0]}
    assert docs[10][-1]["en"] == declaration("en")[30][1]
    for doc in docs:
        for message in doc[1:]:
            assert len(set(message.values())) == 3  # translated, not copied


def test_the_udhr_sites_are_made_of_the_declaration_in_their_languages() -> None:
    sites = [site for site in SITES if site.texts == "udhr"]
    languages = {lang for site in sites for lang in site.languages}
    assert {"om", "dz", "rw", "ti", "mi"} <= languages <= set(FILES)
    for site in sites:
        docs = site_documents(site)
        assert set(docs[1][1]) == {"en", *site.languages}
