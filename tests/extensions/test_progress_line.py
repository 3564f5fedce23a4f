"""The progress line: every BILINGUAL_PROGRESS_INTERVAL seconds and at the close, for a spider
that says one; none for a spider that does not."""

from __future__ import annotations

import logging

import pytest
from scrapy import Spider
from scrapy.exceptions import NotConfigured

from bilingual_spider.extensions.progress_line import ProgressLine
from tests.crawlers import get_crawler


class Counting(Spider):
    name = "counting"
    pages = 7

    def progress_line(self, minutes: float) -> str:
        return f"counting: {self.pages} pages ({minutes:.1f} min)"


def test_a_spider_that_says_its_progress_has_it_logged_when_it_closes(caplog) -> None:
    crawler = get_crawler(Counting, {"BILINGUAL_PROGRESS_INTERVAL": 0})
    line = ProgressLine.from_crawler(crawler)
    spider = Counting()
    line.spider_opened(spider)  # interval 0: no periodic line
    assert line._task is None
    with caplog.at_level(logging.INFO, logger="bilingual_spider.extensions.progress_line"):
        line.spider_closed(spider)
    assert [r.getMessage() for r in caplog.records] == ["counting: 7 pages (0.0 min)"]


def test_a_spider_without_a_progress_line_has_no_extension() -> None:
    with pytest.raises(NotConfigured):
        ProgressLine.from_crawler(get_crawler(Spider))
