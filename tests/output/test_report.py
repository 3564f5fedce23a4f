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

from bilingual_spider.output.report import (
    found_by_kind,
    load_run,
    pages_of,
    pattern_label,
    write_report,
)
from bilingual_spider.sandbox.process import (
    SandboxServer,
    crawl_env,
    python_command,
    spider_command,
)
from bilingual_spider.sandbox.slug_sites import prepare
from tests.waiting import CRAWL_SECONDS, wait_until

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = ROOT / "out" / "test-report"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def make_run(directory: Path, pages_per_step: int, sites_per_step: int, running: bool = False):
    """A run directory as a crawl leaves it: stats (with what ran), their history, typed feeds
    (and a line of an older, untyped feed), document pairs."""
    directory.mkdir(parents=True)
    history = []
    for step in range(1, 8):
        history.append({
            "backforth/pages": step * pages_per_step,
            "response_received_count": step * pages_per_step + 30,
            "backforth/sites_bilingual": step * sites_per_step,
            "pupsniffer/pairs/local": step * 3,
            "stats_elapsed_seconds": step * 2.0,
            "finish_reason": None,
        })  # fmt: skip
    stats = {
        **history[-1],
        "run/spider": "backforth",
        "run/strategy": "cobfc",
        "run/languages": "any",
        "run/budget": 7 * pages_per_step,
        "run/version": "0.1.0",
        "start_time": "2026-11-26T08:00:00+00:00",
        "elapsed_time_seconds": 15.0,
        "finish_reason": None if running else "finished",
        "search/moz/requests": 12,
        "search/moz/failed": 1,
        "search/brave/requests": 0,
        "safety/refused/private_address": 2,
        "robotstxt/forbidden": 5,
        "focus/rejected_tld": 7,
    }
    (directory / "stats.json").write_text(json.dumps(stats))
    (directory / "stats.history.jsonl").write_text("".join(json.dumps(h) + "\n" for h in history))
    sites = [
        {"type": "bilingual_site", "site": "www.sol.es", "languages": ["es", "en"],
         "found_by": "seed"},
        {"type": "bilingual_site", "site": "www.mar.fr", "languages": ["fr", "en"],
         "found_by": "backlink of www.sol.es"},
    ]  # fmt: skip
    verdicts = [
        {"type": "site_verdict", "site": "a.example", "url": "http://a.example/",
         "bilingual": False, "languages": ["en"], "pages_downloaded": 3},
    ]  # fmt: skip
    pairs = [
        {"type": "url_pair", "source_url": "http://www.sol.es/en/a.html",
         "target_url": "http://www.sol.es/es/a.html", "source_lang": "en", "target_lang": "es",
         "method": "local", "pattern": "<en,es>", "local_credibility": 0.8,
         "global_credibility": 0.4, "verification": {"checks": ["langid", "content"],
         "probability": 0.93}},
        {"source_url": "http://www.mar.fr/", "target_url": "http://www.mar.fr/en/",
         "method": "switcher", "pattern": "<,en>", "local_credibility": 1.0},
    ]  # fmt: skip
    documents = [
        {"type": "document_pair", "url1": "http://www.sol.es/en/a.html",
         "url2": "http://www.sol.es/es/a.html", "lang1": "en", "lang2": "es", "method": "local",
         "text1": "The sun shines on the sea.", "text2": "El sol brilla sobre el mar.",
         "verification": {"checks": ["langid", "content"], "probability": 0.93}},
    ]  # fmt: skip

    def feed(name: str, lines: list) -> None:
        (directory / name).write_text("".join(json.dumps(x) + "\n" for x in lines))

    feed("sites.jsonl", sites)
    feed("verdicts.jsonl", verdicts)
    feed("documents.jsonl", documents)
    (directory / "pairs.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in pairs) + '{"cut by a crawl still running'
    )
    return directory


def test_runs_are_read_with_their_items_and_history(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path / "cobfc", 100, 2))
    counts = (len(run.sites), len(run.pairs), len(run.verdicts), len(run.documents))
    assert counts == (2, 2, 1, 1) and len(run.history) == 7
    assert [found_by_kind(s["found_by"]) for s in run.sites] == ["seed", "backlink"]
    assert found_by_kind("forward link of http://hub/") == "forward link"
    assert found_by_kind("versions of kestrel.com") == "versions of a site"
    assert found_by_kind("round 2: WPR 0.3 from 4 site(s)") == "round 2"
    assert pages_of(run.stats) == 700  # the budget's pages, not the 730 HTTP responses
    assert pattern_label("<en,es>") == "en ↔ es" and pattern_label("<,zh-cn>") == "(none) ↔ zh-cn"
    with pytest.raises(FileNotFoundError, match="stats.json"):
        load_run(tmp_path)


