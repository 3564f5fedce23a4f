"""CharsetMiddleware: HTML pages in legacy charsets decode to their original text whether the
charset is declared in the header, only in ``<meta>``, nowhere, or wrongly.

Pages are real: the Apache httpd manual's Korean pages (EUC-KR, from the real-sites cache), and
pages written from the human translations of the gettext catalogs under /usr/share/locale, encoded
into each charset. Every check compares the decoded text with the original Unicode text.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from parsel import Selector
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from w3lib.encoding import resolve_encoding

from bilingual_spider.middlewares.charset import (
    CharsetMiddleware,
    choose_encoding,
    detect_encoding,
    error_share,
    page_language,
)
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, python_command
from bilingual_spider.sandbox.textsource import catalog_messages
from tests.conftest import missing
from tests.crawlers import get_crawler
from tests.middlewares.text_spider import page_text
from tests.waiting import CRAWL_SECONDS

LOCALES = Path("/usr/share/locale")
CATALOGS = ("coreutils", "apt", "dpkg", "tar")


@dataclass(frozen=True)
class Charset:
    name: str
    language: str
    locale: str
    codec: str
    """The Python codec that writes the bytes."""
    label: str
    """What a page declares (windows-1252 pages are labelled ISO-8859-1, as they are on the web)."""
    wrong: str
    """A label that is wrong for these bytes, as servers send it."""

    @property
    def slug(self) -> str:
        return self.name.lower().replace("_", "-")


CHARSETS = [
    Charset("EUC-KR", "ko", "ko", "euc_kr", "EUC-KR", "ISO-8859-1"),
    Charset("Big5", "zh-Hant", "zh_TW", "big5", "Big5", "ISO-8859-1"),
    Charset("GBK", "zh-Hans", "zh_CN", "gbk", "GBK", "ISO-8859-1"),
    Charset("GB18030", "zh-Hans", "zh_CN", "gb18030", "GB18030", "utf-8"),
    Charset("Shift_JIS", "ja", "ja", "shift_jis", "Shift_JIS", "ISO-8859-1"),
    Charset("EUC-JP", "ja", "ja", "euc_jp", "EUC-JP", "utf-8"),
    Charset("ISO-8859-1", "fr", "fr", "latin_1", "ISO-8859-1", "utf-8"),
    Charset("windows-1252", "de", "de", "cp1252", "ISO-8859-1", "utf-8"),
]
CASES = ("header", "meta", "none", "wrong")
CP1252_MARKS = "“Preis: 5 €” – ‚so‘ …"  # bytes 0x80-0x9F: in windows-1252, not in latin-1
PAGE = """<!DOCTYPE html>
<html{lang}><head>{meta}<title>{title}</title>
<link rel="stylesheet" href="/style/site.css"></head>
<body><div id="nav"><a href="/">Home</a> | <a href="/docs/">Docs</a></div>
<h1>{title}</h1>
{paragraphs}
<div id="footer">Copyright 2024 Example. <a href="/license.html">License</a></div>
</body></html>"""


@cache
def sentences(charset: Charset) -> tuple[str, ...]:
    """Translations from a few gettext catalogs that the charset writes and its label reads back
    (Python's euc_kr writes syllables outside KS X 1001 as jamo sequences no browser composes)."""
    found = []
    reader = resolve_encoding(charset.label) or charset.codec
    for catalog in CATALOGS:
        path = LOCALES / charset.locale / "LC_MESSAGES" / f"{catalog}.mo"
        for _, translation in catalog_messages(path, charset.language) if path.exists() else ():
            try:
                if translation.encode(charset.codec).decode(reader) == translation:
                    found.append(translation)
            except UnicodeError:
                continue
    if len(found) < 50:
        missing(f"too few {charset.locale} gettext translations under {LOCALES}: {len(found)}")
    return tuple(found)


def make_page(
    charset: Charset, seed: int, size: int = 3, meta: bool = False, lang: bool = True
) -> str:
    """A page of ``size`` real sentences (the first is the title) in the charset's language."""
    texts = random.Random(f"{charset.name}-{seed}").sample(sentences(charset), size)
    if charset.codec == "cp1252":
        texts[0] = f"{CP1252_MARKS} {texts[0]}"
    declaration = f'<meta http-equiv="Content-Type" content="text/html; charset={charset.label}">'
    return PAGE.format(
        lang=f' lang="{charset.language}"' if lang else "",
        meta=declaration if meta else "",
        title=texts[0],
        paragraphs="\n".join(f"<p>{t}</p>" for t in texts[1:]),
    )


def served(charset: Charset, case: str, page: str) -> tuple[str, bytes]:
    """(Content-Type, body) of a page as a server sends it in one of the cases."""
    body = page.encode(charset.codec)
    header = {"header": charset.label, "wrong": charset.wrong}.get(case)
    return ("text/html; charset=" + header if header else "text/html"), body


def html_response(body: bytes, content_type: str, url: str = "http://example.org/") -> HtmlResponse:
    return HtmlResponse(url, headers={"Content-Type": content_type}, body=body)


@pytest.fixture
def crawler():
    return get_crawler(settings_dict={"BILINGUAL_CHARSET_MAX_ERROR_SHARE": 0.2})


@pytest.fixture
def middleware(crawler) -> CharsetMiddleware:
    return CharsetMiddleware.from_crawler(crawler)


def through(middleware: CharsetMiddleware, response: Response) -> Response:
    return middleware.process_response(Request(response.url), response)


# --- generated pages: every charset, every case ---------------------------------------------


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("charset", CHARSETS, ids=lambda c: c.name)
def test_generated_pages_decode_to_their_text(middleware, charset: Charset, case: str) -> None:
    for seed in range(5):
        page = make_page(charset, seed, meta=case == "meta")
        content_type, body = served(charset, case, page)
        response = through(middleware, html_response(body, content_type))
        assert response.text == page, (charset.name, case, seed, response.encoding)
        if case == "wrong":  # what Scrapy alone makes of it: the test can see a wrong decoding
            assert html_response(body, content_type).text != page


@pytest.mark.parametrize("charset", CHARSETS, ids=lambda c: c.name)
def test_undeclared_pages_without_a_language_decode(middleware, charset: Charset) -> None:
    for seed in range(5):
        page = make_page(charset, seed, size=8, lang=False)
        response = through(middleware, html_response(page.encode(charset.codec), "text/html"))
        assert response.text == page, (charset.name, seed, response.encoding)


def test_declared_charsets_that_decode_are_left_to_scrapy(middleware, crawler) -> None:
    for charset in CHARSETS:
        for case in ("header", "meta"):
            page = make_page(charset, 0, meta=case == "meta")
            response = html_response(*reversed(served(charset, case, page)))
            assert through(middleware, response) is response
    assert crawler.stats.get_stats() == {}


def test_stats_count_detections_and_overrides(middleware, crawler) -> None:
    korean = CHARSETS[0]
    page = make_page(korean, 1)
    through(middleware, html_response(page.encode("euc_kr"), "text/html"))
    through(middleware, html_response(page.encode("euc_kr"), "text/html; charset=iso-8859-1"))
    through(middleware, html_response(page.encode("euc_kr"), "text/html; charset=utf-8"))
    stats = crawler.stats.get_stats()
    assert stats["charset/detected"] == 1
    assert stats["charset/detected/cp949"] == 1
    assert stats["charset/overridden"] == 2
    assert stats["charset/overridden/cp949"] == 2


def test_utf8_labelled_latin1_is_read_as_utf8(middleware) -> None:
    page = make_page(CHARSETS[6], 2)  # French
    response = html_response(page.encode("utf-8"), "text/html; charset=ISO-8859-1")
    assert through(middleware, response).text == page


def test_header_and_meta_disagree_the_one_that_decodes_wins(middleware) -> None:
    korean = CHARSETS[0]
    page = make_page(korean, 3, meta=True)  # <meta ... charset=EUC-KR>
    body = page.encode("euc_kr")
    for header in ("utf-8", "ISO-8859-1"):
        response = through(middleware, html_response(body, f"text/html; charset={header}"))
        assert response.text == page, header


def test_a_stray_bad_byte_does_not_unseat_utf8(middleware) -> None:
    page = make_page(CHARSETS[6], 4, size=10).encode("utf-8")
    body = page.replace(b"</h1>", b"\xff</h1>")
    assert 0 < error_share(body, "utf-8") <= 0.2
    response = html_response(body, "text/html; charset=utf-8")
    assert through(middleware, response) is response


def test_what_is_not_html_passes_untouched(middleware) -> None:
    body = "아파치 문서".encode("euc_kr")
    plain = TextResponse(
        "http://example.org/a.txt", headers={"Content-Type": "text/plain"}, body=body
    )
    binary = Response("http://example.org/a.bin", body=body)
    assert through(middleware, plain) is plain
    assert through(middleware, binary) is binary


def test_byte_order_mark_and_ascii_are_left_to_scrapy() -> None:
    assert choose_encoding("\ufeff<p>été</p>".encode("utf-8-sig"), "text/html") is None
    assert choose_encoding(b"<html><body>plain</body></html>", "text/html") is None


def test_can_be_switched_off() -> None:
    with pytest.raises(NotConfigured):
        CharsetMiddleware.from_crawler(
            get_crawler(settings_dict={"BILINGUAL_CHARSET_ENABLED": False})
        )


def test_page_language_and_the_kana_check() -> None:
    assert page_language(b'<!DOCTYPE html><html xml:lang="zh-TW" lang="zh-TW">') == "zh-Hant"
    assert page_language(b"<html><body>") is None
    japanese = make_page(CHARSETS[5], 0, size=2, lang=False)  # EUC-JP, short: uchardet says Big5
    assert detect_encoding(japanese.encode("euc_jp")) == "euc_jp"


# --- declarations that name no text encoding (issue 32) --------------------------------------

NOT_TEXT = ("zlib", "hex", "base64", "rot13", "bz2", "uu", "idna", "punycode", "undefined")
DECLARED_IN = {
    "meta": lambda name, page: (f'<meta charset="{name}">{page}', "text/html"),
    "xml": lambda name, page: (f'<?xml version="1.0" encoding="{name}"?>{page}', "text/html"),
    "header": lambda name, page: (page, f"text/html; charset={name}"),
}


@pytest.mark.parametrize("where", DECLARED_IN)
@pytest.mark.parametrize("name", NOT_TEXT)
@pytest.mark.parametrize("text", ["café à la carte", "plain ascii"])
def test_a_charset_that_is_no_text_encoding_is_read_as_undeclared(
    middleware, crawler, name: str, where: str, text: str
) -> None:
    page = f'<html><body><p>{text}</p><a href="/fr/">fr</a></body></html>'
    markup, content_type = DECLARED_IN[where](name, page)
    response = html_response(markup.encode("utf-8"), content_type)
    decoded = through(middleware, response)
    assert text in decoded.text
    assert Selector(text=decoded.text).css("a::attr(href)").get() == "/fr/"
    assert crawler.stats.get_value("charset/not_text_declared") == 1


def test_a_good_declaration_beside_a_bad_one_is_kept(middleware) -> None:
    body = '<meta charset="euc-kr"><p>아파치 문서</p>'.encode("euc_kr")
    response = html_response(body, "text/html; charset=zlib")
    assert through(middleware, response).text.endswith("<p>아파치 문서</p>")


@pytest.mark.parametrize("name", NOT_TEXT)
def test_json_and_xml_answers_naming_no_text_encoding_are_read_as_utf8(middleware, name) -> None:
    json_answer = TextResponse(
        "http://api.example/q",
        headers={"Content-Type": f"application/json; charset={name}"},
        body='{"q": "café"}'.encode(),
    )
    xml = XmlResponse(
        "http://example.org/sitemap.xml",
        body=f'<?xml version="1.0" encoding="{name}"?><urlset>é</urlset>'.encode(),
    )
    assert through(middleware, json_answer).json() == {"q": "café"}
    assert "<urlset>é</urlset>" in through(middleware, xml).text


# --- properties ------------------------------------------------------------------------------

CONTENT_TYPES = ["text/html"] + [
    f"text/html; charset={label}"
    for label in ("utf-8", "iso-8859-1", "EUC-KR", "shift_jis", "nonsense")
]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600), st.sampled_from(CONTENT_TYPES))
def test_any_choice_decodes_the_body_without_error(body: bytes, content_type: str) -> None:
    choice = choose_encoding(b"<html><body>" + body, content_type)
    if choice is not None:
        assert error_share(b"<html><body>" + body, choice.encoding) == 0


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_valid_utf8_declared_as_such_is_never_touched(text: str) -> None:
    assert choose_encoding(f"<p>{text}</p>".encode(), "text/html; charset=utf-8") is None


