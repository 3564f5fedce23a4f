"""Pages and pairs in languages the identifier lacks or confuses (issue 49): PupSniffer on the
sites of :mod:`bilingual_spider.sandbox.language_sites` (Dzongkha, Bokmål, Nynorsk, Galician
beside Spanish and Portuguese; English copies under ``om``, ``da``, ``sv``, ``pt`` paths).

    .venv/bin/python benchmarks/language_sites.py [--code DIR] [--site HOST]
        [--out benchmarks/results/language_sites.json]

``scrapy crawl pupsniffer -a langs=any`` from each site's home, a budget of every page. Scored
per language of each site: recall of the gold pairs whose two pages were fetched, precision of
the pairs with a page of that language (a pair of two translations of one English page is
*implied*, neither right nor wrong), the code the pairs give that language's pages; per copied
language, the pairs with a copy in them (must be 0) and the codes its pages were given. The
sites of ``language_sites.TUNED_ON`` were looked at while the code was written; the others are
pooled apart (``held_out``). ``--code DIR``: crawl with the package of another checkout
(``PYTHONPATH``: the code before a change), the world and the scoring of this one.

``--detect``: no crawl; ``bilingual-spider detect --langs en,X`` from each site's home for every
translated and every copied language X of it (a translated X must be bilingual, a copied one
not), with the verdict, its rule, its pages and the probes a second look asked (issue 49);
``-s NAME=VALUE`` passes a setting to every run (``BILINGUAL_DETECTOR_SECOND_LOOK=False``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))  # pupsniffer: run_crawl, Gold


def site_scores(
    site: Any, gold_rows: list[tuple[str, str]], crawl: Any, served_as: dict[str, str]
) -> dict[str, Any]:
    """``served_as``: URL -> the language the world serves the page as (``LanguageWorld``)."""
    from pupsniffer import Gold, ordered

    def language_of_url(url: str) -> str:
        return served_as.get(url, "")

    gold = Gold.from_rows(gold_rows)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for item in crawl.items:
        if "source_url" in item and "target_url" in item:
            found[ordered(item["source_url"], item["target_url"])] = item
    languages: dict[str, Any] = {}
    for lang in site.languages:
        golden = {p for p in gold.pairs if lang in map(language_of_url, p)}
        fetched = {p for p in golden if p[0] in crawl.fetched and p[1] in crawl.fetched}
        mine = {p: i for p, i in found.items() if lang in map(language_of_url, p)}
        verdicts = Counter(gold.judge(p) for p in mine)
        judged = verdicts["correct"] + verdicts["false"]
        codes: Counter[str] = Counter()
        for item in mine.values():
            for side in ("source", "target"):
                if language_of_url(item[f"{side}_url"]) == lang:
                    codes[item.get(f"{side}_lang") or "?"] += 1
        languages[lang] = {
            "gold_pairs": len(golden),
            "gold_pairs_fetched": len(fetched),
            "found_fetched": len(fetched & set(mine)),
            "recall_of_fetched": round(len(fetched & set(mine)) / len(fetched), 4)
            if fetched
            else None,
            "pairs": len(mine),
            "correct": verdicts["correct"],
            "false": verdicts["false"],
            "implied": verdicts["implied"],
            "precision": round(verdicts["correct"] / judged, 4) if judged else None,
            "codes": dict(codes),
        }
    copies = {}
    for lang in site.copies:
        paired = [p for p in found if lang in map(language_of_url, p)]
        codes = Counter(
            item.get(f"{side}_lang") or "?"
            for item in found.values()
            for side in ("source", "target")
            if language_of_url(item[f"{side}_url"]) == lang
        )
        copies[lang] = {"pairs": len(paired), "codes": dict(codes)}
    return {"languages": languages, "copies": copies, "pages_fetched": len(crawl.fetched)}


def figures(counts: Counter[str]) -> dict[str, Any]:
    """Recall of fetched gold pairs and precision from summed counts (``gold_pairs_fetched``,
    ``found_fetched``, ``correct``, ``false``, ``pairs``)."""
    judged = counts["correct"] + counts["false"]
    fetched = counts["gold_pairs_fetched"]
    return {
        "gold_pairs_fetched": fetched,
        "recall_of_fetched": round(counts["found_fetched"] / fetched, 4) if fetched else None,
        "pairs": counts["pairs"],
        "precision": round(counts["correct"] / judged, 4) if judged else None,
    }


def pooled(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Recall of fetched and precision pooled over sites, per language and all together."""
    by_lang: dict[str, Counter[str]] = {}
    for run in runs.values():
        for lang, s in run["languages"].items():
            counts = by_lang.setdefault(lang, Counter())
            for key in ("gold_pairs_fetched", "found_fetched", "correct", "false", "pairs"):
                counts[key] += s[key]
    total: Counter[str] = sum(by_lang.values(), Counter())
    out = {lang: figures(c) for lang, c in [*sorted(by_lang.items()), ("all", total)]}
    out["copy_pairs"] = sum(c["pairs"] for r in runs.values() for c in r["copies"].values())
    return out


