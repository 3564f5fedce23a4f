"""Distributed crawl throughput: pages per second of 1, 2 and 4 ``scrapy crawl backforth``
workers sharing one Redis, and the Redis commands each page costs.

A generated sandbox world is served with every host answering 100 ms late (``latency_ms`` under
``[hosts."*"]``), and each worker has ``CONCURRENT_REQUESTS`` 4 (``--concurrency``), so that one
worker is bound by latency (at most 40 pages/s), not by CPU, on this 2-core machine (with 16, one
worker already spent about a core: see the README).
Each run gets a fresh private ``redis-server`` (no persistence) and N workers started together
(COBFC, any two languages, the same seeds: given to every worker with ``-a seeds=``, or with
``--seeding push`` pushed once by ``bilingual-spider seed`` before they start, as
docs/distributed.md runs many workers) sharing one page budget, counted in Redis by all of
them (the shared classifiers retrained every fifth of the budget, counted crawl-wide, so every
worker count makes the same number of learning iterations; ``--learning-interval share`` gives the
fifth of a worker's 1/N share of before, N times as many iterations with N workers); the worker
whose page spends it ends the crawl for all. (The figures recorded before the budget was shared
gave each worker 1/N of it, the first to spend its share ending the crawl.)
Rate: responses of all workers (API answers included) over the span from the first worker's
start to the last one's finish (process start-up excluded); the rate of budget pages alone is
reported too. Redis commands: ``INFO commandstats`` of the private server (``--cluster``: of
its three masters, summed) after the run (every command, those run inside the Lua scripts
included) per response, and the script calls
(``evalsha``) among them, and each command's calls per response (the per-command table). Each
worker's own counters of its round trips (``scheduler/leases/*``: takes, empty takes, status
checks; ``politeness/shared/*``; its classifier loads and retrainings) are summed per response.
The workers' CPU time (user + system) is measured too: in all, without each worker's start-up
(up to its spider's opening), and in the steady state (between a quarter and three quarters of
the budget, per request acknowledged crawl-wide: no start-up, warm-up or end in it). Runs
alternate (1, 2, 4, 1, 2, 4, ...); speed-ups are medians over rounds of ratios within one
round.

Goal (issue 9): 2 workers >= 1.8x one worker.

A run ``N:B`` in ``--workers`` (e.g. ``1:2``) is N workers with B CPU-bound processes beside them
(``while True: pass``), the control of a CPU per page measured while the machine's cores are
all busy: 8 workers keep both cores of this machine busy, one worker about half of one, and
what a page costs in CPU seconds rises with how busy the machine is, whatever the code does.

    python benchmarks/distributed.py [--sites 2000] [--pages 2400] [--seeds 300] [--rounds 1]
        [--workers 1,2,4|1,1:2,8] [--latency-ms 100] [--concurrency 4] [--world DIR] [--work DIR]
        [--learning-interval crawl|share] [--seeding argument|push] [--cluster]
        [--output distributed.json]
"""

from __future__ import annotations

import argparse
import json
import os
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

