"""The sandbox's search/backlink API: every endpoint in its real service's format, over small
engine directories written here; coverage, noise, rate limits; one request over a real socket."""

from __future__ import annotations

import gzip
import http.client
import json
import textwrap
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from bilingual_spider.sandbox.config import ApiConfig, SandboxConfig
from bilingual_spider.sandbox.engine_files import (
    EngineLink,
    EnginePage,
    read_links,
    write_links,
    write_pages,
)
from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.search_api import API_HOST, SearchApi
from bilingual_spider.sandbox.server import Sandbox
from tests.fake_clock import FakeClock

LINKERS = 120  # www.linkerN.org, one page each, all linking to TARGET
TARGET = "http://www.target.com/en/a.html"
COLLECTION = "CC-MAIN-2024-33"
GRAPH = "cc-main-2024-aug-sep-oct"
BIG = "www.big.com/"


def small_engine(directory: Path) -> Path:
    """A target site (en/fr pages, a PHP page, a PDF, a 404, a blog subdomain), 120 linker sites
    pointing at it (linker 0 is cited by all others, so it has the highest authority), a Hong Kong
    site in Chinese, and an unrelated host whose name starts like the target's."""
    pages = [
        EnginePage("http://www.target.com/", 200, "text/html", "en", "Target home", "welcome"),
        EnginePage(TARGET, 200, "text/html", "en", "Harbour hotel guide", "rooms near the sea"),
        EnginePage(
            "http://www.target.com/fr/a.html", 200, "text/html", "fr", "Guide", "hôtel du port"
        ),
        EnginePage(
            "http://www.target.com/list.php?lang=fr", 200, "text/html", "fr", "Liste", "hotel"
        ),
        EnginePage(
            "http://www.target.com/doc.pdf", 200, "application/pdf", "en", "Annual report", "pdf"
        ),
        EnginePage("http://www.target.com/gone.html", 404, "text/html", "", "", ""),
        EnginePage("https://blog.target.com/x.html", 200, "text/html", "en", "Blog", "hotel news"),
        EnginePage("http://www.travel.hk/", 200, "text/html", "zh-Hant", "香港旅遊", "酒店 hotel"),
        EnginePage("http://www.othertarget.com/", 200, "text/html", "en", "Other", "unrelated"),
    ]
    links = [
        EngineLink("http://www.target.com/", TARGET, "English"),
        EngineLink("http://www.target.com/", "http://www.target.com/fr/a.html", "Français"),
        EngineLink(TARGET, "http://www.target.com/fr/a.html", "FR"),
        EngineLink("http://www.target.com/", "http://www.target.com/", "home"),  # a self-loop
        EngineLink("http://www.travel.hk/", "https://blog.target.com/x.html", "blog"),
        EngineLink("http://www.othertarget.com/", "http://www.travel.hk/", "香港"),
    ]
    for i in range(LINKERS):
        url = f"http://www.linker{i}.org/"
        title = f"Linker {i} directory" + (" hotel" if i % 2 else "")
        pages.append(EnginePage(url, 200, "text/html", "en", title, f"links list number {i}"))
        links.append(EngineLink(url, TARGET, f"hotel guide {i}"))
        if i:
            links.append(EngineLink(url, "http://www.linker0.org/", "the best directory"))
    write_pages(directory, pages)
    write_links(directory, links)
    return directory


@pytest.fixture(scope="module")
def engine_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_engine(tmp_path_factory.mktemp("engine"))


@pytest.fixture(scope="module")
def index(engine_dir: Path) -> EngineIndex:
    return EngineIndex.load([engine_dir])


def make_api(index: EngineIndex, **settings: object) -> SearchApi:
    values: dict[str, object] = {"backlink_coverage": 1.0, "backlink_noise": 0.0, "seed": 3}
    values.update(settings)
    return SearchApi(index, ApiConfig(**values))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def api(index: EngineIndex) -> SearchApi:
    """Complete and noiseless, so that answers can be checked against the links."""
    return make_api(index)


def moz(api: SearchApi, **request: object) -> tuple[int, dict]:
    answer = api.handle("POST", "/moz/v2/links", "", json.dumps(request).encode())
    assert answer.content_type.startswith("application/json")
    return answer.status, json.loads(answer.body)


