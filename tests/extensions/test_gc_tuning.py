import gc

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured

from bilingual_spider import settings as project_settings
from bilingual_spider.extensions.gc_tuning import GcTuning, gc_threshold
from tests.crawlers import get_crawler


@pytest.fixture
def crawler():
    crawler = get_crawler(settings_dict={"MEMUSAGE_ENABLED": False})
    crawler.stats.open_spider()
    threshold = gc.get_threshold()
    yield crawler
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_what_lives_at_the_engine_start_is_out_of_the_collectors_sight_until_it_stops(crawler):
    assert gc.get_freeze_count() == 0
    extension = GcTuning.from_crawler(crawler)  # kept: signals hold their receivers weakly
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


def test_young_collections_are_rarer_while_the_engine_runs_and_pythons_thresholds_come_back(
    crawler,
):
    before = gc.get_threshold()
    extension = GcTuning.from_crawler(crawler)
    crawler.signals.send_catch_log(signals.engine_started)
    assert gc.get_threshold() == (10000, 10, 10) == tuple(project_settings.BILINGUAL_GC_THRESHOLD)
    assert crawler.stats.get_value("gc/threshold") == [10000, 10, 10]
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_threshold() == before and extension.threshold_before is None


def test_a_freeze_made_by_someone_else_is_left_to_them(crawler):
    gc.freeze()
    extension = GcTuning.from_crawler(crawler)
    crawler.signals.send_catch_log(signals.engine_started)
    crawler.signals.send_catch_log(signals.engine_stopped)
    assert gc.get_freeze_count() > 1000 and not extension.frozen
    assert crawler.stats.get_value("gc/frozen_objects") is None


def test_each_half_can_be_switched_off_and_the_project_turns_both_on(crawler):
    before = gc.get_threshold()
    thawed = get_crawler(settings_dict={"BILINGUAL_GC_FREEZE": False, "MEMUSAGE_ENABLED": False})
    thawed.stats.open_spider()
    extension = GcTuning.from_crawler(thawed)
    thawed.signals.send_catch_log(signals.engine_started)
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == (10000, 10, 10)
    thawed.signals.send_catch_log(signals.engine_stopped)
    pythons = get_crawler(settings_dict={"BILINGUAL_GC_THRESHOLD": "", "MEMUSAGE_ENABLED": False})
    pythons.stats.open_spider()
    extension = GcTuning.from_crawler(pythons)
    pythons.signals.send_catch_log(signals.engine_started)
    assert gc.get_freeze_count() > 1000 and gc.get_threshold() == before
    pythons.signals.send_catch_log(signals.engine_stopped)
    assert not extension.frozen
    with pytest.raises(NotConfigured):
        GcTuning.from_crawler(
            get_crawler(settings_dict={"BILINGUAL_GC_FREEZE": False, "BILINGUAL_GC_THRESHOLD": []})
        )
    assert "bilingual_spider.extensions.gc_tuning.GcTuning" in project_settings.EXTENSIONS


def test_a_threshold_is_read_as_gc_set_threshold_takes_it():
    assert gc_threshold(["5000", "10", "10"]) == (5000, 10, 10)  # -s KEY=5000,10,10
    assert gc_threshold([2000]) == (2000,)
    assert gc_threshold([]) is None
    for bad in (["0"], ["fast"], ["1", "2", "3", "4"], ["700", "-1"]):
        with pytest.raises(ValueError, match="BILINGUAL_GC_THRESHOLD"):
            gc_threshold(bad)
