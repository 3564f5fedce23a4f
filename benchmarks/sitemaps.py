"""Sitemaps as a source of pages and pairs (issue 37): what ``BILINGUAL_SITEMAPS`` finds.

    .venv/bin/python benchmarks/sitemaps.py [--out out/bench_sitemaps] [--share 0.10]

Writes the sitemap sites of :mod:`bilingual_spider.sandbox.sitemap_sites` (three en-fr sites
publishing sitemaps as real ones do; gold from how they were written, not from their sitemaps),
serves them, and crawls each with ``scrapy crawl pupsniffer -a langs=en,fr``, sitemaps off and
on:

- the archive site (a large English archive, a small translated core with translated slugs that
  no page names, an hreflang sitemap in a gzip index, partly stale and wrong) with a page budget
  of ``--share`` of its pages (the acceptance: >= 95 % of the sitemap's true pairs found in a
  crawl of at most 10 % of the site's pages);
- the plain-sitemap site and the broken-sitemap site with a budget above their size (the
  sitemap's pages no link reaches; broken sitemaps cost nothing), and the plain site again
  within 20 of its 49 pages.

Reported per site and setting: pages fetched (``pupsniffer/pages``), all requests the host saw
(the sandbox's count: robots.txt and sitemap files included), pairs found, their methods, the
share of the gold pairs found (for the archive site: the sitemap's true pairs), precision
against the gold, and the sitemap's stale or wrong pairs emitted. JSON in
``benchmarks/results/sitemaps.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SMALL_BUDGET = 20
"""A second crawl of the plain-sitemap site (49 pages) within this budget."""
CRAWL = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 8, "LOG_LEVEL": "INFO"}


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def crawl(
    proxy_url: str, seeds: list[str], work: Path, budget: int, sitemaps: bool
) -> dict[str, Any]:
    """One ``scrapy crawl pupsniffer`` run; its pairs and stats."""
    from bilingual_spider.sandbox.process import pupsniffer_pairs

    shutil.rmtree(work, ignore_errors=True)
    settings = {**CRAWL, "BILINGUAL_SITEMAPS": sitemaps}
    started = time.monotonic()
    run = pupsniffer_pairs(
        proxy_url, seeds, work, settings, 1800, langs="en,fr", site_budget=budget
    )
    seconds = time.monotonic() - started
    (work / "crawl.log").write_text(run.log)
    return {"pairs": run.pairs, "stats": run.stats, "seconds": round(seconds, 1)}


def score(run: dict[str, Any], truth: dict[str, Any], host: str) -> dict[str, Any]:
    """A crawl of ``host`` against its gold pairs and its sitemap's."""
    gold = {pair_key(*p) for p in truth["gold_pairs"]}
    listed = {pair_key(*p) for p in truth["sitemap_pairs"]}
    found = {
        pair_key(p["source_url"], p["target_url"]): p["method"]
        for p in run["pairs"]
        if host in p["source_url"] or host in p["target_url"]
    }
    right = gold & set(found)
    listed_true = listed & gold
    stats = run["stats"]
    return {
        "site_pages": truth["pages"],
        "pages_fetched": stats.get("pupsniffer/pages", 0),
        "sitemap_requests": stats.get("sitemaps/requests", 0),
        "pairs_found": len(found),
        "methods": dict(Counter(found.values())),
        "gold_pairs": len(gold),
        "gold_found": len(right),
        "recall": round(len(right) / len(gold), 4) if gold else None,
        "precision": round(len(right) / len(found), 4) if found else None,
        "sitemap_true_pairs": len(listed_true),
        "sitemap_true_found": len(listed_true & set(found)),
        "sitemap_true_share": (
            round(len(listed_true & set(found)) / len(listed_true), 4) if listed_true else None
        ),
        "sitemap_wrong_emitted": len((listed - gold) & set(found)),
        "seconds": run["seconds"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("out/bench_sitemaps"))
    parser.add_argument("--share", type=float, default=0.10, help="archive budget / its pages")
    args = parser.parse_args(argv)

    from bilingual_spider.sandbox.process import SandboxServer
    from bilingual_spider.sandbox.sitemap_sites import (
        ARCHIVE_HOST,
        BROKEN_HOST,
        PLAIN_HOST,
        load_gold,
        write_sitemap_sites,
    )
    from bilingual_spider.sandbox.textsource import TextSource

    sites = args.out / "sites"
    shutil.rmtree(sites, ignore_errors=True)
    config = write_sitemap_sites(sites, TextSource.from_catalogs(["en", "fr"]))
    gold = load_gold(sites)
    budget = int(gold[ARCHIVE_HOST]["pages"] * args.share)
    results: dict[str, Any] = {"archive_budget": budget, "share": args.share, "runs": {}}
    for sitemaps in (False, True):
        label = "sitemaps_on" if sitemaps else "sitemaps_off"
        with SandboxServer(["--config", str(config)]) as server:
            results["runs"][label] = {}
            for host in (ARCHIVE_HOST, PLAIN_HOST, BROKEN_HOST):
                site_budget = budget if host == ARCHIVE_HOST else 200  # the others: all pages
                run = crawl(
                    server.proxy_url, [f"http://{host}/"], args.out / label / host,
                    site_budget, sitemaps,
                )  # fmt: skip
                results["runs"][label][host] = score(run, gold[host], host)
            requests = server.stats().get("requests", {})
            small = crawl(
                server.proxy_url, [f"http://{PLAIN_HOST}/"], args.out / label / "plain_small",
                SMALL_BUDGET, sitemaps,
            )  # fmt: skip
            row = score(small, gold[PLAIN_HOST], PLAIN_HOST)
            row["host_requests"] = None  # counted with the full crawl's by the sandbox
        results["runs"][label][f"{PLAIN_HOST} ({SMALL_BUDGET} pages)"] = row
        for host, row in results["runs"][label].items():
            row.setdefault("host_requests", requests.get(host))
    on = results["runs"]["sitemaps_on"][ARCHIVE_HOST]
    results["acceptance"] = {
        "sitemap_true_share": on["sitemap_true_share"],
        "pages_share": round(on["pages_fetched"] / on["site_pages"], 4),
        "met": (on["sitemap_true_share"] or 0) >= 0.95
        and on["pages_fetched"] <= 0.10 * on["site_pages"],
    }
    print_table(results)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "sitemaps.json").write_text(json.dumps(results, indent=1) + "\n")
    print(f"\nwritten {RESULTS / 'sitemaps.json'}")
    return 0


def print_table(results: dict[str, Any]) -> None:
    print(f"archive budget: {results['archive_budget']} pages ({results['share']:.0%})")
    head = f"{'run':13} {'site':45} {'pages':>6} {'reqs':>5} {'found':>5} {'recall':>6} "
    print(head + f"{'prec':>6} {'sitemap':>8} {'wrong':>5}  methods")
    for label, rows in results["runs"].items():
        for host, row in rows.items():
            share = row["sitemap_true_share"]
            print(
                f"{label:13} {host:45} {row['pages_fetched']:>6} {row['host_requests'] or 0:>5} "
                f"{row['pairs_found']:>5} {row['recall'] or 0:>6.3f} {row['precision'] or 0:>6.3f} "
                f"{'-' if share is None else f'{share:.3f}':>8} {row['sitemap_wrong_emitted']:>5}"
                f"  {row['methods']}"
            )
    print(f"acceptance: {results['acceptance']}")


if __name__ == "__main__":
    sys.exit(main())
