import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.patterns.crawl_round import url_language
from bilingual_spider.patterns.units import (
    DIR,
    FILE,
    HOST,
    QUERY,
    Unit,
    host_language,
    is_well_formed,
    site_of,
    split_file_name,
    split_url,
    substitute,
    substitute_everywhere,
)
from bilingual_spider.patterns.units import _substituted as substituted_unfiltered


def test_units_of_a_legco_url() -> None:
    units = split_url("http://www.legco.gov.hk/yr99-00/english/fc/esc/minutes/es061099.htm")
    assert units.site == "legco.gov.hk"
    assert [u.value for u in units.units()] == [
        "www", "yr99-00", "english", "fc", "esc", "minutes", "es061099", "htm",
    ]  # fmt: skip


def test_file_name_tokens() -> None:
    assert split_file_name("en_rep_thai_04.htm")[0] == ("en", "rep", "thai", "04", "htm")
    assert split_file_name("page.html.fr") == (("page", "html", "fr"), (".", "."))
    assert split_file_name("") == ((), ())


def test_language_tags_in_file_names_are_one_token() -> None:
    assert split_file_name("index.zh-cn.html") == (("index", "zh-cn", "html"), (".", "."))
    assert split_file_name("ch05.zh_CN.html")[0] == ("ch05", "zh_CN", "html")
    assert split_file_name("sr-Latn.html")[0] == ("sr-Latn", "html")
    # not a tag: the first token is no language code, the second no region or known script
    assert split_file_name("news-cn.html")[0] == ("news", "cn", "html")
    assert split_file_name("my-page.html")[0] == ("my", "page", "html")
    url = "http://www.debian.org/doc/debian-reference/ch03.zh-tw.html"
    assert substitute(url, "zh-tw", "en") == [url.replace("zh-tw", "en")]
    assert substitute(url, "en", "de+de") == []  # a two-place pattern substitutes no unit


def test_language_subdomain_and_query_are_units() -> None:
    units = split_url("https://es.example.com/a/b.php?id=3&lang=es#top").units()
    assert units[0] == Unit(HOST, 0, "es")
    assert Unit(DIR, 0, "a") in units and Unit(FILE, 1, "php") in units
    assert Unit(QUERY, 1, "lang=es") in units
    assert split_url("http://example.com/").host_unit == ""
    assert split_url("http://example.com/").site == split_url("http://fr.example.com/x").site


def test_a_site_is_the_host_unless_its_subdomain_is_www_or_a_language() -> None:
    assert site_of("http://fr.example.com/x") == site_of("http://www.example.com/") == "example.com"
    assert site_of("http://english.example.com/") == site_of("http://tc.example.com/")
    # two projects under one domain are two sites: neither judges its patterns on the other's pages
    assert site_of("http://d-i.debian.org/manual/en/") == "d-i.debian.org"
    assert site_of("http://www.debian.org/doc/") == "debian.org"
    assert site_of("http://a.b.example.com:8080/") == "a.b.example.com:8080"
    assert split_url("http://httpd.apache.org/docs/").site == "httpd.apache.org"


def test_any_two_letter_language_code_as_a_host_label_is_a_language_of_the_site() -> None:
    """Chamorro, Tahitian and Marshallese subdomains (stop 70's fresh held-out sites): no
    names-table language, yet ISO 639-1 codes; a crawl of the English host saw none of them."""
    for label in ("ch", "ty", "mh"):
        assert site_of(f"http://{label}.marianas.example/docs/") == "marianas.example"
    assert site_of("http://kbp.marianas.example/") == "kbp.marianas.example"  # 3 letters: a word
    assert site_of("http://js.example.com/") == "js.example.com"  # no language's code
    assert (host_language("ch"), host_language("fr"), host_language("js")) == ("ch", "fr", None)
    assert url_language("http://ch.marianas.example/docs/a.html") == "ch"  # its declaration
    assert url_language("http://x.org/ch/docs/a.html") is None  # a path's ch: a chapter?


def test_whole_directory_substituted_never_a_substring() -> None:
    url = "http://www.x.gov.hk/en/english-news/index.html"
    assert substitute(url, "en", "tc") == ["http://www.x.gov.hk/tc/english-news/index.html"]
    assert substitute("http://www.x.gov.hk/english-news/a.html", "en", "tc") == []
    assert substitute("http://www.x.gov.hk/english-news/a.html", "english", "chinese") == []


def test_query_and_file_token_substitution() -> None:
    assert substitute("http://x.org/p.aspx?lang=en&id=4", "lang=en", "lang=fr") == [
        "http://x.org/p.aspx?lang=fr&id=4"
    ]
    assert substitute("http://x.org/p.aspx?language=en", "lang=en", "lang=fr") == []
    assert substitute("http://x.com/rep_en.htm", "en", "fr") == ["http://x.com/rep_fr.htm"]
    assert substitute("http://x.com/rep_en.htm", "e", "f") == []


def test_a_language_named_in_several_units_is_replaced_in_all_of_them() -> None:
    faq = "http://www.debian.org/doc/manuals/debian-faq/de/basic-defs.de.html"
    fr = "http://www.debian.org/doc/manuals/debian-faq/fr/basic-defs.fr.html"
    assert substitute_everywhere(faq, "de", "fr") == fr
    assert substitute_everywhere(faq, "de+de", "fr+fr") == fr  # a two-place pattern's sides
    assert substitute_everywhere("http://de.x.org/de/a?lang=de", "de", "fr") == (
        "http://fr.x.org/fr/a?lang=de"  # the query unit is "lang=de", not "de"
    )
    assert substitute_everywhere("http://x.org/de/a/de/b.de.html", "de", "fr") == (
        "http://x.org/fr/a/fr/b.fr.html"
    )


