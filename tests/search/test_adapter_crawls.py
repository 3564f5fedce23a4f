"""Each adapter against the sandbox endpoint that speaks its service's format, through real
Scrapy crawls (``search_spider.py`` in a subprocess): answers, pagination, empty answers, the
cache, 429 with Retry-After and 5xx back-off, failures asked again later or given up, the host
graph downloaded once and indexed, the crawl's own link graph, and keys that never reach a log.

Assertions are on outcomes (the answer pages the spider got, the stats, what the server saw),
checked against the small engine of ``tests/sandbox/test_search_api.py``.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, python_command
from bilingual_spider.search.values import SearchQuery
from tests.sandbox.test_search_api import LINKERS, TARGET, small_engine
from tests.waiting import CRAWL_SECONDS

SPIDER = Path(__file__).with_name("search_spider.py")
API = "api.sandbox.internal"
SECRET_KEY = "AIzaTEST-s3cr3t-key-0123456789"
LINKER_PAGES = {f"http://www.linker{i}.org/" for i in range(LINKERS)}


@pytest.fixture(scope="module")
def engine_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_engine(tmp_path_factory.mktemp("search-engine"))


def api_config(directory: Path, engine_dir: Path, extra: str = "") -> Path:
    path = directory / "api.toml"
    path.write_text(
        textwrap.dedent(
            f"""
            [api]
            engine_dirs = ["{engine_dir}"]
            backlink_coverage = 1.0
            backlink_noise = 0.0
            cdx_block_lines = 10
            cdx_page_size = 2
            """
        )
        + textwrap.dedent(extra)
    )
    return path


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, engine_dir: Path, small_web_config: Path
) -> Iterator[SandboxServer]:
    """The API without rate limits, and the small web (for the crawl-graph test)."""
    config = api_config(tmp_path_factory.mktemp("api"), engine_dir)
    with SandboxServer(["--config", str(small_web_config), "--config", str(config)]) as server:
        yield server


@pytest.fixture(scope="module")
def limited_sandbox(
    tmp_path_factory: pytest.TempPathFactory, engine_dir: Path
) -> Iterator[SandboxServer]:
    """The API with token buckets: Google 1/s (429), Common Crawl 1/s answering 503."""
    extra = """
        rate_limit = true
        google_burst = 1
        google_per_second = 1.0
        cdx_burst = 1
        cdx_per_second = 1.0
        commoncrawl_throttle_status = 503
        """
    config = api_config(tmp_path_factory.mktemp("limited"), engine_dir, extra)
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def query(kind: str, target: str, scope: str = "", label: str = "", **spec: Any) -> dict:
    values = {"kind": kind, "target": target, "scope": scope}
    for name in ("pages_only", "limit"):
        if name in spec:
            values[name] = spec.pop(name)
    SearchQuery.from_dict(values)  # a valid query
    return {"query": values, "label": label or target, **spec}


def crawl(
    server: SandboxServer,
    tmp_path: Path,
    rounds: list[list[dict]],
    pages: tuple[str, ...] = (),
    **settings: object,
) -> tuple[list[dict], dict, str]:
    """Run the test spider: (answer pages in arrival order, final stats, the log)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    rounds_file, output = tmp_path / "rounds.json", tmp_path / "answers.jsonl"
    stats_file = tmp_path / "stats.json"
    rounds_file.write_text(json.dumps(rounds))
    values = {
        "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
        "DOWNLOAD_DELAY": 0,
        "BILINGUAL_STATS_FILE": stats_file,
        "BILINGUAL_SEARCH_CACHE_DIR": tmp_path / "cache",
        "LOG_LEVEL": "DEBUG",
        **settings,
    }
    command = [*python_command(), "-m", "scrapy", "runspider", str(SPIDER), "-O", str(output)]
    for key, value in values.items():
        text = json.dumps(value) if isinstance(value, (dict, list)) else str(value)
        command += ["-s", f"{key}={text}"]
    command += ["-a", f"rounds={rounds_file}", "-a", f"pages={','.join(pages)}"]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=CRAWL_SECONDS, env=crawl_env(), check=False
    )
    assert result.returncode == 0, result.stderr[-3000:]
    items = [json.loads(line) for line in output.read_text().splitlines() if line]
    return [i for i in items if "label" in i], json.loads(stats_file.read_text()), result.stderr


