"""Python's garbage collector tuned for a crawl: the start-up heap out of its sight, and young
collections less often.

Before its first request a crawl holds a few hundred thousand objects that live as long as it
does: Scrapy and its components, the models (the Link Predictor's weights, the language names of
162 languages in many languages, stop words, the Public Suffix List), the seeds. CPython's cyclic
collector walks every tracked object on each full (generation 2) collection, and the objects a
crawl makes (requests, responses, deferreds) start one every few seconds: measured on a COBFC
crawl of 4,000 pages, 9 full collections of up to 0.2 s, about a tenth of the crawl's time.
``gc.freeze()`` when the engine starts moves every object alive then to a permanent generation
the collector ignores (the Python documentation's ``gc.freeze``); what the crawl makes is
collected as before. ``BILINGUAL_GC_FREEZE = False`` turns it off.

A crawl also makes and drops objects fast: a response's parsed page, its link contexts, the
requests it yields. Python starts a young (generation 0) collection every 700 net allocations of
tracked objects, which in a COBFC crawl of 4,000 pages is some 1,300 collections, and every tenth
of them an older one: 0.8-0.9 s of a 14 s crawl, even with the start-up heap frozen. With the
young threshold at 10,000 (``BILINGUAL_GC_THRESHOLD = [10000, 10, 10]``: the older generations
keep Python's ratios), 44 young collections and no full one, 0.2 s, and the crawl's peak memory
the same (448 MB in both). What a young collection frees is the crawl's cyclic garbage of the
last few thousand allocations (a response in a cycle waits a little longer); objects without
cycles are freed by reference counting at once, whatever the threshold. ``[]`` or None: Python's.

When the engine stops both are undone (unfrozen, Python's thresholds back), so that a process
running several crawls (tests, ``CrawlerProcess``) does not keep the garbage of one for ever.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured


class GcTuning:
    """``gc.freeze()`` and ``gc.set_threshold(...)`` at ``engine_started``, undone at
    ``engine_stopped``; stats ``gc/frozen_objects`` (objects frozen), ``gc/threshold`` and
    ``gc/full_collections`` (full collections from the engine's start to the spider's close)."""

    def __init__(self, crawler: Crawler, freeze: bool, threshold: tuple[int, ...] | None) -> None:
        self.stats = crawler.stats
        self.freeze = freeze
        self.threshold = threshold
        self.frozen = False
        self.threshold_before: tuple[int, ...] | None = None
        self.full_collections_before = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> GcTuning:
        settings = crawler.settings
        freeze = settings.getbool("BILINGUAL_GC_FREEZE")
        threshold = gc_threshold(settings.getlist("BILINGUAL_GC_THRESHOLD"))
        if not freeze and threshold is None:
            raise NotConfigured
        extension = cls(crawler, freeze, threshold)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_started(self) -> None:
        self.full_collections_before = gc.get_stats()[2]["collections"]
        if self.threshold is not None:
            self.threshold_before = gc.get_threshold()
            gc.set_threshold(*self.threshold)
            self.stats.set_value("gc/threshold", list(self.threshold))
        if self.freeze and not gc.get_freeze_count():  # else frozen by someone else: theirs
            gc.freeze()
            self.frozen = True
            self.stats.set_value("gc/frozen_objects", gc.get_freeze_count())

    def spider_closed(self) -> None:
        full = gc.get_stats()[2]["collections"] - self.full_collections_before
        self.stats.set_value("gc/full_collections", full)

    def engine_stopped(self) -> None:
        if self.threshold_before is not None:
            gc.set_threshold(*self.threshold_before)
            self.threshold_before = None
        if self.frozen:
            gc.unfreeze()
            self.frozen = False


def gc_threshold(values: Sequence[object]) -> tuple[int, ...] | None:
    """``BILINGUAL_GC_THRESHOLD`` as ``gc.set_threshold`` takes it: one to three whole numbers,
    the first above 0 (0 would turn the collector off); empty: None (Python's own)."""
    if not values:
        return None
    try:
        numbers = tuple(int(str(value)) for value in values)
    except ValueError:
        numbers = ()
    if not 1 <= len(numbers) <= 3 or numbers[0] < 1 or min(numbers) < 0:
        raise ValueError(
            f"BILINGUAL_GC_THRESHOLD is one to three whole numbers, the first above 0 "
            f"(gc.set_threshold), not {list(values)!r}"
        )
    return numbers
