"""A crawl report to look at: one self-contained HTML page (figures embedded, no network) and
its figures as PNG files (matplotlib).

A *run directory* holds what a crawl left (``-a out=DIR``, :mod:`.run_directory`):
``stats.json`` and its history ``stats.history.jsonl`` (one snapshot per interval while the crawl
runs), a feed per item type (``sites.jsonl``, ``verdicts.jsonl``, ``pairs.jsonl``; any other
``*.jsonl`` with typed lines is read too) and, when written there, ``documents.jsonl`` (the
document pairs). :func:`load_run` reads one; :func:`write_report` draws one or several (one
line each in every figure: strategies side by side). The page says:

- what ran (spider, parameters, version, when, how it ended), from the ``run/*`` stats;
- the figures that have something to draw, each with a sentence saying how to read it: harvest
  (bilingual sites and URL pairs against pages fetched, from page 0), pages per second, sites by
  language pair and by how they were found, pairs per site and per method;
- a sample of the pairs: both URLs, languages, method, what was checked, and the first lines of
  both texts side by side (from the document pairs);
- the patterns with their credibilities, the detector's cost, the search/backlink API calls of
  the adapters that were called, what was refused and why, and links to the run's files.

While a crawl runs (``finish_reason`` still null) the page reloads itself every few seconds;
``bilingual-spider report DIR --watch`` rewrites it until the crawl ends.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import fmean
from typing import Any

import matplotlib

from bilingual_spider.output.stats_history import history_path
from bilingual_spider.patterns.declarations import EVIDENCE

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

STATS_FILE = "stats.json"
DOCUMENTS_FILE = "documents.jsonl"
RESPONSES_KEY = "response_received_count"
PAGE_KEYS = ("backforth/pages", "pupsniffer/pages", "detector/pages")
"""The pages a crawl fetched for itself, by spider (API answers and robots.txt not counted)."""
TOP = 20
"""Bars shown in a "top" chart."""
SAMPLE_PAIRS = 12
SAMPLE_CHARS = 300
RELOAD_SECONDS = 5
REFUSALS = re.compile(r"^(safety/refused/|robotstxt/forbidden|focus/(?!kept)|quality/rejected/)")
REFUSAL_NAMES = {
    "safety/refused/": "network safety refused",
    "robotstxt/forbidden": "robots.txt forbade",
    "focus/": "language focus",
    "quality/rejected/": "quality focus rejected",
}
ADAPTERS = {
    "moz": "Moz Links API (backlinks)",
    "brave": "Brave Search API (web search)",
    "google_cse": "Google Custom Search (web search)",
    "cc_index": "Common Crawl URL index",
    "cc_columnar": "Common Crawl columnar index",
    "cc_hostgraph": "Common Crawl host graph (backlinks)",
    "embedded": "the crawl's own link graph (backlinks)",
    "crawl_graph": "the crawl's own link graph",
}
TYPES = {
    "bilingual_site": "sites",
    "site_verdict": "verdicts",
    "url_pair": "pairs",
    "document_pair": "documents",
}
EXPLAIN = {
    "harvest": "How fast the crawl found what it looks for: bilingual sites (left) and URL pairs "
    "(right) against the pages it had fetched, from the first page. A steeper line is a better "
    "crawl. PupSniffer mines a site's URL pairs once that site's pages are in (at the end of "
    "a round), so its pair curve rises in steps, often a single one on a short run.",
    "rate": "Pages fetched per second over the crawl's time (between two snapshots of the stats).",
    "sites": "The bilingual sites found: the two main languages of each (left), and how the crawl "
    "reached them (right): a seed, a forward link of a page, a backlink page of a site found "
    "before, or a later PupSniffer round.",
    "pairs": "The URL pairs: the sites with most pairs (left), and the method that found them "
    "(right): a URL pattern (local, rescue), a deep page checked over HTTP (deep), the page's "
    "own hreflang links or language switcher, a search, or a translation group (group: two "
    "translations of one page, paired through the pages they were each paired with).",
}


@dataclass
class Run:
    """What one crawl left."""

    name: str
    stats: dict[str, Any]
    history: list[dict[str, Any]] = field(default_factory=list)
    sites: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    documents: list[dict[str, Any]] = field(default_factory=list)
    directory: Path | None = None
    files: list[Path] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return not self.stats.get("finish_reason")


def load_run(directory: str | Path) -> Run:
    """The run in ``directory``: its stats, their history, and every typed line of its feeds."""
    directory = Path(directory)
    stats_path = directory / STATS_FILE
    if not stats_path.is_file():
        raise FileNotFoundError(f"{directory}: no {STATS_FILE} (run with -a out=DIR)")
    run = Run(directory.name, json.loads(stats_path.read_text()), directory=directory)
    history = history_path(stats_path)
    if history.is_file():
        run.history = _json_lines(history)
    run.files = sorted(p for p in directory.iterdir() if not p.name.startswith("."))
    for feed in sorted(directory.glob("*.jsonl")):
        if feed == history:
            continue
        for item in _json_lines(feed):
            kind = TYPES.get(item.get("type", "")) or _untyped_kind(item)
            if kind:
                getattr(run, kind).append(item)
    return run


def _untyped_kind(item: dict[str, Any]) -> str | None:
    """The kind of a line written before items carried their ``type``."""
    if "url1" in item and "text1" in item:
        return "documents"
    if "source_url" in item and "target_url" in item:
        return "pairs"
    if "bilingual" in item and "pages_downloaded" in item:
        return "verdicts"
    if "site" in item and "languages" in item:
        return "sites"
    return None


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
    """The pages the crawl fetched for itself (its budget's pages); HTTP responses for a crawl
    that counts none (API answers and robots.txt included); 0 for a crawl that fetched nothing
    (``fetch/nothing``: its spider counts the pages that failed)."""
    if stats.get("fetch/nothing"):
        return 0
    for key in PAGE_KEYS:
        if key in stats:
            return int(stats[key])
    forward = sum(int(v) for k, v in stats.items() if k.startswith("pages/"))
    return forward or int(stats.get(RESPONSES_KEY, 0))


def bilingual_sites_of(stats: dict[str, Any]) -> int:
    return int(stats.get("backforth/sites_bilingual", stats.get("pupsniffer/sites_bilingual", 0)))


def pairs_of(stats: dict[str, Any]) -> int:
    return sum(int(v) for k, v in stats.items() if k.startswith("pupsniffer/pairs/"))


def found_by_kind(found_by: str) -> str:
    """``seed``, ``forward link``, ``backlink``, ``round N``, ``search``, ``versions of a site``
    (PupSniffer's sites its pages name their versions on) or ``other``."""
    text = found_by.lower()
    if text.startswith("versions of "):
        return "versions of a site"
    for kind in ("seed", "backlink", "forward", "search"):
        if text.startswith(kind) or f" {kind}" in text:
            return "forward link" if kind == "forward" else kind
    if text.startswith("round"):
        return text.split(":")[0]
    return "other" if text else "unknown"


def pattern_label(pattern: str) -> str:
    """A pairing pattern as a reader takes it: ``<en,fr>`` -> ``en ↔ fr``; a side with no unit
    (one URL marked, the other not: ``<,zh-cn>``) -> ``(none) ↔ zh-cn``."""
    match = re.fullmatch(r"<(.*),(.*)>", pattern or "")
    if not match:
        return pattern or "(none)"
    return " ↔ ".join(side or "(none)" for side in match.groups())


# --- figures ------------------------------------------------------------------------------------


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
        (out / f"{name}.png").unlink(missing_ok=True)
        if figure is None:
            continue
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100)
        plt.close(figure)
        (out / f"{name}.png").write_bytes(buffer.getvalue())
        images[name] = base64.b64encode(buffer.getvalue()).decode("ascii")
    page = out / "report.html"
    temporary = page.with_name(".report.html.tmp")
    temporary.write_text(_html(runs, images, out), encoding="utf-8")
    os.replace(temporary, page)  # a browser reloading it never reads half a page
    return page


def _harvest(runs: list[Run]) -> Any:
    curves = {run.name: _points(run) for run in runs}
    if not any(len(points) > 2 for points in curves.values()):
        return None
    figure, (sites_axis, pairs_axis) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    for name, points in curves.items():
        pages = [pages_of(s) for s in points]
        sites_axis.plot(pages, [bilingual_sites_of(s) for s in points], label=name)
        pairs_axis.plot(pages, [pairs_of(s) for s in points], label=name)
    sites_axis.set(title="Bilingual sites found", xlabel="pages fetched", ylabel="sites")
    pairs_axis.set(title="URL pairs found", xlabel="pages fetched", ylabel="pairs")
    for axis in (sites_axis, pairs_axis):
        axis.set_xlim(left=0)
        axis.set_ylim(bottom=0, top=max(1.0, axis.get_ylim()[1]))  # nothing found yet: 0 to 1
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.yaxis.set_major_locator(MaxNLocator(integer=True))
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    return figure


def _points(run: Run) -> list[dict[str, Any]]:
    """The run's snapshots from its start (nothing fetched, nothing found) to now; the final
    stats when they say more than the last snapshot."""
    points = [{"stats_elapsed_seconds": 0.0}, *run.history]
    if pages_of(run.stats) != pages_of(points[-1]) or len(points) == 1:
        points.append(run.stats)
    return points


def _rate(runs: list[Run]) -> Any:
    series = {run.name: _rates(run) for run in runs}
    if not any(len(points) >= 3 for points in series.values()):
        return None
    figure, axis = plt.subplots(figsize=(11, 3), layout="constrained")
    for name, points in series.items():
        axis.plot([t for t, _ in points], [r for _, r in points], marker=".", label=name)
    axis.set(title="Pages per second", xlabel="seconds since the start", ylabel="pages/s")
    axis.set_ylim(bottom=0)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    return figure


def _rates(run: Run) -> list[tuple[float, float]]:
    points = []
    snapshots = _points(run)
    for before, after in zip(snapshots, snapshots[1:], strict=False):
        elapsed = _seconds(after) - _seconds(before)
        if elapsed > 0:
            points.append((_seconds(after), (pages_of(after) - pages_of(before)) / elapsed))
    return points


def _seconds(stats: dict[str, Any]) -> float:
    return float(stats.get("elapsed_time_seconds") or stats.get("stats_elapsed_seconds") or 0.0)


def _sites(runs: list[Run]) -> Any:
    """Bilingual sites by language pair and by how they were reached, a bar per run: a site
    both spiders report (PupSniffer pairs the sites backforth found) is counted by each, not
    added up (issue 52: 299 sites + PupSniffer's 29 again showed 328)."""
    by_languages, by_found = sites_by_run(runs)
    if not by_languages:
        return None
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    _run_bars(left, by_languages, "Bilingual sites by language pair")
    _run_bars(right, by_found, "Bilingual sites by how they were reached")
    return figure


def sites_by_run(runs: list[Run]) -> tuple[dict[str, Counter], dict[str, Counter]]:
    """Each run's bilingual sites by language pair and by how they were reached (runs with
    sites only)."""
    by_languages: dict[str, Counter] = {}
    by_found: dict[str, Counter] = {}
    for run in runs:
        if run.sites:
            by_languages[run.name] = Counter(
                " + ".join(sorted(site.get("languages", [])[:2])) for site in run.sites
            )
            by_found[run.name] = Counter(
                found_by_kind(site.get("found_by", "")) for site in run.sites
            )
    return by_languages, by_found


def _run_bars(axis: Any, per_run: dict[str, Counter], title: str) -> None:
    """The most common labels over every run, a bar of each run's count side by side."""
    if len(per_run) == 1:
        ((_, counted),) = per_run.items()
        _bars(axis, counted.most_common(TOP), title)
        return
    total: Counter = sum(per_run.values(), Counter())
    labels = [label for label, _ in total.most_common(TOP)][::-1]
    height = 0.8 / len(per_run)
    for number, (name, counted) in enumerate(per_run.items()):
        places = [i + number * height for i in range(len(labels))]
        axis.barh(places, [counted.get(label, 0) for label in labels], height, label=name)
    axis.set_yticks([i + 0.4 - height / 2 for i in range(len(labels))])
    axis.set_yticklabels([_short(label) for label in labels])
    axis.legend(fontsize=8)
    axis.set_title(title)
    axis.set_xlabel("count")
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    axis.tick_params(axis="y", labelsize=8)


def _pairs(runs: list[Run]) -> Any:
    pairs = [pair for run in runs for pair in run.pairs]
    if not pairs:
        return None
    by_site = Counter(_host(pair["source_url"]) for pair in pairs)
    by_method = Counter(pair.get("method") or "?" for pair in pairs)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    _bars(left, by_site.most_common(TOP), "URL pairs per site")
    _bars(right, by_method.most_common(TOP), "URL pairs per method")
    return figure


def _bars(axis: Any, counted: list[tuple[str, int]], title: str) -> None:
    labels = [_short(label) for label, _ in counted][::-1]
    axis.barh(labels, [n for _, n in counted][::-1])
    axis.set_title(title)
    axis.set_xlabel("count")
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    axis.tick_params(axis="y", labelsize=8)


def _short(label: str, width: int = 32) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def _host(url: str) -> str:
    return url.split("/")[2] if url.count("/") >= 2 else url


# --- the page -----------------------------------------------------------------------------------

CSS = (
    "body{font-family:sans-serif;margin:2em;max-width:1250px;color:#222}"
    "table{border-collapse:collapse;margin:0.5em 0 1em}td,th{border:1px solid #ccc;"
    "padding:3px 8px;text-align:right;vertical-align:top}th{background:#eee}"
    "td:first-child{text-align:left}td.text{text-align:left;font-size:0.85em;max-width:30em}"
    "p.explain{color:#555;max-width:60em}img{max-width:100%}dl{display:grid;"
    "grid-template-columns:max-content auto;gap:2px 1em}dt{font-weight:bold}dd{margin:0}"
    ".running{color:#b60}"
)


def _html(runs: list[Run], images: dict[str, str], out: Path) -> str:
    running = any(run.running for run in runs)
    reload = f"<meta http-equiv='refresh' content='{RELOAD_SECONDS}'>" if running else ""
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>{reload}",
        f"<title>bilingual_spider crawl report</title><style>{CSS}</style></head><body>",
        "<h1>Crawl report</h1>",
    ]
    if running:
        parts.append(
            f"<p class='running'>A crawl is still running: this page reloads every "
            f"{RELOAD_SECONDS} s while <code>bilingual-spider report --watch</code> rewrites it."
            "</p>"
        )
    parts += [_header(run) for run in runs]
    parts.append("<h2>Summary</h2>" + _summary(runs))
    for name, title in (
        ("harvest", "Harvest"),
        ("rate", "Pages per second"),
        ("sites", "Sites"),
        ("pairs", "Pairs"),
    ):
        if name in images:
            parts.append(
                f"<h2 id='{name}'>{title}</h2><p class='explain'>{html.escape(EXPLAIN[name])}</p>"
                f"<img alt='{title}' src='data:image/png;base64,{images[name]}'>"
            )
    sections = [
        ("sample", "A sample of the pairs", _sample(runs)),
        ("patterns", "URL pairing patterns", _patterns(runs)),
        ("declarations", "What the sites declare of their translations", _declarations(runs)),
        ("detector", "The bilingual-site detector's cost", _detector(runs)),
        ("search", "Search and backlink APIs", _search(runs)),
        ("refusals", "What was not crawled, and why", _refusals(runs)),
        ("files", "Files", _files(runs, out)),
    ]
    for anchor, title, body in sections:
        if body:
            parts.append(f"<h2 id='{anchor}'>{title}</h2>{body}")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _header(run: Run) -> str:
    """What ran: the ``run/*`` stats, the start, the end."""
    info = {k[4:]: v for k, v in run.stats.items() if k.startswith("run/")}
    spider = info.pop("spider", "?")
    rows = [("spider", spider), *((k.replace("_", " "), v) for k, v in sorted(info.items()))]
    rows.append(("started", str(run.stats.get("start_time", "?"))[:19].replace("T", " ")))
    seconds = float(run.stats.get("elapsed_time_seconds") or _seconds(run.stats))
    status = run.stats.get("finish_reason") or "running"
    rows.append(("ended" if not run.running else "status", f"{status} after {seconds:.0f} s"))
    cells = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(str(v))}</dd>" for k, v in rows)
    return f"<h2>Run {html.escape(run.name)}</h2><dl>{cells}</dl>"


