"""How does the host-graph index scale: build time, build memory, disk, lookup time and memory?

Generates host graphs of growing size in Common Crawl's format (``id<TAB>reversed.host`` vertices
sorted by name; ``from<TAB>to`` edges, distinct, no self-loops, sorted by source; gzip level 1),
about 30 edges a host like the Mar-May 2026 release (8.1B edges, 262M hosts): 80% of the hosts
link nowhere, the others' out-degrees follow a Pareto law, the targets a Zipf law (exponent 0.9,
the hubs spread over the ids). For each size it measures, each in a fresh subprocess:

* **build** (:meth:`HostGraphIndex.build`): wall time and peak memory (``VmHWM``), with
  the memory of a bare process (Python, numpy, the package) subtracted too;
* **disk**: the index's bytes, per edge and per host;
* **lookups** on the mapped index (:meth:`HostGraphIndex.load`, ``referring_hosts``): time
  (mean, p99) for random hosts and for the 100 most linked ones, the process's RSS growth, and
  the pages of the index files actually mapped into the process (``Rss`` of their mappings in
  ``/proc/self/smaps``) next to the index's size: what a lookup reads, never the whole graph.

Then it extrapolates to the real release (disk, build memory, build time) and writes
``benchmarks/results/hostgraph_index.json``. The page cache is warm (the index was just
written): lookups on a cold disk add a seek or two per lookup.

    python benchmarks/hostgraph_index.py                      # 1M, 4M, 16M, 64M edges
    python benchmarks/hostgraph_index.py --sizes 1 4 --world DIR   # also a generated world's graph
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results"
REAL_HOSTS, REAL_EDGES = 262_000_000, 8_100_000_000
EDGES_PER_HOST = 30
LINKING_SHARE = 0.2
TARGET_ZIPF = 0.9
TLDS = ("com", "de", "es", "fr", "net", "org", "ru", "uk")
RANDOM_LOOKUPS, TOP_LOOKUPS = 1000, 100
MAPPED_AFTER = (1, 10, 100)
"""Numbers of random lookups after which the index pages mapped into the process are counted."""


# --- generated graphs in Common Crawl's format ---------------------------------------------------


def id_lines(sources: np.ndarray, targets: np.ndarray) -> bytes:
    """``from<TAB>to`` lines of two id arrays, formatted by numpy (no Python loop per line)."""
    numbers = np.stack([sources, targets], axis=1).ravel().astype(np.int64)
    digits = 1 + sum((numbers >= 10**k).astype(np.int64) for k in range(1, 19))
    ends = np.cumsum(digits + 1)
    text = np.empty(int(ends[-1]) if numbers.size else 0, dtype=np.uint8)
    text[ends - 1] = np.tile(np.array([ord("\t"), ord("\n")], dtype=np.uint8), numbers.size // 2)
    starts = ends - digits - 1
    for k in range(int(digits.max(initial=0))):
        has = digits > k
        text[starts[has] + digits[has] - 1 - k] = 48 + (numbers[has] // 10**k) % 10
    return text.tobytes()


def generate_graph(directory: Path, edges: int, seed: int = 0) -> dict:
    """Write ``vertices.txt.gz`` and ``edges.txt.gz`` with about ``edges`` edges."""
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    hosts = max(2, edges // EDGES_PER_HOST)
    per_tld = -(-hosts // len(TLDS))
    with gzip.open(directory / "vertices.txt.gz", "wb", compresslevel=1) as f:
        for first in range(0, hosts, 2**20):
            f.write(
                "".join(
                    f"{i}\t{TLDS[i // per_tld]}.site{i:09d}\n"
                    for i in range(first, min(hosts, first + 2**20))
                ).encode()
            )
    out_degree = np.where(rng.random(hosts) < LINKING_SHARE, 1 + rng.pareto(1.5, hosts), 0).astype(
        np.float64
    )
    out_degree = np.minimum(np.rint(out_degree * edges / out_degree.sum()), hosts // 2)
    hub_of_rank = rng.permutation(hosts)
    spread = hosts ** (1 - TARGET_ZIPF) - 1
    written = 0
    with gzip.open(directory / "edges.txt.gz", "wb", compresslevel=1) as f:
        ends, first = np.cumsum(out_degree), 0
        while first < hosts:  # blocks of sources with about 4M edges
            before = ends[first] - out_degree[first]
            last = max(first + 1, int(np.searchsorted(ends, before + 2**22, side="right")))
            block = np.arange(first, min(last, hosts))
            sources = np.repeat(block, out_degree[block].astype(np.int64))
            ranks = (1 + rng.random(sources.size) * spread) ** (1 / (1 - TARGET_ZIPF))
            targets = hub_of_rank[np.minimum(ranks.astype(np.int64) - 1, hosts - 1)]
            pairs = np.unique(sources * hosts + targets)  # distinct, sorted by (from, to)
            sources, targets = pairs // hosts, pairs % hosts
            keep = sources != targets
            f.write(id_lines(sources[keep], targets[keep]))
            written += int(keep.sum())
            first = last
    return {
        "hosts": hosts,
        "edges": written,
        "vertices_gz_bytes": (directory / "vertices.txt.gz").stat().st_size,
        "edges_gz_bytes": (directory / "edges.txt.gz").stat().st_size,
        "generate_seconds": round(time.perf_counter() - started, 1),
    }


def export_world(world: Path, directory: Path) -> dict:
    """A generated world's host graph, as the sandbox serves it."""
    from bilingual_spider.sandbox.engine_index import EngineIndex
    from bilingual_spider.sandbox.search_api_commoncrawl import HostGraph
    from bilingual_spider.sandbox.webgraph_write import ENGINE_DIR

    files = HostGraph(EngineIndex.load([world / ENGINE_DIR]), "bench").files()
    for name, body in files.items():
        (directory / name).write_bytes(body)
    return {
        "world": str(world),
        "vertices_gz_bytes": len(files["vertices.txt.gz"]),
        "edges_gz_bytes": len(files["edges.txt.gz"]),
    }


