"""``bilingual-spider demo``: fetch the real sites if needed, generate the default world, serve
the sandbox web, crawl it back and forth, and print the bilingual sites found next to the ground
truth; then pair the pages of the sites found, and leave WARC files, document pairs and a crawl
report in the output directory.

The same seed gives the same demo: the crawls run one request at a time with Python's string
hashing fixed, so the order pages arrive in, and so what is found, does not depend on the
machine. A second demo reuses the world and the real sites and replaces the crawls' outputs.
Every figure it prints comes from the crawls' stats files, which the report reads too.
"""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from itertools import zip_longest
from pathlib import Path
from typing import Any

from bilingual_spider.output.report import load_run, write_report
from bilingual_spider.sandbox.debian_packages import AptUnavailable
from bilingual_spider.sandbox.process import SandboxServer, crawl_env, spider_command
from bilingual_spider.sandbox.realsites import prepare, sandbox_seed_urls
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, generate, load_ground_truth

DEMO_WORLD_SEED = 0
DEMO_WORLD_SITES = 1000
PAIRED_SITES = 40
"""Bilingual sites found whose pages the demo pairs."""
PAIR_SITE_BUDGET = 60
"""Pages per site of the demo's PupSniffer crawl."""
SHOWN_SITES = 20
"""Sites listed on the console; the rest are in ``sites.jsonl``."""
SHOWN_PAIRS = 8
"""Pairs listed on the console of the real sites, and of the generated ones."""
HASH_SEED = "0"
"""``PYTHONHASHSEED`` of the demo's crawls: sets iterate in the same order every time."""


def run_demo(
    pages: int = 2000,
    out_dir: str | Path = "out/demo",
    strategy: str = "cobfc",
    world_sites: int = DEMO_WORLD_SITES,
    pair_site_budget: int = PAIR_SITE_BUDGET,
) -> int:
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
    world = demo_world(out / "world", world_sites)
    seeds = out / "seeds.txt"
    seeds.write_text(
        "\n".join([*sandbox_seed_urls(), *(world / "seed_urls.txt").read_text().split()]) + "\n"
    )
    backforth, pupsniffer, report = out / "backforth", out / "pupsniffer", out / "report"
    for previous in (backforth, pupsniffer, report):  # a second demo replaces the first's
        shutil.rmtree(previous, ignore_errors=True)
    print(
        f"sandbox web: {len(sites)} real sites + a generated world of {world_sites} sites; "
        f"back-and-forth crawl ({strategy}) of {pages} pages ...",
        flush=True,
    )
    with SandboxServer(["--real-sites", "--config", str(world / CONFIG_FILE)]) as sandbox:
        failed = _crawl(
            "backforth",
            sandbox.proxy_url,
            backforth,
            {"seeds": seeds, "langs": "any", "strategy": strategy, "budget": pages},
        )
        if failed:
            return failed
        crawl = load_run(backforth)
        print(found_sites_report(crawl.sites + crawl.verdicts, load_ground_truth(world),
                                 crawl.stats, sites, backforth / "sites.jsonl"))  # fmt: skip
        paired, seed_urls = pair_seeds_of(crawl.sites, sites)
        pair_seeds = out / "pair_seeds.txt"
        pair_seeds.write_text("".join(f"{url}\n" for url in seed_urls))
        real = sum(1 for item in paired if item["site"] in real_hosts(sites))
        print(
            f"\npairing the pages of {len(paired)} of those sites, {real} of them real "
            "(PupSniffer) ...",
            flush=True,
        )
        failed = _crawl(
            "pupsniffer",
            sandbox.proxy_url,
            pupsniffer,
            {
                "seeds": pair_seeds,
                "site_budget": pair_site_budget,
                "docs": pupsniffer / "documents.jsonl",
                "warc": pupsniffer / "warc",
            },
        )
    if failed:
        return failed
    pairing = load_run(pupsniffer)
    page = write_report([crawl, pairing], report)
    print(pairs_summary(pairing, len(paired)))
    print(pairs_sample(pairing.pairs, real_hosts(sites)))
    print(
        f"\nwhat a corpus builder takes away:"
        f"\n  sites: {backforth / 'sites.jsonl'} (verdicts on every site judged: "
        f"{backforth / 'verdicts.jsonl'})"
        f"\n  URL pairs: {pupsniffer / 'pairs.jsonl'}; document pairs (both texts): "
        f"{pupsniffer / 'documents.jsonl'}"
        f"\n  WARC files: {backforth / 'warc'} and {pupsniffer / 'warc'}"
        f"\n  crawl report: {page}"
    )
    return 0


