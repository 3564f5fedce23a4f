"""Crashes per function that reads untrusted input, over N random inputs each (issue 32).

The targets and their input generators are the test suite's (``tests/fuzz/targets.py``): page
bytes with their Content-Type (charset choice, decoding, Scrapy's response text through the
charset middleware), link contexts and main text, charset names, URLs (units, substitution,
network safety, joining), URL lists (pattern mining), seed arguments and seed files, language-ID
input, and the answers of every search service (valid, broken, HTML, truncated, deeply nested,
huge). A crash is any exception the target's contract does not allow. Inputs come from a seeded
``random.Random`` (no hypothesis: 100,000 inputs a function in minutes), so a run is repeatable;
the first crashing inputs of each kind are kept in the JSON.

Goal (issue 32): 0 crashes in 100,000 inputs per function.

    python benchmarks/fuzz.py [--inputs 100000] [--seed 32] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
import traceback
from collections import Counter
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.targets import TARGETS, Target  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
KEPT_EXAMPLES = 3


def fuzz(target: Target, inputs: int, seed: int) -> dict[str, object]:
    """Run ``target`` on ``inputs`` random inputs; its crashes by kind, with examples."""
    rng = random.Random(f"{seed}:{target.name}")
    kinds: Counter[str] = Counter()
    examples: dict[str, list[dict[str, str]]] = {}
    start = time.perf_counter()
    for _ in range(inputs):
        case = target.generate(rng)
        try:
            target.check(case)
        except Exception as exc:  # noqa: BLE001 (any exception is the finding)
            kind = f"{type(exc).__name__}: {str(exc)[:120]}"
            kinds[kind] += 1
            kept = examples.setdefault(kind, [])
            if len(kept) < KEPT_EXAMPLES:
                kept.append({"input": repr(case)[:500], "where": traceback.format_exc()[-800:]})
    seconds = time.perf_counter() - start
    return {
        "inputs": inputs,
        "crashes": sum(kinds.values()),
        "seconds": round(seconds, 1),
        "inputs_per_second": round(inputs / seconds) if seconds else None,
        "kinds": dict(kinds.most_common()),
        "examples": examples,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per function")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--only", nargs="*", help="target names (default: all)")
    parser.add_argument("--out", type=Path, default=RESULTS / "fuzz.json")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # a malformed URL is logged once per input
    wanted = [t for t in TARGETS if not args.only or t.name in args.only]
    results: dict[str, object] = {}
    print(f"{'function':<20} {'inputs':>8} {'crashes':>8} {'seconds':>8} {'inputs/s':>9}")
    for target in wanted:
        found = fuzz(target, args.inputs, args.seed)
        results[target.name] = found
        print(
            f"{target.name:<20} {found['inputs']:>8} {found['crashes']:>8} "
            f"{found['seconds']:>8} {found['inputs_per_second']:>9}",
            flush=True,
        )
        write(args, results, complete=False)
    write(args, results, complete=True)
    total = sum(int(r["crashes"]) for r in results.values())  # type: ignore[call-overload]
    print(f"total crashes: {total} over {len(results)} functions x {args.inputs} inputs")


def write(args: argparse.Namespace, results: dict[str, object], complete: bool) -> None:
    """The JSON so far (after each function: a long run that is stopped keeps what it did)."""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": "fuzz",
        "date": datetime.now().isoformat(timespec="seconds"),
        "seed": args.seed,
        "inputs_per_function": args.inputs,
        "complete": complete,
        "total_crashes": sum(int(r["crashes"]) for r in results.values()),  # type: ignore[call-overload]
        "functions": results,
    }
    args.out.write_text(json.dumps(record, indent=1, ensure_ascii=True) + "\n")


if __name__ == "__main__":
    main()
