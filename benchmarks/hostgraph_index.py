"""How fast is a host graph indexed, and a host's backlinks looked up in it?

Takes a generated world (``bilingual-spider sandbox generate --seed 3 --sites 10000 --out DIR``),
exports its engine's host graph in Common Crawl's format (the files the sandbox serves under
``/cc-data/projects/hyperlinkgraph/``), then measures what the ``cc_hostgraph`` adapter does
with them: reading the gzipped vertex and edge files and writing the index
(:meth:`HostGraphIndex.build`), mapping a saved index (what a later crawl does), and looking up
the referring hosts of hosts (all hosts of the world, each once, and the most linked ones).

    python benchmarks/hostgraph_index.py --world DIR
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.search_api_commoncrawl import HostGraph
from bilingual_spider.sandbox.webgraph_write import ENGINE_DIR
from bilingual_spider.search.cc_hostgraph import HostGraphIndex, reverse_host

RESULTS = Path(__file__).resolve().parent / "results"


def measure(world: Path, work: Path) -> dict:
    index = EngineIndex.load([world / ENGINE_DIR])
    files = HostGraph(index, "bench").files()
    for name, body in files.items():
        (work / name).write_bytes(body)
    started = time.perf_counter()
    built = HostGraphIndex.build(work / "vertices.txt.gz", work / "edges.txt.gz", work / "index")
    build_seconds = time.perf_counter() - started
    started = time.perf_counter()
    loaded = HostGraphIndex.load(work / "index")
    load_seconds = time.perf_counter() - started
    hosts = [reverse_host(loaded.name(v)) for v in range(loaded.hosts)]
    timings, found = [], 0
    for host in hosts:
        started = time.perf_counter()
        found += len(loaded.referring_hosts(host))
        timings.append(time.perf_counter() - started)
    degrees = sorted(
        ((int(loaded.in_offsets[v + 1] - loaded.in_offsets[v]), v) for v in range(loaded.hosts)),
        reverse=True,
    )
    top = [reverse_host(loaded.name(v)) for _, v in degrees[:100]]
    started = time.perf_counter()
    for host in top:
        loaded.referring_hosts(host)
    top_seconds = (time.perf_counter() - started) / len(top)
    index_bytes = sum(p.stat().st_size for p in (work / "index").iterdir())
    return {
        "world": str(world),
        "hosts": built.hosts,
        "edges": int(built.in_sources.size),
        "vertices_gz_bytes": len(files["vertices.txt.gz"]),
        "edges_gz_bytes": len(files["edges.txt.gz"]),
        "index_bytes": index_bytes,
        "build_seconds": round(build_seconds, 3),
        "load_seconds": round(load_seconds, 4),
        "lookup_mean_us": round(statistics.mean(timings) * 1e6, 1),
        "lookup_p99_us": round(sorted(timings)[int(0.99 * len(timings))] * 1e6, 1),
        "lookup_top100_mean_us": round(top_seconds * 1e6, 1),
        "max_in_degree": degrees[0][0],
        "referring_hosts_found": found,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--world", required=True, type=Path, help="a generated world directory")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        result = measure(args.world, Path(work))
    result["date"] = datetime.now().isoformat(timespec="seconds")
    width = max(map(len, result))
    for key, value in result.items():
        print(f"{key:<{width}}  {value}")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "hostgraph_index.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
