"""Where a crawl's stats snapshots go: ``stats.json`` is rewritten while the crawl runs, and each
snapshot is also appended to ``stats.history.jsonl`` beside it (the report's harvest curve and
pages per second over time)."""

from __future__ import annotations

from pathlib import Path

HISTORY_SUFFIX = ".history.jsonl"


def history_path(stats_path: Path) -> Path:
    """``stats.history.jsonl`` for ``stats.json``."""
    return stats_path.with_name(stats_path.stem + HISTORY_SUFFIX)
