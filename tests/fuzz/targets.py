"""The functions that read untrusted input, each with what it must do on any input (its
contract), a hypothesis strategy of inputs (for the test suite, which shrinks a failure to a
small example) and a plain random generator of the same kind of inputs (for
``benchmarks/fuzz.py``, which runs 100,000 of them per function at hypothesis-free speed).

A **crash** is any exception a target raises: the function raised what its contract does not
allow (an exception other than the one it documents), or returned what it must not (an
AssertionError of the target). Inputs are built from real shapes (pages, URLs, answers of each
search service) and broken on purpose: odd charsets, brackets left open, lone surrogates,
truncation, deep nesting, huge numbers, bytes that are no UTF-8.
"""

from __future__ import annotations

import contextlib
import json
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

# --- pieces inputs are made of ----------------------------------------------------------------

CHARSETS = [
    "utf-8", "latin-1", "windows-1252", "euc-kr", "shift_jis", "gb2312", "big5", "utf-16",
    "utf-32", "koi8-r", "iso-2022-jp", "zlib", "hex", "base64", "rot13", "bz2", "uu", "quopri",
    "idna", "punycode", "undefined", "unicode_escape", "raw_unicode_escape", "utf-7", "mbcs",
    "x-user-defined", "", "nonsense", "utf\x008", "8859-1", "cp65001", "UTF-8\u200b", "ascii",
]  # fmt: skip
CONTENT_TYPES = ["", "text/html", "application/json", "text/plain", "application/xhtml+xml"]
HOSTS = [
    "www.example.com", "en.example.org", "a.example", "[::1]", "[::1", "::1]", "127.0.0.1",
    "2130706433", "127.1", "0x7f.1", "0177.0.0.1", "[2002:7f00:1::]", "xn--bcher-kva.example",
    "bücher.example", "１２７.０.０.１", "user:pass@host.example", "host.example:99999",
    "host.example:-1", "host.example:x", "", "%00", "a..b", ".", "localhost", "example.0x1",
    "[fe80::1%25eth0]", "[v1.x]", "a" * 300 + ".com", "gov.hk", "x.gov.hk",
]  # fmt: skip
PATHS = [
    "/", "/en/", "/fr/page.html", "/index.html.fr", "/a_en.htm", "/page.zh-cn.html", "", "//x",
    "/%ff%fe", "/\udcff", "/[", "/]", "/a?lang=en", "/?", "/#frag", "/a b", "/\x00", "/..",
    "/" + "x/" * 60, "/𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "?q=1&lang=fr&&", "/.%2e/", "/en/../fr/",
]  # fmt: skip
SCHEMES = ["http://", "https://", "HTTP://", "ftp://", "", "//", "http:", "javascript:", "h://"]
TOKENS = [
    "<", ">", "</a>", "<a href='", "<meta charset=", "<?xml encoding=", "\x00", "\udcff",
    "\ud800", "\ufffd", "[", "]", "%", "%%", "\\", "&#0;", "&#x110000;", "&amp", "\r", "\t",
    "é", "中文", "한국어", "ﷺ", "\u202e", "0x7f", "..", ",", "#", "://", "{", "}", "\"", "'",
    "~", "~0/", "./", "/", ".txt",
]  # fmt: skip


def _random_text(rng: random.Random, pieces: list[str], max_pieces: int = 8) -> str:
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, max_pieces)))


def _mutate_bytes(rng: random.Random, data: bytes, max_edits: int = 6) -> bytes:
    """``data`` with a few random edits: a byte changed, bytes inserted or cut, a cut end."""
    buffer = bytearray(data)
    for _ in range(rng.randint(0, max_edits)):
        edit = rng.random()
        at = rng.randint(0, len(buffer))
        if edit < 0.3 and buffer:
            buffer[min(at, len(buffer) - 1)] = rng.randrange(256)
        elif edit < 0.6:
            token = rng.choice(TOKENS).encode("utf-8", "surrogatepass")
            buffer[at:at] = token if rng.random() < 0.8 else bytes([rng.randrange(256)])
        elif edit < 0.8:
            del buffer[at : at + rng.randint(1, 16)]
        else:
            del buffer[at:]  # truncated
    return bytes(buffer)


def _mutate_text(rng: random.Random, text: str, max_edits: int = 4) -> str:
    for _ in range(rng.randint(0, max_edits)):
        at = rng.randint(0, len(text))
        if rng.random() < 0.6:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        else:
            text = text[:at] + text[at + rng.randint(1, 8) :]
    return text


