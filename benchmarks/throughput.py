"""What the back-and-forth machinery costs: pages per second of a COBFC crawl against a bare
Scrapy spider crawling the same sandbox world, in the same run.

Both crawls go through one sandbox server with the same concurrency (``CONCURRENT_REQUESTS``
16, 8 per host, no delay, robots.txt off: the bare spider has no robots middleware settings of
ours). The bare spider (``bare_spider.py``, run outside the project) follows every link and
does nothing else; ``scrapy crawl backforth -a strategy=cobfc`` runs the detector, language ID,
link contexts, the two classifiers (retrained every ``budget/5`` pages), the re-ranking queue,
and the backlink API calls. Rates are pages per second of the crawl's own elapsed time (start-up
excluded): for COBFC the budget pages only (``backforth/pages``: seeds, forward, backlink and
probe pages), not the backlink API's answers, which are responses too (their rate is reported
as well). Each round runs three crawls, in turn first and last (bare, bare with the project's
garbage-collector tuning, COBFC; then the other way round), and the ratio is the median over
rounds; the machine's load average is recorded before and after (other processes slow both). The
project freezes the start-up heap out of the garbage collector's sight and makes its young
collections rarer (``extensions/gc_tuning.py``); so that the ratio does not credit the machinery
with a trick bare Scrapy could use too, COBFC's rate over a bare spider doing the same
(``BARE_GC_FREEZE``, ``BARE_GC_THRESHOLD``) is reported beside the goal's ratio.
Also reported, as less noisy than rates on a shared machine: budget pages per CPU second of the
COBFC crawl's process over bare pages per CPU second of its own (start-up, with COBFC's models
loading, included in both).

Goal (issues 6 and 21): COBFC budget pages per second / bare pages per second >= 0.8.

    python benchmarks/throughput.py [--sites 2000] [--pages 4000] [--seeds 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sandbox_throughput import children_cpu_s, rate_from_stats, run_bare
from strategies import prepare_world, sample_seeds

from bilingual_spider import settings as project_settings
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GOAL = 0.8
CONCURRENCY = {
    "CONCURRENT_REQUESTS": 16,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": False,
}
BARE_GC_TUNING = {
    "BARE_GC_FREEZE": project_settings.BILINGUAL_GC_FREEZE,
    "BARE_GC_THRESHOLD": ",".join(map(str, project_settings.BILINGUAL_GC_THRESHOLD)),
}
"""The bare spider given what ``extensions/gc_tuning.py`` does for the project."""


def run_cobfc(
    proxy: str, seeds_file: Path, pages: int, workdir: Path, code: Path | None = None
) -> dict[str, Any]:
    """A COBFC crawl of ``pages`` budget pages; ``code``: from that checkout (its package first
    on the path, and the crawl run from it: ``python -m`` puts the working directory first)."""
    stats_file = workdir / "cobfc_stats.json"
    started = time.monotonic()
    if code is None:
        os.environ.pop("PYTHONPATH", None)  # the installed package: this checkout
    else:
        os.environ["PYTHONPATH"] = str(code)
    result = run_spider(
        "backforth",
        settings={
            **CONCURRENCY,
            "BILINGUAL_SANDBOX_PROXY": proxy,
            "BILINGUAL_STATS_FILE": stats_file,
            "BILINGUAL_PROGRESS_INTERVAL": 0,
            "LOG_LEVEL": "WARNING",
        },
        arguments={
            "seeds": seeds_file,
            "langs": "any",
            "strategy": "cobfc",
            "budget": pages,
            "learning_interval": max(1, pages // 5),
        },
        output=workdir / "cobfc.jsonl",
        timeout=1800,
        cwd=code,
    )
    if result.returncode != 0:
        raise RuntimeError(f"cobfc crawl failed:\n{result.stderr[-3000:]}")
    stats = json.loads(stats_file.read_text())
    rate = rate_from_stats(stats, time.monotonic() - started)
    rate["budget_pages"] = int(stats.get("backforth/pages", 0))
    rate["budget_pages_per_s"] = rate["budget_pages"] / rate["elapsed_s"]
    rate["sites_found"] = int(stats.get("backforth/sites_bilingual", 0))
    rate["finish_reason"] = stats.get("finish_reason")
    return rate


COMPARED = ("ratio", "this_rate_over_code", "code_cpu_over_this")


def compared(crawls: dict[str, dict[str, Any]], code: str) -> dict[str, float]:
    """A round's figures of the COBFC crawl of checkout ``code``: its budget pages per second
    over the bare crawl's, this checkout's COBFC rate over its, and its CPU over this one's."""
    this, other = crawls["cobfc"], crawls[f"cobfc@{code}"]
    return {
        "ratio": round(other["budget_pages_per_s"] / crawls["bare"]["pages_per_s"], 3),
        "this_rate_over_code": round(this["budget_pages_per_s"] / other["budget_pages_per_s"], 3),
        "code_cpu_over_this": round(
            (other["cpu_s"] / other["budget_pages"]) / (this["cpu_s"] / this["budget_pages"]), 3
        ),
    }