def all_backlinks(api: SearchApi, **request: object) -> list[dict]:
    results, token, calls = [], None, 0
    while True:
        status, body = moz(api, **request, limit=50, **({"next_token": token} if token else {}))
        assert status == 200
        results += body["results"]
        token, calls = body["next_token"], calls + 1
        if token == "":
            return results
        assert calls < 100


def google(api: SearchApi, **params: object) -> tuple[int, dict]:
    answer = api.handle("GET", "/customsearch/v1", urlencode({"key": "k", "cx": "c", **params}))
    return answer.status, json.loads(answer.body)


def gunzip_lines(body: bytes) -> list[str]:
    return gzip.decompress(body).decode("utf-8").splitlines()


def links_in(engine_dir: Path) -> set[tuple[str, str]]:
    return {(link.source, link.target) for link in read_links(engine_dir)}


# --- config ----------------------------------------------------------------------------------


def test_api_section_of_the_config(tmp_path: Path, engine_dir: Path) -> None:
    other = small_engine(tmp_path / "other-engine")
    first = tmp_path / "a.toml"
    first.write_text(f'[api]\nengine_dirs = ["{engine_dir}"]\nbacklink_coverage = 0.5\nseed = 4\n')
    second = tmp_path / "b.toml"
    second.write_text('[api]\nengine_dirs = ["other-engine"]\nbacklink_noise = 0.1\n')
    config = SandboxConfig()
    config.add_file(first)
    config.add_file(second)
    assert config.api is not None
    assert config.api.engine_dirs == (engine_dir.resolve(), other.resolve())  # relative: to file
    assert (config.api.backlink_coverage, config.api.backlink_noise) == (0.5, 0.1)
    assert (config.api.seed, config.api.rate_limit) == (4, False)
    assert config.api.backlink_max_results == 1000
    for table, message in (
        ("bogus_key = 1", "unknown key.*bogus_key"),
        ("backlink_coverage = 1.5", "backlink_coverage"),
        ('engine_dirs = ["missing"]', "not a directory"),
        ("moz_burst = 0", "moz_burst"),
    ):
        bad = tmp_path / "bad.toml"
        bad.write_text(f"[api]\n{table}\n")
        with pytest.raises(ValueError, match=message):
            SandboxConfig().add_file(bad)


def test_api_host_without_api_config_says_so(tmp_path: Path) -> None:
    answer = Sandbox(SandboxConfig()).handle("GET", f"http://{API_HOST}/customsearch/v1?q=x", "")
    assert answer.status == 404
    assert "not configured" in json.loads(answer.body)["error"]


# --- Moz Links API v2 ----------------------------------------------------------------------------


def test_moz_links_format_and_pagination(api: SearchApi, engine_dir: Path) -> None:
    status, body = moz(api, target="www.target.com/en/a.html", target_scope="page", limit=25)
    assert status == 200 and set(body) == {"next_token", "results"}
    link = body["results"][0]
    assert {"source", "target", "anchor_text", "nofollow", "date_first_seen"} <= set(link)
    for name in ("page", "subdomain", "root_domain", "title", "http_code", "page_authority"):
        assert name in link["source"] and name in link["target"]
    assert link["target"]["page"] == "www.target.com/en/a.html"  # Moz's form: no scheme
    assert link["source"]["root_domain"].endswith("linker0.org")  # the most cited linker first
    assert link["anchor_text"] == "hotel guide 0"
    pages, token = [body["results"]], body["next_token"]
    while token:
        status, body = moz(api, target="www.target.com/en/a.html", limit=25, next_token=token)
        pages.append(body["results"])
        token = body["next_token"]
    assert [len(p) for p in pages] == [25, 25, 25, 25, 20]
    sources = [r["source"]["page"] for p in pages for r in p]
    true = {s.split("://")[1] for s, t in links_in(engine_dir) if t == TARGET}
    external = {s for s in true if "target.com" not in s}
    assert sorted(sources) == sorted(external)  # complete (coverage 1), no repeats, external only
    authority = [r["source"]["page_authority"] for p in pages for r in p]
    assert authority == sorted(authority, reverse=True)


def test_moz_scopes_and_filters(api: SearchApi) -> None:
    internal = all_backlinks(api, target="www.target.com/en/a.html", filter="internal")
    assert [r["source"]["page"] for r in internal] == ["www.target.com/"]
    subdomain = all_backlinks(api, target="blog.target.com", target_scope="subdomain")
    assert [r["source"]["page"] for r in subdomain] == ["www.travel.hk/"]
    root = all_backlinks(api, target="target.com", target_scope="root_domain")
    assert len(root) == LINKERS + 1  # the linkers, and travel.hk's link to the blog
    assert all(r["target"]["root_domain"] == "target.com" for r in root)
    by_domain = all_backlinks(
        api, target="target.com", target_scope="root_domain", source_scope="root_domain"
    )
    assert len(by_domain) == LINKERS + 1
    assert all_backlinks(api, target="www.nowhere.example/") == []


