"""Feeds are on disk item by item: a killed crawl keeps every item it exported (issue 32)."""

from __future__ import annotations

import json
from pathlib import Path

from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.feedexport import FileFeedStorage
from scrapy.spiders import Spider

from bilingual_spider import settings as ours
from bilingual_spider.output.flushed_feed import FlushedFileFeedStorage


def exported_before_close(storage_class: type, path: Path, items: int) -> list[dict]:
    """What another reader finds in the feed after ``items`` exports, before the feed closes
    (what a crawl killed then would leave)."""
    storage = storage_class(str(path), feed_options={"overwrite": True})
    file = storage.open(Spider("s"))
    exporter = JsonLinesItemExporter(file)
    exporter.start_exporting()
    for number in range(items):
        exporter.export_item({"url": f"http://a.example/{number}", "text": "x" * 50})
    found = [json.loads(line) for line in path.read_text().splitlines()]
    storage.store(file)
    return found


def test_every_exported_item_is_in_the_file_before_it_closes(tmp_path: Path) -> None:
    found = exported_before_close(FlushedFileFeedStorage, tmp_path / "pages.jsonl", 30)
    assert [item["url"] for item in found] == [f"http://a.example/{n}" for n in range(30)]
    # Scrapy's own storage keeps them in its buffer: that is what a kill -9 lost
    assert exported_before_close(FileFeedStorage, tmp_path / "plain.jsonl", 30) == []


def test_the_project_uses_it_for_local_feeds_and_appends_when_asked(tmp_path: Path) -> None:
    assert ours.FEED_STORAGES["file"].endswith("FlushedFileFeedStorage")
    assert ours.FEED_STORAGES[""] == ours.FEED_STORAGES["file"]
    path = tmp_path / "sub" / "pages.jsonl"
    path.parent.mkdir()
    path.write_text('{"url": "old"}\n')
    storage = FlushedFileFeedStorage(str(path), feed_options={"overwrite": False})
    file = storage.open(Spider("s"))
    file.write(b'{"url": "new"}\n')
    assert path.read_text() == '{"url": "old"}\n{"url": "new"}\n'
    storage.store(file)
