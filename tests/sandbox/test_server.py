"""The sandbox server: mounts, the proxy protocol, and every configured fault."""

from __future__ import annotations

import http.client
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bilingual_spider.sandbox.config import HostFaults, Mount, SandboxConfig
from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.server import Sandbox, calendar_page, guess_content_type


def make_sandbox(config_path: Path) -> Sandbox:
    config = SandboxConfig()
    config.add_file(config_path)
    return Sandbox(config)


def test_absolute_uri_and_host_header_reach_the_same_file(small_web_config: Path) -> None:
    sandbox = make_sandbox(small_web_config)
    by_proxy = sandbox.handle("GET", "http://www.bilingual.example/en/p1.html", "")
    by_host = sandbox.handle("GET", "/en/p1.html", "www.bilingual.example:80")
    assert by_proxy.status == by_host.status == 200
    assert by_proxy.body == by_host.body
    assert b'hreflang="fr"' in by_proxy.body


def test_prefix_directories_and_missing_pages(small_web_config: Path) -> None:
    sandbox = make_sandbox(small_web_config)
    assert sandbox.handle("GET", "http://www.korean.example/docs/", "").status == 200
    root = sandbox.handle("GET", "http://www.korean.example/docs", "")
    assert (root.status, root.headers["Location"]) == (301, "/docs/")
    assert sandbox.handle("GET", "http://www.korean.example/", "").status == 404
    assert sandbox.handle("GET", "http://www.bilingual.example/en", "").status == 301
    assert sandbox.handle("GET", "http://www.bilingual.example/nope.html", "").status == 404
    assert sandbox.handle("GET", "http://unknown.example/", "").status == 404
    assert sandbox.handle("GET", "http://www.bilingual.example/../etc/passwd", "").status == 400
    assert sandbox.handle("POST", "http://www.bilingual.example/", "").status == 405


def test_query_selects_a_file_named_with_it(small_web_config: Path) -> None:
    sandbox = make_sandbox(small_web_config)
    answer = sandbox.handle("GET", "http://www.bilingual.example/list.php?lang=fr", "")
    assert (answer.status, answer.body) == (200, b"<html lang=fr><body>liste</body></html>")
    ignored = sandbox.handle("GET", "http://www.bilingual.example/index.html?utm=1", "")
    assert ignored.status == 200 and b"partner" in ignored.body


def test_later_mount_files_fill_gaps_of_earlier_ones(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir(), second.mkdir()
    (first / "index.html").write_text("overlay")
    (second / "index.html").write_text("original")
    (second / "other.html").write_text("other")
    sandbox = Sandbox(SandboxConfig(mounts=[Mount.make("h.example", "/x", [first, second])]))
    assert sandbox.handle("GET", "http://h.example/x/", "").body == b"overlay"
    assert sandbox.handle("GET", "http://h.example/x/other.html", "").body == b"other"


def test_content_types() -> None:
    assert guess_content_type("index.html.es") == "text/html"
    assert guess_content_type("a.HTM") == "text/html"
    assert guess_content_type("flag.png") == "image/png"
    assert guess_content_type("robots.txt") == "text/plain"


def test_dynamic_pages_stored_as_files_are_html() -> None:
    for name in ("page.php?lang=fr", "page.php", "list.ASP?l=en&x=1", "a.aspx", "b.jsp?x"):
        assert guess_content_type(name) == "text/html", name
    assert guess_content_type("run.cgi") == "text/html"
    assert guess_content_type("index.html?lang=fr") == "text/html"
    assert guess_content_type("flag.png?v=2") == "image/png"  # a query is no reason for HTML
    assert guess_content_type("notes.txt?x=1.php") == "text/plain"


def test_generated_dynamic_page_is_served_as_html(tmp_path: Path) -> None:
    (tmp_path / "page.php?lang=fr").write_text("<html lang=fr><body>bonjour</body></html>")
    sandbox = Sandbox(SandboxConfig(mounts=[Mount.make("dyn.example", "/", [tmp_path])]))
    answer = sandbox.handle("GET", "http://dyn.example/page.php?lang=fr", "")
    assert (answer.status, answer.headers["Content-Type"]) == (200, "text/html")


def test_calendar_trap_never_ends() -> None:
    page = calendar_page("/calendar/", "/calendar/1999/12/").decode()
    assert 'href="/calendar/2000/01/"' in page and 'href="/calendar/1999/11/"' in page
    assert page.count("<a ") == 2 + 28


def test_bad_config_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown fault"):
        HostFaults.from_dict("x", {"latency": 3})
    with pytest.raises(ValueError, match="must be in"):
        HostFaults.from_dict("x", {"error_rate": 2})
    with pytest.raises(ValueError, match="not a directory"):
        Mount.parse(f"h.example/p={tmp_path / 'missing'}")
    with pytest.raises(ValueError, match="HOST"):
        Mount.parse("no-equals-sign")


# --- over a socket, through the running server --------------------------------------------------


def test_keep_alive_and_head(small_sandbox) -> None:
    host, port = small_sandbox.address.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    for i in range(1, 4):
        connection.request("GET", f"http://www.bilingual.example/en/p{i}.html")
        answer = connection.getresponse()
        assert answer.status == 200 and f"page {i}".encode() in answer.read()
    connection.request("HEAD", "http://www.bilingual.example/en/p1.html")
    answer = connection.getresponse()
    assert answer.status == 200 and int(answer.headers["Content-Length"]) > 0
    assert answer.read() == b""
    connection.close()


def timed_get(sandbox, url: str) -> float:
    started = time.monotonic()
    status, _, _ = sandbox.get(url)
    assert status == 200
    return time.monotonic() - started


def test_latency(small_sandbox) -> None:
    """slow.example waits its 300 ms before every answer (a lower bound, whatever the machine);
    mono.example, the same pages with no latency, answers faster. The best of three of each, so
    a pause of the machine during one request does not decide."""
    slow = min(timed_get(small_sandbox, "http://slow.example/") for _ in range(3))
    fast = min(timed_get(small_sandbox, "http://mono.example/") for _ in range(3))
    assert slow >= 0.3
    assert fast < slow - 0.2


def test_error_rate_is_about_as_configured(small_sandbox) -> None:
    statuses = [small_sandbox.get(f"http://flaky.example/?n={i}")[0] for i in range(200)]
    errors = statuses.count(503)
    assert set(statuses) == {200, 503}
    assert 60 <= errors <= 140  # rate 0.5: binomial(200, 0.5) is inside this with p > 0.9999


def test_connection_reset(small_sandbox) -> None:
    host, port = small_sandbox.address.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"GET http://reset.example/ HTTP/1.1\r\nHost: reset.example\r\n\r\n")
        try:
            data = sock.recv(1024)
        except ConnectionResetError:
            data = b""
    assert data == b""


