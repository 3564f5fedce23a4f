"""What a crawl restarted after a kill does with the requests its former self had in flight: one
rule for the SQLite frontier of ``JOBDIR`` and the Redis frontier of a worker restarted under its
name (issue 53).

- Its JSON-lines feeds are repaired (a line cut by the kill removed).
- A spider that settles by URL (``forward``) takes a request whose URL is in its output as done
  (its page was written); the others go back to the queue, marked redelivered. A spider whose
  ``settles_in_flight_by_url`` is false (``backforth``, ``detect``) sends every one back: its
  callbacks redo what follows from the state its stores recorded.
- The spider lets go of what its former self began and saved nothing of (``worker_restarted``),
  and is told which items its output holds: a verdict its former self recorded and did not
  write goes out again first, whether or not the request that gave it is processed again (a
  page budget spent before it is taken: issue 53's kill family found one lost so).
- The crawl's record of the verdicts and sites written is settled against the output
  (:meth:`~bilingual_spider.distributed.written_items.WrittenItems.settle`): an item emitted
  again is written where it is missing, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bilingual_spider.output.feed_recovery import record_keys_in_jsonl, settle_in_flight
from bilingual_spider.state import CrawlState

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler


@dataclass
class Restart:
    done: list[Any]
    """Ids of the requests whose page is in the output."""
    again: list[Any]
    """Ids of the requests to queue again, marked redelivered."""
    bytes_cut: int
    """Bytes of cut lines removed from the feeds."""
    items_forgotten: int
    """Items the crawl's record held as written that the output does not hold."""


def settle_restart(
    crawler: Crawler,
    spider: Spider,
    leased: list[tuple[Any, bytes]],
    feeds: list[Path],
    url_of: Callable[[bytes], str | None],
) -> Restart:
    """Split what was in flight (``leased``: ids and stored requests) as the module says."""
    done, again, cut = settle_in_flight(leased, feeds, url_of)
    if not getattr(spider, "settles_in_flight_by_url", True):
        done, again = [], [request_id for request_id, _ in leased]
    in_output = record_keys_in_jsonl(feeds)
    restarted = getattr(spider, "worker_restarted", None)
    if restarted is not None:
        restarted(in_output if feeds else None)  # None: no output to read
    written = CrawlState.of(crawler, spider.name).written_items
    forgotten = written.settle(in_output)
    return Restart(done, again, cut, forgotten)