def random_url(rng: random.Random) -> str:
    url = rng.choice(SCHEMES) + rng.choice(HOSTS) + rng.choice(PATHS)
    return _mutate_text(rng, url) if rng.random() < 0.5 else url


def random_page(rng: random.Random) -> bytes:
    """An HTML page declaring some charset in its head, in some encoding, then broken."""
    charset = rng.choice(CHARSETS)
    declaration = rng.choice(
        [
            f'<meta charset="{charset}">',
            f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">',
            f'<?xml version="1.0" encoding="{charset}"?>',
            "",
        ]
    )
    links = "".join(
        f'<a href="{random_url(rng)}" hreflang="{rng.choice(["en", "fr", "zz", ""])}">'
        f"{rng.choice(['English', 'Français', '中文', '', '<img alt=fr src=fr.png>'])}</a> "
        for _ in range(rng.randint(0, 5))
    )
    text = rng.choice(["Hello world, a page.", "Bonjour le monde.", "아파치 문서", "", "中文页面"])
    html = (
        f'{declaration}<html lang="{rng.choice(["en", "ko", "zh-TW", "ja", "", "x"])}"><head>'
        f"<base href='{random_url(rng)}'></head><body><p>{text}</p>{links}"
        "<select><option value='/fr/'>FR</option></select></body></html>"
    )
    encoding = rng.choice(["utf-8", "latin-1", "euc-kr", "utf-16", "gb18030", "cp1252"])
    body = html.encode(encoding, "replace") if rng.random() < 0.9 else rng.randbytes(200)
    return _mutate_bytes(rng, body)


def random_content_type(rng: random.Random) -> str:
    base = rng.choice(CONTENT_TYPES)
    if rng.random() < 0.6:
        base += f"; charset={rng.choice(CHARSETS)}"
    return _mutate_text(rng, base, 2) if rng.random() < 0.2 else base


# answers as the services send them, to be broken
ANSWERS: dict[str, Any] = {
    "brave": {
        "type": "search",
        "query": {"more_results_available": True},
        "web": {"results": [{"url": "http://a.es/", "title": "A <strong>b</strong>"}]},
    },
    "google": {
        "items": [{"link": "http://a.es/", "title": "A", "snippet": "s &amp; t"}],
        "queries": {"nextPage": [{"startIndex": 11}]},
        "searchInformation": {"totalResults": "42"},
    },
    "moz": {
        "next_token": "abc",
        "results": [
            {"source": {"page": "a.org/links", "title": "L"}, "target": {"page": "b.com/"}},
        ],
    },
    "cdx_pages": {"pages": 3},
    "collinfo": [{"id": "CC-MAIN-2024-10", "name": "March 2024"}],
}
CDX_LINE = b'{"url": "http://a.es/", "status": "200", "languages": "spa,eng", "mime": "text/html"}'


def _break_json(rng: random.Random, value: Any) -> Any:
    """``value`` with a random part replaced by another JSON value of any type."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        return {**value, key: _break_json(rng, value[key])}
    if isinstance(value, list) and value and rng.random() < 0.7:
        at = rng.randrange(len(value))
        return [*value[:at], _break_json(rng, value[at]), *value[at + 1 :]]
    return rng.choice(
        [None, True, 0, -1, 10**30, 1.5e308, "", "x", [], {}, [None], {"url": 1}, "\udcff"]
    )


def random_answer(rng: random.Random, service: str) -> bytes:
    """An answer of ``service``: valid, broken as JSON, HTML instead, truncated, deeply
    nested, a number of 5,000 digits, or huge."""
    kind = rng.random()
    if service == "cdx_lines":
        lines = [CDX_LINE] * rng.randint(0, 4)
        body = b"\n".join(lines)
    else:
        value = ANSWERS[service] if kind < 0.3 else _break_json(rng, ANSWERS[service])
        body = json.dumps(value).encode("utf-8", "surrogatepass")
    if rng.random() < 0.05:
        return rng.choice([b"[" * 100_000, b"1" * 5_000, b'{"a":' * 50_000, b"\xff\xfe{}"])
    if rng.random() < 0.05:
        return b"<html><body><h1>502 Bad Gateway</h1></body></html>"
    if rng.random() < 0.02:
        return body + b" " * 2_000_000 + body  # huge
    return _mutate_bytes(rng, body) if rng.random() < 0.5 else body


def random_seed_argument(rng: random.Random) -> str:
    entries = [_mutate_text(rng, rng.choice(HOSTS) + rng.choice(PATHS), 2) for _ in range(5)]
    if rng.random() < 0.2:
        entries = [f"site{i}.example.org" for i in range(rng.randint(1, 60))]
    argument = ",".join(entries[: rng.randint(1, len(entries))])
    return _mutate_text(rng, argument, 2) if rng.random() < 0.3 else argument


def random_text(rng: random.Random) -> str:
    words = ["hello", "world", "bonjour", "le", "monde", "中文", "한국어", "日本語です", "😀"]
    text = " ".join(rng.choice(words + TOKENS) for _ in range(rng.randint(0, 20)))
    if rng.random() < 0.3:
        text += "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(1, 20)))
    return text


# --- the same inputs as hypothesis strategies -------------------------------------------------


def from_generator(generate: Callable[[random.Random], Any]) -> st.SearchStrategy[Any]:
    """A strategy drawing from a random generator (hypothesis controls its seed, so a failing
    example is found again), mixed with hypothesis's own odd values."""
    return st.randoms(use_true_random=False).map(generate)


