import gc

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured

from bilingual_spider import settings as project_settings
from bilingual_spider.extensions.gc_freeze import GcFreeze
from tests.crawlers import get_crawler


@pytest.fixture
def crawler():
    crawler = get_crawler(settings_dict={"MEMUSAGE_ENABLED": False})
    crawler.stats.open_spider()
    yield crawler
    gc.unfreeze()


def test_what_lives_at_the_engine_start_is_out_of_the_collectors_sight_until_it_stops(crawler):
    assert gc.get_freeze_count() == 0
    extension = GcFreeze.from_crawler(crawler)  # kept: signals hold their receivers weakly
    crawler.signals.send_catch_log(signals.engine_started)
    frozen = gc.get_freeze_count()
    assert frozen > 1000 and crawler.stats.get_value("gc/frozen_objects") >= frozen
    made_during_the_crawl = [[] for _ in range(100)]
    made_during_the_crawl.append(made_during_the_crawl)  # a cycle: the collector's business
    assert gc.is_tracked(made_during_the_crawl) and extension.frozen
    gc.collect()
    crawler.signals.send_catch_log(signals.spider_closed)
    assert crawler.stats.get_value("gc/full_collections") >= 1
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_freeze_count() == 0


def test_a_freeze_made_by_someone_else_is_left_to_them(crawler):
    gc.freeze()
    extension = GcFreeze.from_crawler(crawler)
    crawler.signals.send_catch_log(signals.engine_started)
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_freeze_count() > 1000 and not extension.frozen
    assert crawler.stats.get_value("gc/frozen_objects") is None


def test_it_can_be_switched_off_and_the_project_turns_it_on():
    with pytest.raises(NotConfigured):
        GcFreeze.from_crawler(get_crawler(settings_dict={"BILINGUAL_GC_FREEZE": False}))
    assert "bilingual_spider.extensions.gc_freeze.GcFreeze" in project_settings.EXTENSIONS
