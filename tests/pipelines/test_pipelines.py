from pathlib import Path

import pytest
from scrapy.exceptions import DropItem

from bilingual_spider.items import BilingualSiteItem, FetchedPageItem, UrlPairItem
from bilingual_spider.pipelines.bitextor_tsv import BitextorTsvPipeline, tsv_line
from bilingual_spider.pipelines.duplicates import DuplicatesPipeline
from tests.crawlers import get_crawler


def pair(a: str, b: str, score: float = 0.9) -> UrlPairItem:
    return UrlPairItem(a, b, "en", "fr", score=score)


def test_duplicates_dropped_per_kind_and_counted() -> None:
    crawler = get_crawler()
    pipeline = DuplicatesPipeline(crawler.stats)
    site = BilingualSiteItem("www.example.fr", ["fr", "en"])
    assert pipeline.process_item(site) is site
    with pytest.raises(DropItem):
        pipeline.process_item(BilingualSiteItem("WWW.example.fr", ["en", "fr"]))
    first = pair("http://x/en/", "http://x/fr/")
    assert pipeline.process_item(first) is first
    with pytest.raises(DropItem):  # the same pair the other way round
        pipeline.process_item(UrlPairItem("http://x/fr/", "http://x/en/", "fr", "en"))
    page = FetchedPageItem("http://x/en/", 200, "x", "text/html", 10, "seed")
    assert pipeline.process_item(page) is page  # a page is not a pair or a site
    assert crawler.stats.get_value("pipeline/duplicates_dropped/site") == 1
    assert crawler.stats.get_value("pipeline/duplicates_dropped/pair") == 1


def test_tsv_line_format_and_escaping() -> None:
    line = tsv_line(pair("http://x/en/a\tb", "http://x/fr/", 0.5))
    assert line == "http://x/en/a%09b\thttp://x/fr/\ten\tfr\t0.5000\n"


def test_tsv_pipeline_writes_only_pairs(tmp_path: Path) -> None:
    crawler = get_crawler()
    pipeline = BitextorTsvPipeline(str(tmp_path / "out" / "pairs.tsv"), crawler.stats)
    pipeline.open_spider()
    pipeline.process_item(pair("http://x/en/", "http://x/fr/"))
    pipeline.process_item(BilingualSiteItem("x", ["en", "fr"]))
    pipeline.process_item(pair("http://x/en/2", "http://x/fr/2"))
    pipeline.close_spider()
    rows = [r.split("\t") for r in (tmp_path / "out" / "pairs.tsv").read_text().splitlines()]
    assert [r[:4] for r in rows] == [
        ["http://x/en/", "http://x/fr/", "en", "fr"],
        ["http://x/en/2", "http://x/fr/2", "en", "fr"],
    ]
    assert crawler.stats.get_value("output/tsv_pairs") == 2
