"""What a page rendered by the headless browser costs against a plain download (issue 37).

    .venv/bin/python benchmarks/render_cost.py [--pairs 50] [--repeats 3] [--concurrency 8]

Writes the script-built sites of :mod:`bilingual_spider.sandbox.script_sites` (the ``no_links``
site: every page's links written by ``/site.js``), serves them, and fetches the same pages (all
the site's pages, ``2 * pairs + 1``) with a bare Scrapy spider, alternately plainly (Scrapy's
HTTP handler) and rendered (scrapy-playwright and Debian's chromium, configured as
``BILINGUAL_RENDER_JS`` configures them: :class:`~bilingual_spider.middlewares.rendering.
RenderingAddon`), ``--repeats`` times each, in one run. Each fetch is a process of its own, so its
CPU time (``os.wait4``: the process and every process it waited for, the browser's included) is
its own.

Reported per mode, median over the repeats: pages/s while the spider runs (first request to
close; the browser's launch included), wall seconds of the whole process, CPU seconds of the
process tree per page, and the links the spider sees per page (what rendering is for: zero on
the plain downloads). A fetch of one page per mode gives the cost of starting (the Python
process; for rendering, the browser too) and so the marginal CPU per page, start left out. JSON
in ``benchmarks/results/render_cost.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
MODES = ("plain", "render")


def worker(mode: str, urls_file: Path, proxy: str, concurrency: int, out: Path) -> None:
    """One fetch of the pages in ``urls_file``; its figures in ``out``."""
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings

    from bilingual_spider.middlewares.rendering import RenderingAddon

    urls = urls_file.read_text().split()
    seen: dict[str, Any] = {"pages": 0, "links": 0, "statuses": {}}

    class Fetch(scrapy.Spider):
        name = "render_cost"

        async def start(self):
            seen["start"] = time.monotonic()
            for url in urls:
                meta = {"proxy": proxy, "playwright": mode == "render"}
                yield scrapy.Request(url, meta=meta, dont_filter=True)

        def parse(self, response):
            seen["pages"] += 1
            seen["links"] += len(response.css("a[href]"))
            status = str(response.status)
            seen["statuses"][status] = seen["statuses"].get(status, 0) + 1

        def closed(self, reason):
            seen["end"] = time.monotonic()

    settings = Settings(
        {
            "BILINGUAL_RENDER_JS": mode == "render",
            "BILINGUAL_RENDER_BROWSER": "chromium",
            "BILINGUAL_RENDER_TIMEOUT": 30.0,
            "BILINGUAL_SANDBOX_PROXY": proxy,
            "CONCURRENT_REQUESTS": concurrency,
            "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency,
            "DOWNLOAD_DELAY": 0,
            "ROBOTSTXT_OBEY": False,
            "LOG_LEVEL": "WARNING",
            "TELNETCONSOLE_ENABLED": False,
        }
    )
    RenderingAddon().update_settings(settings)
    process = CrawlerProcess(settings)
    process.crawl(Fetch)
    process.start()
    seen["crawl_seconds"] = seen["end"] - seen["start"]
    out.write_text(json.dumps(seen))


def measure(mode: str, urls_file: Path, proxy: str, concurrency: int, scratch: Path) -> dict:
    """Run one fetch as a child process; its figures and its process tree's CPU time."""
    out = scratch / f"{mode}.json"
    command = [sys.executable, __file__, "--worker", mode, "--urls", str(urls_file)]
    command += ["--proxy", proxy, "--concurrency", str(concurrency), "--worker-out", str(out)]
    started = time.monotonic()
    child = subprocess.Popen(command)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"the {mode} fetch failed ({child.returncode})")
    seen = json.loads(out.read_text())
    cpu = usage.ru_utime + usage.ru_stime
    return {
        "pages": seen["pages"],
        "statuses": seen["statuses"],
        "pages_per_second": seen["pages"] / seen["crawl_seconds"],
        "crawl_seconds": seen["crawl_seconds"],
        "wall_seconds": wall,
        "cpu_seconds": cpu,
        "cpu_ms_per_page": 1000 * cpu / max(seen["pages"], 1),
        "links_per_page": seen["links"] / max(seen["pages"], 1),
    }