from bilingual_spider.distributed.partitions import CLUSTER_PARTITIONS, KeyLayout
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.redis_server import PrivateRedis, PrivateRedisCluster
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE
from bilingual_spider.settings import EXTENSIONS

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
    redis: PrivateRedis | PrivateRedisCluster,
    seeds_file: Path,
    pages: int,
    n: int,
    work: Path,
    concurrency: int,
    learning_share: bool = False,
    push_seeds_once: bool = False,
    beside: int = 0,
    profile: bool = False,
) -> dict[str, Any]:
    """N workers of one crawl on ``redis``; their combined rate and Redis commands.
    ``push_seeds_once``: the seeds pushed once (as ``bilingual-spider seed`` does) and taken by
    whichever worker asks first, not given to every worker with ``-a seeds=``. ``beside``:
    CPU-bound processes running beside the workers (started first, stopped after).
    ``profile``: each worker runs under ``cProfile`` (``profile.pstats`` in its directory)."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    share = max(1, pages // n)
    outs = [work / f"w{n}-{i}" for i in range(n)]
    if push_seeds_once:
        _push_seeds(redis, prefix, seeds_file)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(beside)]
    workers = []
    for out in outs:
        out.mkdir(parents=True)
        settings = {
            **CRAWL,
            "CONCURRENT_REQUESTS": concurrency,
            "REDIS_URL": redis.url,
            "BILINGUAL_REDIS_CLUSTER": isinstance(redis, PrivateRedisCluster),
            "BILINGUAL_REDIS_KEY_PREFIX": prefix,
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_STATS_FILE": out / "stats.json",
            "LOG_FILE": out / "log.txt",
        }
        arguments = {
            **({} if push_seeds_once else {"seeds": seeds_file}),
            "langs": "any",
            "strategy": "cobfc",
            "budget": pages,
            "learning_interval": max(1, (share if learning_share else pages) // 5),
        }
        if profile:  # its steady state only (benchmarks/profiled_window.py)
            settings["EXTENSIONS"] = {**EXTENSIONS, "profiled_window.ProfiledWindow": 0}
            settings["BENCH_PROFILE_FROM"] = round(STEADY[0] * pages / n)
            settings["BENCH_PROFILE_TO"] = round(STEADY[1] * pages / n)
            settings["BENCH_PROFILE_FILE"] = out / "profile.pstats"
        command = spider_command("backforth", settings, arguments, out / "items.jsonl")
        env = crawl_env({"PYTHONPATH": str(HERE)} if profile else None)
        workers.append(subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL))
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    logs = [out / "log.txt" for out in outs]
    cluster = isinstance(redis, PrivateRedisCluster)  # the frontier in the cluster's partitions
    layout = KeyLayout(prefix, CLUSTER_PARTITIONS, True) if cluster else KeyLayout(prefix)
    startup, steady = _watch_cpu(workers, logs, redis, layout, pages)
    codes = [worker.wait(timeout=1800) for worker in workers]
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # before the burners are reaped
    for burner in burners:
        burner.kill()
        burner.wait()
    cpu = sum(getattr(cpu_after, f) - getattr(cpu_before, f) for f in ("ru_utime", "ru_stime"))
    crawl_cpu = cpu - sum(startup)
    if any(codes):
        raise RuntimeError(f"a worker failed ({codes}); logs in {work}")
    stats = [json.loads((out / "stats.json").read_text()) for out in outs]
    starts = [datetime.fromisoformat(s["start_time"]) for s in stats]
    finishes = [datetime.fromisoformat(s["finish_time"]) for s in stats]
    span = (max(finishes) - min(starts)).total_seconds()
    responses = sum(int(s.get("response_received_count", 0)) for s in stats)
    budget_pages = sum(int(s.get("backforth/pages", 0)) for s in stats)
    calls = redis.command_calls()
    profiled = _profile_calls([out / "profile.pstats" for out in outs]) if profile else {}
    profiled_responses = sum(
        json.loads((out / "profile.json").read_text())["responses"] for out in outs if profile
    )
    return {
        "workers": n,
        "beside_load": beside,
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
        "worker_startup_cpu_s": round(sum(startup), 1),
        "worker_crawl_cpu_ms_per_page": round(1000 * crawl_cpu / max(1, responses), 2),
        "worker_steady": steady,
        "worker_steady_cpu_ms_per_request": round(
            1000 * steady["cpu_s"] / steady["acked"] if steady else float("nan"), 2
        ),
        "worker_cores_busy": round(crawl_cpu / span, 2),
        "sites_found": sum(int(s.get("backforth/sites_bilingual", 0)) for s in stats),
        "redis_commands": sum(calls.values()),
        "redis_commands_per_page": round(sum(calls.values()) / max(1, responses), 2),
        "redis_commands_per_page_by_master": [
            round(sum(node.command_calls().values()) / max(1, responses), 2)
            for node in getattr(redis, "nodes", [redis])
        ],
        "redis_scripts_per_page": round(_scripts(calls) / max(1, responses), 2),
        "redis_calls": dict(sorted(calls.items(), key=lambda kv: -kv[1])),
        "redis_calls_per_page": _per_page(calls, responses),
        "worker_counters_per_page": _per_page(_worker_counters(stats), responses),
        **(
            {
                "profiled_responses": profiled_responses,
                "profile_calls_per_page": _per_page(profiled, profiled_responses),
            }
            if profile
            else {}
        ),
    }


def _profile_calls(files: list[Path], most: int = 400) -> dict[str, int]:
    """The workers' calls of each function in their steady state (summed), the ``most`` called:
    ``file:line(name)``."""
    import pstats

    calls: dict[str, int] = {}
    for file in files:
        for (path, line, name), row in pstats.Stats(str(file)).stats.items():  # type: ignore[attr-defined]
            key = f"{Path(path).name}:{line}({name})"
            calls[key] = calls.get(key, 0) + row[1]  # primitive + recursive calls
    return dict(sorted(calls.items(), key=lambda kv: -kv[1])[:most])


def _push_seeds(redis: PrivateRedis | PrivateRedisCluster, prefix: str, seeds_file: Path) -> None:
    """``bilingual-spider seed`` of ``seeds_file`` for the crawl under ``prefix``."""
    cluster = isinstance(redis, PrivateRedisCluster)
    env = {**crawl_env(), **({"BILINGUAL_REDIS_CLUSTER": "1"} if cluster else {})}
    command = [sys.executable, "-m", "bilingual_spider.cli", "seed", redis.url, str(seeds_file)]
    subprocess.run([*command, "--prefix", prefix], env=env, check=True, stdout=subprocess.DEVNULL)


def _watch_cpu(
    workers: list[subprocess.Popen[bytes]],
    logs: list[Path],
    redis: PrivateRedis | PrivateRedisCluster,
    layout: KeyLayout,
    pages: int,
) -> tuple[list[float], dict[str, float]]:
    """Each worker's CPU seconds (user + system, from ``/proc``, polled every 0.1 s) when its
    spider opened (its log says so): start-up (imports, models), paid once per worker. And the
    steady state: the workers' CPU and the requests acknowledged crawl-wide (``BASE:counters``
    ``acked``, of every partition) when a quarter and three quarters of the budget's pages were
    counted, so that neither start-up, warm-up (lazy loads at a worker's first pages) nor the
    end is in it."""
    startup: list[float | None] = [None] * len(workers)
    marks: list[tuple[float, int]] = []
    client = redis.client()
    try:
        while any(w.poll() is None for w in workers):
            cpu = [_cpu_seconds(w.pid) for w in workers]
            for i, log in enumerate(logs):
                if startup[i] is None and log.exists() and "Spider opened" in log.read_text():
                    startup[i] = cpu[i]
            counted = client.hget(f"{layout.crawl_base('backforth')}:counters", "budget_pages")
            if len(marks) < 2 and int(counted or 0) >= STEADY[len(marks)] * pages:
                marks.append((sum(cpu), _acked(client, layout)))
            time.sleep(0.1)
    finally:
        client.close()
    steady = {}
    if len(marks) == 2 and marks[1][1] > marks[0][1]:
        (cpu0, acked0), (cpu1, acked1) = marks
        steady = {"cpu_s": round(cpu1 - cpu0, 2), "acked": acked1 - acked0}
    return [s or 0.0 for s in startup], steady


def _acked(client: Any, layout: KeyLayout) -> int:
    """Requests acknowledged in every partition (asked twice a run: the watch's own commands,
    one a poll, stay out of the commands a page)."""
    bases = {layout.partition_base("backforth", p) for p in range(layout.partitions)}
    return sum(int(client.hget(f"{base}:counters", "acked") or 0) for base in bases)


def _cpu_seconds(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # ended meanwhile
        return 0.0
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


STEADY = (0.25, 0.75)
"""The steady state's CPU is measured between these shares of the budget."""
COUNTED = (
    "scheduler/leases/", "politeness/shared/", "robotstxt/shared/", "backforth/classifier/",
    "frontier/rescored", "frontier/requeued", "dupefilter/filtered", "scheduler/enqueued/",
)  # fmt: skip


def _worker_counters(stats: list[dict[str, Any]]) -> dict[str, int]:
    """The workers' own counters of what they asked Redis (summed over workers)."""
    total: dict[str, int] = {}
    for worker in stats:
        for key, value in worker.items():
            if key.startswith(COUNTED) and isinstance(value, int) and not _crawl_wide(key):
                total[key] = total.get(key, 0) + value
    return total


def _crawl_wide(key: str) -> bool:
    """A stat every worker reports for the whole crawl (not summed)."""
    return key.endswith(("/version", "_crawl_wide", "/examples_relevant", "/examples_non_relevant"))


def _per_page(counts: dict[str, int], responses: int) -> dict[str, float]:
    per_page = {k: round(v / max(1, responses), 3) for k, v in counts.items()}
    return dict(sorted(per_page.items(), key=lambda kv: -kv[1]))


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
    parser.add_argument(
        "--learning-interval",
        choices=("crawl", "share"),
        default="crawl",
        help="retrain every fifth of the budget (crawl) or of a worker's 1/N share (share)",
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="a private Redis Cluster of 3 masters per run (the frontier in 16 partitions)",
    )
    parser.add_argument(
        "--seeding",
        choices=("argument", "push"),
        default="argument",
        help="every worker given the seeds (-a seeds=), or pushed once (bilingual-spider seed, "
        "as docs/distributed.md runs many workers)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="every worker under cProfile in its steady state (benchmarks/profiled_window.py): "
        "the calls a response of each function (exact whatever the machine's load), in the "
        "results as profile_calls_per_page",
    )
    parser.add_argument("--output", default="distributed.json", help="file in results/")
    args = parser.parse_args(argv)
    counts = args.workers.split(",")  # N, or N:B (B CPU-bound processes beside)
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
                for spec in counts:
                    n, _, beside = spec.partition(":")
                    run_dir = work / f"round{number}-{uuid.uuid4().hex[:6]}"
                    where = run_dir / f"redis{n}"
                    redis = PrivateRedisCluster(where) if args.cluster else PrivateRedis(where)
                    with redis:
                        runs[spec] = run_workers(
                            server, redis, seeds_file, args.pages, int(n), run_dir,
                            args.concurrency, args.learning_interval == "share",
                            args.seeding == "push", int(beside or 0), args.profile,
                        )  # fmt: skip
                    print(_line(number, runs[spec]), flush=True)
                rounds.append(runs)
    base = counts[0]
    speedups = {
        str(n): round(statistics.median(r[str(n)]["pages_per_s"] / r[base]["pages_per_s"]
                                        for r in rounds), 3)
        for n in counts
    }  # fmt: skip
    met = speedups["2"] >= GOAL if base == "1" and "2" in speedups else None
    result = {
        "benchmark": "distributed",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "world": {k: world_info[k] for k in ("params", "reused") if k in world_info},
        "seeds": args.seeds,
        "pages": args.pages,
        "latency_ms": args.latency_ms,
        "learning_interval": args.learning_interval,
        "seeding": args.seeding,
        "redis": "cluster of 3 masters, 16 partitions" if args.cluster else "one Redis",
        "settings": {**CRAWL, "CONCURRENT_REQUESTS": args.concurrency},
        "rounds": rounds,
        "speedup_over_one_worker": speedups,
        "goal_two_workers": GOAL,
        "met": met,
        "seconds": round(time.monotonic() - started, 1),
    }
    print("speed-up over one worker: " + ", ".join(f"{n}: {s:.2f}x" for n, s in speedups.items()))
    print(f"goal: 2 workers >= {GOAL}x one: {'met' if met else 'NOT met'}")
    result["per_command_table"] = per_command_table(rounds, counts)
    print(_table(result["per_command_table"], counts))
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / args.output
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


def per_command_table(rounds: list[dict[str, Any]], counts: list[str]) -> dict[str, Any]:
    """Median over rounds of each Redis command's calls per response (and of the workers'
    counters and totals), per worker count."""
    table: dict[str, dict[str, float]] = {}
    for n in counts:
        runs = [r[str(n)] for r in rounds]
        rows = {
            "commands": [run["redis_commands_per_page"] for run in runs],
            "script calls": [run["redis_scripts_per_page"] for run in runs],
            "worker CPU ms": [run["worker_cpu_ms_per_page"] for run in runs],
            "worker CPU ms, crawl only": [run["worker_crawl_cpu_ms_per_page"] for run in runs],
            "worker start-up CPU s": [run["worker_startup_cpu_s"] for run in runs],
            "worker CPU ms, steady (per request)": [
                run["worker_steady_cpu_ms_per_request"] for run in runs
            ],
        }
        for field in ("redis_calls_per_page", "worker_counters_per_page"):
            for name in {k for run in runs for k in run[field]}:
                rows[name] = [run[field].get(name, 0.0) for run in runs]
        for name, values in rows.items():
            table.setdefault(name, {})[str(n)] = round(statistics.median(values), 2)
    return table


def _table(table: dict[str, Any], counts: list[str]) -> str:
    """The per-command table as text: a row per command (per response), a column per count."""
    last = str(counts[-1])
    names = sorted(table, key=lambda name: ("/" in name, -table[name].get(last, 0.0)))
    head = f"{'per response':40s}" + "".join(f"{n:>9s}" for n in counts)
    lines = [head] + [
        f"{name:40s}" + "".join(f"{table[name].get(str(n), 0.0):9.2f}" for n in counts)
        for name in names
        if any(table[name].get(str(n), 0.0) >= 0.005 for n in counts)
    ]
    return "\n".join(lines)


def _line(number: int, run: dict[str, Any]) -> str:
    return (
        f"round {number + 1}, {run['workers']} worker(s)"
        f"{f' beside {b} CPU-bound' if (b := run['beside_load']) else ''}: "
        f"{run['responses']} responses in "
        f"{run['span_s']:.1f} s = {run['pages_per_s']:.1f} pages/s "
        f"({run['budget_pages_per_s']:.1f} budget pages/s); Redis "
        f"{run['redis_commands_per_page']:.1f} commands/page, "
        f"of which {run['redis_scripts_per_page']:.1f} script calls; workers' CPU "
        f"{run['worker_cpu_ms_per_page']:.1f} ms/page, {run['worker_crawl_cpu_ms_per_page']:.1f} "
        f"without start-up, {run['worker_steady_cpu_ms_per_request']:.1f} steady "
        f"({run['worker_cores_busy']:.2f} cores); "
        f"ends {run['finish_reasons']}"
    )


if __name__ == "__main__":
    sys.exit(main())
