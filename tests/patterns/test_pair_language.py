from collections import Counter

import pytest

from bilingual_spider.language.codes import same_language
from bilingual_spider.language.page_language import LanguageBlock
from bilingual_spider.patterns.copied_prose import mutual_copied_share
from bilingual_spider.patterns.pair_language import (
    BLOCK_SEPARATOR,
    PairLanguageVerdict,
    check_pair_language,
    copied_share,
    own_prose,
)

EN = "The committee met on Tuesday to discuss the budget for the new hospital in Kowloon."
FR = "Le comité s'est réuni mardi pour discuter du budget du nouvel hôpital de Kowloon."
ZH = "委員會於星期二開會,討論九龍新醫院的預算。"


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("en", "en-GB", True),
        ("pt-BR", "pt", True),
        ("zh-Hans", "zh-Hant", False),
        ("en", "fr", False),
    ],
)
def test_same_language(a: str, b: str, same: bool) -> None:
    assert same_language(a, b) is same


def test_a_translation_is_accepted() -> None:
    check = check_pair_language("en", "fr", EN, FR)
    assert check.verdict is PairLanguageVerdict.BILINGUAL and check.accepted
    assert check_pair_language("en", "zh-Hant", EN, ZH).accepted
    assert check_pair_language("de", "ja", "Guten Tag", "こんにちは").accepted


def test_same_language_pairs_are_rejected() -> None:
    check = check_pair_language("en", "en-US", EN, EN.replace("Tuesday", "Monday"))
    assert check.verdict is PairLanguageVerdict.SAME_LANGUAGE and not check.accepted


def test_undetermined_sides_are_rejected() -> None:
    assert check_pair_language("und", "fr", "", FR).verdict is PairLanguageVerdict.UNDETERMINED
    assert check_pair_language(None, "fr", EN, FR).verdict is PairLanguageVerdict.UNDETERMINED


def test_a_translation_that_is_mostly_the_source_is_rejected() -> None:
    # language ID fooled by a French menu around an English body: the texts are the same.
    copy = "Accueil Contact " + EN
    assert copied_share(EN, copy) == 1.0
    assert copied_share(EN, FR) < 0.3
    assert check_pair_language("en", "fr", EN, copy).verdict is PairLanguageVerdict.COPIED


def test_languages_from_the_project_language_id() -> None:
    from bilingual_spider.language.identification import default_identifier
    from bilingual_spider.patterns.pair_language import check_pair_texts

    try:
        identifier = default_identifier()
    except (OSError, ValueError) as error:  # the model file is not there
        pytest.skip(f"no language ID model: {error}")
    assert check_pair_texts(EN, FR, identifier).accepted
    assert check_pair_texts(EN, EN.replace("budget", "plans"), identifier).verdict in (
        PairLanguageVerdict.SAME_LANGUAGE,
    )


# --- mixed pages: right language, less than half of the prose copied -----------------------------

GERMAN_PROSE = [
    "Das Museum ist täglich von neun Uhr morgens bis sechs Uhr abends geöffnet.",
    "Der Eintritt ist für Kinder unter zwölf Jahren und für Studierende frei.",
    "Führungen in deutscher Sprache beginnen jeden Samstag um elf Uhr im Foyer.",
    "Fotografieren ohne Blitz ist in allen Räumen der Dauerausstellung erlaubt.",
    "Das Café im Erdgeschoss bietet Kuchen, Suppen und regionale Getränke an.",
    "Rollstühle können an der Kasse kostenlos ausgeliehen werden, bitte fragen.",
    "Gruppen ab zehn Personen melden sich bitte eine Woche vorher telefonisch an.",
]
FRENCH_PROSE = [
    "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir.",
    "L'entrée est gratuite pour les enfants de moins de douze ans et les étudiants.",
    "Les visites guidées en français commencent chaque samedi à onze heures.",
]
APPENDIX = [  # the English page's own appendix, left untranslated in the translation
    "Appendix A. The configuration file lists every option the server understands today.",
    "Each option takes one value; unknown options are reported and otherwise ignored.",
    "Restart the server after changing the file so that the new values take effect.",
]
ENGLISH_PAGE = " ".join(  # what the German prose translates, and the appendix
    [
        "The museum opens every day from nine in the morning until six in the evening.",
        "Entry is free for children under twelve and for students with a valid card.",
        "Guided tours in German start every Saturday at eleven o'clock in the foyer.",
        "Photography without flash is allowed in all rooms of the permanent exhibition.",
        "The café on the ground floor serves cakes, soups and regional drinks all day.",
        "Wheelchairs can be borrowed free of charge at the ticket desk, please ask.",
        "Groups of ten or more people please register by telephone one week ahead.",
        *APPENDIX,
    ]
)


def blocks(german: list[str], english: list[str], other: list[str] = (), lang: str = "fr"):
    return [
        *(LanguageBlock(t, "de") for t in german),
        *(LanguageBlock(t, "en") for t in english),
        *(LanguageBlock(t, lang) for t in other),
    ]


def mixed_check(page_blocks: list[LanguageBlock]):
    text = " ".join(b.text for b in page_blocks)
    return check_pair_language("en", None, ENGLISH_PAGE, text, target_blocks=page_blocks)


def test_a_translation_with_an_untranslated_appendix_copied_from_the_source_is_a_translation():
    page = blocks(GERMAN_PROSE, APPENDIX)  # about 70 % German prose, 30 % the English appendix
    german = sum(len(t) for t in GERMAN_PROSE)
    assert 0.65 < german / sum(len(b.text) for b in page) < 0.75
    prose = own_prose(page, ENGLISH_PAGE)
    assert prose.lang == "de" and 0.25 < prose.copied_share < 0.35
    check = mixed_check(page)
    assert check.accepted and (check.source_language, check.target_language) == ("en", "de")


