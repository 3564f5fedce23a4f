"""The stores of a one-process crawl with ``JOBDIR`` (issue 53): the memory stores' collections
kept in the frontier's SQLite file (``JOBDIR/frontier.sqlite3``, table ``store``) and written in
its transactions, so that a kill finds the stores and the frontier at the same commit. The Redis
stores commit each change with the frontier's Lua scripts; here the frontier's commit (before an
item is written, and every second) commits the stores' changes with it.

A store is the memory store's class over these collections
(:class:`~bilingual_spider.detection.store.InMemorySiteStore` over a :class:`SqliteSet` of claims
and two :class:`SqliteTable`\\ s), so the twins are one piece of code.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from bilingual_spider.scheduler.sqlite_frontier import SqliteFrontier

FrontierOf = Callable[[], SqliteFrontier]
"""The crawl's open frontier (opened at the first call: the stores are built before it)."""


class SqliteTable(MutableMapping[str, Any]):
    """A mapping of text keys to picklable values, named ``name`` in the frontier's file."""

    def __init__(self, frontier: FrontierOf, name: str) -> None:
        self._frontier = frontier
        self.name = name

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        row = (
            self._db()
            .execute("SELECT value FROM store WHERE name = ? AND key = ?", (self.name, key))
            .fetchone()
        )
        if row is None:
            raise KeyError(key)
        return pickle.loads(row[0])

    def __setitem__(self, key: str, value: Any) -> None:
        frontier = self._frontier()
        frontier.begin()
        frontier.db.execute(
            "INSERT INTO store (name, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (name, key) DO UPDATE SET value = excluded.value",
            (self.name, key, pickle.dumps(value, protocol=5)),
        )
        self._keys().add(key)

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        frontier = self._frontier()
        frontier.begin()
        frontier.db.execute("DELETE FROM store WHERE name = ? AND key = ?", (self.name, key))
        self._keys().discard(key)

    def __contains__(self, key: object) -> bool:
        return key in self._keys()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._keys()))

    def __len__(self) -> int:
        return len(self._keys())

    def _keys(self) -> set[str]:
        return self._frontier().store_keys(self.name)

    def _db(self) -> Any:
        return self._frontier().db


class SqliteSet:
    """A set of text keys (``add``, ``discard``, ``in``, iteration, ``len``) in a table."""

    def __init__(self, frontier: FrontierOf, name: str) -> None:
        self._table = SqliteTable(frontier, name)

    def add(self, key: str) -> None:
        if key not in self._table:
            self._table[key] = True

    def discard(self, key: str) -> None:
        if key in self._table:
            del self._table[key]

    def __contains__(self, key: object) -> bool:
        return key in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)
