"""Language focus (Chan and Yamana; Tamura et al. 2006): hard focus rule by rule, soft focus
ordering, and the server/directory yield with its memory cap, on hand-made links and real anchors
identified by the project's calibrated language identifier."""

from __future__ import annotations

import pytest

from bilingual_spider.focus.language_focus import (
    FocusDecision,
    MarkedSites,
    TargetYield,
    YieldCounts,
    anchor_reading,
    directory_of,
    hard_focus,
    is_target,
    soft_focus,
    tld_languages_of,
    url_language_of,
    url_languages,
)
from bilingual_spider.frontier.rescoring import link_priority
from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import default_identifier


@pytest.fixture(scope="module")
def anchors() -> dict[str, str]:
    """Real anchors and their calibrated decisions, in one batch as a response would do it.
    'お問い合わせはこちら' (kana only) comes out ``und``, so the Japanese anchor is 'サービス'
    (katakana), which the identifier names ``ja``; 'About us' is too short for English (``und``),
    so the English one is a longer sentence."""
    texts = {
        "ja": "サービス",
        "ko": "회사 소개 페이지로 이동합니다",
        "zh-Hans": "关于我们的公司",
        "zh-Hant": "關於我們的公司",
        "en": "Read more about our company",
        "und": "About us",
    }
    decisions = default_identifier().decide_many(list(texts.values()))
    return {key: d.lang for key, d in zip(texts, decisions, strict=True)}


def test_the_anchors_are_identified_as_the_tests_assume(anchors: dict[str, str]) -> None:
    assert anchors == {k: k for k in anchors}


def test_same_language_ignores_region_but_not_chinese_script() -> None:
    assert same_language("pt-BR", "pt")
    assert same_language("pt", "pt-BR")
    assert same_language("zh-Hant", "zh")
    assert not same_language("zh-Hans", "zh-Hant")
    assert not same_language("ja", "ko")
    assert not is_target("und", ["und"])
    assert not is_target(None, ["ja"])


def test_a_target_tld_is_kept_whatever_the_anchor(anchors: dict[str, str]) -> None:
    decision = hard_focus("http://www.example.jp/", anchors["en"], ["ja"])
    assert decision == FocusDecision(True, "tld", 1.0)
    assert decision.priority == link_priority(1.0) == 1000


@pytest.mark.parametrize("lang", ["ja", "ko", "zh-Hans", "zh-Hant"])
def test_an_anchor_in_the_target_language_keeps_a_generic_tld_link(
    anchors: dict[str, str], lang: str
) -> None:
    decision = hard_focus("https://www.example.com/page", anchors[lang], [lang])
    assert (decision.keep, decision.reason) == (True, "anchor")


def test_a_target_anchor_keeps_a_link_with_another_cctld(anchors: dict[str, str]) -> None:
    assert hard_focus("http://example.de/", anchors["ko"], ["ko"]).reason == "anchor"


def test_chinese_scripts_are_distinct_targets(anchors: dict[str, str]) -> None:
    assert not hard_focus("http://example.com/", anchors["zh-Hant"], ["zh-Hans"]).keep
    assert hard_focus("http://example.cn/", None, ["zh-Hant"]).reason == "dropped_tld"
    assert hard_focus("http://example.cn/", None, ["zh"]).reason == "tld"


def test_another_cctld_and_an_english_anchor_are_dropped_by_the_tld(
    anchors: dict[str, str],
) -> None:
    decision = hard_focus("http://www.example.de/impressum", anchors["en"], ["ja"])
    assert decision == FocusDecision(False, "dropped_tld", 0.0)
    assert decision.priority == 0


def test_a_generic_tld_and_an_english_anchor_are_dropped_by_the_anchor(
    anchors: dict[str, str],
) -> None:
    assert hard_focus("http://example.com/", anchors["en"], ["ja"]).reason == "dropped_anchor"


def test_an_undetermined_anchor_falls_through_to_the_next_rule(anchors: dict[str, str]) -> None:
    assert anchors["und"] == "und"
    # on a target TLD, the TLD rule decides first
    assert hard_focus("http://example.co.kr/", anchors["und"], ["ko"]).reason == "tld"
    # on another ccTLD, the undetermined anchor neither keeps it nor decides the drop
    assert hard_focus("http://example.fr/", anchors["und"], ["ko"]).reason == "dropped_tld"
    # with a generic TLD, nothing tells: not dropped "by the anchor"
    assert hard_focus("http://example.com/", anchors["und"], ["ko"]).reason == "dropped_unknown"
    assert hard_focus("http://example.com/", None, ["ko"]).reason == "dropped_unknown"


