"""What saving a ``backforth`` crawl's state in ``JOBDIR`` costs as the crawl grows.

With ``-s JOBDIR=DIR`` a back-and-forth crawl saves its state (the bipartite graph, the link
classifiers, the detector's verdicts, how each site was found) beside its frontier, pickled
whole, while no page is being processed (:mod:`bilingual_spider.scheduler.crash_safe_scheduler`).
The state grows with the crawl, and so does each save. This benchmark runs one COBFC crawl of
the generated world of ``strategies.py`` with ``JOBDIR`` and reads its stats history (a sample
every ``--every`` seconds): the state's bytes, the saves, the seconds spent saving and the
seconds responses were held waiting for a save, page by page. Reported, for each tenth of the
crawl: the state's size, the seconds a save, the saves a minute, and the share of the crawl's
wall time spent saving and holding responses.

    python benchmarks/jobdir_state.py [--budget 30000] [--world DIR] [--out NAME]
        [-s NAME=VALUE ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import (  # noqa: E402  (a sibling benchmark)
    CRAWL,
    run_crawl,
    seeded_world,
    write_results,
)

from bilingual_spider.sandbox.process import SandboxServer  # noqa: E402
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE  # noqa: E402

SAVES = "scheduler/crash_safe/state_saves"
SAVE_SECONDS = "scheduler/crash_safe/state_save_seconds"
WAIT_SECONDS = "scheduler/crash_safe/commit_wait_seconds"
STATE_BYTES = "scheduler/crash_safe/state_bytes"
PAGES = "backforth/pages"


def history_windows(history: list[dict[str, Any]], parts: int = 10) -> list[dict[str, Any]]:
    """The stats history cut into ``parts`` windows of pages: in each, the state's bytes at its
    end, the seconds a save, the saves a minute, and the shares of its wall time spent saving
    and holding responses for a save."""
    rows = [h for h in history if h.get(PAGES)]
    if len(rows) < 2:
        return []
    last_pages = rows[-1][PAGES]
    windows, start = [], rows[0]
    for part in range(1, parts + 1):
        bound = last_pages * part / parts
        end = next((r for r in rows if r[PAGES] >= bound), rows[-1])
        if end is start:
            continue
        seconds = end["elapsed_s"] - start["elapsed_s"]
        saves = end.get(SAVES, 0) - start.get(SAVES, 0)
        saving = end.get(SAVE_SECONDS, 0) - start.get(SAVE_SECONDS, 0)
        waiting = end.get(WAIT_SECONDS, 0) - start.get(WAIT_SECONDS, 0)
        windows.append(
            {
                "pages": [start[PAGES], end[PAGES]],
                "wall_s": round(seconds, 1),
                "state_mb": round(end.get(STATE_BYTES, 0) / 1e6, 2),
                "saves": saves,
                "saves_a_minute": round(60 * saves / seconds, 1) if seconds else None,
                "seconds_a_save": round(saving / saves, 4) if saves else None,
                "share_saving": round(saving / seconds, 3) if seconds else None,
                "share_holding": round(waiting / seconds, 3) if seconds else None,
                "pages_a_second": round((end[PAGES] - start[PAGES]) / seconds, 1)
                if seconds
                else None,
            }
        )
        start = end
    return windows


def with_elapsed(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The history lines that say how long the crawl had run (``elapsed_s``)."""
    return [
        {**line, "elapsed_s": line["stats_elapsed_seconds"]}
        for line in history
        if line.get("stats_elapsed_seconds") is not None
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=30_000)
    parser.add_argument("--sites", type=int, default=50_000)
    parser.add_argument("--world-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between stats samples")
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    parser.add_argument("--work", help="directory for the crawl's outputs (default: temporary)")
    parser.add_argument("--out", default="jobdir_state", help="results/NAME.json")
    parser.add_argument("-s", dest="settings", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    started = time.monotonic()
    extra = dict(item.split("=", 1) for item in args.settings)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp).resolve()
        work.mkdir(parents=True, exist_ok=True)
        world, world_info, seeds_file = seeded_world(
            args.world, work, args.world_seed, args.sites, args.seeds
        )
        jobdir = work / "jobdir"
        settings = {
            **CRAWL,
            "JOBDIR": jobdir,
            "BILINGUAL_STATS_FILE_INTERVAL": args.every,
            **extra,
        }
        print(f"crawling with cobfc and JOBDIR ({args.budget} pages) ...", flush=True)
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            crawl = run_crawl(
                server, "cobfc", seeds_file, args.budget, max(1, args.budget // 5), work,
                settings, timeout=max(1800, args.budget // 10),
            )  # fmt: skip
        history_file = work / "cobfc" / "stats.history.jsonl"
        history = [json.loads(line) for line in history_file.read_text().splitlines()]
    stats = crawl["stats"]
    windows = history_windows(with_elapsed(history))
    result = {
        "benchmark": "jobdir_state",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": "one scrapy crawl backforth (COBFC) with JOBDIR through the sandbox server; its "
        "stats history read every --every seconds",
        "settings": {k: str(v) for k, v in extra.items()},
        "world": world_info,
        "budget": args.budget,
        "wall_s": crawl["wall_s"],
        "pages": stats.get(PAGES),
        "bilingual_sites": stats.get("backforth/sites_bilingual"),
        "state_mb": round(stats.get(STATE_BYTES, 0) / 1e6, 2),
        "saves": stats.get(SAVES),
        "save_seconds": stats.get(SAVE_SECONDS),
        "hold_seconds": stats.get(WAIT_SECONDS),
        "windows": windows,
    }
    result["seconds"] = round(time.monotonic() - started, 1)
    keys = ("pages", "state_mb", "saves_a_minute", "seconds_a_save", "share_saving")
    print("  ".join(f"{k:>15}" for k in keys))
    for window in windows:
        print("  ".join(f"{window[k]!s:>15}" for k in keys))
    write_results(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
