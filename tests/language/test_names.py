"""Language names: the generated CLDR table, and what switchers write that CLDR lacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from bilingual_spider.language.names import language_of_name
from tests.conftest import missing


def test_the_committed_table_is_what_the_script_generates() -> None:
    try:
        import babel  # noqa: F401
    except ImportError:
        missing("babel (a dev dependency) is needed to regenerate the names table")
    from bilingual_spider.language import build_language_names as build

    committed = Path(build.OUTPUT).read_text(encoding="utf-8")
    assert build.render(build.build()) == committed, "run build_language_names and commit"


@pytest.mark.parametrize(
    ("label", "language"),
    [
        ("Česky", "cs"),  # LilyPond's switcher; CLDR has only "čeština"
        ("Slovensky", "sk"),
        ("Po polsku", "pl"),
        ("MAGYARUL", "hu"),
        ("Suomeksi", "fi"),
        ("Lietuviškai", "lt"),
        ("Latviski", "lv"),
        ("По-русски", "ru"),
        ("Українською", "uk"),
        ("繁體", "zh-Hant"),
        ("简体", "zh-Hans"),
    ],
)
def test_a_switchers_in_this_language_names_the_language(label: str, language: str) -> None:
    assert language_of_name(label) == language


@pytest.mark.parametrize(
    ("label", "language"),
    [
        ("Afaan Oromoo", "om"),  # CLDR: "Oromoo"
        ("Bahasa Indonesia", "id"),  # CLDR: "Indonesia"
        ("Bahasa Melayu", "ms"),
        ("Soomaaliga", "so"),  # CLDR: "Soomaali"
        ("Yorùbá", "yo"),  # CLDR: "Èdè Yorùbá"
        ("Te Reo Māori", "mi"),
    ],
)
def test_a_switchers_label_from_wikipedias_list_names_the_language(
    label: str, language: str
) -> None:
    from bilingual_spider.links.features import labelled_language

    assert language_of_name(label) == language
    assert labelled_language(anchor=label) == language  # a link's whole label


def test_names_stay_what_they_were() -> None:
    assert language_of_name("Čeština") == "cs"
    assert language_of_name("Dansk") == "da"  # the autonym wins over Norwegian's name for it
    assert language_of_name("hotel") is None
