from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.search import (
    directory_mode_queries,
    domain_mode_queries,
    language_markers,
    patterns_of_language,
    query,
    search_substitutions,
)

TOP = [
    PairingPattern("en", "tc"),
    PairingPattern("eng", "chi"),
    PairingPattern("chinese", "english"),
    PairingPattern("lang=en", "lang=tc"),
    PairingPattern("en", "sc"),
    PairingPattern("en", "fr"),
    PairingPattern("e", "c"),
    PairingPattern("page1", "page2"),
]
IMMD = "http://www.immd.gov.hk/en/services/hk-visas/visit-transit.html"


def test_markers_and_first_query() -> None:
    assert language_markers(TOP, "en") == ["en", "eng", "english"]
    assert query("en", "gov.hk", "html") == "inurl:en site:gov.hk filetype:html"


def test_domain_and_directory_modes() -> None:
    urls = [IMMD, "http://www.immd.gov.hk/en/faq.html", "http://www.info.gov.hk/eng/a.htm"]
    domain = domain_mode_queries(urls, ["en"], ["html"])
    assert domain == [
        "inurl:en site:www.immd.gov.hk filetype:html",
        "inurl:en site:www.info.gov.hk filetype:html",
    ]
    directory = directory_mode_queries(urls, ["en", "eng"], ["html"])
    assert directory == [
        "site:www.immd.gov.hk/en/ filetype:html",
        "site:www.immd.gov.hk/en/",
        "site:www.info.gov.hk/eng/ filetype:html",
        "site:www.info.gov.hk/eng/",
    ]


def test_top_five_patterns_of_the_language_substituted_in_order() -> None:
    assert patterns_of_language(TOP, "en") == TOP[:5]
    made = search_substitutions(IMMD, TOP, "en")
    assert [c.candidate for c in made] == [
        "http://www.immd.gov.hk/tc/services/hk-visas/visit-transit.html",
        "http://www.immd.gov.hk/sc/services/hk-visas/visit-transit.html",
    ]
    assert [c.rank for c in made] == [0, 4]
    assert search_substitutions("http://x.hk/english-news/a.html", TOP, "en") == []


def test_prior_patterns_try_codes_then_parameters_then_an_added_code_then_conventions():
    from bilingual_spider.patterns.search import prior_patterns, url_markers

    assert url_markers("zh-Hant") == ["zh-hant", "tc", "cht", "big5"]
    assert prior_patterns("en", "fr") == [
        PairingPattern("en", "fr"),
        PairingPattern("lang=en", "lang=fr"),
        PairingPattern("", "fr"),
    ]
    chinese = prior_patterns("en", "zh-Hant")
    assert PairingPattern("en", "tc") in chinese and chinese[0] == PairingPattern("en", "zh-hant")
    made = {c.candidate for c in search_substitutions("http://x.gov.hk/en/a.htm", chinese, "en")}
    assert "http://x.gov.hk/tc/a.htm" in made
