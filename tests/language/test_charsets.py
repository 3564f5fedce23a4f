"""Which declared charsets are text encodings, and decoding page bytes with them (issue 32)."""

from __future__ import annotations

import codecs

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.html_page import parse_html
from bilingual_spider.language.charsets import decode_html, is_text_encoding, text_encoding
from bilingual_spider.links.contexts import extract_link_contexts

NOT_TEXT = ("zlib", "hex", "base64", "rot13", "bz2", "uu", "quopri", "idna", "punycode")
NOT_TEXT += ("undefined", "unicode_escape", "raw_unicode_escape")


@pytest.mark.parametrize("name", NOT_TEXT)
def test_codecs_that_are_no_text_encoding_are_refused(name: str) -> None:
    codecs.lookup(name)  # Python knows them all
    assert not is_text_encoding(name)
    assert text_encoding(name) is None


@pytest.mark.parametrize("name", ["utf-8", "latin-1", "cp1252", "euc-kr", "shift_jis", "utf-16"])
def test_text_encodings_are_accepted(name: str) -> None:
    assert text_encoding(name) == name


@pytest.mark.parametrize("name", ["", "nonsense", "utf\x008", "x" * 300])
def test_unknown_names_are_no_text_encoding(name: str) -> None:
    assert not is_text_encoding(name)


@pytest.mark.parametrize("name", NOT_TEXT)
def test_pages_naming_them_are_parsed_with_their_links(name: str) -> None:
    for head in (f'<meta charset="{name}">', f'<?xml version="1.0" encoding="{name}"?>'):
        body = f'{head}<p>café</p><a href="/fr/">français</a>'.encode()
        assert "café" in decode_html(body)
        assert "café" in decode_html(body[len(head) :], f"text/html; charset={name}")
        links = extract_link_contexts(parse_html(body), "http://a.example/")
        assert [(link.url, link.anchor) for link in links] == [("http://a.example/fr/", "français")]
        assert parse_html(body).root is not None


def test_a_text_declaration_still_decides() -> None:
    body = '<meta charset="euc-kr"><p>아파치</p>'.encode("euc_kr")
    assert "아파치" in decode_html(body)
    assert "아파치" in decode_html("<p>아파치</p>".encode("euc_kr"), "text/html; charset=EUC-KR")


@given(st.text(max_size=40), st.binary(max_size=200))
def test_any_declared_name_decodes_any_bytes(name: str, body: bytes) -> None:
    page = b'<meta charset="' + name.encode("utf-8", "replace") + b'">' + body
    assert isinstance(decode_html(page, f"text/html; charset={name}"), str)