def by_label(answers: list[dict], label: str) -> list[dict]:
    return sorted((a for a in answers if a["label"] == label), key=lambda a: a["page_number"])


def urls(pages: list[dict]) -> list[str]:
    return [link["url"] for page in pages for link in page["links"]]


def api_statuses(server: SandboxServer) -> dict[int, int]:
    counts = server.stats()["statuses"].get(API, {})
    return {int(status): count for status, count in counts.items()}


def delta(before: dict[int, int], after: dict[int, int]) -> dict[int, int]:
    return {s: after[s] - before.get(s, 0) for s in after if after[s] != before.get(s, 0)}


# --- Moz Links API v2 ------------------------------------------------------------------------


def test_moz_backlinks_pages_empty_answer_and_cache(sandbox, tmp_path: Path) -> None:
    page_query = query("backlinks", TARGET, "page", "a", max_pages=5)
    rounds = [
        [page_query, {**page_query, "label": "a twin"}, query("backlinks", "www.nowhere.example/",
                                                              "page", "none")],
        [{**page_query, "label": "a again"}],
    ]  # fmt: skip
    answers, stats, _ = crawl(sandbox, tmp_path, rounds, BILINGUAL_SEARCH_BACKLINKS="moz")
    pages = by_label(answers, "a")
    assert [len(p["links"]) for p in pages] == [50, 50, 20]  # next_token pagination
    assert [p["continuation"] is None for p in pages] == [False, False, True]
    assert sorted(urls(pages)) == sorted(LINKER_PAGES)  # every external backlink, no repeats
    first = pages[0]["links"][0]
    assert first["url"] == "http://www.linker0.org/"  # the most cited linker ranks first
    assert (first["anchor"], first["target"]) == ("hotel guide 0", TARGET)
    assert first["title"] == "Linker 0 directory"
    (empty,) = by_label(answers, "none")
    assert empty["links"] == [] and empty["error"] is None and empty["continuation"] is None
    # the twin asked while the first was out, and the later round, were answered from the cache
    assert urls(by_label(answers, "a twin")) == urls(by_label(answers, "a again")) == urls(pages)
    assert all(p["cached"] for p in by_label(answers, "a again"))
    assert stats["search/moz/requests"] == 4  # 3 pages + the empty answer, nothing asked twice
    assert stats["search/moz/cached"] == 6
    assert stats["search/moz/found"] == 3 * (LINKERS) and stats["search/moz/empty"] == 1


# --- Google Custom Search --------------------------------------------------------------------


def test_google_search_operators_pages_and_empty(sandbox, tmp_path: Path) -> None:
    rounds = [
        [
            query("search", "directory", label="directory", max_pages=2),
            query("search", "inurl:lang=fr", label="inurl"),
            query("search", "hotel site:target.com -site:blog.target.com -liste", label="site"),
            query("search", "filetype:pdf", label="pdf"),
            query("search", "xylophone", label="none"),
        ]
    ]
    answers, stats, _ = crawl(sandbox, tmp_path, rounds, BILINGUAL_SEARCH_WEB="google_cse")
    directory = by_label(answers, "directory")
    assert [len(p["links"]) for p in directory] == [10, 10]
    assert [p["continuation"] for p in directory] == ["11", "21"]  # max_pages stops at 2
    assert directory[0]["total"] == LINKERS
    assert len(set(urls(directory))) == 20 and set(urls(directory)) <= LINKER_PAGES
    assert urls(by_label(answers, "inurl")) == ["http://www.target.com/list.php?lang=fr"]
    assert urls(by_label(answers, "site")) == [TARGET]
    (pdf,) = by_label(answers, "pdf")
    assert pdf["links"][0]["mime"] == "application/pdf"
    (none,) = by_label(answers, "none")
    assert none["links"] == [] and none["total"] == 0 and none["error"] is None
    assert stats["search/google_cse/requests"] == 6