def test_moz_errors_in_moz_format(api: SearchApi) -> None:
    for body in (b"{not json", b"[1, 2]", b'{"target_scope": "page"}', b'{"target": ""}'):
        answer = api.handle("POST", "/moz/v2/links", "", body)
        error = json.loads(answer.body)
        assert answer.status == 400 and set(error) == {"name", "message"}, body
    for request in (
        {"target": "target.com", "limit": 51},
        {"target": "target.com", "target_scope": "domain"},
        {"target": "target.com", "next_token": "!!"},
        {"target": "target.com", "filter": "external+bogus"},
    ):
        assert moz(api, **request)[0] == 400, request
    answer = api.handle("GET", "/moz/v2/links", "", b"")
    assert (answer.status, answer.headers["Allow"]) == (405, "POST")


def test_moz_answers_at_most_max_results(index: EngineIndex) -> None:
    capped = make_api(index, backlink_max_results=30)
    results = all_backlinks(capped, target="www.target.com/en/a.html")
    assert len(results) == 30
    status, body = moz(capped, target="www.target.com/en/a.html", limit=50)
    assert (len(body["results"]), body["next_token"]) == (30, "")


def big_target_engine(directory: Path, sources: int = 1000) -> Path:
    """``sources`` pages on 100 hosts, each linking to one target, plus 400 pages that don't."""
    pages = [EnginePage("http://www.big.com/", 200, "text/html", "en", "Big", "")]
    links = []
    for i in range(sources + 400):
        url = f"http://www.site{i % 100}.net/p{i}.html"
        pages.append(EnginePage(url, 200, "text/html", "en", f"page {i}", ""))
        if i < sources:
            links.append(EngineLink(url, "http://www.big.com/", f"anchor {i}"))
        else:
            links.append(EngineLink(url, f"http://www.site{i % 100}.net/", "home"))
    write_pages(directory, pages)
    write_links(directory, links)
    return directory


@pytest.fixture(scope="module")
def big_index(tmp_path_factory: pytest.TempPathFactory) -> EngineIndex:
    return EngineIndex.load([big_target_engine(tmp_path_factory.mktemp("big"))])


def test_coverage_is_about_the_configured_share_and_stable(big_index: EngineIndex) -> None:
    def backlinks(seed: int) -> list[dict]:
        return all_backlinks(make_api(big_index, backlink_coverage=0.7, seed=seed), target=BIG)

    results = backlinks(11)
    # binomial(1000, 0.7): sd 14.5, so this holds for any seed with p > 0.9999
    assert 640 <= len(results) <= 760
    assert backlinks(11) == results  # a stable hash, not a random draw
    assert {r["source"]["page"] for r in backlinks(12)} != {r["source"]["page"] for r in results}


def test_noise_adds_stale_backlinks_from_pages_that_do_not_link(big_index: EngineIndex) -> None:
    noisy = make_api(
        big_index, backlink_coverage=1.0, backlink_noise=0.05, backlink_max_results=2000, seed=5
    )
    results = all_backlinks(noisy, target=BIG)
    true_sources = {f"www.site{i % 100}.net/p{i}.html" for i in range(1000)}
    stale = [r for r in results if r["source"]["page"] not in true_sources]
    assert len(results) - len(stale) == 1000  # every true link is still there
    assert 45 <= len(stale) <= 60  # 1000 * 0.05 / 0.95 = 52.6 of the answers
    assert len({r["source"]["page"] for r in stale}) == len(stale)
    assert all(r["target"]["page"] == BIG and r["source"]["http_code"] == 200 for r in stale)
    assert all_backlinks(noisy, target=BIG) == results


# --- Google Custom Search JSON API ---------------------------------------------------------------


def links_of(body: dict) -> list[str]:
    return [item["link"] for item in body.get("items", [])]


