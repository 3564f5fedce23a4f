"""Memory over a long crawl (issue 32): resident memory of one ``scrapy crawl backforth`` process
(COBFC, the generated world of ``strategies.py``) sampled as its pages go by, next to the bytes
its frontier (the queued requests) and its seen set (the duplicate filter's fingerprints) hold.

A small extension of this benchmark (:class:`MemorySampler`) records, every ``--every`` pages
the spider counts, the process's RSS (``/proc/self/statm``), the requests queued and enqueued (the
scheduler's stats), and every ``--deep-every`` pages the deep size of the scheduler's queue and
of the duplicate filter's fingerprint set (objects reachable from them, stopping at what they
share with the rest of the crawl: the spider, its callbacks, classes, modules). Reported:

- peak RSS, and RSS growth per 10,000 pages after the first 10,000;
- the frontier's and the seen set's bytes per URL (from the last deep sample);
- RSS growth per 100,000 pages from 10,000 pages after the frontier's peak to the end (goal:
  under 50 MB): Python keeps what a shrinking frontier frees for its next objects, so growth
  then is what the rest of the crawl takes, at most.

    python benchmarks/crawl_memory.py [--budget 100000] [--sites 50000] [--seeds 300]
        [--every 1000] [--deep-every 10000] [--world DIR] [--work DIR]
        [--tracemalloc FROM,TO | --traced-from PAGES [--traced-diff-from PAGES]]

``--tracemalloc FROM,TO``: what grows, by source line. Python's ``tracemalloc`` starts tracing
once the spider has counted FROM pages and takes a snapshot at TO pages: every block it holds
then was allocated between the two and is still alive (the crawl's growth, the frontier's
included). Reported: the largest source lines and files (``tracemalloc`` in the results, the
sizes in MB with their block counts); tracing slows the crawl down between the two points.

``--traced-from PAGES``: a measure the allocator does not blur. ``tracemalloc`` (one frame)
starts once the spider has counted PAGES pages (0: at its first response) and every sample
records the bytes Python has allocated since then and still holds (``traced_mb``, with what the
tracing itself takes, ``tracemalloc_mb``). Reported (``traced`` in the summary), after the first
10,000 pages and from 10,000 pages after the frontier's peak to the end: the traced bytes'
growth per 100,000 pages, and the same less the growth of the frontier's and seen set's deep
bytes (the goal's "beyond the frontier's own bytes"), and less that of their own bytes
(:func:`own_size`, at every deep sample when traced: a deep size counts what they share with
the rest of the crawl, which stays when a request leaves the queue). Blocks allocated before
tracing starts are not counted when freed: with PAGES > 0 a shrinking frontier's frees do not
show, so 0 is the measure; tracing slows the whole crawl down. ``--traced-diff-from PAGES``
names what grew from PAGES pages to the end: the traced blocks' sizes by source line at the
end less those at PAGES (kept as numbers, not a snapshot); ``tracemalloc`` in the results.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc
import types
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.settings import BaseSettings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strategies import (  # noqa: E402  (a sibling benchmark)
    CRAWL,
    run_crawl,
    seeded_world,
    write_results,
)

from bilingual_spider.sandbox.process import SandboxServer  # noqa: E402
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE  # noqa: E402

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, Spider, Crawler)
"""Where a deep size stops: what a request or a queue refers to but the whole crawl shares."""


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_SIZE


def deep_size(root: Any) -> int:
    """Bytes of ``root`` and of every object reachable from it, each counted once, not going
    into :data:`SHARED` objects, settings, or the methods' ``__self__`` (a callback's spider)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (*SHARED, BaseSettings)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, types.MethodType):
            continue  # the bound method itself; its object is the spider or a component
        stack.extend(gc.get_referents(obj))
    return total