# --- what runs in a fresh subprocess -------------------------------------------------------------


def rss_kb(field: str = "VmRSS") -> int:
    """The process's resident memory now (``VmRSS``) or at its peak (``VmHWM``: unlike
    ``ru_maxrss``, it does not count the parent's memory at the fork before ``exec``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def mapped_kb(directory: Path) -> int:
    """Resident pages of the process's mappings of files in ``directory`` (``/proc/self/smaps``)."""
    total, inside = 0, False
    prefix = str(directory.resolve()) + "/"
    for line in Path("/proc/self/smaps").read_text().splitlines():
        fields = line.split()
        if fields and "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
            inside = len(fields) >= 6 and fields[5].startswith(prefix)
        elif inside and fields[:1] == ["Rss:"]:
            total += int(fields[1])
    return total


def child_build(vertices: Path, edges: Path, index: Path, chunk_edges: int) -> dict:
    from bilingual_spider.search.cc_hostgraph import HostGraphIndex

    baseline = rss_kb()
    started = time.perf_counter()
    HostGraphIndex.build(vertices, edges, index, chunk_edges)
    seconds = time.perf_counter() - started
    peak = rss_kb("VmHWM")
    return {"build_seconds": round(seconds, 2), "peak_kb": peak, "baseline_kb": baseline}


def child_lookups(index_dir: Path, hosts_file: Path) -> dict:
    from bilingual_spider.search.cc_hostgraph import HostGraphIndex

    hosts = json.loads(hosts_file.read_text())
    before = rss_kb()
    started = time.perf_counter()
    index = HostGraphIndex.load(index_dir)
    result = {"load_seconds": round(time.perf_counter() - started, 4)}
    result["mapped_kb_after_load"] = mapped_kb(index_dir)
    for kind in ("random", "top"):
        timings, found = [], 0
        for host in hosts[kind]:
            started = time.perf_counter()
            found += len(index.referring_hosts(host))
            timings.append(time.perf_counter() - started)
            if kind == "random" and len(timings) in MAPPED_AFTER:
                result[f"mapped_kb_after_{len(timings)}_random"] = mapped_kb(index_dir)
        timings.sort()
        result[f"{kind}_lookups"] = len(timings)
        result[f"{kind}_referring_hosts"] = found
        result[f"{kind}_mean_us"] = round(statistics.mean(timings) * 1e6, 1)
        result[f"{kind}_p99_us"] = round(timings[int(0.99 * len(timings))] * 1e6, 1)
        result[f"mapped_kb_after_{kind}"] = mapped_kb(index_dir)
        result[f"rss_growth_kb_after_{kind}"] = rss_kb() - before
    return result


