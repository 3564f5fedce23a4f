"""``bilingual-spider demo``: fetch the real sites if needed, generate the default world, serve
the sandbox web, crawl it back and forth, and print the bilingual sites found next to the ground
truth; then pair the pages of the sites found, and leave WARC files, document pairs and a crawl
report in the output directory."""

from __future__ import annotations

import json
from pathlib import Path

from bilingual_spider.output.report import load_run, write_report
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.realsites import (
    AptUnavailable,
    prepare,
    sandbox_seed_urls,
)
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, generate, load_ground_truth

DEMO_WORLD_SEED = 0
DEMO_WORLD_SITES = 1000
PAIRED_SITES = 40
"""Bilingual sites found whose pages the demo pairs."""
PAIR_SITE_BUDGET = 60
"""Pages per site of the demo's PupSniffer crawl."""


def run_demo(pages: int = 2000, out_dir: str | Path = "out/demo", strategy: str = "cobfc") -> int:
    """The main job on the embedded default: a back-and-forth crawl of the sandbox web (the real
    sites + the default generated world), then what it found next to the ground truth; then the
    pairs of pages of the bilingual sites it found (PupSniffer), and what a corpus builder
    takes away: WARC files of both crawls, the document pairs, and a crawl report."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    try:
        sites = prepare()
    except AptUnavailable as exc:
        print(f"demo: the real sites cannot be fetched here: {exc}")
        return 3
    world = demo_world(out / "world")
    seeds = out / "seeds.txt"
    seeds.write_text(
        "\n".join([*sandbox_seed_urls(), *(world / "seed_urls.txt").read_text().split()]) + "\n"
    )
    print(
        f"sandbox web: {len(sites)} real sites + a generated world of {DEMO_WORLD_SITES} sites; "
        f"back-and-forth crawl ({strategy}) of {pages} pages ...",
        flush=True,
    )
    backforth, pupsniffer = out / "backforth", out / "pupsniffer"
    items_file, stats_file = backforth / "sites.jsonl", backforth / "stats.json"
    with SandboxServer(["--real-sites", "--config", str(world / CONFIG_FILE)]) as sandbox:
        crawl = run_spider(
            "backforth",
            settings=_demo_settings(sandbox.proxy_url, backforth),
            arguments={"seeds": seeds, "langs": "any", "strategy": strategy, "budget": pages},
            output=items_file,
        )
        if crawl.returncode != 0:
            print(crawl.stderr[-3000:])
            return crawl.returncode
        items = [json.loads(line) for line in items_file.read_text().splitlines() if line]
        stats = json.loads(stats_file.read_text())
        print(found_sites_report(items, load_ground_truth(world), stats, sites))
        found = [item for item in items if "found_by" in item][:PAIRED_SITES]
        pair_seeds = out / "pair_seeds.txt"
        pair_seeds.write_text("".join(f"http://{item['site']}/\n" for item in found))
        print(f"\npairs of pages of {len(found)} of those sites (PupSniffer) ...", flush=True)
        pairs_crawl = run_spider(
            "pupsniffer",
            settings={
                **_demo_settings(sandbox.proxy_url, pupsniffer),
                "BILINGUAL_PUPSNIFFER_PAIR_FIRST": True,
            },
            arguments={
                "seeds": pair_seeds,
                "site_budget": PAIR_SITE_BUDGET,
                "docs": pupsniffer / "documents.jsonl",
            },
            output=pupsniffer / "pairs.jsonl",
        )
    if pairs_crawl.returncode != 0:
        print(pairs_crawl.stderr[-3000:])
        return pairs_crawl.returncode
    page = write_report([load_run(backforth), load_run(pupsniffer)], out / "report")
    pairs = json.loads((pupsniffer / "stats.json").read_text()).get("docs/pairs", 0)
    print(
        f"\nsites in {items_file}; {pairs} document pairs in {pupsniffer / 'documents.jsonl'};"
        f"\nWARC files in {backforth / 'warc'} and {pupsniffer / 'warc'};"
        f"\ncrawl report: {page}"
    )
    return 0


def _demo_settings(proxy: str, run: Path) -> dict[str, object]:
    """One crawl of the demo: its stats (every 2 s, for the report's curves) and its WARC files
    in its run directory."""
    return {
        "BILINGUAL_SANDBOX_PROXY": proxy,
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "BILINGUAL_STATS_FILE": run / "stats.json",
        "BILINGUAL_STATS_FILE_INTERVAL": 2,
        "BILINGUAL_WARC_PATH": run / "warc",
        "LOG_LEVEL": "WARNING",
    }


def demo_world(directory: Path) -> Path:
    """The default generated world (seed 0), generated once and reused."""
    if not (directory / CONFIG_FILE).is_file():
        params = WorldParams(seed=DEMO_WORLD_SEED, sites=DEMO_WORLD_SITES)
        generate(directory, params, TextSource.from_catalogs(["en", *params.language_weights]))
    return directory


def found_sites_report(
    items: list[dict], truth: dict, stats: dict, real_sites: list[dict] = ()
) -> str:
    """The bilingual sites the crawl reported, checked against the ground truth of the world
    and the real sites (``sites.json``; a host with several real sites, like www.debian.org, is
    bilingual when one of them is)."""
    host_site = {host: site for site in truth["sites"] for host in site["hosts"].values()}
    for real in real_sites:
        bilingual = real["bilingual"] or host_site.get(real["host"], {}).get("bilingual", False)
        kind = "real multilingual" if bilingual else "real monolingual"
        host_site[real["host"]] = {"bilingual": bilingual, "kind": kind}
    found = [item for item in items if "found_by" in item]
    lines = [f"{'site':<34} {'languages':<22} {'truth':<14} found by"]
    right = 0
    for item in found:
        site = host_site.get(item["site"])
        if site is None:
            verdict = "unknown host"
        elif site["kind"].startswith("real"):
            verdict = site["kind"]
        else:
            verdict = "bilingual" if site["bilingual"] else site["kind"]
        right += site is not None and bool(site["bilingual"])
        languages = " ".join(item["languages"])
        lines.append(f"{item['site']:<34} {languages:<22} {verdict:<14} {item['found_by'][:60]}")
    pages = stats.get("backforth/pages", 0)
    judged = sum(1 for item in items if "found_by" not in item and "bilingual" in item)
    world_bilingual = sum(1 for site in truth["sites"] if site["bilingual"])
    world_found = {
        site["name"]
        for item in found
        if (site := host_site.get(item["site"])) is not None
        and site.get("name")
        and site["bilingual"]
    }
    real_found = {
        item["site"]
        for item in found
        if (site := host_site.get(item["site"])) is not None
        and site["kind"].startswith("real")
        and site["bilingual"]
    }
    lines.append(
        f"\n{len(found)} hosts reported bilingual ({right} right by the ground truth) out of "
        f"{judged} judged, in {pages} pages: {len(world_found)} of the generated world's "
        f"{world_bilingual} bilingual sites (a site can have a host per language) and "
        f"{len(real_found)} multilingual real sites. Finish reason: {stats.get('finish_reason')}."
    )
    return "\n".join(lines)
