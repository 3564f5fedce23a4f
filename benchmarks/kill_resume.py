"""A crawl killed with ``kill -9`` at random moments and resumed each time by the same command:
is any page it fetched missing from its output, written twice, or past its budget? (issue 32)

A generated web (``--pages`` pages over ``--hosts`` hosts, each page linking to 8 of its host
and one elsewhere: the web of ``benchmarks/sandbox_throughput.py``) is served by the sandbox with
an access log. A forward crawl with ``JOBDIR`` and a page budget (``CLOSESPIDER_PAGECOUNT``) is
killed (SIGKILL) ``--kills`` times, each time once its output holds a random number of pages
(uniform in 10-90 % of the budget, drawn with ``--seed``), resumed with the same command after
each kill, and left to end by itself. Then:

- ``missing``: pages served 200 by the sandbox (the access log) that are not in the output;
- ``written_twice``: URLs on more than one line of the output; ``bad_lines``: lines that are
  not JSON;
- ``served_twice``: pages the sandbox served more than once (the crawl's requests in flight
  when it was killed: their responses died with it, so they are fetched again);
- ``pages`` against ``budget``.

``--mode redis``: the same with two workers sharing a Redis frontier (``REDIS_URL``, a key
prefix of the benchmark's own, deleted after), each writing its own output; at each kill moment
(the two outputs together hold the drawn number of pages) one worker, in turn, is killed and
started again with the same command (each worker has a name, ``BILINGUAL_REDIS_WORKER_NAME``).
The throughput cost of the crash-safe frontier is measured too (``--mode single``): crawls
without ``JOBDIR``, with it, and with Scrapy's own ``JOBDIR`` queues (not crash-safe), same web,
in turn ``--rate-rounds`` times; the medians of pages per second and of CPU milliseconds per page
(the crawl process's, start-up included: less sensitive to a shared machine's load).

    python benchmarks/kill_resume.py [--mode single|redis|both] [--kills 3] [--budget 2000]

``--first-kill-within S`` (``JOBDIR`` runs: ``--mode single``, and ``--spider backforth``
without ``--mode redis``): the first kill comes at a moment drawn in 0-S s after the crawl's log
says the spider opened (its seeds still being taken: issue 53's acceptance asks for S = 5), the
others once the output holds a number of lines drawn as above, beyond those of the first kill;
the results file's name ends in ``_early``.

``--spider backforth``: ``scrapy crawl backforth`` (COBFC) on a generated world of 1,000 sites
served with its backlink API, the same way: ``--rate-rounds`` unkilled crawls each with
``JOBDIR`` and without (in turn: their sites found, pages, seconds and CPU, and the sites and
pages the sandbox served them, as for the killed crawl below), then one with
``JOBDIR`` killed ``--kills`` times once its ``verdicts.jsonl`` holds a random share (10-90 %) of
the first unkilled JOBDIR crawl's verdicts, resumed each time. Reported: verdicts and bilingual
sites written twice, ``bad_lines``, verdicts in the JOBDIR's state missing from the output (and
the reverse), pages counted against ``budget`` (and those counted after it, in flight then, as
an unkilled crawl does), pages the sandbox served twice (fetched again after a kill), ground-truth
sites a page was served from that no verdict covers, and the bilingual sites found against the
unkilled crawls' (``sites_overlap_*``: shared / all, Jaccard).

    python benchmarks/kill_resume.py --spider backforth [--kills 3] [--budget 2000] [--seeds 100]

``--spider backforth --mode redis``: the same world and seeds crawled by two workers sharing a
Redis frontier (a key prefix of the benchmark's own, deleted after; each worker with its own
name and output directory): ``--rate-rounds`` unkilled runs, then one where, each time the two
outputs together hold a random share (10-90 %) of the first unkilled run's verdicts, one worker
in turn is killed and started again with the same command. Reported as above, over both
workers' outputs (a site written by both counts as written twice), against the verdicts in Redis
(``site_verdicts``) and the crawl-wide page count (``budget_pages``).

    python benchmarks/kill_resume.py --spider backforth --mode redis [--kills 3] [--budget 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import resource
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from sandbox_throughput import build_web  # noqa: E402
from strategies import (  # noqa: E402  (a sibling benchmark: its world and crawl settings)
    CRAWL,
    GroundTruth,
    prepare_world,
    sample_seeds,
)

from bilingual_spider.sandbox.process import (  # noqa: E402
    SandboxServer,
    crawl_env,
    spider_command,
    spider_opened_since,
)
from bilingual_spider.sandbox.server import CONTROL_HOST  # noqa: E402
from bilingual_spider.sandbox.webgraph_params import WorldParams  # noqa: E402
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, load_ground_truth  # noqa: E402
from bilingual_spider.scheduler import compact_serializer  # noqa: E402
from bilingual_spider.scheduler.sqlite_frontier import FRONTIER_FILE  # noqa: E402

RESULTS = HERE / "results"
PROJECT = HERE.parent
REDIS_URL = os.environ.get("BILINGUAL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PATIENCE = 900.0


def lines(feed: Path) -> int:
    return feed.read_bytes().count(b"\n") if feed.is_file() else 0


def crawl_settings(proxy: str, budget: int, log: Path, **extra: object) -> dict[str, object]:
    return {
        "BILINGUAL_SANDBOX_PROXY": proxy,
        "CLOSESPIDER_PAGECOUNT": budget,
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "LOG_LEVEL": "INFO",
        "LOG_FILE": log,
        **extra,
    }


def start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, cwd=PROJECT, env=crawl_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"still waiting after {PATIENCE:.0f} s: {what}")
        time.sleep(0.02)


def kill(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()


def killed_at(
    command: list[str], feed: Path, targets: list[int], log: Path
) -> list[dict[str, Any]]:
    """The crawl ``command`` started and killed once ``feed`` holds each target's lines, in
    turn; each target with the lines the feed held at the kill."""
    kills: list[dict[str, Any]] = []
    for target in targets:
        crawl = start(command)
        wait_for(lambda: lines(feed) >= target or crawl.poll() is not None, "lines written")  # noqa: B023
        if crawl.poll() is not None:
            raise RuntimeError(f"the crawl ended before {target} lines of {feed}: see {log}")
        kill(crawl)
        kills.append({"target_lines": target, "lines_at_kill": lines(feed)})
    return kills


def killed_early(command: list[str], feed: Path, log: Path, seconds: float) -> dict[str, Any]:
    """The crawl ``command`` started and killed ``seconds`` after its log says the spider
    opened (its seeds still being taken: ``--first-kill-within``); the lines ``feed`` held then."""
    opened = spider_opened_since(log, seconds)
    crawl = start(command)
    wait_for(lambda: opened() or crawl.poll() is not None, "the spider opened")
    if crawl.poll() is not None:
        raise RuntimeError(f"the crawl ended {seconds:.1f} s after it opened: see {log}")
    kill(crawl)
    return {"seconds_after_open": round(seconds, 2), "lines_at_kill": lines(feed)}


def killed_in_order(
    command: list[str],
    feed: Path,
    log: Path,
    args: argparse.Namespace,
    rng: random.Random,
    lines_range: tuple[int, int],
) -> list[dict[str, Any]]:
    """The ``--kills`` kills of a JOBDIR crawl: with ``--first-kill-within S``, the first at a
    moment drawn in 0-S s after the spider opens; the others (all of them without it) once
    ``feed`` holds a number of lines drawn in ``lines_range``, beyond those of the first kill."""
    low, high = lines_range
    kills = []
    if args.first_kill_within is not None:
        seconds = rng.uniform(0, args.first_kill_within)
        kills.append(killed_early(command, feed, log, seconds))
        low = max(low, min(kills[0]["lines_at_kill"] + 1, high - args.kills))
    targets = sorted(rng.sample(range(low, high), args.kills - len(kills)))
    return kills + killed_at(command, feed, targets, log)


def audit(feeds: list[Path], access: Path, budget: int) -> dict[str, object]:
    """What the outputs and the sandbox's access log say (see the module docstring)."""
    written: Counter[str] = Counter()
    bad = 0
    for feed in feeds:
        for line in feed.read_bytes().splitlines() if feed.is_file() else []:
            try:
                written[json.loads(line)["url"]] += 1
            except (ValueError, KeyError):
                bad += 1
    served: Counter[str] = Counter()
    for line in access.read_text().splitlines():
        _, _, host, target, status = line.split("\t")
        if status == "200" and host != CONTROL_HOST and target.endswith(".html"):
            served[target if target.startswith("http") else f"http://{host}{target}"] += 1
    pages = len(written)
    return {
        "budget": budget,
        "pages": pages,
        "pages_over_budget_percent": round(100 * (pages - budget) / budget, 2),
        "missing": len(set(served) - set(written)),
        "written_twice": sum(1 for count in written.values() if count > 1),
        "bad_lines": bad,
        "served_twice": sum(count - 1 for count in served.values()),
    }


