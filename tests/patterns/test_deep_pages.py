from bilingual_spider.patterns.deep_pages import (
    CandidateStatus,
    deep_candidates,
    judge_candidate,
    not_found_fingerprint,
)
from bilingual_spider.patterns.mining import PairingPattern

FEHD_TC = "http://www.fehd.gov.hk/tc_chi/LLB_web/cagenda_20070904.htm"
NOT_FOUND = "Sorry, the page you requested cannot be found. Please go back to our home page."
SOURCE = "食物環境衞生署 議程 二零零七年九月四日 會議 地點 時間"
ENGLISH = "Food and Environmental Hygiene Department agenda of the meeting of 4 September 2007"


def test_fehd_deep_page_from_the_top_patterns() -> None:
    patterns = [PairingPattern("chinese", "english"), PairingPattern("english", "tc_chi")]
    made = [c.candidate for c in deep_candidates(FEHD_TC, patterns)]
    assert made == ["http://www.fehd.gov.hk/english/LLB_web/cagenda_20070904.htm"]


def test_deep_candidates_use_whole_units_in_rank_order() -> None:
    patterns = [PairingPattern("en", "tc"), PairingPattern("en", "sc"), PairingPattern("", "fr")]
    made = deep_candidates("http://x.hk/en/english-news/a.html", patterns)
    assert [c.candidate for c in made] == [
        "http://x.hk/tc/english-news/a.html",
        "http://x.hk/sc/english-news/a.html",
        "http://x.hk/fr/en/english-news/a.html",
    ]
    assert [c.rank for c in made] == [0, 1, 2]
    assert deep_candidates("http://x.hk/fr/a.html", [PairingPattern("", "fr")])[0].candidate == (
        "http://x.hk/a.html"
    )
    assert deep_candidates("http://x.hk/a.html", patterns, top=2) == []


def test_a_url_naming_its_language_twice_has_the_candidate_naming_the_other_twice() -> None:
    """The Debian FAQ's layout: ``de/x.de.html``, ``fr/x.fr.html``; a one-unit pattern of
    another manual of the host, or the FAQ's own two-place one, makes the one page there is."""
    faq = "http://www.debian.org/doc/manuals/debian-faq/de/basic-defs.de.html"
    fr = "http://www.debian.org/doc/manuals/debian-faq/fr/basic-defs.fr.html"
    for pattern in (PairingPattern("de", "fr"), PairingPattern("de+de", "fr+fr")):
        assert [c.candidate for c in deep_candidates(faq, [pattern])] == [fr]
    assert deep_candidates(faq, [PairingPattern("de+de", "en")]) == []
    made = deep_candidates("http://x.hk/en/english-news/a_en.htm", [PairingPattern("en", "tc")])
    assert [(c.candidate, c.old, c.new) for c in made] == [
        ("http://x.hk/tc/english-news/a_tc.htm", "en", "tc")
    ]


def _judge(status=200, final=None, text=ENGLISH, not_found=NOT_FOUND):
    candidate = "http://www.fehd.gov.hk/english/LLB_web/cagenda_20070904.htm"
    return judge_candidate(candidate, status, final or candidate, text, FEHD_TC, SOURCE, not_found)


def test_a_real_translation_exists() -> None:
    assert _judge() is CandidateStatus.EXISTS


def test_errors_are_missing() -> None:
    assert _judge(status=404) is CandidateStatus.MISSING
    assert _judge(status=None) is CandidateStatus.MISSING


def test_200_with_the_not_found_page_is_a_soft_404() -> None:
    text = NOT_FOUND.replace("page", "page /english/LLB_web/cagenda_20070904.htm", 1)
    assert _judge(text=text) is CandidateStatus.SOFT_404
    assert (
        _judge(text=NOT_FOUND, not_found=not_found_fingerprint(NOT_FOUND))
        is CandidateStatus.SOFT_404
    )
    assert _judge(text="  ") is CandidateStatus.SOFT_404
    assert _judge(final="http://www.fehd.gov.hk/index.html") is CandidateStatus.SOFT_404


def test_200_with_the_source_page_is_rejected() -> None:
    assert _judge(text=SOURCE) is CandidateStatus.SAME_AS_SOURCE
    assert _judge(final=FEHD_TC) is CandidateStatus.SAME_AS_SOURCE


def test_an_existing_candidate_becomes_a_deep_pair() -> None:
    from bilingual_spider.patterns.credibility import credibility
    from bilingual_spider.patterns.deep_pages import candidate_url_pair
    from bilingual_spider.patterns.mining import mine_sites

    urls = [FEHD_TC, "http://www.fehd.gov.hk/english/LLB_web/x.htm"]
    urls.append(urls[1].replace("english", "tc_chi"))
    table = credibility(mine_sites(urls))
    [candidate] = deep_candidates(FEHD_TC, table.top_patterns(10))
    pair = candidate_url_pair(candidate, table)
    assert pair.target == "http://www.fehd.gov.hk/english/LLB_web/cagenda_20070904.htm"
    assert pair.method == "deep" and pair.pattern == PairingPattern("english", "tc_chi")
    assert pair.local_credibility == 2 / 3  # N = 2 of |w| = 3 pages
    assert (pair.source_language, pair.target_language) == ("zh-Hant", "en")
