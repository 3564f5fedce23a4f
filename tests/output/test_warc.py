"""WARC files: what is written reads back with warcio (records, headers, bytes), files roll over,
and a crawl's pages are in them as the crawler received them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from warcio.archiveiterator import ArchiveIterator

from bilingual_spider.output.warc import Exchange, WarcFiles
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.slug_sites import prepare
from tests.waiting import CRAWL_SECONDS

PAGE = "<html lang='fr'><body><p>Le musée ouvre tous les jours.</p></body></html>".encode()


def records(paths: list[Path]) -> list:
    found = []
    for path in paths:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                found.append(
                    (
                        record.rec_type,
                        record.rec_headers,
                        record.http_headers,
                        record.content_stream().read(),
                    )
                )
    return found


def test_an_exchange_reads_back_as_warcinfo_response_and_request(tmp_path: Path) -> None:
    exchange = Exchange(
        url="http://www.museum.example/fr/a-propos?x=1",
        status=200,
        reason="OK",
        response_headers=[
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Encoding", "gzip"),
            ("Content-Length", "17"),
            ("Set-Cookie", "a=1"),
            ("Set-Cookie", "b=2"),
        ],
        body=PAGE,
        request_headers=[("User-Agent", "bilingual_spider"), ("Accept-Language", "fr")],
        ip_address="127.0.0.1",
        payload_type="text/html",
        language="fr",
    )
    with WarcFiles(tmp_path) as files:
        files.write(exchange)
    [info, response, request] = records(files.paths)
    assert info[0] == "warcinfo" and response[0] == "response" and request[0] == "request"
    assert response[3] == PAGE  # the body's bytes, as given
    rec = response[1]
    assert rec.get_header("WARC-Target-URI") == exchange.url
    assert rec.get_header("WARC-Identified-Content-Language") == "fr"
    assert rec.get_header("WARC-Identified-Payload-Type") == "text/html"
    assert rec.get_header("WARC-IP-Address") == "127.0.0.1"
    http = response[2]
    assert http.get_statuscode() == "200"
    assert [v for k, v in http.headers if k == "Set-Cookie"] == ["a=1", "b=2"]
    # the stored body is decoded: its headers say so, and give its own length
    assert http.get_header("Content-Encoding") is None
    assert http.get_header("X-Crawler-Content-Encoding") == "gzip"
    assert http.get_header("Content-Length") == str(len(PAGE))
    assert request[2].protocol == "GET" and request[2].statusline == "/fr/a-propos?x=1 HTTP/1.1"
    assert request[2].get_header("Host") == "www.museum.example"
    concurrent = request[1].get_header("WARC-Concurrent-To")
    assert concurrent == rec.get_header("WARC-Record-ID")


def test_files_roll_over_and_warcio_index_reads_every_record(tmp_path: Path) -> None:
    with WarcFiles(tmp_path, max_bytes=2000) as files:
        for n in range(30):
            body = PAGE + f"<!-- {n} -->".encode() * 20
            files.write(Exchange(f"http://x.example/{n}.html", 200, [], body))
    assert len(files.paths) > 1 and files.records == 60
    found = records(files.paths)
    assert [r[0] for r in found].count("warcinfo") == len(files.paths)
    assert [r[3] for r in found if r[0] == "response"][7].endswith(b"<!-- 7 -->")
    indexed = subprocess.run(
        [sys.executable, "-m", "warcio.cli", "index", *map(str, files.paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in indexed.stdout.splitlines()]
    assert len(lines) == 60 + len(files.paths)


def test_a_crawl_writes_every_page_it_fetched_with_its_bytes_and_language(tmp_path: Path) -> None:
    sites = prepare(tmp_path / "cache")
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(sites.seed_urls()) + "\n")
    stats, warc = tmp_path / "stats.json", tmp_path / "warc"
    with SandboxServer(["--config", str(sites.config)]) as server:
        result = run_spider(
            "pupsniffer",
            settings={
                "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
                "BILINGUAL_STATS_FILE": str(stats),
                "BILINGUAL_WARC_MAX_BYTES": 200_000,
                "DOWNLOAD_DELAY": 0,
                "ROBOTSTXT_OBEY": False,
                "LOG_LEVEL": "DEBUG",
            },
            arguments={"seeds": seeds, "site_budget": 30, "warc": warc},
            timeout=CRAWL_SECONDS,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    counted = json.loads(stats.read_text())
    found = records(sorted(warc.glob("*.warc.gz")))
    responses = [r for r in found if r[0] == "response"]
    assert len(responses) == counted["warc/pages"]
    assert counted["warc/files"] == len(list(warc.glob("*.warc.gz"))) > 1
    files = {quote(url, safe="/:"): found for url, found in sites.page_files().items()}
    crawled = set(re.findall(r"Crawled \(200\) <GET (\S+)>", result.stderr))
    written = {headers.get_header("WARC-Target-URI") for _, headers, _, _ in responses}
    assert crawled & set(files) and crawled & set(files) <= written  # every HTML page fetched
    assert written <= crawled  # and nothing else (RSS feeds, sitemaps: not HTML)
    languages = {"digital.canada.ca": "en", "numerique.canada.ca": "fr"}
    for _, headers, http, body in responses:
        url = headers.get_header("WARC-Target-URI")
        if url not in files:  # robots.txt, the not-found probe: served by the sandbox
            continue
        assert body == files[url][1].read_bytes()  # the bytes Scrapy received
        host = urlsplit(unquote(url)).hostname
        assert headers.get_header("WARC-Identified-Content-Language") == languages[host]
        assert http.get_statuscode() == "200"


def test_a_page_fetched_twice_is_written_once(tmp_path: Path) -> None:
    """Issue 52: a backforth crawl wrote 1,953 response records for 1,788 URLs (the detector's
    probe and the crawl both fetch a page)."""
    from scrapy.http import HtmlResponse, Request
    from scrapy.utils.test import get_crawler

    from bilingual_spider.extensions.warc import WarcExtension

    crawler = get_crawler()
    crawler.stats.open_spider()
    extension = WarcExtension(WarcFiles(tmp_path), crawler.stats)
    for url in ("http://a.example/fr/", "http://a.example/en/", "http://a.example/fr/"):
        request = Request(url)
        headers = {"Content-Type": "text/html"}
        response = HtmlResponse(url, body=PAGE, request=request, headers=headers)
        extension.response_received(response, request, None)
    extension.files.close()
    found = records(sorted(tmp_path.glob("*.warc.gz")))
    uris = [head.get_header("WARC-Target-URI") for kind, head, _, _ in found if kind == "response"]
    assert uris == ["http://a.example/fr/", "http://a.example/en/"]
    assert crawler.stats.get_value("warc/pages") == 2
    assert crawler.stats.get_value("warc/pages_again") == 1
