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
from bilingual_spider.search.brave import (
    TOKEN_HEADER,
    BraveSearch,
    brave_query,
    parse_brave,
    rate_limit_wait,
)
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
    headers = {TOKEN_HEADER.lower(): "k"} if parts.path.endswith("/web/search") else {}
    got = api.handle(call.method, parts.path, query, call.body, headers)
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


# --- Brave Search API -------------------------------------------------------------------------

BRAVE_FAKE = "http://api.sandbox.internal/res/v1/web/search"


def test_brave_call_filters_inurl_terms_itself(api: SearchApi) -> None:
    adapter = BraveSearch(BRAVE_FAKE, key="KEY")
    query = SearchQuery.search("inurl:fr site:target.com")
    call = adapter.call(query)
    params = dict(parse_qsl(urlsplit(call.url).query))
    assert params["q"] == "site:target.com"  # Brave has no inurl: it is not sent
    assert (params["count"], params["offset"], params["spellcheck"]) == ("20", "0", "false")
    assert "KEY" not in call.url and TOKEN_HEADER not in dict(call.headers)
    page = adapter.parse(query, *answer(api, call))
    assert [link.url for link in page.links] == [  # of the 6 pages of the site, those with "fr"
        "http://www.target.com/fr/a.html",
        "http://www.target.com/list.php?lang=fr",
    ]
    excluded = SearchQuery.search("-inurl:FR site:target.com")
    urls = [
        link.url for link in adapter.parse(excluded, *answer(api, adapter.call(excluded))).links
    ]
    assert len(urls) == 4 and not any("fr" in url for url in urls)
    assert brave_query("inurl:lang=fr").q == "lang=fr"  # inurl: alone: sent as words
    assert adapter.add_credentials(call.url, {}) == (call.url, {TOKEN_HEADER: "KEY"})
    assert adapter.secrets() == ("KEY",)
    assert BraveSearch().missing_configuration() is not None


def test_brave_pages_by_offset_until_no_more_results(api: SearchApi) -> None:
    adapter = BraveSearch(BRAVE_FAKE, key="k")
    query = SearchQuery.search("directory")
    offsets, found, continuation = [], [], None
    while True:
        call = adapter.call(query, continuation)
        offsets.append(int(dict(parse_qsl(urlsplit(call.url).query))["offset"]))
        page = adapter.parse(query, *answer(api, call), continuation)
        found += [link.url for link in page.links]
        continuation = page.continuation
        if continuation is None:
            break
    assert offsets == list(range(6)) and len(set(found)) == len(found) == LINKERS
    short = SearchQuery.search("directory", limit=7)
    assert dict(parse_qsl(urlsplit(adapter.call(short).url).query))["count"] == "7"
    more = {"type": "search", "query": {"more_results_available": True}}
    assert parse_brave(more, 8) == ([], "9") and parse_brave(more, 9) == ([], None)  # offset <= 9
    with pytest.raises(ValueError):
        adapter.call(query, "10")


def test_brave_reads_decorated_text_and_refuses_errors_and_bad_json(api: SearchApi) -> None:
    adapter = BraveSearch(BRAVE_FAKE, key="k")
    query = SearchQuery.search("sea")
    result = {"url": "http://a.hk/", "title": "A &amp; B", "description": "<strong>sea</strong>"}
    data = {"type": "search", "web": {"results": [result]}}
    (link,) = parse_brave(data, 0)[0]
    assert (link.title, link.snippet) == ("A & B", "sea")
    status, body = answer(api, adapter.call(query))
    assert status == 200 and adapter.parse(query, status, body).links[0].snippet.endswith("sea")
    error = api.handle(
        "GET", "/res/v1/web/search", "q=x&count=99", headers={"x-subscription-token": "k"}
    )
    assert error.status == 422
    for bad in (error.body, b"<html>502 Bad Gateway</html>", b"\xff\xfe", b'{"type": "search",'):
        with pytest.raises(AnswerError):
            adapter.parse(query, 200, bad)


def test_brave_waits_for_retry_after_else_the_spent_windows_reset() -> None:
    def wait(**headers: str) -> float | None:
        return rate_limit_wait({k.replace("_", "-"): v for k, v in headers.items()}.get)

    assert wait(**{"Retry_After": "3", "X_RateLimit_Reset": "1, 999"}) == 3.0
    spent_second = {"X_RateLimit_Remaining": "0, 1500", "X_RateLimit_Reset": "1, 1419704"}
    assert wait(**spent_second) == 1.0
    spent_month = {"X_RateLimit_Remaining": "1, 0", "X_RateLimit_Reset": "1, 86400"}
    assert wait(**spent_month) == 86400.0  # the service caps it at BILINGUAL_SEARCH_MAX_BACKOFF
    assert wait(X_RateLimit_Reset="2, 50") == 2.0 and wait() is None
    assert wait(X_RateLimit_Reset="soon") is None


@given(JSON, st.integers(0, 9))
@settings(max_examples=300, deadline=None)
def test_brave_parser_reads_or_refuses_any_json(data, offset: int) -> None:
    try:
        links, following = parse_brave(data, offset)
    except AnswerError:
        return
    assert all(isinstance(link.url, str) for link in links)
    assert following is None or int(following) == offset + 1 <= 9


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
