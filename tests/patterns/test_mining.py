import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.patterns.mining import (
    DEFAULT_MAX_GROUP,
    PairingPattern,
    insertion_keys,
    matched_pages,
    mine_site,
    mine_sites,
    pair_counts,
    removal_keys,
)
from bilingual_spider.patterns.units import split_url

LEGCO = "http://www.legco.gov.hk/yr99-00/{}/fc/esc/minutes/es061099.htm"


def test_eq1_legco_pair_gives_english_chinese() -> None:
    mined = mine_site([LEGCO.format("english"), LEGCO.format("chinese")])
    assert [p.pattern for p in mined.pairs] == [PairingPattern("chinese", "english")]
    assert mined.pairs[0].first_url == LEGCO.format("chinese")


def test_urls_differing_in_two_units_do_not_pair() -> None:
    mined = mine_site([LEGCO.format("english"), LEGCO.format("chinese").replace("es06", "ea06")])
    assert mined.pairs == ()


FAQ = "http://www.debian.org/doc/manuals/debian-faq/"


def test_language_marked_in_two_places_pairs_by_a_two_place_pattern() -> None:
    """The Debian FAQ's layout: ``x.en.html`` and ``de/x.de.html`` differ in two units."""
    urls = [FAQ + "basic.en.html", FAQ + "de/basic.de.html", FAQ + "zh-cn/basic.zh-cn.html"]
    urls += [FAQ + "zh-tw/basic.zh-tw.html", FAQ + "it/basic.de.html", FAQ + "de/news.de.html"]
    patterns = {(p.first_url[len(FAQ) :], p.second_url[len(FAQ) :], str(p.pattern)) for p in
                mine_site(urls).pairs}  # fmt: skip
    assert patterns == {
        ("de/basic.de.html", "basic.en.html", "<de+de,en>"),
        ("basic.en.html", "zh-cn/basic.zh-cn.html", "<en,zh-cn+zh-cn>"),
        ("basic.en.html", "zh-tw/basic.zh-tw.html", "<en,zh-tw+zh-tw>"),
        ("de/basic.de.html", "zh-cn/basic.zh-cn.html", "<de+de,zh-cn+zh-cn>"),
        ("de/basic.de.html", "zh-tw/basic.zh-tw.html", "<de+de,zh-tw+zh-tw>"),
        ("zh-cn/basic.zh-cn.html", "zh-tw/basic.zh-tw.html", "<zh-cn+zh-cn,zh-tw+zh-tw>"),
        # one-unit pairs stay eq. 1's; it/basic.de.html marks two languages and pairs by none
        ("de/basic.de.html", "it/basic.de.html", "<de,it>"),
        ("de/basic.de.html", "de/news.de.html", "<basic,news>"),
    }
    with_languages = mine_site(urls, {u: "de" if "/de/" in u else "en" for u in urls})
    assert {str(p.pattern) for p in with_languages.pairs} == {"<de+de,en>", "<de,it>",
                                                               "<de+de,zh-cn+zh-cn>",
                                                               "<de+de,zh-tw+zh-tw>"}  # fmt: skip


def test_patterns_are_symmetric() -> None:
    assert (
        PairingPattern.of("en", "fr") == PairingPattern.of("fr", "en") == PairingPattern("en", "fr")
    )


def test_nothing_unit_on_one_side() -> None:
    urls = [
        "http://c.org/History", "http://c.org/fr/History",
        "http://m.eu/i.aspx?id=65143", "http://m.eu/i.aspx?lang=fr&id=65143",
        "http://g.com/page.html", "http://g.com/page.html.fr",
    ]  # fmt: skip
    patterns = {p.pattern for m in mine_sites(urls).values() for p in m.pairs}
    assert patterns == {PairingPattern("", "fr"), PairingPattern("", "lang=fr")}


def test_eq2_pair_counts_and_matched_pages() -> None:
    urls = [f"http://x.com/{lang}/p{i}.html" for lang in ("en", "fr") for i in range(3)]
    counts = pair_counts(mine_site(urls).pairs)
    assert counts[PairingPattern("en", "fr")] == 3  # p(k, w)
    assert matched_pages(counts[PairingPattern("en", "fr")]) == 6  # N(k, w) = 2 p(k, w)


def test_language_column_pairs_only_different_languages() -> None:
    urls = [f"http://x.com/{d}/p.html" for d in ("en", "fr", "news")]
    languages = {urls[0]: "en", urls[1]: "fr", urls[2]: "en"}
    mined = mine_site(urls, languages)
    assert {p.pattern for p in mined.pairs} == {
        PairingPattern("en", "fr"),
        PairingPattern("fr", "news"),
    }


def test_huge_groups_are_not_paired() -> None:
    urls = [f"http://x.com/news/{i}.html" for i in range(DEFAULT_MAX_GROUP + 1)]
    assert mine_site(urls).pairs == ()
    assert len(mine_site(urls[:10]).pairs) == 45


def test_keep_filter_limits_the_units_hashed() -> None:
    urls = ["http://x.com/en/p1.html", "http://x.com/fr/p1.html", "http://x.com/en/p2.html"]
    mined = mine_site(urls, keep=lambda unit: unit in ("", "en", "fr"))
    assert {p.pattern for p in mined.pairs} == {PairingPattern("en", "fr")}


label = st.text(alphabet="abcdefgh0123-_.", min_size=0, max_size=6)
url = st.builds(
    lambda host, dirs, name, query: (
        f"http://{host}.example.com/"
        + "/".join([*dirs, name])
        + ("?" + "&".join(query) if query else "")
    ),
    st.sampled_from(["www", "en", "fr", "a"]),
    st.lists(st.sampled_from(["en", "fr", "a", "b", "en-news"]), max_size=3),
    label,
    st.lists(st.sampled_from(["lang=en", "lang=fr", "id=1", "id=2"]), max_size=2, unique=True),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(url, max_size=25), st.randoms())
def test_mining_is_invariant_to_url_order(urls: list[str], rnd: random.Random) -> None:
    shuffled = urls[:]
    rnd.shuffle(shuffled)
    assert mine_sites(urls) == mine_sites(shuffled)
    for mined in mine_sites(urls).values():
        for pair in mined.pairs:
            assert pair.pattern.first <= pair.pattern.second
            assert pair.first_url != pair.second_url


@settings(max_examples=60, deadline=None)
@given(st.lists(url, max_size=12), st.lists(url, max_size=12))
def test_mining_is_symmetric_in_the_two_url_sets(left: list[str], right: list[str]) -> None:
    assert mine_sites(left + right) == mine_sites(right + left)


@given(url)
def test_one_key_per_unit_and_per_insertion_slot(u: str) -> None:
    units = split_url(u)
    assert len(removal_keys(units)) == len(units.units())
    assert len(insertion_keys(units)) == len(units.dirs) + len(units.tokens) + 3


@settings(max_examples=100)
@given(st.text(max_size=60))
def test_no_crash_on_any_text(text: str) -> None:
    mine_sites([text, "http://x.com/" + text])


def test_accept_filter_drops_patterns() -> None:
    from bilingual_spider.patterns.markers import is_language_pattern

    urls = ["http://x.com/en/a", "http://x.com/english/a", "http://x.com/fr/a"]
    mined = mine_site(urls, accept=is_language_pattern)
    assert {p.pattern for p in mined.pairs} == {
        PairingPattern("en", "fr"),
        PairingPattern("english", "fr"),
    }


def test_collector_is_restored() -> None:
    import gc

    from bilingual_spider.patterns.mining import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    mine_sites(["http://x.com/en/a", "http://x.com/fr/a"])
    assert gc.isenabled()