any_bytes = st.binary(max_size=600)
any_text = st.text(st.characters(categories=["Cs", "L", "N", "P", "S", "Z", "C"]), max_size=200)


# --- the targets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    name: str
    check: Callable[[Any], None]
    """Runs the function on one input and asserts its contract."""
    generate: Callable[[random.Random], Any]
    """A random input (the benchmark's)."""
    strategy: st.SearchStrategy[Any]
    """Inputs for hypothesis (the test suite's)."""


def _check_choose_encoding(case: tuple[bytes, str]) -> None:
    from bilingual_spider.middlewares.charset import choose_encoding

    body, content_type = case
    choice = choose_encoding(body, content_type)
    if choice is not None:
        body.decode(choice.encoding, "replace")  # a text encoding, that decodes anything


def _check_decode_html(case: tuple[bytes, str]) -> None:
    from bilingual_spider.language.charsets import decode_html

    assert isinstance(decode_html(*case), str)


def _check_response_text(case: tuple[bytes, str]) -> None:
    """A response as Scrapy builds it from the headers, through the charset middleware, read as
    text (what every spider callback does)."""
    from scrapy.http import Request
    from scrapy.responsetypes import responsetypes

    body, content_type = case
    raw = content_type.encode("utf-8", "surrogatepass")  # headers come as bytes, any bytes
    headers = {b"Content-Type": raw} if raw else {}
    cls = responsetypes.from_args(headers=headers, url="http://a.example/p", body=body)
    response = cls("http://a.example/p", headers=headers, body=body)
    response = _charset_middleware().process_response(Request(response.url), response)
    if hasattr(response, "text"):
        assert isinstance(response.text, str)


@cache
def _charset_middleware() -> Any:
    from bilingual_spider.middlewares.charset import CharsetMiddleware
    from tests.crawlers import get_crawler

    return CharsetMiddleware.from_crawler(get_crawler())


def _check_link_contexts(body: bytes) -> None:
    from bilingual_spider.html_page import parse_html
    from bilingual_spider.language.page_language import main_text_blocks
    from bilingual_spider.links.contexts import extract_link_contexts

    page = parse_html(body)
    for context in extract_link_contexts(page, "http://a.example/dir/page.html"):
        assert context.url[:8].lower().startswith(("http://", "https://")), context.url
    main_text_blocks(page)


def _check_charset_name(name: str) -> None:
    from bilingual_spider.language.charsets import is_text_encoding

    if is_text_encoding(name):
        b"<p>caf\xc3\xa9 \xff</p>".decode(name, "replace")


def _check_url_units(url: str) -> None:
    from bilingual_spider.patterns.units import site_of, split_url, substitute

    units = split_url(url)
    units.url()
    assert site_of(url) == units.site
    for old, new in (("en", "fr"), ("", "fr"), ("fr", "")):
        assert isinstance(substitute(url, old, new), list)


def _check_url_list(urls: list[str]) -> None:
    from bilingual_spider.patterns.url_list import mine_url_list

    result = mine_url_list(urls)
    assert len(result.malformed) <= len(urls)


def _check_url_safety(url: str) -> None:
    from bilingual_spider.middlewares.network_safety import check_url, refusal_reason

    refusal_reason(url)
    check_url(url, sandbox=True)


