"""Real Scrapy crawls (subprocesses) of the small sandbox web: outcomes, not log lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.waiting import CRAWL_SECONDS


def crawl(
    sandbox: SandboxServer, tmp_path: Path, seeds: str, status: int = 0, **settings: object
) -> tuple[list[dict], dict]:
    """Run the forward spider through the sandbox; return its page records and final stats
    (``status``: the exit status it must end with; 3 when it fetched no page)."""
    output, stats_file = tmp_path / "pages.jsonl", tmp_path / "stats.json"
    result = run_spider(
        "forward",
        settings={
            "BILINGUAL_SANDBOX_PROXY": sandbox.proxy_url,
            "DOWNLOAD_DELAY": 0,
            "BILINGUAL_STATS_FILE": stats_file,
            "LOG_LEVEL": "INFO",
            **settings,
        },
        arguments={"seeds": seeds},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == status, result.stderr[-3000:]
    records = [json.loads(line) for line in output.read_text().splitlines() if line]
    return records, json.loads(stats_file.read_text())


def test_forward_crawl_of_a_web_with_traps(small_sandbox, tmp_path: Path) -> None:
    records, stats = crawl(
        small_sandbox,
        tmp_path,
        "http://www.bilingual.example/",
        DEPTH_LIMIT=4,
        DOWNLOAD_MAXSIZE=1_000_000,
    )
    urls = {r["url"] for r in records}
    by_url = {r["url"]: r for r in records}
    # the bilingual site: both languages, with their declared languages and alternates
    for lang, other in (("en", "fr"), ("fr", "en")):
        page = by_url[f"http://www.bilingual.example/{lang}/p1.html"]
        assert page["declared_lang"] == lang
        assert page["alternates"] == {other: f"http://www.bilingual.example/{other}/p1.html"}
    # the out-of-site link was followed
    assert "http://mono.example/" in urls
    # robots.txt: /private/ is disallowed, so it was never fetched
    assert not any("/private/" in u for u in urls)
    assert stats["robotstxt/forbidden"] >= 1
    # the endless calendar is cut by the depth limit, the huge page by the size limit
    assert max(r["depth"] for r in records) <= 4
    months = {tuple(u.split("/")[4:6]) for u in urls if "/calendar/" in u}
    # mono.example is at depth 1, January 2020 at 2, each step one month further either way
    assert months == {
        ("2019", "11"),
        ("2019", "12"),
        ("2020", "01"),
        ("2020", "02"),
        ("2020", "03"),
    }
    assert "http://mono.example/huge/page.html" not in urls
    assert not any("/loop/" in u for u in urls)
    assert stats["finish_reason"] == "finished"
    assert stats["pages/seed"] == 1


def test_refused_targets_are_refused_and_never_reach_the_network(
    small_sandbox, tmp_path: Path
) -> None:
    seeds = ",".join(
        [
            "http://www.bilingual.example/en/p5.html",
            "http://127.0.0.1:6379/",
            "http://localhost:8080/",
            "http://10.1.2.3/",
            "http://169.254.169.254/latest/meta-data/",
            "http://[::1]/",
            "ftp://ftp.example.org/",
            "file:///etc/passwd",
            "https://www.bilingual.example/",
        ]
    )
    before = small_sandbox.stats()["requests"]
    records, stats = crawl(small_sandbox, tmp_path, seeds, DEPTH_LIMIT=1)
    after = small_sandbox.stats()["requests"]
    assert [r["url"] for r in records if r["role"] == "seed"] == [
        "http://www.bilingual.example/en/p5.html"
    ]
    assert stats["safety/refused/loopback"] == 3
    assert stats["safety/refused/private"] == 1
    assert stats["safety/refused/link_local"] == 1
    assert stats["safety/refused/scheme"] == 2
    assert stats["safety/refused/sandbox_https"] == 1
    new_hosts = {h for h in after if after[h] != before.get(h, 0)}
    assert new_hosts <= {"www.bilingual.example", "sandbox.internal"}


def test_allow_list_admits_a_private_network(small_sandbox, tmp_path: Path) -> None:
    _, stats = crawl(
        small_sandbox,
        tmp_path,
        "http://10.1.2.3/",
        status=3,  # its one page is a 404: it fetched nothing, and says so
        BILINGUAL_ALLOWED_NETWORKS="10.1.0.0/16",
        ROBOTSTXT_OBEY=False,
        RETRY_TIMES=0,
    )
    assert not any(k.startswith("safety/refused") for k in stats)
    # admitted: it went to the sandbox, which has no site at that address
    assert stats["downloader/response_status_count/404"] == 1
    assert stats["fetch/failed/http_404"] == stats["fetch/nothing"] == 1


def test_redis_scheduler_crawls_the_same_pages(small_sandbox, tmp_path: Path, redis_prefix) -> None:
    import redis

    from tests.conftest import REDIS_URL

    seeds = "http://www.bilingual.example/"
    # Which pages a depth limit lets in depends on the depth a page is first seen at, so on the
    # order of the responses: one request at a time, breadth first, sees each page first at its
    # least depth in both schedulers (several in flight once let a page in at depth 3 in one
    # crawl that the other had first seen at depth 4).
    breadth_first = {"DEPTH_LIMIT": 3, "DEPTH_PRIORITY": 1, "CONCURRENT_REQUESTS": 1}
    embedded, _ = crawl(small_sandbox, tmp_path / "embedded", seeds, **breadth_first)
    shared, stats = crawl(
        small_sandbox,
        tmp_path / "redis",
        seeds,
        **breadth_first,
        REDIS_URL=REDIS_URL,
        BILINGUAL_REDIS_KEY_PREFIX=redis_prefix,
    )
    assert {r["url"] for r in shared} == {r["url"] for r in embedded}
    assert stats["scheduler/enqueued/frontier"] == stats["scheduler/dequeued/frontier"] > 0
    client = redis.Redis.from_url(REDIS_URL)
    seen = client.scard(f"{redis_prefix}:forward:seen")
    client.close()
    assert seen == stats["scheduler/enqueued/frontier"]


@pytest.mark.parametrize("seeds", ["not a url at all", "http://"])
def test_bad_seeds_stop_the_crawl_with_a_clear_error(small_sandbox, tmp_path, seeds) -> None:
    result = run_spider(
        "forward",
        settings={"BILINGUAL_SANDBOX_PROXY": small_sandbox.proxy_url},
        arguments={"seeds": seeds},
        output=tmp_path / "x.jsonl",
        timeout=CRAWL_SECONDS,
    )
    assert "no seeds in seeds argument (1 bad line(s)" in result.stderr
    assert not (tmp_path / "x.jsonl").exists() or not (tmp_path / "x.jsonl").read_text()
