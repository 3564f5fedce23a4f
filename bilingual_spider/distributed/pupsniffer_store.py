"""A PupSniffer crawl's state in Redis, shared by its workers (the
:class:`~bilingual_spider.patterns.round_state.RoundStore` interface): the pages every worker
fetched, which pairing patterns are mined from at the end of a crawl stage, the sites' page
budgets, what was requested, checked and emitted, and the stage the crawl is in.

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:pup:pages          HASH   URL -> its page (zlib'd pickle of PageRecord, external links)
    BASE:pup:page_order     LIST   URLs in the order they were first kept
    BASE:pup:queued         HASH   site -> pages of it requested (its budget spent)
    BASE:pup:found_by       HASH   site -> how it was found (seed, round N: WPR ...)
    BASE:pup:not_found      HASH   site -> fingerprint of its soft-404 page (pickle)
    BASE:pup:marked:KIND    SET    seen URLs, checked deep candidates, emitted items, queries
    BASE:pup:stage          HASH   round, stage (where the crawl is)
    BASE:pup:round_pairs:R  STRING the pairs and credibility tables of round R (zlib'd pickle)
    BASE:pup:stage_lock     STRING the worker moving the crawl to its next stage; expires after
                                   ``lock_seconds``

Each call is one round trip, atomic where two workers may race (a Lua script: a page's budget is
counted and its URL marked together, a key is marked for one caller). A worker killed while
moving the crawl on holds it up no longer than ``lock_seconds``; the next idle worker then redoes
the move: pairs, sites and deep candidates already marked are not emitted or queued again.
"""

from __future__ import annotations

import pickle
import uuid
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.patterns.crawl_round import CrawledSites, PageRecord, RoundPairs
from bilingual_spider.patterns.resemblance import Fingerprint
from bilingual_spider.patterns.round_state import KINDS, SEEN, Stage, StageState

if TYPE_CHECKING:
    pass

PAGES_PER_CALL = 500
"""Pages read per HMGET when the whole crawl is loaded."""

# KEYS: seen, queued; ARGV: site, budget, URLs. The URLs granted, in order.
_RESERVE = """
local count = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
local budget = tonumber(ARGV[2])
local granted = {}
for i = 3, #ARGV do
  if count >= budget then break end
  if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then
    count = count + 1
    granted[#granted + 1] = ARGV[i]
  end
end
if #granted > 0 then redis.call('HSET', KEYS[2], ARGV[1], count) end
return granted
"""
# KEYS: the set; ARGV: keys. Those not in the set before, in order.
_MARK_NEW = """
local new = {}
for i = 1, #ARGV do
  if redis.call('SADD', KEYS[1], ARGV[i]) == 1 then new[#new + 1] = ARGV[i] end
end
return new
"""
# KEYS: pages, order, seen; ARGV: URL, page
_ADD_PAGE = """
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 then redis.call('RPUSH', KEYS[2], ARGV[1]) end
redis.call('SADD', KEYS[3], ARGV[1])
"""
# KEYS: lock, stage; ARGV: token, round, stage
_PUBLISH = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'round', ARGV[2], 'stage', ARGV[3])
return 1
"""
# KEYS: lock; ARGV: token
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
"""


