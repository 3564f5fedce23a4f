"""Quality priority (Schäfer, Barbey and Bildhauer 2014): the document yield of a breadth-first
crawl against crawls whose links are ordered by the quality of their context.

The world of ``benchmarks/language_focus.py`` (a fifth of its sites write long prose, and half of
their out-links go to other prose sites). ``scrapy crawl forward`` from the same seeds with the
same page budget, with the quality middleware counting the yield in every crawl:

- ``bfs``: breadth-first, the yield counted only; ``quality``: links prioritised by the page's
  Badness and their block's boilerplate score (weights 0.5/0.5); ``badness``, ``boilerplate``:
  by one score alone.

Each fetched page is assessed again after the crawl with the same functions
(:func:`bilingual_spider.focus.quality.assess_page`): kept when in the target language, at least
1,000 characters outside boilerplate, Badness <= 10, no perfect duplicate. The yield ratio is
kept / downloaded; the plot shows it against pages crawled (cumulative, and over a sliding window).
The confusion matrices use the two scores as binary download decisions on the links between the
pages of the BFS crawl (paper, Tables 2 and 3): a link is "downloaded" when its page's Badness is
<= 10 (Table 2) or its block scores >= 0.5 (Table 3), and it is right when the page it leads to is
kept.

Goal (issue 8): quality priority's mean yield >= 2x BFS's. (Paper: BFS decays to about 0.05,
selection by these scores pushed it above 0.2; as filters, Badness F1 0.316, boilerplate 0.614.)

    python benchmarks/quality_focus.py [--sites 3000] [--pages 2000] [--seeds 100] [--lang en]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from language_focus import FOCUS_WORLD, FOCUS_WORLD_WHY, run_forward
from sandbox_throughput import rate_from_stats
from strategies import prepare_world, sample_seeds

from bilingual_spider.focus.quality import MIN_CHARS, PageQuality, assess_page
from bilingual_spider.language.badness import BADNESS_THRESHOLD, is_good
from bilingual_spider.language.boilerplate import NOT_BOILERPLATE
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.sandbox.process import SandboxServer
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
POLICIES: dict[str, dict[str, Any]] = {
    "bfs": {"BILINGUAL_QUALITY_PRIORITY": False},
    "quality": {},
    "badness": {"BILINGUAL_QUALITY_BOILERPLATE_WEIGHT": 0.0},
    "boilerplate": {"BILINGUAL_QUALITY_BADNESS_WEIGHT": 0.0},
}
COLOURS = {
    "bfs": "tab:gray", "quality": "tab:green", "badness": "tab:blue", "boilerplate": "tab:orange",
}  # fmt: skip
WINDOW = 200
GOAL = 2.0
PAPER = {"bfs_yield": 0.05, "selected_yield": 0.2, "badness_f1": 0.316, "boilerplate_f1": 0.614}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=3000)
    parser.add_argument("--world-seed", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--lang", default="en", help="the language the corpus is built in")
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    args = parser.parse_args(argv)
    started = time.monotonic()
    runs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        world = Path(args.world).resolve() if args.world else work / "world"
        params = WorldParams(seed=args.world_seed, sites=args.sites, **FOCUS_WORLD)
        world_info = prepare_world(world, params)
        seeds = sample_seeds(world, args.seeds, args.world_seed)
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            for policy in (p.strip() for p in args.policies.split(",") if p.strip()):
                print(f"crawling with {policy} ({args.pages} pages) ...", flush=True)
                crawl = run_crawl(server.proxy_url, policy, seeds, args, work)
                print(f"  assessing its {len(crawl['urls'])} pages ...", flush=True)
                runs[policy] = score(crawl, server, args.lang)
    result = {
        "benchmark": "quality_focus",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": "scrapy crawl forward through the sandbox server per policy, same world, seeds and "
        "page budget; each fetched page assessed afterwards with focus.quality.assess_page",
        "world": {**world_info, "changed_from_defaults": FOCUS_WORLD, "why": FOCUS_WORLD_WHY},
        "seeds": len(seeds),
        "pages": args.pages,
        "language": args.lang,
        "kept_if": f"language {args.lang}, >= {MIN_CHARS} chars outside boilerplate, "
        f"Badness <= {BADNESS_THRESHOLD}, no perfect duplicate",
        "runs": {name: {k: v for k, v in run.items() if k != "kept"} for name, run in runs.items()},
        "paper": PAPER,
    }
    if "bfs" in runs:
        result["confusion"] = runs["bfs"].pop("confusion")
    result["goals"] = check_goals(runs)
    result["seconds"] = round(time.monotonic() - started, 1)
    RESULTS.mkdir(exist_ok=True)
    plot(runs, args, RESULTS / "quality_focus.png")
    print_table(result)
    path = RESULTS / "quality_focus.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path}, figure in {RESULTS / 'quality_focus.png'} ({result['seconds']} s)")
    return 0


def run_crawl(
    proxy: str, policy: str, seeds: list[str], args: argparse.Namespace, work: Path
) -> dict[str, Any]:
    """``scrapy crawl forward`` with the quality middleware on and the policy's settings."""
    settings = {
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",  # the same for all
        "BILINGUAL_QUALITY_ENABLED": True,
        "BILINGUAL_QUALITY_LANGS": args.lang,
        **POLICIES[policy],
    }
    crawl = run_forward(proxy, settings, seeds, args.pages, work / policy)
    return {**crawl, "urls": [p["url"] for p in crawl["pages"] if p.get("status") == 200]}


