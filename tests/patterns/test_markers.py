import pytest

from bilingual_spider.patterns.markers import is_language_pattern, language_of_unit
from bilingual_spider.patterns.mining import PairingPattern


@pytest.mark.parametrize(
    ("unit", "lang"),
    [
        ("en", "en"),
        ("eng", "en"),
        ("English", "en"),
        ("francais", "fr"),
        ("Français", "fr"),
        ("tc", "zh-Hant"),
        ("sc", "zh-Hans"),
        ("tc_chi", "zh-Hant"),
        ("zh-hk", "zh-Hant"),
        ("de+de", "de"),  # one side of a two-place pattern: each unit judged whole
        ("zh-tw+zh-tw", "zh-Hant"),
        ("is+de", None),  # two languages: no side of a language pattern
        ("lang=fr", "fr"),
        ("page1", None),
        ("04", None),
        ("www", None),
        ("", None),
    ],
)
def test_language_of_unit(unit: str, lang: str | None) -> None:
    assert language_of_unit(unit) == lang


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("english", "chinese", True),
        ("tc_chi", "english", True),
        ("en", "fr", True),
        ("", "lang=fr", True),
        ("", "fr", True),
        ("tc", "sc", True),
        ("en", "english", False),
        ("page1", "page2", False),
        ("en", "page", False),
        ("", "", False),
        ("", "news", False),
    ],
)
def test_is_language_pattern(a: str, b: str, expected: bool) -> None:
    assert is_language_pattern(PairingPattern.of(a, b)) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("winkler15EN", "winkler15FR", True),
        ("goto=en_US-Home", "goto=fr_CA-Home", True),
        ("e", "f", True),
        ("", "f", False),
        ("e", "d", False),
        ("page2EN", "page3FR", False),
        ("garden", "gardfr", False),
    ],
)
def test_language_words_inside_units(a: str, b: str, expected: bool) -> None:
    assert is_language_pattern(PairingPattern.of(a, b)) is expected
