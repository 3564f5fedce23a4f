"""The subprocess helpers that tests and benchmarks crawl the sandbox with."""

from __future__ import annotations

import pytest

from bilingual_spider.sandbox.process import crawl_through


def test_a_failed_crawl_raises_with_the_tail_of_its_log() -> None:
    with pytest.raises(RuntimeError, match=r"no_such_spider crawl failed \(\d+\).*no_such_spider"):
        crawl_through("http://127.0.0.1:9", "no_such_spider", timeout=300)