def test_soft_focus_keeps_every_link_and_orders_the_evidence(anchors: dict[str, str]) -> None:
    both = soft_focus("http://example.jp/", anchors["en"], "ja", ["ja"])
    page = soft_focus("http://example.com/", anchors["en"], "ja", ["ja"])
    tld = soft_focus("http://example.jp/", anchors["en"], "en", ["ja"])
    anchor = soft_focus("http://example.com/", anchors["ja"], "en", ["ja"])
    other = soft_focus("http://example.de/", anchors["en"], "en", ["ja"])
    unknown = soft_focus("http://example.com/", None, None, ["ja"])
    assert all(d.keep for d in (both, page, tld, anchor, other, unknown))
    assert both.relevance > page.relevance > tld.relevance == anchor.relevance
    assert anchor.relevance > other.relevance == unknown.relevance > 0.0
    assert both.priority > page.priority > tld.priority > other.priority > 0
    assert {both.reason, page.reason, tld.reason, anchor.reason} == {"soft_target"}
    assert {other.reason, unknown.reason} == {"soft_other"}
    assert both.relevance == pytest.approx(1.0)


def test_directory_is_the_first_path_segment() -> None:
    assert directory_of("http://A.jp/docs/x/y.html?q=1") == ("a.jp", "docs")
    assert directory_of("http://a.jp/index.html") == ("a.jp", "")
    assert directory_of("http://a.jp") == ("a.jp", "")


def test_yield_counts_are_laplace_smoothed() -> None:
    assert YieldCounts().preference == 0.5
    assert YieldCounts(3, 3).preference == pytest.approx(0.8)
    assert YieldCounts(0, 3).preference == pytest.approx(0.2)


def test_target_yield_prefers_servers_and_directories_that_gave_target_pages() -> None:
    yields = TargetYield()
    for i in range(4):
        yields.add_page(f"http://mixed.com/ja/p{i}.html", True)
        yields.add_page(f"http://mixed.com/en/p{i}.html", False)
        yields.add_page(f"http://english.com/p{i}.html", False)
    assert yields.server_counts("http://mixed.com/x") == YieldCounts(4, 8)
    assert yields.server_preference("http://mixed.com/") == pytest.approx(0.5)
    assert yields.server_preference("http://english.com/") == pytest.approx(1 / 6)
    assert yields.server_preference("http://unseen.com/") == 0.5
    ja, en = "http://mixed.com/ja/next.html", "http://mixed.com/en/next.html"
    assert yields.directory_preference(ja) == pytest.approx(5 / 6)
    assert yields.directory_preference(en) == pytest.approx(1 / 6)
    # a directory never seen falls back to its server
    assert yields.directory_preference("http://english.com/new/x.html") == pytest.approx(1 / 6)
    assert yields.relevance(ja, 0.5) > yields.relevance(en, 0.5)
    assert yields.relevance(ja, 1.0, weight=0.0) == 1.0
    assert 0.0 <= yields.relevance(en, 7.0) <= 1.0
    with pytest.raises(ValueError):
        yields.relevance(ja, 0.5, weight=1.5)


def test_target_yield_memory_is_capped_least_recently_counted_first() -> None:
    yields = TargetYield(max_hosts=3, max_directories=4)
    for i in range(50):
        yields.add_page(f"http://h{i}.jp/d{i % 7}/p.html", True)
    assert yields.hosts == 3
    assert yields.directories == 4
    assert yields.server_counts("http://h49.jp/") == YieldCounts(1, 1)
    assert yields.server_counts("http://h0.jp/") == YieldCounts()  # forgotten
    # counting a host again makes it recent: it survives the next newcomer
    yields.add_page("http://h47.jp/", True)
    yields.add_page("http://new.jp/", True)
    assert yields.server_counts("http://h47.jp/") == YieldCounts(2, 2)
    assert yields.server_counts("http://h48.jp/") == YieldCounts()
    with pytest.raises(ValueError):
        TargetYield(max_hosts=0)


