"""What issue 49's identification costs a crawl: pages per second of a PupSniffer crawl with
this checkout against one with another checkout (the code before a change), on the world of
:mod:`bilingual_spider.sandbox.language_sites` (Dzongkha, Bokmål, Nynorsk, Galician, Spanish,
Portuguese, English copies: every page's language resolved against the code its site declares).

One crawl per code per round, ``scrapy crawl pupsniffer -a langs=any`` from every site's home at
once, every page in the budget; the two codes in turn, the first of a round alternating (other
processes on a shared machine slow whichever runs then). A crawl's rate is Scrapy's
``response_received_count`` over its ``elapsed_time_seconds`` (the spider open to closed:
start-up, models loading, excluded); the ratio is this checkout's rate over the other's, the
median over rounds. The pairs each crawl found are reported too (the same work done).

Goal (issue 49): within 0.95x of before.

    python benchmarks/language_throughput.py --code DIR [--after DIR] [--rounds 3]
        [--world language|real]
        [--site-budget N] [--out FILE]

``--world real``: the real sites of the sandbox (``--real-sites``) instead, each from its seed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))  # pupsniffer: run_crawl
GOAL = 0.95
_STAT = re.compile(r"'(elapsed_time_seconds|response_received_count)': ([0-9.]+)")


def crawl_rate(work: Path) -> dict[str, float]:
    """Responses, elapsed seconds and their rate, from the stats a crawl dumped in its log."""
    stats = dict(_STAT.findall((work / "crawl.log").read_text(errors="replace")))
    responses, seconds = (
        float(stats["response_received_count"]),
        float(stats["elapsed_time_seconds"]),
    )
    return {
        "responses": responses,
        "seconds": seconds,
        "pages_per_s": round(responses / seconds, 2),
    }


def one_crawl(
    code: Path | None, server: list[str], seeds: list[str], work: Path, site_budget: int
) -> dict[str, Any]:
    from pupsniffer import run_crawl

    if code is None:
        os.environ.pop("PYTHONPATH", None)  # the installed package: this checkout
    else:
        os.environ["PYTHONPATH"] = str(code.resolve())
    crawl = run_crawl(server, seeds, work, site_budget=site_budget)
    pairs = sum(1 for item in crawl.items if item.get("type", "url_pair") == "url_pair")
    return {**crawl_rate(work), "items": len(crawl.items), "pairs": pairs, "load": os.getloadavg()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True, help="the other checkout (before)")
    parser.add_argument("--after", type=Path, help="the checkout after (default: this one)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--world", choices=["language", "real"], default="language",
        help="language: sandbox/language_sites.py's sites; real: the real sites (--real-sites)",
    )  # fmt: skip
    parser.add_argument("--site-budget", type=int, default=100_000, help="pages a site at most")
    parser.add_argument("--work", type=Path, default=Path("out/bench_language_throughput"))
    parser.add_argument("--out", type=Path, default=RESULTS / "language_throughput.json")
    args = parser.parse_args(argv)
    from bilingual_spider.sandbox.language_sites import SITES, build_world, site_url

    if args.world == "language":
        server = ["--config", str(build_world(args.work / "world").config)]
        seeds = [site_url(site) for site in SITES]
    else:
        from bilingual_spider.sandbox import real_site

        server, seeds = ["--real-sites"], [site.seed_url for site in real_site.load_sites()]
    rounds = []
    for number in range(args.rounds):
        order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
        runs = {}
        for tag in order:
            code = args.code if tag == "before" else args.after
            work = args.work / f"{args.world}_round{number}_{tag}"
            runs[tag] = one_crawl(code, server, seeds, work, args.site_budget)
            print(f"round {number} {tag:6}: {runs[tag]}", flush=True)
        ratio = runs["after"]["pages_per_s"] / runs["before"]["pages_per_s"]
        rounds.append({"order": order, **runs, "ratio": round(ratio, 3)})
    median = statistics.median(r["ratio"] for r in rounds)
    result = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": f"python benchmarks/language_throughput.py --code {args.code} "
        + (f"--after {args.after} " if args.after else "")
        + f"--rounds {args.rounds} --world {args.world} --site-budget {args.site_budget}",
        "world": args.world,
        "before": str(args.code),
        "after": str(args.after or "this checkout"),
        "rounds": rounds,
        "ratio_median": round(median, 3),
        "goal": GOAL,
    }
    print(f"ratio after/before per round {[r['ratio'] for r in rounds]}, median {median:.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
