"""Badness (Schäfer, Barbey, Bildhauer 2014): the formula, the tokens, odd and huge input, and
that the shipped profiles tell prose in a language from other languages and from word lists."""

from __future__ import annotations

import json
import math
import random
import tracemalloc
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.language import badness as bd
from bilingual_spider.language.badness import (
    BADNESS_THRESHOLD,
    DEFAULT_PROFILES_PATH,
    LanguageProfile,
    ProfileWord,
    TokenCounts,
    badness,
    badness_scores,
    confirms_language,
    default_profiles,
    fit_profile,
    lowest_badness,
    profile_code,
    select_words,
    token_counts,
    tokens,
    word_badness,
)
from bilingual_spider.language.codes import base_language
from tests.conftest import missing

REQUIRED = ("en", "es", "fr", "de", "it", "pt", "nl", "ru", "zh-Hans", "zh-Hant", "ja", "ko")

ENGLISH = (
    "The committee said on Tuesday that it would not change the rules for the next season, "
    "because most of the clubs had asked for more time to prepare. It is the second time in "
    "a year that the decision has been delayed, and some of the players are not happy with it. "
    "They say that the new rules would make the game safer for everyone who plays it."
)
FRENCH = (
    "Le comité a annoncé mardi qu'il ne changerait pas les règles pour la saison prochaine, "
    "parce que la plupart des clubs avaient demandé plus de temps pour se préparer. C'est la "
    "deuxième fois en un an que la décision est reportée, et certains des joueurs ne sont pas "
    "contents. Ils disent que les nouvelles règles rendraient le jeu plus sûr pour tous."
)
GERMAN = (
    "Der Ausschuss teilte am Dienstag mit, dass er die Regeln für die nächste Saison nicht "
    "ändern werde, weil die meisten Vereine um mehr Zeit für die Vorbereitung gebeten hätten. "
    "Es ist das zweite Mal in einem Jahr, dass die Entscheidung verschoben wird, und einige der "
    "Spieler sind damit nicht zufrieden. Sie sagen, die neuen Regeln würden das Spiel sicherer "
    "machen."
)
JAPANESE = (
    "委員会は火曜日、来シーズンのルールを変更しないと発表した。多くのクラブが準備のための時間を"
    "求めていたためである。決定が延期されるのは一年で二度目であり、一部の選手はこれに満足して"
    "いない。彼らは、新しいルールによって試合がすべての選手にとってより安全になると言っている。"
)
CHINESE = (
    "委员会星期二表示，不会改变下个赛季的规则，因为大多数俱乐部要求有更多的时间来准备。这是一年"
    "中第二次推迟这个决定，一些球员对此并不满意。他们说，新的规则可以使比赛对每一个参加的人都"
    "更加安全，这也是他们一直在要求的。"
)
KOREAN = (
    "위원회는 화요일에 다음 시즌의 규칙을 바꾸지 않겠다고 밝혔다. 대부분의 구단이 준비할 시간을 "
    "더 달라고 요청했기 때문이다. 결정이 미뤄진 것은 일 년 사이에 두 번째이며, 일부 선수들은 "
    "이에 만족하지 않고 있다. 그들은 새 규칙이 경기를 모두에게 더 안전하게 만들 것이라고 말한다."
)
MENU = (
    "Home About Products Services Pricing Blog Contact Login Register Search Sitemap Privacy Terms"
)

TOY = LanguageProfile(
    "xx", (ProfileWord("the", mean=-1.4, stdev=0.2), ProfileWord("of", mean=-1.7, stdev=0.25))
)


# --- the formula (Section 2; texrex TTrTextAssessment.Process) --------------------------------


def test_word_badness_is_the_clamped_standardised_shortfall() -> None:
    word = ProfileWord("the", mean=-1.3, stdev=0.2, limit=5.0)
    assert word_badness(0.0, word) == 5.0  # absent: the limit
    assert word_badness(0.1, word) == 0.0  # log10 0.1 = -1 > mean: more than expected is free
    assert word_badness(10**-1.3, word) == 0.0
    assert word_badness(10**-1.5, word) == pytest.approx(1.0)  # 0.2 below the mean / 0.2
    assert word_badness(10**-2.0, word) == pytest.approx(3.5)
    assert word_badness(10**-4.0, word) == 5.0  # 13.5 standard deviations: clamped


def test_badness_sums_the_words() -> None:
    # 100 tokens: "the" 5 times (log10 0.05 = -1.30: above the mean), "of" once (-2.0: 1.2 sd low)
    text = " ".join(["the"] * 5 + ["of"] + ["word"] * 94)
    assert badness(text, TOY) == pytest.approx(0.0 + 0.3 / 0.25)
    assert badness("word " * 50, TOY) == TOY.max_badness == 10.0
    assert badness("", TOY) == TOY.max_badness


