"""Language ID: script rules, "undetermined" for short ambiguous strings, page language with
shares, odd input, and the ``langid`` command."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.html_page import MAX_HTML_CHARS
from bilingual_spider.language.identification import (
    MAX_TEXT_CHARS,
    UNDETERMINED,
    Calibration,
    chinese_script,
    default_calibration,
    default_identifier,
    script_correction,
)
from bilingual_spider.language.page_language import main_text_blocks, page_language
from bilingual_spider.sandbox.process import python_command

identifier = default_identifier()


def test_chinese_scripts_are_told_apart_by_opencc_tables():
    assert chinese_script("設定並發連線數上限，無法執行內部合併") == "zh-Hant"
    assert chinese_script("设置并发连接数上限，无法执行内部合并") == "zh-Hans"
    assert (
        identifier.identify("無效的字元類別名，固定長度陣列的切片更新未實作")[0].lang == "zh-Hant"
    )


def test_taiwan_vocabulary_in_shared_characters_counts_as_traditional():
    # every character exists in both scripts; the words (位址, 光碟, 支援) are Taiwan's
    assert chinese_script("找不到有效的位址") == "zh-Hant"
    assert chinese_script("空白光碟") == "zh-Hant"
    assert chinese_script("找不到有效的地址") == "zh-Hans"  # mainland word, same characters


def test_script_rules_correct_cjk_confusions():
    assert script_correction("ja", "固定長度陣列的切片") == "zh-Hant"  # Han only: not Japanese
    assert script_correction("zh-Hans", "データが受信されませんでした") == "ja"  # kana: Japanese
    assert script_correction("ja", "데이터가 없습니다") == "ko"
    assert script_correction("fr", "Bonjour") == "fr"


def test_sentences_are_named_and_two_words_may_be_undetermined():
    decisions = identifier.decide_many(
        [
            "Le fichier de configuration est introuvable, veuillez vérifier le chemin.",
            "Die Datei konnte nicht geöffnet werden, weil der Zugriff verweigert wurde.",
            "Hotel Central",
            "",
            "🙂🙂🙂",
        ]
    )
    assert [d.lang for d in decisions[:2]] == ["fr", "de"]
    assert not decisions[0].undetermined
    assert decisions[2].undetermined and decisions[2].lang == UNDETERMINED
    assert decisions[3].undetermined and decisions[4].undetermined


def test_calibration_is_stricter_for_shorter_texts():
    calibration = default_calibration()
    assert calibration.min_score(8) >= calibration.min_score(30) >= calibration.min_score(500)
    assert Calibration(((10, 0.9), (100, 0.2))).min_score(1000) == 0.2


def test_page_language_ignores_scripts_and_navigation_and_shows_mixed_pages():
    page = (
        "<html><head><script>var english = 'this is javascript code in the page';</script>"
        "<style>body { color: red }</style></head><body>"
        "<nav><a href='/'>Home page of the English site</a>"
        " <a href='/x'>About us and contact</a></nav>"
        "<p>Le conseil municipal a adopté hier soir le budget de la ville pour l'année"
        " prochaine.</p>"
        "<p>Les travaux de rénovation de la bibliothèque commenceront au printemps prochain.</p>"
        "<p>Der Stadtrat hat gestern Abend den Haushalt der Stadt für das nächste Jahr"
        " beschlossen.</p>"
        "</body></html>"
    )
    result = page_language(page, identifier)
    assert result.lang == "fr" and not result.undetermined
    assert set(result.shares) == {"fr", "de"}  # no English: script and nav removed
    assert 0.25 < result.shares["de"] < 0.5


def test_page_bytes_are_decoded_by_their_declared_charset():
    korean = "아파치 웹서버 문서입니다. 이 문서는 웹서버 설정 방법을 설명합니다."
    page = (
        '<?xml version="1.0" encoding="EUC-KR"?>\n<html><head>'
        '<meta http-equiv="Content-Type" content="text/html; charset=EUC-KR"></head>'
        f"<body><p>{korean}</p></body></html>"
    ).encode("euc-kr")
    assert page_language(page, identifier).lang == "ko"
    xhtml = f'<?xml version="1.0" encoding="UTF-8"?>\n<html><body><p>{korean}</p></body></html>'
    assert main_text_blocks(xhtml)[0] == [korean]


class CountingModel:
    """The fastText model, noting the length of every text it is asked about (the work language
    ID does, measured without a clock)."""

    def __init__(self, model) -> None:
        self.model = model
        self.lengths: list[int] = []

    def predict(self, texts, k=1):
        self.lengths.extend(map(len, texts))
        return self.model.predict(texts, k=k)


def counting_model(monkeypatch) -> CountingModel:
    model = CountingModel(identifier._model)
    monkeypatch.setattr(identifier, "_model", model)
    return model


def test_a_huge_page_is_cut_and_says_so(monkeypatch):
    paragraph = b"<p>The council approved the budget of the city for the next year.</p>"
    page = b"<html><body>" + paragraph * 1_500_000 + b"</body></html>"  # ~100 MB
    model = counting_model(monkeypatch)
    result = page_language(page, identifier)
    assert result.lang == "en" and result.truncated
    assert model.lengths and max(model.lengths) <= MAX_TEXT_CHARS
    assert result.chars <= MAX_HTML_CHARS  # only the start of the page was parsed


def test_odd_strings_are_undetermined_and_100_mb_are_read_in_part_saying_so(monkeypatch):
    empty, one, emoji, binary = identifier.decide_many(["", "a", "😀🎉😀", "\x00\xff\ufffd" * 9])
    assert all(d.undetermined and not d.truncated for d in (empty, one, emoji, binary))
    huge = "The council approved the budget of the city for the next year. " * 1_600_000
    model = counting_model(monkeypatch)
    (decision,) = identifier.decide_many([huge])
    assert decision.lang == "en" and decision.truncated
    assert model.lengths == [MAX_TEXT_CHARS]  # read in part: its first MAX_TEXT_CHARS only


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.binary(max_size=2000), st.text(max_size=2000)))
def test_odd_input_never_raises(data):
    result = page_language(data, identifier)
    assert result.lang == UNDETERMINED or 0.0 < result.score <= 1.0
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    (decision,) = identifier.decide_many([text])
    assert decision.undetermined or decision.lang


def test_langid_command_prints_one_json_line_per_input_line(tmp_path: Path):
    texts = "Ceci est une phrase en français, assez longue pour être sûre.\n\nok\n"
    result = subprocess.run(
        [*python_command(), "-m", "bilingual_spider.cli", "langid", "-"],
        input=texts,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == 3
    assert lines[0]["lang"] == "fr" and lines[0]["undetermined"] is False
    assert lines[1] == {"lang": UNDETERMINED, "score": 0.0, "undetermined": True}
    page = tmp_path / "p.html"
    page.write_text("<html><body><p>Das ist eine deutsche Seite mit genug Text.</p></body></html>")
    result = subprocess.run(
        [*python_command(), "-m", "bilingual_spider.cli", "langid", "--html", str(page)],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(result.stdout)
    assert record["lang"] == "de" and record["shares"] == {"de": 1.0}


def test_lone_surrogates_are_identified_not_raised_on():
    texts = ["hello \udcff", "\ud800", "Ceci est une phrase en français \udfff assez longue.", "ok"]
    decisions = identifier.decide_many(texts)
    assert len(decisions) == 4
    assert decisions[2].lang == "fr"
    assert identifier.identify("\udc80\udc81 bonjour tout le monde, comment allez-vous")[0].lang


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(categories=["Cs", "L", "N", "P", "Z"]), max_size=80)))
def test_any_code_points_give_one_decision_each(texts):
    texts = [f"word {text} words" for text in texts]  # a letter: fastText is asked
    assert len(identifier.decide_many(texts)) == len(texts)


@pytest.mark.parametrize("locale", ["C", "C.UTF-8"])
def test_langid_command_answers_every_line_of_undecodable_bytes(locale: str):
    lines = [b"hello \xff", b"Ceci est une phrase en fran\xe7ais, assez longue pour \xeatre"]
    lines += [b"\xed\xa0\x80 surrogate bytes", b"Das ist ein ganz normaler deutscher Satz, ja."]
    result = subprocess.run(
        [*python_command(), "-m", "bilingual_spider.cli", "langid", "-"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        env={**os.environ, "LC_ALL": locale, "LANG": locale, "PYTHONUTF8": "0"},
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(answers) == len(lines)
    assert answers[3]["lang"] == "de"


def test_main_text_of_a_parsed_page_is_that_of_its_html_and_leaves_the_tree_as_it_was():
    """The link contexts and the main text read one tree (html_page.parse_html): the main
    text must not change it (scripts, navigation and comments are skipped, their tails kept)."""
    from lxml import etree

    from bilingual_spider.html_page import parse_html
    from bilingual_spider.links.contexts import extract_link_contexts

    html = (
        "<html><head><title>T</title></head><body><nav><a href='/a'>Menu</a></nav>"
        "<p>First paragraph<script>var x = 1;</script> goes on<!-- a note --> here.</p>"
        "<div>Second block <a href='/b'>with a link</a></div>"
        "<footer><a href='/c'>Legal</a></footer></body></html>"
    )
    page = parse_html(html)
    before = etree.tostring(page.root)
    assert main_text_blocks(page) == main_text_blocks(html)
    blocks = ["First paragraph goes on here.", "Second block with a link"]
    assert main_text_blocks(page)[0] == blocks
    assert etree.tostring(page.root) == before
    assert [c.url for c in extract_link_contexts(page, "http://x.org/")] == [
        "http://x.org/a",
        "http://x.org/b",
        "http://x.org/c",
    ]


def test_control_characters_after_a_skipped_element_do_not_break_the_main_text():
    """lxml keeps a control character of a malformed page in the tree but refuses it when a
    text is set: the main text is read without changing the tree (a gzipped file served as
    HTML broke it before)."""
    page = "<html><body><p>Some text<script>var x;</script>\x01 after the script</p></body></html>"
    assert main_text_blocks(page)[0] == ["Some text\x01 after the script"]
