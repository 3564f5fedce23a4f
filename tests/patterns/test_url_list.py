from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.stripping import stripping_pairs
from bilingual_spider.patterns.url_list import mine_url_list

URLS = [
    "http://bugadacargnel.com/en/pages/artistes.php?name=18492",
    "http://bugadacargnel.com/fr/pages/artistes.php?name=18492",
    "http://bugadacargnel.com/en/pages/expositions.php?name=marcbijl",
    "http://bugadacargnel.com/fr/pages/expositions.php?name=marcbijl",
    "http://golftrotter.com/en_rep_thai_04.htm",
    "http://golftrotter.com/fr_rep_thai_04.htm",
    "http://golftrotter.com/en_rep_thai_05.htm",
    "http://cineuropa.mobi/interview.aspx?documentID=65143",
    "http://cineuropa.mobi/interview.aspx?lang=fr&documentID=65143",
    "http://shop.example.com/list?page=1",
    "http://shop.example.com/list?page=2",
    "http://en.wiki.example.org/Paris",
    "http://fr.wiki.example.org/Paris",
]


def test_url_only_mining_finds_language_pairs_only() -> None:
    result = mine_url_list(URLS)
    found = {(p.source, p.target) for p in result.pairs}
    assert found == {
        (URLS[0], URLS[1]),
        (URLS[2], URLS[3]),
        (URLS[4], URLS[5]),
        (URLS[7], URLS[8]),
        (URLS[11], URLS[12]),
    }
    assert result.top_patterns(1) == (PairingPattern("en", "fr"),)
    assert PairingPattern("page=1", "page=2") not in result.credibility.global_score


def test_language_column_lets_any_unit_pair() -> None:
    urls = ["http://x.com/a/p1.html", "http://x.com/b/p1.html"]
    result = mine_url_list(urls, languages={urls[0]: "en", urls[1]: "de"})
    [pair] = result.pairs
    assert pair.pattern == PairingPattern("a", "b")
    assert (pair.source_language, pair.target_language) == ("en", "de")
    assert mine_url_list(urls).pairs == ()


def test_stripping_comparator() -> None:
    pairs = stripping_pairs(URLS)
    assert (URLS[0], URLS[1]) in pairs and (URLS[4], URLS[5]) in pairs
    assert not any("shop" in a for a, _ in pairs)


def pairs_of(urls: list[str], languages: dict[str, str] | None = None) -> dict:
    return {(p.source, p.target): str(p.pattern) for p in mine_url_list(urls, languages).pairs}


def test_a_language_marked_in_two_places_with_different_tokens() -> None:
    english = [f"http://www.x.gc.ca/English/report_e_{i}.html" for i in range(6)]
    french = [f"http://www.x.gc.ca/Francais/report_f_{i}.html" for i in range(6)]
    found = pairs_of(english + french)
    assert found == {(e, f): "<English+e,Francais+f>" for e, f in zip(english, french, strict=True)}
    # an initial alone, where no other unit names its language, marks nothing
    assert pairs_of([u.replace("English/", "") for u in english] + french) == {}


def test_a_language_marker_glued_to_a_word_inside_a_unit() -> None:
    news = [f"http://www.x.gc.ca/news-{m}/{i}.htm" for m in "ef" for i in range(4)]
    assert set(pairs_of(news).values()) == {"<news-e,news-f>"} and len(pairs_of(news)) == 4
    papers = [
        f"http://www.inst.at/trans/plenum/{author}15{m}.htm"
        for author in ("arlt", "winkler")
        for m in ("EN", "FR")
    ]
    found = pairs_of(papers)
    assert set(found.values()) == {"<~EN,~FR>"} and len(found) == 2  # one pattern for both
    hospice = [
        f"http://virtualhospice.ca/default.aspx?goto={tag}-Main+Site-Home-{page}"
        for tag in ("en_US", "fr_CA")
        for page in ("Support", "Care")
    ]
    assert set(pairs_of(hospice).values()) == {"<~en-US,~fr-CA>"}
    # an upper-case word that is no ISO code is no marker: USA and UK are not languages
    assert pairs_of(["http://x.org/d/newsUSA1.html", "http://x.org/d/newsUK1.html"]) == {}


def test_an_opaque_parameter_value_pairs_by_the_languages_of_its_pages() -> None:
    urls = [f"http://iiz-dvv.de/index.php?article_id={i}&clang={c}" for i in (4, 5) for c in (1, 2)]
    languages = {url: "de" if url.endswith("1") else "en" for url in urls}
    assert pairs_of(urls) == {}  # a URL cannot tell clang=2 is English
    assert set(pairs_of(urls, languages).values()) == {"<clang=1,clang=2>"}


def test_a_language_subdomain_pairs_with_the_www_host() -> None:
    urls = [f"http://{host}.academy.fr/about-{i}.html" for host in ("www", "fr") for i in (1, 2)]
    assert set(pairs_of(urls).values()) == {"<,fr>"} and len(pairs_of(urls)) == 2


def test_one_malformed_url_costs_that_url_not_the_run(caplog) -> None:
    bad = ["HTTP://[::1/x", "http://[::1/en/x", "https://a.example]/fr/"]
    result = mine_url_list([URLS[0], bad[0], *URLS[1:], *bad[1:]])
    assert result.malformed == tuple(bad)
    assert result.pairs == mine_url_list(URLS).pairs != ()
    assert sum("malformed URL" in r.getMessage() for r in caplog.records) == len(bad)