def score(crawl: dict[str, Any], server: SandboxServer, language: str) -> dict[str, Any]:
    """Each page assessed in crawl order: kept or not, the yield curve, and (for links between
    crawled pages) the two scores as download decisions."""
    identifier = default_identifier()
    seen: set[bytes] = set()
    assessed: dict[str, PageQuality] = {}
    kept: list[bool] = []
    for url in crawl["urls"]:
        quality = assess_page(server.get(url)[2], url, (language,), identifier)
        duplicate = quality.chars > 0 and quality.digest in seen
        seen.add(quality.digest)
        kept.append(not quality.rejections((language,), duplicate))
        assessed[url] = quality
    stats = crawl["stats"]
    return {
        **{k: round(v, 2) for k, v in rate_from_stats(stats, crawl["wall_s"]).items()},
        "pages": len(kept),  # the pages fetched with status 200 (rate_from_stats: responses)
        "kept": kept,
        "yield_ratio": round(sum(kept) / len(kept), 4) if kept else 0.0,
        "yield_ratio_in_stats": stats.get("quality/yield_ratio"),
        "rejected_in_stats": {
            k.rsplit("/", 1)[-1]: v for k, v in stats.items() if k.startswith("quality/rejected/")
        },
        "curve": curve(kept),
        "confusion": confusion(assessed, dict(zip(crawl["urls"], kept, strict=True))),
    }


def curve(kept: list[bool], every: int = 50) -> list[tuple[int, float, float]]:
    """(pages, cumulative yield, yield of the last WINDOW pages) every ``every`` pages."""
    points = []
    for n in range(every, len(kept) + 1, every):
        window = kept[max(0, n - WINDOW) : n]
        points.append((n, round(sum(kept[:n]) / n, 4), round(sum(window) / len(window), 4)))
    return points


def confusion(assessed: dict[str, PageQuality], kept: dict[str, bool]) -> dict[str, Any]:
    """Tables 2 and 3: each score as a binary download decision for the links between crawled
    pages, against whether the linked page was kept."""
    tables = {"badness": [0, 0, 0, 0], "boilerplate": [0, 0, 0, 0]}  # tp, fp, fn, tn
    for url, quality in assessed.items():
        for target, block in quality.link_blocks.items():
            if target not in kept or target == url:
                continue
            decisions = {
                "badness": quality.badness is not None and is_good(quality.badness),
                "boilerplate": block >= NOT_BOILERPLATE,
            }
            for name, download in decisions.items():
                cell = (0 if kept[target] else 1) if download else (2 if kept[target] else 3)
                tables[name][cell] += 1
    return {name: _scores(*cells) for name, cells in tables.items()}


def _scores(tp: int, fp: int, fn: int, tn: int) -> dict[str, Any]:
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3),
    }  # fmt: skip


def check_goals(runs: dict[str, Any]) -> dict[str, Any]:
    if "bfs" not in runs or "quality" not in runs:
        return {}
    bfs, quality = runs["bfs"]["yield_ratio"], runs["quality"]["yield_ratio"]
    ratio = quality / bfs if bfs else float("inf")
    return {"quality_over_bfs": {"goal": GOAL, "measured": round(ratio, 2), "met": ratio >= GOAL}}


def print_table(result: dict[str, Any]) -> None:
    print(f"\nquality priority, {result['pages']} pages per crawl, language {result['language']}")
    print(f"{'policy':<12}{'pages':>7}{'yield':>8}{'stats':>8}{'pages/s':>9}")
    for name, run in result["runs"].items():
        print(
            f"{name:<12}{run['pages']:>7}{run['yield_ratio']:>8.3f}"
            f"{run['yield_ratio_in_stats'] or 0:>8.3f}{run['pages_per_s']:>9.1f}"
        )
    for name, table in result.get("confusion", {}).items():
        print(f"as a filter, {name}: {table}")
    for name, goal in result["goals"].items():
        verdict = "met" if goal["met"] else "NOT met"
        print(f"goal {name}: {goal['measured']} (goal >= {goal['goal']}): {verdict}")


def plot(runs: dict[str, Any], args: argparse.Namespace, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for name, run in runs.items():
        xs, cumulative, window = zip(*run["curve"], strict=True)
        colour = COLOURS.get(name)
        axes.plot(xs, cumulative, color=colour, label=f"{name} (mean {run['yield_ratio']:.3f})")
        axes.plot(xs, window, color=colour, alpha=0.35, linestyle="--")
    axes.set_title(
        f"Document yield vs pages crawled ({args.sites} sites, {args.seeds} seeds, "
        f"language {args.lang}; dashed: last {WINDOW} pages)",
        fontsize=9,
    )
    axes.set_xlabel("pages crawled")
    axes.set_ylabel("yield ratio (kept / downloaded)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


if __name__ == "__main__":
    raise SystemExit(main())
