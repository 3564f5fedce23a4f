"""The subprocess helpers that tests and benchmarks crawl the sandbox with."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import crawl_through, spider_opened_since


def test_a_failed_crawl_raises_with_the_tail_of_its_log() -> None:
    with pytest.raises(RuntimeError, match=r"no_such_spider crawl failed \(\d+\).*no_such_spider"):
        crawl_through("http://127.0.0.1:9", "no_such_spider", timeout=300)


def test_the_spider_opened_since_condition_counts_from_the_next_opening(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("[scrapy.core.engine] INFO: Spider opened\n")  # a run before: not counted
    opened = spider_opened_since(log, 0.05)
    assert not opened()
    log.write_text(log.read_text() + "[scrapy.core.engine] INFO: Spider opened\n")
    assert not opened()  # opened just now: not yet 0.05 s ago
    time.sleep(0.06)
    assert opened()
    assert not spider_opened_since(tmp_path / "no_log_yet.txt", 0.0)()
