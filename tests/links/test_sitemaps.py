import gzip

from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.links.sitemaps import (
    INDEX,
    INVALID,
    TEXT,
    URLSET,
    SitemapFile,
    SiteSitemap,
    decompressed,
    default_sitemap_url,
    parse_sitemap,
    sitemaps_from_robots,
)

URLSET_XML = b"""<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>http://x.org/en/about</loc>
    <xhtml:link rel="alternate" hreflang="en" href="http://x.org/en/about"/>
    <xhtml:link rel="alternate" hreflang="fr-ca" href="http://x.org/fr/a-propos"/>
    <xhtml:link rel="alternate" hreflang="x-default" href="http://x.org/"/>
  </url>
  <url><loc>http://x.org/fr/a-propos</loc>
    <xhtml:link rel="alternate" hreflang="en" href="http://x.org/en/about"/>
    <xhtml:link rel="alternate" hreflang="fr-CA" href="/fr/a-propos"/>
  </url>
  <url><loc>/en/news</loc><lastmod>2024-01-01</lastmod></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>"""

INDEX_XML = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://x.org/sitemap-1.xml.gz</loc></sitemap>
<sitemap><loc>sitemap-2.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
<sitemap><loc>http://x.org/sitemap-1.xml.gz</loc></sitemap>
</sitemapindex>"""


def test_robots_sitemap_lines_any_case_relative_once():
    robots = (
        "User-agent: *\nDisallow: /private/\nSitemap: http://x.org/s.xml\n"
        "sitemap:/s2.xml.gz # the archive\nSITEMAP: http://x.org/s.xml\nSitemap: ftp://x.org/a\n"
    )
    assert sitemaps_from_robots(robots, "http://x.org/robots.txt") == [
        "http://x.org/s.xml",
        "http://x.org/s2.xml.gz",
    ]
    assert sitemaps_from_robots("User-agent: *\nDisallow:\n", "http://x.org/robots.txt") == []


def test_default_sitemap_url():
    assert default_sitemap_url("https://x.org:8080/en/a?b=1") == "https://x.org:8080/sitemap.xml"


def test_urlset_pages_and_hreflang_alternates():
    read = parse_sitemap(URLSET_XML, "http://x.org/sitemap.xml")
    assert read.kind == URLSET and read.error == ""
    assert read.pages == (
        "http://x.org/en/about",
        "http://x.org/fr/a-propos",
        "http://x.org/en/news",
    )
    assert dict(read.alternates)["http://x.org/en/about"] == (
        ("en", "http://x.org/en/about"),
        ("fr", "http://x.org/fr/a-propos"),  # normalized; x-default left out
    )
    assert dict(read.alternates)["http://x.org/fr/a-propos"][1] == (
        "fr",
        "http://x.org/fr/a-propos",
    )


def test_index_gzip_and_plain_alike():
    for body in (INDEX_XML, gzip.compress(INDEX_XML)):
        read = parse_sitemap(body, "http://x.org/sitemaps/index.xml")
        assert read.kind == INDEX
        assert read.sitemaps == (
            "http://x.org/sitemap-1.xml.gz",
            "http://x.org/sitemaps/sitemap-2.xml",
        )
        assert read.pages == ()


def test_text_sitemap():
    read = parse_sitemap(b"http://x.org/a\n\nhttp://x.org/b\nnot a url\n", "http://x.org/s.txt")
    assert read.kind == TEXT
    assert read.pages == ("http://x.org/a", "http://x.org/b")  # a line with spaces: no URL


def test_malformed_xml_is_read_as_far_as_it_goes():
    cut = URLSET_XML[: URLSET_XML.index(b"<url><loc>/en/news")] + b"<url><loc>http://x.org/z"
    read = parse_sitemap(cut, "http://x.org/sitemap.xml")
    assert read.kind == URLSET
    assert "http://x.org/en/about" in read.pages


def test_not_a_sitemap_is_invalid_never_an_exception():
    html = b"<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>"
    assert parse_sitemap(html, "http://x.org/sitemap.xml").kind == INVALID
    assert parse_sitemap(b"\x1f\x8b garbage", "http://x.org/s.xml.gz").error == "bad_gzip"
    assert parse_sitemap(b"", "http://x.org/s.xml").kind == INVALID
    entity_bomb = (
        b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><urlset><url><loc>http://x.org/&b;</loc>'
        b"</url></urlset>"
    )
    read = parse_sitemap(entity_bomb, "http://x.org/s.xml")
    assert all("aaaaaaaaaa" not in page for page in read.pages)  # entities not expanded


def test_size_and_count_bounds():
    entries = b"".join(b"<url><loc>http://x.org/%d</loc></url>" % i for i in range(100))
    body = b"<urlset>" + entries + b"</urlset>"
    assert len(parse_sitemap(body, "http://x.org/s.xml", max_urls=10).pages) == 10
    cut = parse_sitemap(gzip.compress(body), "http://x.org/s.xml", max_bytes=500)
    assert cut.error == "too_large" and 0 < len(cut.pages) < 100
    assert decompressed(gzip.compress(b"a" * 10_000), max_bytes=100) == (b"a" * 100, "too_large")


def test_site_sitemap_merges_files_and_answers_alternates():
    site = SiteSitemap()
    site.add(parse_sitemap(URLSET_XML, "http://x.org/sitemap.xml"))
    site.add(
        SitemapFile(
            "http://x.org/s2.xml",
            URLSET,
            ("http://x.org/en/b",),
            (("http://x.org/en/b", (("de", "http://x.org/de/b"),)),),
        )
    )
    assert site.alternates_of("http://x.org/fr/a-propos") == (("en", "http://x.org/en/about"),)
    assert (
        site.alternates_of("http://x.org/de/b") == ()
    )  # named for de; the en page's language unsaid
    assert site.alternates_of("http://x.org/en/b") == (("de", "http://x.org/de/b"),)
    assert site.pairs() == {
        ("http://x.org/en/about", "http://x.org/fr/a-propos"),
        ("http://x.org/de/b", "http://x.org/en/b"),
    }
    assert site.paired_pages() == [
        "http://x.org/en/about",
        "http://x.org/fr/a-propos",
        "http://x.org/en/b",
        "http://x.org/de/b",
    ]
    assert "http://x.org/en/news" in site.pages


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4096))
def test_any_bytes_give_a_file_never_an_exception(body):
    for candidate in (body, gzip.compress(body), b"<urlset>" + body, b"<sitemapindex>" + body):
        read = parse_sitemap(candidate, "http://x.org/sitemap.xml", max_bytes=2048, max_urls=50)
        assert read.kind in (URLSET, INDEX, TEXT, INVALID)
        assert len(read.pages) <= 50 and len(read.sitemaps) <= 50
        assert all(url.startswith(("http://", "https://")) for url in read.pages + read.sitemaps)
        SiteSitemap().add(read)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000))
def test_any_robots_text(text):
    for url in sitemaps_from_robots(text, "http://x.org/robots.txt"):
        assert url.startswith(("http://", "https://"))


def test_paired_pages_for_given_languages_leave_the_other_languages_pages_out():
    """An en-tr crawl asks first for each group's en and tr pages only, and for no group with
    one of them (an 11-language manual's sitemap named mostly fr, ja, ko... pages)."""
    group = (
        ("de", "http://x.org/de/a"),
        ("en", "http://x.org/en/a"),
        ("tr", "http://x.org/tr/a"),
    )
    site = SiteSitemap()
    site.add(
        SitemapFile(
            "http://x.org/s.xml",
            URLSET,
            ("http://x.org/en/a", "http://x.org/en/b", "http://x.org/tr/c"),
            (
                ("http://x.org/en/a", group),
                ("http://x.org/en/b", (("de", "http://x.org/de/b"),)),  # no tr: not asked
                ("http://x.org/tr/c", (("en", "http://x.org/en/c"),)),  # its own language unsaid
            ),
        )
    )
    assert site.paired_pages(("en", "tr")) == [
        "http://x.org/en/a",
        "http://x.org/tr/a",
        "http://x.org/tr/c",
        "http://x.org/en/c",
    ]
    assert "http://x.org/de/a" in site.paired_pages()  # any languages: every member
    assert site.paired_pages(("en", "tr-TR")) == site.paired_pages(("en", "tr"))
