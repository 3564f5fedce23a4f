"""A crawl's frontier in one SQLite file that a ``kill -9`` cannot corrupt or empty (issue 32).

The queue, the requests taken and not yet done (leased), the duplicate filter's fingerprints and
the pages done so far live in one database in WAL mode. Changes are grouped in a transaction
until :meth:`commit` (the caller commits before anything that must not get ahead of the
frontier reaches the disk: an item in the output); a committed change is in the file (the
operating system's cache: a killed process loses nothing committed, a power cut at most the last
transactions, never the file's consistency). A kill loses the changes since the last commit: the
requests queued since (re-derived when their page, not yet in the output, is fetched again),
leases and acknowledgements (a request then looks queued or leased, which the resume sorts out).
A request taken is not deleted: it is marked leased, and deleted by :meth:`ack` once its response
was processed. After a crash, :meth:`leased` lists what the dead process had in flight; the
caller decides which were done (their output was written) and which go back to the queue
(:meth:`release`).

Tables::

    requests(id, priority, leased, blob)   the queue (leased = 0) and the leases (leased = 1),
                                           taken by priority (highest first), then first in
    seen(fingerprint)                      the duplicate filter (exact; also kept in memory,
                                           about 95 bytes a URL, as Scrapy's own filter does)
    state(name, value)                     ``spider`` (whose frontier it is), ``pages`` (requests
                                           done with a response: the page budget's count),
                                           ``stats`` (the counters a resumed crawl carries on)
    store(name, key, value)                the crawl state's stores kept here
                                           (:mod:`bilingual_spider.state.sqlite`), written in
                                           the frontier's transactions

This module knows nothing of Scrapy: requests are bytes with a priority and a fingerprint.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

FRONTIER_FILE = "frontier.sqlite3"
"""The file's name in a ``JOBDIR``: its presence says the state there survives a kill."""
SNAPSHOT = "crawl_state"
"""The ``state`` entry of a whole-state snapshot, which versions before issue 53 wrote: such a
frontier is not resumed (its spider's stores are in the snapshot, not in the ``store`` table)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    priority INTEGER NOT NULL,
    leased INTEGER NOT NULL DEFAULT 0,
    blob BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS queue_order ON requests (priority DESC, id) WHERE leased = 0;
CREATE TABLE IF NOT EXISTS seen (fingerprint BLOB PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store (name TEXT, key TEXT, value BLOB, PRIMARY KEY (name, key))
    WITHOUT ROWID;
"""


def has_frontier(jobdir: str | Path) -> bool:
    """Whether ``jobdir`` holds a crash-safe frontier (resumable after a kill)."""
    return (Path(jobdir) / FRONTIER_FILE).is_file()


def resume_problem(jobdir: str | Path, spider: str) -> str | None:
    """Why ``spider`` cannot resume the frontier in ``jobdir``, in one line (another spider's,
    one an older version wrote with a snapshot, a damaged file), or None (none there, or
    resumable)."""
    path = Path(jobdir) / FRONTIER_FILE
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return _state_problem(db, path, spider)
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return f"{path} cannot be read ({exc}): start again with a new JOBDIR"


