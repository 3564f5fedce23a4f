import pytest

from bilingual_spider.language.codes import base_language, normalize_language_code
from bilingual_spider.language.identification import (
    changed_characters,
    chinese_script,
    default_identifier,
)


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("en", "en"),
        ("EN-us", "en-US"),
        ("fr-FR", "fr"),
        ("pt-br", "pt-BR"),
        ("pt_BR", "pt-BR"),
        ("zh-cn", "zh-Hans"),
        ("zh_CN", "zh-Hans"),
        ("zh-tw", "zh-Hant"),
        ("zh-Hant-HK", "zh-Hant"),
        ("zh", "zh"),
        ("eng", "en"),
        ("jp", "ja"),
        ("ger", "de"),
        ("lug", "lg"),  # every ISO 639-2 and 639-3 code of a language ISO 639-1 names
        ("ssw", "ss"),
        ("swh", "sw"),  # a member of a macrolanguage lid.176 labels by the macrolanguage
        ("twi", "ak"),  # CLDR's Akan: Twi's tw is Taiwan's in a URL, no language code here
        ("knc", "knc"),  # not Kanuri's kr, which is Korea's
        ("tgl", "tl"),  # lid.176's Tagalog, not CLDR's Filipino
        ("als", "gsw"),  # lid.176's and Wikipedia's Alemannic, not ISO's Tosk Albanian
        ("ji", "yi"),  # withdrawn, still Java's
        ("zh-yue", "yue"),  # an extended language subtag is the language
        ("zh-cmn-Hant", "zh-Hant"),
        ("haw", "haw"),
        ("sr-Latn", "sr-Latn"),  # a script other than the language's usual one is kept
        ("SR_latn-RS", "sr-Latn"),
        ("sr-Cyrl", "sr"),
        ("uz-Cyrl", "uz-Cyrl"),
        ("uz-Latn", "uz"),
        ("pa-Arab", "pnb"),  # lid.176's label of Punjabi in Shahmukhi, Western Panjabi
        ("pa-Guru", "pa"),
        ("en-Latn", "en"),
        ("", None),
        ("x", None),
        ("english", None),
        ("日本語", None),
    ],
)
def test_normalize(raw: str, code: str | None) -> None:
    assert normalize_language_code(raw) == code


def test_base_language() -> None:
    assert base_language("pt-BR") == "pt" and base_language("zh-Hant") == "zh"


def test_chinese_script() -> None:
    assert chinese_script("这个国家的经济发展") == "zh-Hans"
    assert chinese_script("這個國家的經濟發展") == "zh-Hant"


def test_chinese_script_survives_phrases_that_change_length() -> None:
    # OpenCC's Taiwan-phrase table turns 使用者 (3 characters) into 用户 (2): the characters after
    # it must still be compared with their own conversions, not with their neighbours'.
    simplified = "一些对新使用者的提醒。" + "这个国家的经济发展很快。" * 20
    assert chinese_script(simplified) == "zh-Hans"
    traditional = "一些對新使用者的提醒。" + "這個國家的經濟發展很快。" * 20
    assert chinese_script(traditional) == "zh-Hant"
    # 使用者 -> 用户 keeps 用 in alignment: 使 and 者 are the changed characters.
    assert changed_characters("使用者的提醒", lambda text: text.replace("使用者", "用户")) == 2


def test_identifier_loads_offline_and_speaks_project_codes() -> None:
    identifier = default_identifier()
    guesses = identifier.identify_many(
        ["La documentation du serveur HTTP Apache", "這個國家的經濟發展很快", "", "12345"]
    )
    assert guesses[0][0].lang == "fr" and 0.5 < guesses[0][0].score <= 1.0
    assert guesses[1][0].lang == "zh-Hant"
    assert guesses[2] == [] and guesses[3] == []