def test_brave_search_pages_inurl_filtered_here_and_empty(sandbox, tmp_path: Path) -> None:
    rounds = [
        [
            query("search", "directory", label="directory", max_pages=2),
            query("search", "inurl:fr site:target.com", label="inurl"),
            query("search", "site:target.com filetype:pdf", label="pdf"),
            query("search", "xylophone", label="none"),
        ]
    ]
    answers, stats, log = crawl(sandbox, tmp_path, rounds)  # brave: the default web search
    directory = by_label(answers, "directory")
    assert [len(p["links"]) for p in directory] == [20, 20]
    assert [p["continuation"] for p in directory] == ["1", "2"]  # max_pages stops at 2
    assert len(set(urls(directory))) == 40 and set(urls(directory)) <= LINKER_PAGES
    assert urls(by_label(answers, "inurl")) == [
        "http://www.target.com/fr/a.html",
        "http://www.target.com/list.php?lang=fr",
    ]
    assert urls(by_label(answers, "pdf")) == ["http://www.target.com/doc.pdf"]
    (none,) = by_label(answers, "none")
    assert none["links"] == [] and none["error"] is None
    assert stats["search/brave/requests"] == 5 and "search/google_cse/queries" not in stats
    assert "closed to new customers" not in log


# --- Common Crawl index ----------------------------------------------------------------------


def test_cdx_pagination_empty_404_limit_and_filters(sandbox, tmp_path: Path) -> None:
    rounds = [
        [
            query("url_index", "org", "domain", "org", max_pages=10),
            query("url_index", "nothing.example", "host", "none"),
            query("url_index", "target.com", "domain", "html", pages_only=True, max_pages=10),
            query("url_index", "www.target.com", "host", "three", limit=3),
        ]
    ]
    answers, stats, _ = crawl(sandbox, tmp_path, rounds)
    org = by_label(answers, "org")
    # 10 lines a block, 2 blocks a page: the .org captures span 7 pages (see the sandbox test)
    assert [len(p["links"]) for p in org] == [11, 20, 20, 20, 20, 20, 9]
    assert [p["page_number"] for p in org] == list(range(1, 8))
    assert sorted(urls(org)) == sorted(LINKER_PAGES)
    assert {link["languages"][0] for p in org for link in p["links"]} == {"eng"}
    (none,) = by_label(answers, "none")  # 404 "No Captures found": an empty answer
    assert none["links"] == [] and none["error"] is None
    html = urls(by_label(answers, "html"))
    assert (
        "http://www.target.com/gone.html" not in html
        and "http://www.target.com/doc.pdf" not in html
    )
    assert TARGET in html and "https://blog.target.com/x.html" in html
    (three,) = by_label(answers, "three")
    assert len(three["links"]) == 3 and three["continuation"] is None
    assert "search/cc_index/failed" not in stats
    # collinfo.json + (preflight + 7) + (preflight) + (preflight + 1) + 1
    assert stats["search/cc_index/requests"] == 1 + 8 + 1 + 2 + 1


# --- Common Crawl host graph -----------------------------------------------------------------