def _check_absolute_url(case: tuple[str, str]) -> None:
    from bilingual_spider.language.tld import languages_of_host, registered_domain
    from bilingual_spider.links.contexts import absolute_url

    base, href = case
    url = absolute_url(base, href)
    assert url is None or url[:8].lower().startswith(("http://", "https://"))
    registered_domain(href)
    languages_of_host(href)


def _check_seeds(argument: str) -> None:
    from bilingual_spider.seeds import SeedError, parse_seeds

    try:
        seeds = parse_seeds(argument)
    except SeedError:
        return
    assert seeds


def _check_seed_file(text: str) -> None:
    from bilingual_spider.seeds import SeedError, parse_seeds

    path = Path(_seed_directory()) / "seeds.txt"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with contextlib.suppress(SeedError):  # a file of no good seed: the documented refusal
        parse_seeds(str(path))


@cache
def _seed_directory() -> str:
    return tempfile.mkdtemp(prefix="fuzz-seeds-")


def _check_language_id(texts: list[str]) -> None:
    from bilingual_spider.language.identification import default_identifier

    assert len(default_identifier().decide_many(texts)) == len(texts)


def _check_page_language(body: bytes) -> None:
    from bilingual_spider.language.identification import default_identifier
    from bilingual_spider.language.page_language import page_language

    result = page_language(body, default_identifier())
    assert 0.0 <= result.score <= 1.0


def _check_answer(service: str) -> Callable[[bytes], None]:
    def check(body: bytes) -> None:
        from bilingual_spider.search.values import AnswerError

        # AnswerError is the documented refusal: the query is counted as failed, the crawl goes on
        with contextlib.suppress(AnswerError):
            _parse_answer(service, body)

    return check


def _parse_answer(service: str, body: bytes) -> Any:
    from bilingual_spider.search.brave import BraveSearch
    from bilingual_spider.search.cc_index import CcIndex
    from bilingual_spider.search.google_cse import GoogleCse
    from bilingual_spider.search.moz import MozLinks
    from bilingual_spider.search.values import SearchQuery

    search, backlinks = SearchQuery.search("site:a.es"), SearchQuery.backlinks("http://b.com/")
    index = SearchQuery.url_index("a.es", "host")
    if service == "brave":
        return BraveSearch().parse(search, 200, body)
    if service == "google":
        return GoogleCse().parse(search, 200, body)
    if service == "moz":
        return MozLinks().parse(backlinks, 200, body)
    if service == "collinfo":
        return CcIndex().setup(body)
    cdx = CcIndex(collection="CC-MAIN-2024-10")
    if service == "cdx_pages":
        return cdx.parse(index, 200, body)
    return cdx.parse(index, 200, body, continuation="0/3")


def random_script_page(rng: random.Random) -> bytes:
    """A page (:func:`random_page`) with scripts that write switchers, empty menus, or none."""
    scripts = [
        '<script src="/app.js"></script>',
        "<script>document.write('<a href=\"/fr/\">Français</a>')</script>",
        '<script>el.innerHTML = "<a hreflang=de>" + x;</script>',
        '<script type="application/ld+json">{"a": "English"}</script>',
        "<script>'unterminated \\' + `tpl ${'English'}`</script>",
        '<select id="lang"></select>',
        '<nav class="language-menu"></nav>',
        "<script>",
    ]
    extra = "".join(rng.choice(scripts) for _ in range(rng.randint(0, 4)))
    page = random_page(rng)
    cut = rng.randint(0, len(page))
    return _mutate_bytes(rng, page[:cut] + extra.encode() + page[cut:], max_edits=2)


def _check_render_reason(body: bytes) -> None:
    from bilingual_spider.links.script_links import REASONS, render_reason

    assert render_reason(body) in (*REASONS, None)
    assert render_reason(body.decode("utf-8", "replace")) in (*REASONS, None)


def random_sitemap(rng: random.Random) -> bytes:
    """A urlset (with hreflang alternates), an index or a text sitemap of random URLs, maybe
    gzip-compressed, then broken (bytes mutated, cut off)."""
    import gzip

    def entry() -> str:
        links = "".join(
            f'<xhtml:link rel="{rng.choice(["alternate", "", "alternate x"])}" '
            f'hreflang="{rng.choice(["fr", "en-GB", "x-default", "", "zz", "中"])}" '
            f'href="{random_url(rng)}"/>'
            for _ in range(rng.randint(0, 3))
        )
        return f"<url><loc>{random_url(rng)}</loc>{links}</url>"

    kind = rng.choice(["urlset", "sitemapindex", "text"])
    if kind == "text":
        text = "\n".join(random_url(rng) for _ in range(rng.randint(0, 6)))
    elif kind == "urlset":
        entries = "".join(entry() for _ in range(rng.randint(0, 6)))
        text = f'<urlset xmlns:xhtml="http://www.w3.org/1999/xhtml">{entries}</urlset>'
    else:
        items = "".join(f"<sitemap><loc>{random_url(rng)}</loc></sitemap>" for _ in range(3))
        text = f"<sitemapindex>{items}</sitemapindex>"
    body = _mutate_bytes(rng, text.encode("utf-8", "surrogatepass"))
    if rng.random() < 0.3:
        body = gzip.compress(body, mtime=0)
    if rng.random() < 0.3:
        body = body[: rng.randint(0, len(body))]
    return body


