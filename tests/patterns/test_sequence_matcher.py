"""The array matcher finds difflib's blocks: the same longest match for every range, the same
matching blocks and opcodes, whichever of its two searches runs."""

from __future__ import annotations

import random
from difflib import SequenceMatcher

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.patterns.sequence_matcher import ArraySequenceMatcher
from bilingual_spider.patterns.verification import CHUNK

# a few symbols, CHUNK the most common, as in a page's shape
SHAPES = st.lists(st.sampled_from([CHUNK, CHUNK, CHUNK, "<p", "</p", "<a", "</a", "<li"]))


@pytest.fixture
def always_arrays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ArraySequenceMatcher, "MIN_AREA", 0)


def difflibs(a: list[str], b: list[str]) -> SequenceMatcher:
    return SequenceMatcher(None, a, b, autojunk=False)


@given(a=SHAPES, b=SHAPES)
def test_the_blocks_and_opcodes_are_difflibs(a, b) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ArraySequenceMatcher, "MIN_AREA", 0)  # every search in numpy
        ours = ArraySequenceMatcher(a, b)
        assert ours.get_matching_blocks() == difflibs(a, b).get_matching_blocks()
        assert ours.get_opcodes() == difflibs(a, b).get_opcodes()


@given(a=SHAPES, b=SHAPES, data=st.data())
def test_the_longest_match_of_any_range_is_difflibs(a, b, data) -> None:
    alo = data.draw(st.integers(0, len(a)))
    ahi = data.draw(st.integers(alo, len(a)))
    blo = data.draw(st.integers(0, len(b)))
    bhi = data.draw(st.integers(blo, len(b)))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ArraySequenceMatcher, "MIN_AREA", 0)
        found = ArraySequenceMatcher(a, b).find_longest_match(alo, ahi, blo, bhi)
    assert found == difflibs(a, b).find_longest_match(alo, ahi, blo, bhi)


def test_long_shapes_ties_first_in_a_then_in_b(always_arrays) -> None:
    # two equal runs of 3: difflib takes the one earliest in a, then earliest in b
    a = ["<p", CHUNK, "</p", "<h2", "<p", CHUNK, "</p"]
    b = ["<a", "<p", CHUNK, "</p", "<li", "<p", CHUNK, "</p"]
    assert ArraySequenceMatcher(a, b).find_longest_match() == (0, 1, 3)
    assert difflibs(a, b).find_longest_match() == (0, 1, 3)


def test_page_sized_shapes_in_both_searches_give_difflibs_blocks() -> None:
    rng = random.Random(7)
    symbols = [CHUNK] * 6 + ["<p", "</p", "<a", "</a", "<li", "</li", "<h2", "</h2"]
    a = [rng.choice(symbols) for _ in range(1500)]
    b = a[:400] + [rng.choice(symbols) for _ in range(300)] + a[500:] + a[:200]
    ours = ArraySequenceMatcher(a, b)
    assert len(a) * len(b) >= ours.MIN_AREA  # the top search is numpy's, the small ones difflib's
    assert ours.get_matching_blocks() == difflibs(a, b).get_matching_blocks()
