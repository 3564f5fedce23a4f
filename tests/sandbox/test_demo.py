"""The demo, small: what it prints, its feeds, its stats and its report say the same counts; a
second demo with the same seed finds the same and leaves no more files; the report opens in
headless Chromium with its header, figures and pair sample."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from bilingual_spider.output.report import load_run, pages_of, pairs_of
from bilingual_spider.sandbox.demo import pair_seeds_of, real_hosts, run_demo
from bilingual_spider.sandbox.realsites import sites_json_path
from tests.output.test_report import CHROMIUM, rendered_dom
from tests.sandbox.test_readme_demo import ELIDED, readme_sample, shape

PAGES, WORLD_SITES, SITE_BUDGET = 150, 120, 10


def demo(out: Path) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert run_demo(PAGES, out, world_sites=WORLD_SITES, pair_site_budget=SITE_BUDGET) == 0
    return printed.getvalue()


def files(out: Path) -> list[str]:
    """The files under ``out``, the dates in their names left out (WARC files are named so)."""
    return sorted(re.sub(r"\d{8,}", "DATE", str(p.relative_to(out))) for p in out.rglob("*"))


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    work = tmp_path_factory.mktemp("demo")
    out = work / "out" / "demo"
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(work)  # its paths printed as make demo prints them: out/demo/...
        first = demo(Path("out/demo"))
        sites_first = (out / "backforth" / "sites.jsonl").read_text()
        files_first = files(out)
        second = demo(Path("out/demo"))
    assert (out / "backforth" / "sites.jsonl").read_text() == sites_first  # the same finds
    assert files(out) == files_first  # nothing piles up
    return out, first, second


def test_console_stats_feeds_and_report_count_the_same(demo_run) -> None:
    out, printed, again = demo_run
    assert printed.splitlines()[1:] == again.splitlines()[1:]  # same seed, same demo
    crawl, pairing = load_run(out / "backforth"), load_run(out / "pupsniffer")
    sites = lines(out / "backforth" / "sites.jsonl")
    verdicts = lines(out / "backforth" / "verdicts.jsonl")
    pairs = lines(out / "pupsniffer" / "pairs.jsonl")
    assert {s["type"] for s in sites} == {"bilingual_site"}
    assert {v["type"] for v in verdicts} == {"site_verdict"}
    assert {p["type"] for p in pairs} == {"url_pair"}
    summary = re.search(
        r"(\d+) hosts reported bilingual .* of (\d+) judged"
        r"(?: \((\d+) could not be judged\))?, in (\d+) pages",
        printed,
    )
    assert summary is not None, printed[:500]
    found, judged, not_judged, pages = (int(group or 0) for group in summary.groups())
    assert found == len(sites) == crawl.stats["backforth/sites_bilingual"]
    assert judged == len(verdicts)
    assert not_judged == sum(v["status"] == "not_judged" for v in verdicts)
    assert not_judged == crawl.stats.get("detector/sites_not_judged", 0)
    assert pages == crawl.stats["backforth/pages"] == pages_of(crawl.stats)
    assert PAGES <= pages <= PAGES + 1  # one request at a time: at most one in flight at the end
    paired = re.search(r"(\d+) URL pairs .* in (\d+) pages; (\d+) document pairs", printed)
    assert paired is not None, printed[-800:]
    assert int(paired[1]) == len(pairs) == pairs_of(pairing.stats) > 0
    assert int(paired[2]) == pairing.stats["pupsniffer/pages"]
    assert int(paired[3]) == len(lines(out / "pupsniffer" / "documents.jsonl"))
    report = (out / "report" / "report.html").read_text()
    row = f"<td>backforth</td><td>budget</td><td>{pages}</td>"
    assert row in report and f"<td>{len(sites)}</td><td>0</td></tr>" in report
    assert f"<td>{len(pairs)}</td></tr></table>" in report  # pupsniffer's row ends the table
    if len(sites) > 20:
        assert f"{len(sites) - 20} more in" in printed


def test_the_demo_pairs_the_real_sites_it_found_and_prints_their_pairs_first(demo_run) -> None:
    """Issue 52: PupSniffer was seeded with the real sites' host roots, which the sandbox does not
    serve (404): all its pairs were of generated sites."""
    out, printed, _ = demo_run
    hosts = real_hosts(json.loads(sites_json_path().read_text()))  # the demo prepared them
    found = {site["site"] for site in lines(out / "backforth" / "sites.jsonl")} & hosts
    assert found, "the small demo finds real sites (they are its first seeds)"
    pairs = lines(out / "pupsniffer" / "pairs.jsonl")
    real = [pair for pair in pairs if pair["source_url"].split("/")[2] in hosts]
    assert {pair["source_url"].split("/")[2] for pair in real} == found  # each one paired
    said = re.search(rf"^{len(real)} pairs on the real sites \(real pages\)", printed, re.M)
    assert said is not None, printed[-2000:]
    assert said.start() < printed.index("pairs on the generated sites (generated texts)")


def test_every_line_of_the_readme_sample_has_the_shape_of_a_line_printed_in_its_order(
    demo_run,
) -> None:
    """The README's sample is of the full demo (its figures: tests/sandbox/test_readme_demo.py);
    this smaller demo prints the same lines, in the same order, with its own figures, hosts
    and pairs."""
    _, printed, _ = demo_run
    shapes = [shape(line) for line in printed.splitlines()]
    sample = [line for line in readme_sample() if line != ELIDED]
    assert len(sample) >= 20
    position = 0
    for line in sample:
        assert shape(line) in shapes[position:], f"no line shaped so (or not in order): {line!r}"
        position = shapes.index(shape(line), position) + 1


def test_pair_seeds_are_the_pages_the_real_sites_serve_then_generated_roots() -> None:
    real = [
        {"host": "www.debian.org", "seed_url": "http://www.debian.org/doc/a/", "bilingual": True},
        {"host": "www.debian.org", "seed_url": "http://www.debian.org/doc/b/", "bilingual": True},
        {"host": "www.debian.org", "seed_url": "http://www.debian.org/doc/c/", "bilingual": False},
        {"host": "lilypond.org", "seed_url": "http://lilypond.org/doc/web/index.html",
         "bilingual": True},
    ]  # fmt: skip
    found = [{"site": "www.gen1.com"}, {"site": "www.debian.org"}, {"site": "lilypond.org"}]
    paired, seeds = pair_seeds_of(found, real)
    assert [item["site"] for item in paired] == ["www.debian.org", "lilypond.org", "www.gen1.com"]
    assert seeds == [
        "http://www.debian.org/doc/a/",
        "http://www.debian.org/doc/b/",
        "http://lilypond.org/doc/web/index.html",
        "http://www.gen1.com/",
    ]


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run does)")
def test_the_demo_report_shows_what_ran_its_curves_and_pairs_in_a_browser(demo_run) -> None:
    out, _, _ = demo_run
    dom = rendered_dom(out / "report" / "report.html", out / "report.png")
    assert "<dt>strategy</dt><dd>cobfc</dd>" in dom  # the header: what ran
    for figure in ("harvest", "rate", "sites", "pairs"):
        assert f'<h2 id="{figure}">' in dom
    assert dom.count('src="data:image/png;base64,') == 4
    assert '<h2 id="sample">' in dom and "<th>text 1</th>" in dom
    assert (out / "report.png").stat().st_size > 50_000
