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
was processed. After a crash, :meth:`leased_by` lists what the dead process had in flight; the
caller decides which were done (their output was written) and which go back to the queue
(:meth:`release`, marked redelivered). Its interface is the Redis frontier's
(:mod:`bilingual_spider.distributed.frontier`): one scheduler
(:mod:`bilingual_spider.scheduler.leased_scheduler`) runs over either; here one worker, this
process, holds every lease, and leases do not expire.

Tables::

    requests(id, priority, leased, blob)   the queue (leased = 0) and the leases (leased = 1),
                                           taken by priority (highest first), then first in
    seen(fingerprint)                      the duplicate filter (exact; also kept in memory,
                                           about 95 bytes a URL, as Scrapy's own filter does)
    state(name, value)                     ``spider`` (whose frontier it is), ``pages`` (requests
                                           done with a response: the page budget's count),
                                           ``stats`` (the counters a resumed crawl carries on),
                                           ``ended`` (why the crawl ended: ``budget``)
    redelivered(id, worker)                requests given back after a kill (their run may have
                                           done part of their work)
    store(name, key, value)                the crawl state's stores kept here
                                           (:mod:`bilingual_spider.state.sqlite`), written in
                                           the frontier's transactions

This module knows nothing of Scrapy: requests are bytes with a priority and a fingerprint.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from bilingual_spider.distributed.frontier import Acks, FrontierStatus, Requeue, Taken

FRONTIER_FILE = "frontier.sqlite3"
"""The file's name in a ``JOBDIR``: its presence says the state there survives a kill."""
EARLIER_RUN = "an earlier run"
"""The worker a request given again after a kill was redelivered from (``REDELIVERED_META``)."""
CARRIED_STATS = "stats"
"""The ``state`` entry of the counters a resumed crawl carries on."""
BUDGET_END = "budget"
"""Why a crawl whose page budget was spent ended (the Redis frontier's reason too)."""
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
CREATE INDEX IF NOT EXISTS leases ON requests (id) WHERE leased = 1;
CREATE TABLE IF NOT EXISTS seen (fingerprint BLOB PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (name TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store (name TEXT, key TEXT, value BLOB, PRIMARY KEY (name, key))
    WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS redelivered (id INTEGER PRIMARY KEY, worker TEXT NOT NULL);
"""
_HEAD = "FROM requests WHERE leased = 0 ORDER BY priority DESC, id"
"""The queue's order: highest priority first, then first queued."""


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
    """The frontier in ``path`` (created if missing), with the interface of the Redis frontier
    (:class:`~bilingual_spider.distributed.frontier.LeasedFrontier`): one worker, this process,
    whose leases a kill leaves to its next run; see the module docstring."""

    worker = EARLIER_RUN
    """The worker holding every lease: this process, or the earlier run it resumes."""
    dupefilter = "set of fingerprints in the frontier's file"
    pages_counted_by_request = False

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

    def check_dupefilter(self) -> str | None:
        """One process: no other worker's duplicate filter to disagree with."""
        return None

    # --- the queue ------------------------------------------------------------------------------

    def push(
        self,
        blob: bytes,
        priority: int,
        fingerprint: bytes | None = None,
        leased: bool = False,
        host: str = "",
    ) -> str | None:
        """Queue a request, or with ``leased`` write it as taken already (kept by this run until
        it hands it over); its id. None: its ``fingerprint`` was queued before (the duplicate
        filter). ``host``: unused (one partition)."""
        if fingerprint is not None:
            if fingerprint in self._seen:
                return None
            self._seen.add(fingerprint)
            self.begin()
            self.db.execute("INSERT INTO seen (fingerprint) VALUES (?)", (fingerprint,))
        self.begin()
        cursor = self.db.execute(
            "INSERT INTO requests (priority, leased, blob) VALUES (?, ?, ?)",
            (priority, int(leased), blob),
        )
        return str(cursor.lastrowid)

    def take(
        self,
        done: Sequence[str] = (),
        requeue: Requeue | None = None,
        pages: int = 0,
        budget: int = 0,
    ) -> tuple[Taken | None, Acks]:
        """Acknowledge ``done`` (:meth:`ack`), put ``requeue`` back (:meth:`requeue`), then take
        the next request (highest priority, then first queued), leased; None when nothing is
        queued or the crawl ended."""
        acks = self.ack(done, pages, budget)
        if requeue is not None:
            self.requeue(requeue.id, requeue.blob, requeue.priority)
        if self.get("ended") is not None:
            return None, acks
        self.begin()
        row = self.db.execute(f"SELECT id, blob {_HEAD} LIMIT 1").fetchone()
        if row is None:
            return None, acks
        request_id = row[0]
        self.db.execute("UPDATE requests SET leased = 1 WHERE id = ?", (request_id,))
        dead = self.db.execute("SELECT worker FROM redelivered WHERE id = ?", (request_id,))
        worker = dead.fetchone()
        if worker is not None:
            self.db.execute("DELETE FROM redelivered WHERE id = ?", (request_id,))
        redelivered_from = None if worker is None else str(worker[0])
        return Taken(str(request_id), bytes(row[1]), self._next_priority(), redelivered_from), acks

    def ack(self, ids: Sequence[str], pages: int = 0, budget: int = 0) -> Acks:
        """Requests done: deleted. ``pages`` of them count against a page budget of ``budget``
        pages (reached: the crawl ends, ``budget``)."""
        if not ids and not pages:
            return Acks()
        self.begin()
        self.db.executemany("DELETE FROM requests WHERE id = ?", [(int(i),) for i in ids])
        if pages:
            self.db.execute(
                "INSERT INTO state (name, value) VALUES ('pages', ?) "
                "ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
                (pages,),
            )
            if budget and self.pages >= budget:
                self.end(BUDGET_END)
        return Acks(acked=len(ids))

    def seen(self, fingerprint: bytes, host: str = "") -> bool:
        """Was a request with this fingerprint queued?"""
        return fingerprint in self._seen

    def leased_by(self, worker: str) -> list[tuple[str, bytes]]:
        """The requests taken and not acknowledged (at a resume: what the killed run had in
        flight): every lease is this process's."""
        rows = self.db.execute("SELECT id, blob FROM requests WHERE leased = 1 ORDER BY id")
        return [(str(request_id), bytes(blob)) for request_id, blob in rows]

    def renew(self, ids: Iterable[str]) -> int:
        """Leases do not expire: one process holds them until its next run."""
        return 0

    def release(self, ids: Sequence[str], redelivered: bool = False) -> int:
        """Leased requests back to the queue, in their old place; ``redelivered``: perhaps
        processed in part by the run that held them (the run that takes one is told)."""
        self.begin()
        rows = [(int(i),) for i in ids]
        self.db.executemany("UPDATE requests SET leased = 0 WHERE id = ?", rows)
        if redelivered:
            self.db.executemany(
                "INSERT OR REPLACE INTO redelivered (id, worker) VALUES (?, ?)",
                [(i, self.worker) for (i,) in rows],
            )
        return len(rows)

    def requeue(self, request_id: str, blob: bytes, priority: int) -> bool:
        """A leased request back to the queue with a new priority (re-scored by a newer model)."""
        self.begin()
        cursor = self.db.execute(
            "UPDATE requests SET leased = 0, priority = ?, blob = ? WHERE id = ?",
            (priority, blob, int(request_id)),
        )
        return cursor.rowcount > 0

    def _next_priority(self) -> int | None:
        row = self.db.execute(f"SELECT priority {_HEAD} LIMIT 1").fetchone()
        return None if row is None else int(row[0])

    def status(self, until_work: bool = False) -> FrontierStatus:
        """Queue and lease sizes (``until_work``: 1 for any); nothing to wait for from other
        workers, so the crawl is over once both are empty."""
        if until_work:
            queued = self.db.execute("SELECT EXISTS (SELECT 1 FROM requests WHERE leased = 0)")
            leased = self.db.execute("SELECT EXISTS (SELECT 1 FROM requests WHERE leased = 1)")
        else:
            queued = self.db.execute("SELECT count(*) FROM requests WHERE leased = 0")
            leased = self.db.execute("SELECT count(*) FROM requests WHERE leased = 1")
        ended = self.get("ended")
        return FrontierStatus(
            int(queued.fetchone()[0]), int(leased.fetchone()[0]), 1, ended and str(ended)
        )

    def end(self, reason: str) -> None:
        """End the crawl, for its next runs too (the first reason given stays)."""
        if self.get("ended") is None:
            self.set("ended", reason)

    def budget_committed(self) -> int:
        """Pages counted against the page budget and requests leased (the leases' index: no
        scan of the queue)."""
        leased = self.db.execute("SELECT count(*) FROM requests WHERE leased = 1").fetchone()
        return self.pages + int(leased[0])

    def counters(self) -> dict[str, int]:
        status = self.status()
        return {
            "pages": self.pages,
            "seen": len(self._seen),
            "queued": status.queued,
            "leased": status.leased,
        }

    def take_seeds(self, seeds_key: str, most: int = 1000) -> list[str]:
        """No seed list: a one-process crawl's seeds are its spider's."""
        return []

    # --- state ----------------------------------------------------------------------------------

    def carried(self) -> dict[str, Any]:
        """The counters the run before saved (:meth:`carry`)."""
        return json.loads(str(self.get(CARRIED_STATS) or "{}"))

    def carry(self, counters: dict[str, Any]) -> None:
        """Save ``counters`` for the next run to carry on (in the open transaction)."""
        self.set(CARRIED_STATS, json.dumps(counters))

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