class RedisRoundStore:
    """A :class:`~bilingual_spider.patterns.round_state.RoundStore` in Redis under ``base``."""

    def __init__(self, redis: PatientRedis, base: str, lock_seconds: float = 300.0) -> None:
        self.redis = redis
        self.base = base
        self.lock_ms = max(1, round(lock_seconds * 1000))
        key = f"{base}:pup"
        self.pages_key, self.order_key = f"{key}:pages", f"{key}:page_order"
        self.queued_key, self.found_by_key = f"{key}:queued", f"{key}:found_by"
        self.not_found_key, self.stage_key = f"{key}:not_found", f"{key}:stage"
        self.lock_key = f"{key}:stage_lock"
        self.marked_keys = {kind: f"{key}:marked:{kind}" for kind in KINDS}
        self._round_pairs_key = f"{key}:round_pairs"
        self._reserve = redis.script(_RESERVE)
        self._mark_new = redis.script(_MARK_NEW)
        self._add_page = redis.script(_ADD_PAGE)
        self._publish = redis.script(_PUBLISH)
        self._unlock = redis.script(_UNLOCK)
        self._token: str | None = None  # the stage lock, while this worker holds it

    def _client_call(self, name: str, *args: object) -> object:
        return self.redis.call(getattr(self.redis.client, name), *args)

    def first_sight(self, site: str, found_by: str) -> bool:
        return bool(self._client_call("hsetnx", self.found_by_key, site, found_by))

    def found_by(self, site: str) -> str:
        return _text(self._client_call("hget", self.found_by_key, site)) or ""

    def reserve_pages(self, site: str, urls: Sequence[str], budget: int) -> list[str]:
        if not urls or budget <= 0:
            return []
        granted = self._reserve([self.marked_keys[SEEN], self.queued_key], [site, budget, *urls])
        return [_text(url) for url in granted]

    def mark_new(self, kind: str, keys: Sequence[str]) -> list[str]:
        if not keys:
            return []
        return [_text(key) for key in self._mark_new([self.marked_keys[kind]], list(keys))]

    def marked(self, kind: str, keys: Sequence[str] | None = None) -> set[str]:
        if keys is None:
            return {_text(key) for key in self._client_call("smembers", self.marked_keys[kind])}
        if not keys:
            return set()
        found = self._client_call("smismember", self.marked_keys[kind], list(keys))
        return {key for key, is_marked in zip(keys, found, strict=True) if is_marked}

    def add_page(self, record: PageRecord, external_urls: Sequence[str] = ()) -> None:
        blob = _pack((record, tuple(external_urls)))
        keys = [self.pages_key, self.order_key, self.marked_keys[SEEN]]
        self._add_page(keys, [record.url, blob])

    def page(self, url: str) -> PageRecord | None:
        blob = self._client_call("hget", self.pages_key, url)
        return None if blob is None else _unpack(blob)[0]

    def crawled(self) -> CrawledSites:
        crawled = CrawledSites()
        urls = self._client_call("lrange", self.order_key, 0, -1)
        for start in range(0, len(urls), PAGES_PER_CALL):
            chunk = urls[start : start + PAGES_PER_CALL]
            for blob in self._client_call("hmget", self.pages_key, chunk):
                if blob is not None:
                    crawled.add(*_unpack(blob))
        return crawled

    def set_not_found(self, site: str, page: Fingerprint) -> None:
        self._client_call("hset", self.not_found_key, site, pickle.dumps(page, protocol=5))

    def not_found(self, site: str) -> Fingerprint | None:
        blob = self._client_call("hget", self.not_found_key, site)
        return None if blob is None else pickle.loads(blob)

    def stage(self) -> StageState:
        found = self._client_call("hgetall", self.stage_key)
        if not found:
            return StageState()
        fields = {_text(k): _text(v) for k, v in found.items()}
        return StageState(int(fields["round"]), Stage(fields["stage"]))

    def round_pairs(self, round: int) -> RoundPairs | None:
        blob = self._client_call("get", f"{self._round_pairs_key}:{round}")
        return None if blob is None else _unpack(blob)

    def keep_round_pairs(self, round: int, pairs: RoundPairs) -> None:
        self._client_call("set", f"{self._round_pairs_key}:{round}", _pack(pairs))

    def begin_transition(self) -> bool:
        token = uuid.uuid4().hex
        taken = self.redis.call(
            self.redis.client.set, self.lock_key, token, nx=True, px=self.lock_ms
        )
        self._token = token if taken else None
        return bool(taken)

    def publish(self, state: StageState) -> bool:
        if self._token is None:
            return False
        keys = [self.lock_key, self.stage_key]
        return bool(self._publish(keys, [self._token, state.round, state.stage.value]))

    def end_transition(self) -> None:
        if self._token is not None:
            self._unlock([self.lock_key], [self._token])
            self._token = None


def _pack(value: object) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=5), 3)


def _unpack(blob: bytes) -> object:
    return pickle.loads(zlib.decompress(blob))


def _text(value: bytes | str | None) -> str:
    return value.decode() if isinstance(value, bytes) else value  # type: ignore[return-value]
