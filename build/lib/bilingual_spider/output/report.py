"""A crawl report to look at: one self-contained HTML page (figures embedded, no network) and
its figures as PNG files (matplotlib).

A *run directory* holds what a crawl left: ``stats.json`` (``BILINGUAL_STATS_FILE``), its
history ``stats.history.jsonl`` (one snapshot per interval, written beside it while the crawl
runs), and item feeds ``*.jsonl`` (``-O items.jsonl``: bilingual sites, URL pairs, verdicts).
:func:`load_run` reads one; :func:`write_report` draws one or several (several runs, one line
each: strategies side by side):

- harvest: bilingual sites and URL pairs against pages fetched (from the history);
- pages per second over the crawl's time;
- sites by language pair and by how they were found (seed, forward link, backlink, round);
- pairs per site, per method, per pattern (with the pattern's credibilities);
- the detector's cost (pages per verdict), the search/backlink API's calls and failures, and
  what was refused (robots.txt, network safety, focus) and why.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

import matplotlib

from bilingual_spider.output.stats_history import history_path

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STATS_FILE = "stats.json"
PAGES_KEY = "response_received_count"
TOP = 20
"""Bars shown in a "top" chart."""
REFUSALS = re.compile(r"^(safety/refused/|robotstxt/forbidden|focus/(?!kept)|quality/rejected/)")


@dataclass
class Run:
    """What one crawl left."""

    name: str
    stats: dict[str, Any]
    history: list[dict[str, Any]] = field(default_factory=list)
    sites: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)


def load_run(directory: str | Path) -> Run:
    """The run in ``directory``; its items from every ``*.jsonl`` there but the history."""
    directory = Path(directory)
    stats_path = directory / STATS_FILE
    if not stats_path.is_file():
        raise FileNotFoundError(f"{directory}: no {STATS_FILE} (run with BILINGUAL_STATS_FILE)")
    run = Run(directory.name, json.loads(stats_path.read_text()))
    history = history_path(stats_path)
    if history.is_file():
        run.history = _json_lines(history)
    for feed in sorted(directory.glob("*.jsonl")):
        if feed == history:
            continue
        for item in _json_lines(feed):
            if "source_url" in item and "target_url" in item:
                run.pairs.append(item)
            elif "bilingual" in item and "pages_downloaded" in item:
                run.verdicts.append(item)
            elif "site" in item and "languages" in item:
                run.sites.append(item)
    return run


def _json_lines(path: Path) -> list[dict[str, Any]]:
    found = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            value = json.loads(line)
        except ValueError:  # a line cut by a crawl still running
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def pages_of(stats: dict[str, Any]) -> int:
    return int(stats.get(PAGES_KEY, 0))


def bilingual_sites_of(stats: dict[str, Any]) -> int:
    return int(stats.get("backforth/sites_bilingual", stats.get("pupsniffer/sites_bilingual", 0)))


def pairs_of(stats: dict[str, Any]) -> int:
    return sum(int(v) for k, v in stats.items() if k.startswith("pupsniffer/pairs/"))


def found_by_kind(found_by: str) -> str:
    """``seed``, ``forward link``, ``backlink``, ``round N``, ``search`` or ``other``."""
    text = found_by.lower()
    for kind in ("seed", "backlink", "forward", "search"):
        if text.startswith(kind) or f" {kind}" in text:
            return "forward link" if kind == "forward" else kind
    if text.startswith("round"):
        return text.split(":")[0]
    return "other" if text else "unknown"


def write_report(runs: list[Run], out: str | Path) -> Path:
    """``report.html`` and its PNGs in ``out``; returns the HTML's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures = {
        "harvest": _harvest(runs),
        "rate": _rate(runs),
        "sites": _sites(runs),
        "pairs": _pairs(runs),
    }
    images = {}
    for name, figure in figures.items():
        if figure is None:
            continue
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, bbox_inches="tight")
        plt.close(figure)
        (out / f"{name}.png").write_bytes(buffer.getvalue())
        images[name] = base64.b64encode(buffer.getvalue()).decode("ascii")
    page = out / "report.html"
    page.write_text(_html(runs, images), encoding="utf-8")
    return page


def _harvest(runs: list[Run]) -> Any:
    if not any(run.history for run in runs):
        return None
    figure, (sites_axis, pairs_axis) = plt.subplots(1, 2, figsize=(11, 4))
    for run in runs:
        points = [*run.history, run.stats]
        pages = [pages_of(s) for s in points]
        sites_axis.plot(pages, [bilingual_sites_of(s) for s in points], label=run.name)
        pairs_axis.plot(pages, [pairs_of(s) for s in points], label=run.name)
    sites_axis.set(title="Bilingual sites", xlabel="pages fetched", ylabel="sites")
    pairs_axis.set(title="URL pairs", xlabel="pages fetched", ylabel="pairs")
    for axis in (sites_axis, pairs_axis):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    return figure


def _rate(runs: list[Run]) -> Any:
    if not any(len(run.history) > 1 for run in runs):
        return None
    figure, axis = plt.subplots(figsize=(11, 3))
    for run in runs:
        seconds, rates = [], []
        for before, after in zip(run.history, run.history[1:], strict=False):
            elapsed = _seconds(after) - _seconds(before)
            if elapsed > 0:
                seconds.append(_seconds(after))
                rates.append((pages_of(after) - pages_of(before)) / elapsed)
        axis.plot(seconds, rates, label=run.name)
    axis.set(title="Pages per second", xlabel="seconds since start", ylabel="pages/s")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    return figure


def _seconds(stats: dict[str, Any]) -> float:
    return float(stats.get("elapsed_time_seconds") or stats.get("stats_elapsed_seconds") or 0.0)


