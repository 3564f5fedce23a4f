"""Content verification of pairs on real sites, leave-sites-out: precision and recall.

The real sites' candidate pairs (``patterns/verifier_training.py``): each English page with
each file a URL pattern gives as the same page in another language; gold pairs are
translations, the gold's untranslated files (symlinks, mostly English) and the next page's file
(``ch02s03`` with ``ch02s04``: renumbered chapters) are not. Each site is scored by a verifier
fitted on the other sites; the held-out sites (``holdout`` in ``real_sites.toml``) by one fitted
on every site not held out. A pair is kept when it passes the copy check (copied share <= 0.5,
before the verifier in a crawl) and the verifier; ``copy check only`` is what a crawl kept
before the verifier.

    python benchmarks/pair_verification.py [--thresholds 0.5,0.7,0.8] [--max-pairs-per-site 200]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from bilingual_spider.patterns.verifier_training import leave_sites_out, real_site_pair_examples
from bilingual_spider.sandbox.real_site import load_sites

RESULTS = Path(__file__).resolve().parent / "results"
GOAL_PRECISION = 0.98


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", default="0.5,0.7,0.8")
    parser.add_argument("--max-pairs-per-site", type=int, default=200)
    parser.add_argument("--cache", help="real-sites cache (default $BILINGUAL_SANDBOX_CACHE)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    examples = real_site_pair_examples(args.cache, max_pairs_per_site=args.max_pairs_per_site)
    holdout = sorted(site.name for site in load_sites() if site.holdout)
    print(f"{len(examples)} pairs: {dict(Counter(e.kind for e in examples))}; holdout {holdout}")
    by_threshold = {}
    for threshold in (float(t) for t in args.thresholds.split(",")):
        result = leave_sites_out(examples, holdout, threshold=threshold)
        by_threshold[str(threshold)] = result
        print(f"\nthreshold {threshold}")
        print(f"{'site':28s} {'pairs':>6s} {'P':>7s} {'R':>7s}  kept (translation/untr./misal.)")
        rows = {**result["sites"], "ALL (leave-sites-out)": result["pooled"]}
        rows["copy check only"] = result["copy_check_only"]
        if "holdout" in result:
            rows["HOLDOUT"] = result["holdout"]
            rows["holdout, copy check only"] = result["holdout_copy_check_only"]
        for name, row in rows.items():
            kept = "/".join(str(v) for v in row["kept"].values())
            print(
                f"{name:28s} {row['pairs']:6d} {_f(row['precision'])} {_f(row['recall'])}  {kept}"
            )
    report = {
        "benchmark": "pair_verification",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "pairs": dict(Counter(e.kind for e in examples)),
        "pairs_by_site": {
            site: dict(Counter(e.kind for e in examples if e.site == site))
            for site in sorted({e.site for e in examples})
        },
        "holdout": holdout,
        "by_threshold": by_threshold,
        "goal_precision": GOAL_PRECISION,
        "seconds": round(time.monotonic() - started, 1),
    }
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "pair_verification.json"
    path.write_text(json.dumps(report, indent=1) + "\n")
    print(f"\nresults in {path} ({report['seconds']} s)")
    return 0


def _f(value: float | None) -> str:
    return f"{value:7.3f}" if value is not None else "      -"


if __name__ == "__main__":
    raise SystemExit(main())
