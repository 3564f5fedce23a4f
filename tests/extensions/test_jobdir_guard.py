"""A JOBDIR a crawl was killed in is refused in one line, not resumed empty (issue 32)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from bilingual_spider.extensions.jobdir_guard import RUNNING_MARKER, jobdir_problem
from bilingual_spider.sandbox.process import crawl_env, spider_command
from bilingual_spider.scheduler.sqlite_frontier import FRONTIER_FILE, SqliteFrontier
from tests.waiting import CRAWL_SECONDS, wait_until

PROJECT = Path(__file__).resolve().parents[2]


def mark(jobdir: Path, pid: int) -> None:
    jobdir.mkdir(parents=True, exist_ok=True)
    record = {"pid": pid, "host": socket.gethostname(), "started": "2026-11-26 10:00:00"}
    (jobdir / RUNNING_MARKER).write_text(json.dumps(record))


def test_a_new_or_cleanly_closed_jobdir_resumes(tmp_path: Path) -> None:
    assert jobdir_problem(None) is None
    assert jobdir_problem(tmp_path / "new") is None
    (tmp_path / "closed").mkdir()
    assert jobdir_problem(tmp_path / "closed") is None


def test_the_mark_of_a_dead_crawl_or_of_a_live_one_is_a_problem(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    mark(tmp_path / "dead", dead.pid)
    problem = jobdir_problem(tmp_path / "dead")
    assert problem and f"pid {dead.pid}" in problem and "ended without saving its state" in problem
    mark(tmp_path / "live", os.getpid())
    problem = jobdir_problem(tmp_path / "live")
    assert problem and "in use by a running crawl" in problem
    (tmp_path / "garbled").mkdir()
    (tmp_path / "garbled" / RUNNING_MARKER).write_text("{not json")
    assert "ended without saving" in (jobdir_problem(tmp_path / "garbled") or "")


def test_a_killed_crawl_not_yet_reaped_or_a_reused_number_is_no_crawl_running(tmp_path) -> None:
    """Stop 69: a crawl killed and run again at once was refused, "in use by a running crawl":
    the killed process was not reaped yet (the suite's fork server kills a fork whose client
    died a moment later); a process that now has a dead crawl's number is no crawl either."""
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    wait_until(lambda: Path(f"/proc/{zombie.pid}/stat").read_text().split(") ")[1][0] == "Z", 30)
    mark(tmp_path / "zombie", zombie.pid)
    problem = jobdir_problem(tmp_path / "zombie")
    assert problem and "ended without saving its state" in problem
    zombie.wait()
    ticks = int(Path("/proc/self/stat").read_text().rpartition(")")[2].split()[19])
    for jobdir, started in ((tmp_path / "reused", ticks + 1), (tmp_path / "ours", ticks)):
        mark(jobdir, os.getpid())
        record = json.loads((jobdir / RUNNING_MARKER).read_text())
        (jobdir / RUNNING_MARKER).write_text(json.dumps({**record, "ticks": started}))
    assert "ended without saving" in (jobdir_problem(tmp_path / "reused") or "")
    assert "in use by a running crawl" in (jobdir_problem(tmp_path / "ours") or "")


def crawl_command(small_sandbox, jobdir: Path, out: Path, **settings: object) -> list[str]:
    return spider_command(
        "forward",
        {
            "BILINGUAL_SANDBOX_PROXY": small_sandbox.proxy_url,
            "JOBDIR": jobdir,
            "LOG_LEVEL": "INFO",
            **settings,
        },
        {"seeds": "http://mono.example/"},  # its calendar never ends
        output=out,
    )


def test_kill_9_then_the_same_command_is_refused_in_one_line(small_sandbox, tmp_path) -> None:
    """A killed crawl with Scrapy's own JOBDIR state (any spider; here forward with
    its crash-safe frontier turned off) is refused."""
    jobdir = tmp_path / "job"
    command = crawl_command(
        small_sandbox, jobdir, tmp_path / "pages.jsonl", BILINGUAL_CRASH_SAFE_FRONTIER=False
    )
    crawl = subprocess.Popen(
        command, cwd=PROJECT, env=crawl_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_until(lambda: (jobdir / RUNNING_MARKER).is_file(), CRAWL_SECONDS)
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(timeout=CRAWL_SECONDS)
    finally:
        if crawl.poll() is None:
            crawl.kill()
    line = refusal(command)
    assert line.startswith(f"scrapy crawl forward: JOBDIR {jobdir}: the crawl that used it (pid ")
    assert "ended without saving its state (killed?)" in line and "delete" in line


def refusal(command: list[str]) -> str:
    """The one line on which the crawl ``command`` refuses to start (exit status 1)."""
    refused = subprocess.run(
        command, cwd=PROJECT, env=crawl_env(), capture_output=True, text=True,
        timeout=CRAWL_SECONDS, check=False,
    )  # fmt: skip
    assert refused.returncode == 1
    (line,) = refused.stderr.splitlines()
    return line


def test_a_crawl_that_closes_cleanly_leaves_no_mark_and_resumes(small_sandbox, tmp_path) -> None:
    jobdir = tmp_path / "job"
    command = crawl_command(
        small_sandbox, jobdir, tmp_path / "pages.jsonl", CLOSESPIDER_PAGECOUNT=3, DOWNLOAD_DELAY=0
    )
    for _ in range(2):  # the first run, then the resumed one
        done = subprocess.run(
            command, cwd=PROJECT, env=crawl_env(), capture_output=True, text=True,
            timeout=CRAWL_SECONDS, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        assert not (jobdir / RUNNING_MARKER).exists()
        assert (jobdir / FRONTIER_FILE).is_file()


def test_a_jobdir_with_a_crash_safe_frontier_is_resumed_after_a_kill(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    mark(tmp_path, dead.pid)
    SqliteFrontier(tmp_path / FRONTIER_FILE).close()
    assert jobdir_problem(tmp_path) is None
    mark(tmp_path, os.getpid())  # but never while another crawl uses it
    assert "in use by a running crawl" in (jobdir_problem(tmp_path) or "")