def test_evidence_restricts_hard_focus_to_one_rule(anchors: dict[str, str]) -> None:
    jp_english = "http://www.example.jp/", anchors["en"]
    com_japanese = "http://www.example.com/", anchors["ja"]
    assert hard_focus(*jp_english, ["ja"], evidence=["tld"]).reason == "tld"
    assert hard_focus(*jp_english, ["ja"], evidence=["anchor"]).reason == "dropped_anchor"
    assert hard_focus(*com_japanese, ["ja"], evidence=["tld"]).reason == "dropped_unknown"
    assert hard_focus(*com_japanese, ["ja"], evidence=["anchor"]).reason == "anchor"
    with pytest.raises(ValueError):
        hard_focus(*com_japanese, ["ja"], evidence=["hreflang"])
    with pytest.raises(ValueError):
        hard_focus(*com_japanese, ["ja"], evidence=[])


URL_AND_TLD = ("url", "tld", "anchor")


@pytest.mark.parametrize(
    ("url", "languages"),
    [
        ("http://www.x.co.jp/en/about.html", ("en",)),  # directory
        ("http://en.x.co.jp/about.html", ("en",)),  # subdomain
        ("http://www.x.co.jp/about_en.html", ("en",)),  # file-name token
        ("http://www.x.co.jp/about.en.html", ("en",)),
        ("http://www.x.co.jp/about.html.en", ("en",)),  # suffix
        ("http://www.x.co.jp/en_rep_04.htm", ("en",)),  # first token
        ("http://www.x.co.jp/about.php?lang=en", ("en",)),  # parameter
        ("http://www.x.com.hk/tc/about.html", ("zh-Hant",)),  # Hong Kong style
        ("http://www.x.com/about.zh-cn.html", ("zh-Hans",)),
        ("http://www.x.co.jp/about.html", ()),
        ("http://www.x.co.jp/how-to-apply.html", ()),  # a middle token is no marker
        ("http://www.x.co.jp/en/japanese-food.html", ("en", "ja")),
    ],
)
def test_url_languages_read_the_marker_units(url: str, languages: tuple[str, ...]) -> None:
    assert url_languages(url) == languages


def test_a_url_naming_two_languages_tells_nothing() -> None:
    assert url_language_of("http://www.x.co.jp/en/japanese-food.html") is None
    assert url_language_of("http://www.x.com.hk/chinese/tc/a.html") == "zh-Hant"  # one language
    assert url_language_of("http://www.x.co.jp/") is None


def test_a_url_naming_another_language_stops_the_tld_rule(anchors: dict[str, str]) -> None:
    """The English half of a bilingual .jp site: the paper's TLD rule keeps it, the URL marker
    hands it to the anchor rule, which drops an English anchor and keeps a Japanese one."""
    english_half = "http://www.example.co.jp/en/about.html"
    assert hard_focus(english_half, anchors["en"], ["ja"]).reason == "tld"
    decision = hard_focus(english_half, anchors["en"], ["ja"], URL_AND_TLD)
    assert decision == FocusDecision(False, "dropped_url_marker", 0.0)
    assert hard_focus(english_half, anchors["und"], ["ja"], URL_AND_TLD).reason == (
        "dropped_url_marker"
    )
    assert hard_focus(english_half, anchors["ja"], ["ja"], URL_AND_TLD).reason == "anchor"
    for same_site in ("http://www.example.co.jp/about.html", "http://www.example.co.jp/ja/"):
        assert hard_focus(same_site, anchors["en"], ["ja"], URL_AND_TLD).reason == "tld"
    # another language's marker off a target TLD changes nothing
    assert hard_focus("http://x.com/en/", anchors["en"], ["ja"], URL_AND_TLD).reason == (
        "dropped_anchor"
    )


def test_a_url_naming_a_target_language_keeps_the_link(anchors: dict[str, str]) -> None:
    for url in ("http://www.x.com/ko/news.html", "http://www.x.com/news.php?lang=ko"):
        assert hard_focus(url, anchors["en"], ["ko"]).reason == "dropped_anchor"
        assert hard_focus(url, anchors["en"], ["ko"], URL_AND_TLD).reason == "url_marker"
    assert hard_focus("http://x.com/tc/", None, ["zh"], ("url", "anchor")).reason == "url_marker"
    assert not hard_focus("http://x.com/tc/", None, ["zh-Hans"], URL_AND_TLD).keep
    assert soft_focus("http://x.com/ko/", anchors["en"], "en", ["ko"], URL_AND_TLD).relevance == (
        pytest.approx(0.5)
    )