HANGUL = st.characters(min_codepoint=0xAC00, max_codepoint=0xD7A3)


@settings(max_examples=100, deadline=None)
@given(st.text(HANGUL | st.sampled_from(" .,abc123"), max_size=200))
def test_a_correct_cjk_declaration_is_never_second_guessed(text: str) -> None:
    page = f"<html><body><p>{text}</p></body></html>"
    body = page.encode("cp949")  # what browsers (and w3lib) read EUC-KR as: every syllable
    response = html_response(body, "text/html; charset=EUC-KR")
    assert choose_encoding(body, "text/html; charset=EUC-KR") is None
    assert response.text == page


# --- the Apache manual's Korean pages (EUC-KR) -----------------------------------------------

APACHE_KO = "usr/share/doc/apache2-doc/manual/ko"
_META_CHARSET = re.compile(rb"<meta[^>]+charset[^>]*>", re.IGNORECASE)


@pytest.fixture(scope="module")
def apache_korean() -> dict[str, bytes]:
    """The manual's Korean pages that declare EUC-KR: relative path -> bytes."""
    from bilingual_spider.sandbox import debian_packages, realsites

    try:
        realsites.prepare()
    except (debian_packages.AptUnavailable, debian_packages.FetchError) as exc:
        missing(f"the real sites (Apache manual) are unavailable: {exc}")
    root = realsites.resolve_cache_dir() / "root" / APACHE_KO
    pages = {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*.html"))
        if not path.is_symlink() and b"charset=EUC-KR" in path.read_bytes()[:400]
    }
    if len(pages) < 20:
        missing(f"expected the Apache manual's EUC-KR pages under {root}, found {len(pages)}")
    return pages