def real_hosts(real_sites: list[dict]) -> set[str]:
    """The host names of the real sites (``sites.json``)."""
    return {site["host"] for site in real_sites}


def pair_seeds_of(found: list[dict], real_sites: list[dict]) -> tuple[list[dict], list[str]]:
    """The bilingual sites the pairing crawl takes (at most :data:`PAIRED_SITES`, the real ones
    first) and its seeds: a generated site's root; for a real site, the page each real
    multilingual site on that host is served from (its mount root or language chooser: the
    sandbox serves the real sites at their real paths, and nothing at their host's root)."""
    served: dict[str, list[str]] = {}
    for site in real_sites:
        if site["bilingual"]:
            served.setdefault(site["host"], []).append(site["seed_url"])
    hosts = real_hosts(real_sites)
    ordered = sorted(found, key=lambda item: item["site"] not in hosts)  # stable: real first
    paired = ordered[:PAIRED_SITES]
    seeds = [
        url for item in paired for url in served.get(item["site"], [f"http://{item['site']}/"])
    ]
    return paired, seeds


def pairs_sample(pairs: list[dict], hosts: set[str], shown: int = SHOWN_PAIRS) -> str:
    """The pairs found on the real sites first (real pages), then the generated sites' (their
    texts are generated): how many on each site, and a few of each, one site after another."""
    real = [pair for pair in pairs if _host(pair) in hosts]
    generated = [pair for pair in pairs if _host(pair) not in hosts]
    lines = []
    for title, chosen in (
        ("on the real sites (real pages)", real),
        ("on the generated sites (generated texts)", generated),
    ):
        per_site = Counter(_host(pair) for pair in chosen)
        lines += ["", f"{len(chosen)} pairs {title}: "]
        lines[-1] += ", ".join(f"{site} {count}" for site, count in per_site.most_common(8))
        lines[-1] += ", ..." if len(per_site) > 8 else ""
        for pair in _round_robin(chosen)[:shown]:
            langs = f"{pair['source_lang']}-{pair['target_lang']}"
            lines.append(f"  {langs:<11} {pair['source_url']}  {pair['target_url']}")
        if len(chosen) > shown:
            lines.append(f"  ... {len(chosen) - shown} more")
    return "\n".join(lines)


def _host(pair: dict) -> str:
    return str(pair["source_url"]).split("/")[2]


def _round_robin(pairs: list[dict]) -> list[dict]:
    """The pairs, the first of each site, then the second of each, ...: a sample of every site."""
    by_site: dict[str, list[dict]] = {}
    for pair in pairs:
        by_site.setdefault(_host(pair), []).append(pair)
    rounds = zip_longest(*by_site.values())
    return [pair for group in rounds for pair in group if pair is not None]