def test_tld_languages_are_the_hosts_whatever_the_path() -> None:
    assert tld_languages_of("http://shop.example.co.kr/a/b.html?x=1") == ("ko",)
    assert tld_languages_of("http://example.com/") == ()
    assert tld_languages_of("not a url") == ()


def test_a_kanji_only_anchor_on_a_japanese_page_is_undetermined() -> None:
    """会社概要 (company profile) is written in kanji alone; the identifier reads such text as
    Chinese. On a page that writes kana it may as well be Japanese: neither proof nor disproof."""
    decision = default_identifier().decide_many(["会社概要"])[0]
    assert decision.lang.startswith("zh")
    assert anchor_reading(decision.lang, "会社概要", page_has_kana=True) == "und"
    assert anchor_reading(decision.lang, "会社概要", page_has_kana=False) == decision.lang
    assert anchor_reading("ja", "サービス", page_has_kana=True) == "ja"
    assert anchor_reading("zh-Hans", "关于我们 ホーム", page_has_kana=True) == "zh-Hans"
    assert anchor_reading(None, "", page_has_kana=True) is None


def test_target_yield_relevance_by_server_or_directory() -> None:
    tracker = TargetYield()
    for _ in range(4):
        tracker.add_page("http://a.com/ja/p.html", True)
        tracker.add_page("http://a.com/en/p.html", False)
        tracker.add_page("http://a.com/en/q.html", False)
    by_directory = tracker.relevance("http://a.com/ja/x.html", 0.0, 1.0, "directory")
    by_server = tracker.relevance("http://a.com/ja/x.html", 0.0, 1.0, "server")
    assert by_directory == pytest.approx(5 / 6)
    assert by_server == pytest.approx(5 / 14)
    with pytest.raises(ValueError):
        tracker.relevance("http://a.com/", 0.5, 0.5, "site")


SITE = ("url", "site", "tld", "anchor")


def test_a_site_that_marks_its_target_pages_loses_the_tld_rule_for_unmarked_urls(
    anchors: dict[str, str],
) -> None:
    """A .jp site whose Japanese pages are on ``ja.`` or under ``/ja/`` serves English on its
    unmarked URLs: once seen, they are judged by their anchor (ours, beyond the paper)."""
    marked = MarkedSites(["ja"])
    primary = "http://www.example.co.jp/about.html"
    assert hard_focus(primary, anchors["en"], ["ja"], SITE, marked).reason == "tld"  # unseen
    assert not marked.observe("http://www.other.co.jp/en/")  # another language's marker
    assert marked.observe("http://ja.example.co.jp/")
    assert marked.is_marked("http://example.co.jp/") and len(marked) == 1
    for unmarked in (primary, "http://example.co.jp/"):
        decision = hard_focus(unmarked, anchors["en"], ["ja"], SITE, marked)
        assert decision == FocusDecision(False, "dropped_unmarked_on_marked_site", 0.0)
    assert hard_focus(primary, anchors["ja"], ["ja"], SITE, marked).reason == "anchor"
    assert hard_focus(primary, anchors["und"], ["ja"], SITE, marked).reason == (
        "dropped_unmarked_on_marked_site"
    )
    # the marked pages themselves, and the sites that mark nothing, keep the TLD rule
    assert hard_focus("http://www.example.co.jp/ja/a.html", None, ["ja"], SITE, marked).keep
    assert hard_focus("http://www.other.co.jp/a.html", None, ["ja"], SITE, marked).reason == "tld"
    # without ``site`` in the evidence, or without the state, the TLD rule keeps it
    assert hard_focus(primary, anchors["en"], ["ja"], URL_AND_TLD, marked).reason == "tld"
    assert hard_focus(primary, anchors["en"], ["ja"], SITE).reason == "tld"
    assert soft_focus(primary, anchors["en"], "en", ["ja"], SITE, marked).reason == "soft_other"


def test_marked_sites_memory_is_capped_least_recently_seen_first() -> None:
    marked = MarkedSites(["ko"], max_sites=2)
    for i in range(5):
        marked.observe(f"http://www.s{i}.kr/ko/")
    assert len(marked) == 2
    assert not marked.is_marked("http://s0.kr/")
    marked.observe("http://s3.kr/?lang=ko")  # seen again: recent
    marked.observe("http://ko.new.kr/")
    assert marked.is_marked("http://s3.kr/") and not marked.is_marked("http://s4.kr/")
    with pytest.raises(ValueError):
        MarkedSites(["ko"], max_sites=0)
