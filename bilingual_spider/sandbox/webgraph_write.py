"""Write a generated world to a directory the sandbox server can serve.

``DIR/`` after ``bilingual-spider sandbox generate --out DIR``:

    sandbox.toml        the page pack + the [api] section (serve with --config)
    pages/              every page of every host, in one page pack (:mod:`.page_pack`)
    engine/             the simulated engine's crawl (pages.tsv.gz, links.tsv.gz) behind the API
    seed_urls.txt       a random sample of site roots of every kind, like an ODP seed list
    world.json          parameters, text-corpus fingerprint, counts
    ground_truth.json   every site (kind, languages, layout, hosts, ...) and every hub page
    gold_pairs.tsv      src_url, tgt_url, src_lang, tgt_lang, site (as the real sites' file)

The crawler never reads ground_truth.json or gold_pairs.tsv; benchmarks and tests do.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.engine_files import EngineLink, EnginePage, write_links, write_pages
from bilingual_spider.sandbox.page_pack import PagePackWriter
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph import Site, World, plan_world
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_render import (
    RenderedPage,
    display_name,
    gone_url,
    hub_url,
    page_exists,
    page_url,
    render_site,
    root_url,
)

WORLD_FILE = "world.json"
GROUND_TRUTH_FILE = "ground_truth.json"
GOLD_PAIRS_FILE = "gold_pairs.tsv"
SEEDS_FILE = "seed_urls.txt"
CONFIG_FILE = "sandbox.toml"
PACK_DIR = "pages"
ENGINE_DIR = "engine"
SEED_SHARE = 0.1


def generate(
    out_dir: str | Path,
    params: WorldParams,
    text: TextSource | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Plan a world and write it to ``out_dir`` (replacing a world written there before)."""
    started = time.monotonic()
    say = progress or (lambda message: None)
    if text is None:
        say("reading the gettext catalogs ...")
        text = TextSource.from_catalogs(["en", *params.language_weights])
    say(f"planning {params.sites} sites (seed {params.seed}) ...")
    world = plan_world(params, text)
    summary = write_world(world, Path(out_dir), say)
    summary["seconds"] = round(time.monotonic() - started, 2)
    return summary


