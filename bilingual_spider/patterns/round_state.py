"""What a PupSniffer crawl keeps between its pages and its stages, behind one interface so that
the workers of a distributed crawl can share it
(:class:`bilingual_spider.distributed.pupsniffer_store.RedisRoundStore`; this module holds the
interface and the in-memory default of a single process, whose class a ``JOBDIR`` crawl runs over
collections kept in its frontier's file: :attr:`bilingual_spider.state.CrawlState.rounds`).

A crawl goes through stages: each round crawls its sites (``CRAWL``), then, once nothing is left
to fetch, mines the pages seen and checks deep pages (``DEEP``); after the last round it is
``DONE``. Moving from one stage to the next (mining every page seen, emitting the pairs, queuing
the deep pages or the next round's sites) is done by one caller at a time:
:meth:`RoundStore.begin_transition` is a lock in a shared store. Every fact a transition or a
response relies on (the pages, the sites' budgets, what was already requested, checked or
emitted) is in the store, so that any worker can take the next step.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any, Protocol

from bilingual_spider.patterns.crawl_round import CrawledSites, PageRecord, RoundPairs
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.resemblance import Fingerprint

SEEN = "seen"
"""Kind of :meth:`RoundStore.mark_new` keys: page URLs requested or fetched."""
CHECKED = "checked"
"""Deep-page candidates requested."""
EMITTED = "emitted"
"""Items emitted: a pair (its two URLs) or a site."""
QUERIES = "queries"
"""Search queries asked."""
FOUND = "found"
"""Pairs judged translations outside a round's mining (deep pages, search), as
:func:`found_pair_key` writes them: the translation groups are built from them too, whichever
worker found them."""
KINDS = (SEEN, CHECKED, EMITTED, QUERIES, FOUND)


def found_pair_key(pair: UrlPair) -> str:
    """A judged pair as a :data:`FOUND` key (what a translation group needs of it)."""
    return json.dumps(
        [
            pair.source,
            pair.target,
            pair.pattern.first,
            pair.pattern.second,
            pair.local_credibility,
            pair.global_credibility,
            pair.method,
            pair.source_language,
            pair.target_language,
        ],
        ensure_ascii=False,
    )


def found_pair(key: str) -> UrlPair:
    """The pair a :func:`found_pair_key` key holds."""
    source, target, first, second, local, global_, method, language, other = json.loads(key)
    pattern = PairingPattern(first, second)
    return UrlPair(source, target, pattern, local, global_, method, language, other)


class Stage(Enum):
    CRAWL = "crawl"
    DEEP = "deep"
    DONE = "done"


@dataclass(frozen=True)
class StageState:
    """Where the crawl is: its round (from 1) and the stage of that round."""

    round: int = 1
    stage: Stage = Stage.CRAWL


class RoundStore(Protocol):
    """The state of a PupSniffer crawl, shared by every worker of a distributed crawl."""

    def first_sight(self, site: str, found_by: str) -> bool:
        """Record how ``site`` was found: True when it was not known before."""
        ...

    def found_by(self, site: str) -> str:
        """How ``site`` was found ('' when not known)."""
        ...

    def reserve_pages(self, site: str, urls: Sequence[str], budget: int) -> list[str]:
        """The ``urls`` of ``site`` that may be requested, in order: not seen yet (:data:`SEEN`)
        and within the ``budget`` of pages requested of the site. Those returned are counted."""
        ...

    def mark_new(self, kind: str, keys: Sequence[str]) -> list[str]:
        """The ``keys`` not marked before under ``kind`` (one of :data:`KINDS`), in order, each
        once; all are marked now. Of several callers marking one key, one gets it back."""
        ...

    def marked(self, kind: str, keys: Sequence[str] | None = None) -> set[str]:
        """Every key marked under ``kind``, or those of ``keys`` that are."""
        ...

    def add_page(self, record: PageRecord, external_urls: Sequence[str] = ()) -> None:
        """Keep a fetched page (:meth:`CrawledSites.add`); its URL is :data:`SEEN`."""
        ...

    def page(self, url: str) -> PageRecord | None:
        """A page kept by :meth:`add_page`."""
        ...

    def crawled(self) -> CrawledSites:
        """Every page kept so far, in the order they were first kept."""
        ...

    def set_not_found(self, site: str, page: Fingerprint) -> None:
        """The fingerprint of the site's answer to a URL that cannot exist (its soft-404 page)."""
        ...

    def not_found(self, site: str) -> Fingerprint | None: ...

    def stage(self) -> StageState:
        """Where the crawl is."""
        ...

    def round_pairs(self, round: int) -> RoundPairs | None:
        """The pairs and credibility tables mined at the end of ``round``'s crawl."""
        ...

    def keep_round_pairs(self, round: int, pairs: RoundPairs) -> None: ...

    def begin_transition(self) -> bool:
        """Take the right to move the crawl to its next stage; False: another caller has it."""
        ...

    def publish(self, state: StageState) -> bool:
        """Move the crawl to ``state`` (the caller holds the transition); False when the
        transition was lost meanwhile (a shared store's lock expired): nothing changed."""
        ...

    def end_transition(self) -> None: ...