def _crawl(spider: str, proxy: str, run: Path, arguments: dict[str, Any]) -> int:
    """One crawl of the demo into its run directory; its exit status (0: done)."""
    settings = {
        "BILINGUAL_SANDBOX_PROXY": proxy,
        "DOWNLOAD_DELAY": 0,
        "CONCURRENT_REQUESTS": 1,  # one page at a time: the same order, the same finds
        "BILINGUAL_STATS_FILE_INTERVAL": 1,  # the report's curves, over time ...
        "BILINGUAL_STATS_FILE_EVERY_RESPONSES": 25,  # ... and however fast this machine is
        "LOG_LEVEL": "WARNING",
    }
    arguments = {"out": run, "warc": run / "warc", **arguments}
    done = subprocess.run(
        spider_command(spider, settings, arguments),
        capture_output=True,
        text=True,
        env=crawl_env({"PYTHONHASHSEED": HASH_SEED}),
        check=False,
    )
    if done.returncode != 0:
        print(done.stderr[-3000:])
    return done.returncode


def demo_world(directory: Path, sites: int = DEMO_WORLD_SITES) -> Path:
    """The default generated world (seed 0), generated once and reused."""
    if not (directory / CONFIG_FILE).is_file():
        params = WorldParams(seed=DEMO_WORLD_SEED, sites=sites)
        generate(directory, params, TextSource.from_catalogs(["en", *params.language_weights]))
    return directory


def found_sites_report(
    items: list[dict],
    truth: dict,
    stats: dict,
    real_sites: list[dict] = (),
    sites_file: Path | str = "sites.jsonl",
) -> str:
    """What the crawl found, checked against the ground truth of the world and the real sites
    (``sites.json``; a host with several real sites, like www.debian.org, is bilingual when one
    of them is): the summary first, then the first :data:`SHOWN_SITES` sites."""
    host_site = {host: site for site in truth["sites"] for host in site["hosts"].values()}
    for real in real_sites:
        bilingual = real["bilingual"] or host_site.get(real["host"], {}).get("bilingual", False)
        kind = "real multilingual" if bilingual else "real monolingual"
        host_site[real["host"]] = {"bilingual": bilingual, "kind": kind}
    found = [item for item in items if _kind(item) == "bilingual_site"]
    judged = [item for item in items if _kind(item) == "site_verdict"]
    rows, right = [], 0
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
        rows.append(f"{item['site']:<34} {languages:<22} {verdict:<17} {item['found_by'][:60]}")
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
    not_judged = sum(1 for item in judged if item.get("status") == "not_judged")
    summary = (
        f"{len(found)} hosts reported bilingual ({right} right by the ground truth) of "
        f"{len(judged)} judged"
        + (f" ({not_judged} could not be judged)" if not_judged else "")
        + f", in {stats.get('backforth/pages', 0)} pages:\n{len(world_found)} of the generated "
        f"world's {world_bilingual} bilingual sites (a site can have a host per language) and "
        f"{len(real_found)} multilingual real sites. Finish reason: {stats.get('finish_reason')}."
    )
    head = f"{'site':<34} {'languages':<22} {'truth':<17} found by"
    lines = [summary, "", head, *rows[:SHOWN_SITES]]
    if len(rows) > SHOWN_SITES:
        lines.append(f"... {len(rows) - SHOWN_SITES} more in {sites_file}")
    return "\n".join(lines)


def _kind(item: dict) -> str:
    """An item's type (lines written before items carried one: by their fields)."""
    if "type" in item:
        return str(item["type"])
    return "bilingual_site" if "found_by" in item else "site_verdict"


def pairs_summary(run: Any, asked_sites: int) -> str:
    """The pairing crawl in one line, from its stats (the report's figures)."""
    stats = run.stats
    methods = {
        key.rsplit("/", 1)[1]: value
        for key, value in stats.items()
        if key.startswith("pupsniffer/pairs/")
    }
    with_pairs = len({pair["source_url"].split("/")[2] for pair in run.pairs})
    return (
        f"{sum(methods.values())} URL pairs ({', '.join(f'{k} {v}' for k, v in methods.items())})"
        f" on {with_pairs} of the {asked_sites} sites, in {stats.get('pupsniffer/pages', 0)} "
        f"pages; {stats.get('docs/pairs', 0)} document pairs written."
    )