def test_host_graph_downloaded_once_indexed_and_resolved_to_pages(sandbox, tmp_path: Path) -> None:
    rounds = [
        [
            query("backlinks", "www.target.com", "host", "target", adapter="cc_hostgraph",
                  max_pages=20),
            query("backlinks", "https://blog.target.com/x.html", "page", "blog",
                  adapter="cc_hostgraph"),
        ]
    ]  # fmt: skip
    answers, stats, _ = crawl(sandbox, tmp_path, rounds)
    target = by_label(answers, "target")
    assert [len(p["links"]) for p in target] == [10] * (LINKERS // 10)
    found = urls(target)
    assert sorted(found) == sorted(LINKER_PAGES)  # each referring host's page from the index
    assert found[-1] == "http://www.linker0.org/"  # it links to one host, the others to two
    assert all(link["via_host"] and link["level"] == "page" for p in target for link in p["links"])
    (blog,) = by_label(answers, "blog")
    assert urls([blog]) == ["http://www.travel.hk/"]  # www.othertarget.com links to travel.hk
    assert stats["search/cc_hostgraph/requests"] == 2  # the vertex and the edge file, once
    assert (
        tmp_path / "cache" / "hostgraph-sandbox" / "cc-main-2024-aug-sep-oct" / "index.json"
    ).is_file()

    # a second crawl with the same cache directory finds the index on disk; "home" pages
    again, stats, _ = crawl(sandbox, tmp_path, rounds[:1], BILINGUAL_HOSTGRAPH_PAGES="home")
    assert "search/cc_hostgraph/requests" not in stats and "search/cc_index/requests" not in stats
    assert sorted(urls(by_label(again, "target"))) == sorted(LINKER_PAGES)
    assert {link["level"] for p in again for link in p["links"]} == {"host"}


def test_host_graph_that_cannot_be_fetched_ends_in_an_error_page(sandbox, tmp_path: Path) -> None:
    rounds = [[query("backlinks", "www.target.com", "host", "t", adapter="cc_hostgraph")]]
    answers, stats, log = crawl(
        sandbox,
        tmp_path,
        rounds,
        BILINGUAL_HOSTGRAPH_NAME="cc-main-1999-jan",
        BILINGUAL_SEARCH_LATER_DELAY=0.2,
        BILINGUAL_SEARCH_LATER_ROUNDS=1,
    )
    (page,) = answers
    assert page["links"] == [] and "404" in page["error"]
    assert stats["search/cc_hostgraph/failed"] == 2  # the first try and the later one
    assert stats["search/cc_hostgraph/later"] == 1 and stats["search/cc_hostgraph/gave_up"] == 1
    assert "search adapter cc_hostgraph given up" in log


# --- the embedded default: the crawl's own link graph (+ a host graph on disk) ----------------


def test_embedded_backlinks_from_the_crawl_graph_and_a_host_graph_on_disk(
    sandbox, tmp_path: Path, engine_dir: Path
) -> None:
    from bilingual_spider.sandbox.engine_index import EngineIndex
    from bilingual_spider.sandbox.search_api_commoncrawl import HostGraph

    graph_dir = tmp_path / "graph"
    graph_dir.mkdir()
    for name, body in HostGraph(EngineIndex.load([engine_dir]), "g").files().items():
        (graph_dir / name).write_bytes(body)
    rounds = [
        [
            query("backlinks", "http://mono.example/", "page", "mono"),
            query("backlinks", "www.bilingual.example", "host", "bilingual"),
            query("backlinks", "http://www.target.com/", "page", "target", max_pages=5),
        ]
    ]
    pages = ("http://www.bilingual.example/", "http://mono.example/")
    answers, stats, _ = crawl(
        sandbox,
        tmp_path,
        rounds,
        pages,
        BILINGUAL_SEARCH_BACKLINKS="embedded",
        BILINGUAL_HOSTGRAPH_DIR=graph_dir,
        ROBOTSTXT_OBEY=False,
    )
    (mono,) = by_label(answers, "mono")
    assert [(x["url"], x["anchor"]) for x in mono["links"]] == [
        ("http://www.bilingual.example/", "partner")
    ]
    (bilingual,) = by_label(answers, "bilingual")
    assert [(x["url"], x["anchor"]) for x in bilingual["links"]] == [
        ("http://mono.example/", "a bilingual site")
    ]
    target = by_label(answers, "target")  # not in the crawl graph: the host graph's hosts
    assert sorted(urls(target)) == sorted(LINKER_PAGES)
    assert {link["level"] for p in target for link in p["links"]} == {"host"}
    assert stats["search/crawl_graph/pages"] == 2 and stats["search/crawl_graph/links"] == 2
    assert "search/embedded/requests" not in stats  # nothing went over the network


# --- rate limits, 429, 5xx, failures ---------------------------------------------------------


def test_429_backs_off_for_retry_after_and_every_query_is_answered(
    limited_sandbox, tmp_path: Path
) -> None:
    before = api_statuses(limited_sandbox)
    words = ("directory", "hotel", "guide", "linker")
    rounds = [[query("search", w, label=w, max_pages=1) for w in words]]
    started = time.monotonic()
    answers, stats, _ = crawl(limited_sandbox, tmp_path, rounds, BILINGUAL_SEARCH_WEB="google_cse")
    elapsed = time.monotonic() - started
    assert sorted(a["label"] for a in answers) == sorted(words)
    assert all(a["error"] is None and a["links"] for a in answers)
    seen = delta(before, api_statuses(limited_sandbox))
    assert seen[200] == 4
    # a token a second: the first call passes, the others are told "Retry-After: 1"; a client
    # that honours it gets at most one 429 per waiting call before its turn comes
    assert 1 <= seen.get(429, 0) <= 6
    assert stats["search/google_cse/throttled"] == seen[429]
    assert stats["search/google_cse/retried"] == seen[429]
    assert elapsed >= 3.0  # four calls at one a second


def test_brave_429_backs_off_and_its_key_never_reaches_the_log(
    limited_sandbox, tmp_path: Path
) -> None:
    before = api_statuses(limited_sandbox)
    words = ("directory", "hotel", "guide")
    rounds = [[query("search", w, label=w, max_pages=1) for w in words]]
    started = time.monotonic()
    answers, stats, log = crawl(
        limited_sandbox,
        tmp_path,
        rounds,
        BILINGUAL_BRAVE_KEY=SECRET_KEY,
        BILINGUAL_SEARCH_RATES={"brave": 0},  # no pacing of our own: the server's 429 paces
    )
    elapsed = time.monotonic() - started
    assert sorted(a["label"] for a in answers) == sorted(words)
    assert all(a["error"] is None and a["links"] for a in answers)
    seen = delta(before, api_statuses(limited_sandbox))
    assert seen[200] == 3 and seen.get(429, 0) >= 1  # no 422: the key reached the fake
    assert stats["search/brave/throttled"] == stats["search/brave/retried"] == seen[429]
    assert elapsed >= 2.0  # three calls at one a second
    assert "HTTP 429; again in" in log and "Crawled (200) <GET http://api" in log
    assert SECRET_KEY not in log and SECRET_KEY not in json.dumps(answers)


def test_503_from_common_crawl_backs_off(limited_sandbox, tmp_path: Path) -> None:
    hosts = [f"www.linker{i}.org" for i in range(3)]
    rounds = [[query("url_index", h, "host", h, limit=5) for h in hosts]]
    answers, stats, _ = crawl(
        limited_sandbox, tmp_path, rounds, BILINGUAL_CC_INDEX_COLLECTION="CC-MAIN-2024-33"
    )
    assert sorted(a["label"] for a in answers) == hosts
    assert all(urls([a]) == [f"http://{a['label']}/"] for a in answers)
    assert stats["downloader/response_status_count/503"] >= 1
    assert stats["search/cc_index/throttled"] == stats["downloader/response_status_count/503"]
    assert "search/cc_index/failed" not in stats


@contextmanager
def moz_limited(tmp_path: Path, engine_dir: Path, burst: int, per_second: float):
    """A sandbox of this test's own whose Moz API holds ``burst`` calls and refills at
    ``per_second``: its token bucket starts full, whatever the tests before did."""
    extra = f"""
        rate_limit = true
        moz_burst = {burst}
        moz_per_second = {per_second}
        """
    with SandboxServer(["--config", str(api_config(tmp_path, engine_dir, extra))]) as server:
        yield server


def test_own_rate_limit_keeps_under_the_server_limit(tmp_path: Path, engine_dir: Path) -> None:
    """Our pace (3 calls a second) under the server's (4 a second, 2 at once): spaced calls
    never see a 429. The bucket of 2 absorbs one pause of the machine that sends two calls
    together; without our pacing the six calls go out at once and three or more get a 429."""
    targets = [f"http://www.linker{i}.org/" for i in range(6)]
    rounds = [[query("backlinks", t, "page", t, max_pages=1) for t in targets]]
    with moz_limited(tmp_path, engine_dir, burst=2, per_second=4.0) as server:
        started = time.monotonic()
        answers, stats, _ = crawl(
            server,
            tmp_path,
            rounds,
            BILINGUAL_SEARCH_BACKLINKS="moz",
            BILINGUAL_SEARCH_RATES={"moz": 3},
        )
        elapsed = time.monotonic() - started
        seen = api_statuses(server)
    assert len(answers) == 6 and all(a["error"] is None for a in answers)
    assert seen == {200: 6}  # no 429 at all
    assert "search/moz/throttled" not in stats and stats["search/moz/delayed"] >= 1
    assert elapsed >= 5 / 3  # six calls, a third of a second apart (a lower bound)


def test_failed_query_is_asked_again_later(tmp_path: Path, engine_dir: Path) -> None:
    """With no retry, a 429 fails the call, and the query is asked again later until answered.
    The server takes one call a second: the first two calls (two in flight) meet a 429 unless
    the machine stalls a whole second between them; later rounds are plenty for all four."""
    targets = [f"http://www.linker{i}.org/" for i in range(10, 14)]
    rounds = [[query("backlinks", t, "page", t) for t in targets]]
    with moz_limited(tmp_path, engine_dir, burst=1, per_second=1.0) as server:
        answers, stats, _ = crawl(
            server,
            tmp_path,
            rounds,
            BILINGUAL_SEARCH_BACKLINKS="moz",
            BILINGUAL_SEARCH_RETRY_TIMES=0,  # any 429 fails the call at once
            BILINGUAL_SEARCH_LATER_DELAY=0.5,
            BILINGUAL_SEARCH_LATER_ROUNDS=100,
        )
    assert sorted(a["label"] for a in answers) == targets
    assert all(a["error"] is None for a in answers)  # nothing lost
    assert stats["search/moz/failed"] >= 1
    assert stats["search/moz/later"] == stats["search/moz/failed"]
    assert "search/moz/gave_up" not in stats


# --- keys never reach a log ------------------------------------------------------------------


def test_api_key_never_in_the_log_even_on_429_timeouts_and_giving_up(
    limited_sandbox, tmp_path: Path, engine_dir: Path
) -> None:
    words = ("directory", "hotel", "guide")
    rounds = [[query("search", w, label=w, max_pages=1) for w in words]]
    answers, stats, log = crawl(
        limited_sandbox,
        tmp_path / "throttled",
        rounds,
        BILINGUAL_GOOGLE_CSE_KEY=SECRET_KEY,
        BILINGUAL_SEARCH_WEB="google_cse",
    )
    assert all(a["error"] is None for a in answers)  # the fake answers 403 without a key
    assert stats["search/google_cse/throttled"] >= 1
    assert "HTTP 429; again in" in log  # the retry was logged ...
    assert "Crawled (200) <GET http://api.sandbox.internal/customsearch/v1?cx=" in log  # URLs too
    assert SECRET_KEY not in log

    slow = api_config(tmp_path, engine_dir, f'\n[hosts."{API}"]\nlatency_ms = 1500\n')
    with SandboxServer(["--config", str(slow)]) as server:
        answers, stats, log = crawl(
            server,
            tmp_path / "slow",
            [[query("search", "hotel", label="hotel")]],
            BILINGUAL_GOOGLE_CSE_KEY=SECRET_KEY,
            BILINGUAL_SEARCH_WEB="google_cse",
            DOWNLOAD_TIMEOUT=0.5,
            BILINGUAL_SEARCH_RETRY_TIMES=1,
            BILINGUAL_SEARCH_BACKOFF=0.1,
            BILINGUAL_SEARCH_LATER_ROUNDS=0,
        )
    (page,) = answers
    assert page["status"] == 599 and "took longer than" in page["error"]
    assert stats["search/google_cse/gave_up"] == 1
    assert "given up" in log and "[REDACTED]" in log  # the timeout message quoted the URL
    assert SECRET_KEY not in log and SECRET_KEY not in json.dumps(answers)