def named_checkout(text: str) -> tuple[str, Path]:
    """``NAME=DIR`` -> ``(NAME, DIR)``, DIR a checkout with the package in it."""
    name, _, directory = text.partition("=")
    path = Path(directory).resolve()
    if not name or not (path / "bilingual_spider" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"{text!r}: NAME=DIR, DIR a checkout of the project")
    return name, path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=4000, help="pages per crawl")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    parser.add_argument(
        "--code", action="append", default=[], type=named_checkout, metavar="NAME=DIR",
        help="also run COBFC from the checkout DIR in every round (repeatable)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    codes: dict[str, Path] = dict(args.code)
    started = time.monotonic()
    load_before = list(os.getloadavg())
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        world = Path(args.world) if args.world else work / "world"
        params = WorldParams(seed=0, sites=args.sites)
        world_info = prepare_world(world, params)
        seeds = sample_seeds(world, args.seeds, 0)
        seeds_file = work / "seeds.txt"
        seeds_file.write_text("".join(url + "\n" for url in seeds))
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            for number in range(args.rounds):
                round_dir = work / f"round{number}"
                round_dir.mkdir()
                crawls: dict[str, dict[str, Any]] = {}
                names = ("bare", "bare_tuned", "cobfc", *(f"cobfc@{code}" for code in codes))
                for name in names[:: 1 if number % 2 else -1]:
                    cpu = children_cpu_s()
                    if name.startswith("cobfc"):
                        code = codes.get(name.partition("@")[2])
                        (round_dir / name).mkdir()
                        crawl = run_cobfc(
                            server.proxy_url, seeds_file, args.pages, round_dir / name, code
                        )
                    else:
                        tuned = BARE_GC_TUNING if name == "bare_tuned" else {}
                        (round_dir / name).mkdir()
                        crawl = run_bare(
                            server.proxy_url, seeds, args.pages, round_dir / name,
                            settings={**CONCURRENCY, **tuned},
                        )  # fmt: skip
                    crawl["cpu_s"] = round(children_cpu_s() - cpu, 2)
                    crawls[name] = crawl
                bare, cobfc = crawls["bare"], crawls["cobfc"]
                ratio = cobfc["budget_pages_per_s"] / bare["pages_per_s"]
                tuned_ratio = cobfc["budget_pages_per_s"] / crawls["bare_tuned"]["pages_per_s"]
                responses = cobfc["pages_per_s"] / bare["pages_per_s"]
                per_cpu_s = cobfc["budget_pages"] / cobfc["cpu_s"]
                cpu_ratio = per_cpu_s / (bare["pages"] / bare["cpu_s"])
                rounds.append(
                    {
                        **crawls,
                        "ratio": round(ratio, 3),
                        "ratio_over_bare_tuned": round(tuned_ratio, 3),
                        "responses_ratio": round(responses, 3),
                        "cpu_ratio": round(cpu_ratio, 3),
                        "codes": {code: compared(crawls, code) for code in codes},
                    }
                )
                print(
                    f"round {number + 1}: bare {bare['pages_per_s']:.0f} pages/s (with "
                    f"gc tuning {crawls['bare_tuned']['pages_per_s']:.0f}), COBFC "
                    f"{cobfc['budget_pages_per_s']:.0f} budget pages/s "
                    f"({cobfc['pages_per_s']:.0f} responses/s): ratio {ratio:.2f} "
                    f"({tuned_ratio:.2f} over bare with gc tuning)",
                    flush=True,
                )
    ratio = statistics.median(r["ratio"] for r in rounds)
    tuned_ratio = statistics.median(r["ratio_over_bare_tuned"] for r in rounds)
    responses_ratio = statistics.median(r["responses_ratio"] for r in rounds)
    cpu_ratio = statistics.median(r["cpu_ratio"] for r in rounds)
    result = {
        "benchmark": "throughput",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "world": {k: world_info[k] for k in ("params", "reused") if k in world_info},
        "seeds": len(seeds),
        "pages": args.pages,
        "settings": CONCURRENCY,
        "rounds": rounds,
        "cobfc_budget_pages_over_bare": round(ratio, 3),
        "cobfc_budget_pages_over_bare_with_gc_tuning": round(tuned_ratio, 3),
        "cobfc_responses_over_bare": round(responses_ratio, 3),
        "cobfc_budget_pages_per_cpu_s_over_bare": round(cpu_ratio, 3),
        "codes": {
            code: {
                "dir": str(path),
                **{
                    f"{key}_median": round(
                        statistics.median(r["codes"][code][key] for r in rounds), 3
                    )
                    for key in COMPARED
                },
            }
            for code, path in codes.items()
        },
        "load_average": {"before": load_before, "after": list(os.getloadavg())},
        "goal": GOAL,
        "met": ratio >= GOAL,
        "seconds": round(time.monotonic() - started, 1),
    }
    print(
        f"COBFC budget pages/s / bare Scrapy pages/s = {ratio:.2f} (median of {len(rounds)} "
        f"rounds; goal >= {GOAL}: {'met' if result['met'] else 'NOT met'}); over bare Scrapy "
        f"given the project's gc tuning too: {tuned_ratio:.2f}; all responses: "
        f"{responses_ratio:.2f}; per CPU second (start-up included): {cpu_ratio:.2f}; "
        f"load average {load_before} -> {result['load_average']['after']}"
    )
    for code, figures in result["codes"].items():
        print(
            f"COBFC of {code} ({figures['dir']}): over bare Scrapy "
            f"{figures['ratio_median']:.2f}; this checkout's rate over its, round by round: "
            f"{figures['this_rate_over_code_median']:.3f}, its CPU over this one's: "
            f"{figures['code_cpu_over_this_median']:.3f} (medians of {len(rounds)})"
        )
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "throughput.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
