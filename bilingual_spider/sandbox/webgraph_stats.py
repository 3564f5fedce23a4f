"""Figures of a generated world, read back from its directory (``bilingual-spider sandbox stats``).

Everything is computed from the written files (ground truth + the engine's links), so the figures
describe what is served, not what was planned.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bilingual_spider.sandbox.engine_files import read_links, read_pages
from bilingual_spider.sandbox.webgraph_write import ENGINE_DIR, load_gold_pairs, load_ground_truth


def world_stats(world_dir: str | Path) -> dict[str, Any]:
    world_dir = Path(world_dir)
    truth = load_ground_truth(world_dir)
    sites = truth["sites"]
    targets = [s for s in sites if s["bilingual"]]
    site_of_host = {host: s["name"] for s in sites for host in s["hosts"].values()}
    out_edges: dict[str, set[str]] = defaultdict(set)
    page_in: Counter[str] = Counter()
    for link in read_links(world_dir / ENGINE_DIR):
        source = site_of_host.get(urlsplit(link.source).hostname or "")
        target = site_of_host.get(urlsplit(link.target).hostname or "")
        if source and target and source != target:
            out_edges[source].add(target)
            page_in[link.target] += 1
    in_degree: Counter[str] = Counter(t for targets_ in out_edges.values() for t in targets_)
    names = [s["name"] for s in sites]
    pages = Counter(p.status for p in read_pages(world_dir / ENGINE_DIR))
    hub_sites = {h["site"] for h in truth["hubs"]}
    listed = {name for h in truth["hubs"] for name in h["sites"]}
    reachable = _reachable(hub_sites, out_edges)
    target_names = {s["name"] for s in targets}
    return {
        "sites": len(sites),
        "sites_by_kind": dict(Counter(s["kind"] for s in sites).most_common()),
        "decoys_by_kind": dict(Counter(s["decoy"] for s in sites if s["decoy"]).most_common()),
        "bilingual_sites_by_pair": dict(Counter(s["pair"] for s in targets).most_common()),
        "bilingual_sites_by_layout": dict(Counter(s["layout"] for s in targets).most_common()),
        "bilingual_sites_by_marker_shape": dict(
            Counter(
                s.get("marker_shape") or "" for s in targets if s.get("marker_shape")
            ).most_common()
        ),
        "bilingual_sites_by_url_tokens": dict(
            Counter(s["url_tokens"] for s in targets).most_common()
        ),
        "bilingual_sites_by_switcher": dict(Counter(s["switcher"] for s in targets).most_common()),
        "monolingual_sites_by_language": dict(
            Counter(s["languages"][0] for s in sites if s["kind"] == "monolingual").most_common()
        ),
        "sites_by_topic": dict(Counter(s["topic"] for s in sites).most_common()),
        "sites_by_tld": dict(Counter(s["domain"].split(".", 1)[1] for s in sites).most_common(12)),
        "pages_served": pages.get(200, 0),
        "gone_pages_in_engine": pages.get(404, 0),
        "pages_per_site": _summary([sum(s["pages"].values()) for s in sites]),
        "gold_pairs": len(load_gold_pairs(world_dir)),
        "hub_pages": len(truth["hubs"]),
        "site_in_degree": _degree_stats([in_degree[n] for n in names]),
        "site_out_degree": _degree_stats([len(out_edges[n]) for n in names]),
        "page_in_degree_from_other_sites": _degree_stats(list(page_in.values())),
        "bilingual_listed_by_hubs": _share(len(target_names & listed), len(target_names)),
        "bilingual_reachable_from_hubs": _share(len(target_names & reachable), len(target_names)),
        "bilingual_with_in_links": _share(
            sum(1 for n in target_names if in_degree[n]), len(target_names)
        ),
    }


def _reachable(starts: set[str], edges: dict[str, set[str]]) -> set[str]:
    seen, queue = set(starts), deque(starts)
    while queue:
        for nxt in edges.get(queue.popleft(), ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _share(part: int, whole: int) -> dict[str, Any]:
    return {"count": part, "of": whole, "share": round(part / whole, 3) if whole else 0.0}


def _summary(values: list[int]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "min": min(values),
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 2),
        "max": max(values),
    }


def _degree_stats(values: list[int]) -> dict[str, Any]:
    histogram: Counter[str] = Counter()
    for v in values:
        if v == 0:
            histogram["0"] += 1
        else:
            low = 2 ** int(math.log2(v))
            histogram[f"{low}-{2 * low - 1}"] += 1
    ordered = sorted(histogram, key=lambda k: int(k.split("-")[0]))
    return {
        **_summary(values),
        "log2_histogram": {k: histogram[k] for k in ordered},
        "power_law_exponent": power_law_exponent(values),
    }


def power_law_exponent(values: list[int], x_min: int = 2) -> float | None:
    """Maximum-likelihood exponent of a discrete power law over values >= x_min
    (Clauset, Shalizi & Newman 2009, eq. 3.7 approximation)."""
    tail = [v for v in values if v >= x_min]
    if len(tail) < 10:
        return None
    return round(1 + len(tail) / sum(math.log(v / (x_min - 0.5)) for v in tail), 2)


def format_stats(stats: dict[str, Any]) -> str:
    lines = []
    for key, value in stats.items():
        if (
            isinstance(value, dict)
            and value
            and all(not isinstance(v, dict) for v in value.values())
        ):
            inner = ", ".join(f"{k}: {v}" for k, v in value.items())
            lines.append(f"{key:<34} {inner}")
        elif isinstance(value, dict):
            lines.append(f"{key}")
            for k, v in value.items():
                shown = ", ".join(f"{a}: {b}" for a, b in v.items()) if isinstance(v, dict) else v
                lines.append(f"  {k:<32} {shown}")
        else:
            lines.append(f"{key:<34} {value}")
    return "\n".join(lines)
