"""A run directory: everything one crawl leaves, in one folder, a feed per item type.

``scrapy crawl SPIDER -a out=DIR`` (or ``-s BILINGUAL_RUN_DIR=DIR``) writes there:

- ``sites.jsonl`` (bilingual sites), ``verdicts.jsonl`` (the detector's verdict on every site
  judged), ``pairs.jsonl`` (URL pairs), ``pages.jsonl`` (the forward crawl's page records): one
  feed per item type (:data:`~bilingual_spider.items.FEED_FILES`, Scrapy ``FEEDS`` with
  ``item_classes``), each line with its ``type``; the feeds of what the spider makes (its
  ``item_types``) are written even empty, the others only when an item of theirs came;
- ``stats.json`` and ``stats.history.jsonl`` (unless ``BILINGUAL_STATS_FILE`` says elsewhere).

A feed given with ``-o``/``-O`` is written too. A crawl resumed with ``JOBDIR``, and a worker of
a Redis crawl (``REDIS_URL``), append to the feeds they left; any other crawl replaces them.
:class:`RunDirectory` is a Scrapy add-on (``ADDONS``): it sets these settings once the spider,
and so its ``out`` argument, exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scrapy.crawler import Crawler
from scrapy.settings import SETTINGS_PRIORITIES, Settings

from bilingual_spider.items import FEED_FILES

STATS_FILE = "stats.json"


def run_feeds(
    directory: str | Path, append: bool = False, always: Iterable[type] = ()
) -> dict[str, dict[str, Any]]:
    """The ``FEEDS`` entries of a run directory: a JSON-lines feed per item type; those of the
    ``always`` types are written even empty (what the spider makes: a script can read them)."""
    run = Path(directory)
    made = set(always)
    return {
        str(run / name): {
            "format": "jsonlines",
            "item_classes": [item_class],
            "overwrite": not append,
            "store_empty": item_class in made,
        }
        for item_class, name in FEED_FILES.items()
    }


class RunDirectory:
    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RunDirectory:
        return cls(crawler)

    def update_settings(self, settings: Settings) -> None:
        directory = settings.get("BILINGUAL_RUN_DIR") or getattr(self.crawler.spider, "out", None)
        if not directory:
            return
        # a spider argument's consequences: above the project's defaults, below the command line
        spider = SETTINGS_PRIORITIES["spider"]
        made = getattr(self.crawler.spider, "item_types", ())
        # resumed: a JOBDIR crawl, or a worker of a Redis crawl (restarted, it goes on with it)
        append = bool(settings.get("JOBDIR") or settings.get("REDIS_URL"))
        feeds = {**settings.getdict("FEEDS"), **run_feeds(directory, append, made)}
        settings.set("FEEDS", feeds, priority=max(settings.getpriority("FEEDS") or 0, spider))
        settings.set("BILINGUAL_RUN_DIR", str(directory), priority=spider)
        if not settings.get("BILINGUAL_STATS_FILE"):
            settings.set("BILINGUAL_STATS_FILE", str(Path(directory) / STATS_FILE), spider)