def test_the_report_says_what_ran_explains_each_figure_and_shows_pairs(tmp_path: Path) -> None:
    runs = [
        load_run(make_run(tmp_path / name, n, n // 50)) for name, n in [("cobfc", 100), ("fc", 150)]
    ]
    page = write_report(runs, tmp_path / "report")
    text = page.read_text()
    for name in ("harvest", "rate", "sites", "pairs"):
        png = tmp_path / "report" / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"<h2 id='{name}'>" in text
    assert text.count("src='data:image/png;base64,") == 4
    assert text.count("<p class='explain'>") >= 8  # a sentence for every figure and table
    assert "<dt>strategy</dt><dd>cobfc</dd>" in text and "<dt>spider</dt><dd>backforth</dd>" in text
    assert "<td>cobfc</td><td>finished</td><td>700</td><td>730</td>" in text  # pages, responses
    assert "El sol brilla sobre el mar." in text and "The sun shines on the sea." in text
    assert "href='http://www.sol.es/es/a.html'" in text and "(p=0.93)" in text
    assert "moz: Moz Links API (backlinks)" in text and "brave" not in text  # not called
    assert "network safety refused: private address" in text
    assert "<td>en ↔ es</td>" in text and "<td>(none) ↔ en</td>" in text
    assert "href='../cobfc/pairs.jsonl'" in text  # the run's files
    assert "http-equiv='refresh'" not in text  # the crawls have ended
    # nothing to fetch: no resource outside the page (its links to crawled pages are anchors)
    assert not re.search(r"<(?:script|link|img)[^>]+(?:src|href)=['\"]?https?:", text)


def test_a_running_crawls_report_reloads_itself_and_an_empty_one_draws_nothing(tmp_path):
    running = write_report([load_run(make_run(tmp_path / "now", 100, 2, running=True))],
                           tmp_path / "running").read_text()  # fmt: skip
    assert "http-equiv='refresh'" in running and "still running" in running
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "stats.json").write_text(json.dumps({"finish_reason": "finished"}))
    text = write_report([load_run(empty)], tmp_path / "nothing").read_text()
    assert "<img" not in text and "<h2 id='sample'>" not in text  # no empty chart or table


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


def rendered_dom(page: Path, screenshot: Path) -> str:
    """The page as headless Chromium renders it (its DOM after load), and its screenshot."""
    assert CHROMIUM is not None
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
             "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1280,3000"]  # fmt: skip
    for extra in ([f"--screenshot={screenshot}"], ["--dump-dom"]):
        done = subprocess.run([*flags, *extra, page.as_uri()], capture_output=True, text=True,
                              timeout=CRAWL_SECONDS, check=False)  # fmt: skip
    assert screenshot.is_file(), done.stderr[-2000:]
    return done.stdout


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


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run does)")
def test_a_running_crawls_report_shows_it_running_and_reloads(tmp_path: Path) -> None:
    sites = prepare(tmp_path / "cache")
    config = tmp_path / "slow.toml"
    config.write_text(sites.config.read_text() + '\n[hosts."*"]\nlatency_ms = 60\n')
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(sites.seed_urls()) + "\n")
    run = tmp_path / "run"
    with SandboxServer(["--config", str(config)]) as server:
        settings = {"BILINGUAL_SANDBOX_PROXY": server.proxy_url, "DOWNLOAD_DELAY": 0,
                    "ROBOTSTXT_OBEY": False, "BILINGUAL_STATS_FILE_INTERVAL": 0.3}  # fmt: skip
        command = spider_command("pupsniffer", settings, {"seeds": seeds, "out": run})
        # the log to a file: a pipe nobody reads while the crawl runs fills and blocks it
        log = (tmp_path / "crawl.log").open("w")
        crawl = subprocess.Popen(command, env=crawl_env(), stdout=subprocess.DEVNULL,
                                 stderr=log)  # fmt: skip
        try:

            def running_with_pages() -> bool:
                assert crawl.poll() is None, "the crawl ended before its report was made"
                if not (run / "stats.json").is_file():
                    return False
                stats = json.loads((run / "stats.json").read_text())
                history = (run / "stats.history.jsonl").read_text().splitlines()
                # two snapshots at least: a curve, however fast the pages came on this machine
                return (stats["finish_reason"] is None and stats.get("pupsniffer/pages", 0) > 5
                        and len(history) >= 2)  # fmt: skip

            wait_until(running_with_pages, limit=CRAWL_SECONDS)
            page = write_report([load_run(run)], tmp_path / "report")
        finally:
            crawl.terminate()
            crawl.wait(timeout=CRAWL_SECONDS)
            log.close()
    dom = rendered_dom(page, tmp_path / "running.png")
    assert 'http-equiv="refresh"' in dom and "still running" in dom
    assert "<dt>spider</dt><dd>pupsniffer</dd>" in dom and "<dt>status</dt>" in dom
    assert '<h2 id="harvest">' in dom  # curves from the snapshots taken so far


