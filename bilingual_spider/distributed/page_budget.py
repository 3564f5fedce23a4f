"""A page budget shared by every worker of a crawl: one counter in Redis
(``PREFIX:SPIDER:counters``, field ``budget_pages``, next to the frontier's counters), counted by
each worker as it processes a page that counts against the budget. The script that counts the
page that reaches the budget also ends the crawl for every worker (the frontier's
``PREFIX:SPIDER:ended``, reason ``budget``): from then on no worker takes a request, and the
worker closes with the reason ``budget``; a worker that gets a page already past it (one in
flight meanwhile) closes the same way. A page is counted once per request in the frontier
(``PREFIX:SPIDER:counted``), also when a killed worker's request is processed again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bilingual_spider.distributed.connection import PatientRedis

if TYPE_CHECKING:
    pass

FIELD = "budget_pages"
# KEYS: counters, ended, counted; ARGV: pages, budget, the id of the request in the frontier
# ('' none): a request counted already (processed again: its worker died before acknowledging
# it) is not counted again, 0 is returned
_SPEND = """
if ARGV[3] ~= '' and redis.call('HSETNX', KEYS[3], ARGV[3], 1) == 0 then return 0 end
local spent = redis.call('HINCRBY', KEYS[1], 'budget_pages', ARGV[1])
if spent >= tonumber(ARGV[2]) then redis.call('SET', KEYS[2], 'budget', 'NX') end
return spent
"""


class SharedPageBudget:
    """The pages counted against the ``budget`` of the crawl under ``base`` by all its
    workers."""

    def __init__(self, redis: PatientRedis, base: str, budget: int) -> None:
        self.redis = redis
        self.budget = budget
        self._keys = [f"{base}:counters", f"{base}:ended", f"{base}:counted"]
        self._spend = redis.script(_SPEND)

    @property
    def spent(self) -> int:
        """The pages counted so far, crawl-wide."""
        return int(self.redis.call(self.redis.client.hget, self._keys[0], FIELD) or 0)

    def spend(self, pages: int = 1, request_id: str | None = None) -> int:
        """Count ``pages`` more (and end the crawl once the budget is spent); the crawl-wide
        count, these included. With the ``request_id`` the frontier gave the page's request:
        0 (nothing counted) when that request's page was counted before (its first worker died
        before acknowledging it: the page is processed again, counted once)."""
        return int(self._spend(self._keys, [pages, self.budget, request_id or ""]))