@pytest.mark.parametrize(
    ("content_type", "strip_meta"),
    [
        ("text/html; charset=EUC-KR", True),  # header only
        ("text/html", False),  # meta only
        ("text/html", True),  # none
        ("text/html; charset=ISO-8859-1", True),  # wrong (a server's default), nothing else
        ("text/html; charset=ISO-8859-1", False),  # wrong header, right meta
        ("text/html; charset=utf-8", False),
    ],
)
def test_apache_korean_pages_decode(middleware, apache_korean, content_type, strip_meta) -> None:
    for name, raw in apache_korean.items():
        body = _META_CHARSET.sub(b"", raw) if strip_meta else raw
        response = through(middleware, html_response(body, content_type))
        assert response.text == body.decode("cp949"), (name, response.encoding)


# --- a crawl through the sandbox server --------------------------------------------------------


def write_charset_web(root: Path, apache: Path) -> tuple[Path, dict[str, dict[str, str]]]:
    """A host per charset and case, serving one generated page, and three hosts serving the
    Apache manual's Korean pages (meta as written, meta stripped, meta stripped with a wrong
    header); returns the sandbox config and the expected title and text by URL."""
    mounts, faults, expected = [], [], {}
    for charset in CHARSETS:
        for case in CASES:
            host = f"{case}.{charset.slug}.charset.example"
            page = make_page(charset, 10 + CASES.index(case), meta=case != "header")
            directory = root / host
            directory.mkdir(parents=True)
            (directory / "index.html").write_bytes(page.encode(charset.codec))
            mounts.append((host, directory))
            header = {"header": charset.label, "wrong": charset.wrong}.get(case)
            faults.append((host, header, case in ("none", "wrong")))
            expected[f"http://{host}/"] = page_text(Selector(text=page))
    for host, header, strip in (
        ("meta.ko.apache.example", None, False),
        ("none.ko.apache.example", None, True),
        ("latin.ko.apache.example", "iso-8859-1", True),
    ):
        mounts.append((host, apache))
        faults.append((host, header, strip))
        for name in ("bind.html", "install.html", "programs/htpasswd.html"):
            text = (apache / name).read_bytes().decode("cp949")
            expected[f"http://{host}/{name}"] = page_text(Selector(text=text))
    config = root / "sandbox.toml"
    lines = []
    for host, directory in mounts:
        lines += ["[[mount]]", f'host = "{host}"', f'dirs = ["{directory}"]']
    for host, header, strip in faults:
        lines += [f'[hosts."{host}"]', f"strip_meta_charset = {str(strip).lower()}"]
        lines += [f'charset_header = "{header}"'] if header else []
    config.write_text("\n".join(lines) + "\n")
    return config, expected


