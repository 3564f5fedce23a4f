"""The README's sample of what ``make demo`` prints is what it prints (issue 52: the sample
matched no run). The demo with its defaults, as ``make demo`` runs it: the same seed prints the
same. Every line of the sample is a line the demo printed, in the same order; a line ``...``
stands for lines left out of the sample."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from bilingual_spider.sandbox.demo import run_demo

README = Path(__file__).resolve().parents[2] / "README.md"
ELIDED = "..."


def readme_sample() -> list[str]:
    """The lines of the README's ``text`` block that shows the demo's output."""
    text = README.read_text(encoding="utf-8")
    start = text.index("```text\n", text.index("## Two commands")) + len("```text\n")
    return text[start : text.index("```", start)].splitlines()


def test_the_readme_sample_is_what_make_demo_prints(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # its paths as make demo prints them: out/demo/...
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert run_demo() == 0
    lines = printed.getvalue().splitlines()
    sample = [line for line in readme_sample() if line != ELIDED]
    assert len(sample) >= 20
    position = 0
    for line in sample:
        assert line in lines[position:], f"not printed (or not in this order): {line!r}"
        position = lines.index(line, position) + 1
