"""The queries the search service holds for an adapter until it may be called: each with what
its request needs (:class:`HeldQuery`), in the order they may go, waiting for the answer of the
same call out, or not before a time (:class:`AdapterQueries`). Plain Python."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bilingual_spider.search.answer_cache import CacheKey
from bilingual_spider.search.calls import SearchCall


@dataclass
class HeldQuery:
    """A query waiting for its adapter: how to make its request when it may go."""

    call: SearchCall
    callback: Callable[..., Any] | None
    cb_kwargs: dict[str, Any]
    meta: dict[str, Any]
    priority: int
    not_before: float = 0.0
    frontier_id: str | None = None
    """Its request's id in a distributed crawl's frontier, where it waits leased to this worker
    (so a query held by a worker that dies is not lost: any worker asks it)."""


@dataclass
class AdapterQueries:
    """Per adapter: the keys of calls out, and the held queries: in the order they may go
    (``held``), waiting for the answer of the same call out (``waiting``, by key), or not
    before a time (``later``, failed calls asked again)."""

    in_flight: set[CacheKey] = field(default_factory=set)
    sent_at: dict[CacheKey, float] = field(default_factory=dict)
    """When each call out was released (a call out for long is slow: it frees its place)."""
    held: deque[HeldQuery] = field(default_factory=deque)
    waiting: dict[CacheKey, list[HeldQuery]] = field(default_factory=dict)
    later: list[HeldQuery] = field(default_factory=list)

    def __len__(self) -> int:
        """Queries held, in any way."""
        return len(self.held) + len(self.later) + sum(map(len, self.waiting.values()))

    def every_held(self) -> Iterator[HeldQuery]:
        yield from self.held
        yield from self.later
        for entries in self.waiting.values():
            yield from entries

    def answered(self, key: CacheKey) -> None:
        """The call out with ``key`` is over: the queries waiting for it go first."""
        self.in_flight.discard(key)
        self.sent_at.pop(key, None)
        self.held.extendleft(reversed(self.waiting.pop(key, [])))
