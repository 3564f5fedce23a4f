"""What writing WARC costs a crawl: budget pages per second of the same COBFC crawl of a generated
world with ``-a warc=DIR`` and without, in the same run.

Both crawls go through one sandbox server with the same concurrency (16 requests, 8 per host,
no delay, robots.txt off) and the same seeds; they alternate (without, with, without, with, ...)
and the ratio is the median over rounds. With WARC on, every fetched HTML page is also
identified for its language and written, gzipped, with its request (``extensions/warc.py``).

Goal (issue 20): with / without >= 0.9 for a crawl of 2,000 pages.

    python benchmarks/warc_overhead.py [--sites 2000] [--pages 2000] [--seeds 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from strategies import prepare_world, sample_seeds

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GOAL = 0.9
CONCURRENCY = {
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": False,
}


def run_crawl(proxy: str, seeds: Path, pages: int, work: Path, warc: Path | None) -> dict:
    """One COBFC crawl of ``pages`` budget pages; its rate (and its WARC's size when on)."""
    stats_file = work / "stats.json"
    arguments: dict[str, Any] = {
        "seeds": seeds,
        "langs": "any",
        "strategy": "cobfc",
        "budget": pages,
        "learning_interval": max(1, pages // 5),
    }
    if warc is not None:
        arguments["warc"] = warc
    result = run_spider(
        "backforth",
        settings={
            **CONCURRENCY,
            "BILINGUAL_SANDBOX_PROXY": proxy,
            "BILINGUAL_STATS_FILE": stats_file,
            "BILINGUAL_PROGRESS_INTERVAL": 0,
            "LOG_LEVEL": "WARNING",
        },
        arguments=arguments,
        output=work / "items.jsonl",
        timeout=1800,
    )
    if result.returncode != 0:
        raise RuntimeError(f"crawl failed:\n{result.stderr[-3000:]}")
    stats = json.loads(stats_file.read_text())
    elapsed = float(stats["elapsed_time_seconds"])
    budget_pages = int(stats.get("backforth/pages", 0))
    rate = {
        "budget_pages": budget_pages,
        "elapsed_s": round(elapsed, 2),
        "budget_pages_per_s": round(budget_pages / elapsed, 2),
        "warc_pages": int(stats.get("warc/pages", 0)),
    }
    if warc is not None:
        rate["warc_bytes"] = sum(p.stat().st_size for p in warc.glob("*.warc.gz"))
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=2000, help="budget pages per crawl")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    args = parser.parse_args(argv)
    started = time.monotonic()
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        world = Path(args.world) if args.world else work / "world"
        world_info = prepare_world(world, WorldParams(seed=0, sites=args.sites))
        seeds = work / "seeds.txt"
        seeds.write_text("".join(u + "\n" for u in sample_seeds(world, args.seeds, 0)))
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            for number in range(args.rounds):
                without_dir, with_dir = work / f"r{number}-off", work / f"r{number}-on"
                without_dir.mkdir()
                with_dir.mkdir()
                off = run_crawl(server.proxy_url, seeds, args.pages, without_dir, None)
                on = run_crawl(server.proxy_url, seeds, args.pages, with_dir, with_dir / "warc")
                ratio = on["budget_pages_per_s"] / off["budget_pages_per_s"]
                rounds.append({"without": off, "with": on, "ratio": round(ratio, 3)})
                print(
                    f"round {number + 1}: without WARC {off['budget_pages_per_s']:.1f} pages/s, "
                    f"with {on['budget_pages_per_s']:.1f} ({on['warc_pages']} pages, "
                    f"{on['warc_bytes'] / 1e6:.1f} MB): ratio {ratio:.3f}",
                    flush=True,
                )
    ratio = statistics.median(r["ratio"] for r in rounds)
    result = {
        "benchmark": "warc_overhead",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "world": {k: world_info[k] for k in ("params", "reused") if k in world_info},
        "pages": args.pages,
        "settings": CONCURRENCY,
        "rounds": rounds,
        "with_over_without": round(ratio, 3),
        "goal": GOAL,
        "met": ratio >= GOAL,
        "seconds": round(time.monotonic() - started, 1),
    }
    print(
        f"with WARC / without = {ratio:.3f} (median of {len(rounds)} rounds; goal >= {GOAL}: "
        f"{'met' if result['met'] else 'NOT met'})"
    )
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "warc_overhead.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
