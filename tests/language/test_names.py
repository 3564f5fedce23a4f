"""Language names: the generated CLDR table, and what switchers write that CLDR lacks."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from bilingual_spider.language.names import language_of_code, language_of_name
from tests.conftest import missing


def test_the_committed_table_is_what_the_script_generates() -> None:
    try:
        import babel  # noqa: F401
    except ImportError:
        missing("babel (a dev dependency) is needed to regenerate the names table")
    from bilingual_spider.language import build_language_names as build

    committed = Path(build.OUTPUT).read_text(encoding="utf-8")
    assert build.render(build.build()) == committed, "run build_language_names and commit"
    scripts = Path(build.SCRIPTS_OUTPUT).read_text(encoding="utf-8")
    assert build.render_scripts(build.build_scripts()) == scripts, "run build_language_names"
    aliases = Path(build.ALIASES_OUTPUT).read_text(encoding="utf-8")
    assert build.render_aliases(build.build_aliases()) == aliases, "run build_language_names"


def test_every_language_has_the_script_cldr_gives_it() -> None:
    from bilingual_spider.language.build_language_names import SCRIPT_WORDS
    from bilingual_spider.language.language_scripts_table import SCRIPTS

    assert SCRIPTS["rw"] == SCRIPTS["mi"] == SCRIPTS["om"] == "LATIN"  # no lid.176 label
    assert (SCRIPTS["dz"], SCRIPTS["ti"], SCRIPTS["byn"]) == ("TIBETAN", "ETHIOPIC", "ETHIOPIC")
    assert (SCRIPTS["ru"], SCRIPTS["zh"], SCRIPTS["ko"]) == ("CYRILLIC", "CJK", "HANGUL")
    letters = {  # what script_of reads off a letter: the first word of its Unicode name
        unicodedata.name(chr(point), "?").split(" ", 1)[0]
        for point in range(0x30000)
        if chr(point).isalpha()
    }
    # a script without a word is kept as its ISO 15924 code, which no letter's name starts with
    # (the language is then never taken over the identifier, nor for a Latin one)
    unnamed = set(SCRIPTS.values()) - letters
    assert unnamed and all(len(word) == 4 for word in unnamed)
    assert {word.title() for word in unnamed}.isdisjoint(SCRIPT_WORDS)
    assert SCRIPTS["akk"] == "XSUX" and SCRIPTS["hnj"] == "NYIAKENG"


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


def test_languages_with_a_three_letter_code_are_named_by_their_own_and_english_names() -> None:
    """Stop 69's held-out sites: `ʻŌlelo Hawaiʻi`, `Tok Pisin`, `Papiamentu`, `ᏣᎳᎩ` named no
    language (CLDR's languages with a three-letter code only were left out)."""
    from bilingual_spider.links.features import labelled_language

    for label, language in [
        ("ʻŌlelo Hawaiʻi", "haw"), ("Hawaiian", "haw"), ("Tok Pisin", "tpi"),
        ("Papiamentu", "pap"), ("ᏣᎳᎩ", "chr"), ("Cherokee", "chr"), ("ꕙꔤ", "vai"),
    ]:  # fmt: skip
        assert language_of_name(label) == language, label
        assert labelled_language(anchor=label) == language, label


def test_a_label_in_a_script_other_than_latin_names_a_language_by_its_first_word_in_its_script():
    from bilingual_spider.links.features import labelled_language

    assert labelled_language(anchor="ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ") == "chr"  # "Cherokee language"
    assert labelled_language(anchor="Українська мова") == "uk"
    # a name in another script than the language's: a Chinese menu's "Italian keyboard"
    assert labelled_language(anchor="意大利语 键盘") == ""
    # in the Latin script a label is matched whole or by its separated parts only
    assert labelled_language(anchor="English Premier League") == ""
    assert labelled_language(anchor="Deutsch lernen") == ""


def test_a_labels_symbols_are_no_part_of_its_name_and_an_emoji_flag_names_a_country():
    from bilingual_spider.links.features import label_symbols, labelled_language

    assert label_symbols("🇳🇱 Nederlands ▾") == ("Nederlands", "nl")
    assert labelled_language(anchor="🇳🇱 Nederlands") == "nl"
    assert labelled_language(anchor="🇩🇰 Dansk") == "da"
    assert labelled_language(anchor="Français ▾") == "fr"
    assert labelled_language(anchor="🇯🇵") == "ja"  # a flag alone: its country's language
    assert labelled_language(anchor="🌐 Languages") == ""


def test_a_three_letter_code_with_a_region_is_a_locale() -> None:
    """``/tet-TL/`` (Tetum, stop 70's second held-out set): a locale of a language a table names;
    a bare three-letter word, or one of the scripts table's dead languages, is none."""
    assert language_of_code("tet-TL") == "tet" and language_of_code("fil_PH") == "fil"
    assert language_of_code("tet") is None  # bare: as often a word
    assert language_of_code("non-US") is None  # Old Norse, in the scripts table only
    assert language_of_code("pop-up") is None


def test_every_language_cldr_names_in_english_is_named_by_that_name() -> None:
    """Stop 70's second held-out set: an English home's "read here in Tahitian, Pular and
    Chamorro" and a switcher's "Marshallese" named no language (CLDR has no locale data for
    them); so did a US site's "Hmong", "Samoan" or "Tagalog"."""
    for label, language in [
        ("Tahitian", "ty"), ("Chamorro", "ch"), ("Marshallese", "mh"), ("Tetum", "tet"),
        ("Hmong", "hmn"), ("Samoan", "sm"), ("Tagalog", "tl"), ("Mossi", "mos"),
    ]:  # fmt: skip
        assert language_of_name(label) == language, label
    # as often a word, a place or a person; Kanuri's code kr is Korean's legacy form
    for word in ("Slave", "Delaware", "Nauru", "Iban", "Mari", "Kanuri", "Unknown language"):
        assert language_of_name(word) is None, word


def test_a_language_named_in_english_only_is_no_code() -> None:
    """``/ch/`` is Switzerland's section, ``/sh/`` a directory of shell scripts, ``/ae/`` the
    Emirates' far more often than Chamorro's, Serbo-Croatian's or Avestan's."""
    for code in ("ch", "sh", "ae", "tl", "li", "ty"):
        assert language_of_code(code) is None, code
    assert language_of_code("sm") == "sm"  # named by a switcher's phrase too: a code


def test_a_user_may_name_a_language_no_url_codes() -> None:
    """``--langs en,tw`` (Twi) was refused; a ``tw.`` host is still Taiwan's, not Twi's."""
    from bilingual_spider.language.names import is_language_code, names_a_language
    from bilingual_spider.patterns.units import host_language

    assert names_a_language("tw") and names_a_language("ae") and not is_language_code("tw")
    assert host_language("tw") is None and host_language("ch") == "ch"
    assert not names_a_language("xx") and not names_a_language("und")