def _state_problem(db: sqlite3.Connection, path: Path, spider: str) -> str | None:
    def value(name: str) -> object:
        row = db.execute("SELECT value FROM state WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    owner = value("spider")
    if owner is not None and owner != spider:
        return (
            f"JOBDIR {path.parent} holds the frontier of the {owner} spider, not of {spider}: "
            "give this crawl a JOBDIR of its own"
        )
    if value(SNAPSHOT) is not None:
        return (
            f"{path} holds a crawl state saved whole by an older version of bilingual_spider, "
            "which this one does not resume: start again with a new JOBDIR"
        )
    return None


class SqliteFrontier:
    """The frontier in ``path`` (created if missing); see the module docstring."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None)  # autocommit: one per change
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")  # a kill loses nothing; fsync at checkpoint
        self.db.executescript(_SCHEMA)
        self._open_transaction = False
        self.closed = False
        # the duplicate filter's copy in memory: a duplicate (most links) costs no SQL
        self._seen = {row[0] for row in self.db.execute("SELECT fingerprint FROM seen")}
        self._store_keys: dict[str, set[str]] = {}

    def close(self) -> None:
        self.commit()
        self.db.close()
        self.closed = True

    def abandon(self) -> None:
        """Close without committing what changed since the last commit."""
        self.db.close()
        self.closed = True

    @property
    def in_transaction(self) -> bool:
        """Whether changes were made since the last commit."""
        return self._open_transaction

    def commit(self) -> None:
        """Make every change so far survive a kill."""
        if self._open_transaction:
            self.db.execute("COMMIT")
            self._open_transaction = False

    # --- the queue ------------------------------------------------------------------------------

    def first_seen(self, fingerprint: bytes) -> bool:
        """Record ``fingerprint`` in the duplicate filter: True if it was not there (the
        request is new: :meth:`push` it), False if it was."""
        if fingerprint in self._seen:
            return False
        self._seen.add(fingerprint)
        self.begin()
        self.db.execute("INSERT INTO seen (fingerprint) VALUES (?)", (fingerprint,))
        return True

    def push(self, blob: bytes, priority: int, leased: bool = False) -> int:
        """Queue a request (after :meth:`first_seen`, unless it is never filtered), or with
        ``leased`` write it as taken already (held by this run until it hands it over); its id."""
        self.begin()
        cursor = self.db.execute(
            "INSERT INTO requests (priority, leased, blob) VALUES (?, ?, ?)",
            (priority, int(leased), blob),
        )
        return int(cursor.lastrowid or 0)

    def take(self) -> tuple[int, bytes] | None:
        """The next request (highest priority, then first queued), leased: ``(id, blob)``."""
        self.begin()
        row = self.db.execute(
            "SELECT id, blob FROM requests WHERE leased = 0 ORDER BY priority DESC, id LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        self.db.execute("UPDATE requests SET leased = 1 WHERE id = ?", (row[0],))
        return row[0], row[1]

    def ack(self, ids: Iterable[int], pages: int = 0) -> None:
        """Requests done: deleted; ``pages`` of them had a response (added to the page count)."""
        ids = list(ids)
        if not ids and not pages:
            return
        self.begin()
        self.db.executemany("DELETE FROM requests WHERE id = ?", [(i,) for i in ids])
        if pages:
            self.db.execute(
                "INSERT INTO state (name, value) VALUES ('pages', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
                (pages,),
            )

    def leased(self) -> list[tuple[int, bytes]]:
        """The requests taken and not acknowledged (after a crash: what was in flight)."""
        leased = "SELECT id, blob FROM requests WHERE leased = 1 ORDER BY id"
        return self.db.execute(leased).fetchall()

    def release(self, ids: Iterable[int]) -> None:
        """Leased requests back to the queue, in their old place."""
        self.begin()
        self.db.executemany("UPDATE requests SET leased = 0 WHERE id = ?", [(i,) for i in ids])

    def requeue(self, request_id: int, blob: bytes, priority: int) -> None:
        """A leased request back to the queue with a new priority (re-scored by a newer model)."""
        self.begin()
        self.db.execute(
            "UPDATE requests SET leased = 0, priority = ?, blob = ? WHERE id = ?",
            (priority, blob, request_id),
        )

    def next_priority(self) -> int | None:
        """The priority of the next request :meth:`take` would give (None: nothing queued)."""
        row = self.db.execute(
            "SELECT priority FROM requests WHERE leased = 0 ORDER BY priority DESC, id LIMIT 1"
        ).fetchone()
        return None if row is None else int(row[0])

    def queued(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM requests WHERE leased = 0").fetchone()[0])

    def has_queued(self) -> bool:
        row = self.db.execute("SELECT 1 FROM requests WHERE leased = 0 LIMIT 1").fetchone()
        return row is not None

    def seen(self) -> int:
        return len(self._seen)

    # --- state ----------------------------------------------------------------------------------

    @property
    def pages(self) -> int:
        """Requests acknowledged with a response, over every run."""
        return int(self.get("pages") or 0)

    def get(self, name: str) -> object:
        row = self.db.execute("SELECT value FROM state WHERE name = ?", (name,)).fetchone()
        return None if row is None else row[0]

    def set(self, name: str, value: object) -> None:
        self.begin()
        self.db.execute(
            "INSERT INTO state (name, value) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )

    def store_keys(self, name: str) -> set[str]:
        """The keys of the store table ``name``, kept in memory as its writers change them (one
        process writes this file): a lookup of a key costs no SQL."""
        keys = self._store_keys.get(name)
        if keys is None:
            rows = self.db.execute("SELECT key FROM store WHERE name = ?", (name,))
            keys = self._store_keys[name] = {row[0] for row in rows}
        return keys

    def begin(self) -> None:
        """Open a transaction, unless one is open (a store writing with the frontier)."""
        if not self._open_transaction:
            self.db.execute("BEGIN IMMEDIATE")
            self._open_transaction = True