def test_tokens_are_lower_case_letter_runs_and_single_cjk_characters() -> None:
    assert tokens("L'Homme, 3 ÉTÉS_à-Paris!") == ["l", "homme", "étés", "à", "paris"]
    assert tokens("日本語のテキスト") == ["日", "本", "語", "の", "テ", "キ", "ス", "ト"]
    assert tokens("한국어 문장") == ["한", "국", "어", "문", "장"]
    assert tokens("e\u0301te\u0301") == ["été"]  # NFC
    assert tokens("İşlem İÇİN") == ["işlem", "için"]  # Turkish dotted capital I
    assert tokens("123 _ -- 🙂🙂 ...") == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.integers(min_value=1, max_value=40))
def test_pieces_cover_the_text_and_cut_no_token(text: str, size: int) -> None:
    pieces = list(bd._pieces(text, size, None))
    assert "".join(pieces) == text
    counted = Counter(t for piece in pieces for t in tokens(piece))
    assert counted == Counter(tokens(text))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=500))
def test_any_text_has_a_bounded_badness_for_every_language(text: str) -> None:
    profiles = default_profiles()
    scores = badness_scores(text, profiles)
    assert set(scores) == set(profiles)
    for lang, score in scores.items():
        assert math.isfinite(score)
        assert 0.0 <= score <= profiles[lang].max_badness
    best = lowest_badness(text, profiles)
    assert (best is None) == (not tokens(text))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "x",
        "\x00",
        "🙂🎉👍🏽" * 50,
        bytes(random.Random(1).randrange(256) for _ in range(5000)).decode("latin-1"),
        bytes(random.Random(2).randrange(256) for _ in range(5000)).decode("utf-8", "replace"),
        "\ud800 lone surrogate",
    ],
)
def test_odd_input_is_scored_without_error(text: str) -> None:
    scores = badness_scores(text)
    assert all(math.isfinite(s) and s >= 0 for s in scores.values())
    if not tokens(text):
        assert lowest_badness(text) is None
        assert confirms_language(text, "en") is None
        assert all(s == default_profiles()[lang].max_badness for lang, s in scores.items())