def test_half_or_more_of_the_prose_copied_from_the_source_is_no_translation():
    page = blocks(GERMAN_PROSE[:3], APPENDIX)  # half German, half the English appendix
    assert own_prose(page, ENGLISH_PAGE).copied_share >= 0.5
    assert mixed_check(page).verdict is PairLanguageVerdict.COPIED
    mostly = blocks(GERMAN_PROSE[:1], APPENDIX)
    assert mixed_check(mostly).verdict is PairLanguageVerdict.COPIED


def test_a_mixed_page_whose_own_prose_is_in_a_third_language_is_not_in_the_target_language():
    page = blocks([], APPENDIX, FRENCH_PROSE * 2)  # French prose, the English appendix copied
    assert own_prose(page, ENGLISH_PAGE).lang == "fr"
    check = mixed_check(page)
    assert check.target_language == "fr"  # a /de/ page: its URL names German (crawl_round)


def test_untranslated_prose_that_is_not_copied_still_counts_against_the_target_language():
    stale = ["An older English paragraph that the current English page no longer contains."] * 3
    page = blocks(GERMAN_PROSE[:2], stale)  # its own prose is mostly English
    prose = own_prose(page, ENGLISH_PAGE)
    assert prose.copied_share == 0.0 and prose.lang == "en"
    assert mixed_check(page).verdict is PairLanguageVerdict.SAME_LANGUAGE
    # no language has more than half, block by block, nor as one text
    halves = [LanguageBlock("12345 " * 14, "de"), LanguageBlock("67890 " * 14, "en")]
    assert own_prose(halves, ENGLISH_PAGE).lang == "und"
    assert mixed_check(halves).verdict is PairLanguageVerdict.UNDETERMINED


# the Apache manual's Danish index: short entries, each named by language ID on its own
DANISH_CONTENTS = [
    LanguageBlock("Nye funktioner i Apache 2.3/2.4", "de"),
    LanguageBlock("Opgradering fra 2.2 til 2.4", "da"),
    LanguageBlock("Kompilering og installation", "sv"),
    LanguageBlock("At starte og stoppe serveren", "da"),
    LanguageBlock("Kørselstidskonfigurationsdirektiver", "de"),
    LanguageBlock("Hurtig oversigt over direktiver", "de"),
    LanguageBlock("Multibehandlingsmoduler (MPM)", "en"),
    LanguageBlock("Konfigurationssektioner", "de"),
    LanguageBlock("Global serverkonfiguration", "sv"),
    LanguageBlock("Per-bruger webmapper (public_html)", "en"),
    LanguageBlock("Platformspecifikke noter", "no"),
    LanguageBlock("Ofte stillede spørgsmål", "da"),
    LanguageBlock("Dokumentation for udviklere", "da"),
]


def test_a_page_of_short_entries_named_wrongly_one_by_one_is_in_the_language_of_them_all():
    """No language has most of the index's entries one by one (Danish a third, German a
    quarter): read as one text they are Danish, as the gold judges the page; the pair with
    the English index is a translation (before: undetermined, and the Danish index of the
    Apache manual was in no pair)."""
    shares = Counter()
    for block in DANISH_CONTENTS:
        shares[block.lang] += len(block.text)
    assert max(shares.values()) / sum(shares.values()) < 0.5
    assert own_prose(DANISH_CONTENTS, ENGLISH_PAGE).lang == "da"
    check = mixed_check(DANISH_CONTENTS)
    assert check.accepted and check.target_language == "da"


def test_a_page_with_a_language_is_judged_as_before():
    assert check_pair_language("en", "fr", EN, FR, target_blocks=blocks([], [EN])).accepted
    assert mutual_copied_share([EN], [FR]) == 0.0
    exact_half = check_pair_language("en", "fr", EN, FR, max_copied=0.0)
    assert exact_half.verdict is PairLanguageVerdict.COPIED  # half or more is copied


SITEMAP_EN = [  # as the Apache manual's sitemap: titles, and module names the same everywhere
    "This page lists the currently available documents of the Apache HTTP Server Documentation.",
    *(f"Apache Module mod_{name}" for name in ("access_compat", "actions", "alias", "auth_basic")),
    *(f"Apache Module mod_{name}" for name in ("auth_digest", "authn_anon", "authn_dbd")),
]
SITEMAP_FR = [
    "Cette page contient la liste des éléments actuellement disponibles de la Documentation.",
    *(f"Module Apache mod_{name}" for name in ("access_compat", "actions", "alias", "auth_basic")),
    *(f"Module Apache mod_{name}" for name in ("auth_digest", "authn_anon", "authn_dbd")),
]


def test_a_translated_list_that_keeps_its_names_is_no_copy():
    # half of its characters are the English page's, none of its blocks is
    assert copied_share(" ".join(SITEMAP_EN), " ".join(SITEMAP_FR)) >= 0.5
    check = check_pair_language(
        "en", "fr", BLOCK_SEPARATOR.join(SITEMAP_EN), BLOCK_SEPARATOR.join(SITEMAP_FR)
    )
    assert check.accepted and check.copied_share == 0.0


def test_a_page_half_left_in_english_is_copied_blockwise():
    english = APPENDIX
    half = [*APPENDIX[:2], *GERMAN_PROSE[:2]]  # two English paragraphs kept, two translated
    check = check_pair_language(
        "en", "de", BLOCK_SEPARATOR.join(english), BLOCK_SEPARATOR.join(half)
    )
    assert check.verdict is PairLanguageVerdict.COPIED and check.copied_share >= 0.5
