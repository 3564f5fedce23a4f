"""Answers already received, so that the same question is never asked twice (bounded LRU).

The key is (adapter, query, continuation): one page of one query's answer. No Scrapy here.
"""

from __future__ import annotations

from collections import OrderedDict

from bilingual_spider.search.values import SearchPage, SearchQuery

CacheKey = tuple[str, SearchQuery, str | None]


class AnswerCache:
    """At most ``max_entries`` answer pages; the least recently used are forgotten first."""

    def __init__(self, max_entries: int = 20_000) -> None:
        self.max_entries = max_entries
        self._pages: OrderedDict[CacheKey, SearchPage] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pages)

    def __contains__(self, key: CacheKey) -> bool:
        return key in self._pages

    def get(self, key: CacheKey) -> SearchPage | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: CacheKey, page: SearchPage) -> None:
        if self.max_entries <= 0 or page.error is not None:
            return  # failures are never cached: they are asked again
        self._pages[key] = page
        self._pages.move_to_end(key)
        while len(self._pages) > self.max_entries:
            self._pages.popitem(last=False)