def test_search_format(api: SearchApi) -> None:
    status, body = google(api, q="harbour hotel")
    assert status == 200 and body["kind"] == "customsearch#search"
    assert body["searchInformation"]["totalResults"] == "1"
    assert body["queries"]["request"][0]["searchTerms"] == "harbour hotel"
    (item,) = body["items"]
    assert item["link"] == TARGET and item["displayLink"] == "www.target.com"
    assert item["title"] == "Harbour hotel guide" and "<b>hotel</b>" in item["htmlTitle"]
    assert item["formattedUrl"] == "www.target.com/en/a.html" and "mime" not in item
    _, body = google(api, q="annual report")
    assert body["items"][0]["mime"] == "application/pdf"


def test_search_operators(api: SearchApi) -> None:
    def found(q: str) -> set[str]:
        status, body = google(api, q=q, num=10)
        assert status == 200, body
        return set(links_of(body))

    blog, php = "https://blog.target.com/x.html", "http://www.target.com/list.php?lang=fr"
    assert found("hotel site:target.com") == {TARGET, php, blog}
    assert found("hotel site:blog.target.com") == {blog}
    assert found("hotel site:hk") == found("hotel site:.hk") == {"http://www.travel.hk/"}
    assert found("site:www.target.com/fr/") == {"http://www.target.com/fr/a.html"}
    assert found("inurl:lang=fr") == found("site:target.com filetype:php") == {php}
    assert found("filetype:pdf") == {"http://www.target.com/doc.pdf"}
    assert found("hotel site:target.com -site:blog.target.com -liste") == {TARGET}
    assert found('"hotel guide"') == {TARGET}
    assert found("旅遊") == {"http://www.travel.hk/"}  # Chinese, character by character
    assert found("inurl:gone") == set()  # only status-200 pages are searchable
    _, body = google(api, q="hotel", lr="lang_fr")
    assert set(links_of(body)) == {php}


def test_search_ranks_title_matches_first(api: SearchApi) -> None:
    _, body = google(api, q="hotel", num=3)
    assert links_of(body)[0] == TARGET  # "hotel" in the title and no less authority


def test_search_pagination_and_the_100_result_cap(api: SearchApi) -> None:
    seen = []
    for start in range(1, 101, 10):
        status, body = google(api, q="directory", start=start)
        assert status == 200 and body["searchInformation"]["totalResults"] == str(LINKERS)
        seen += links_of(body)
        if start < 91:
            assert body["queries"]["nextPage"][0]["startIndex"] == start + 10
        else:
            assert "nextPage" not in body  # result 101 is never reachable
    assert len(seen) == len(set(seen)) == 100
    assert google(api, q="directory", start=92)[0] == 400
    status, body = google(api, q="directory", num=11)
    assert status == 400 and body["error"]["code"] == 400
    assert body["error"]["status"] == "INVALID_ARGUMENT" and body["error"]["errors"][0]["reason"]
    assert google(api, q="directory", start=91)[1]["queries"]["request"][0]["count"] == 10


def test_search_empty_answer_and_errors(api: SearchApi) -> None:
    status, body = google(api, q="xylophone")
    assert status == 200 and "items" not in body
    assert body["searchInformation"]["totalResults"] == "0"
    answer = api.handle("GET", "/customsearch/v1", "cx=c&q=hotel")  # no API key
    assert answer.status == 403
    assert json.loads(answer.body)["error"]["status"] == "PERMISSION_DENIED"
    assert api.handle("GET", "/customsearch/v1", "key=k&q=hotel").status == 400  # no cx
    assert google(api)[0] == 400  # no q


# --- Brave Search API ----------------------------------------------------------------------------


def brave(api: SearchApi, token: str = "t", **params: object) -> tuple[int, dict]:
    headers = {"x-subscription-token": token} if token else {}
    answer = api.handle("GET", "/res/v1/web/search", urlencode(params), headers=headers)
    assert answer.content_type.startswith("application/json")
    return answer.status, json.loads(answer.body)


def test_brave_answers_in_brave_format_and_pages_by_offset(api: SearchApi) -> None:
    status, body = brave(api, q="site:target.com filetype:pdf")
    assert status == 200 and body["type"] == "search"
    (result,) = body["web"]["results"]
    assert result["url"] == "http://www.target.com/doc.pdf" and result["type"] == "search_result"
    assert result["meta_url"]["hostname"] == "www.target.com"
    assert body["query"]["more_results_available"] is False
    status, body = brave(api, q="hotel lang:zh")  # Brave's language operator
    assert [r["url"] for r in body["web"]["results"]] == ["http://www.travel.hk/"]
    seen, offset = [], 0
    while True:
        status, body = brave(api, q="directory", count=20, offset=offset)
        seen += [r["url"] for r in body["web"]["results"]]
        if not body["query"]["more_results_available"]:
            break
        offset += 1
    assert offset == 5 and len(seen) == len(set(seen)) == LINKERS  # 120 results, 6 pages of 20
    plain = brave(api, q="sea", text_decorations="false")[1]["web"]["results"][0]
    assert plain["description"] == "rooms near the sea"
    assert "<strong>sea</strong>" in brave(api, q="sea")[1]["web"]["results"][0]["description"]


