"""The crawl report: figures and tables from run directories, and a page that a real headless
browser (Debian's chromium) loads with no network and no console error; its screenshot is
written to out/test-report/ (the test's output)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bilingual_spider.output.report import found_by_kind, load_run, write_report
from tests.waiting import CRAWL_SECONDS

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = ROOT / "out" / "test-report"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def make_run(directory: Path, pages_per_step: int, sites_per_step: int) -> Path:
    """A run directory as a crawl leaves it: stats, their history, an item feed."""
    directory.mkdir(parents=True)
    history = []
    for step in range(1, 8):
        history.append({
            "response_received_count": step * pages_per_step,
            "backforth/sites_bilingual": step * sites_per_step,
            "pupsniffer/pairs/local": step * 3,
            "stats_elapsed_seconds": step * 2.0,
            "finish_reason": None,
        })  # fmt: skip
    stats = {
        **history[-1],
        "elapsed_time_seconds": 15.0,
        "finish_reason": "finished",
        "search/moz/requests": 12,
        "search/moz/failed": 1,
        "safety/refused/private_address": 2,
        "robotstxt/forbidden": 5,
        "focus/rejected_tld": 7,
    }
    (directory / "stats.json").write_text(json.dumps(stats))
    (directory / "stats.history.jsonl").write_text("".join(json.dumps(h) + "\n" for h in history))
    items = [
        {"site": "www.sol.es", "languages": ["es", "en"], "found_by": "seed"},
        {"site": "www.mar.fr", "languages": ["fr", "en"], "found_by": "backlink of www.sol.es"},
        {"site": "a.example", "url": "http://a.example/", "bilingual": False, "languages": ["en"],
         "pages_downloaded": 3},
        {"source_url": "http://www.sol.es/en/a.html", "target_url": "http://www.sol.es/es/a.html",
         "method": "local", "pattern": "<en,es>", "local_credibility": 0.8,
         "global_credibility": 0.4},
        {"source_url": "http://www.mar.fr/", "target_url": "http://www.mar.fr/en/",
         "method": "switcher", "pattern": "<en,fr>", "local_credibility": 1.0},
        '{"cut by a crawl still running',
    ]  # fmt: skip
    lines = [item if isinstance(item, str) else json.dumps(item) for item in items]
    (directory / "items.jsonl").write_text("\n".join(lines) + "\n")
    return directory


def test_runs_are_read_with_their_items_and_history(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "cobfc", 100, 2))
    assert (len(run.sites), len(run.pairs), len(run.verdicts), len(run.history)) == (2, 2, 1, 7)
    assert [found_by_kind(s["found_by"]) for s in run.sites] == ["seed", "backlink"]
    assert found_by_kind("forward link of http://hub/") == "forward link"
    assert found_by_kind("round 2: WPR 0.3 from 4 site(s)") == "round 2"
    with pytest.raises(FileNotFoundError, match="stats.json"):
        load_run(tmp_path)


def test_the_report_has_every_figure_embedded_and_as_png(tmp_path: Path) -> None:
    runs = [
        load_run(make_run(tmp_path / name, n, n // 50)) for name, n in [("cobfc", 100), ("fc", 150)]
    ]
    page = write_report(runs, tmp_path / "report")
    text = page.read_text()
    for name in ("harvest", "rate", "sites", "pairs"):
        png = tmp_path / "report" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert text.count("src='data:image/png;base64,") == 4
    assert "<td>cobfc</td>" in text and "<td>fc</td>" in text  # one row per run
    for counter in ("search/moz/failed", "safety/refused/private_address", "robotstxt/forbidden"):
        assert f"<td>{counter}</td>" in text
    assert "<td>&lt;en,es&gt;</td>" in text  # patterns with their credibilities
    # nothing to fetch: no resource outside the page (its links to crawled pages are text)
    assert not re.search(r"<(?:script|link|img)[^>]+(?:src|href)=['\"]?https?:", text)


def console_messages(page: Path, screenshot: Path) -> list[str]:
    """What the page printed to the console in headless Chromium, with no network at all."""
    assert CHROMIUM is not None
    result = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--window-size=1280,2600",
            f"--screenshot={screenshot}",
            page.as_uri(),
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=CRAWL_SECONDS,
        check=False,
    )
    assert screenshot.is_file(), result.stderr[-2000:]
    return [line for line in result.stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run does)")
def test_the_report_loads_in_headless_chromium_with_no_console_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.html"
    broken.write_text("<html><body><script>console.error('boom')</script></body></html>")
    assert console_messages(broken, tmp_path / "broken.png")  # the check sees an error
    runs = [load_run(make_run(tmp_path / "cobfc", 100, 2))]
    page = write_report(runs, tmp_path / "report")
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    screenshot = SCREENSHOT_DIR / "report.png"
    screenshot.unlink(missing_ok=True)
    assert console_messages(page, screenshot) == []
    assert screenshot.stat().st_size > 20_000  # the figures were drawn, not a blank page
    print(f"screenshot of the report: {screenshot}")
