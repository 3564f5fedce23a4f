import pytest

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


def test_an_initial_glued_to_a_word_beside_its_language_pairs() -> None:
    """WMT16's summerlea.ca (``/en/2003wgs.htm``, ``/fr/2003wgsf.htm``) and schackportalen.nu
    (``/English/eblandat.htm``, ``/Francais/fblandat.htm``): the initial is glued to a word,
    and another unit of the URL names its language (issue 31)."""
    english = [f"http://www.s.ca/en/{y}wgs.htm" for y in range(2003, 2009)]
    french = [f"http://www.s.ca/fr/{y}wgsf.htm" for y in range(2003, 2009)]
    found = pairs_of(english + french)
    assert {frozenset(p): k for p, k in found.items()} == {
        frozenset(pair): "<en,fr+f>" for pair in zip(english, french, strict=True)
    }
    words = ("blandat", "spelare", "forlag", "mjukvara")
    english = [f"http://schack.nu/English/e{word}.htm" for word in words]
    french = [f"http://schack.nu/Francais/f{word}.htm" for word in words]
    found = pairs_of(english + french)
    assert {frozenset(p): k for p, k in found.items()} == {
        frozenset(pair): "<English+e,Francais+f>" for pair in zip(english, french, strict=True)
    }
    # no unit names the initial's language: a letter glued to a word is a letter
    unnamed = [f"http://www.s.ca/a/{y}wgs.htm" for y in range(2003, 2009)]
    assert (
        pairs_of(unnamed + [u.replace("/a/", "/b/").replace("s.htm", "sf.htm") for u in unnamed])
        == {}
    )


def test_a_numeric_language_value_pairs_url_only_by_its_parameter_name() -> None:
    """``clang=1`` / ``clang=2``: the parameter's name shows it is the site's language (issue
    31); which language each number is, only the pages' languages say."""
    urls = [f"http://iiz-dvv.de/index.php?article_id={i}&clang={c}" for i in (4, 5) for c in (1, 2)]
    assert set(pairs_of(urls).values()) == {"<clang=1,clang=2>"} and len(pairs_of(urls)) == 2
    assert {(p.source_language, p.target_language) for p in mine_url_list(urls).pairs} == {
        (None, None)
    }
    languages = {url: "de" if url.endswith("1") else "en" for url in urls}
    assert set(pairs_of(urls, languages).values()) == {"<clang=1,clang=2>"}
    one_language = dict.fromkeys(urls, "de")  # clang=2 untranslated: no pair by page languages
    assert pairs_of(urls, one_language) == {}


def test_a_number_of_another_parameter_is_no_language() -> None:
    urls = [f"http://x.de/list.php?cat={i}&page={n}" for i in (4, 5) for n in (1, 2)]
    assert pairs_of(urls) == {}


def test_a_language_subdomain_pairs_with_the_www_host() -> None:
    urls = [f"http://{host}.academy.fr/about-{i}.html" for host in ("www", "fr") for i in (1, 2)]
    assert set(pairs_of(urls).values()) == {"<,fr>"} and len(pairs_of(urls)) == 2


def test_one_malformed_url_costs_that_url_not_the_run(caplog) -> None:
    bad = ["HTTP://[::1/x", "http://[::1/en/x", "https://a.example]/fr/"]
    result = mine_url_list([URLS[0], bad[0], *URLS[1:], *bad[1:]])
    assert result.malformed == tuple(bad)
    assert result.pairs == mine_url_list(URLS).pairs != ()
    assert sum("malformed URL" in r.getMessage() for r in caplog.records) == len(bad)


ONE_SIDED_SHAPES = {
    "an initial added": ("http://a.ca/report{i}.asp", "http://a.ca/report{i}_f.asp", "<,f>"),
    "an initial added after -": (
        "http://b.int/docu/pr/{i}/index.html",
        "http://b.int/docu/pr/{i}/index-f.html",
        "<,f>",
    ),
    "a numeric language parameter added": (
        "http://c.com/page.php?id={i}",
        "http://c.com/page.php?id={i}&lang=2",
        "<,lang=2>",
    ),
    "initials glued to a number": (
        "http://d.ca/news{i}e.html",
        "http://d.ca/news{i}f.html",
        "<~e,~f>",
    ),
    "initials in a directory": ("http://e.ca/x-e/{i}.htm", "http://e.ca/x-f/{i}.htm", "<x-e,x-f>"),
    "numeric values of Lang": (
        "http://g.de/show.asp?Lang=1&id={i}",
        "http://g.de/show.asp?Lang=2&id={i}",
        "<Lang=1,Lang=2>",
    ),
    "TYPO3's L": (
        "http://h.ch/Newsletter.{i}.0.html?&L=4",
        "http://h.ch/Newsletter.{i}.0.html?&L=3",
        "<L=3,L=4>",
    ),
}


@pytest.mark.parametrize("shape", ONE_SIDED_SHAPES)
def test_one_sided_and_numeric_markers_pair_url_only(shape: str) -> None:
    """Issue 31's URL shapes: every page pairs with its translation, by one pattern."""
    first, second, pattern = ONE_SIDED_SHAPES[shape]
    urls = [template.format(i=i) for i in range(120, 132) for template in (first, second)]
    found = pairs_of(urls)
    assert set(found.values()) == {pattern}
    assert {frozenset(pair) for pair in found} == {
        frozenset((first.format(i=i), second.format(i=i))) for i in range(120, 132)
    }
