"""How long does the search/backlink API take to load a world-sized engine, in how much memory?

Writes a synthetic engine directory the size of a generated world (10,000 sites, ~150,000 pages,
1.5 million links; power-law site sizes, 70% of links inside their site), then, in a fresh
process so that the peak memory is the API's own, loads it (``EngineIndex.load`` +
``SearchApi``) and times one request of each endpoint, first and repeated.

    python benchmarks/search_api_load.py [--sites 10000] [--pages 150000] [--links 1500000]
    python benchmarks/search_api_load.py --engine DIR      # an existing engine directory
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from bilingual_spider.sandbox.engine_files import EngineLink, EnginePage, write_links, write_pages

RESULTS = Path(__file__).resolve().parent / "results"
GOAL_SECONDS = 30.0
_WORDS = [f"w{i}" for i in range(5000)] + ["hotel", "museum", "english", "français", "data"]
_TLDS = ("com", "org", "net", "hk", "com.hk", "ca", "fr", "es", "co.jp", "de")


def write_synthetic_engine(out: Path, sites: int, pages: int, links: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    hosts = [f"www.site{i}.{_TLDS[i % len(_TLDS)]}" for i in range(sites)]
    sizes = [max(1, int(rng.paretovariate(1.2))) for _ in range(sites)]
    scale = pages / sum(sizes)
    site_pages: list[list[str]] = []
    languages: list[str] = []
    for host, size in zip(hosts, sizes, strict=True):
        lang = rng.choice(["en", "fr", "es", "zh-Hant", "ja"])
        count = max(1, round(size * scale))
        urls = [f"http://{host}/{lang}/page{j}.html" for j in range(count)]
        urls[::7] = [f"http://{host}/p{j}.php?lang={lang}" for j in range(0, count, 7)]
        site_pages.append(urls)
        languages.append(lang)

    def engine_pages() -> Iterator[EnginePage]:
        for urls, lang in zip(site_pages, languages, strict=True):
            for url in urls:
                title = " ".join(rng.choice(_WORDS) for _ in range(5))
                snippet = " ".join(rng.choice(_WORDS) for _ in range(25))[:200]
                yield EnginePage(url, 200, "text/html", lang, title, snippet)
        for k in range(min(2000, sites)):
            yield EnginePage(f"http://{hosts[k]}/gone{k}.html", 404, "text/html", "", "", "")

    popular = [rng.randrange(sites) for _ in range(sites)]
    total_pages = sum(len(urls) for urls in site_pages)

    def engine_links() -> Iterator[EngineLink]:
        per_page, count = links // total_pages + 1, 0
        for urls in site_pages:
            for url in urls:
                for _ in range(per_page):
                    if count == links:
                        return
                    if rng.random() < 0.7:
                        target = rng.choice(urls)
                    else:
                        site = rng.randrange(sites)
                        if rng.random() < 0.5:  # half of the links go to popular sites
                            site = popular[site]
                        target = rng.choice(site_pages[site])
                    count += 1
                    yield EngineLink(url, target, rng.choice(_WORDS))

    write_pages(out, engine_pages())
    write_links(out, engine_links())


def measure(engine: Path) -> dict:
    """Load the API from ``engine`` and time one request per endpoint (run in a fresh process)."""
    from bilingual_spider.sandbox.config import ApiConfig
    from bilingual_spider.sandbox.engine_index import EngineIndex
    from bilingual_spider.sandbox.search_api import SearchApi

    started = time.perf_counter()
    index = EngineIndex.load([engine])
    index_s = time.perf_counter() - started
    api = SearchApi(index, ApiConfig())
    load_s = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    busiest = int(index.url_host[index.link_dst].max())  # some host, for the queries below
    host = index.hosts[busiest]
    graph = "cc-main-2024-aug-sep-oct"
    edges = f"/cc-data/projects/hyperlinkgraph/{graph}/host/{graph}-host-edges.txt.gz"
    moz = {"target": host, "target_scope": "root_domain", "limit": 50}
    requests = {
        "moz_root_domain": ("POST", "/moz/v2/links", "", moz),
        "google_word": ("GET", "/customsearch/v1", "key=k&cx=c&q=hotel", None),
        "google_site_inurl": ("GET", "/customsearch/v1", "key=k&cx=c&q=site:hk+inurl:lang", None),
        "cdx_domain": ("GET", "/cc-index/CC-MAIN-2024-33-index", f"url=*.{host}&output=json", None),
        "hostgraph_edges": ("GET", edges, "", None),
    }
    timings = {}
    for name, (method, path, query, body) in requests.items():
        payload = json.dumps(body).encode() if body is not None else b""
        times = []
        for _ in range(2):
            began = time.perf_counter()
            answer = api.handle(method, path, query, payload)
            times.append(time.perf_counter() - began)
        timings[name] = {
            "status": answer.status,
            "first_ms": round(times[0] * 1000, 1),
            "again_ms": round(times[1] * 1000, 1),
        }
    return {
        "urls": len(index.urls),
        "fetched_pages": int((index.status != 0).sum()),
        "hosts": len(index.hosts),
        "links": int(index.link_src.size),
        "engine_index_s": round(index_s, 2),
        "load_s": round(load_s, 2),
        "peak_rss_mb": round(peak_mb),
        "requests": timings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=10_000)
    parser.add_argument("--pages", type=int, default=150_000)
    parser.add_argument("--links", type=int, default=1_500_000)
    parser.add_argument("--engine", help="an existing engine directory (nothing is generated)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure))))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        engine = Path(args.engine) if args.engine else Path(tmp) / "engine"
        generate_s = 0.0
        if not args.engine:
            began = time.perf_counter()
            write_synthetic_engine(engine, args.sites, args.pages, args.links)
            generate_s = time.perf_counter() - began
        child = subprocess.run(
            [sys.executable, __file__, "--measure", str(engine)],
            capture_output=True,
            text=True,
            check=True,
        )
    result = {
        "benchmark": "search_api_load",
        "date": datetime.now().isoformat(timespec="seconds"),
        "engine": args.engine or f"synthetic: {args.sites} sites, {args.pages} pages",
        "write_engine_s": round(generate_s, 2),
        "goal_load_s": GOAL_SECONDS,
        **json.loads(child.stdout.splitlines()[-1]),
    }
    for key in ("engine", "urls", "hosts", "links", "engine_index_s", "load_s", "peak_rss_mb"):
        print(f"{key:<18} {result[key]}")
    print(f"\n{'request':<20} {'status':>6} {'first ms':>9} {'again ms':>9}")
    for name, timing in result["requests"].items():
        print(f"{name:<20} {timing['status']:>6} {timing['first_ms']:>9} {timing['again_ms']:>9}")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "search_api_load.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {path}")
    return 0 if result["load_s"] < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
