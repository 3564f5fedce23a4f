"""Quality focus (Schäfer, Barbey, Bildhauer 2014): the link priority from the page's Badness and
the block's boilerplate score (monotone, bounded, never a filter), the kept-page test and the yield
ratio."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.focus.quality import (
    QualityWeights,
    YieldCounter,
    badness_quality,
    page_yield,
    quality_link_priority,
    quality_priority,
)
from bilingual_spider.frontier.rescoring import link_priority
from bilingual_spider.language.badness import BADNESS_THRESHOLD, badness, default_profiles

BADNESS_VALUES = [0.0, 1.0, 5.0, 10.0, 20.0, 35.0, 50.0, 1e6]
BOILERPLATE_VALUES = [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0]


def test_badness_quality_is_one_at_zero_and_a_half_at_the_threshold() -> None:
    assert badness_quality(0.0) == 1.0
    assert badness_quality(BADNESS_THRESHOLD) == pytest.approx(0.5)
    assert badness_quality(50.0) == pytest.approx(1 / 6)
    assert badness_quality(None) == 0.5


@pytest.mark.parametrize("boilerplate", BOILERPLATE_VALUES + [None])
def test_priority_falls_as_badness_rises(boilerplate: float | None) -> None:
    scores = [quality_priority(b, boilerplate) for b in BADNESS_VALUES]
    assert all(a > b for a, b in itertools.pairwise(scores))


@pytest.mark.parametrize("page_badness", BADNESS_VALUES + [None])
def test_priority_rises_with_the_block_score(page_badness: float | None) -> None:
    scores = [quality_priority(page_badness, s) for s in BOILERPLATE_VALUES]
    assert all(a < b for a, b in itertools.pairwise(scores))


@given(
    st.one_of(st.none(), st.floats(allow_nan=False)),
    st.one_of(st.none(), st.floats(allow_nan=False)),
    st.floats(0.0, 10.0),
    st.floats(0.01, 10.0),
)
def test_priority_is_in_the_unit_interval(
    page_badness: float | None, block: float | None, w1: float, w2: float
) -> None:
    value = quality_priority(page_badness, block, QualityWeights(w1, w2))
    assert 0.0 <= value <= 1.0
    assert 0 <= quality_link_priority(page_badness, block) <= 1000


def test_best_and_worst_contexts_and_the_weights() -> None:
    assert quality_priority(0.0, 1.0) == 1.0
    assert quality_priority(None, None) == 0.5
    assert quality_priority(50.0, 0.0) == pytest.approx(1 / 12)
    only_block = QualityWeights(badness=0.0, boilerplate=1.0)
    assert quality_priority(0.0, 0.2, only_block) == pytest.approx(0.2)
    assert quality_priority(50.0, 0.2, only_block) == pytest.approx(0.2)
    assert quality_link_priority(0.0, 1.0) == link_priority(1.0) == 1000
    with pytest.raises(ValueError):
        QualityWeights(0.0, 0.0)
    with pytest.raises(ValueError):
        QualityWeights(-1.0, 1.0)


def test_a_link_from_japanese_prose_outranks_one_from_a_japanese_menu() -> None:
    profile = default_profiles()["ja"]
    prose = (
        "私たちの会社は東京にあります。この町で三十年の間、地域の人々のためにパンを焼いてきました。"
        "毎朝早くから店を開けて、焼きたてのパンをお届けしています。"
    )
    menu = "ホーム 製品一覧 会社概要 採用情報 お問い合わせ サイトマップ"
    assert quality_priority(badness(prose, profile), 0.5) > quality_priority(
        badness(menu, profile), 0.5
    )


@pytest.mark.parametrize(
    ("kept_language", "chars", "page_badness", "duplicate", "expected"),
    [
        (True, 5_000, 3.0, False, True),  # good page
        (False, 5_000, 3.0, False, False),  # not the target language
        (True, 999, 3.0, False, False),  # too short
        (True, 1_000, 3.0, False, True),  # just long enough
        (True, 5_000, 10.0, False, True),  # at the threshold
        (True, 5_000, 10.5, False, False),  # above it
        (True, 5_000, None, False, True),  # no profile: Badness does not reject
        (True, 5_000, 3.0, True, False),  # a perfect duplicate
    ],
)
def test_page_yield(
    kept_language: bool, chars: int, page_badness: float | None, duplicate: bool, expected: bool
) -> None:
    assert page_yield(kept_language, chars, page_badness, duplicate) is expected


def test_page_yield_thresholds_are_parameters() -> None:
    assert page_yield(True, 200, 3.0, False, min_chars=100)
    assert page_yield(True, 5_000, 30.0, False, max_badness=35.0)


def test_yield_counter() -> None:
    counter = YieldCounter()
    assert counter.ratio == 0.0
    for kept in (True, False, False, True, False):
        counter.count(kept)
    assert (counter.downloaded, counter.kept) == (5, 2)
    assert counter.ratio == pytest.approx(0.4)
