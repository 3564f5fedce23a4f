import pytest

from bilingual_spider.language.codes import same_language
from bilingual_spider.patterns.pair_language import (
    PairLanguageVerdict,
    check_pair_language,
    copied_share,
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
