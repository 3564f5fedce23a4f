"""TLD -> languages: host parsing (offline), the generated CLDR table, and odd hosts."""

from __future__ import annotations

import importlib
import socket
from pathlib import Path

import idna
import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.language import tld
from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.language.tld import (
    CCTLD_LANGUAGES,
    COMMUNITY_TLD_LANGUAGES,
    GENERIC_USE_CCTLDS,
    domain_parts,
    host_of,
    languages_of_host,
    languages_of_tld,
    public_suffix,
    registered_domain,
    tld_of,
)
from tests.conftest import missing


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("www.info.gov.hk", "hk"),
        ("http://news.bbc.co.uk/a/b?c=d", "uk"),
        ("co.uk", "uk"),
        ("HTTPS://WWW.EXAMPLE.COM.:443/", "com"),
        ("user:pw@example.org:8080", "org"),
        ("пример.рф", "xn--p1ai"),
        ("www.bilingual.example", "example"),  # not in the PSL: a suffix of its own
        ("10.1.2.3", ""),
        ("http://[2001:db8::1]:8080/", ""),
        ("localhost", "localhost"),
        ("printer.123", ""),
        ("", ""),
        ("http://", ""),
    ],
)
def test_tld_of(given: str, expected: str) -> None:
    assert tld_of(given) == expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("forums.news.cnn.com", "cnn.com"),
        ("http://forums.bbc.co.uk/", "bbc.co.uk"),
        ("www.info.gov.hk", "info.gov.hk"),
        ("www.worldbank.org.kg", "worldbank.org.kg"),
        ("user.github.io", "github.io"),  # ICANN suffixes only
        ("www.bilingual.example", "bilingual.example"),
        ("Www.Example.COM.", "example.com"),
        ("münchen.de", "xn--mnchen-3ya.de"),
        ("co.uk", ""),
        ("com", ""),
        ("127.0.0.1:6379", ""),
        ("localhost", ""),
    ],
)
def test_registered_domain(given: str, expected: str) -> None:
    assert registered_domain(given) == expected


@pytest.mark.parametrize(
    ("host", "private", "expected"),
    [
        ("news.bbc.co.uk", False, ("bbc", "co.uk")),
        ("a.b.github.io", False, ("github", "io")),
        ("a.b.github.io", True, ("b", "github.io")),
        ("github.io", True, ("", "github.io")),
        ("www.bilingual.example", True, ("bilingual", "example")),  # unknown TLD: one label
        ("localhost", False, ("", "localhost")),
        ("10.0.0.1", True, ("", "")),
        ("", False, ("", "")),
    ],
)
def test_domain_parts_with_and_without_the_private_suffixes(
    host: str, private: bool, expected: tuple[str, str]
) -> None:
    """One Public Suffix List extractor answers both ways."""
    assert domain_parts(host, private_domains=private) == expected


def test_languages_of_tlds_in_the_brief() -> None:
    assert languages_of_tld("cn") == ("zh-Hans",)
    assert languages_of_tld("sg")[:2] == ("en", "zh-Hans")
    for chinese in ("tw", "hk", "mo"):
        assert languages_of_tld(chinese)[0] == "zh-Hant"
    assert "en" in languages_of_tld("hk")
    assert languages_of_tld("uk") == languages_of_tld("gb") == ("en-GB", "cy")
    assert languages_of_tld(".CA") == ("en", "fr")
    assert {"nl", "fr", "de"} <= set(languages_of_tld("be"))
    assert {"de", "fr", "it"} <= set(languages_of_tld("ch"))
    assert {"es", "ca", "gl", "eu"} <= set(languages_of_tld("es"))
    assert languages_of_tld("jp") == ("ja",) and languages_of_tld("kr") == ("ko",)
    assert languages_of_tld("br") == ("pt-BR",)


def test_eu_is_the_eu_official_languages() -> None:
    eu = languages_of_tld("eu")
    assert len(eu) == 24 and {"en", "fr", "de", "ga", "mt", "hr"} <= set(eu)


@pytest.mark.parametrize(
    "generic", ["com", "org", "net", "info", "biz", "app", "io", "ai", "tv", "me", "co", "fm"]
)
def test_generic_tlds_have_no_language(generic: str) -> None:
    assert languages_of_tld(generic) == ()
    assert languages_of_host(f"www.example.{generic}") == ()


def test_a_generically_used_cctld_counts_below_its_country_suffixes() -> None:
    assert public_suffix("www.empresa.com.co") == "com.co"
    assert languages_of_host("www.empresa.com.co") == ("es",)
    assert languages_of_host("startup.co") == ()
    assert languages_of_host("www.gencat.cat") == ("ca",)


def test_the_table_covers_every_cctld_in_project_codes() -> None:
    assert len(CCTLD_LANGUAGES) == 248
    assert all(len(t) == 2 for t in CCTLD_LANGUAGES)
    assert set(CCTLD_LANGUAGES) >= GENERIC_USE_CCTLDS
    codes = {
        c for langs in [*CCTLD_LANGUAGES.values(), *COMMUNITY_TLD_LANGUAGES.values()] for c in langs
    }
    assert all(normalize_language_code(code) == code for code in codes)
    without = {t for t, langs in CCTLD_LANGUAGES.items() if not langs}
    assert without == {"aq", "hm"}  # Antarctica, Heard & McDonald Islands: nobody lives there


