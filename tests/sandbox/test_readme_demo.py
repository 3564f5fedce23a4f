"""The README's sample of what ``make demo`` prints (issue 52: the sample matched no run).

The full demo takes 5-6 minutes of a 2-core CI run, so the suite checks the sample in three
cheaper parts: the command ``make demo`` runs is the demo with the defaults the sample's first
line names (checked here, exactly); the sample's figures agree with each other and with what
the demo shows of them (here); and every line of the sample has the shape of a line the small
demo of ``tests/sandbox/test_demo.py`` prints, in the same order (there, on its run). What is
left to ``make demo`` itself: that the figures are those of this seed's full run.
A line ``...`` stands for lines left out of the sample."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from bilingual_spider.cli import build_parser
from bilingual_spider.sandbox.demo import (
    DEMO_WORLD_SITES,
    PAIRED_SITES,
    SHOWN_PAIRS,
    SHOWN_SITES,
    run_demo,
)
from bilingual_spider.sandbox.realsites import sandbox_seed_urls

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
ELIDED = "..."
_URL = re.compile(r"https?://\S+")
_HOST = re.compile(r"\b(?:[a-z0-9-]+\.)+[a-z]{2,}\b")
_NUMBER = re.compile(r"\d+")
_PER_SITE = re.compile(r"HOST N(?:, HOST N)*(?:, \.\.\.)?")
_PER_METHOD = re.compile(r"\((?:[a-z]+ N, )*[a-z]+ N\)")
_LANG = r"[a-z]{2,3}(?:-[A-Z][a-z]{3})?"
_SITE_LANGUAGES = re.compile(rf"(?<=^HOST)\s{{2,}}{_LANG}(?: {_LANG})*(?=\s{{2,}})")
_PAIR_LANGUAGES = re.compile(rf"^  {_LANG}-{_LANG}(?=\s)")


def readme_sample() -> list[str]:
    """The lines of the README's ``text`` block that shows the demo's output."""
    text = README.read_text(encoding="utf-8")
    start = text.index("```text\n", text.index("## Two commands")) + len("```text\n")
    return text[start : text.index("```", start)].splitlines()


def shape(line: str) -> str:
    """A printed line with what a run decides left out: URLs, host names, numbers, a site's
    languages and a pair's, which sites and methods have counts; the words, their order and
    the kind of each value stay."""
    line = _NUMBER.sub("N", _HOST.sub("HOST", _URL.sub("URL", line)))
    line = _PAIR_LANGUAGES.sub("  LANG-LANG", _SITE_LANGUAGES.sub("  LANGS", line))
    line = _PER_METHOD.sub("(COUNTS)", _PER_SITE.sub("HOSTS", line))
    return " ".join(line.split())


def run_demo_defaults() -> dict:
    """``run_demo``'s keyword defaults: the demo ``make demo`` runs."""
    return {name: p.default for name, p in inspect.signature(run_demo).parameters.items()}


def test_make_demo_runs_the_demo_with_the_defaults_the_sample_names() -> None:
    assert "\tbilingual-spider demo\n" in (ROOT / "Makefile").read_text().replace("$(BIN)/", "")
    args = build_parser().parse_args(["demo"])
    defaults = run_demo_defaults()
    assert (args.pages, args.out, args.strategy) == (
        defaults["pages"], str(defaults["out_dir"]), defaults["strategy"]
    )  # fmt: skip
    real, world = len(sandbox_seed_urls()), DEMO_WORLD_SITES
    first = (
        f"sandbox web: {real} real sites + a generated world of {world} sites; "
        f"back-and-forth crawl ({args.strategy}) of {args.pages} pages ..."
    )
    assert readme_sample()[0] == first  # the line the demo prints first, exactly
    text = " ".join(README.read_text(encoding="utf-8").split())
    assert f"a web of {DEMO_WORLD_SITES:,} sites" in text and f"for {args.pages:,} pages" in text
    assert f"pairs the pages of {PAIRED_SITES} of the bilingual sites found" in text


def numbers(pattern: str, sample: str) -> list[int]:
    found = re.search(pattern, sample, re.M)
    assert found is not None, f"the sample has no line {pattern!r}"
    return [int(group or 0) for group in found.groups()]


def test_the_sample_s_figures_agree_with_each_other() -> None:
    sample = "\n".join(readme_sample())
    found, right, judged, _, pages = numbers(
        r"^(\d+) hosts reported bilingual \((\d+) right .* of (\d+) judged"
        r"(?: \((\d+) could not be judged\))?, in (\d+) pages:$",
        sample,
    )
    assert right <= found <= judged and pages >= run_demo_defaults()["pages"]
    assert numbers(r"^\.\.\. (\d+) more in out/demo/backforth/sites\.jsonl$", sample) == [
        found - SHOWN_SITES
    ]
    asked, real_asked = numbers(
        r"^pairing the pages of (\d+) of those sites, (\d+) of them", sample
    )
    assert asked == min(found, PAIRED_SITES) and real_asked <= asked
    summary = re.search(r"^(\d+) URL pairs \((.*)\) on (\d+) of the (\d+) sites", sample, re.M)
    assert summary is not None
    methods = [int(count) for count in re.findall(r"\w+ (\d+)", summary[2])]
    total = int(summary[1])
    assert sum(methods) == total and int(summary[3]) <= int(summary[4]) == asked
    parts = []
    for title in ("on the real sites", "on the generated sites"):
        count, listed = re.search(rf"^(\d+) pairs {title} \([^)]*\): (.*)$", sample, re.M).groups()
        per_site = [int(n) for n in re.findall(r"\S+ (\d+)", listed)]
        assert per_site == sorted(per_site, reverse=True) and sum(per_site) <= int(count)
        if not listed.endswith(", ..."):
            assert sum(per_site) == int(count)
        parts.append(int(count))
    assert sum(parts) == total
    assert re.findall(r"^  \.\.\. (\d+) more$", sample, re.M)[0] == str(parts[0] - SHOWN_PAIRS)


def test_a_line_s_shape_keeps_its_words_and_leaves_out_what_a_run_decides() -> None:
    row = f"{'www.debian.org':<34} {'zh-Hans en':<22} {'real multilingual':<17} seed"
    assert shape(row) == "HOST LANGS real multilingual seed"
    assert (
        shape("  ca-da       http://a.org/ca/x.html  http://a.org/da/x.html") == "LANG-LANG URL URL"
    )
    assert shape("620 pairs on the real sites (real pages): a.org 321, b.org 9, ...") == (
        "N pairs on the real sites (real pages): HOSTS"
    )
    assert (
        shape("... 260 more in out/demo/backforth/sites.jsonl")
        == "... N more in out/demo/backforth/HOST"
    )
    assert shape("9 URL pairs (deep 1, local 8) on 2 of the 3 sites") == (
        "N URL pairs (COUNTS) on N of the N sites"
    )
    assert shape("28 hosts reported bilingual") != shape("28 sites reported bilingual")
