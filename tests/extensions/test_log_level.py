import logging

import pytest
from scrapy import signals
from scrapy.exceptions import NotConfigured

from bilingual_spider import settings as project_settings
from bilingual_spider.extensions.log_level import PER_RESPONSE_LOGGERS, ScrapyDebugGate
from tests.crawlers import get_crawler


def test_above_debug_the_per_response_loggers_make_no_debug_records_until_the_engine_stops():
    crawler = get_crawler(settings_dict={"LOG_LEVEL": "INFO", "MEMUSAGE_ENABLED": False})
    gate = ScrapyDebugGate.from_crawler(crawler)
    engine = logging.getLogger("scrapy.core.engine")
    try:
        assert not engine.isEnabledFor(logging.DEBUG) and engine.isEnabledFor(logging.INFO)
        assert not logging.getLogger("scrapy.core.scraper").isEnabledFor(logging.DEBUG)
        assert logging.getLogger("scrapy.core.downloader").level == logging.NOTSET  # others
    finally:
        crawler.signals.send_catch_log(signals.engine_stopped)
    assert gate.gated == [] and engine.level == logging.NOTSET
    assert all(logging.getLogger(name).level == logging.NOTSET for name in PER_RESPONSE_LOGGERS)


@pytest.mark.parametrize(
    "settings",
    [{"LOG_LEVEL": "DEBUG"}, {"LOG_LEVEL": "INFO", "BILINGUAL_GATE_SCRAPY_DEBUG": False}],
)
def test_at_debug_or_switched_off_it_stays_out(settings):
    with pytest.raises(NotConfigured):
        ScrapyDebugGate.from_crawler(get_crawler(settings_dict=settings))


def test_a_logger_given_a_level_elsewhere_is_left_alone():
    scraper = logging.getLogger("scrapy.core.scraper")
    scraper.setLevel(logging.DEBUG)
    try:
        crawler = get_crawler(settings_dict={"LOG_LEVEL": "WARNING", "MEMUSAGE_ENABLED": False})
        ScrapyDebugGate.from_crawler(crawler)
        assert scraper.level == logging.DEBUG
        crawler.signals.send_catch_log(signals.engine_stopped)
        assert scraper.level == logging.DEBUG
    finally:
        scraper.setLevel(logging.NOTSET)


def test_the_project_turns_it_on():
    assert "bilingual_spider.extensions.log_level.ScrapyDebugGate" in project_settings.EXTENSIONS
