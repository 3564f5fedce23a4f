"""A response is parsed once, with the encoding the charset middleware chose, and every reader
(link contexts, language, the pair verifier) reads that one tree (issue 34)."""

from __future__ import annotations

import gc

from scrapy import Request
from scrapy.http import HtmlResponse, Response

from bilingual_spider.html_page import EMPTY_PAGE
from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.middlewares.charset import CharsetMiddleware
from bilingual_spider.patterns.verification import page_content
from bilingual_spider.response_page import _parsed, response_page
from tests.crawlers import get_crawler

RUSSIAN = (
    "Настоящее руководство описывает установку и настройку сервера. "
    "Прочитайте его полностью, прежде чем изменять файлы конфигурации, "
    "и сохраните резервную копию каждого файла, который вы меняете."
)
JAPANESE = (
    "このマニュアルはサーバのインストールと設定について説明します。"
    "設定ファイルを変更する前に、すべてを読んでください。"
    "変更するファイルは、必ずバックアップを取っておいてください。"
)


def page(text: str, lang: str) -> str:
    return (
        f"<html lang='{lang}'><head><title>t</title></head><body>"
        f"<p>{text}</p><p><a href='/other/'>{text[:12]}</a></p></body></html>"
    )


def through_charset_middleware(body: bytes, content_type: str) -> Response:
    """A response as the spider sees it: after the charset middleware's choice."""
    request = Request("http://site.example/page.html")
    response = HtmlResponse(
        request.url, body=body, headers={"Content-Type": content_type}, request=request
    )
    middleware = CharsetMiddleware(get_crawler().stats)
    return middleware.process_response(request, response)


def test_the_verifier_reads_a_page_declared_only_in_the_header_as_the_middleware_decoded_it():
    body = page(RUSSIAN, "ru").encode("windows-1251")
    response = through_charset_middleware(body, "text/html; charset=windows-1251")
    content = page_content(response_page(response))
    assert RUSSIAN in content.text
    assert RUSSIAN not in page_content(response.body).text  # the raw bytes alone are no UTF-8


def test_the_verifier_reads_the_middlewares_choice_over_a_wrong_header():
    """A server's default ISO-8859-1 on a Shift_JIS page: the middleware distrusts it; the
    verifier reads Japanese, as language identification does, not the header's mojibake."""
    body = page(JAPANESE, "ja").encode("shift_jis")
    response = through_charset_middleware(body, "text/html; charset=ISO-8859-1")
    assert response.encoding in ("cp932", "shift_jis")
    parsed = response_page(response)
    assert JAPANESE in page_content(parsed).text
    anchors = [c.anchor for c in extract_link_contexts(parsed, response.url)]
    assert anchors == [JAPANESE[:12]]
    assert JAPANESE not in page_content(response.body).text  # what the raw bytes alone give


def test_a_response_is_parsed_once_and_a_replaced_response_again():
    response = through_charset_middleware(page(RUSSIAN, "ru").encode(), "text/html")
    parsed = response_page(response)
    assert response_page(response) is parsed
    other = response.replace(encoding="windows-1251")
    assert response_page(other) is not parsed
    assert "parsed_page" not in response.meta  # nothing that a new request could inherit


def test_the_cached_tree_goes_with_its_response():
    response = HtmlResponse("http://site.example/", body=page(RUSSIAN, "ru").encode())
    assert response.request is None  # made by hand: no meta, cached all the same
    assert response_page(response) is response_page(response)
    before = len(_parsed)
    del response
    gc.collect()
    assert len(_parsed) == before - 1


def test_a_response_that_is_no_text_is_an_empty_page():
    response = Response("http://site.example/a.png", body=b"\x89PNG")
    assert response_page(response) == EMPTY_PAGE


def test_a_page_declares_its_language_more_closely_than_the_link_naming_it():
    """Brazil's ``br.`` site, linked as "Português" (``pt``), declares ``pt-BR``: the page's
    own word, the same language said more closely, marks ``br.`` as Brazil's (not Breton's)."""
    from bilingual_spider.response_page import LINKED_LANGUAGE_META, page_declared_language

    def declared(url: str, lang: str, linked: str) -> str | None:
        request = Request(url, meta={LINKED_LANGUAGE_META: linked})
        response = HtmlResponse(url, body=page("Todos são iguais.", lang).encode(),
                                encoding="utf-8", request=request)  # fmt: skip
        return page_declared_language(response, response_page(response))

    assert declared("http://br.outdoor.example/", "pt-BR", "pt") == "pt-BR"
    assert declared("http://www.outdoor.example/p/", "en", "fr") == "fr"  # a template's "en"
