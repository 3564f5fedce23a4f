"""Write URL pairs as Bitextor's document-alignment input.

Format: ``url1<TAB>url2<TAB>lang1<TAB>lang2<TAB>score``.

On when ``BILINGUAL_TSV_PATH`` is set. Each line is flushed as it is written, so a crawl that is
killed loses no pair it already emitted.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.statscollectors import StatsCollector

from bilingual_spider.items import UrlPairItem


def tsv_line(item: UrlPairItem) -> str:
    """One TSV line; tabs and newlines inside fields would break the format, so they are escaped."""
    fields = (item.source_url, item.target_url, item.source_lang, item.target_lang)
    clean = [f.replace("\t", "%09").replace("\n", "%0A") for f in fields]
    return "\t".join([*clean, f"{item.score:.4f}"]) + "\n"


class BitextorTsvPipeline:
    def __init__(self, path: str, stats: StatsCollector) -> None:
        self.path = Path(path)
        self.stats = stats
        self.file: TextIO | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BitextorTsvPipeline:
        path = crawler.settings.get("BILINGUAL_TSV_PATH")
        if not path:
            raise NotConfigured
        return cls(path, crawler.stats)

    def open_spider(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.file = self.path.open("a", encoding="utf-8", buffering=1)

    def close_spider(self) -> None:
        if self.file is not None:
            self.file.close()

    def process_item(self, item: object) -> object:
        if isinstance(item, UrlPairItem) and self.file is not None:
            self.file.write(tsv_line(item))
            self.stats.inc_value("output/tsv_pairs")
        return item