def crawl_rate(stats_file: Path) -> dict[str, float]:
    stats = json.loads(stats_file.read_text())
    pages, elapsed = int(stats["response_received_count"]), float(stats["elapsed_time_seconds"])
    return {
        "pages": pages,
        "elapsed_s": round(elapsed, 2),
        "pages_per_s": round(pages / elapsed, 1),
    }


def throughput(proxy: str, seeds: str, budget: int, root: Path, rounds: int) -> dict[str, object]:
    """Crawls without JOBDIR (Scrapy's scheduler in memory), with it (the crash-safe frontier)
    and with Scrapy's own JOBDIR queues (the crash-safe frontier off), taken in turn ``rounds``
    times (the machine's load changes from one minute to the next): each one's median."""
    variants: dict[str, dict[str, object]] = {
        "memory": {},
        "crash_safe_jobdir": {"JOBDIR": "job"},
        "scrapy_jobdir": {"JOBDIR": "job", "BILINGUAL_CRASH_SAFE_FRONTIER": False},
    }
    rates: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    for number in range(rounds):
        for name, extra in variants.items():
            run = root / f"rate-{name}-{number}"
            settings = crawl_settings(
                proxy, budget, run / "log.txt", BILINGUAL_STATS_FILE=run / "stats.json",
                **{key: run / value if key == "JOBDIR" else value for key, value in extra.items()},
            )  # fmt: skip
            run.mkdir(parents=True)
            command = spider_command("forward", settings, {"seeds": seeds, "out": run / "out"})
            before = children_cpu_s()
            subprocess.run(command, cwd=PROJECT, env=crawl_env(), check=True, capture_output=True)
            rate = crawl_rate(run / "stats.json")
            rates[name].append(rate["pages_per_s"])
            cpu[name].append(round(1000 * (children_cpu_s() - before) / rate["pages"], 2))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    cpu_medians = {name: statistics.median(values) for name, values in cpu.items()}
    slower = 1 - medians["crash_safe_jobdir"] / medians["memory"]
    more_cpu = cpu_medians["crash_safe_jobdir"] / cpu_medians["memory"] - 1
    return {
        "pages_per_s": rates,
        "median_pages_per_s": medians,
        "cost_percent": round(100 * slower, 1),
        "cpu_ms_per_page": cpu,
        "median_cpu_ms_per_page": cpu_medians,
        "cpu_cost_percent": round(100 * more_cpu, 1),
    }


