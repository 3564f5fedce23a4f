"""Run the sandbox server and Scrapy crawls as subprocesses (for the demo, tests and benchmarks).

A Twisted reactor cannot be restarted inside one process, and a benchmark must not measure the
server and the crawler on the same event loop, so each runs in a process of its own.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.server import CONTROL_HOST

STARTUP_TIMEOUT = 300.0
"""Seconds a sandbox server may take to answer its first request (a few here; the rest is for a
busy machine)."""


PYTHON_VARIABLE = "BILINGUAL_SPIDER_PYTHON"
"""Names the interpreter command that servers and crawls start with, in place of this one's
(the test suite's fork server: ``tests/forkserver.py``)."""


def python_command() -> list[str]:
    """The interpreter a server or crawl subprocess runs in: ``$BILINGUAL_SPIDER_PYTHON`` split
    as a shell would, else this process's."""
    return shlex.split(os.environ.get(PYTHON_VARIABLE, "")) or [sys.executable]


class SandboxServer:
    """``with SandboxServer(["--real-sites"]) as sandbox: ... sandbox.proxy_url ...``"""

    def __init__(self, args: Sequence[str] = (), bind: str = "127.0.0.1", port: int = 0) -> None:
        self.command = [
            *python_command(), "-m", "bilingual_spider.cli", "sandbox", "serve",
            "--bind", bind, "--port", str(port), *args,
        ]  # fmt: skip
        self.process: subprocess.Popen[str] | None = None
        self.address = ""

    def __enter__(self) -> SandboxServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=crawl_env()
        )
        assert self.process.stdout is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if line.startswith("sandbox listening on "):
                self.address = line.split()[-1]
                return
            if not line and self.process.poll() is not None:
                break
        stderr = self.process.stderr.read() if self.process.stderr else ""
        self.stop()
        raise RuntimeError(f"sandbox server did not start: {stderr.strip()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            wait_or_kill(self.process)
        self.process = None

    @property
    def proxy_url(self) -> str:
        return f"http://{self.address}"

    def get(self, url: str, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
        """Fetch ``url`` through the sandbox proxy: (status, headers, body); errors are answers."""
        opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({"http": self.proxy_url}), _NoRedirect()
        )
        try:
            with opener.open(url, timeout=timeout) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def set_api_fault(
        self,
        mode: str,
        rate: float = 1.0,
        families: Sequence[str] = (),
        calls: int | None = None,
    ) -> None:
        """Turn the search API's fault mode on (``mode``, see ``search_api_faults``; for the
        next ``calls`` calls only, when given) or off (``""``) while the server runs."""
        values = {"mode": mode, "rate": rate, "families": ",".join(families)}
        query = urllib.parse.urlencode({**values, "calls": "" if calls is None else calls})
        status, _, body = self.get(f"http://{CONTROL_HOST}/_api_fault?{query}")
        if status != 200:
            raise ValueError(body.decode("utf-8", "replace"))

    def stats(self) -> dict[str, Any]:
        """Requests and statuses per host, as the server counted them."""
        _, _, body = self.get(f"http://{CONTROL_HOST}/_stats")
        return json.loads(body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def wait_or_kill(process: subprocess.Popen[Any], timeout: float = 10.0) -> None:
    """Wait for a process told to end; kill it if it has not ended within ``timeout`` s."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def spider_opened_since(log: Path, seconds: float) -> Callable[[], bool]:
    """A condition: the crawl log ``log`` says "Spider opened" once more than now, ``seconds``
    ago (a kill that early finds the crawl taking its seeds)."""
    before = log.read_text().count("Spider opened") if log.is_file() else 0
    seen_at: list[float] = []

    def opened_long_enough() -> bool:
        if not seen_at:
            if log.is_file() and log.read_text().count("Spider opened") > before:
                seen_at.append(time.monotonic())
            return False
        return time.monotonic() - seen_at[0] >= seconds

    return opened_long_enough


def crawl_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a crawl subprocess needs: our settings module, no PSL fetch."""
    env = dict(os.environ)
    env.setdefault("SCRAPY_SETTINGS_MODULE", "bilingual_spider.settings")
    env["TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS"] = ""
    env.update(extra or {})
    return env


def run_spider(
    spider: str,
    settings: Mapping[str, object] | None = None,
    arguments: Mapping[str, object] | None = None,
    output: str | Path | None = None,
    timeout: float = 600.0,
    cwd: str | Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``scrapy crawl SPIDER -s K=V ... -a K=V ... -O OUTPUT`` in a subprocess (in ``cwd``, else
    this process's working directory); returns it."""
    return subprocess.run(
        spider_command(spider, settings, arguments, output),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=crawl_env(),
        check=False,
        cwd=cwd,
    )


def spider_command(
    spider: str,
    settings: Mapping[str, object] | None = None,
    arguments: Mapping[str, object] | None = None,
    output: str | Path | None = None,
) -> list[str]:
    """The command line ``scrapy crawl SPIDER -s K=V ... -a K=V ... -O OUTPUT``."""
    command = [*python_command(), "-m", "scrapy", "crawl", spider]
    for key, value in (settings or {}).items():
        command += ["-s", f"{key}={_setting_text(value)}"]
    for key, value in (arguments or {}).items():
        command += ["-a", f"{key}={value}"]
    if output is not None:
        command += ["-O", str(output)]
    return command


def _setting_text(value: object) -> str:
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


def crawl_through(
    proxy_url: str,
    spider: str,
    settings: Mapping[str, object] | None = None,
    arguments: Mapping[str, object] | None = None,
    output: str | Path | None = None,
    timeout: float = 600.0,
) -> str:
    """:func:`run_spider` through the sandbox proxy at ``proxy_url``, with no download delay
    (``settings`` may say otherwise); return the crawl's log (its stderr). Raises RuntimeError,
    with the log's tail, when the crawl fails."""
    given = {"BILINGUAL_SANDBOX_PROXY": proxy_url, "DOWNLOAD_DELAY": 0, **(settings or {})}
    result = run_spider(spider, given, arguments, output, timeout)
    if result.returncode != 0:
        raise RuntimeError(f"{spider} crawl failed ({result.returncode}): {result.stderr[-3000:]}")
    return result.stderr


def crawl_in_sandbox(server_args: Sequence[str], spider: str, **crawl: Any) -> str:
    """:func:`crawl_through` (``crawl``: its settings, arguments, output and timeout) a sandbox
    server of its own, started with ``server_args`` and stopped after the crawl."""
    with SandboxServer(server_args) as server:
        return crawl_through(server.proxy_url, spider, **crawl)


@dataclass(frozen=True)
class PairsRun:
    """What a PupSniffer crawl with an output directory wrote: its pairs and stats, and its log."""

    pairs: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str


def pupsniffer_pairs(
    proxy_url: str,
    seeds: Sequence[str],
    work: Path,
    settings: Mapping[str, object] | None = None,
    timeout: float = 600.0,
    **arguments: object,
) -> PairsRun:
    """A PupSniffer crawl of ``seeds`` through the sandbox proxy at ``proxy_url``, its seeds in
    ``work/seeds.txt`` and its outputs in ``work/run`` (``-a out``); ``arguments`` are the
    spider's (``langs``, ``site_budget``...)."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "seeds.txt").write_text("".join(url + "\n" for url in seeds))
    given = {"seeds": work / "seeds.txt", "out": work / "run", **arguments}
    log = crawl_through(proxy_url, "pupsniffer", settings, given, timeout=timeout)
    lines = (work / "run" / "pairs.jsonl").read_text().splitlines()
    stats = json.loads((work / "run" / "stats.json").read_text())
    return PairsRun([json.loads(line) for line in lines if line.strip()], stats, log)
