"""A worker whose take finds the shared queue empty asks again when its idle wait is over (0.1 s,
doubling, at most ``BILINGUAL_REDIS_IDLE_MAX_WAIT``), not when Scrapy's engine next asks on its
own (every 5 s while nothing is in flight): two workers given one 40-page budget on a busy
machine, the one whose first two takes came before the other had queued its links processed
none of the 40 pages."""

from __future__ import annotations

from types import SimpleNamespace

import scrapy

from bilingual_spider.scheduler.leased_scheduler import FIRST_IDLE_WAIT, LeasedScheduler
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler
from tests.waiting import wait_until

IDLE_MAX_WAIT = 0.5


class Spider(scrapy.Spider):
    name = "idle"


class Call:
    """A once-only call (Scrapy's ``CallLaterOnce``): the delays it was asked for."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    def schedule(self, delay: float = 0) -> None:
        self.delays.append(delay)

    def cancel(self) -> None:
        pass


def test_an_idle_worker_has_the_engine_ask_again_when_its_next_take_is_due(redis_prefix):
    settings = {
        "REDIS_URL": REDIS_URL,
        "BILINGUAL_REDIS_KEY_PREFIX": redis_prefix,
        "BILINGUAL_REDIS_IDLE_MAX_WAIT": IDLE_MAX_WAIT,
    }
    crawler = get_crawler(Spider, settings)
    worker = LeasedScheduler.from_crawler(crawler)
    engine_call = Call()
    crawler.engine = SimpleNamespace(
        _slot=SimpleNamespace(inprogress=set(), nextcall=engine_call), scheduler=worker
    )
    worker.wake = wake = Call()  # the worker's own call back (the test plays its timer)
    worker.open(Spider())
    try:
        assert worker.next_request() is None  # nothing queued
        assert wake.delays == [FIRST_IDLE_WAIT]  # not left to the engine's 5 s
        # the engine's own call is left alone: a response or a request queued meanwhile still
        # has the engine ask at once, not when this worker's wait is over
        assert engine_call.delays == []
        worker._wake_engine()  # the wait is over
        assert engine_call.delays == [0]

        def empty_takes() -> int:
            assert worker.next_request() is None
            return crawler.stats.get_value("scheduler/leases/takes_empty", 0) >= 5

        wait_until(empty_takes)  # each call asks to be called back by the time a take is due
        assert all(0 < delay <= IDLE_MAX_WAIT for delay in wake.delays)
        for doubled in (FIRST_IDLE_WAIT * 2, FIRST_IDLE_WAIT * 4, IDLE_MAX_WAIT):
            assert doubled in wake.delays  # the wait after each empty take, up to the most

        assert worker.enqueue_request(scrapy.Request("http://www.museo.example/"))
        taken = worker.next_request()  # queued work is taken at once
        assert taken is not None and taken.url == "http://www.museo.example/"
    finally:
        worker.close("finished")
