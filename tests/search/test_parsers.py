"""The adapters' pure halves: the calls they build and the answers they read, without Scrapy.

Answers are made by the sandbox's own fakes (the format the real services speak), and by
hypothesis for what a service might send (arbitrary JSON must be read or refused with
AnswerError, never crash otherwise)."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, parse_qsl, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.sandbox.config import ApiConfig
from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.search_api import SearchApi
from bilingual_spider.search.cc_index import (
    CcIndex,
    cdx_params,
    parse_cdx_lines,
    parse_collinfo,
    parse_num_pages,
)
from bilingual_spider.search.google_cse import GoogleCse, cse_params, parse_cse
from bilingual_spider.search.moz import MozLinks, moz_request_body, moz_target, parse_moz_links
from bilingual_spider.search.values import AnswerError, SearchQuery
from tests.sandbox.test_search_api import LINKERS, TARGET, small_engine

COLLECTION = "CC-MAIN-2024-33"


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> SearchApi:
    index = EngineIndex.load([small_engine(tmp_path_factory.mktemp("engine"))])
    config = ApiConfig(backlink_coverage=1.0, backlink_noise=0.0, cdx_block_lines=10,
                       cdx_page_size=2)  # fmt: skip
    return SearchApi(index, config)


def answer(api: SearchApi, call) -> tuple[int, bytes]:
    """What the sandbox answers an adapter's call (the credentials as the middleware adds)."""
    parts = urlsplit(call.url)
    query = parts.query
    if parts.path.endswith("/customsearch/v1"):
        query += "&key=k"
    got = api.handle(call.method, parts.path, query, call.body)
    return got.status, got.body


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


# --- values ----------------------------------------------------------------------------------


def test_queries_are_checked() -> None:
    assert SearchQuery.backlinks("www.a.com", "host").scope == "host"
    for bad in (
        lambda: SearchQuery("link", "x"),
        lambda: SearchQuery.backlinks(" "),
        lambda: SearchQuery.backlinks("a.com", "site"),
        lambda: SearchQuery.url_index("a.com", "page"),
        lambda: SearchQuery.search("x", limit=0),
    ):
        with pytest.raises(ValueError):
            bad()
    query = SearchQuery.url_index("a.com", "host", True, 5)
    assert SearchQuery.from_dict(query.as_dict()) == query and hash(query) == hash(query)


# --- Moz -------------------------------------------------------------------------------------


def test_moz_call_and_answer_over_the_fake(api: SearchApi) -> None:
    adapter = MozLinks("http://api.sandbox.internal/moz/v2/links", page_size=50)
    query = SearchQuery.backlinks(TARGET)
    call = adapter.call(query)
    assert call.method == "POST" and ("Content-Type", "application/json") in call.headers
    assert json.loads(call.body) == {
        "target": "www.target.com/en/a.html",
        "target_scope": "page",
        "filter": "external",
        "limit": 50,
    }
    pages, token = [], None
    while True:
        status, body = answer(api, adapter.call(query, token))
        page = adapter.parse(query, status, body, token)
        pages.append(page)
        token = page.continuation
        if token is None:
            break
    assert [len(p.links) for p in pages] == [50, 50, 20]
    assert len({link.url for p in pages for link in p.links}) == LINKERS
    assert pages[0].links[0].anchor == "hotel guide 0" and pages[0].links[0].target == TARGET


def test_moz_scopes_limits_and_credentials() -> None:
    host = SearchQuery.backlinks("http://www.a.com/x#y", "host")
    assert moz_request_body(host, 80, "tok") == {
        "target": "www.a.com",
        "target_scope": "subdomain",
        "filter": "external",
        "limit": 50,
        "next_token": "tok",
    }
    assert moz_request_body(SearchQuery.backlinks("a.com", "domain"), 7)["target_scope"] == (
        "root_domain"
    )
    assert moz_target("https://moz.com/blog#top") == "moz.com/blog"
    token = MozLinks(token="T0KEN")
    assert token.add_credentials("u", {}) == ("u", {"x-moz-token": "T0KEN"})
    basic = MozLinks(access_id="id", secret_key="secret")
    _, headers = basic.add_credentials("u", {})
    assert headers["Authorization"] == "Basic aWQ6c2VjcmV0"
    assert set(basic.secrets()) == {"secret", "aWQ6c2VjcmV0"}
    assert MozLinks().missing_configuration() and basic.missing_configuration() is None


def test_moz_answers_that_are_not_moz_answers_are_refused() -> None:
    for bad in (None, [], {"results": {}}, {"results": [1]}, {"results": [{"source": {}}]}):
        with pytest.raises(AnswerError):
            parse_moz_links(bad)
    links, token = parse_moz_links({"results": [], "next_token": ""})
    assert links == [] and token is None


