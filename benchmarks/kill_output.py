"""How many fetched pages a crawl killed with ``kill -9`` leaves out of its output (issue 32).

A forward crawl of an endless calendar on the sandbox web (one HTML page per month, each linking
to the next and the previous one) writes a JSON-lines feed; a random time (1-6 s) after its
spider opened it is killed with SIGKILL. The sandbox's access log (the server is stopped cleanly
afterwards) says which pages were served; the feed says which reached the output. Compared:
Scrapy's own local feed storage (an 8 KB buffer) and the project's (``output/flushed_feed.py``:
flushed per item). Pages served but missing from the feed are those the crawl had fetched and
not yet exported (in flight in the engine when it died) plus, with a buffer, those exported but
not yet written.

    python benchmarks/kill_output.py [--trials 3] [--seed 32]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
PROJECT = Path(__file__).resolve().parents[1]
STORAGES = {
    "scrapy": "scrapy.extensions.feedexport.FileFeedStorage",
    "flushed": "bilingual_spider.output.flushed_feed.FlushedFileFeedStorage",
}
SEED = "http://calendar.example/calendar/2020/01/"


def calendar_web(root: Path) -> Path:
    site = root / "site"
    site.mkdir(parents=True)
    (site / "index.html").write_text('<html><body><a href="/calendar/2020/01/">cal</a></body>')
    config = root / "sandbox.toml"
    config.write_text(
        textwrap.dedent(
            f"""
            seed = 7
            [[mount]]
            host = "calendar.example"
            dirs = ["{site}"]
            [hosts."calendar.example"]
            calendar_trap_prefix = "/calendar/"
            """
        )
    )
    return config


def trial(root: Path, storage: str, seconds: float) -> dict[str, object]:
    """One crawl killed ``seconds`` after its spider opened: pages served, pages in the feed,
    bad lines."""
    root.mkdir(parents=True)
    access, feed = root / "access.tsv", root / "pages.jsonl"
    with SandboxServer(["--config", str(calendar_web(root)), "--access-log", str(access)]) as web:
        settings = {
            "BILINGUAL_SANDBOX_PROXY": web.proxy_url,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
            "DEPTH_LIMIT": 0,
            "ROBOTSTXT_OBEY": False,
            "LOG_LEVEL": "INFO",
            "LOG_FILE": root / "log.txt",
            "FEED_STORAGES": json.dumps({"": STORAGES[storage], "file": STORAGES[storage]}),
        }
        command = spider_command("forward", settings, {"seeds": SEED}, output=feed)
        crawl = subprocess.Popen(
            command,
            cwd=PROJECT,
            env=crawl_env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        log = root / "log.txt"
        while not (log.is_file() and "Spider opened" in log.read_text(errors="replace")):
            time.sleep(0.05)
        time.sleep(seconds)  # crawling, then killed
        crawl.send_signal(signal.SIGKILL)
        crawl.wait()
        assert web.process is not None
        web.process.send_signal(signal.SIGINT)  # ends cleanly: its access log is flushed
        web.process.wait()
    served = set()
    for line in access.read_text().splitlines():
        _, _, host, target, status = line.split("\t")
        if status == "200" and "/calendar/" in target:
            served.add(target if target.startswith("http") else f"http://{host}{target}")
    written, bad = set(), 0
    for line in feed.read_bytes().splitlines() if feed.exists() else []:
        try:
            written.add(json.loads(line)["url"])
        except (ValueError, KeyError):
            bad += 1
    return {
        "storage": storage,
        "killed_after_s": round(seconds, 1),
        "pages_served": len(served),
        "pages_in_output": len(written & served),
        "missing": len(served - written),
        "bad_lines": bad,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    runs = []
    print(f"{'storage':<8} {'killed':>7} {'served':>7} {'output':>7} {'missing':>8} {'bad':>4}")
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.trials):
            seconds = rng.uniform(1, 6)
            for storage in STORAGES:
                run = trial(Path(scratch) / f"{storage}{number}", storage, seconds)
                runs.append(run)
                print(
                    f"{run['storage']:<8} {run['killed_after_s']:>6}s {run['pages_served']:>7} "
                    f"{run['pages_in_output']:>7} {run['missing']:>8} {run['bad_lines']:>4}",
                    flush=True,
                )
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "kill_output.json"
    record = {"benchmark": "kill_output", "date": datetime.now().isoformat(timespec="seconds")}
    out.write_text(json.dumps({**record, "seed": args.seed, "runs": runs}, indent=1) + "\n")
    print(f"written {out}")


if __name__ == "__main__":
    main()
