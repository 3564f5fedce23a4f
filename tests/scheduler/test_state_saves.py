"""A ``JOBDIR`` crawl's state is saved every ``BILINGUAL_CRASH_SAFE_STATE_INTERVAL`` seconds, and
less often once a save costs more than ``BILINGUAL_CRASH_SAFE_STATE_SHARE`` of that: the state is
pickled whole and grows with the crawl. A fake clock stands for time: no test here waits."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from scrapy import Spider

from bilingual_spider.scheduler import crash_safe_scheduler
from bilingual_spider.scheduler.crash_safe_scheduler import (
    CrashSafeScheduler,
    seconds_between_saves,
)
from tests.crawlers import get_crawler
from tests.fake_clock import FakeClock as Clock


def test_saves_keep_their_interval_while_cheap_and_space_out_as_they_cost_more() -> None:
    assert seconds_between_saves(1.0, 0.02, 0.05) == 1.0
    assert seconds_between_saves(1.0, 0.05, 0.05) == 1.0
    assert seconds_between_saves(1.0, 0.2, 0.05) == pytest.approx(4.0)
    assert seconds_between_saves(2.0, 3.0, 0.1) == pytest.approx(30.0)
    assert seconds_between_saves(1.0, 3.0, 0.0) == 1.0  # 0: every interval, whatever it costs


class GrowingStateSpider(Spider):
    """A spider whose state takes ``save_seconds`` of the clock to save."""

    name = "growing"
    clock: Clock
    save_seconds = 0.0
    saves = 0

    def crawl_state(self) -> dict[str, Any]:
        self.saves += 1
        self.clock.now += self.save_seconds
        return {"saves": self.saves}

    def restore_crawl_state(self, parts: dict[str, Any]) -> None:
        self.saves = parts["saves"]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock(1000.0)
    monkeypatch.setattr(crash_safe_scheduler.time, "monotonic", fake)
    return fake


def opened(tmp_path: Path, clock: Clock, share: float = 0.05) -> tuple[CrashSafeScheduler, Any]:
    """A scheduler saving its spider's state every second, within ``share`` of the time."""
    settings = {
        "JOBDIR": str(tmp_path),
        "BILINGUAL_CRASH_SAFE_STATE_INTERVAL": 1.0,
        "BILINGUAL_CRASH_SAFE_STATE_SHARE": share,
    }
    crawler = get_crawler(GrowingStateSpider, settings)
    crawler.spider = spider = GrowingStateSpider()
    spider.clock = clock
    crawler.engine = SimpleNamespace(_slot=None, scraper=SimpleNamespace(slot=None))  # idle
    crawler.stats.open_spider()
    scheduler = CrashSafeScheduler.from_crawler(crawler)
    scheduler.open(spider)
    scheduler.spider_opened()
    return scheduler, spider


def saves_over(scheduler: CrashSafeScheduler, clock: Clock, seconds: float) -> int:
    """The saves made while the engine asks for a request every 0.1 s for ``seconds``."""
    before = scheduler.spider.saves
    for _ in range(round(seconds / 0.1)):
        clock.now += 0.1
        scheduler.next_request()
    return scheduler.spider.saves - before


def test_a_cheap_state_is_saved_every_interval(tmp_path: Path, clock: Clock) -> None:
    scheduler, spider = opened(tmp_path, clock)
    spider.save_seconds = 0.01
    assert 9 <= saves_over(scheduler, clock, 10.0) <= 10
    assert scheduler.crawler.stats.get_value("scheduler/crash_safe/seconds_between_saves") == 1.0


def test_a_state_that_costs_more_is_saved_less_often(tmp_path: Path, clock: Clock) -> None:
    scheduler, spider = opened(tmp_path, clock, share=0.05)
    spider.save_seconds = 0.25  # grown: a save would take a quarter of each second
    saves = saves_over(scheduler, clock, 60.0)
    spent = saves * spider.save_seconds
    assert spent <= 0.05 * 60 + spider.save_seconds  # the share, give or take the save under way
    assert saves >= 10  # still saved: every 5 s, not every 1 s
    stats = scheduler.crawler.stats
    assert stats.get_value("scheduler/crash_safe/seconds_between_saves") == pytest.approx(5.0)
    spider.save_seconds = 0.01  # cheap again (a state can shrink): back to every interval
    saves_over(scheduler, clock, 6.0)
    assert 9 <= saves_over(scheduler, clock, 10.0) <= 10


def test_share_zero_saves_every_interval_whatever_it_costs(tmp_path: Path, clock: Clock) -> None:
    scheduler, spider = opened(tmp_path, clock, share=0.0)
    spider.save_seconds = 0.25
    assert saves_over(scheduler, clock, 10.0) >= 7