def write_world(world: World, out: Path, say: Callable[[str], None]) -> dict[str, Any]:
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / WORLD_FILE).exists():
        raise ValueError(f"{out} exists and holds no generated world: refusing to overwrite it")
    staging = out.with_name(f".{out.name}.writing-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        summary = _write_into(world, staging, out, say)
        if out.exists():
            trash = out.with_name(f".{out.name}.old-{os.getpid()}")
            out.rename(trash)
            shutil.rmtree(trash)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return summary


def _write_into(world: World, staging: Path, final: Path, say: Callable[[str], None]) -> dict:
    engine_pages: list[EnginePage] = []
    engine_links: list[EngineLink] = []
    report_every = max(1, len(world.sites) // 10)
    with PagePackWriter(staging / PACK_DIR) as pack:
        for number, site in enumerate(world.sites, start=1):
            for page in render_site(world, site):
                pack.add(page.url, page.html.encode("utf-8"))
                engine_pages.append(_engine_page(page))
                engine_links.extend(
                    EngineLink(page.url, link.url, link.anchor) for link in page.links
                )
            engine_pages.extend(
                EnginePage(gone_url(site, p), 404, "text/html", "", "", "")
                for p in site.broken_links
            )
            if number % report_every == 0:
                say(f"  {number}/{len(world.sites)} sites, {len(engine_pages)} pages rendered")
        hosts = pack.hosts
    write_pages(staging / ENGINE_DIR, engine_pages)
    write_links(staging / ENGINE_DIR, engine_links)
    pairs = list(gold_pairs(world))
    with (staging / GOLD_PAIRS_FILE).open("w", encoding="utf-8") as f:
        f.writelines("\t".join(pair) + "\n" for pair in pairs)
    ground_truth = ground_truth_of(world)
    (staging / GROUND_TRUTH_FILE).write_text(json.dumps(ground_truth, ensure_ascii=False))
    seeds = seed_urls(world)
    (staging / SEEDS_FILE).write_text("".join(url + "\n" for url in seeds))
    (staging / CONFIG_FILE).write_text(sandbox_toml(sorted(hosts), final))
    summary = {
        "params": world.params.to_dict(),
        "text_fingerprint": world.text_fingerprint,
        "sites": len(world.sites),
        "hosts": len(hosts),
        "pages": sum(1 for p in engine_pages if p.status == 200),
        "links": len(engine_links),
        "gold_pairs": len(pairs),
        "seed_urls": len(seeds),
    }
    (staging / WORLD_FILE).write_text(json.dumps(summary, indent=1, ensure_ascii=False))
    return summary


def _engine_page(page: RenderedPage) -> EnginePage:
    return EnginePage(page.url, 200, "text/html", page.language, page.title, page.text[:200])


def gold_pairs(world: World) -> Iterator[tuple[str, str, str, str, str]]:
    """English page -> its translation, for every translated page of every target site."""
    for site in world.sites:
        if not site.is_target:
            continue
        for language in site.languages[1:]:
            for page in site.pages_in(language):
                if page_exists(site, language, page):
                    yield (
                        page_url(site, site.primary, page),
                        page_url(site, language, page),
                        site.primary,
                        language,
                        site.name,
                    )


def ground_truth_of(world: World) -> dict[str, Any]:
    return {
        "text_fingerprint": world.text_fingerprint,
        "params": world.params.to_dict(),
        "sites": [_site_record(site) for site in world.sites],
        "hubs": [
            {
                "url": hub_url(site, hub_page.slug),
                "site": site.name,
                "topic": hub_page.topic,
                "pair": hub_page.pair,
                "sites": [world.sites[i].name for i in hub_page.sites],
            }
            for site in world.sites
            for hub_page in site.hub_pages
        ],
    }


def _site_record(site: Site) -> dict[str, Any]:
    return {
        "name": site.name,
        "display_name": display_name(site),
        "kind": site.kind,
        "decoy": site.decoy,
        "bilingual": site.is_target,
        "topic": site.topic,
        "languages": list(site.languages),
        "pair": site.pair,
        "layout": site.layout,
        "marker_shape": site.marker_shape,
        "url_tokens": site.url_tokens,
        "switcher": site.switcher,
        "switcher_placement": site.switcher_placement or ("header" if site.switcher else ""),
        "chooser_hreflang": site.chooser_hreflang,
        "domain": site.domain,
        "hosts": {lang: host for lang, host in site.hosts.items() if lang in site.languages},
        "root_url": root_url(site),
        "pages": {lang: len(site.pages_in(lang)) for lang in site.languages},
        "out_sites": sorted({target for _, target in site.external}),
    }


def seed_urls(world: World) -> list[str]:
    """A random sample of site roots of every kind (the crawler's seeds, like ODP's)."""
    rng = random.Random(world.params.seed + 1)
    count = max(min(10, len(world.sites)), round(len(world.sites) * SEED_SHARE))
    return sorted(root_url(site) for site in rng.sample(world.sites, count))


def sandbox_toml(hosts: list[str], world_dir: Path) -> str:
    """The server config of a world: its page pack and its search/backlink API."""
    return "\n".join(
        [
            "# Generated by `bilingual-spider sandbox generate`: serve with",
            f"#   bilingual-spider sandbox serve --config {world_dir / CONFIG_FILE}",
            f"# {len(hosts)} hosts",
            "",
            f'packs = ["{PACK_DIR}"]',
            "",
            "[api]",
            f'engine_dirs = ["{ENGINE_DIR}"]',
            "",
        ]
    )


def load_ground_truth(world_dir: str | Path) -> dict[str, Any]:
    return json.loads((Path(world_dir) / GROUND_TRUTH_FILE).read_text(encoding="utf-8"))


def load_gold_pairs(world_dir: str | Path) -> list[tuple[str, ...]]:
    text = (Path(world_dir) / GOLD_PAIRS_FILE).read_text(encoding="utf-8")
    return [tuple(line.split("\t")) for line in text.splitlines() if line]
