"""The scheduler add-on: a focus policy that prioritises links gets one priority order over all
hosts; anything the user or a spider chose is left alone."""

from __future__ import annotations

import pytest

from bilingual_spider.scheduler.backend import GLOBAL_PRIORITY_QUEUE, SchedulerBackend
from tests.crawlers import project_settings

DEFAULT_QUEUE = "scrapy.pqueues.DownloaderAwarePriorityQueue"


def queue_after_addon(values: dict[str, object], priority: str = "cmdline") -> str:
    settings = project_settings(values, priority)
    SchedulerBackend().update_settings(settings)
    return str(settings.get("SCHEDULER_PRIORITY_QUEUE"))


@pytest.mark.parametrize(
    ("values", "queue"),
    [
        ({}, DEFAULT_QUEUE),
        ({"BILINGUAL_FOCUS_LANGS": "ja"}, DEFAULT_QUEUE),  # hard focus: no priorities
        ({"BILINGUAL_FOCUS_LANGS": "ja", "BILINGUAL_FOCUS_MODE": "soft"}, GLOBAL_PRIORITY_QUEUE),
        ({"BILINGUAL_FOCUS_LANGS": "ja", "BILINGUAL_FOCUS_YIELD": "server"}, GLOBAL_PRIORITY_QUEUE),
        ({"BILINGUAL_FOCUS_MODE": "soft"}, DEFAULT_QUEUE),  # no target: no focus
        ({"BILINGUAL_QUALITY_ENABLED": True}, GLOBAL_PRIORITY_QUEUE),
        ({"BILINGUAL_QUALITY_ENABLED": True, "BILINGUAL_QUALITY_PRIORITY": False}, DEFAULT_QUEUE),
    ],
)
def test_prioritising_focus_policies_get_a_global_priority_queue(
    values: dict[str, object], queue: str
) -> None:
    assert queue_after_addon(values) == queue


def test_a_chosen_queue_is_kept() -> None:
    chosen = {"BILINGUAL_QUALITY_ENABLED": True, "SCHEDULER_PRIORITY_QUEUE": "my.Queue"}
    assert queue_after_addon(chosen, priority="spider") == "my.Queue"


def test_feeds_are_appended_to_when_a_crawl_resumes_from_them(tmp_path) -> None:
    """A crash-safe JOBDIR being resumed, or a named Redis worker: -O no longer replaces the
    output the resume reads (issue 32); a new JOBDIR or an unnamed worker leaves -O alone."""
    from bilingual_spider.scheduler.sqlite_frontier import FRONTIER_FILE, SqliteFrontier

    def overwrite_after_addon(values: dict[str, object]) -> bool:
        feeds = {str(tmp_path / "pages.jsonl"): {"format": "jsonlines", "overwrite": True}}
        settings = project_settings({"FEEDS": feeds, **values})
        SchedulerBackend().update_settings(settings)
        return settings.getdict("FEEDS")[str(tmp_path / "pages.jsonl")]["overwrite"]

    crash_safe = {"JOBDIR": str(tmp_path / "job"), "BILINGUAL_CRASH_SAFE_FRONTIER": True}
    assert overwrite_after_addon(crash_safe) is True  # nothing to resume yet
    SqliteFrontier(tmp_path / "job" / FRONTIER_FILE).close()
    assert overwrite_after_addon(crash_safe) is False
    redis = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    assert overwrite_after_addon(redis) is True
    assert overwrite_after_addon({**redis, "BILINGUAL_REDIS_WORKER_NAME": "w1"}) is False