@given(JSON)
@settings(max_examples=300, deadline=None)
def test_moz_parser_reads_or_refuses_any_json(data) -> None:
    try:
        links, token = parse_moz_links(data)
    except AnswerError:
        return
    assert all(link.url.startswith("http") for link in links)
    assert token is None or (isinstance(token, str) and token)


# --- Google Custom Search ----------------------------------------------------------------------


def test_cse_call_and_answer_over_the_fake(api: SearchApi) -> None:
    adapter = GoogleCse("http://api.sandbox.internal/customsearch/v1", key="KEY", cx="cx1")
    query = SearchQuery.search("inurl:lang=fr")
    call = adapter.call(query)
    assert "key" not in parse_qs(urlsplit(call.url).query)  # added at the last moment only
    status, body = answer(api, call)
    page = adapter.parse(query, status, body)
    assert [link.url for link in page.links] == ["http://www.target.com/list.php?lang=fr"]
    assert page.continuation is None and page.total == 1
    url, headers = adapter.add_credentials(call.url, {})
    assert dict(parse_qsl(urlsplit(url).query))["key"] == "KEY" and headers == {}
    assert adapter.secrets() == ("KEY",)
    assert GoogleCse(key="k").missing_configuration() is not None


def test_cse_pages_stop_at_result_100(api: SearchApi) -> None:
    adapter = GoogleCse("http://api.sandbox.internal/customsearch/v1", key="k", cx="c")
    query = SearchQuery.search("directory")
    starts, continuation = [], None
    while True:
        call = adapter.call(query, continuation)
        starts.append(int(dict(parse_qsl(urlsplit(call.url).query))["start"]))
        page = adapter.parse(query, *answer(api, call))
        continuation = page.continuation
        if continuation is None:
            break
    assert starts == list(range(1, 101, 10))
    assert cse_params(query, "c", 10, 95)["num"] == "6"  # never past result 100


@given(JSON)
@settings(max_examples=300, deadline=None)
def test_cse_parser_reads_or_refuses_any_json(data) -> None:
    try:
        links, following, total = parse_cse(data)
    except AnswerError:
        return
    assert all(isinstance(link.url, str) for link in links)
    assert following is None or 1 <= int(following) <= 100
    assert total is None or isinstance(total, int)


# --- Common Crawl index ----------------------------------------------------------------------


def test_cdx_preflight_pages_and_404(api: SearchApi) -> None:
    adapter = CcIndex("http://api.sandbox.internal/cc-index")
    setup = adapter.setup_call()
    assert setup is not None and setup.url.endswith("/collinfo.json")
    adapter.setup(answer(api, setup)[1])
    assert adapter.collection == COLLECTION and adapter.setup_call() is None
    query = SearchQuery.url_index("org", "domain")
    preflight = adapter.parse(query, *answer(api, adapter.call(query)))
    assert preflight.preflight and preflight.links == () and preflight.continuation == "0/7"
    found, continuation = [], preflight.continuation
    while continuation is not None:
        page = adapter.parse(query, *answer(api, adapter.call(query, continuation)), continuation)
        found += [link.url for link in page.links]
        continuation = page.continuation
    assert len(found) == len(set(found)) == LINKERS
    empty_query = SearchQuery.url_index("nothing.example", "host", limit=5)
    status, body = answer(api, adapter.call(empty_query))
    assert status == 404 and 404 in adapter.empty_statuses
    assert adapter.parse(empty_query, status, body).links == ()


def test_cdx_params() -> None:
    query = SearchQuery.url_index("a.com", "host", pages_only=True, limit=4)
    assert cdx_params(query, page=0) == [
        ("url", "a.com"), ("matchType", "host"), ("output", "json"),
        ("filter", "=status:200"), ("filter", "=mime:text/html"), ("limit", "4"), ("page", "0"),
    ]  # fmt: skip
    assert ("showNumPages", "true") in cdx_params(query, show_num_pages=True)
    with pytest.raises(RuntimeError):
        CcIndex().call(query)  # the collection must be known first


def test_cdx_readers_refuse_other_answers() -> None:
    for body in (b"not json\n", b"[1]\n", b'{"status": "200"}\n'):
        with pytest.raises(AnswerError):
            parse_cdx_lines(body)
    assert parse_cdx_lines(b"\n\n") == []
    revisit = parse_cdx_lines(b'{"url": "http://a/", "status": "-"}\n')[0]
    assert revisit.status is None and revisit.languages == ()
    for bad in ({}, {"pages": -1}, {"pages": True}, []):
        with pytest.raises(AnswerError):
            parse_num_pages(bad)
    for bad in ([], {}, [{"name": "x"}]):
        with pytest.raises(AnswerError):
            parse_collinfo(bad)


@given(st.lists(JSON, max_size=5))
@settings(max_examples=200, deadline=None)
def test_cdx_reader_reads_or_refuses_any_ndjson(records) -> None:
    body = "".join(json.dumps(r) + "\n" for r in records).encode()
    try:
        found = parse_cdx_lines(body)
    except AnswerError:
        return
    assert len(found) == len(records)
