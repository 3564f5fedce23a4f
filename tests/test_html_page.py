"""html_page: one decode and one parse per page; the decode is Scrapy's with a chosen encoding."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
from scrapy.http import HtmlResponse

from bilingual_spider.html_page import (
    MAX_HTML_CHARS,
    ParsedPage,
    as_parsed,
    decode_page,
    parse_html,
)

ENCODINGS = ("utf-8", "windows-1251", "shift_jis", "euc-kr", "latin-1", "gb18030", "zlib", None)


@given(st.binary(max_size=300), st.sampled_from(ENCODINGS))
def test_decoding_with_a_chosen_encoding_is_scrapys_text_with_it(body: bytes, encoding) -> None:
    """With the encoding the charset middleware chose, the text is Scrapy's ``response.text``
    (a byte-order mark still wins); a codec that is no text encoding is no choice."""
    if encoding in (None, "zlib"):
        assert isinstance(decode_page(body, encoding), str)
        return
    response = HtmlResponse("http://a.example/", body=body, encoding=encoding)
    assert decode_page(body, encoding) == response.text


def test_the_chosen_encoding_wins_over_the_pages_declaration() -> None:
    body = '<meta charset="utf-8"><p>Привет, мир</p>'.encode("windows-1251")
    assert "Привет" in decode_page(body, "windows-1251")
    assert "Привет" not in decode_page(body)
    assert "Привет" in etree.tostring(parse_html(body, "windows-1251").root, encoding=str)


def test_comments_declarations_and_nul_are_not_text_and_long_pages_are_cut() -> None:
    page = parse_html('<?xml version="1.0"?><p>a<!-- note -->b\x00c</p>')
    assert page.root is not None and not page.truncated
    assert "".join(page.root.itertext()) == "abc"
    long = parse_html("<p>" + "x" * MAX_HTML_CHARS + "</p>")
    assert long.truncated


def test_empty_and_unreadable_pages_have_no_tree() -> None:
    assert parse_html("") == ParsedPage(None, False)
    assert parse_html(b"  \n") == ParsedPage(None, False)


def test_a_parsed_page_is_not_parsed_again() -> None:
    page = parse_html("<p>x</p>")
    assert as_parsed(page) is page
    assert as_parsed("<p>x</p>") is not page


def test_a_page_declares_its_language_in_lang_or_xml_lang_alone():
    """An XHTML 1.0 page may say ``xml:lang`` alone (the third held-out set's Tai Tham pages,
    read as Japanese where the page said ``kkh``): the HTML parser keeps the attribute's name as
    written."""
    from bilingual_spider.html_page import as_parsed, html_lang

    xhtml = '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="kkh"><body><p>x</p></body></html>'
    assert html_lang(as_parsed(xhtml)) == "kkh"
    assert html_lang(as_parsed('<html lang=" nr "><p>x</p></html>')) == "nr"
    assert html_lang(as_parsed("<p>no root language</p>")) is None
