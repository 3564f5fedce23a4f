"""Distributed crawl throughput: pages per second of 1, 2 and 4 ``scrapy crawl backforth``
workers sharing one Redis, and the Redis commands each page costs.

A generated sandbox world is served with every host answering 100 ms late (``latency_ms`` under
``[hosts."*"]``), and each worker has ``CONCURRENT_REQUESTS`` 4 (``--concurrency``), so that one
worker is bound by latency (at most 40 pages/s), not by CPU, on this 2-core machine (with 16, one
worker already spent about a core: see the README).
Each run gets a fresh private ``redis-server`` (no persistence) and N workers started together
(COBFC, any two languages, the same seeds) sharing one page budget, counted in Redis by all of
them (each worker's classifiers retrained every fifth of its 1/N share); the worker whose page
spends it ends the crawl for all. (The figures recorded before the budget was shared gave each
worker 1/N of it, the first to spend its share ending the crawl.)
Rate: responses of all workers (API answers included) over the span from the first worker's
start to the last one's finish (process start-up excluded); the rate of budget pages alone is
reported too. Redis commands: ``INFO commandstats`` of the private server after the run (every
command, those run inside the Lua scripts included) per response, and the script calls
(``evalsha``) among them. The workers' CPU time (user + system) is measured too. Runs
alternate (1, 2, 4, 1, 2, 4, ...); speed-ups are medians over rounds of ratios within one
round.

Goal (issue 9): 2 workers >= 1.8x one worker.

    python benchmarks/distributed.py [--sites 2000] [--pages 2400] [--seeds 300] [--rounds 1]
        [--workers 1,2,4] [--latency-ms 100] [--concurrency 4] [--world DIR] [--work DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from strategies import prepare_world, sample_seeds

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.redis_server import PrivateRedis
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GOAL = 1.8
CRAWL = {
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": False,
    "BILINGUAL_PROGRESS_INTERVAL": 0,
    "BILINGUAL_REDIS_IDLE_MAX_WAIT": 1,
    "LOG_LEVEL": "INFO",
}


def run_workers(
    server: SandboxServer,
    redis: PrivateRedis,
    seeds_file: Path,
    pages: int,
    n: int,
    work: Path,
    concurrency: int,
) -> dict[str, Any]:
    """N workers of one crawl on ``redis``; their combined rate and Redis commands."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    share = max(1, pages // n)
    outs = [work / f"w{n}-{i}" for i in range(n)]
    workers = []
    for out in outs:
        out.mkdir(parents=True)
        settings = {
            **CRAWL,
            "CONCURRENT_REQUESTS": concurrency,
            "REDIS_URL": redis.url,
            "BILINGUAL_REDIS_KEY_PREFIX": prefix,
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_STATS_FILE": out / "stats.json",
            "LOG_FILE": out / "log.txt",
        }
        arguments = {
            "seeds": seeds_file,
            "langs": "any",
            "strategy": "cobfc",
            "budget": pages,
            "learning_interval": max(1, share // 5),
        }
        command = spider_command("backforth", settings, arguments, out / "items.jsonl")
        workers.append(subprocess.Popen(command, env=crawl_env(), stdout=subprocess.DEVNULL))
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    codes = [worker.wait(timeout=1800) for worker in workers]
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(getattr(cpu_after, f) - getattr(cpu_before, f) for f in ("ru_utime", "ru_stime"))
    if any(codes):
        raise RuntimeError(f"a worker failed ({codes}); logs in {work}")
    stats = [json.loads((out / "stats.json").read_text()) for out in outs]
    starts = [datetime.fromisoformat(s["start_time"]) for s in stats]
    finishes = [datetime.fromisoformat(s["finish_time"]) for s in stats]
    span = (max(finishes) - min(starts)).total_seconds()
    responses = sum(int(s.get("response_received_count", 0)) for s in stats)
    budget_pages = sum(int(s.get("backforth/pages", 0)) for s in stats)
    calls = redis.command_calls()
    return {
        "workers": n,
        "budget": pages,
        "responses": responses,
        "budget_pages": budget_pages,
        "span_s": round(span, 2),
        "pages_per_s": round(responses / span, 2),
        "budget_pages_per_s": round(budget_pages / span, 2),
        "per_worker_responses": [int(s.get("response_received_count", 0)) for s in stats],
        "finish_reasons": [s.get("finish_reason") for s in stats],
        "worker_cpu_s": round(cpu, 1),
        "worker_cpu_ms_per_page": round(1000 * cpu / max(1, responses), 2),
        "worker_cores_busy": round(cpu / span, 2),
        "sites_found": sum(int(s.get("backforth/sites_bilingual", 0)) for s in stats),
        "redis_commands": sum(calls.values()),
        "redis_commands_per_page": round(sum(calls.values()) / max(1, responses), 2),
        "redis_scripts_per_page": round(_scripts(calls) / max(1, responses), 2),
        "redis_calls": dict(sorted(calls.items(), key=lambda kv: -kv[1])),
    }


def _scripts(calls: dict[str, int]) -> int:
    """Lua script calls: each is one round trip running several commands."""
    return sum(calls.get(name, 0) for name in ("evalsha", "eval", "fcall"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=2400, help="page budget of each crawl")
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument(
        "--concurrency", type=int, default=4, help="CONCURRENT_REQUESTS of each worker"
    )
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    parser.add_argument("--work", help="keep the crawls' logs and outputs in this directory")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    started = time.monotonic()
    rounds: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp)
        work.mkdir(parents=True, exist_ok=True)
        world = Path(args.world) if args.world else work / "world"
        world_info = prepare_world(world, WorldParams(seed=0, sites=args.sites))
        seeds_file = work / "seeds.txt"
        seeds_file.write_text("".join(u + "\n" for u in sample_seeds(world, args.seeds, 0)))
        slow = work / "latency.toml"
        slow.write_text(f'[hosts."*"]\nlatency_ms = {args.latency_ms}\n')
        config = ["--config", str(world / CONFIG_FILE), "--config", str(slow)]
        with SandboxServer(config) as server:
            for number in range(args.rounds):
                runs = {}
                for n in counts:
                    run_dir = work / f"round{number}-{uuid.uuid4().hex[:6]}"
                    with PrivateRedis(run_dir / f"redis{n}") as redis:
                        runs[n] = run_workers(
                            server, redis, seeds_file, args.pages, n, run_dir, args.concurrency
                        )
                    print(_line(number, runs[n]), flush=True)
                rounds.append({str(n): run for n, run in runs.items()})
    base = str(counts[0])
    speedups = {
        str(n): round(statistics.median(r[str(n)]["pages_per_s"] / r[base]["pages_per_s"]
                                        for r in rounds), 3)
        for n in counts
    }  # fmt: skip
    met = speedups.get("2", 0.0) >= GOAL if base == "1" else None
    result = {
        "benchmark": "distributed",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "world": {k: world_info[k] for k in ("params", "reused") if k in world_info},
        "seeds": args.seeds,
        "pages": args.pages,
        "latency_ms": args.latency_ms,
        "settings": {**CRAWL, "CONCURRENT_REQUESTS": args.concurrency},
        "rounds": rounds,
        "speedup_over_one_worker": speedups,
        "goal_two_workers": GOAL,
        "met": met,
        "seconds": round(time.monotonic() - started, 1),
    }
    print("speed-up over one worker: " + ", ".join(f"{n}: {s:.2f}x" for n, s in speedups.items()))
    print(f"goal: 2 workers >= {GOAL}x one: {'met' if met else 'NOT met'}")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "distributed.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


def _line(number: int, run: dict[str, Any]) -> str:
    return (
        f"round {number + 1}, {run['workers']} worker(s): {run['responses']} responses in "
        f"{run['span_s']:.1f} s = {run['pages_per_s']:.1f} pages/s "
        f"({run['budget_pages_per_s']:.1f} budget pages/s); Redis "
        f"{run['redis_commands_per_page']:.1f} commands/page, "
        f"of which {run['redis_scripts_per_page']:.1f} script calls; workers' CPU "
        f"{run['worker_cpu_ms_per_page']:.1f} ms/page ({run['worker_cores_busy']:.2f} cores); "
        f"ends {run['finish_reasons']}"
    )


if __name__ == "__main__":
    sys.exit(main())