def _check_sitemap(body: bytes) -> None:
    from bilingual_spider.links.sitemaps import SiteSitemap, parse_sitemap

    read = parse_sitemap(body, "http://x.example/sitemap.xml", max_bytes=4096, max_urls=20)
    assert len(read.pages) <= 20 and len(read.sitemaps) <= 20
    urls = [*read.pages, *read.sitemaps, *(u for _, named in read.alternates for _, u in named)]
    assert all(url.startswith(("http://", "https://")) for url in urls)
    site = SiteSitemap()
    site.add(read)
    site.pairs()


def _pair(first: Callable[[random.Random], Any], second: Callable[[random.Random], Any]):
    return lambda rng: (first(rng), second(rng))


def _listed(item: Callable[[random.Random], Any], most: int):
    return lambda rng: [item(rng) for _ in range(rng.randint(0, most))]


def _answer_generator(service: str) -> Callable[[random.Random], bytes]:
    return lambda rng: random_answer(rng, service)


SERVICES = ("brave", "google", "moz", "collinfo", "cdx_pages", "cdx_lines")

TARGETS: list[Target] = [
    Target(
        "choose_encoding",
        _check_choose_encoding,
        _pair(random_page, random_content_type),
        st.tuples(from_generator(random_page) | any_bytes, from_generator(random_content_type)),
    ),
    Target(
        "decode_html",
        _check_decode_html,
        _pair(random_page, random_content_type),
        st.tuples(from_generator(random_page) | any_bytes, from_generator(random_content_type)),
    ),
    Target(
        "response_text",
        _check_response_text,
        _pair(random_page, random_content_type),
        st.tuples(from_generator(random_page) | any_bytes, from_generator(random_content_type)),
    ),
    Target(
        "link_contexts",
        _check_link_contexts,
        random_page,
        from_generator(random_page) | any_bytes,
    ),
    Target(
        "charset_name",
        _check_charset_name,
        lambda rng: _mutate_text(rng, rng.choice(CHARSETS), 2),
        st.sampled_from(CHARSETS) | any_text,
    ),
    Target("url_units", _check_url_units, random_url, from_generator(random_url) | any_text),
    Target(
        "url_list",
        _check_url_list,
        _listed(random_url, 30),
        st.lists(from_generator(random_url) | any_text, max_size=30),
    ),
    Target("url_safety", _check_url_safety, random_url, from_generator(random_url) | any_text),
    Target(
        "absolute_url",
        _check_absolute_url,
        _pair(random_url, random_url),
        st.tuples(from_generator(random_url), from_generator(random_url) | any_text),
    ),
    Target(
        "seed_argument",
        _check_seeds,
        random_seed_argument,
        from_generator(random_seed_argument) | any_text,
    ),
    Target(
        "seed_file",
        _check_seed_file,
        lambda rng: "\n".join(_listed(random_url, 10)(rng)),
        st.lists(from_generator(random_url) | any_text, max_size=10).map("\n".join),
    ),
    Target(
        "language_id",
        _check_language_id,
        _listed(random_text, 5),
        st.lists(from_generator(random_text) | any_text, max_size=5),
    ),
    Target(
        "page_language",
        _check_page_language,
        random_page,
        from_generator(random_page) | any_bytes,
    ),
    Target("sitemap", _check_sitemap, random_sitemap, from_generator(random_sitemap) | any_bytes),
    Target(
        "render_reason",
        _check_render_reason,
        random_script_page,
        from_generator(random_script_page) | any_bytes,
    ),
    *(
        Target(
            f"answer_{service}",
            _check_answer(service),
            _answer_generator(service),
            from_generator(_answer_generator(service)) | any_bytes,
        )
        for service in SERVICES
    ),
]
