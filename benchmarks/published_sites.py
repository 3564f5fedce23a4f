"""Real sites published as today's sites publish their translations (issue 37, deliverable 4):
the acceptance figures on :mod:`bilingual_spider.sandbox.published_sites`.

    .venv/bin/python benchmarks/published_sites.py [--out out/bench_published]
        [--share 0.10] [--sitemap-langs tr ja ko] [--components-budget 400]
        [--script-budget 60] [--only components|sitemap|script]

- **Web components** (``live-manual-components``: Debian's ``live-manual-html``, the Live
  Systems Manual's 22 pages in 10 languages, every link a custom element, an English home with
  no ``<a href>``): ``scrapy crawl pupsniffer`` (``langs=any``) from the home page, pairs scored
  against the gold (precision; recall of the gold pairs whose two pages were fetched, as
  ``benchmarks/pupsniffer.py`` scores them), and ``scrapy crawl detect`` from the home page.
  Acceptance: precision >= 0.98, recall >= 0.90, bilingual.
- **Sitemap with hreflang** (``apache-httpd-sitemap``: Debian's ``apache2-doc``, 2,685 served
  pages, with a Hugo-style sitemap index announced in ``robots.txt``): for each target language
  X of ``--sitemap-langs``, ``scrapy crawl pupsniffer -a langs=en,X`` with a page budget of
  ``--share`` of the site's pages, sitemaps off and on. Scored: the share of the sitemap's en-X
  pairs that are gold pairs ("true sitemap pairs") found, pages fetched (HTML pages; robots.txt
  and sitemap files not counted, as the spider's budget does not count them), precision.
  Acceptance: >= 95 % of the true sitemap pairs found within 10 % of the pages.

- **Script-built language menu** (``live-manual-script-menu``: the same manual, its pages as they
  are and a language menu an inline script writes): ``scrapy crawl pupsniffer -a langs=en,fr``
  within ``--script-budget`` pages, ``BILINGUAL_RENDER_JS`` off and on (Debian's chromium):
  the en-fr gold pairs found and the rendering stats.

JSON in ``benchmarks/results/published_sites.json`` (``published_sites_ONLY.json`` with
``--only``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))  # pupsniffer: run_crawl, crawl_scores, Gold

COMPONENTS = "live-manual-components"
SITEMAP = "apache-httpd-sitemap"
SCRIPT_MENU = "live-manual-script-menu"


def is_page(url: str) -> bool:
    """An HTML page, not robots.txt or a sitemap file."""
    return not url.endswith((".xml", ".xml.gz", "/robots.txt"))


def components_run(sites: Any, work: Path, budget: int) -> dict[str, Any]:
    from pupsniffer import Gold, crawl_scores, run_crawl

    from bilingual_spider.sandbox.process import crawl_in_sandbox

    site = sites.site(COMPONENTS)
    gold = Gold.from_rows(sites.gold_pairs(COMPONENTS), sites.unjudged())
    started = time.monotonic()
    crawl = run_crawl(
        ["--config", str(sites.config)], [site["seed_url"]], work / "components",
        site_budget=budget,
    )  # fmt: skip
    seconds = time.monotonic() - started
    scored = crawl_scores(crawl, gold)
    scored.pop("audit", None)
    verdicts_file = work / "components_detect.jsonl"
    verdicts_file.unlink(missing_ok=True)
    crawl_in_sandbox(
        ["--config", str(sites.config)],
        "detect",
        arguments={"seeds": site["seed_url"]},
        output=verdicts_file,
        timeout=1800,
    )
    verdict = json.loads(verdicts_file.read_text().splitlines()[0])
    every = scored["pupsniffer"]["all"]
    return {
        "site_pages": site["pages"],
        "gold_pairs": site["gold_pairs"],
        "seconds": round(seconds, 1),
        **{k: v for k, v in scored.items() if k != "pupsniffer"},
        "pairs": scored["pupsniffer"],
        "detector": {
            k: verdict.get(k)
            for k in ("url", "bilingual", "languages", "reason", "pages_downloaded", "rule")
        },
        "acceptance": {
            "precision": every["precision"],
            "recall_of_fetched": scored["recall_of_fetched"],
            "bilingual": verdict.get("bilingual"),
            "met": every["precision"] >= 0.98
            and (scored["recall_of_fetched"] or 0) >= 0.90
            and verdict.get("bilingual") is True,
        },
    }


def sitemap_run(sites: Any, work: Path, lang: str, budget: int, sitemaps: bool) -> dict[str, Any]:
    from pupsniffer import Gold, ordered, run_crawl, score_pairs

    site = sites.site(SITEMAP)
    gold = Gold.from_rows(sites.gold_pairs(SITEMAP), sites.unjudged())
    listed = {ordered(s, t) for s, t, _, tl in sites.sitemap_pairs(SITEMAP) if tl == lang}
    true_listed = listed & gold.pairs
    label = "sitemaps_on" if sitemaps else "sitemaps_off"
    started = time.monotonic()
    crawl = run_crawl(
        ["--config", str(sites.config)], [site["seed_url"]], work / f"sitemap_{lang}_{label}",
        {"BILINGUAL_SITEMAPS": sitemaps}, site_budget=budget, langs=f"en,{lang}",
    )  # fmt: skip
    seconds = time.monotonic() - started
    items = [i for i in crawl.items if "source_url" in i and "target_url" in i]
    found = {ordered(i["source_url"], i["target_url"]) for i in items}
    pages = sorted(u for u in crawl.fetched if is_page(u))
    triples = [(i["source_url"], i["target_url"], i.get("method") or "?") for i in items]
    scored = score_pairs(triples, gold)
    methods = dict(Counter(method for _, _, method in triples))
    share = len(found & true_listed) / len(true_listed) if true_listed else None
    return {
        "langs": f"en,{lang}",
        "site_pages": site["pages"],
        "budget": budget,
        "pages_fetched": len(pages),
        "pages_share": round(len(pages) / site["pages"], 4),
        "sitemap_pairs": len(listed),
        "sitemap_true_pairs": len(true_listed),
        "sitemap_true_found": len(found & true_listed),
        "sitemap_true_share": round(share, 4) if share is not None else None,
        "pairs": len(found),
        "precision": scored["all"]["precision"],
        "false": scored["all"]["false"],
        "methods": methods,
        "seconds": round(seconds, 1),
        "met": (share or 0) >= 0.95 and len(pages) <= 0.10 * site["pages"],
    }


def script_menu_run(sites: Any, work: Path, budget: int, render: bool) -> dict[str, Any]:
    """An en-fr crawl of the script-menu site, rendering off or on: its en-fr pairs and the
    rendering stats."""
    from pupsniffer import Gold, ordered, score_pairs

    from bilingual_spider.sandbox.process import SandboxServer, pupsniffer_pairs

    site = sites.site(SCRIPT_MENU)
    gold = Gold.from_rows(sites.gold_pairs(SCRIPT_MENU), sites.unjudged())
    french = {p for p in gold.pairs if p[0].endswith(".fr.html") or p[1].endswith(".fr.html")}
    out = work / f"script_menu_{'render' if render else 'plain'}"
    started = time.monotonic()
    with SandboxServer(["--config", str(sites.config)]) as server:
        run = pupsniffer_pairs(
            server.proxy_url, [site["seed_url"]], out,
            {"CONCURRENT_REQUESTS_PER_DOMAIN": 8, "BILINGUAL_RENDER_JS": render}, 1800,
            langs="en,fr", site_budget=budget,
        )  # fmt: skip
    seconds = time.monotonic() - started
    (out / "crawl.log").write_text(run.log)
    items, stats = run.pairs, run.stats
    triples = [(i["source_url"], i["target_url"], i.get("method") or "?") for i in items]
    found = {ordered(a, b) for a, b, _ in triples}
    return {
        "render": render,
        "budget": budget,
        "pages": stats.get("pupsniffer/pages"),
        "en_fr_gold_pairs": len(french),
        "en_fr_found": len(found & french),
        "recall": round(len(found & french) / len(french), 4) if french else None,
        "precision": score_pairs(triples, gold)["all"]["precision"],
        "methods": dict(Counter(m for _, _, m in triples)),
        "render_stats": {k: v for k, v in stats.items() if k.startswith("render/")},
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("out/bench_published"))
    parser.add_argument("--share", type=float, default=0.10, help="sitemap crawl budget / pages")
    parser.add_argument("--sitemap-langs", nargs="+", default=["tr", "ja", "ko"])
    parser.add_argument("--components-budget", type=int, default=400)
    parser.add_argument("--only", choices=["components", "sitemap", "script"], default=None)
    parser.add_argument("--script-budget", type=int, default=60)
    args = parser.parse_args(argv)
    args.out = args.out.resolve()  # the crawls run in their own directories

    from bilingual_spider.sandbox import published_sites

    sites = published_sites.prepare()
    results: dict[str, Any] = {}
    if args.only in (None, "components"):
        results["web_components"] = components_run(sites, args.out, args.components_budget)
        print(json.dumps(results["web_components"], indent=1))
    if args.only in (None, "sitemap"):
        budget = int(sites.site(SITEMAP)["pages"] * args.share)
        runs = {}
        for lang in args.sitemap_langs:
            for sitemaps in (False, True):
                label = f"en,{lang} " + ("sitemaps_on" if sitemaps else "sitemaps_off")
                runs[label] = sitemap_run(sites, args.out, lang, budget, sitemaps)
                print(label, json.dumps(runs[label]))
        results["hreflang_sitemap"] = {"share": args.share, "budget": budget, "runs": runs}
    if args.only in (None, "script"):
        runs = [script_menu_run(sites, args.out, args.script_budget, r) for r in (False, True)]
        results["script_menu"] = runs
        print(json.dumps(runs, indent=1))
    RESULTS.mkdir(exist_ok=True)
    name = "published_sites.json" if args.only is None else f"published_sites_{args.only}.json"
    (RESULTS / name).write_text(json.dumps(results, indent=1) + "\n")
    print(f"written {RESULTS / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
