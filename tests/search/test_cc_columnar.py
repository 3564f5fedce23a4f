"""The columnar-index adapter against the sandbox's Parquet files, without Scrapy: its ``fetch``
calls the fake in this process (the crawl tests send them through Scrapy). Answers are checked
against the engine's captures (the CDX fake's keys); what was fetched against the files' size."""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.search_api import SearchApi
from bilingual_spider.sandbox.search_api_http import ranged_answer
from bilingual_spider.search.adapter import HttpAnswer
from bilingual_spider.search.cc_columnar import SANDBOX_URL, CcColumnar, plan
from bilingual_spider.search.values import (
    AnswerError,
    HttpCall,
    QueryRefused,
    SearchPage,
    SearchQuery,
)
from tests.sandbox.test_search_api import COLLECTION, LINKERS, TARGET, make_api, small_engine

LINKER_PAGES = {f"http://www.linker{i}.org/" for i in range(LINKERS)}
FILES, ROWS = 4, 10


class FakeService:
    """Sends an adapter's calls to the fake API; remembers the calls and the bytes they got."""

    def __init__(self, api: SearchApi) -> None:
        self.api = api
        self.calls: list[HttpCall] = []
        self.bytes = 0
        self.replace: dict[str, bytes] = {}

    async def fetch(self, call: HttpCall) -> HttpAnswer:
        self.calls.append(call)
        path = urlsplit(call.url).path
        headers = {name.lower(): value for name, value in call.headers}
        if path in self.replace:
            answer = ranged_answer(self.replace[path], "application/octet-stream", headers["range"])
        else:
            answer = self.api.handle("GET", path, "", b"", headers)
        if answer.status not in (200, 206):
            raise RuntimeError(f"HTTP {answer.status}")  # the service's SearchFailed
        self.bytes += len(answer.body)
        lower = {name.lower(): value for name, value in answer.headers.items()}
        return HttpAnswer(answer.status, answer.body, lower)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> SearchApi:
    engine = small_engine(tmp_path_factory.mktemp("engine"))
    return make_api(EngineIndex.load([engine]), columnar_files=FILES, columnar_row_group_rows=ROWS)


def warc_size(api: SearchApi) -> int:
    return sum(len(b) for p, b in api.columnar.files().items() if "subset=warc/" in p)


def prepared(api: SearchApi, cache: Path, **options: object) -> tuple[CcColumnar, FakeService]:
    adapter = CcColumnar(cache, SANDBOX_URL, COLLECTION, **options)  # type: ignore[arg-type]
    service = FakeService(api)
    asyncio.run(adapter.prepare_fetching(service.fetch))
    return adapter, service


def ask(adapter: CcColumnar, service: FakeService, query: SearchQuery) -> list[SearchPage]:
    """Every page of an answer."""
    pages = [asyncio.run(adapter.answer_fetching(query, service.fetch))]
    while pages[-1].continuation is not None:
        following = adapter.answer_fetching(query, service.fetch, pages[-1].continuation)
        pages.append(asyncio.run(following))
    return pages


def urls(pages: list[SearchPage]) -> list[str]:
    return [link.url for page in pages for link in page.links]


def test_a_host_query_reads_only_the_row_groups_of_its_keys(api: SearchApi, tmp_path: Path):
    adapter, service = prepared(api, tmp_path)
    assert adapter.files is not None and len(adapter.files) == FILES
    assert service.calls[0].url.endswith(f"/crawl-data/{COLLECTION}/cc-index-table.paths.gz")
    assert all(dict(c.headers)["Range"] == "bytes=-65536" for c in service.calls[1:])
    groups = sum(f.metadata.num_row_groups for f in adapter.files)
    assert groups >= 12
    before, calls = service.bytes, len(service.calls)

    pages = ask(adapter, service, SearchQuery.url_index("www.target.com", "host"))
    low, high = api.cdx.key_range("www.target.com", "host")
    expected = {api.cdx.record(p)["url"] for p in range(low, high)}
    expected -= {"http://www.target.com/gone.html"}  # a 404: subset=crawldiagnostics
    assert sorted(urls(pages)) == sorted(expected)
    assert {link.url: link.status for link in pages[0].links}[TARGET] == 200
    counts = adapter.take_counts()
    assert counts["row_groups_read"] <= 2
    assert counts["row_groups_skipped"] >= groups - 2
    fetched = service.bytes - before
    assert fetched * 10 < warc_size(api)  # the pruning: a small part of the files
    assert len(service.calls) - calls == counts["row_groups_read"]  # one range per row group


def test_domain_answers_page_through_row_groups_and_files(api: SearchApi, tmp_path: Path):
    adapter, service = prepared(api, tmp_path, page_size=50)
    pages = ask(adapter, service, SearchQuery.url_index("org", "domain"))
    assert [len(p.links) for p in pages] == [50, 50, 20]
    assert sorted(urls(pages)) == sorted(LINKER_PAGES)  # every capture once, in key order
    keys = [api.cdx.keys[api.cdx.key_range(u, "exact")[0]] for u in urls(pages)]
    assert keys == sorted(keys)
    one = asyncio.run(adapter.answer_fetching(SearchQuery.url_index("org", "domain", limit=3)
                                              , service.fetch))  # fmt: skip
    assert len(one.links) == 3 and one.continuation is None  # a limited lookup: one page