def test_brave_has_no_inurl_and_no_web_object_without_results(api: SearchApi) -> None:
    assert brave(api, q="inurl:lang=fr")[1]["type"] == "search"
    assert "web" not in brave(api, q="inurl:lang=fr")[1]  # "inurl" is a word no page has
    status, body = brave(api, q="xylophone")
    assert status == 200 and "web" not in body and body["mixed"]["main"] == []


def test_brave_errors_are_422_validation_in_brave_format(api: SearchApi) -> None:
    status, body = brave(api, token="", q="hotel")  # no key: 422, as Brave answers (no 401)
    assert status == 422 and body["type"] == "ErrorResponse"
    error = body["error"]
    assert (error["code"], error["status"]) == ("VALIDATION", 422)
    assert error["meta"]["errors"][0]["loc"] == ["header", "x-subscription-token"]
    for params, loc, kind in (
        ({"q": "hotel", "count": 21}, ["query", "count"], "less_than_equal"),
        ({"q": "hotel", "offset": 10}, ["query", "offset"], "less_than_equal"),
        ({"q": "hotel", "offset": -1}, ["query", "offset"], "greater_than_equal"),
        ({"q": "hotel", "count": "ten"}, ["query", "count"], "int_parsing"),
        ({}, ["query", "q"], "missing"),
        ({"q": "x" * 401}, ["query", "q"], "string_too_long"),
    ):
        status, body = brave(api, **params)
        (problem,) = body["error"]["meta"]["errors"]
        assert status == 422 and (problem["loc"], problem["type"]) == (loc, kind), params


# --- Common Crawl index --------------------------------------------------------------------------


def cdx(api: SearchApi, **params: object) -> tuple[int, bytes]:
    answer = api.handle("GET", f"/cc-index/{COLLECTION}-index", urlencode(params))
    return answer.status, answer.body


def cdx_json(api: SearchApi, **params: object) -> list[dict]:
    status, body = cdx(api, output="json", **params)
    assert status == 200, body
    return [json.loads(line) for line in body.decode().splitlines()]


def test_collinfo(api: SearchApi) -> None:
    (collection,) = json.loads(api.handle("GET", "/cc-index/collinfo.json").body)
    assert collection["id"] == COLLECTION
    assert urlsplit(collection["cdx-api"]).path == f"/cc-index/{COLLECTION}-index"
    assert {"name", "timegate", "from", "to"} <= set(collection)


def test_cdx_records_and_match_types(api: SearchApi) -> None:
    (record,) = cdx_json(api, url="www.target.com/en/a.html")
    assert record["urlkey"] == "com,target)/en/a.html" and record["url"] == TARGET
    assert (record["status"], record["mime"], record["languages"]) == ("200", "text/html", "eng")
    assert len(record["timestamp"]) == 14 and record["timestamp"].startswith("202408")
    assert record["filename"].startswith(f"crawl-data/{COLLECTION}/segments/")
    assert all(isinstance(value, str) for value in record.values())
    (gone,) = cdx_json(api, url="http://www.target.com/gone.html")
    assert gone["status"] == "404" and "languages" not in gone
    prefix = {r["url"] for r in cdx_json(api, url="www.target.com/*")}
    assert len(prefix) == 6 and "https://blog.target.com/x.html" not in prefix
    assert {r["url"] for r in cdx_json(api, url="www.target.com", matchType="prefix")} == prefix
    assert {r["url"] for r in cdx_json(api, url="target.com", matchType="host")} == prefix
    domain = {r["url"] for r in cdx_json(api, url="*.target.com")}
    assert domain == prefix | {"https://blog.target.com/x.html"}  # not www.othertarget.com
    keys = [r["urlkey"] for r in cdx_json(api, url="*.org")]
    assert len(keys) == LINKERS and keys == sorted(keys)
    fields = cdx_json(api, url="*.target.com", fl="url,status", filter="=status:404")
    assert fields == [{"url": "http://www.target.com/gone.html", "status": "404"}]
    status, text = cdx(api, url="www.target.com/")
    assert status == 200 and text.decode().startswith("com,target)/ 2024")  # CDXJ without json
    assert cdx(api, url="target.com", matchType="bogus")[0] == 400
    assert cdx(api, url="target.com", filter="url:(")[0] == 400  # a broken regex