def test_the_report_says_how_many_declared_pairs_verified_and_were_overruled(tmp_path: Path):
    run = make_run(tmp_path / "pairs", 100, 2)
    stats = json.loads((run / "stats.json").read_text())
    counts = {"judged": 52, "verified": 40, "rescued": 1, "overruled": 14}
    stats.update({f"pupsniffer/declarations/{name}": n for name, n in counts.items()})
    (run / "stats.json").write_text(json.dumps(stats))
    site = {"type": "bilingual_site", "site": "www.claims.fr", "languages": ["en", "fr"],
            "evidence": ["<en,fr> C(k,w)=0.800",
                         "declarations: 39 of 52 verified, 2 corroborated by a URL pattern "
                         "(credibility 0.79), 1 rescued, "
                         "14 overruled"]}  # fmt: skip
    with (run / "sites.jsonl").open("a") as feed:
        feed.write(json.dumps(site) + "\n")
    text = write_report([load_run(run)], tmp_path / "report").read_text()
    assert "<h2 id='declarations'>" in text
    assert "<td>pairs</td><td>52</td><td>40</td><td>1</td><td>14</td>" in text
    assert "<td>www.claims.fr</td><td>39 of 52 verified, 2 corroborated" in text
    quiet = write_report([load_run(make_run(tmp_path / "quiet", 100, 2))], tmp_path / "r2")
    assert "id='declarations'" not in quiet.read_text()  # no declared pair: no section


def test_the_site_figures_count_each_spider_s_sites_apart() -> None:
    """Issue 52: the report added PupSniffer's sites (the ones backforth found, paired) to
    backforth's: 299 + 29 showed as 328 sites."""
    from bilingual_spider.output.report import Run, _sites

    site = {"languages": ["en", "fr"], "found_by": "seed"}
    runs = [
        Run("backforth", {}, sites=[site, site, {**site, "languages": ["de", "en"]}]),
        Run("pupsniffer", {}, sites=[site]),
    ]
    figure = _sites(runs)
    for axis in figure.axes:
        bars = {c.get_label(): sum(b.get_width() for b in c) for c in axis.containers}
        assert bars == {"backforth": 3, "pupsniffer": 1}


def test_watch_started_before_the_crawl_wrote_its_stats_waits_for_them(tmp_path: Path) -> None:
    """Issue 52: ``report --watch`` started in a crawl's first 35 s said "no stats.json (run with
    -a out=DIR)" and ended, though the crawl was given it."""
    run = tmp_path / "run"
    watching = subprocess.Popen(
        [*python_command(), "-m", "bilingual_spider.cli", "report", str(run), "-o",
         str(tmp_path / "report"), "--watch", "0.05"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=crawl_env(),
    )  # fmt: skip
    try:
        assert watching.stdout is not None
        assert watching.stdout.readline().startswith(f"report: waiting for {run / 'stats.json'}")
        make_run(run, pages_per_step=10, sites_per_step=2)  # the crawl's first stats, finished
        out, err = watching.communicate(timeout=CRAWL_SECONDS)
    finally:
        watching.kill()
    assert watching.returncode == 0, err[-2000:]
    assert (tmp_path / "report" / "report.html").is_file()


def test_a_crawl_that_fetched_nothing_reports_no_pages() -> None:
    """Issue 52: with no network the report said "2 pages", "27.9 pages/s" (backforth counts
    the pages whose first request failed)."""
    stats = {"backforth/pages": 2, "fetch/failed/dns": 2, "fetch/nothing": 1}
    assert pages_of(stats) == 0
    assert pages_of({"backforth/pages": 2, "fetch/pages": 2}) == 2
