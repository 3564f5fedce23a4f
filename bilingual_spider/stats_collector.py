"""Scrapy's in-memory stats collector without its per-call deprecation check.

Scrapy 2.19's ``StatsCollector`` routes every attribute lookup of the collector through a
``__getattribute__`` that wraps its methods to warn about the deprecated ``spider`` argument
(scrapy/scrapy#7011; sped up, not removed, by #7045 and #7842): the lookup of ``self._stats``
inside each method fails a cache probe first, so a stat costs 1.6 us where the dictionary
update costs 0.1 (this machine, ``benchmarks/throughput.py`` notes). A COBFC crawl updates
about 32 stats a response (Scrapy's 14, the crawl's own 18: pages by role, the harvest rate,
the detector's, the classifiers'), 1-2 % of its CPU. Nothing here passes ``spider``; a
component that still does is served as before, only not warned.
"""

from __future__ import annotations

from scrapy.statscollectors import MemoryStatsCollector


class PlainStatsCollector(MemoryStatsCollector):
    """:class:`scrapy.statscollectors.MemoryStatsCollector` with plain attribute lookup
    (``STATS_CLASS``): the same methods and values, unwrapped."""

    __getattribute__ = object.__getattribute__
