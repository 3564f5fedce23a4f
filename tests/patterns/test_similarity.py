import pytest

from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.similarity import (
    bilingual_similarity,
    keep_pair,
    link_pairs_matched,
    pattern_links_similarity,
    same_links_similarity,
    unit_weights,
)

EN_TC = PairingPattern("english", "tc_chi")
H = "http://www.fehd.gov.hk/"
LT = [H + "tc_chi/a.htm", H + "tc_chi/b.htm", H + "index.html", H + "tc_chi/c.htm"]
LS = [H + "english/a.htm", H + "english/b.htm", H + "index.html", H + "english/x.htm"]


def test_eq8_share_of_identical_links() -> None:
    # one link in common, 4 + 4 links: 2 * 1 / 8
    assert same_links_similarity(LT, LS) == pytest.approx(0.25)
    assert same_links_similarity([], []) == 0.0


def test_eq9_link_pairs_matched_by_patterns() -> None:
    # a.htm and b.htm pair up by <english,tc_chi>: p = 2, N = 4; C(k) = 0.5 -> 4 * 0.5 / 8
    assert link_pairs_matched(set(LT), set(LS), EN_TC) == 2
    assert pattern_links_similarity(LT, LS, {EN_TC: 0.5}) == pytest.approx(0.25)
    assert pattern_links_similarity(LT, LS, unit_weights([EN_TC])) == pytest.approx(0.5)


def test_eq7_weighted_sum_and_the_filter() -> None:
    # 0.5 * 0.25 + 0.5 * 0.5
    assert bilingual_similarity(LT, LS, unit_weights([EN_TC])) == pytest.approx(0.375)
    unrelated = bilingual_similarity([H + "tc_chi/q.htm"], [H + "english/z.htm"], {EN_TC: 1.0})
    assert unrelated == 0.0 and not keep_pair(unrelated)
    assert keep_pair(0.01)


FAQ = "http://www.debian.org/doc/manuals/debian-faq/"
EN_DE_TWICE = PairingPattern.of("en", "de+de")


def test_a_two_place_pattern_pairs_links_that_differ_in_its_markers_alone() -> None:
    # the two tables of contents of the Debian FAQ: each links its own language's chapters
    # (x.en.html, de/x.de.html), which the two-place pattern <en,de+de> pairs, and nothing
    # the two pages share
    english = {FAQ + "basic-defs.en.html", FAQ + "choosing.en.html", FAQ + "index.en.html"}
    german = {FAQ + "de/basic-defs.de.html", FAQ + "de/choosing.de.html", FAQ + "de/faq.de.html"}
    assert link_pairs_matched(english, german, EN_DE_TWICE) == 2
    assert pattern_links_similarity(english, german, {EN_DE_TWICE: 1.0}) == pytest.approx(4 / 6)
    assert keep_pair(bilingual_similarity(english, german, {EN_DE_TWICE: 1.0}))
    # another pattern's markers, or links that differ in more than the markers, pair nothing
    french = {FAQ + "fr/basic-defs.fr.html", FAQ + "fr/choosing.fr.html"}
    assert link_pairs_matched(english, french, EN_DE_TWICE) == 0
    moved = {FAQ + "de/other/basic-defs.de.html", FAQ + "de/chooser.de.html"}
    assert link_pairs_matched(english, moved, EN_DE_TWICE) == 0
    assert bilingual_similarity(english, moved, {EN_DE_TWICE: 1.0}) == 0.0