def test_cdx_empty_answer_is_404_no_captures(api: SearchApi) -> None:
    status, body = cdx(api, url="nothing.example/*", output="json")
    assert status == 404
    assert json.loads(body) == {"message": "No Captures found for: nothing.example/*"}
    status, body = cdx(api, url="nothing.example/*", showNumPages="true")
    assert json.loads(body) == {"pages": 0, "pageSize": 5, "blocks": 0}
    assert api.handle("GET", "/cc-index/CC-MAIN-1999-01-index", "url=x").status == 404


def test_cdx_pagination_by_blocks(index: EngineIndex) -> None:
    paged = make_api(index, cdx_block_lines=10, cdx_page_size=2)
    status, body = cdx(paged, url="*.org", showNumPages="true")
    info = json.loads(body)
    assert status == 200 and set(info) == {"pages", "pageSize", "blocks"}
    # the .org captures are lines 9..128 of the index (8 .com and 1 .hk before): blocks 0..12
    assert info == {"pages": 7, "pageSize": 2, "blocks": 13}
    pages = [cdx_json(paged, url="*.org", page=p) for p in range(info["pages"])]
    assert [len(p) for p in pages] == [11, 20, 20, 20, 20, 20, 9]
    lines = [r["urlkey"] for p in pages for r in p]
    assert lines == sorted(lines) and len(lines) == len(set(lines)) == LINKERS
    assert cdx_json(paged, url="*.org") == pages[0]  # no page: the first one
    assert cdx_json(paged, url="*.org", pageSize=100) == [r for p in pages for r in p]
    status, body = cdx(paged, url="*.org", page=info["pages"], output="json")
    assert status == 400 and "Page" in json.loads(body)["message"]


# --- Common Crawl host graph ---------------------------------------------------------------------


def test_host_graph_files(api: SearchApi, engine_dir: Path) -> None:
    base = f"/cc-data/projects/hyperlinkgraph/{GRAPH}/host/{GRAPH}-host-"
    vertices_answer = api.handle("GET", base + "vertices.txt.gz")
    edges_answer = api.handle("GET", base + "edges.txt.gz")
    assert vertices_answer.status == edges_answer.status == 200
    vertices = [line.split("\t") for line in gunzip_lines(vertices_answer.body)]
    assert [int(i) for i, _ in vertices] == list(range(len(vertices)))
    names = [name for _, name in vertices]
    assert names == sorted(names) and "com.target.www" in names and "org.linker0.www" in names
    edges = [tuple(map(int, line.split("\t"))) for line in gunzip_lines(edges_answer.body)]
    assert edges == sorted(set(edges))  # sorted, no duplicates

    def reversed_host(url: str) -> str:
        return ".".join(reversed((urlsplit(url).hostname or "").split(".")))

    ids = {name: i for i, name in enumerate(names)}
    expected = {(ids[reversed_host(s)], ids[reversed_host(t)]) for s, t in links_in(engine_dir)} - {
        (i, i) for i in range(len(names))
    }
    assert set(edges) == expected
    assert api.handle("GET", base.replace(GRAPH, "cc-main-1999") + "edges.txt.gz").status == 404


# --- rate limits ---------------------------------------------------------------------------------