def own_size(root: Any) -> int:
    """The bytes that would go with ``root``: of the objects :func:`deep_size` counts, those
    referred to only from ``root`` and its other such objects (their reference counts against
    the references found among them), and not reachable from one referred to from elsewhere."""
    objects: dict[int, Any] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in objects or isinstance(obj, (*SHARED, BaseSettings)):
            continue
        objects[id(obj)] = obj
        if not isinstance(obj, types.MethodType):
            stack.extend(gc.get_referents(obj))
    del obj
    inside: Counter[int] = Counter()
    for key in objects:
        if not isinstance(objects[key], types.MethodType):
            inside.update(id(ref) for ref in gc.get_referents(objects[key]) if id(ref) in objects)
    # 2: the reference from ``objects`` and getrefcount's own
    shared = [k for k in objects if k != id(root) and sys.getrefcount(objects[k]) - 2 > inside[k]]
    kept = set(shared)
    while shared:
        held = objects[shared.pop()]
        if not isinstance(held, types.MethodType):
            for ref in gc.get_referents(held):
                if id(ref) in objects and id(ref) not in kept:
                    kept.add(id(ref))
                    shared.append(id(ref))
    return sum(sys.getsizeof(objects[key]) for key in objects if key not in kept)


class MemorySampler:
    """Writes a JSON line per sample to ``BENCH_MEMORY_FILE`` (see the module's docstring)."""

    def __init__(self, crawler: Crawler, path: str, every: int, deep_every: int) -> None:
        self.crawler = crawler
        self.file = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed at spider_closed
        self.every, self.deep_every = every, deep_every
        self.next_sample, self.next_deep = 0, 0
        self.traced_from: int | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MemorySampler:
        settings = crawler.settings
        if not settings.get("BENCH_MEMORY_FILE"):
            raise NotConfigured
        sampler = cls(
            crawler,
            settings["BENCH_MEMORY_FILE"],
            settings.getint("BENCH_MEMORY_EVERY"),
            settings.getint("BENCH_MEMORY_DEEP_EVERY"),
        )
        trace = settings.get("BENCH_TRACEMALLOC")
        if trace:
            start, end = (int(part) for part in str(trace).split(","))
            sampler.growth = GrowthTracer(start, end, settings["BENCH_TRACEMALLOC_FILE"])
        if settings.get("BENCH_TRACED_FROM") is not None:
            sampler.traced_from = settings.getint("BENCH_TRACED_FROM")
        if settings.get("BENCH_TRACED_DIFF_FROM") is not None:
            sampler.diff = TracedDiff(
                settings.getint("BENCH_TRACED_DIFF_FROM"), settings["BENCH_TRACEMALLOC_FILE"]
            )
        crawler.signals.connect(sampler.response_received, signal=signals.response_received)
        crawler.signals.connect(sampler.spider_closed, signal=signals.spider_closed)
        return sampler

    growth: GrowthTracer | None = None
    diff: TracedDiff | None = None

    def response_received(self, response: Any, request: Request, **_: Any) -> None:
        pages = self._pages()
        if self.growth is not None:
            self.growth.at(pages)
        tracing = self.traced_from is not None and pages >= self.traced_from
        if tracing and not tracemalloc.is_tracing():
            tracemalloc.start(1)
        if self.diff is not None:
            self.diff.at(pages)
        if pages >= self.next_sample:
            self.next_sample = pages + self.every
            deep = pages >= self.next_deep
            if deep:
                self.next_deep = pages + self.deep_every
            self._sample(pages, deep)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        self._sample(self._pages(), deep=True, last=True)
        self.file.close()
        if self.diff is not None:
            self.diff.end(self._pages())

    def _pages(self) -> int:
        return int(self.crawler.stats.get_value("backforth/pages", 0))

    def _sample(self, pages: int, deep: bool, last: bool = False) -> None:
        stats = self.crawler.stats
        enqueued = int(stats.get_value("scheduler/enqueued", 0))
        record: dict[str, Any] = {
            "pages": pages,
            "responses": int(stats.get_value("response_received_count", 0)),
            "rss_mb": round(rss_bytes() / 2**20, 1),
            "queued": enqueued - int(stats.get_value("scheduler/dequeued", 0)),
            "enqueued": enqueued,
            "t": round(time.monotonic(), 1),
        }
        if self.traced_from is not None and tracemalloc.is_tracing():
            record["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 2)
            record["tracemalloc_mb"] = round(tracemalloc.get_tracemalloc_memory() / 2**20, 1)
        if deep:
            started = time.monotonic()
            scheduler = self.crawler.engine._slot.scheduler  # a benchmark may look inside
            fingerprints = getattr(scheduler.df, "fingerprints", None)
            record["frontier_bytes"] = deep_size(scheduler.mqs)
            record["seen_urls"] = len(fingerprints) if fingerprints is not None else None
            record["seen_bytes"] = deep_size(fingerprints) if fingerprints is not None else None
            if self.traced_from is not None:  # what would go with them, for the traced bytes
                record["frontier_own_bytes"] = own_size(scheduler.mqs)
                if fingerprints is not None:
                    record["seen_own_bytes"] = own_size(fingerprints)
            record["deep_seconds"] = round(time.monotonic() - started, 2)
        if last:
            record["last"] = True
        self.file.write(json.dumps(record) + "\n")
        self.file.flush()


class GrowthTracer:
    """``tracemalloc`` from ``start`` pages to a snapshot at ``end`` pages, written to ``path``
    as the largest source lines and files of the blocks allocated meanwhile and still alive."""

    def __init__(self, start: int, end: int, path: str, top: int = 40) -> None:
        self.start, self.end, self.path, self.top = start, end, path, top
        self.done = False

    def at(self, pages: int) -> None:
        if self.done:
            return
        if pages >= self.start and not tracemalloc.is_tracing():
            tracemalloc.start(1)
            self.started_at = pages
        elif pages >= self.end and tracemalloc.is_tracing():
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            tracemalloc.stop()
            self.done = True
            record = {
                "from_pages": self.started_at,
                "to_pages": pages,
                "total_mb": round(sum(s.size for s in snapshot.statistics("filename")) / 2**20, 2),
                "lines": self._largest(snapshot.statistics("lineno")),
                "files": self._largest(snapshot.statistics("filename")),
            }
            Path(self.path).write_text(json.dumps(record, indent=1) + "\n")

    def _largest(self, statistics: list[tracemalloc.Statistic]) -> list[dict[str, Any]]:
        return [
            {
                "where": f"{frame.filename}:{frame.lineno}" if (frame := stat.traceback[0]) else "",
                "mb": round(stat.size / 2**20, 2),
                "blocks": stat.count,
            }
            for stat in statistics[: self.top]
        ]


class TracedDiff:
    """What grew from ``start`` pages to the crawl's end, by source line and file, written to
    ``path`` in :class:`GrowthTracer`'s format (the growth in MB and in blocks), and the lines
    that shrank most (``lines_shrunk``)."""

    def __init__(self, start: int, path: str, top: int = 40) -> None:
        self.start, self.path, self.top = start, path, top
        self.before: dict[str, tuple[int, int]] | None = None

    def at(self, pages: int) -> None:
        if self.before is None and pages >= self.start and tracemalloc.is_tracing():
            self.before, self.started_at = self._by_line(), pages

    def end(self, pages: int) -> None:
        if self.before is None:
            return
        lines: dict[str, list[int]] = {}
        for where, (size, count) in self._by_line().items():
            before = self.before.get(where, (0, 0))
            lines[where] = [size - before[0], count - before[1]]
        for where, (size, count) in self.before.items():
            lines.setdefault(where, [-size, -count])
        files: dict[str, list[int]] = {}
        for where, (size, count) in lines.items():
            grown = files.setdefault(where.rsplit(":", 1)[0], [0, 0])
            grown[0], grown[1] = grown[0] + size, grown[1] + count
        record = {
            "from_pages": self.started_at,
            "to_pages": pages,
            "total_mb": round(sum(size for size, _ in lines.values()) / 2**20, 2),
            "lines": self._largest(lines),
            "files": self._largest(files),
            "lines_shrunk": self._largest(lines, shrunk=True),
        }
        Path(self.path).write_text(json.dumps(record, indent=1) + "\n")

    @staticmethod
    def _by_line() -> dict[str, tuple[int, int]]:
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        return {
            f"{stat.traceback[0].filename}:{stat.traceback[0].lineno}": (stat.size, stat.count)
            for stat in snapshot.statistics("lineno")
        }

    def _largest(self, grown: dict[str, list[int]], shrunk: bool = False) -> list[dict[str, Any]]:
        sign = 1 if shrunk else -1  # the most grown first, or the most shrunk
        largest = sorted(grown.items(), key=lambda item: sign * item[1][0])[: self.top]
        return [
            {"where": where, "mb": round(size / 2**20, 2), "blocks": count}
            for where, (size, count) in largest
        ]


def summarize(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Peak RSS, growth per 10,000 pages after the first 10,000, bytes per URL, and the growth
    the frontier and the seen set do not explain."""
    deep = [s for s in samples if "frontier_bytes" in s]
    after = [s for s in samples if s["pages"] >= 10_000]
    steps = []
    for low in range(10_000, max(s["pages"] for s in samples), 10_000):
        a = min(after, key=lambda s, low=low: abs(s["pages"] - low))
        b = min(after, key=lambda s, low=low: abs(s["pages"] - low - 10_000))
        if b["pages"] > a["pages"]:
            steps.append(
                {"from": a["pages"], "to": b["pages"], "rss_mb": b["rss_mb"] - a["rss_mb"]}
            )
    result: dict[str, Any] = {
        "pages": samples[-1]["pages"],
        "peak_rss_mb": max(s["rss_mb"] for s in samples),
        "rss_growth_per_10k_pages_mb": [round(s["rss_mb"], 1) for s in steps],
    }
    fullest = max(deep, key=lambda s: s["queued"])  # the frontier at its largest
    if fullest["queued"]:
        result["frontier_bytes_per_queued_url"] = round(
            fullest["frontier_bytes"] / fullest["queued"]
        )
        result["frontier_peak_mb"] = round(fullest["frontier_bytes"] / 2**20, 1)
    last = deep[-1]
    if last.get("seen_urls"):
        result["seen_bytes_per_url"] = round(last["seen_bytes"] / last["seen_urls"])
    # Python keeps the memory a shrinking frontier frees for its next objects: after the
    # frontier's peak, RSS growth is what the rest of the crawl takes (at most)
    later = [s for s in deep if s["pages"] >= fullest["pages"] + 10_000]
    if later:
        start, end = later[0], samples[-1]
        span = end["pages"] - start["pages"]
        if span > 0:
            grown = end["rss_mb"] - start["rss_mb"]
            result["after_frontier_peak"] = {
                "from_to_pages": [start["pages"], end["pages"]],
                "rss_growth_mb": round(grown, 1),
                "per_100k_pages_mb": round(grown * 100_000 / span, 1),
            }
    traced = [s for s in deep if "traced_mb" in s]
    if len(traced) > 1:
        result["traced"] = {
            "from_pages": traced[0]["pages"],
            "after_first_10k": traced_growth(traced, 10_000),
            "after_frontier_peak": traced_growth(traced, fullest["pages"] + 10_000),
        }
    return result


def traced_growth(traced: list[dict[str, Any]], pages: int) -> dict[str, Any] | None:
    """Traced bytes' growth from the first deep sample at ``pages`` or later to the last, per
    100,000 pages, and the same less the frontier's and the seen set's growth."""
    start, end = next((s for s in traced if s["pages"] >= pages), traced[-1]), traced[-1]
    span = end["pages"] - start["pages"]
    if span <= 0:
        return None
    grown = end["traced_mb"] - start["traced_mb"]
    result = {
        "from_to_pages": [start["pages"], end["pages"]],
        "traced_growth_mb": round(grown, 1),
        "per_100k_pages_mb": round(grown * 100_000 / span, 1),
    }
    # deep: every byte reachable from them; own: only what would go with them
    for name, keys in (("", ("frontier_bytes", "seen_bytes")), ("_own", OWN)):
        if all(key in start and key in end for key in keys):
            own = sum(end[key] - start[key] for key in keys) / 2**20
            result[f"frontier_and_seen{name}_growth_mb"] = round(own, 1)
            result[f"beyond_frontier{name}_mb"] = round(grown - own, 1)
            per_100k = round((grown - own) * 100_000 / span, 1)
            result[f"beyond_frontier{name}_per_100k_pages_mb"] = per_100k
    return result


OWN = ("frontier_own_bytes", "seen_own_bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=100_000)
    parser.add_argument("--sites", type=int, default=50_000)
    parser.add_argument("--world-seed", type=int, default=0)
    parser.add_argument("--seeds", type=int, default=300)
    parser.add_argument("--every", type=int, default=1000, help="pages between RSS samples")
    parser.add_argument("--deep-every", type=int, default=10_000, help="pages between deep sizes")
    parser.add_argument("--world", help="world directory, reused when its parameters match")
    parser.add_argument("--work", help="directory for the crawl's outputs (default: temporary)")
    parser.add_argument("--out", default="crawl_memory", help="results/NAME.json")
    parser.add_argument("--tracemalloc", help="FROM,TO: pages between which growth is traced")
    parser.add_argument(
        "--traced-from", type=int, metavar="PAGES", help="traced bytes at every sample from PAGES"
    )
    parser.add_argument(
        "--traced-diff-from", type=int, metavar="PAGES", help="what grew from PAGES to the end"
    )
    args = parser.parse_args(argv)
    if args.tracemalloc and args.traced_from is not None:
        parser.error("--tracemalloc and --traced-from both use tracemalloc: one at a time")
    if args.traced_diff_from is not None and args.traced_from is None:
        parser.error("--traced-diff-from needs --traced-from")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.work or tmp).resolve()
        work.mkdir(parents=True, exist_ok=True)
        world, world_info, seeds_file = seeded_world(
            args.world, work, args.world_seed, args.sites, args.seeds
        )
        samples_file = work / "memory.jsonl"
        settings = {
            **CRAWL,
            "EXTENSIONS": {"crawl_memory.MemorySampler": 950},
            "BENCH_MEMORY_FILE": samples_file,
            "BENCH_MEMORY_EVERY": args.every,
            "BENCH_MEMORY_DEEP_EVERY": args.deep_every,
        }
        growth_file = work / "growth.json"
        if args.tracemalloc:
            settings.update(BENCH_TRACEMALLOC=args.tracemalloc, BENCH_TRACEMALLOC_FILE=growth_file)
        if args.traced_from is not None:
            settings["BENCH_TRACED_FROM"] = args.traced_from
        if args.traced_diff_from is not None:
            settings.update(
                BENCH_TRACED_DIFF_FROM=args.traced_diff_from, BENCH_TRACEMALLOC_FILE=growth_file
            )
        print(f"crawling with cobfc ({args.budget} pages) ...", flush=True)
        with SandboxServer(["--config", str(world / CONFIG_FILE)]) as server:
            crawl = run_crawl(
                server, "cobfc", seeds_file, args.budget, max(1, args.budget // 5), work,
                settings, timeout=max(1800, args.budget // 20),
            )  # fmt: skip
        samples = [json.loads(line) for line in samples_file.read_text().splitlines()]
        growth = json.loads(growth_file.read_text()) if growth_file.is_file() else None
    result = {
        "benchmark": "crawl_memory",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": "one scrapy crawl backforth process (COBFC) through the sandbox server; RSS from "
        "/proc/self/statm every --every pages; deep sizes of the scheduler's memory queue and "
        "the duplicate filter's fingerprints every --deep-every pages",
        "world": world_info,
        "budget": args.budget,
        "wall_s": crawl["wall_s"],
        "summary": summarize(samples),
        "goal": "RSS growth under 50 MB per 100,000 pages, from 10,000 pages after the "
        "frontier's peak; beyond the frontier's own bytes: traced growth (--traced-from) less "
        "the frontier's and seen set's",
        "traced_from": args.traced_from,
        "samples": samples,
    }
    if args.tracemalloc or args.traced_diff_from is not None:
        result["tracemalloc"] = growth
    result["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(result["summary"], indent=1))
    write_results(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