class InMemoryRoundStore:
    """A :class:`RoundStore` in this process's memory (the default of a single-process crawl).

    Its collections are made by ``table`` (a mapping of text keys) and ``keys`` (a set of text
    keys: ``add``, ``in``, iteration), each given a name; by default dicts and sets. A ``JOBDIR``
    crawl's are kept in its frontier's file and written in its transactions
    (:mod:`bilingual_spider.state.sqlite`), so the twins are one piece of code. A value is never
    changed in place, only replaced (a SQLite table keeps a pickled copy): a page is kept as
    ``(order, record, external URLs)``, the order it was first kept in; the stage and the last
    round's pairs are in the table ``state``."""

    def __init__(
        self,
        table: Callable[[str], MutableMapping[str, Any]] = lambda name: {},
        keys: Callable[[str], Any] = lambda name: set(),
    ) -> None:
        self._pages = table("pages")  # URL -> (order, PageRecord, external URLs)
        self._found_by = table("found_by")
        self._queued = table("queued")  # page requests per site
        self._marked = {kind: keys(f"marked_{kind}") for kind in KINDS}
        self._not_found = table("not_found")
        self._state = table("state")  # "stage": StageState, "round_pairs": (round, RoundPairs)

    def first_sight(self, site: str, found_by: str) -> bool:
        if site in self._found_by:
            return False
        self._found_by[site] = found_by
        return True

    def found_by(self, site: str) -> str:
        return self._found_by.get(site, "")

    def reserve_pages(self, site: str, urls: Sequence[str], budget: int) -> list[str]:
        seen, granted = self._marked[SEEN], []
        queued = self._queued.get(site, 0)
        for url in urls:
            if url in seen or queued >= budget:
                continue
            seen.add(url)
            queued += 1
            granted.append(url)
        if granted:
            self._queued[site] = queued
        return granted

    def mark_new(self, kind: str, keys: Sequence[str]) -> list[str]:
        marked, new = self._marked[kind], []
        for key in keys:
            if key not in marked:
                marked.add(key)
                new.append(key)
        return new

    def marked(self, kind: str, keys: Sequence[str] | None = None) -> set[str]:
        marked = self._marked[kind]
        if keys is None:
            return set(marked)
        return {key for key in keys if key in marked}

    def add_page(self, record: PageRecord, external_urls: Sequence[str] = ()) -> None:
        self._marked[SEEN].add(record.url)
        kept = self._pages.get(record.url)
        order = len(self._pages) if kept is None else kept[0]
        self._pages[record.url] = (order, record, tuple(external_urls))

    def page(self, url: str) -> PageRecord | None:
        kept = self._pages.get(url)
        return None if kept is None else kept[1]

    def crawled(self) -> CrawledSites:
        crawled = CrawledSites()
        for _, record, external_urls in sorted(self._pages.values(), key=itemgetter(0)):
            crawled.add(record, external_urls)
        return crawled

    def set_not_found(self, site: str, page: Fingerprint) -> None:
        self._not_found[site] = page

    def not_found(self, site: str) -> Fingerprint | None:
        return self._not_found.get(site)

    def stage(self) -> StageState:
        return self._state.get("stage", StageState())

    def round_pairs(self, round: int) -> RoundPairs | None:
        kept = self._state.get("round_pairs")
        return kept[1] if kept is not None and kept[0] == round else None

    def keep_round_pairs(self, round: int, pairs: RoundPairs) -> None:
        self._state["round_pairs"] = (round, pairs)  # the last round's tables only

    def begin_transition(self) -> bool:
        return True

    def publish(self, state: StageState) -> bool:
        self._state["stage"] = state
        return True

    def end_transition(self) -> None:
        pass