def test_redirect_loop(small_sandbox) -> None:
    status, headers, _ = small_sandbox.get("http://mono.example/loop/a")
    assert (status, headers["Location"]) == (302, "/loop/b")
    status, headers, _ = small_sandbox.get("http://mono.example/loop/b")
    assert (status, headers["Location"]) == (302, "/loop/a")


def test_huge_page(small_sandbox) -> None:
    status, headers, body = small_sandbox.get("http://mono.example/huge/x.html")
    assert status == 200 and len(body) == int(headers["Content-Length"]) == 3_000_000


def test_wrong_charset_header_and_stripped_meta(small_sandbox) -> None:
    status, headers, body = small_sandbox.get("http://latin.example/")
    assert status == 200
    assert headers["Content-Type"] == "text/html; charset=iso-8859-1"
    assert b"charset" not in body.lower()
    assert "아파치".encode("euc-kr") in body  # the bytes are untouched: still EUC-KR


def test_robots_txt_and_soft_404(small_sandbox) -> None:
    status, _, body = small_sandbox.get("http://www.bilingual.example/robots.txt")
    assert status == 200 and b"Disallow: /private/" in body
    assert small_sandbox.get("http://mono.example/robots.txt")[0] == 404
    status, _, body = small_sandbox.get("http://soft404.example/no/such/page.html")
    assert status == 200 and b"Not Found" in body


def test_stats_count_requests_per_host(small_sandbox) -> None:
    before = small_sandbox.stats()["requests"].get("mono.example", 0)
    for _ in range(3):
        small_sandbox.get("http://mono.example/")
    assert small_sandbox.stats()["requests"]["mono.example"] == before + 3


def test_malformed_request_gets_400(small_sandbox) -> None:
    host, port = small_sandbox.address.split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(b"NONSENSE\r\n\r\n")
        assert sock.recv(1024).startswith(b"HTTP/1.1 400")


def test_a_stopped_server_ends_cleanly_with_its_access_log_written(
    small_web_config: Path, tmp_path: Path
) -> None:
    """Stopped by SIGTERM (``SandboxServer.stop``) or SIGINT, even when started with SIGINT
    ignored (a shell's background job), the server ends at once and its access log holds every
    request it answered (the log is buffered: killed, it would lose them)."""
    for stop in ("terminate", "interrupt"):
        log = tmp_path / f"{stop}.tsv"
        server = SandboxServer(["--config", str(small_web_config), "--access-log", str(log)])
        with ignoring_sigint():
            server.start()
        status, _, _ = server.get("http://mono.example/")
        assert status == 200
        process = server.process
        assert process is not None
        if stop == "terminate":
            server.stop()
        else:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=60)
        assert process.returncode == 0
        lines = log.read_text().splitlines()
        assert len(lines) == 1 and lines[0].endswith("\t200")


@contextmanager
def ignoring_sigint() -> Iterator[None]:
    """SIGINT ignored meanwhile, and so in the processes started (as by ``command &``)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