def test_rate_limits_answer_429_in_each_format(index: EngineIndex) -> None:
    clock = FakeClock()
    config = ApiConfig(
        rate_limit=True, moz_burst=2, moz_per_second=0.5, google_burst=1, cdx_burst=1,
        hostgraph_burst=1,
    )  # fmt: skip
    limited = SearchApi(index, config, clock=clock)
    body = json.dumps({"target": "target.com", "target_scope": "root_domain"}).encode()

    def post() -> int:
        return limited.handle("POST", "/moz/v2/links", "", body).status

    assert [post(), post()] == [200, 200]
    throttled = limited.handle("POST", "/moz/v2/links", "", body)
    assert throttled.status == 429 and throttled.headers["Retry-After"] == "2"
    assert set(json.loads(throttled.body)) == {"name", "message"}
    clock.now = 2.0  # one token refilled
    assert [post(), post()] == [200, 429]

    query = "key=k&cx=c&q=hotel"
    assert limited.handle("GET", "/customsearch/v1", query).status == 200
    answer = limited.handle("GET", "/customsearch/v1", query)
    error = json.loads(answer.body)["error"]
    assert (answer.status, error["code"], error["status"]) == (429, 429, "RESOURCE_EXHAUSTED")
    assert int(answer.headers["Retry-After"]) >= 1
    assert limited.handle("GET", "/cc-index/collinfo.json").status == 200
    answer = limited.handle("GET", f"/cc-index/{COLLECTION}-index", "url=target.com")
    assert answer.status == 429 and "message" in json.loads(answer.body)
    path = f"/cc-data/projects/hyperlinkgraph/{GRAPH}/host/{GRAPH}-host-edges.txt.gz"
    assert limited.handle("GET", path).status == 200
    answer = limited.handle("GET", path)
    assert answer.status == 429 and b"<Code>SlowDown</Code>" in answer.body


def test_brave_429_carries_its_rate_limit_headers_and_retry_after(index: EngineIndex) -> None:
    clock = FakeClock()
    limited = SearchApi(index, ApiConfig(rate_limit=True), clock=clock)  # Brave's 1 a second

    def get() -> tuple[int, dict[str, str], dict]:
        answer = limited.handle(
            "GET", "/res/v1/web/search", "q=hotel", headers={"x-subscription-token": "t"}
        )
        return answer.status, answer.headers, json.loads(answer.body)

    status, headers, _ = get()
    assert status == 200 and headers["X-RateLimit-Limit"] == "1, 2000"
    assert headers["X-RateLimit-Policy"] == "1;w=1, 2000;w=2592000"
    assert headers["X-RateLimit-Remaining"].startswith("0, ")
    status, headers, body = get()
    assert status == 429 and body["error"]["code"] == "RATE_LIMITED"
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Reset"].startswith("1, ")
    clock.now = 1.0
    assert get()[0] == 200


def test_no_rate_limit_by_default(api: SearchApi) -> None:
    statuses = {api.handle("GET", "/cc-index/collinfo.json").status for _ in range(50)}
    assert statuses == {200}


# --- through the server --------------------------------------------------------------------------


def test_sandbox_passes_the_body_to_the_api(tmp_path: Path, engine_dir: Path) -> None:
    config = tmp_path / "api.toml"
    config.write_text(f'[api]\nengine_dirs = ["{engine_dir}"]\nbacklink_coverage = 1.0\n')
    sandbox_config = SandboxConfig()
    sandbox_config.add_file(config)
    sandbox = Sandbox(sandbox_config)
    body = json.dumps({"target": "blog.target.com", "target_scope": "subdomain"}).encode()
    answer = sandbox.handle("POST", f"http://{API_HOST}/moz/v2/links", "", body)
    assert answer.status == 200
    assert json.loads(answer.body)["results"][0]["source"]["page"] == "www.travel.hk/"


def test_moz_request_over_a_socket(tmp_path: Path, engine_dir: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body>hello</body></html>")
    config = tmp_path / "sandbox.toml"
    config.write_text(
        textwrap.dedent(
            f"""
            [[mount]]
            host = "www.site.example"
            dirs = ["{site}"]

            [api]
            engine_dirs = ["{engine_dir}"]
            backlink_coverage = 1.0
            backlink_noise = 0.0
            """
        )
    )
    with SandboxServer(["--config", str(config)]) as server:
        host, port = server.address.split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        request = {"target": "www.target.com/en/a.html", "limit": 50}
        connection.request(
            "POST",
            f"http://{API_HOST}/moz/v2/links",
            body=json.dumps(request),
            headers={"Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        body = json.loads(answer.read())
        assert answer.status == 200 and len(body["results"]) == 50 and body["next_token"]
        brave = f"http://{API_HOST}/res/v1/web/search?q=hotel"
        for headers, expected in (({}, 422), ({"X-Subscription-Token": "t"}, 200)):
            connection.request("GET", brave, headers=headers)  # the server passes headers on
            answer = connection.getresponse()
            answer.read()
            assert answer.status == expected
        connection.request("POST", "http://www.site.example/", body=b"x=1")
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 405  # ordinary hosts still take GET and HEAD only
        connection.close()
