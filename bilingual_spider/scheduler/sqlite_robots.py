"""The robots.txt bodies a crawl fetched, kept in its ``JOBDIR`` (issue 32): a crawl resumed after
a stop or a ``kill -9`` reads each host's rules from here instead of fetching its robots.txt
again. One SQLite file beside the frontier (:mod:`bilingual_spider.scheduler.sqlite_frontier`),
each body committed when it is stored (one write per host).

Table::

    robots(netloc, body, fetched)   the body (or the caller's marker of a failed fetch) and when
                                    it was fetched (seconds since the epoch)

This module knows nothing of Scrapy.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

ROBOTS_FILE = "robots.sqlite3"
"""The file's name in a ``JOBDIR``."""


class SqliteRobots:
    """Bodies by host in ``path`` (created if missing), each valid ``ttl`` seconds."""

    def __init__(self, path: str | Path, ttl: float) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.ttl = ttl
        self.db = sqlite3.connect(self.path, isolation_level=None)  # autocommit
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS robots "
            "(netloc TEXT PRIMARY KEY, body BLOB NOT NULL, fetched REAL NOT NULL) WITHOUT ROWID"
        )

    def get(self, netloc: str, now: float) -> bytes | None:
        """The body stored for ``netloc`` less than ``ttl`` seconds before ``now``, else None."""
        row = self.db.execute(
            "SELECT body FROM robots WHERE netloc = ? AND fetched > ?", (netloc, now - self.ttl)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def put(self, netloc: str, body: bytes, now: float) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO robots (netloc, body, fetched) VALUES (?, ?, ?)",
            (netloc, body, now),
        )

    def close(self) -> None:
        self.db.close()