def test_search_operators_and_language_filter(api: SearchApi, tmp_path: Path):
    adapter, service = prepared(api, tmp_path)

    def search(text: str) -> list[str]:
        return sorted(urls(ask(adapter, service, SearchQuery.search(text))))

    assert search("inurl:fr site:target.com") == [
        "http://www.target.com/fr/a.html",
        "http://www.target.com/list.php?lang=fr",
    ]
    assert search("site:target.com filetype:pdf") == ["http://www.target.com/doc.pdf"]
    assert search("site:www.target.com/en/") == [TARGET]
    assert search("site:target.com language:fr") == search("site:target.com language:fra")
    assert search("site:target.com language:fra") == [
        "http://www.target.com/fr/a.html",
        "http://www.target.com/list.php?lang=fr",
    ]
    assert search("site:blog.target.com") == ["https://blog.target.com/x.html"]
    assert search("site:hk language:zh-Hant") == ["http://www.travel.hk/"]
    assert search("site:target.com filetype:html language:eng") == [
        "http://www.target.com/",
        TARGET,
        "https://blog.target.com/x.html",
    ]


@pytest.mark.parametrize(
    "text", ["inurl:en", "hotel site:target.com", "-site:a.com site:b.com", "site:a.com site:b.com"]
)
def test_queries_without_one_site_are_refused(text: str) -> None:
    with pytest.raises(QueryRefused):
        plan(SearchQuery.search(text))


def test_footers_are_kept_on_disk(api: SearchApi, tmp_path: Path):
    prepared(api, tmp_path)
    adapter, service = prepared(api, tmp_path)  # the same cache directory
    assert len(service.calls) == 1  # the listing only
    answer = asyncio.run(adapter.answer_fetching(SearchQuery.url_index(TARGET), service.fetch))
    assert [link.url for link in answer.links] == [TARGET]


def test_a_body_that_is_not_parquet_or_a_broken_footer_is_an_answer_error(
    api: SearchApi, tmp_path: Path
):
    path = sorted(p for p in api.columnar.files() if "subset=warc/" in p)[0]
    body = api.columnar.files()[path]
    adapter = CcColumnar(tmp_path / "a", SANDBOX_URL, COLLECTION)
    service = FakeService(api)
    service.replace[f"/cc-data/{path}"] = b"<html>not found</html>" * 100
    with pytest.raises(AnswerError, match="not a Parquet file"):
        asyncio.run(adapter.prepare_fetching(service.fetch))
    (length,) = struct.unpack("<I", body[-8:-4])
    broken = bytearray(body)
    broken[-8 - length : -8 - length + 40] = b"\xff" * 40  # the Thrift footer's start
    service.replace[f"/cc-data/{path}"] = bytes(broken)
    adapter = CcColumnar(tmp_path / "b", SANDBOX_URL, COLLECTION)
    with pytest.raises(AnswerError, match="footer"):
        asyncio.run(adapter.prepare_fetching(service.fetch))
    assert not (tmp_path / "b" / COLLECTION).exists() or not any(
        (tmp_path / "b" / COLLECTION).glob(path.rsplit("/", 1)[-1] + "*")
    )  # nothing broken kept


def test_ranges_as_s3_answers_them() -> None:
    body = bytes(range(100))
    whole = ranged_answer(body, "x", None)
    assert (whole.status, whole.body) == (200, body)
    part = ranged_answer(body, "x", "bytes=10-19")
    assert (part.status, part.body, part.headers["Content-Range"]) == (
        206,
        body[10:20],
        "bytes 10-19/100",
    )
    assert ranged_answer(body, "x", "bytes=-5").body == body[95:]
    assert ranged_answer(body, "x", "bytes=-500").headers["Content-Range"] == "bytes 0-99/100"
    assert ranged_answer(body, "x", "bytes=90-").body == body[90:]
    assert ranged_answer(body, "x", "bytes=95-200").body == body[95:]
    past = ranged_answer(body, "x", "bytes=100-")
    assert (past.status, past.headers["Content-Range"]) == (416, "bytes */100")
    assert ranged_answer(body, "x", "bytes=0-1,5-6").status == 200  # several ranges: the file
    assert ranged_answer(body, "x", "lines=1-2").status == 200


def test_a_range_answer_that_is_not_the_range_asked_is_an_answer_error(
    api: SearchApi, tmp_path: Path
):
    adapter, service = prepared(api, tmp_path)

    async def shifted(call: HttpCall) -> HttpAnswer:
        answer = await service.fetch(call)
        start, _, rest = answer.headers["content-range"].partition("-")
        end, _, size = rest.partition("/")
        moved = f"bytes {int(start.split()[1]) + 1}-{int(end) + 1}/{size}"
        return HttpAnswer(206, answer.body, {"content-range": moved})

    with pytest.raises(AnswerError, match="asked bytes"):
        asyncio.run(adapter.answer_fetching(SearchQuery.url_index(TARGET), shifted))