def summary(runs: list[dict]) -> dict:
    keys = ("pages_per_second", "crawl_seconds", "wall_seconds", "cpu_ms_per_page")
    row = {key: statistics.median(run[key] for run in runs) for key in keys}
    row["pages"] = runs[0]["pages"]
    row["links_per_page"] = runs[0]["links_per_page"]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--worker", choices=MODES)
    parser.add_argument("--urls", type=Path)
    parser.add_argument("--proxy")
    parser.add_argument("--worker-out", type=Path)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.urls, args.proxy, args.concurrency, args.worker_out)
        return 0

    from bilingual_spider.sandbox.process import SandboxServer
    from bilingual_spider.sandbox.script_sites import (
        APP_HOST,
        ScriptSitesParams,
        write_script_sites,
    )
    from bilingual_spider.sandbox.textsource import TextSource

    scratch = Path(tempfile.mkdtemp(prefix="render_cost_"))
    try:
        config = write_script_sites(
            scratch / "sites",
            TextSource.from_catalogs(["en", "fr"]),
            ScriptSitesParams(pairs=args.pairs),
        )
        gold = json.loads((scratch / "sites" / "gold.json").read_text())
        urls = [url for pair in gold[APP_HOST]["gold_pairs"] for url in pair] + [
            f"http://{APP_HOST}/"
        ]
        urls_file = scratch / "urls.txt"
        urls_file.write_text("\n".join(urls) + "\n")
        one_file = scratch / "one.txt"
        one_file.write_text(urls[-1] + "\n")
        runs: dict[str, list[dict]] = {mode: [] for mode in MODES}
        ones: dict[str, list[dict]] = {mode: [] for mode in MODES}
        with SandboxServer(["--config", str(config)]) as server:
            for _ in range(args.repeats):
                for mode in MODES:
                    runs[mode].append(
                        measure(mode, urls_file, server.proxy_url, args.concurrency, scratch)
                    )
                    ones[mode].append(
                        measure(mode, one_file, server.proxy_url, args.concurrency, scratch)
                    )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    rows = {mode: summary(runs[mode]) for mode in MODES}
    for mode in MODES:  # the process's and the browser's start left out
        whole = statistics.median(run["cpu_seconds"] for run in runs[mode])
        start = statistics.median(run["cpu_seconds"] for run in ones[mode])
        rows[mode]["start_cpu_seconds"] = start
        rows[mode]["marginal_cpu_ms_per_page"] = 1000 * (whole - start) / (len(urls) - 1)
    plain, render = rows["plain"], rows["render"]
    ratios = {
        "pages_per_second": plain["pages_per_second"] / render["pages_per_second"],
        "cpu_ms_per_page": render["cpu_ms_per_page"] / plain["cpu_ms_per_page"],
        "marginal_cpu_ms_per_page": render["marginal_cpu_ms_per_page"]
        / plain["marginal_cpu_ms_per_page"],
    }
    print(
        f"{len(urls)} pages of {APP_HOST}, concurrency {args.concurrency}, median of {args.repeats}"
    )
    print(
        f"{'mode':8} {'pages/s':>8} {'crawl s':>8} {'wall s':>7} {'CPU ms/page':>12} "
        f"{'links/page':>11} {'start CPU s':>12} {'marginal CPU ms/page':>21}"
    )
    for mode, row in rows.items():
        print(
            f"{mode:8} {row['pages_per_second']:8.1f} {row['crawl_seconds']:8.2f} "
            f"{row['wall_seconds']:7.2f} {row['cpu_ms_per_page']:12.1f} "
            f"{row['links_per_page']:11.1f} {row['start_cpu_seconds']:12.2f} "
            f"{row['marginal_cpu_ms_per_page']:21.1f}"
        )
    print(
        f"rendering: {ratios['pages_per_second']:.1f}x slower, "
        f"{ratios['cpu_ms_per_page']:.1f}x the CPU per page "
        f"({ratios['marginal_cpu_ms_per_page']:.1f}x without the start)"
    )
    result = {
        "pages": len(urls),
        "site": APP_HOST,
        "concurrency": args.concurrency,
        "repeats": args.repeats,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "browser": shutil.which("chromium"),
        "median": rows,
        "render_over_plain": ratios,
        "runs": runs,
        "one_page_runs": ones,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "render_cost.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
