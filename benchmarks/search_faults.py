"""Crawl time with a backlink API that fails: 0, 25 and 100 % of its calls bad (issue 36).

``scrapy crawl backforth`` (OBFC, backlinks from the sandbox's Moz fake) crawls a small generated
world from the same seeds with the same page budget, while the sandbox API's fault mode
(:mod:`bilingual_spider.sandbox.search_api_faults`) spoils a share of the Moz calls: ``html``
(200 with an HTML page) or ``hang`` (no answer; the call times out after BILINGUAL_SEARCH_TIMEOUT).
For each crawl: seconds, pages, bilingual sites reported, the search stats (calls, retries, times
down, queries never answered) and the WARNINGs the crawl logged about the API. Then, with a
hanging API, how long a crawl takes to stop after a SIGINT (Ctrl-C), with the search calls
cancellable (the default) and without (``SearchDownloadMiddleware`` off: the old behaviour).

Acceptance (issue 36): 25 % bad within 1.5x of the healthy crawl's time, with one WARNING; 100 %
bad ends by itself within BILINGUAL_SEARCH_GIVE_UP_AFTER plus a minute; Ctrl-C within 5 s.

    python benchmarks/search_faults.py [--sites 1500] [--seeds 60] [--budget 3000]
        [--modes html,hang] [--rates 0,0.25,1] [--give-up-after 30] [--no-ctrl-c]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import signal
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.search_api import API_HOST
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, SEEDS_FILE, generate

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
CRAWL = {
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": False,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "BILINGUAL_BACKFORTH_SEED": 0,
    "BILINGUAL_PROGRESS_INTERVAL": 0,
    "BILINGUAL_SEARCH_BACKLINKS": "moz",
    "LOG_LEVEL": "INFO",
}
API_WARNING = re.compile(
    r"\[bilingual_spider\.(?:search\.service|spiders\.backforth)\] WARNING: "
    r"((?:search|backlinks of).*)"
)
"""WARNINGs about the search API: the service's, and backforth's failed backlink queries."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=1500)
    parser.add_argument("--world-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=60)
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--modes", default="html,hang")
    parser.add_argument("--rates", default="0,0.25,1")
    parser.add_argument("--give-up-after", type=float, default=30.0,
                        help="BILINGUAL_SEARCH_GIVE_UP_AFTER (its default: 180)")  # fmt: skip
    parser.add_argument("--no-ctrl-c", action="store_true", help="skip the Ctrl-C measurement")
    parser.add_argument("--out", default="search_faults")
    args = parser.parse_args(argv)
    rates = [float(r) for r in args.rates.split(",")]
    modes = [m for m in args.modes.split(",") if m]
    settings = {**CRAWL, "BILINGUAL_SEARCH_GIVE_UP_AFTER": args.give_up_after}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        world = work / "world"
        params = WorldParams(seed=args.world_seed, sites=args.sites)
        print(f"generating a world of {args.sites} sites ...", flush=True)
        generate(world, params, TextSource.from_catalogs(["en", *params.language_weights]))
        seeds = (world / SEEDS_FILE).read_text().split()
        seeds = random.Random(args.world_seed).sample(seeds, min(args.seeds, len(seeds)))
        seeds_file = work / "seeds.txt"
        seeds_file.write_text("".join(url + "\n" for url in seeds))
        runs: list[dict[str, Any]] = []
        ctrl_c: list[dict[str, Any]] = []
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            for mode in modes:
                for rate in rates:
                    if rate == 0 and mode != modes[0]:
                        continue  # one healthy crawl
                    server.set_api_fault(mode if rate else "", rate, ["moz"])
                    name = f"{mode if rate else 'healthy'} {rate:.0%}"
                    print(f"crawling: {name} of the Moz calls bad ...", flush=True)
                    run = run_crawl(server, seeds_file, args.budget, work / name, settings)
                    runs.append({"mode": mode if rate else "none", "bad_share": rate, **run})
            if not args.no_ctrl_c:
                server.set_api_fault("hang", 1.0, ["moz"])
                for cancellable in (True, False):
                    print(f"Ctrl-C, search calls cancellable: {cancellable} ...", flush=True)
                    ctrl_c.append(
                        stop_crawl(
                            server, seeds_file, work / f"stop{cancellable}", settings, cancellable
                        )  # fmt: skip
                    )
            server.set_api_fault("")
    healthy = next(r["seconds"] for r in runs if r["bad_share"] == 0)
    for run in runs:
        run["time_over_healthy"] = round(run["seconds"] / healthy, 2)
    result = {
        "benchmark": "search_faults",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": "scrapy crawl backforth (OBFC, Moz backlinks) through the sandbox; the API's "
        "fault mode spoils a share of the Moz calls; one crawl each",
        "world": {"sites": args.sites, "seed": args.world_seed},
        "seeds": len(seeds),
        "budget": args.budget,
        "crawl_settings": settings,
        "runs": runs,
        "ctrl_c": ctrl_c,
        "seconds": round(time.monotonic() - started, 1),
    }
    print_table(result)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{args.out}.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


def run_crawl(
    server: SandboxServer, seeds: Path, budget: int, work: Path, settings: dict[str, Any]
) -> dict[str, Any]:
    work.mkdir(parents=True)
    stats_file = work / "stats.json"
    command = spider_command(
        "backforth",
        {**settings, "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
         "BILINGUAL_STATS_FILE": stats_file},
        {"seeds": seeds, "langs": "any", "strategy": "obfc", "budget": budget},
        work / "items.jsonl",
    )  # fmt: skip
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=crawl_env(), check=False)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(result.stderr[-3000:])
    stats = json.loads(stats_file.read_text())
    search = {k.split("/", 2)[2]: v for k, v in stats.items() if k.startswith("search/moz/")}
    warnings = API_WARNING.findall(result.stderr)
    return {
        "seconds": round(seconds, 1),
        "finish_reason": stats.get("finish_reason"),
        "pages": stats.get("backforth/pages", 0),
        "sites_reported": stats.get("backforth/sites_bilingual", 0),
        "backlink_queries": stats.get("backlinks/queries", 0),
        "backlink_queries_failed": stats.get("backlinks/queries_failed", 0),
        "search_moz": search,
        "api_warnings": len(warnings),
        "api_warning_lines": [w[:200] for w in warnings[:5]],
    }


