"""What a small crawl costs beside its pages: the wall and CPU seconds of a ``scrapy crawl``
command from its start to its exit, for crawls of a few pages of the sandbox's real sites.

Each command runs in a subprocess, as a user's (and as the test suite's some 200 crawls) would:
Python's start, the imports (the spider loader imports every spider module, scikit-learn with
them), the crawler's build, the crawl, and the interpreter's exit. Each round runs every
checkout's commands in turn (this one, then each ``--code NAME=DIR``; the other way round in
every other round), and a checkout's figures are medians over rounds; its wall time over this
checkout's is taken round by round, so that the machine's drift cancels.

    python benchmarks/startup.py [--rounds 8] [--code NAME=DIR ...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sandbox_throughput import children_cpu_s
from throughput import named_checkout

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.realsites import sandbox_seed_urls

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
REPO = HERE.parent
CRAWLS = {
    "detect": ({}, {}),
    "forward": ({"CLOSESPIDER_PAGECOUNT": 10}, {}),
    "backforth": ({}, {"budget": 10}),
}
"""Each spider's ``-s`` settings and ``-a`` arguments: a crawl of a few pages of one site."""


def timed_crawl(spider: str, proxy: str, seed: str, workdir: Path, code: Path) -> dict[str, float]:
    """Wall and CPU seconds of one ``scrapy crawl`` of ``seed``, run from checkout ``code``."""
    settings, arguments = CRAWLS[spider]
    command = spider_command(
        spider,
        {"BILINGUAL_SANDBOX_PROXY": proxy, "DOWNLOAD_DELAY": 0, "LOG_LEVEL": "WARNING", **settings},
        {"seeds": seed, "out": workdir, **arguments},
    )
    cpu = children_cpu_s()
    started = time.monotonic()
    done = subprocess.run(
        command, cwd=code, env=crawl_env({"PYTHONPATH": str(code)}), capture_output=True,
        text=True, check=False,
    )  # fmt: skip
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{spider} crawl from {code} failed:\n{done.stderr[-3000:]}")
    return {"wall_s": round(wall, 3), "cpu_s": round(children_cpu_s() - cpu, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--code", action="append", default=[], type=named_checkout, metavar="NAME=DIR",
        help="also run the crawls from the checkout DIR in every round (repeatable)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    codes = {"this": REPO, **dict(args.code)}
    seed = sandbox_seed_urls()[0]
    rounds: list[dict[str, dict[str, dict[str, float]]]] = []
    with tempfile.TemporaryDirectory() as tmp, SandboxServer(["--real-sites"]) as server:
        for number in range(args.rounds):
            order = list(codes) if number % 2 == 0 else list(codes)[::-1]
            measured: dict[str, dict[str, dict[str, float]]] = {name: {} for name in codes}
            for name in order:
                for spider in CRAWLS:
                    workdir = Path(tmp) / f"{number}-{name}-{spider}"
                    measured[name][spider] = timed_crawl(
                        spider, server.proxy_url, seed, workdir, codes[name]
                    )
            rounds.append(measured)
            print(
                f"round {number + 1}: "
                + "; ".join(
                    f"{name} "
                    + " ".join(f"{s} {m['wall_s']:.2f} s" for s, m in measured[name].items())
                    for name in codes
                ),
                flush=True,
            )
    summary: dict[str, Any] = {}
    for name in codes:
        summary[name] = {}
        for spider in CRAWLS:
            walls = [r[name][spider]["wall_s"] for r in rounds]
            cpus = [r[name][spider]["cpu_s"] for r in rounds]
            figures: dict[str, float] = {
                "wall_s_median": round(statistics.median(walls), 3),
                "cpu_s_median": round(statistics.median(cpus), 3),
            }
            if name != "this":
                over = [r["this"][spider]["wall_s"] / r[name][spider]["wall_s"] for r in rounds]
                figures["this_wall_over_code_median"] = round(statistics.median(over), 3)
                figures["this_faster_rounds"] = sum(ratio < 1 for ratio in over)
            summary[name][spider] = figures
            print(f"{name} {spider}: {json.dumps(figures)}")
    result = {
        "benchmark": "startup",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": seed,
        "crawls": {spider: {"settings": s, "arguments": a} for spider, (s, a) in CRAWLS.items()},
        "codes": {name: str(path) for name, path in codes.items()},
        "load_average": list(os.getloadavg()),
        "summary": summary,
        "rounds": rounds,
    }
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "startup.json"
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"results in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