def in_child(*args: str) -> dict:
    """Run this script's ``--child`` mode in a fresh interpreter; its JSON answer."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", *args], capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise RuntimeError(f"child {args[0]} failed:\n{done.stderr}")
    return json.loads(done.stdout)


# --- one graph -----------------------------------------------------------------------------------


def lookup_hosts(index_dir: Path, seed: int = 1) -> dict[str, list[str]]:
    """Random hosts and the most linked ones (chosen here, so the lookup process reads only
    what its lookups read)."""
    from bilingual_spider.search.cc_hostgraph import HostGraphIndex, reverse_host

    index = HostGraphIndex.load(index_dir)
    in_degree = np.diff(index.in_offsets)
    top = np.argsort(in_degree, kind="stable")[::-1][:TOP_LOOKUPS]
    chosen = np.random.default_rng(seed).integers(0, index.hosts, RANDOM_LOOKUPS)
    return {
        "random": [reverse_host(index.name(int(v))) for v in chosen],
        "top": [reverse_host(index.name(int(v))) for v in top],
        "max_in_degree": int(in_degree.max(initial=0)),
    }


def measure_graph(work: Path, chunk_edges: int) -> dict:
    """Build the index of ``work``'s two files and look hosts up in it, each in a subprocess."""
    index_dir = work / "index"
    build = in_child(
        "build", str(work / "vertices.txt.gz"), str(work / "edges.txt.gz"), str(index_dir),
        str(chunk_edges),
    )  # fmt: skip
    info = json.loads((index_dir / "index.json").read_text())
    sizes = {p.name: p.stat().st_size for p in index_dir.iterdir() if p.name != "index.json"}
    index_bytes = sum(sizes.values())
    hosts = lookup_hosts(index_dir)
    (work / "hosts.json").write_text(json.dumps(hosts))
    lookups = in_child("lookups", str(index_dir), str(work / "hosts.json"))
    edges, count = info["edges"], info["hosts"]
    return {
        "hosts": count,
        "edges": edges,
        "chunk_edges": chunk_edges,
        **build,
        "build_peak_mb": round(build["peak_kb"] / 1024, 1),
        "build_above_baseline_mb": round((build["peak_kb"] - build["baseline_kb"]) / 1024, 1),
        "build_us_per_edge": round(build["build_seconds"] / max(1, edges) * 1e6, 3),
        "index_bytes": index_bytes,
        "index_files": sizes,
        "index_bytes_per_edge": round(index_bytes / max(1, edges), 2),
        "in_sources_bytes_per_edge": round(sizes["in_sources.npy"] / max(1, edges), 2),
        "other_bytes_per_host": round((index_bytes - sizes["in_sources.npy"]) / max(1, count), 2),
        "max_in_degree": hosts["max_in_degree"],
        **lookups,
        "mapped_share_after_random": round(
            lookups["mapped_kb_after_random"] * 1024 / index_bytes, 4
        ),
        "mapped_share_after_top": round(lookups["mapped_kb_after_top"] * 1024 / index_bytes, 4),
    }


# --- on paper ------------------------------------------------------------------------------------


