"""A test crawler whose settings start from the project's ``BILINGUAL_*`` defaults, as a crawl's
do: components read their settings without fallbacks of their own (defaults live in
``settings.py`` only), so a crawler of Scrapy's defaults alone would miss them."""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler as scrapy_get_crawler

from bilingual_spider import settings as project_settings

PROJECT_DEFAULTS = {
    name: getattr(project_settings, name)
    for name in dir(project_settings)
    if name.startswith("BILINGUAL_")
}


def get_crawler(
    spidercls: Any = None, settings_dict: dict[str, Any] | None = None, **kwargs: Any
) -> Crawler:
    """:func:`scrapy.utils.test.get_crawler` with the project's ``BILINGUAL_*`` defaults under
    ``settings_dict``."""
    return scrapy_get_crawler(spidercls, {**PROJECT_DEFAULTS, **(settings_dict or {})}, **kwargs)


def project_settings(values: dict[str, Any] | None = None, priority: str = "cmdline") -> Settings:
    """Scrapy's settings with the project's ``BILINGUAL_*`` defaults underneath ``values`` (set
    with ``priority``), as a crawl's settings are before its add-ons run."""
    settings = Settings(PROJECT_DEFAULTS, priority="project")
    settings.setdict(values or {}, priority=priority)
    return settings
