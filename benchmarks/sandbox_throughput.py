"""Is the sandbox web ever the bottleneck? Its page rate under a load generator (wrk) against the
page rate of a bare Scrapy spider crawling the same pages through it, in the same run.

Goal (issue 2): server >= 3x bare Scrapy. Also reported: our ``forward`` spider (all our
middlewares and pipelines on) against bare Scrapy, the baseline of later throughput goals.

    python benchmarks/sandbox_throughput.py [--pages 5000] [--hosts 50] [--seconds 10]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, run_spider

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
WORDS = [
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "you",
    "that",
    "it",
    "he",
    "was",
    "for",
    "on",
    "are",
    "as",
    "with",
    "his",
    "they",
    "at",
    "be",
    "this",
]


def build_web(root: Path, pages: int, hosts: int, seed: int = 0) -> list[str]:
    """``pages`` pages over ``hosts`` hosts; each links to 8 pages of its host and 2 elsewhere."""
    rng = random.Random(seed)
    per_host = pages // hosts
    urls = []
    for h in range(hosts):
        directory = root / f"host{h}"
        directory.mkdir(parents=True)
        for p in range(per_host):
            links = [f"/p{rng.randrange(per_host)}.html" for _ in range(8)]
            links += [f"http://host{rng.randrange(hosts)}.bench/p{rng.randrange(per_host)}.html"]
            links += [f"/p{(p + 1) % per_host}.html"]  # a ring: every page is reachable
            body = " ".join(rng.choice(WORDS) for _ in range(600))
            anchors = " ".join(f'<a href="{u}">link</a>' for u in links)
            (directory / f"p{p}.html").write_text(
                f"<html><head><title>p{p}</title></head><body><p>{body}</p>{anchors}</body></html>"
            )
            urls.append(f"http://host{h}.bench/p{p}.html")
    return urls


def run_wrk(address: str, urls: list[str], seconds: int, connections: int) -> dict:
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install wrk")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write("paths = {" + ",".join(f'"{u}"' for u in urls[:2000]) + "}\n")
        script.write(
            "i = 0\nrequest = function()\n  i = i % #paths + 1\n"
            '  return wrk.format("GET", paths[i])\nend\n'
        )
    result = subprocess.run(
        [wrk, "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script.name, f"http://{address}/"],
        capture_output=True,
        text=True,
        check=True,
    )
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", result.stdout).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
    return {"pages_per_s": rate, "non_2xx": int(errors.group(1)) if errors else 0}


def run_bare(
    proxy: str, seeds: list[str], pages: int, workdir: Path, settings: dict | None = None
) -> dict:
    """The bare spider until ``pages`` responses; ``settings``: extra ``-s`` options."""
    stats_file = workdir / "bare_stats.json"
    extra = [arg for key, value in (settings or {}).items() for arg in ("-s", f"{key}={value}")]
    env = crawl_env()
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    started = time.monotonic()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "scrapy",
            "runspider",
            str(HERE / "bare_spider.py"),
            "-a",
            "seeds=" + ",".join(seeds),
            "-s",
            f"BARE_PROXY={proxy}",
            "-s",
            f"BARE_STATS_FILE={stats_file}",
            "-s",
            f"CLOSESPIDER_PAGECOUNT={pages}",
            *extra,
        ],  # fmt: skip
        cwd=workdir,
        env=env,
        check=True,
    )
    return rate_from_stats(json.loads(stats_file.read_text()), time.monotonic() - started)


def run_forward(proxy: str, seeds: list[str], pages: int, workdir: Path) -> dict:
    stats_file = workdir / "forward_stats.json"
    started = time.monotonic()
    result = run_spider(
        "forward",
        settings={
            "BILINGUAL_SANDBOX_PROXY": proxy,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
            "ROBOTSTXT_OBEY": False,
            "CLOSESPIDER_PAGECOUNT": pages,
            "BILINGUAL_STATS_FILE": stats_file,
            "LOG_LEVEL": "WARNING",
        },
        arguments={"seeds": ",".join(seeds)},
        output=workdir / "forward.jsonl",
    )
    result.check_returncode()
    return rate_from_stats(json.loads(stats_file.read_text()), time.monotonic() - started)


def children_cpu_s() -> float:
    """CPU seconds of this process's finished children (the crawls; the sandbox server is
    still running, so it is not counted)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def rate_from_stats(stats: dict, wall_seconds: float) -> dict:
    """Pages per second over the crawl's own elapsed time (start-up excluded)."""
    pages = int(stats["response_received_count"])
    elapsed = float(stats["elapsed_time_seconds"])
    return {"pages": pages, "elapsed_s": round(elapsed, 2), "pages_per_s": pages / elapsed,
            "wall_s": round(wall_seconds, 2)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=10, help="wrk duration")
    parser.add_argument("--connections", type=int, default=16, help="wrk connections")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        urls = build_web(root / "web", args.pages, args.hosts)
        mounts = [f"--mount=host{h}.bench={root / 'web' / f'host{h}'}" for h in range(args.hosts)]
        seeds = [f"http://host{h}.bench/p0.html" for h in range(args.hosts)]
        with SandboxServer(mounts) as sandbox:
            server = run_wrk(sandbox.address, urls, args.seconds, args.connections)
            bare = run_bare(sandbox.proxy_url, seeds, args.pages, root)
            forward = run_forward(sandbox.proxy_url, seeds, args.pages, root)
    result = {
        "benchmark": "sandbox_throughput",
        "date": datetime.now().isoformat(timespec="seconds"),
        "pages": args.pages,
        "hosts": args.hosts,
        "server_wrk": server,
        "bare_scrapy": bare,
        "forward_spider": forward,
        "server_over_bare": server["pages_per_s"] / bare["pages_per_s"],
        "forward_over_bare": forward["pages_per_s"] / bare["pages_per_s"],
        "goal_server_over_bare": 3.0,
    }
    print(f"{'what':<28}{'pages/s':>10}")
    print(f"{'sandbox server (wrk)':<28}{server['pages_per_s']:>10.0f}")
    print(f"{'bare Scrapy spider':<28}{bare['pages_per_s']:>10.0f}")
    print(f"{'forward spider (ours)':<28}{forward['pages_per_s']:>10.0f}")
    print(f"server / bare Scrapy  = {result['server_over_bare']:.1f}x (goal >= 3x)")
    print(f"forward / bare Scrapy = {result['forward_over_bare']:.2f}")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "sandbox_throughput.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
