"""Does PupSniffer's pattern mining grow linearly with the number of URLs?

Generates URL lists of 10k, 100k and 1M URLs (many sites, the URL layouts of real bilingual
sites in roughly the shares of ``shared/data/wmt16``: a language directory, a language token in
the file name, a ``lang=`` parameter, a language subdomain, an unmarked default language with a
``/fr/`` directory on the other side, plus monolingual and paginated pages), then times, on one
core:

- ``url_only``: :func:`mine_url_list` as the CLI calls it (mining, credibility, pairs; only units
  that may name a language are hashed);
- ``all_units``: :func:`mine_sites` hashing every unit (eq. 1 with no language prior, the paper's
  setting where page languages come from language ID).

Growth is linear when the time per URL at each size is within 20% of the time per URL at 10k.
Goal: 1M URLs in under 60 s.

How right the pairs are (WMT16, the real sites, a generated world) is ``pupsniffer.py``'s job.

    python benchmarks/pupsniffer_scaling.py [--sizes 10000 100000 1000000]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from datetime import datetime
from pathlib import Path

from bilingual_spider.patterns.mining import mine_sites
from bilingual_spider.patterns.url_list import mine_url_list

RESULTS = Path(__file__).resolve().parent / "results"
LANGUAGES = ["en", "fr", "de", "es", "it", "zh", "ja", "ru", "pt", "nl"]
WORDS = ["news", "about", "products", "report", "history", "events", "contact", "services",
         "press", "people", "travel", "culture", "science", "sport", "health", "music"]  # fmt: skip
PAGES_PER_SITE = 200
SEED = 7


def _site_urls(rnd: random.Random, index: int, pages: int) -> list[str]:
    """One site's URLs: one layout, 2-4 languages, most pages translated."""
    host = f"site{index}.{rnd.choice(['com', 'org', 'net', 'gov.hk', 'ca', 'eu'])}"
    languages = rnd.sample(LANGUAGES, rnd.randint(2, 4))
    layout = rnd.choices(["dir", "file", "query", "subdomain", "default"], [37, 27, 15, 8, 13])[0]
    urls: list[str] = []
    item = 0
    while len(urls) < pages:
        item += 1
        word, section = rnd.choice(WORDS), rnd.choice(WORDS)
        slug = f"{word}-{item}"
        for lang in languages:
            if rnd.random() < 0.15:  # an untranslated page
                continue
            urls.append(_url(layout, host, lang, languages[0], section, slug, item))
        if rnd.random() < 0.2:
            urls.append(f"http://www.{host}/{section}/list?page={item % 50}")
    return urls[:pages]


def _url(
    layout: str, host: str, lang: str, default: str, section: str, slug: str, item: int
) -> str:
    if layout == "dir":
        return f"http://www.{host}/{lang}/{section}/{slug}.html"
    if layout == "file":
        return f"http://{host}/{section}/{lang}_rep_{slug}.htm"
    if layout == "query":
        marker = "" if lang == default else f"&lang={lang}"
        return f"http://www.{host}/item.aspx?id={item}{marker}"
    if layout == "subdomain":
        return f"http://{lang}.{host}/articles/{section}/{slug}"
    prefix = "" if lang == default else f"/{lang}"
    return f"http://www.{host}{prefix}/{section}/{slug}"


def generate(size: int, seed: int = SEED) -> tuple[list[str], int]:
    """``size`` URLs, and the number of sites they come from."""
    rnd = random.Random(seed)
    urls: list[str] = []
    index = 0
    while len(urls) < size:
        urls += _site_urls(rnd, index, rnd.randint(PAGES_PER_SITE // 2, PAGES_PER_SITE * 3 // 2))
        index += 1
    return urls[:size], index


def _timed(run, repeats: int) -> tuple[float, object]:
    """The least CPU time of ``repeats`` runs (small sizes are run several times: one short
    run is too noisy on a shared machine), and the result."""
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        started = time.process_time()
        result = run()
        best = min(best, time.process_time() - started)
    return best, result


def measure(size: int, modes: list[str]) -> dict:
    urls, sites = generate(size)
    repeats = max(1, 100_000 // size)
    row: dict = {"urls": size, "sites": sites, "repeats": repeats}
    if "url_only" in modes:
        seconds, result = _timed(lambda: mine_url_list(urls), repeats)
        row["url_only_s"] = round(seconds, 3)
        row["url_only_us_per_url"] = round(seconds / size * 1e6, 2)
        row["pairs"] = len(result.pairs)
        row["top_patterns"] = [str(k) for k in result.top_patterns(5)]
    if "all_units" in modes:
        seconds, mined = _timed(lambda: mine_sites(urls), repeats)
        row["all_units_s"] = round(seconds, 3)
        row["all_units_us_per_url"] = round(seconds / size * 1e6, 2)
        row["candidate_pairs"] = sum(len(m.pairs) for m in mined.values())
    return row


def linearity(rows: list[dict], mode: str) -> dict:
    """Time per URL at each size relative to the smallest size; linear if all within 20%."""
    key = f"{mode}_us_per_url"
    base = rows[0][key]
    ratios = {str(r["urls"]): round(r[key] / base, 3) for r in rows}
    return {
        "ratio_to_smallest": ratios,
        "linear_within_20pct": all(abs(v - 1) <= 0.2 for v in ratios.values()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--modes", nargs="+", default=["url_only", "all_units"])
    parser.add_argument("--out", type=Path, default=RESULTS / "pupsniffer_scaling.json")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    warm_up, _ = generate(2_000, seed=SEED + 1)
    mine_url_list(warm_up), mine_sites(warm_up)  # imports, caches, the suffix list
    rows = []
    print(
        f"{'urls':>9} {'sites':>6} " + " ".join(f"{m + ' s':>12} {'us/URL':>7}" for m in args.modes)
    )
    for size in sorted(args.sizes):
        row = measure(size, args.modes)
        rows.append(row)
        cells = " ".join(
            f"{row[m + '_s']:>12.2f} {row[m + '_us_per_url']:>7.2f}" for m in args.modes
        )
        print(f"{size:>9} {row['sites']:>6} {cells}", flush=True)
    result = {
        "date": datetime.now().isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
            "timer": "process_time, one core",
        },
        "parameters": {"sizes": sorted(args.sizes), "pages_per_site": PAGES_PER_SITE, "seed": SEED},
        "rows": rows,
        "linearity": {m: linearity(rows, m) for m in args.modes},
        "largest_under_60s": {m: rows[-1][m + "_s"] < 60 for m in args.modes},
    }
    for mode, verdict in result["linearity"].items():
        under = result["largest_under_60s"][mode]
        print(
            f"{mode}: time/URL relative to {rows[0]['urls']}: {verdict['ratio_to_smallest']}, "
            f"linear within 20%: {verdict['linear_within_20pct']}, "
            f"{rows[-1]['urls']} URLs under 60 s: {under}"
        )
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
