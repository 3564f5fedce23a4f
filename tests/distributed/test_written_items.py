"""One verdict and one bilingual-site record per site across every worker's output, also after a
worker was killed between claiming an item and writing it (the real Redis)."""

from __future__ import annotations

import contextlib
import json

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.test import get_crawler

from bilingual_spider.adapters.pupsniffer_items import PupSnifferItems
from bilingual_spider.distributed.written_items import WrittenItems
from bilingual_spider.items import (
    BilingualSiteItem,
    FetchedPageItem,
    SiteVerdictItem,
    UrlPairItem,
    item_key,
)
from bilingual_spider.output.feed_recovery import record_keys_in_jsonl
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import LOCAL, UrlPair
from bilingual_spider.patterns.round_state import InMemoryRoundStore
from bilingual_spider.pipelines.duplicates import DuplicatesPipeline


def verdict(site: str) -> SiteVerdictItem:
    return SiteVerdictItem(
        site=site, url=f"http://{site}/", bilingual=True, languages=["en", "fr"], reason="",
        pages_downloaded=2,
    )  # fmt: skip


def test_an_item_another_worker_wrote_is_dropped_and_pages_are_left_alone(redis, redis_prefix):
    crawler = get_crawler()
    one = DuplicatesPipeline(crawler.stats, WrittenItems(redis, f"{redis_prefix}:s", "w1"))
    two = DuplicatesPipeline(crawler.stats, WrittenItems(redis, f"{redis_prefix}:s", "w2"))
    assert one.process_item(verdict("a.example")) is not None
    with pytest.raises(DropItem):
        two.process_item(verdict("A.example"))
    site = BilingualSiteItem("a.example", ["en", "fr"])
    assert two.process_item(site) is site  # another kind: its own key
    page = FetchedPageItem("http://a.example/", 200, "a.example", "text/html", 10, "seed")
    assert one.process_item(page) is page and two.process_item(page) is page  # per worker
    assert crawler.stats.get_value("pipeline/duplicates_dropped/verdict") == 1


def test_a_restarted_worker_forgets_the_claims_its_output_does_not_hold(
    redis, redis_prefix, tmp_path
):
    """Killed after claiming b.example's verdict and before its line reached the file: once
    settled, the verdict redone (by any worker) is written; a.example's stays dropped."""
    feed = tmp_path / "verdicts.jsonl"
    before = DuplicatesPipeline(get_crawler().stats, WrittenItems(redis, f"{redis_prefix}:s", "w1"))
    for site in ("a.example", "b.example"):
        before.process_item(verdict(site))
    feed.write_text(json.dumps({"type": "site_verdict", "site": "a.example"}) + "\n")
    assert WrittenItems(redis, f"{redis_prefix}:s", "w2").claim(("site", "c.example"))
    restarted = WrittenItems(redis, f"{redis_prefix}:s", "w1")
    assert restarted.settle(record_keys_in_jsonl([feed])) == 1
    other = DuplicatesPipeline(get_crawler().stats, WrittenItems(redis, f"{redis_prefix}:s", "w2"))
    assert other.process_item(verdict("b.example")) is not None
    with pytest.raises(DropItem):
        other.process_item(verdict("a.example"))
    assert not restarted.claim(("site", "c.example"))  # another worker's claim stays


def test_a_pair_another_worker_wrote_is_not_written_again_by_a_restarted_one(
    redis, redis_prefix, tmp_path
):
    """PupSniffer's pairs are written once crawl-wide: w2 wrote one pair, w1 was killed after
    claiming another and before writing it. Restarted and settled against its output, w1 writes
    the pair it lost when its redelivered batch offers both again, and drops the one w2 wrote."""
    base = f"{redis_prefix}:p"
    wrote, lost = (
        pair_item("http://a.example/en/", "http://a.example/fr/"),
        pair_item("http://a.example/en/b", "http://a.example/fr/b"),
    )
    two = DuplicatesPipeline(get_crawler().stats, WrittenItems(redis, base, "w2"))
    assert two.process_item(wrote) is wrote
    assert WrittenItems(redis, base, "w1").claim(item_key(lost))  # then killed
    restarted = WrittenItems(redis, base, "w1")
    assert restarted.settle(record_keys_in_jsonl([tmp_path / "pairs.jsonl"])) == 1
    crawler = get_crawler()
    one = DuplicatesPipeline(crawler.stats, restarted)
    assert one.process_item(lost) is lost
    with pytest.raises(DropItem):
        one.process_item(wrote)
    assert crawler.stats.get_value("pipeline/duplicates_dropped/pair") == 1


def pair_item(source: str, target: str) -> UrlPairItem:
    return UrlPairItem(source_url=source, target_url=target, source_lang="en", target_lang="fr")


def test_a_worker_taking_over_a_batch_writes_the_pairs_its_worker_marked_and_never_claimed(
    redis, redis_prefix
):
    """w1 marked both pairs of a batch emitted, wrote the first and was killed before handing on
    the second; it stays away past its lease, and w2 takes the batch, redelivered (not restarted
    itself). w2 offers both again: the record drops the pair w1 wrote, lets the other through."""
    base = f"{redis_prefix}:t"
    store = InMemoryRoundStore()  # the crawl's round store, every worker's marks
    gone = PupSnifferItems(store, get_crawler(), [])
    keyed = list(gone.pair_items([url_pair("en/", "fr/"), url_pair("en/b", "fr/b")]))
    written, _ = list(gone.new_items(keyed))
    DuplicatesPipeline(get_crawler().stats, WrittenItems(redis, base, "w1")).process_item(written)
    crawler = get_crawler()
    taking_over = PupSnifferItems(store, crawler, [])
    pipeline = DuplicatesPipeline(crawler.stats, WrittenItems(redis, base, "w2"))
    kept = []
    for item in taking_over.new_items(keyed, redelivered=True):
        with contextlib.suppress(DropItem):
            kept.append(pipeline.process_item(item).source_url)
    assert kept == ["http://a.example/en/b"]


def url_pair(source: str, target: str) -> UrlPair:
    return UrlPair(f"http://a.example/{source}", f"http://a.example/{target}",
                   PairingPattern("en", "fr"), 0.5, 0.1, LOCAL, "en", "fr")  # fmt: skip
