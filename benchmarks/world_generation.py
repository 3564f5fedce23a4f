"""How long do generating and serving a world take? (Issue 3: 10,000 sites in under 2 minutes.)

Times, in one run: reading the gettext catalogs, planning + writing the world, starting the
sandbox server on it (page pack + search/backlink API loaded), and answering a sample of its
pages and of each API endpoint. Prints the world's statistics too.

    python benchmarks/world_generation.py [--sites 10000] [--seed 0] [--sample 2000]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_stats import format_stats, world_stats
from bilingual_spider.sandbox.webgraph_write import (
    CONFIG_FILE,
    generate,
    load_gold_pairs,
    load_ground_truth,
)

RESULTS = Path(__file__).resolve().parent / "results"
GOAL_SECONDS = 120.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample", type=int, default=2000, help="pages fetched after start")
    parser.add_argument("--out", help="world directory (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out) if args.out else Path(tmp) / "world"
        result = run(out, args.sites, args.seed, args.sample)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "world_generation.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {path}")
    return 0 if result["generate_and_serve_s"] < GOAL_SECONDS else 1


def run(out: Path, sites: int, seed: int, sample: int) -> dict:
    params = WorldParams(seed=seed, sites=sites)
    started = time.monotonic()
    text = TextSource.from_catalogs(["en", *params.language_weights])
    text_s = time.monotonic() - started
    summary = generate(out, params, text)
    generated_s = time.monotonic() - started
    with SandboxServer(["--config", str(out / CONFIG_FILE)]) as server:
        ready_s = time.monotonic() - started
        truth = load_ground_truth(out)
        pairs = load_gold_pairs(out)
        rng = random.Random(seed)
        urls = [s["root_url"] for s in rng.sample(truth["sites"], min(sample // 2, sites))]
        urls += [p[1] for p in rng.sample(pairs, min(sample - len(urls), len(pairs)))]
        fetch_started = time.monotonic()
        statuses = [server.get(url)[0] for url in urls]
        fetch_s = time.monotonic() - fetch_started
    stats = world_stats(out)
    result = {
        "benchmark": "world_generation",
        "date": datetime.now().isoformat(timespec="seconds"),
        "sites": sites,
        "seed": seed,
        "pages": summary["pages"],
        "hosts": summary["hosts"],
        "links": summary["links"],
        "gold_pairs": summary["gold_pairs"],
        "read_catalogs_s": round(text_s, 2),
        "generate_s": round(generated_s - text_s, 2),
        "server_start_s": round(ready_s - generated_s, 2),
        "generate_and_serve_s": round(ready_s, 2),
        "goal_s": GOAL_SECONDS,
        "sample_fetched": len(urls),
        "sample_ok": sum(1 for s in statuses if s == 200),
        "sample_pages_per_s_one_client": round(len(urls) / fetch_s, 1) if fetch_s else None,
        "stats": stats,
    }
    print(format_stats(stats))
    print()
    for key in (
        "read_catalogs_s",
        "generate_s",
        "server_start_s",
        "generate_and_serve_s",
        "sample_ok",
        "sample_pages_per_s_one_client",
    ):
        print(f"{key:<34} {result[key]}")
    return result


if __name__ == "__main__":
    sys.exit(main())
