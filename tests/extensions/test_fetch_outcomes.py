"""A crawl that fetched nothing says so: exit status 3 and one line that counts why by kind
(issue 52: with no network it ended "finished", status 0, "2 sites judged")."""

from __future__ import annotations

import json
import subprocess

from scrapy import Request
from scrapy.http import Response
from scrapy.utils.test import get_crawler

from bilingual_spider.commands.crawl import NOTHING_FETCHED
from bilingual_spider.extensions.fetch_outcomes import FetchOutcomes, nothing_fetched
from bilingual_spider.sandbox.process import crawl_env, spider_command
from bilingual_spider.search.calls import SEARCH_CALL
from tests.waiting import CRAWL_SECONDS


def test_a_crawl_whose_seeds_all_failed_exits_non_zero_with_one_line_by_kind(tmp_path) -> None:
    # .invalid never resolves (RFC 6761), with a network or without; 10.x is private
    seeds = "http://www.no-such-site.invalid/,http://10.1.2.3/"
    command = spider_command("detect", {}, {"seeds": seeds, "out": tmp_path / "run"})
    done = subprocess.run(
        command, capture_output=True, text=True, env=crawl_env(), timeout=CRAWL_SECONDS, check=False
    )
    assert done.returncode == NOTHING_FETCHED, done.stderr[-2000:]
    said = [line for line in done.stderr.splitlines() if line.startswith("scrapy crawl")]
    assert said == [
        "scrapy crawl detect: fetched nothing: 1 requests whose host name did not resolve "
        "(DNS: no network?); 1 refused by network safety (private 1)"
    ]
    assert "0 pages fetched, 0 sites judged (2 could not be)" in done.stdout.splitlines()
    stats = json.loads((tmp_path / "run" / "stats.json").read_text())
    assert stats["fetch/nothing"] == 1 and "fetch/pages" not in stats
    assert stats["fetch/failed/dns"] == 1 and "safety/refused/unresolved" not in stats
    verdicts = (tmp_path / "run" / "verdicts.jsonl").read_text()
    assert "could not resolve www.no-such-site.invalid (DNS)" in verdicts


def test_pages_and_http_errors_are_counted_search_calls_and_robots_txt_are_not() -> None:
    crawler = get_crawler()
    outcomes = FetchOutcomes(crawler)
    crawler.stats.open_spider()
    for url, status, meta in (
        ("http://a.example/robots.txt", 200, {}),
        ("http://api.example/search?q=x", 200, {SEARCH_CALL: object()}),
        ("http://a.example/", 404, {}),
        ("http://a.example/x", 503, {}),
        ("http://a.example/y", 503, {}),
    ):
        request = Request(url, meta=meta)
        outcomes.response_received(Response(url, status=status, request=request), request)
    stats = crawler.stats.get_stats()
    assert "fetch/pages" not in stats
    assert nothing_fetched(stats) == "fetched nothing: 3 HTTP errors (404 1, 503 2)"
    outcomes.spider_closed("finished")
    assert crawler.stats.get_value("fetch/nothing") == 1
    request = Request("http://a.example/z")
    outcomes.response_received(Response(request.url, status=200, request=request), request)
    assert crawler.stats.get_value("fetch/pages") == 1
    assert nothing_fetched(crawler.stats.get_stats()) is None


def test_download_errors_are_a_kind_and_a_refusal_is_not_one() -> None:
    stats = {
        "downloader/exception_type_count/twisted.internet.error.ConnectionRefusedError": 2,
        "downloader/exception_type_count/scrapy.exceptions.IgnoreRequest": 4,
        "safety/refused/loopback": 4,
    }
    assert nothing_fetched(stats) == (
        "fetched nothing: 4 refused by network safety (loopback 4); "
        "2 download errors (ConnectionRefusedError 2)"
    )
    assert nothing_fetched({}) is None  # nothing asked for (a resumed crawl that was done)
