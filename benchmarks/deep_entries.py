"""The detector entered from deep pages of sites whose pages carry no language links (issue 50).

Generated sites (:mod:`bilingual_spider.sandbox.deep_sites`: a chooser only at the home page,
region-coded directories, ``.CODE.html`` names, partly translated trees, menus written by a
script, monolingual sites in the same layouts), two independent draws: the *tune* sites
(``--tune-seed``, the ones the ladder was developed on) and the *held-out* sites
(``--holdout-seed``, looked at only to report). ``--entries`` pages drawn at random from every
page of each site but its home page, in every language, each judged as the first page of its
site a crawl meets (one verdict per entry URL: ``BILINGUAL_DETECTOR_SITE_KEY=url``), by Scrapy
crawls of the ``detect`` spider through the sandbox server with the shipped Link Predictor (it
never saw these sites), at minimum likelihood 0.8, for the ladder (``detector``) and the paper's
``single page``. A row per part and per shape.

    python benchmarks/deep_entries.py [--sites 20] [--entries 5] [--tag after]
        [--configs "detector,single page,detector rendered"]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from site_detector import CONFIGS, DEEP_GOALS, crawl, errors_by_kind, score

from bilingual_spider.sandbox.deep_sites import (
    DeepSitesParams,
    deep_entries,
    load_gold,
    write_deep_sites,
)
from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.textsource import TextSource

RESULTS = Path(__file__).resolve().parent / "results"
THRESHOLD = 0.8
RENDERED = (
    "detector rendered",
    {"BILINGUAL_DETECTOR_MODE": "detector", "BILINGUAL_RENDER_JS": True},
)
"""The ladder with ``BILINGUAL_RENDER_JS`` on (Debian's chromium): a site whose menu a script
writes is read through the browser (``--configs "detector rendered"``; not by default)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tune-seed", type=int, default=50)
    parser.add_argument("--holdout-seed", type=int, default=51)
    parser.add_argument("--sites", type=int, default=20, help="sites of each part")
    parser.add_argument("--entries", type=int, default=5, help="deep entries per site")
    parser.add_argument("--configs", default="detector,single page")
    parser.add_argument("--parts", default="tune,holdout")
    parser.add_argument("--tag", default="", help="suffix of the result file (before, after)")
    parser.add_argument("--work", help="directory for the sites (default: temporary)")
    args = parser.parse_args(argv)
    wanted = {c.strip() for c in args.configs.split(",")}
    configs = [c for c in (*CONFIGS, RENDERED) if c[0] in wanted]
    seeds = {"tune": args.tune_seed, "holdout": args.holdout_seed}
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    started = time.monotonic()
    text = TextSource.from_catalogs(
        ["en", "fr", "es", "de", "ja", "zh-Hans", "pt-BR", "it", "ru", "ko"]
    )
    result: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": "Scrapy crawls of the detect spider through the sandbox server, shipped Link "
        "Predictor, minimum likelihood 0.8, one verdict per entry URL",
        "sites": args.sites,
        "entries_per_site": args.entries,
        "seeds": {p: seeds[p] for p in parts},
        "goals": DEEP_GOALS,
        "rows": [],
        "errors": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp)
        for part in parts:
            root = work / f"deep-sites-{seeds[part]}"
            config = write_deep_sites(
                root, text, DeepSitesParams(seed=seeds[part], sites=args.sites)
            )
            gold = load_gold(root)
            entries = deep_entries(gold, args.entries, seeds[part])
            shapes = {host: truth["shape"] for host, truth in gold.items()}
            result[f"shapes_{part}"] = dict(Counter(shapes.values()))
            with SandboxServer(["--config", str(config)]) as server:
                for name, settings in configs:
                    seeds_file = root / "seeds.txt"
                    seeds_file.write_text("".join(url + "\n" for url, _, _ in entries))
                    output = root / f"{name.replace(' ', '_')}.jsonl"
                    verdicts = crawl(server, seeds_file, output, settings, THRESHOLD)
                    groups = {f"deep_sites:{part}": entries}
                    for shape in sorted(set(shapes.values())):
                        groups[f"deep_sites:{part}:{shape}"] = [
                            e for e in entries if shapes[e[2]] == shape
                        ]
                    rows = []
                    for group, sample in groups.items():
                        row = score(sample, verdicts)
                        row.update(group=group, config=name, min_likelihood=THRESHOLD)
                        row["entries"] = len(sample)
                        row["rules"] = dict(
                            Counter(verdicts[u]["rule"] for u, _, _ in sample if u in verdicts)
                        )
                        rows.append(row)
                    result["rows"] += rows
                    by_shape = [(u, t, shapes[h]) for u, t, h in entries]
                    result["errors"][f"{part}:{name}"] = errors_by_kind(by_shape, verdicts)
                    print_rows(f"deep entries, {part} sites (seed {seeds[part]}), {name}", rows)
    result["seconds"] = round(time.monotonic() - started, 1)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"deep_entries{'_' + args.tag if args.tag else ''}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {path} ({result['seconds']} s)")
    return 0


def print_rows(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{title}\n{'group':<42} {'entries':>7} {'prec.':>6} {'recall':>6} {'pages':>6}")
    for row in rows:
        cells = ["-" if row[k] is None else f"{row[k]:.2f}" for k in ("precision", "recall")]
        print(
            f"{row['group']:<42} {row['entries']:>7} {cells[0]:>6} {cells[1]:>6} "
            f"{row['pages_per_site']:>6}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