def test_the_committed_table_is_what_the_script_generates() -> None:
    try:
        import babel  # noqa: F401
    except ImportError:
        missing("babel (a dev dependency) is needed to regenerate the TLD table")
    from bilingual_spider.language import build_tld_languages as build

    committed = Path(build.OUTPUT).read_text(encoding="utf-8")
    assert build.render(*build.build()) == committed, "run build_tld_languages and commit"


def test_tldextract_never_touches_the_network_or_disk(monkeypatch, tmp_path) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(requests.Session, "send", refuse)
    monkeypatch.delenv("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", raising=False)  # the default: fetch
    monkeypatch.setenv("TLDEXTRACT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    fresh = importlib.reload(tld)  # a new extractor, built under the patches
    try:
        assert fresh.registered_domain("http://forums.bbc.co.uk/") == "bbc.co.uk"
        assert fresh.public_suffix("www.town.kawasaki.jp") == "town.kawasaki.jp"  # *.kawasaki.jp
        assert fresh.registered_domain("www.city.kawasaki.jp") == "city.kawasaki.jp"  # !city.
        assert not list(tmp_path.iterdir())
    finally:
        monkeypatch.undo()
        importlib.reload(tld)


# --- odd hosts ---------------------------------------------------------------------------------

LABEL = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789-"), min_size=1, max_size=20)
NAMES = st.lists(LABEL, min_size=1, max_size=5).map(".".join)
TLDS = st.sampled_from(sorted(CCTLD_LANGUAGES) + ["com", "org", "example", "cat", "xn--p1ai"])
HOSTS = st.builds(lambda name, top: f"{name}.{top}", NAMES, TLDS)
ALL_CODES = {c for langs in CCTLD_LANGUAGES.values() for c in langs} | {
    c for langs in COMMUNITY_TLD_LANGUAGES.values() for c in langs
}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_an_answer_not_an_exception(text: str) -> None:
    top = tld_of(text)
    assert top == "" or tld._TLD.fullmatch(top)
    domain = registered_domain(text)
    assert domain == "" or host_of(text).endswith(domain)
    assert set(languages_of_host(text)) <= ALL_CODES


@settings(max_examples=200, deadline=None)
@given(HOSTS, st.sampled_from(["", "http://", "https://user@", "//"]), st.booleans(),
       st.sampled_from(["", ":8080", ":80"]), st.sampled_from(["", "/", "/a/b?c=d#e"]))  # fmt: skip
def test_spelling_of_a_host_does_not_matter(host, scheme, dot, port, path) -> None:
    spelled = f"{scheme}{host.upper()}{'.' if dot else ''}{port}{path}"
    assert host_of(spelled) == host
    assert tld_of(spelled) == tld_of(host) == host.rsplit(".", 1)[-1]
    assert registered_domain(spelled) == registered_domain(host)
    assert languages_of_host(spelled) == languages_of_host(host)


@settings(max_examples=100, deadline=None)
@given(HOSTS)
def test_a_cctld_host_gets_its_country_languages(host: str) -> None:
    """The table's languages for a country's TLD, a community TLD's own, none for a generic TLD;
    a ccTLD used generically (.io, .co) gives its country's only below a suffix of the country's
    own (``empresa.com.co``)."""
    top = host.rsplit(".", 1)[-1]
    got = languages_of_host(host)
    if top in GENERIC_USE_CCTLDS:
        assert got in {(), CCTLD_LANGUAGES[top]}
        assert (got == CCTLD_LANGUAGES[top]) == ("." in public_suffix(host))
    elif top in CCTLD_LANGUAGES:
        assert got == CCTLD_LANGUAGES[top]
        assert got or top in {"aq", "hm"}  # only the uninhabited have none
    elif top in COMMUNITY_TLD_LANGUAGES:
        assert got == COMMUNITY_TLD_LANGUAGES[top] != ()
    else:
        assert got == ()


@settings(max_examples=100, deadline=None)
@given(st.ip_addresses(), st.sampled_from(["", "http://"]), st.sampled_from(["", ":8080"]))
def test_ip_addresses_have_no_tld(address, scheme, port) -> None:
    literal = f"[{address}]" if address.version == 6 else str(address)
    spelled = f"{scheme}{literal}{port if scheme or address.version == 4 else ''}"
    assert host_of(spelled) == str(address)
    assert tld_of(spelled) == registered_domain(spelled) == ""
    assert languages_of_host(spelled) == ()


UNICODE_LABEL = st.text(st.characters(categories=["Ll", "Lo"]), min_size=1, max_size=12)


@settings(max_examples=100, deadline=None)
@given(UNICODE_LABEL, st.sampled_from(["de", "jp", "xn--p1ai", "com"]))
def test_idn_hosts_equal_their_punycode(label: str, top: str) -> None:
    host = f"www.{label}.{top}"
    try:
        ascii_host = idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError:
        ascii_host = None  # not a valid IDN: only the answer-not-exception property holds
    assert tld_of(host) == top
    if ascii_host is not None:
        assert host_of(host) == ascii_host
        assert registered_domain(host) == registered_domain(ascii_host)


@pytest.mark.parametrize(
    "odd",
    ["a" * 300 + ".com", ".".join(["a"] * 200) + ".de", "x" * 64 + ".jp", "." * 50, "[::1", "::1"],
)
def test_very_long_or_broken_hosts(odd: str) -> None:
    tld_of(odd), registered_domain(odd), languages_of_host(odd)