def _sites(runs: list[Run]) -> Any:
    sites = [site for run in runs for site in run.sites]
    if not sites:
        return None
    by_languages = Counter("-".join(sorted(site.get("languages", [])[:2])) for site in sites)
    by_found = Counter(found_by_kind(site.get("found_by", "")) for site in sites)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    _bars(left, by_languages.most_common(TOP), "Sites by language pair")
    _bars(right, by_found.most_common(TOP), "Sites by how they were found")
    return figure


def _pairs(runs: list[Run]) -> Any:
    pairs = [pair for run in runs for pair in run.pairs]
    if not pairs:
        return None
    by_site = Counter(_host(pair["source_url"]) for pair in pairs)
    by_method = Counter(pair.get("method") or "?" for pair in pairs)
    by_pattern = Counter(pair.get("pattern") or "?" for pair in pairs)
    figure, axes = plt.subplots(1, 3, figsize=(14, 4))
    _bars(axes[0], by_site.most_common(TOP), "Pairs per site")
    _bars(axes[1], by_method.most_common(TOP), "Pairs per method")
    _bars(axes[2], by_pattern.most_common(TOP), "Pairs per pattern")
    return figure


def _bars(axis: Any, counted: list[tuple[str, int]], title: str) -> None:
    labels = [label for label, _ in counted][::-1]
    axis.barh(labels, [n for _, n in counted][::-1])
    axis.set_title(title)
    axis.tick_params(axis="y", labelsize=7)


def _host(url: str) -> str:
    return url.split("/")[2] if url.count("/") >= 2 else url


def _html(runs: list[Run], images: dict[str, str]) -> str:
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<title>bilingual_spider crawl report</title><style>",
        "body{font-family:sans-serif;margin:2em;max-width:1200px}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:2px 8px;text-align:right}th{background:#eee}td:first-child{text-align:left}"
        "img{max-width:100%}",
        "</style></head><body><h1>Crawl report</h1>",
    ]
    parts.append(_table(["run", "finish", "pages", "seconds", "pages/s", "bilingual sites",
                         "pairs"], [_summary(run) for run in runs]))  # fmt: skip
    for name, title in (("harvest", "Harvest"), ("rate", "Pages per second"),
                        ("sites", "Sites"), ("pairs", "Pairs")):  # fmt: skip
        if name in images:
            parts.append(f"<h2>{title}</h2><img alt='{title}' src='data:image/png;base64,"
                         f"{images[name]}'>")  # fmt: skip
    parts.append("<h2>Patterns</h2>" + _patterns(runs))
    parts.append("<h2>Detector cost</h2>" + _detector(runs))
    parts.append("<h2>Search and backlink API</h2>" + _grouped(runs, "search/"))
    parts.append("<h2>Refusals</h2>" + _refusals(runs))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _summary(run: Run) -> list[Any]:
    seconds = float(run.stats.get("elapsed_time_seconds") or 0.0)
    pages = pages_of(run.stats)
    rate = f"{pages / seconds:.1f}" if seconds else "-"
    finish = run.stats.get("finish_reason") or "running"
    return [run.name, finish, pages, f"{seconds:.0f}", rate, bilingual_sites_of(run.stats),
            pairs_of(run.stats) or len(run.pairs)]  # fmt: skip


def _patterns(runs: list[Run]) -> str:
    rows: dict[str, list[float]] = defaultdict(list)
    globals_: dict[str, float] = {}
    for run in runs:
        for pair in run.pairs:
            pattern = pair.get("pattern") or "?"
            rows[pattern].append(float(pair.get("local_credibility") or 0.0))
            globals_[pattern] = float(pair.get("global_credibility") or 0.0)
    if not rows:
        return "<p>No pairs.</p>"
    ranked = sorted(rows.items(), key=lambda kv: -len(kv[1]))[:TOP]
    return _table(
        ["pattern", "pairs", "mean local credibility", "global credibility"],
        [[k, len(v), f"{fmean(v):.3f}", f"{globals_[k]:.3f}"] for k, v in ranked],
    )


def _detector(runs: list[Run]) -> str:
    """Pages per verdict: from the verdict items, else from the detector's counters."""
    rows = []
    for run in runs:
        verdicts, stats = run.verdicts, run.stats
        if verdicts:
            pages = [int(v.get("pages_downloaded", 0)) for v in verdicts]
            bilingual = sum(1 for v in verdicts if v.get("bilingual"))
            rows.append([run.name, len(verdicts), bilingual, f"{fmean(pages):.2f}"])
        elif stats.get("detector/sites"):
            sites = int(stats["detector/sites"])
            pages = int(stats.get("detector/pages", 0))
            rows.append([run.name, sites, stats.get("detector/sites_bilingual", 0),
                         f"{pages / sites:.2f}"])  # fmt: skip
    if not rows:
        return "<p>No site verdicts.</p>"
    return _table(["run", "verdicts", "bilingual", "pages per verdict"], rows)


def _grouped(runs: list[Run], prefix: str) -> str:
    keys = sorted({k for run in runs for k in run.stats if k.startswith(prefix)})
    if not keys:
        return "<p>No calls.</p>"
    return _table(["counter", *(run.name for run in runs)],
                  [[k, *(run.stats.get(k, 0) for run in runs)] for k in keys])  # fmt: skip


def _refusals(runs: list[Run]) -> str:
    keys = sorted({k for run in runs for k in run.stats if REFUSALS.match(k)})
    if not keys:
        return "<p>Nothing refused.</p>"
    return _table(["counter", *(run.name for run in runs)],
                  [[k, *(run.stats.get(k, 0) for run in runs)] for k in keys])  # fmt: skip


def _table(head: list[str], rows: list[list[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{cells}</tr>{body}</table>"
