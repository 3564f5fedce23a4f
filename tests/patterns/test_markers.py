import pytest

from bilingual_spider.patterns.markers import inner_markers, is_language_pattern, language_of_unit
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
        ("hl=nr", "nr"),  # Google's "host language", any language's code (stop 70)
        ("hl=bem", "bem"),
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
        ("", "f", True),  # one side marked: report.asp, report_f.asp (issue 31)
        ("e", "d", False),
        ("page2EN", "page3FR", False),
        ("garden", "gardfr", False),
        ("~e", "~f", True),  # news123e, news123f
        ("~e", "~e", False),
        ("clang=1", "clang=2", True),
        ("Lang=1", "Lang=2", True),
        ("L=3", "L=4", True),
        ("", "lang=2", True),
        ("clang=1", "lang=2", False),  # two parameters
        ("l=3", "l=4", False),  # a lower-case l: a limit as often as a language
        ("page=1", "page=2", False),
        ("", "page=2", False),
        ("lang=100", "lang=200", False),  # a language has few values: an id
    ],
)
def test_language_words_inside_units(a: str, b: str, expected: bool) -> None:
    assert is_language_pattern(PairingPattern.of(a, b)) is expected


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("news123e", ((("news", "123", ""), "e"),)),
        ("005f", ((("005", ""), "f"),)),
        ("safe", ()),  # an e ending a word: no initial
        ("e123", ()),
    ],
)
def test_an_initial_glued_to_a_number_is_a_marker_inside_a_unit(unit: str, expected) -> None:
    assert inner_markers(unit) == expected