def children_cpu_s() -> float:
    """CPU seconds of this process's finished children (the crawls; a sandbox server still
    running is not counted): a crawl's CPU per page depends less on the machine's load than
    its pages per second."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def single(
    proxy: str, seeds: str, args: argparse.Namespace, rng: random.Random, root: Path
) -> dict:
    root.mkdir(parents=True, exist_ok=True)
    out, log = root / "single-out", root / "single.log"
    feed = out / "pages.jsonl"
    budget = args.budget
    settings = crawl_settings(proxy, budget, log, JOBDIR=root / "single-job")
    command = spider_command("forward", settings, {"seeds": seeds, "out": out})
    kills = killed_in_order(command, feed, log, args, rng, (budget // 10, budget * 9 // 10))
    started = time.monotonic()
    subprocess.run(command, cwd=PROJECT, env=crawl_env(), check=True, capture_output=True)
    text = log.read_text(errors="replace")
    return {
        "kills": kills,
        "last_run_s": round(time.monotonic() - started, 1),
        "resumes_logged": text.count("restarted after a kill"),
        "finish_reason_budget": "'finish_reason': 'budget'" in text,
        "feeds": [str(feed)],
    }


def redis_workers(
    proxy: str, seeds: str, budget: int, targets: list[int], root: Path, lease: float
) -> dict:
    root.mkdir(parents=True, exist_ok=True)
    prefix = f"bench-kill-resume-{uuid.uuid4().hex[:10]}"
    feeds = [root / f"worker{n}" / "pages.jsonl" for n in (0, 1)]
    commands = []
    for n in (0, 1):
        settings = crawl_settings(
            proxy,
            budget,
            root / f"worker{n}.log",
            REDIS_URL=REDIS_URL,
            BILINGUAL_REDIS_KEY_PREFIX=prefix,
            BILINGUAL_REDIS_LEASE_SECONDS=lease,
            BILINGUAL_REDIS_WORKER_NAME=f"worker{n}",
        )
        out = root / f"worker{n}"
        commands.append(spider_command("forward", settings, {"seeds": seeds, "out": out}))
    try:
        kills = killed_in_turn(commands, feeds, targets, "pages")
    finally:
        cleanup(prefix)
    reasons = [
        (root / f"worker{n}.log").read_text(errors="replace").count("'finish_reason'")
        for n in (0, 1)
    ]
    return {
        "kills": kills,
        "lease_seconds": lease,
        "workers_finished": reasons,
        "feeds": [str(f) for f in feeds],
    }


def cleanup(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


# --- backforth -------------------------------------------------------------------------------

BACKFORTH_WORLD = {"sites": 1000}
"""The world of ``make demo`` (1,000 sites, every other parameter at its default: hubs that
co-cite related sites, so backlinks lead somewhere), served with its search and backlink API."""


def backforth_command(
    proxy: str,
    seeds: Path,
    budget: int,
    run: Path,
    jobdir: bool,
    **extra: object,
) -> list[str]:
    settings: dict[str, object] = {
        **CRAWL,
        "BILINGUAL_SANDBOX_PROXY": proxy,
        "LOG_FILE": run / "log.txt",
        "BILINGUAL_STATS_FILE": run / "stats.json",
        **extra,
    }
    if jobdir:
        settings["JOBDIR"] = run / "job"
    arguments = {"seeds": seeds, "budget": budget, "learning_interval": budget // 5}
    return spider_command("backforth", settings, {**arguments, "out": run / "out"})


def backforth_audit(run: Path, truth: GroundTruth, access: Path | None) -> dict[str, Any]:
    """A backforth run's output against its JOBDIR's stores (or, unkilled without JOBDIR, its
    stats), and the sites whose pages the sandbox served that no verdict covers."""
    written: Counter[str] = Counter()
    bilingual: Counter[str] = Counter()
    bad = 0
    for name, counter in (("verdicts.jsonl", written), ("sites.jsonl", bilingual)):
        for line in (run / "out" / name).read_bytes().splitlines():
            try:
                counter[json.loads(line)["site"]] += 1
            except (ValueError, KeyError):
                bad += 1
    stats = json.loads((run / "stats.json").read_text())
    record: dict[str, Any] = {
        "verdicts": len(written),
        "verdicts_written_twice": sum(1 for count in written.values() if count > 1),
        "bilingual_sites": len(bilingual),
        "bilingual_sites_written_twice": sum(1 for count in bilingual.values() if count > 1),
        "bad_lines": bad,
        "pages": stats.get("backforth/pages", 0),
        "pages_after_budget": stats.get("backforth/pages_after_budget", 0),
        "true_bilingual": sum(1 for site in bilingual if truth.is_bilingual(site)),
        "elapsed_s": round(float(stats["elapsed_time_seconds"]), 1),
        "sites": sorted(bilingual),
    }
    unfinished: set[str] = set()
    if (run / "job" / FRONTIER_FILE).is_file():
        kept = jobdir_stores(run / "job" / FRONTIER_FILE)
        saved = set(kept.get("site_verdicts", {}))
        unfinished = set(kept.get("site_claims", {}))
        record["verdicts_missing_from_output"] = len(saved - set(written))
        record["verdicts_not_in_state"] = len(set(written) - saved)
        record["pages"] = kept.get("budget", {}).get("spent", record["pages"])
    if access is not None:
        record.update(served_not_judged(access, truth, {*written, *unfinished}))
    return record


def jobdir_stores(path: Path) -> dict[str, dict[str, Any]]:
    """The crawl state's stores in a JOBDIR's frontier file, by name (state/sqlite.py)."""
    db = sqlite3.connect(path)
    try:
        kept: dict[str, dict[str, Any]] = {}
        for name, key, value in db.execute("SELECT name, key, value FROM store"):
            kept.setdefault(name, {})[key] = pickle.loads(value)
        return kept
    finally:
        db.close()


def served_not_judged(access: Path, truth: GroundTruth, judged: set[str]) -> dict[str, int]:
    """From the sandbox's access log: the ground-truth sites a page was served from that no
    verdict (or detection under way) in ``judged`` covers, the pages served (once or more) and
    those served more than once (fetched again after a kill)."""
    covered = {truth.site_of(site) for site in judged}
    served: Counter[str] = Counter()
    served_sites = set()
    for line in access.read_text().splitlines():
        _, _, host, target, status = line.split("\t")
        name = truth.site_of(host)
        if status == "200" and name is not None and not target.endswith("/robots.txt"):
            served[target if target.startswith("http") else f"http://{host}{target}"] += 1
            served_sites.add(name)
    return {
        "sites_served_not_judged": len(served_sites - covered),
        "pages_served": len(served),
        "pages_served_twice": sum(count - 1 for count in served.values()),
    }


def overlap(a: list[str], b: list[str]) -> float:
    return round(len(set(a) & set(b)) / max(1, len(set(a) | set(b))), 3)


def with_killed_run(
    record: dict[str, Any],
    killed: dict[str, Any],
    kills: list[dict[str, int]],
    reference: dict[str, Any],
    name: str,
) -> dict[str, Any]:
    """``record`` with the killed run (its kills, its bilingual sites' overlap with the
    ``reference`` run's, as each unkilled run's: ``sites_overlap_with_NAME``), the lists of
    sites left out."""
    killed["kills"] = kills
    killed["sites_overlap_with_unkilled"] = overlap(killed["sites"], reference["sites"])
    for other in record["unkilled"]:
        other[f"sites_overlap_with_{name}"] = overlap(other["sites"], reference["sites"])
    record["killed"] = killed
    for entry in [*record["unkilled"], killed]:
        entry.pop("sites")
    return record


def backforth_world(
    args: argparse.Namespace, root: Path
) -> tuple[dict[str, Any], GroundTruth, Path, list[str]]:
    """The generated world (its summary and ground truth), the seeds file and the sandbox's
    arguments to serve it."""
    world = root / "world"
    world_info = prepare_world(world, WorldParams(seed=args.seed, **BACKFORTH_WORLD))
    truth = GroundTruth(load_ground_truth(world))
    seeds = root / "seeds.txt"
    seeds.write_text("".join(url + "\n" for url in sample_seeds(world, args.seeds, args.seed)))
    return world_info, truth, seeds, ["--config", str(world / CONFIG_FILE)]


def backforth_runs(args: argparse.Namespace, rng: random.Random, root: Path) -> dict[str, Any]:
    """Unkilled crawls (JOBDIR and none, in turn), then one killed ``--kills`` times when its
    output holds a random share (10-90 %) of the unkilled crawl's verdicts, resumed each time."""
    world_info, truth, seeds, config = backforth_world(args, root)
    record: dict[str, Any] = {"world": world_info, "seeds": args.seeds, "unkilled": []}
    for number in range(args.rate_rounds):
        for jobdir in (False, True):
            run = root / f"unkilled-{'jobdir' if jobdir else 'memory'}-{number}"
            run.mkdir()
            access = run / "access.tsv"  # each unkilled crawl audited as the killed one is
            with SandboxServer([*config, "--access-log", str(access)]) as web:
                before = children_cpu_s()
                command = backforth_command(web.proxy_url, seeds, args.budget, run, jobdir)
                subprocess.run(
                    command, cwd=PROJECT, env=crawl_env(), check=True, capture_output=True
                )
                cpu_s = round(children_cpu_s() - before, 1)  # before the server is waited for
                assert web.process is not None
                web.process.send_signal(signal.SIGINT)  # ends cleanly: the access log flushed
                web.process.wait()
            audit = backforth_audit(run, truth, access)
            audit["cpu_s"] = cpu_s
            record["unkilled"].append({"jobdir": jobdir, "round": number, **audit})
    first = record["unkilled"][1]  # the first JOBDIR crawl: the reference
    share = (first["verdicts"] // 10, first["verdicts"] * 9 // 10)
    run, access = root / "killed", root / "killed-access.tsv"
    run.mkdir()
    feed = run / "out" / "verdicts.jsonl"
    with SandboxServer([*config, "--access-log", str(access)]) as web:
        command = backforth_command(web.proxy_url, seeds, args.budget, run, True)
        kills = killed_in_order(command, feed, run / "log.txt", args, rng, share)
        subprocess.run(command, cwd=PROJECT, env=crawl_env(), check=True, capture_output=True)
        assert web.process is not None
        web.process.send_signal(signal.SIGINT)  # ends cleanly: the access log flushed
        web.process.wait()
    killed = backforth_audit(run, truth, access)
    text = (run / "log.txt").read_text(errors="replace")
    killed["resumes_logged"] = text.count("restarted after a kill")
    return with_killed_run(record, killed, kills, first, "first_jobdir_crawl")


def backforth_workers(
    proxy: str, seeds: Path, budget: int, root: Path, prefix: str, lease: float
) -> tuple[list[list[str]], list[Path]]:
    """The commands of the two workers of one Redis crawl (each its own name, log, stats and
    output directory), and their ``verdicts.jsonl``."""
    commands = []
    for n in (0, 1):
        run = root / f"worker{n}"
        run.mkdir()
        redis = {
            "REDIS_URL": REDIS_URL,
            "BILINGUAL_REDIS_KEY_PREFIX": prefix,
            "BILINGUAL_REDIS_LEASE_SECONDS": lease,
            "BILINGUAL_REDIS_WORKER_NAME": f"worker{n}",
        }
        commands.append(backforth_command(proxy, seeds, budget, run, False, **redis))
    return commands, [root / f"worker{n}" / "out" / "verdicts.jsonl" for n in (0, 1)]


def killed_in_turn(
    commands: list[list[str]], feeds: list[Path], targets: list[int], unit: str
) -> list[dict[str, int]]:
    """Workers started by ``commands``, one of them in turn killed and started again by the
    same command once their ``feeds`` together hold each target's lines (``unit``: what a line
    is); then all left to end."""
    workers = [start(command) for command in commands]
    kills = []
    try:
        for number, target in enumerate(targets):
            victim = number % len(workers)
            wait_for(lambda: sum(map(lines, feeds)) >= target, f"{unit} written")  # noqa: B023
            if workers[victim].poll() is not None:
                raise RuntimeError(f"worker{victim} ended before {target} {unit}")
            kill(workers[victim])
            at = sum(map(lines, feeds))
            kills.append(
                {"worker": victim, f"target_{unit}": target, f"{unit}_written_at_kill": at}
            )
            workers[victim] = start(commands[victim])
        for worker in workers:
            worker.wait(timeout=PATIENCE)
    finally:
        for worker in workers:
            if worker.poll() is None:
                kill(worker)
    return kills


def backforth_redis_audit(
    root: Path, prefix: str, truth: GroundTruth, access: Path | None
) -> dict[str, Any]:
    """Both workers' outputs against the crawl's state in Redis (verdicts, detections under
    way, pages counted crawl-wide), and what the sandbox served."""
    import redis

    written: Counter[str] = Counter()
    bilingual: Counter[str] = Counter()
    bad = 0
    after_budget = 0
    for n in (0, 1):
        out = root / f"worker{n}" / "out"
        for name, counter in (("verdicts.jsonl", written), ("sites.jsonl", bilingual)):
            for line in (out / name).read_bytes().splitlines():
                try:
                    counter[json.loads(line)["site"]] += 1
                except (ValueError, KeyError):
                    bad += 1
        stats = json.loads((root / f"worker{n}" / "stats.json").read_text())
        after_budget += stats.get("backforth/pages_after_budget", 0)
    client = redis.Redis.from_url(REDIS_URL)
    base = f"{prefix}:backforth"
    verdicts = {
        key.decode(): pickle.loads(blob)
        for key, blob in client.hgetall(f"{base}:site_verdicts").items()
    }
    saved = set(verdicts)
    saved_bilingual = {site for site, verdict in verdicts.items() if verdict.bilingual}
    unfinished = {key.decode() for key in client.hkeys(f"{base}:site_states")}
    counted = int(client.hget(f"{base}:counters", "budget_pages") or 0)
    queued = {  # the hosts of the requests still queued or leased at the end
        urlsplit(compact_serializer.loads(blob)["url"]).hostname or ""
        for blob in client.hvals(f"{base}:requests")
    }
    client.close()
    record: dict[str, Any] = {
        "verdicts": len(written),
        "verdicts_written_twice": sum(1 for count in written.values() if count > 1),
        "bilingual_sites": len(bilingual),
        "bilingual_sites_written_twice": sum(1 for count in bilingual.values() if count > 1),
        "bilingual_sites_missing_from_output": len(saved_bilingual - set(bilingual)),
        "bad_lines": bad,
        "verdicts_missing_from_output": len(saved - set(written)),
        "verdicts_not_in_redis": len(set(written) - saved),
        "sites_under_way_at_end": len(unfinished),
        "pages_counted": counted,
        "pages_after_budget": after_budget,
        "pages": counted - after_budget,
        "true_bilingual": sum(1 for site in bilingual if truth.is_bilingual(site)),
        "sites": sorted(bilingual),
    }
    if access is not None:
        record.update(served_not_judged(access, truth, {*written, *unfinished}))
        waiting = served_not_judged(access, truth, {*written, *unfinished, *queued})
        record["sites_served_not_judged_nor_queued"] = waiting["sites_served_not_judged"]
    return record


def backforth_redis_run(
    args: argparse.Namespace,
    run: Path,
    truth: GroundTruth,
    seeds: Path,
    config: list[str],
    targets: list[int],
) -> tuple[dict[str, Any], list[dict[str, int]]]:
    """One two-worker crawl on a key prefix of its own (deleted after), killed at ``targets``
    (none: unkilled), served with an access log: its audit and its kills."""
    access, prefix = run / "access.tsv", f"bench-kill-resume-{uuid.uuid4().hex[:10]}"
    run.mkdir(parents=True)
    with SandboxServer([*config, "--access-log", str(access)]) as web:
        commands, feeds = backforth_workers(
            web.proxy_url, seeds, args.budget, run, prefix, args.lease
        )
        try:
            kills = killed_in_turn(commands, feeds, targets, "verdicts")
            assert web.process is not None
            web.process.send_signal(signal.SIGINT)  # ends cleanly: the access log flushed
            web.process.wait()
            return backforth_redis_audit(run, prefix, truth, access), kills
        finally:
            cleanup(prefix)


def backforth_redis_runs(
    args: argparse.Namespace, rng: random.Random, root: Path
) -> dict[str, Any]:
    """Unkilled two-worker Redis crawls, then one where a worker in turn is killed ``--kills``
    times when the outputs hold a random share (10-90 %) of the first unkilled run's verdicts,
    and started again each time by the same command."""
    world_info, truth, seeds, config = backforth_world(args, root)
    record: dict[str, Any] = {"world": world_info, "seeds": args.seeds, "unkilled": []}
    for number in range(max(1, args.rate_rounds)):
        started = time.monotonic()
        audit, _ = backforth_redis_run(args, root / f"unkilled-{number}", truth, seeds, config, [])
        audit["elapsed_s"] = round(time.monotonic() - started, 1)
        record["unkilled"].append({"round": number, **audit})
    first = record["unkilled"][0]
    low, high = first["verdicts"] // 10, first["verdicts"] * 9 // 10
    targets = sorted(rng.sample(range(low, high), args.kills))
    run = root / "killed"
    killed, kills = backforth_redis_run(args, run, truth, seeds, config, targets)
    logs = [(run / f"worker{n}" / "log.txt").read_text(errors="replace") for n in (0, 1)]
    killed["restarts_logged"] = sum(text.count("restarted after a kill") for text in logs)
    return with_killed_run(record, killed, kills, first, "first_unkilled")


def result_name(name: str, args: argparse.Namespace) -> str:
    """``name``, with the seed when not the default one and ``_early`` with an early kill."""
    if args.seed != 32:
        name = name.replace(".json", f"_seed{args.seed}.json")
    if args.first_kill_within is not None:
        name = name.replace(".json", "_early.json")
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["single", "redis", "both"], default="both")
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=6000)
    parser.add_argument("--hosts", type=int, default=60)
    parser.add_argument("--lease", type=float, default=60.0, help="Redis lease seconds")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--rate-rounds", type=int, default=3, help="throughput crawls per kind")
    parser.add_argument("--spider", choices=["forward", "backforth"], default="forward")
    parser.add_argument("--seeds", type=int, default=100, help="backforth: seeds of the world")
    parser.add_argument(
        "--first-kill-within",
        type=float,
        metavar="S",
        help="JOBDIR runs: the first kill at a random moment 0-S s after the spider opens "
        "(issue 53's acceptance: S = 5), the others by output lines as before",
    )
    args = parser.parse_args()
    redis = args.mode == "redis" or (args.spider == "forward" and args.mode == "both")
    if args.first_kill_within is not None and redis:
        parser.error("--first-kill-within: JOBDIR runs only (forward: --mode single)")
    rng = random.Random(args.seed)
    if args.spider == "backforth":
        backforth_main(args, rng)
        return
    modes = ["single", "redis"] if args.mode == "both" else [args.mode]
    record: dict[str, Any] = {
        "benchmark": "kill_resume",
        "date": datetime.now().isoformat(timespec="seconds"),
        **{
            key: getattr(args, key)
            for key in ("kills", "budget", "pages", "hosts", "seed", "first_kill_within")
        },
    }
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        build_web(root / "web", args.pages, args.hosts, seed=args.seed)
        mounts = [f"--mount=host{h}.bench={root / 'web' / f'host{h}'}" for h in range(args.hosts)]
        seeds = ",".join(f"http://host{h}.bench/p0.html" for h in range(args.hosts))
        for mode in modes:
            if mode == "single" and args.rate_rounds:  # a server of its own (not in the log)
                with SandboxServer(mounts) as web:
                    record["throughput"] = throughput(
                        web.proxy_url, seeds, args.budget, root, args.rate_rounds
                    )
            access = root / f"{mode}-access.tsv"
            with SandboxServer([*mounts, "--access-log", str(access)]) as web:
                if mode == "single":
                    run = single(web.proxy_url, seeds, args, rng, root / "s")
                else:
                    low, high = args.budget // 10, args.budget * 9 // 10
                    targets = sorted(rng.sample(range(low, high), args.kills))
                    run = redis_workers(
                        web.proxy_url, seeds, args.budget, targets, root / "r", args.lease
                    )
                assert web.process is not None
                web.process.send_signal(signal.SIGINT)  # ends cleanly: the access log flushed
                web.process.wait()
            feeds = [Path(feed) for feed in run.pop("feeds")]
            record[mode] = {**run, **audit(feeds, access, args.budget)}
            print(mode, json.dumps(record[mode]), flush=True)
    if "throughput" in record:
        print("throughput", json.dumps(record["throughput"]))
    RESULTS.mkdir(exist_ok=True)
    name = "kill_resume.json" if args.mode == "both" else f"kill_resume_{args.mode}.json"
    name = result_name(name, args)
    (RESULTS / name).write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {RESULTS / name}")


def backforth_main(args: argparse.Namespace, rng: random.Random) -> None:
    record: dict[str, Any] = {
        "benchmark": "kill_resume",
        "spider": "backforth",
        "date": datetime.now().isoformat(timespec="seconds"),
        **{
            key: getattr(args, key)
            for key in ("kills", "budget", "seed", "rate_rounds", "first_kill_within")
        },
    }
    redis_mode = args.mode == "redis"
    if redis_mode:
        record.update(mode="redis", workers=2, lease=args.lease)
    runs = backforth_redis_runs if redis_mode else backforth_runs
    with tempfile.TemporaryDirectory() as scratch:
        record.update(runs(args, rng, Path(scratch)))
    for run in record["unkilled"]:
        print("unkilled", json.dumps(run))
    print("killed", json.dumps(record["killed"]))
    RESULTS.mkdir(exist_ok=True)
    name = "kill_resume_backforth_redis.json" if redis_mode else "kill_resume_backforth.json"
    name = result_name(name, args)
    (RESULTS / name).write_text(json.dumps(record, indent=1) + "\n")
    print(f"written {RESULTS / name}")


if __name__ == "__main__":
    main()