def test_a_unit_in_one_place_or_sides_that_differ_are_no_substitution_of_every_place() -> None:
    faq = "http://www.debian.org/doc/manuals/debian-faq/de/basic-defs.de.html"
    assert substitute_everywhere("http://x.org/de/a.html", "de", "fr") is None  # substitute's
    assert substitute_everywhere("http://x.org/de/a/de/b.de.html", "de+de", "fr+fr") is None
    assert substitute_everywhere(faq, "de+de", "en") is None  # which "de" goes is not said
    assert substitute_everywhere(faq, "de+en", "fr+fr") is None
    assert substitute_everywhere(faq, "de", "") is None
    assert substitute_everywhere(faq, "", "fr") is None
    assert substitute_everywhere(faq, "fr", "de") is None


def test_nothing_is_inserted_or_removed() -> None:
    assert substitute("http://x.org/a/p", "", "fr") == ["http://x.org/fr/a/p"]
    assert substitute("http://x.org/p?id=1", "", "lang=fr") == ["http://x.org/p?id=1&lang=fr"]
    assert substitute("http://x.org/fr/p", "fr", "") == ["http://x.org/p"]
    assert substitute("http://x.org/page.html.fr", "fr", "") == ["http://x.org/page.html"]
    assert substitute("http://en.x.org/p", "en", "fr") == ["http://fr.x.org/p"]


def test_a_parameter_the_query_sets_already_is_not_inserted_again() -> None:
    """A deep page's candidate by <"", hl=ts> of ``read.php?doc=0&hl=nr`` is no page: a
    fresh held-out site (stop 70) served 216 such URLs, each a copy of one of its 86 pages."""
    assert substitute("http://x.org/read.php?doc=0&hl=nr", "", "hl=ts") == []
    assert substitute("http://x.org/read.php?doc=0", "", "hl=ts") == [
        "http://x.org/read.php?doc=0&hl=ts"
    ]
    assert substitute("http://x.org/read.php?doc=0&hl=nr", "hl=nr", "hl=ts") == [
        "http://x.org/read.php?doc=0&hl=ts"
    ]


def test_an_initial_is_inserted_before_the_extension_never_as_a_directory() -> None:
    """<"", f> of ``report.asp`` / ``report_f.asp`` (issue 31): ``/f/`` is no language's."""
    assert substitute("http://a.ca/docs/report.asp", "", "f") == [
        "http://a.ca/docs/report_f.asp",
        "http://a.ca/docs/report-f.asp",
    ]
    assert substitute("http://a.ca/docs/", "", "f") == []  # no file name to mark
    assert substitute("http://a.ca/docs/index-f.html", "f", "") == ["http://a.ca/docs/index.html"]


def test_empty_segments_are_kept() -> None:
    assert split_url("http://x.com//en//a").url() == "http://x.com//en//a"
    assert split_url("http://x.com").url() == "http://x.com/"


segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_.", min_size=1, max_size=8)


@given(
    st.lists(segment, max_size=5),
    st.lists(st.tuples(segment, segment).map("=".join), max_size=3),
)
def test_split_rebuilds_the_url(dirs: list[str], query: list[str]) -> None:
    url = "http://www.example.com/" + "/".join(dirs) + ("?" + "&".join(query) if query else "")
    assert split_url(url).url() == url


MALFORMED = ["HTTP://[::1/x", "http://[::1/en/x", "https://]/fr/", "ftp://[/en", "//[::1/x", ""]


@pytest.mark.parametrize("url", MALFORMED)
def test_malformed_urls_split_without_raising(url: str) -> None:
    assert not is_well_formed(url) or url in ("", "//[::1/x")
    units = split_url(url)
    assert site_of(url) == units.site
    assert isinstance(substitute(url, "en", "fr"), list)
    assert isinstance(substitute(url, "", "fr"), list)


def test_a_malformed_url_keeps_its_readable_units() -> None:
    assert substitute("http://[::1/en/x", "en", "fr") == ["http://[::1/fr/x"]
    assert is_well_formed("http://[::1]/en/x") and not is_well_formed("http://[::1/en/x")


@given(st.text(max_size=60))
def test_no_string_makes_the_unit_functions_raise(text: str) -> None:
    for url in (text, "http://" + text, "HTTP://" + text, "http://[" + text):
        split_url(url).url()
        site_of(url)
        substitute(url, "en", "fr")


LANGUAGE_UNITS = st.sampled_from(["en", "fr", "zh-tw", "english", "lang=en", "www", "", "de+de"])


@given(
    st.lists(st.one_of(segment, LANGUAGE_UNITS.filter(bool)), max_size=4),
    st.one_of(segment, LANGUAGE_UNITS),
    st.one_of(segment, LANGUAGE_UNITS),
    st.sampled_from(["http://www.x.org/", "http://en.x.org/", "https://x.org/a/"]),
    st.sampled_from(["", "index.en.html", "a_en.htm", "?lang=en", "x.html?lang=en&p=1"]),
)
def test_a_url_without_the_old_unit_is_not_substituted_and_the_rest_as_before(
    dirs: list[str], old: str, new: str, root: str, tail: str
) -> None:
    """:func:`substitute` passes over a URL in which ``old`` is nowhere (nor in its lower-cased
    host) without splitting it: what it returns is the full search's."""
    url = root + "/".join([*dirs, tail])
    assert substitute(url, old, new) == list(substituted_unfiltered.__wrapped__(url, old, new))
    upper = url.replace("en", "EN")  # a unit in capitals stays so, but not in the host
    for unit in (old, old.upper()):
        made = list(substituted_unfiltered.__wrapped__(upper, unit, new))
        assert substitute(upper, unit, new) == made
