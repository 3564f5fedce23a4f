"""Queued requests' dicts made without Scrapy's search of the spider's members."""

from __future__ import annotations

import pytest
import scrapy
from scrapy.utils.request import request_from_dict

from bilingual_spider.scheduler.request_dicts import request_to_dict


class Callbacks:
    def detector_probe(self, response):  # a mixin's method, as DetectorCallbacks'
        return []


class Counting(Callbacks, scrapy.Spider):
    name = "counting"
    evaluated = 0

    @property
    def expensive(self) -> int:
        Counting.evaluated += 1
        return 1

    def parse(self, response):
        return []

    def failed(self, failure):
        return []


class Aliasing(Counting):
    alias = Counting.parse  # the same function under another name


def requests(spider: Counting) -> list[scrapy.Request]:
    return [
        scrapy.Request("http://a.example/", callback=spider.parse, errback=spider.failed),
        scrapy.Request("http://a.example/p", callback=spider.detector_probe, meta={"k": [1]}),
        scrapy.Request("http://a.example/none", dont_filter=True, priority=3),
    ]


def test_the_dict_is_scrapys_and_made_without_evaluating_the_spiders_properties():
    spider = Counting()
    for request in requests(spider):
        Counting.evaluated = 0
        ours = request_to_dict(request, spider)
        ours_evaluated = Counting.evaluated
        scrapys = request.to_dict(spider=spider)
        if request.callback is not None:  # Scrapy's own search evaluates every property
            assert Counting.evaluated >= 1
        assert ours_evaluated == 0
        assert ours == scrapys
        back = request_from_dict(ours, spider=spider)
        assert (back.callback, back.errback) == (request.callback, request.errback)


def test_a_method_of_two_names_is_named_by_its_functions_name_and_read_back_the_same():
    spider = Aliasing()
    request = scrapy.Request("http://a.example/", callback=spider.alias)
    ours = request_to_dict(request, spider)
    assert (ours["callback"], request.to_dict(spider=spider)["callback"]) == ("parse", "alias")
    assert request_from_dict(ours, spider=spider).callback == spider.alias


class Outside:
    def parse_elsewhere(self, response):
        return []


def test_a_callback_that_is_no_method_of_the_spider_fails_as_in_scrapy():
    spider = Counting()
    for callback in (Outside().parse_elsewhere, lambda response: []):
        request = scrapy.Request("http://a.example/", callback=callback)
        with pytest.raises(ValueError, match="not an instance method"):
            request.to_dict(spider=spider)
        with pytest.raises(ValueError, match="not an instance method"):
            request_to_dict(request, spider)