def extrapolate(runs: list[dict]) -> dict:
    """The real release from the measured sizes: disk from bytes per edge and per host, build
    memory from a line fitted to (hosts, memory above a bare process), time from the largest
    graph's time per edge."""
    largest = max(runs, key=lambda r: r["edges"])
    disk = largest["in_sources_bytes_per_edge"] * REAL_EDGES
    disk += largest["other_bytes_per_host"] * REAL_HOSTS
    hosts = np.array([r["hosts"] for r in runs], dtype=float)
    above = np.array([r["build_above_baseline_mb"] for r in runs], dtype=float)
    slope, intercept = np.polyfit(hosts, above, 1) if len(runs) > 1 else (0.0, above[0])
    memory_mb = intercept + slope * REAL_HOSTS + largest["baseline_kb"] / 1024
    seconds = largest["build_us_per_edge"] * 1e-6 * REAL_EDGES
    return {
        "hosts": REAL_HOSTS,
        "edges": REAL_EDGES,
        "index_gb": round(disk / 1e9, 1),
        "bucket_files_gb": round(8 * REAL_EDGES / 1e9, 1),
        "build_memory_fit_mb_per_million_hosts": round(slope * 1e6, 1),
        "build_memory_fit_intercept_mb": round(float(intercept), 1),
        "build_peak_gb": round(memory_mb / 1024, 1),
        "bucket_edges": max(largest["chunk_edges"], -(-REAL_EDGES // 256)),
        "build_hours": round(seconds / 3600, 1),
        "from_edges": largest["edges"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 4, 16, 64],
                        help="millions of edges of the generated graphs")  # fmt: skip
    parser.add_argument("--chunk-edges", type=int, default=None, help="the build's chunk_edges")
    parser.add_argument("--world", type=Path, help="also a generated world's host graph")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        mode, *rest = args.child
        if mode == "build":
            print(json.dumps(child_build(*map(Path, rest[:3]), int(rest[3]))))
        else:
            print(json.dumps(child_lookups(Path(rest[0]), Path(rest[1]))))
        return 0
    from bilingual_spider.search.cc_hostgraph_build import CHUNK_EDGES

    chunk_edges = args.chunk_edges or CHUNK_EDGES
    result: dict = {"date": datetime.now().isoformat(timespec="seconds"), "cpus": os.cpu_count()}
    result["load_average_before"] = os.getloadavg()
    runs = []
    for millions in args.sizes:
        with tempfile.TemporaryDirectory(dir=os.environ.get("HOSTGRAPH_WORK")) as work:
            graph = generate_graph(Path(work), int(millions * 1e6))
            run = {**graph, **measure_graph(Path(work), chunk_edges)}
        runs.append(run)
        print(
            f"{run['edges']:>11,} edges {run['hosts']:>10,} hosts: build {run['build_seconds']} s "
            f"({run['build_us_per_edge']} µs/edge), peak {run['build_peak_mb']} MB "
            f"({run['build_above_baseline_mb']} above a bare process), index "
            f"{run['index_bytes'] / 1e6:.1f} MB ({run['index_bytes_per_edge']} B/edge), lookups "
            f"{run['random_mean_us']} µs mean / {run['random_p99_us']} p99 (random), "
            f"{run['top_mean_us']} / {run['top_p99_us']} (top {TOP_LOOKUPS}, max in-degree "
            f"{run['max_in_degree']:,}); index pages mapped after 1 / 10 / 100 random lookups: "
            + " / ".join(f"{run[f'mapped_kb_after_{n}_random']} kB" for n in MAPPED_AFTER)
            + f", after {RANDOM_LOOKUPS}: "
            f"{run['mapped_kb_after_random'] / 1024:.1f} MB = "
            f"{run['mapped_share_after_random']:.2%} of the index, after the top ones "
            f"{run['mapped_share_after_top']:.2%}",
            flush=True,
        )
    result["generated"] = runs
    if args.world:
        with tempfile.TemporaryDirectory() as work:
            result["world"] = {**export_world(args.world, Path(work))}
            result["world"].update(measure_graph(Path(work), chunk_edges))
        print("world:", json.dumps(result["world"]))
    result["on_paper"] = extrapolate(runs)
    result["load_average_after"] = os.getloadavg()
    print("on paper:", json.dumps(result["on_paper"], indent=1))
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "hostgraph_index.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