def characters_tokenized(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every piece of text the badness module hands to its tokenizer, from now on
    (the work a count does, measured without a clock)."""
    read: list[int] = []
    tokenize = bd.tokens

    def counting(piece: str) -> list[str]:
        read.append(len(piece))
        return tokenize(piece)

    monkeypatch.setattr(bd, "tokens", counting)
    return read


def test_a_100_mb_text_is_read_in_bounded_pieces_and_memory(monkeypatch) -> None:
    text = (ENGLISH + " " + FRENCH + "\n") * (100_000_000 // (len(ENGLISH) + len(FRENCH) + 2))
    assert len(text) > 99_000_000
    read = characters_tokenized(monkeypatch)
    scores = badness_scores(text)
    # evenly spread pieces adding up to MAX_CHARS, each cut at most a window past its size
    assert len(read) == bd.MAX_CHARS // bd.CHUNK_CHARS
    assert sum(read) <= bd.MAX_CHARS + len(read) * bd._CUT_WINDOW
    tracemalloc.start()
    assert badness_scores(text) == scores
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 32 * 2**20  # the text itself (100 MB) is the caller's
    assert sorted(scores, key=scores.__getitem__)[:2] in (["en", "fr"], ["fr", "en"])


def test_counting_everything_reads_each_character_once(monkeypatch) -> None:
    unit = ENGLISH + "\n"
    small, large = unit * 2_000, unit * 8_000  # ~0.7 MB and ~2.9 MB: several pieces each
    read = characters_tokenized(monkeypatch)
    small_counts = token_counts(small, max_chars=None)
    assert sum(read) == len(small) and len(read) > 1
    read.clear()
    large_counts = token_counts(large, max_chars=None)
    assert sum(read) == len(large)  # 4x the text, 4x the reading: linear
    assert large_counts.total == 4 * small_counts.total
    assert large_counts.counts["the"] == 4 * small_counts.counts["the"]


def test_a_long_text_without_spaces_is_cut_anyway() -> None:
    counts = token_counts("a" * 3_000_000 + " the", max_chars=None)
    assert counts.total >= 2 and counts.counts.get("the") == 1


# --- the method: what the shipped profiles say about real text ---------------------------------


def test_shipped_profiles_cover_the_target_languages_and_say_where_they_come_from() -> None:
    data = json.loads(DEFAULT_PROFILES_PATH.read_text(encoding="utf-8"))
    assert data["threshold"] == BADNESS_THRESHOLD
    profiles = default_profiles()
    for lang in REQUIRED:
        profile = profiles[lang]
        assert len(profile.words) == 10
        assert all(w.stdev > 0 and w.limit == 5.0 and w.mean < 0 for w in profile.words)
        assert profile.documents >= 30 and profile.tokens >= 20_000
        assert {s.name for s in profile.sources} == {"man pages", "gettext catalogs"}
        assert data["profiles"][lang]["directories"]
    assert "the" in {w.word for w in profiles["en"].words}
    assert "の" in {w.word for w in profiles["ja"].words}
    assert "的" in {w.word for w in profiles["zh-Hans"].words}


@pytest.mark.parametrize(
    ("text", "lang"),
    [(ENGLISH, "en"), (FRENCH, "fr"), (GERMAN, "de"), (JAPANESE, "ja"), (CHINESE, "zh-Hans"),
     (KOREAN, "ko")],
)  # fmt: skip
def test_prose_is_best_in_its_language_by_far(text: str, lang: str) -> None:
    # A paragraph of 70 words can miss two of the ten function words (5 points each), so it
    # may be above the threshold of 10, meant for documents; real pages are below it (see
    # test_lowest_badness_of_real_pages_is_their_language). The other languages are far worse.
    scores = badness_scores(text)
    assert scores[lang] < 20
    for other in ("en", "fr", "de", "ja", "zh-Hans", "ko"):
        if other != lang:
            assert scores[other] > scores[lang] + 10
    best = lowest_badness(text)
    assert best is not None and base_language(best.lang) == base_language(lang)
    assert confirms_language(text, lang) is True


def test_english_prose_beats_french_prose_in_english_and_vice_versa() -> None:
    en, fr = default_profiles()["en"], default_profiles()["fr"]
    assert badness(ENGLISH, en) < badness(FRENCH, en)
    assert badness(FRENCH, fr) < badness(ENGLISH, fr)


def test_a_menu_or_a_word_list_is_bad_in_every_language() -> None:
    for text in (MENU, " ".join(sorted(set(tokens(ENGLISH))))):
        scores = badness_scores(text)
        assert scores["en"] > BADNESS_THRESHOLD
        assert min(scores.values()) > BADNESS_THRESHOLD


def test_confirms_language_compares_base_languages() -> None:
    assert confirms_language(FRENCH, "fr") is True
    assert confirms_language(FRENCH, "en") is False
    assert confirms_language(CHINESE, "zh-Hant") is True  # same function characters mostly
    assert confirms_language(ENGLISH, "tlh") is None  # no profile for Klingon
    profiles = default_profiles()
    assert profile_code("pt-BR", profiles) == "pt"
    assert profile_code("zh-Hant", profiles) == "zh-Hant"
    assert profile_code("tlh", profiles) is None


def _real_pages(limit_per_lang: int = 5) -> list[tuple[str, Path]]:
    from bilingual_spider.sandbox.real_site import load_sites
    from bilingual_spider.sandbox.realsites import gold_pairs_path, resolve_cache_dir

    gold = gold_pairs_path()
    if not gold.is_file():
        missing("real sites not fetched: run `make realsites` (bilingual-spider sandbox fetch)")
    root = resolve_cache_dir() / "root"
    sites = {s.name: s for s in load_sites()}
    taken: Counter[str] = Counter()
    pages = []
    for line in sorted(gold.read_text(encoding="utf-8").splitlines()):
        _, url, _, lang, site_name = line.split("\t")
        site = sites[site_name]
        relative = unquote(url[len(site.seed_url) :])
        path = next(
            (root / d / relative for d in site.dirs if (root / d / relative).is_file()), None
        )
        if path is not None and taken[lang] < limit_per_lang:
            taken[lang] += 1
            pages.append((lang, path))
    return pages


def test_lowest_badness_of_real_pages_is_their_language() -> None:
    from bilingual_spider.sandbox.page_text import text_segments

    profiles = default_profiles()
    own: list[float] = []
    agreed = 0
    for lang, path in _real_pages():
        text = "\n".join(s for s in text_segments(path.read_bytes()) if len(s) > 40)
        code = profile_code(lang, profiles)
        if code is None or len(tokens(text)) < 200:
            continue
        own.append(badness(text, profiles[code]))
        agreed += bool(confirms_language(text, lang, profiles))
    assert len(own) >= 40
    assert agreed >= 0.9 * len(own)
    assert sorted(own)[len(own) // 2] <= BADNESS_THRESHOLD  # the median page is good prose


# --- estimating a profile -------------------------------------------------------------------


def _doc(**counts: int) -> TokenCounts:
    return TokenCounts(counts, sum(counts.values()))


def test_fit_profile_takes_frequent_words_present_in_most_documents() -> None:
    docs = [
        _doc(the=10, of=5, file=1, a=84),
        _doc(the=8, of=6, b=86),
        _doc(the=12, of=4, kernel=30, c=54),  # "kernel" is frequent in one text only
        _doc(the=9, of=5, d=86),
    ]
    profile = fit_profile("xx", docs, n_words=3)
    assert [w.word for w in profile.words] == ["the", "of"]
    the = profile.words[0]
    logs = [math.log10(x / 100) for x in (10, 8, 12, 9)]
    assert the.mean == pytest.approx(sum(logs) / 4)
    assert the.stdev == pytest.approx(
        math.sqrt(sum((v - the.mean) ** 2 for v in logs) / 3)
    )  # sample standard deviation
    assert select_words(docs, 1, is_candidate=lambda w: w != "the") == ["of"]


def test_select_words_can_leave_out_bursty_words() -> None:
    docs = [_doc(a=10, b=30, x=60), _doc(a=11, b=1, x=88), _doc(a=9, b=20, x=71)]
    assert select_words(docs, 2) == ["x", "b"]
    assert select_words(docs, 2, is_candidate=lambda w: w != "x", max_spread=0.3) == ["a"]
