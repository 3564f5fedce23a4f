"""A ``JOBDIR`` a crawl died in is not resumed silently (issue 32).

Scrapy saves a resumable crawl's state (the queue's index, the spider's state) when the crawl
closes; the seen-requests file is written as it goes. After ``kill -9``, a power cut or an out-of
memory kill, the saved state is that of the last clean close (or none) while the seen file holds
requests never fetched: the same command then "resumes" a frontier that reads as empty, filters
every seed as seen, and ends at once, "finished", 0 pages, no warning.

This extension marks a ``JOBDIR`` in use (``JOBDIR/RUNNING_MARKER``: the process id, host and
start time, and where Linux's ``/proc`` tells it, the process's own start) when the spider opens
and removes the mark once the engine has stopped (the state is saved then). A crawl that finds
the mark of a process that is gone refuses to start, in one line that says what happened and
what to do; so does a crawl whose ``JOBDIR`` another live process uses (not a process that now
has the dead crawl's number, nor a killed crawl not yet reaped). :func:`jobdir_problem` is also
asked by ``scrapy crawl`` before anything starts.

A ``JOBDIR`` holding a crash-safe frontier (``frontier.sqlite3``, written by
:mod:`bilingual_spider.scheduler.leased_scheduler`, committed as it changes) is resumed after
a kill: the mark of a dead process is then no problem (a live one still is), but the frontier of
another spider, a crawl state of a newer format or one that cannot be read is
(:func:`~bilingual_spider.scheduler.sqlite_frontier.resume_problem`).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from pathlib import Path

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from bilingual_spider.scheduler.sqlite_frontier import has_frontier, resume_problem

logger = logging.getLogger(__name__)

RUNNING_MARKER = "bilingual_spider.running"


def jobdir_problem(jobdir: str | os.PathLike[str] | None, spider: str | None = None) -> str | None:
    """Why the crawl state in ``jobdir`` must not be resumed (by ``spider``, when given), in one
    line, or None (no ``JOBDIR``, a new one, one whose last crawl closed cleanly, or a
    crash-safe frontier ``spider`` can resume)."""
    if not jobdir:
        return None
    return _mark_problem(jobdir) or (resume_problem(jobdir, spider) if spider else None)


def _mark_problem(jobdir: str | os.PathLike[str]) -> str | None:
    marker = Path(jobdir) / RUNNING_MARKER
    try:
        mark = json.loads(marker.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        mark = {}
    pid, host = mark.get("pid"), mark.get("host")
    started = mark.get("started", "an unknown time")
    if isinstance(pid, int) and host == socket.gethostname() and _alive(pid, mark.get("ticks")):
        return f"JOBDIR {jobdir} is in use by a running crawl (pid {pid}, started {started})"
    if has_frontier(jobdir):  # committed as it changed: resumable whatever ended the crawl
        return None
    return (
        f"JOBDIR {jobdir}: the crawl that used it (pid {pid}, started {started}) ended without "
        "saving its state (killed?), so its frontier cannot be resumed: a resumed crawl would "
        f"find it empty and end at once. Start again with a new JOBDIR, or delete {marker} to "
        "resume anyway from the state saved last"
    )


def _alive(pid: int, ticks: object = None) -> bool:
    """Whether process ``pid`` runs: not when it is gone, nor when it was killed and not yet
    reaped (a zombie), nor, where its mark says when it started (``ticks``), when another
    process has its number since (a reboot, numbers wrapped around)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    stat = _process_stat(pid)
    if stat is None:  # no /proc: trust the number
        return True
    return stat[0] != "Z" and (not isinstance(ticks, int) or int(stat[19]) == ticks)


def _process_stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name, from its state (field 3) on:
    ``[19]`` is when it started, in clock ticks after boot; None where there is no such file."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return fields if len(fields) > 19 else None


class JobdirGuard:
    """Extension: marks ``JOBDIR`` in use while the engine runs; refuses a dirty one."""

    def __init__(self, jobdir: str) -> None:
        self.marker = Path(jobdir) / RUNNING_MARKER
        self.jobdir = jobdir

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> JobdirGuard:
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured
        problem = jobdir_problem(jobdir)
        if problem:
            raise RuntimeError(problem)
        guard = cls(jobdir)
        crawler.signals.connect(guard.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(guard.engine_stopped, signal=signals.engine_stopped)
        return guard

    def spider_opened(self) -> None:
        self.marker.parent.mkdir(parents=True, exist_ok=True)
        stat = _process_stat(os.getpid())
        mark = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            "ticks": int(stat[19]) if stat else None,
        }
        self.marker.write_text(json.dumps(mark) + "\n", encoding="utf-8")

    def engine_stopped(self) -> None:
        self.marker.unlink(missing_ok=True)
        logger.info("crawl state saved in JOBDIR %s: the same command resumes it", self.jobdir)