def detect_verdicts(world: Any, sites: list[Any], settings: list[str]) -> dict[str, Any]:
    """``bilingual-spider detect --langs en,X`` from each site's home (``PYTHONPATH``: the
    package it runs), one run per language X of the site."""
    verdicts: dict[str, Any] = {}
    for site in sites:
        for lang in (*site.languages, *site.copies):
            command = [sys.executable, "-m", "bilingual_spider.cli", "detect", "--langs"]
            command += [f"en,{lang}", "--sandbox-config", str(world.config.resolve())]
            command += [arg for setting in settings for arg in ("-s", setting)]
            with tempfile.TemporaryDirectory() as empty:  # PYTHONPATH's package runs, not
                done = subprocess.run(  # this checkout's nor a package left in the cwd
                    [*command, f"http://{site.host}/"],
                    capture_output=True,
                    text=True,
                    check=True,
                    cwd=empty,
                )
            verdict = json.loads(done.stdout.splitlines()[0])
            verdicts[f"{site.host} en,{lang}"] = {
                "translated": lang in site.languages,
                "bilingual": verdict["bilingual"],
                "languages": verdict["languages"],
                "rule": verdict["rule"],
                "pages": verdict["pages_downloaded"],
                "second_looks": [
                    e["url"] for e in verdict["evidence"] if e["via"] == "second look"
                ],
            }
    return verdicts


def detect_summary(verdicts: dict[str, Any]) -> dict[str, Any]:
    translated = [v for v in verdicts.values() if v["translated"]]
    copies = [v for v in verdicts.values() if not v["translated"]]
    return {
        "translated_bilingual": f"{sum(v['bilingual'] for v in translated)} of {len(translated)}",
        "copies_bilingual": f"{sum(v['bilingual'] for v in copies)} of {len(copies)}",
        "pages": sum(v["pages"] for v in verdicts.values()),
        "second_looks": sum(len(v["second_looks"]) for v in verdicts.values()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, help="crawl with the package of this checkout")
    parser.add_argument("--site", action="append", help="only this site (repeatable)")
    parser.add_argument("--work", type=Path, default=Path("out/bench_language_sites"))
    parser.add_argument("--out", type=Path, default=RESULTS / "language_sites.json")
    parser.add_argument(
        "--reuse", action="store_true", help="score the crawls left in --work again, no crawl"
    )
    parser.add_argument("--detect", action="store_true", help="the detector from each home")
    parser.add_argument("-s", "--set", action="append", default=[], help="NAME=VALUE (--detect)")
    args = parser.parse_args(argv)
    from pupsniffer import run_crawl

    from bilingual_spider.sandbox.language_sites import SITES, TUNED_ON, build_world, site_url

    world = build_world(args.work / "world")
    if args.code:
        os.environ["PYTHONPATH"] = str(args.code.resolve())  # the crawls' subprocesses only
    if args.detect:
        chosen = [site for site in SITES if not args.site or site.host in args.site]
        started = time.monotonic()
        verdicts = detect_verdicts(world, chosen, args.set)
        detected = {
            "command": "bilingual-spider detect --langs en,X --sandbox-config <world> http://SITE/",
            "code": str(args.code or "this checkout"),
            "settings": args.set,
            "summary": detect_summary(verdicts),
            "verdicts": verdicts,
            "seconds": round(time.monotonic() - started, 1),
        }
        for key, v in verdicts.items():
            print(
                f"  {key:32} {v['bilingual']!s:5} {v['languages']} {v['pages']} pages {v['rule']}"
            )
        print(detected["summary"])
        out = args.out if args.out != RESULTS / "language_sites.json" else None
        out = out or RESULTS / "language_sites_detect_run.json"
        out.write_text(json.dumps(detected, indent=1, ensure_ascii=False) + "\n")
        print(f"results in {out}")
        return 0
    runs: dict[str, dict[str, Any]] = {}
    for site in SITES:
        if args.site and site.host not in args.site:
            continue
        started = time.monotonic()
        pages = (1 + len(site.languages) + len(site.copies)) * 40 + 50
        crawl = run_crawl(
            ["--config", str(world.config)], [site_url(site)], args.work / site.host,
            reuse=args.reuse, site_budget=pages,
        )  # fmt: skip
        runs[site.host] = {
            **site_scores(site, world.gold[site.host], crawl, world.languages),
            "seconds": round(time.monotonic() - started, 1),
        }
    held = {h: r for h, r in runs.items() if h not in TUNED_ON}
    tuned = {h: r for h, r in runs.items() if h in TUNED_ON}
    result = {
        "code": str(args.code or "this checkout"),
        "sites": runs,
        "held_out": pooled(held),
        "tuned_on": pooled(tuned),
    }
    print("site, language: recall of fetched (fetched), pairs, precision, codes given")
    for host, run in runs.items():
        for lang, s in run["languages"].items():
            print(
                f"  {host:24} {lang:3} {s['recall_of_fetched']!s:>7} ({s['gold_pairs_fetched']:3})"
                f" {s['pairs']:4} {s['precision']!s:>7} {s['codes']}"
            )
        for lang, c in run["copies"].items():
            print(f"  {host:24} {lang:3} copy: {c['pairs']} pairs")
    for part in ("held_out", "tuned_on"):
        print(f"{part}:")
        for lang, s in result[part].items():
            print(f"  {lang:10} {s}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
