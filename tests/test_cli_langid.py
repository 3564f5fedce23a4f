"""``bilingual-spider langid --html URL`` fetches the URL as a crawl would: through the crawl's
network-safety checks, the URL and every redirect (issue 32)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bilingual_spider.cli import main
from bilingual_spider.middlewares.network_safety import check_url

PAGE = b"<html><body><p>Das ist eine deutsche Seite mit genug Text, um sie zu erkennen.</p>"


class Recorder(BaseHTTPRequestHandler):
    """Answers every request (as a proxy: the path is the absolute URL) with ``answers[path]``
    (a redirect target, or the page), and records the paths it was asked for."""

    answers: dict[str, str] = {}
    asked: list[str] = []

    def do_GET(self) -> None:  # noqa: N802
        self.asked.append(self.path)
        target = self.answers.get(self.path)
        if target:
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    Recorder.answers, Recorder.asked = {}, []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def langid(capsys, *urls: str) -> tuple[int, list[dict], list[str]]:
    status = main(["langid", "--html", *urls])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err.splitlines()


def test_a_loopback_url_is_refused_before_any_request(server, monkeypatch, capsys) -> None:
    monkeypatch.delenv("BILINGUAL_SANDBOX_PROXY", raising=False)
    local = server.replace("127.0.0.1", "localhost")
    status, out, err = langid(capsys, server + "/a.html", local + "/b.html")
    assert status == 2 and out == []
    assert err == [
        f"bilingual-spider: error: {server}/a.html: refused by network safety (loopback)",
        f"bilingual-spider: error: {local}/b.html: refused by network safety (loopback)",
    ]
    assert Recorder.asked == []


def test_the_sandbox_page_is_fetched_and_a_redirect_to_a_private_address_refused(
    server, monkeypatch, capsys
) -> None:
    monkeypatch.setenv("BILINGUAL_SANDBOX_PROXY", server)
    Recorder.answers["http://www.moved.example/"] = "http://10.0.0.1/admin"
    status, out, err = langid(capsys, "http://www.site.example/de/", "http://www.moved.example/")
    assert [(o["source"], o["lang"]) for o in out] == [("http://www.site.example/de/", "de")]
    assert err == ["bilingual-spider: error: http://10.0.0.1/admin: refused by network safety "
                   "(private)"]  # fmt: skip
    assert status == 2
    assert Recorder.asked == ["http://www.site.example/de/", "http://www.moved.example/"]


@pytest.mark.parametrize(
    ("url", "sandbox", "reason"),
    [
        ("http://127.0.0.1/", False, "loopback"),
        ("http://localhost:8080/", True, "loopback"),
        ("http://169.254.169.254/latest/", True, "link_local"),
        ("https://www.example.org/", True, "sandbox_https"),
        ("file:///etc/passwd", False, "scheme"),
        ("http://www.example.org/", True, None),
    ],
)
def test_check_url_is_the_crawls_check(url: str, sandbox: bool, reason: str | None) -> None:
    assert check_url(url, sandbox=sandbox, resolve=lambda host: ["93.184.215.14"]) == reason


def test_check_url_decides_names_by_their_addresses_outside_the_sandbox() -> None:
    assert check_url("http://intranet.example/", resolve=lambda host: ["10.1.2.3"]) == "private"
    assert check_url("http://www.example.org/", resolve=lambda host: ["93.184.215.14"]) is None
    assert check_url("http://intranet.example/", allowed_hosts=["intranet.example"]) is None
    assert (
        check_url(
            "http://intranet.example/",
            allowed_networks=["10.0.0.0/8"],
            resolve=lambda host: ["10.1.2.3"],
        )
        is None
    )