def stop_crawl(
    server: SandboxServer, seeds: Path, work: Path, settings: dict[str, Any], cancellable: bool
) -> dict[str, Any]:
    """Seconds from a SIGINT to the crawl's end while its Moz calls hang (default timeouts)."""
    work.mkdir(parents=True)
    extra: dict[str, Any] = {"BILINGUAL_SANDBOX_PROXY": server.proxy_url}
    if not cancellable:
        from bilingual_spider import settings as project_settings

        middlewares = dict(project_settings.DOWNLOADER_MIDDLEWARES)
        middlewares["bilingual_spider.search.middlewares.SearchDownloadMiddleware"] = None
        extra["DOWNLOADER_MIDDLEWARES"] = middlewares
    before = server.stats()["requests"].get(API_HOST, 0)
    command = spider_command(
        "backforth",
        {**settings, **extra},
        {"seeds": seeds, "langs": "any", "strategy": "obfc"},
        work / "items.jsonl",
    )
    process = subprocess.Popen(
        command, env=crawl_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while server.stats()["requests"].get(API_HOST, 0) <= before:  # a call is out, hanging
        time.sleep(0.05)
    time.sleep(2.0)  # the calls are well out
    stopped = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.wait()
    return {"cancellable": cancellable, "seconds_to_stop": round(time.monotonic() - stopped, 1)}


def print_table(result: dict[str, Any]) -> None:
    print(f"\n{'fault':<8} {'bad':>5} {'seconds':>8} {'x':>6} {'pages':>6} {'sites':>6} "
          f"{'calls':>6} {'down':>5} {'unans.':>6} {'warnings':>8}")  # fmt: skip
    for run in result["runs"]:
        search = run["search_moz"]
        print(
            f"{run['mode']:<8} {run['bad_share']:>5.0%} {run['seconds']:>8.1f} "
            f"{run['time_over_healthy']:>6.2f} {run['pages']:>6} {run['sites_reported']:>6} "
            f"{search.get('requests', 0):>6} {search.get('down', 0):>5} "
            f"{search.get('unanswered', 0):>6} {run['api_warnings']:>8}"
        )
    for stop in result["ctrl_c"]:
        print(f"Ctrl-C with a hanging API, calls cancellable={stop['cancellable']}: "
              f"{stop['seconds_to_stop']} s to stop")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