@pytest.fixture(scope="module")
def charset_web(apache_korean, tmp_path_factory) -> Iterator[tuple[SandboxServer, dict]]:
    from bilingual_spider.sandbox import realsites

    apache = realsites.resolve_cache_dir() / "root" / APACHE_KO
    config, expected = write_charset_web(tmp_path_factory.mktemp("charsetweb"), apache)
    with SandboxServer(["--config", str(config)]) as server:
        yield server, expected


def crawl_texts(server: SandboxServer, urls: list[str], tmp_path: Path) -> tuple[dict, dict]:
    import subprocess

    output, stats_file = tmp_path / "pages.jsonl", tmp_path / "stats.json"
    spider = Path(__file__).with_name("text_spider.py")
    settings = {
        "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
        "BILINGUAL_STATS_FILE": stats_file,
        "DOWNLOAD_DELAY": 0,
        "ROBOTSTXT_OBEY": False,
        "LOG_LEVEL": "INFO",
    }
    command = [*python_command(), "-m", "scrapy", "runspider", str(spider), "-O", str(output)]
    command += [arg for k, v in settings.items() for arg in ("-s", f"{k}={v}")]
    command += ["-a", "urls=" + ",".join(urls)]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=CRAWL_SECONDS, env=crawl_env(), check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    records = [json.loads(line) for line in output.read_text().splitlines() if line]
    return {r["url"]: r for r in records}, json.loads(stats_file.read_text())


def test_crawl_through_the_sandbox_decodes_every_page(charset_web, tmp_path: Path) -> None:
    server, expected = charset_web
    pages, stats = crawl_texts(server, sorted(expected), tmp_path)
    assert set(pages) == set(expected)
    wrong = {
        url: pages[url]["encoding"]
        for url, want in expected.items()
        if {k: pages[url][k] for k in want} != want
    }
    assert not wrong, f"decoded wrongly: {wrong}"
    # no declaration: the 8 "none" hosts and the Apache pages with the meta stripped;
    # contradicted: the 8 "wrong" hosts and the Apache pages with a latin-1 header only
    assert stats["charset/detected"] == len(CHARSETS) + 3
    assert stats["charset/overridden"] == len(CHARSETS) + 3


def test_the_sandbox_serves_the_faults_the_crawl_relies_on(charset_web) -> None:
    server, _ = charset_web
    _, headers, body = server.get("http://latin.ko.apache.example/bind.html")
    assert headers["Content-Type"] == "text/html; charset=iso-8859-1"
    assert b"charset=EUC-KR" not in body
    _, headers, body = server.get("http://meta.ko.apache.example/bind.html")
    assert headers["Content-Type"] == "text/html"
    assert b"charset=EUC-KR" in body
