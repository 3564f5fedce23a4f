"""Old and new real-site gold side by side: two builds of ``bilingual-spider sandbox fetch``
(one with the old judging code, one with the new), compared per site (gold pairs, drops by
reason, bilingual or not) with the pairs added and removed.

    python benchmarks/realsites_gold_rule.py OLD_DIR NEW_DIR --rule-old TEXT --rule-new TEXT
        [--out benchmarks/results/realsites_gold_rule_prose.json]

``OLD_DIR`` and ``NEW_DIR`` each hold a build's ``gold_pairs.tsv`` and ``sites.json`` (a
realsites cache, or a copy of those two files).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def gold_pairs(build: Path) -> set[tuple[str, str]]:
    rows = (line.split("\t") for line in (build / "gold_pairs.tsv").read_text().splitlines())
    return {(row[0], row[1]) for row in rows if len(row) >= 2}


def site_figures(build: Path) -> dict[str, dict[str, Any]]:
    summaries = json.loads((build / "sites.json").read_text())
    return {
        s["name"]: {
            "gold_pairs": s.get("gold_pairs", 0),
            "dropped": {k: v for k, v in (s.get("dropped") or {}).items() if v},
            "bilingual": s.get("bilingual"),
        }
        for s in summaries
    }


def compare(old: Path, new: Path) -> dict[str, Any]:
    old_pairs, new_pairs = gold_pairs(old), gold_pairs(new)
    old_sites, new_sites = site_figures(old), site_figures(new)
    return {
        "totals": {
            "old": {"gold_pairs": len(old_pairs)},
            "new": {"gold_pairs": len(new_pairs)},
            "pairs_added": len(new_pairs - old_pairs),
            "pairs_removed": len(old_pairs - new_pairs),
        },
        "sites": {
            name: {"old": old_sites.get(name), "new": new_sites.get(name)}
            for name in sorted(set(old_sites) | set(new_sites))
        },
        "added_pairs": sorted(new_pairs - old_pairs),
        "removed_pairs": sorted(old_pairs - new_pairs),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--rule-old", default="")
    parser.add_argument("--rule-new", default="")
    parser.add_argument("--out", type=Path, default=HERE / "results/realsites_gold_rule_prose.json")
    args = parser.parse_args(argv)
    result = {
        "benchmark": "realsites_gold_rule",
        "rule": {"old": args.rule_old, "new": args.rule_new},
        "command": "bilingual-spider sandbox fetch with the old and the new code, then "
        "python benchmarks/realsites_gold_rule.py OLD NEW",
        **compare(args.old, args.new),
    }
    totals = result["totals"]
    print(
        f"gold pairs {totals['old']['gold_pairs']} -> {totals['new']['gold_pairs']} "
        f"({totals['pairs_added']} added, {totals['pairs_removed']} removed)"
    )
    for name, figures in result["sites"].items():
        old, new = figures["old"] or {}, figures["new"] or {}
        if old != new:
            print(f"  {name}: {old.get('gold_pairs')} -> {new.get('gold_pairs')}, dropped "
                  f"{old.get('dropped')} -> {new.get('dropped')}")  # fmt: skip
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
