import pytest

from bilingual_spider.patterns.credibility import (
    credibility,
    global_credibility,
    local_credibility,
    site_credibility,
)
from bilingual_spider.patterns.mining import PairingPattern, mine_sites

LEGCO = "http://www.legco.gov.hk/"
FEHD = "http://www.fehd.gov.hk/"
EN_ZH = PairingPattern("chinese", "english")
EN_TC = PairingPattern("english", "tc_chi")

# legco.gov.hk, |w| = 10: four english/chinese pairs and two English pages without a partner.
LEGCO_PAGES = [
    LEGCO + f"yr99-00/{lang}/{path}"
    for lang in ("english", "chinese")
    for path in (
        "fc/esc/minutes/es061099.htm",
        "fc/esc/agenda/ea061099.htm",
        "panels/ca/papers/ca1011.htm",
        "hc/minutes/hc991008.htm",
    )
] + [LEGCO + "yr99-00/english/sc/index.htm", LEGCO + "general/english/library/lib_home.htm"]
# fehd.gov.hk, |w| = 8: two tc_chi/english pairs (the paper's deep-page example), one
# chinese/english pair, and a notice whose two versions differ in two units (.html/.htm).
FEHD_PAGES = [
    FEHD + "english/LLB_web/cagenda_20070904.htm",
    FEHD + "tc_chi/LLB_web/cagenda_20070904.htm",
    FEHD + "english/LLB_web/minutes_20070918.htm",
    FEHD + "tc_chi/LLB_web/minutes_20070918.htm",
    FEHD + "english/about/index.html",
    FEHD + "chinese/about/index.html",
    FEHD + "english/news/notice.html",
    FEHD + "tc_chi/news/notice.htm",
]


@pytest.fixture(scope="module")
def mined():
    return mine_sites(LEGCO_PAGES + FEHD_PAGES)


def test_eq2_pair_counts_by_hand(mined) -> None:
    # p(<chinese,english>, legco) = 4; p(<english,tc_chi>, fehd) = 2; p(<chinese,english>, fehd) = 1
    assert mined["legco.gov.hk"].pattern_counts() == {EN_ZH: 4}
    assert mined["fehd.gov.hk"].pattern_counts() == {EN_TC: 2, EN_ZH: 1}


def test_eq3_local_credibility_by_hand(mined) -> None:
    table = credibility(mined)
    # C(k, legco) = N / |w| = 2*4 / 10 = 0.8
    assert table.local_of("legco.gov.hk", EN_ZH) == pytest.approx(0.8)
    # C(<english,tc_chi>, fehd) = 2*2 / 8 = 0.5; C(<chinese,english>, fehd) = 2*1 / 8 = 0.25
    assert table.local_of("fehd.gov.hk", EN_TC) == pytest.approx(0.5)
    assert table.local_of("fehd.gov.hk", EN_ZH) == pytest.approx(0.25)
    assert local_credibility(8, 10) == pytest.approx(0.8)


def test_eq4_global_credibility_by_hand(mined) -> None:
    table = credibility(mined)
    # N = 10 + 8 = 18
    # C(<chinese,english>) = (8 * 0.8 + 2 * 0.25) / 18 = 6.9 / 18
    # C(<english,tc_chi>)  = (4 * 0.5) / 18 = 2 / 18
    assert table.total_pages == 18
    assert table.global_score[EN_ZH] == pytest.approx(6.9)
    assert table.global_credibility(EN_ZH) == pytest.approx(6.9 / 18)
    assert table.global_credibility(EN_TC) == pytest.approx(2 / 18)
    assert table.top_patterns() == (EN_ZH, EN_TC)
    assert global_credibility([(8, 0.8), (2, 0.25)], 18) == pytest.approx(6.9 / 18)


def test_eq5_site_credibility_by_hand(mined) -> None:
    table = credibility(mined)
    # C(legco) = max(0.8) = 0.8; C(fehd) = max(0.5, 0.25) = 0.5
    assert table.site == pytest.approx({"legco.gov.hk": 0.8, "fehd.gov.hk": 0.5})
    assert site_credibility([]) == 0.0


def test_with_page_languages_a_pattern_counts_the_pages_of_its_own_two_languages():
    """A site in three languages, every page translated: <en,fr> matches all en and fr pages."""
    from bilingual_spider.patterns.url_list import mine_url_list

    urls = [
        f"http://www.x.example/{lang}/p{i}.html" for lang in ("en", "fr", "de") for i in range(5)
    ]
    languages = {url: url.split("/")[3] for url in urls}
    with_languages = mine_url_list(urls, languages).credibility
    url_only = mine_url_list(urls).credibility
    en_fr = PairingPattern("en", "fr")
    assert with_languages.local_of("x.example", en_fr) == 1.0  # 10 pages of 10 in en or fr
    assert url_only.local_of("x.example", en_fr) == pytest.approx(10 / 15)  # eq. 3 as written


def test_untranslated_fallbacks_in_other_languages_do_not_dilute_a_language_pattern():
    """The Apache manual's way: /ko/ holds 3 Korean pages and 7 English fallbacks, and four other
    language directories hold English fallbacks only. <en,ko> can only apply to the pages under
    /en/ and /ko/, so those are its |w|, not every page whose text is English."""
    from bilingual_spider.patterns.url_list import mine_url_list

    languages = {f"http://x.example/en/p{i}.html": "en" for i in range(10)}
    languages |= {f"http://x.example/ko/p{i}.html": "ko" if i < 3 else "en" for i in range(10)}
    for other in ("de", "fr", "es", "it"):
        languages |= {f"http://x.example/{other}/p{i}.html": "en" for i in range(10)}
    table = mine_url_list(languages, languages).credibility
    assert table.local_of("x.example", PairingPattern("en", "ko")) == 6 / 20