def _summary(runs: list[Run]) -> str:
    rows = []
    for run in runs:
        seconds = float(run.stats.get("elapsed_time_seconds") or _seconds(run.stats))
        pages = pages_of(run.stats)
        rows.append([
            run.name, run.stats.get("finish_reason") or "running", pages,
            run.stats.get(RESPONSES_KEY, 0), f"{seconds:.0f}",
            f"{pages / seconds:.1f}" if seconds else "-",
            bilingual_sites_of(run.stats) or len(run.sites), pairs_of(run.stats) or len(run.pairs),
        ])  # fmt: skip
    explain = (
        "<p class='explain'><b>pages</b>: the pages the crawl fetched for itself (first pages, "
        "probes, backlink and forward pages, the pages of a site being paired); <b>HTTP "
        "responses</b> also count search and backlink API answers and robots.txt files.</p>"
    )
    head = ["run", "finish", "pages", "HTTP responses", "seconds", "pages/s", "bilingual sites",
            "URL pairs"]  # fmt: skip
    return _table(head, rows) + explain


def _sample(runs: list[Run]) -> str:
    """Pairs with both texts' first lines, from the document pairs (else the pairs alone)."""
    documents = [d for run in runs for d in run.documents]
    pairs = documents or [p for run in runs for p in run.pairs]
    if not pairs:
        return ""
    step = max(1, len(pairs) // SAMPLE_PAIRS)
    rows = []
    for pair in pairs[::step][:SAMPLE_PAIRS]:
        url1 = pair.get("url1") or pair.get("source_url", "")
        url2 = pair.get("url2") or pair.get("target_url", "")
        lang1 = pair.get("lang1") or pair.get("source_lang", "")
        lang2 = pair.get("lang2") or pair.get("target_lang", "")
        checks = pair.get("verification") or {}
        checked = ", ".join(checks.get("checks", []))
        if "probability" in checks:
            checked += f" (p={float(checks['probability']):.2f})"
        row = (
            f"<tr><td>{_link(url1)}<br>{_link(url2)}</td><td>{html.escape(lang1)} ↔ "
            f"{html.escape(lang2)}</td><td>{html.escape(str(pair.get('method', '')))}</td>"
            f"<td>{html.escape(checked)}</td>"
        )
        if documents:
            row += "".join(
                f"<td class='text'>{html.escape(_start(pair.get(key, '')))}</td>"
                for key in ("text1", "text2")
            )
        rows.append(row + "</tr>")
    head = ["URLs", "languages", "method", "checked"] + (["text 1", "text 2"] if documents else [])
    cells = "".join(f"<th>{h}</th>" for h in head)
    shown = "all" if step == 1 else f"one in {step} of the"
    note = (
        f"<p class='explain'>{shown.capitalize()} {len(pairs)} "
        f"{'document pairs (pairs with their texts)' if documents else 'URL pairs'}, in the "
        "order the crawl reported them. <b>checked</b>: "
        "language identification of both pages (langid), PupSniffer's link similarity "
        "(similarity), an HTTP check of a generated URL (http), and the content verifier "
        "(content, with its probability that the pages translate each other); declared: a "
        "page names the other (hreflang, sitemap, switcher or toggle), a claim checked like "
        "any pair.</p>"
    )
    return f"{note}<table><tr>{cells}</tr>{''.join(rows)}</table>"


def _start(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SAMPLE_CHARS else text[:SAMPLE_CHARS] + "…"


def _link(url: str) -> str:
    return f"<a href='{html.escape(url, quote=True)}'>{html.escape(url)}</a>"


def _patterns(runs: list[Run]) -> str:
    rows: dict[str, list[float]] = defaultdict(list)
    globals_: dict[str, float] = {}
    for run in runs:
        for pair in run.pairs:
            pattern = pair.get("pattern") or ""
            if not pattern:
                continue
            rows[pattern].append(float(pair.get("local_credibility") or 0.0))
            globals_[pattern] = float(pair.get("global_credibility") or 0.0)
    if not rows:
        return ""
    ranked = sorted(rows.items(), key=lambda kv: -len(kv[1]))[:TOP]
    explain = (
        "<p class='explain'>A pattern <code>en ↔ fr</code> pairs two URLs that are the same "
        "but for that unit (<code>/en/</code> and <code>/fr/</code>); <code>(none)</code>: "
        "one URL has the unit, the other nothing in its place. <b>Local credibility</b>: the "
        "share of a site's pages the pattern pairs (Zhang et al. 2018, eq. 3); <b>global "
        "credibility</b>: the same over every site, weighted by their size (eq. 4).</p>"
    )
    return explain + _table(
        ["pattern", "pairs", "mean local credibility", "global credibility"],
        [[pattern_label(k), len(v), f"{fmean(v):.3f}", f"{globals_[k]:.3f}"] for k, v in ranked],
    )


def _declarations(runs: list[Run]) -> str:
    """The pairs sites declare (hreflang, sitemaps, switchers, toggles): how many the checks
    verified and how many they overruled, by run and for the sites that declared most."""
    keys = ("judged", "verified", "rescued", "overruled")
    rows = [
        [run.name, *(run.stats.get(f"pupsniffer/declarations/{k}", 0) for k in keys)]
        for run in runs
        if run.stats.get("pupsniffer/declarations/judged")
    ]
    if not rows:
        return ""
    sites = [
        [site.get("site", ""), line.split(": ", 1)[1]]
        for run in runs
        for site in run.sites
        for line in site.get("evidence", [])
        if line.startswith(f"{EVIDENCE}: ")
    ]
    explain = (
        "<p class='explain'>A page's hreflang, its site's sitemap, a switcher or a toggle names "
        "its translation: a claim, checked like any pair (languages, shared links, content). "
        "<b>verified</b>: kept by the checks; <b>rescued</b>: a borderline translation kept "
        "because nine in ten of its site's declarations verify; <b>overruled</b>: rejected by a "
        "check, or outweighed by a better attested pair of one of its pages.</p>"
    )
    table = _table(["run", "declared pairs", "verified", "rescued", "overruled"], rows)
    if sites:
        table += _table(["site", "its declarations"], sites[:TOP])
    return explain + table


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
        return ""
    explain = (
        "<p class='explain'>Each site reached is judged once: its first page, then the few pages "
        "its language links point to (Barbosa et al. 2011). <b>pages per verdict</b> is what a "
        "judgement cost.</p>"
    )
    return explain + _table(["run", "sites judged", "bilingual", "pages per verdict"], rows)


def _search(runs: list[Run]) -> str:
    """The adapters that were called: calls, answers, failures."""
    counters = ("requests", "found", "empty", "cached", "throttled", "retried", "failed",
                "gave_up")  # fmt: skip
    rows = []
    for run in runs:
        used = sorted({k.split("/")[1] for k in run.stats if k.startswith("search/")})
        for adapter in used:
            values = [run.stats.get(f"search/{adapter}/{c}", 0) for c in counters]
            if any(values):
                name = f"{adapter}: {ADAPTERS.get(adapter, adapter)}"
                rows.append([run.name, name, *values])
    if not rows:
        return ""
    explain = (
        "<p class='explain'>Calls of each search or backlink adapter the crawl used. Against "
        "the sandbox web, each adapter speaks to the sandbox's fake of its service.</p>"
    )
    return explain + _table(["run", "adapter", *(c.replace("_", " ") for c in counters)], rows)


def _refusals(runs: list[Run]) -> str:
    keys = sorted({k for run in runs for k in run.stats if REFUSALS.match(k)})
    if not keys:
        return ""
    return _table(
        ["why", *(run.name for run in runs)],
        [[_refusal_label(k), *(run.stats.get(k, 0) for run in runs)] for k in keys],
    )


def _refusal_label(key: str) -> str:
    for prefix, name in REFUSAL_NAMES.items():
        if key.startswith(prefix):
            rest = key[len(prefix) :].replace("_", " ").replace("/", ": ")
            return f"{name}: {rest}" if rest else name
    return key


def _files(runs: list[Run], out: Path) -> str:
    items = []
    for run in runs:
        for path in run.files:
            target = os.path.relpath(path, out)
            suffix = "/" if path.is_dir() else ""
            label = html.escape(f"{run.name}/{path.name}{suffix}")
            items.append(f"<li><a href='{html.escape(target, quote=True)}'>{label}</a></li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _table(head: list[str], rows: list[list[Any]]) -> str:
    cells = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{cells}</tr>{body}</table>"
