"""``bilingual-spider patterns``: offline PupSniffer on a list of URLs."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bilingual_spider.cli import main

URLS = [
    "http://www.example.com/en/news/a.html",
    "http://www.example.com/fr/news/a.html",
    "http://www.example.com/en/news/b.html",
    "http://www.example.com/fr/news/b.html",
    "http://www.example.com/en/about.html",
    "http://shop.example.org/list?page=1",
    "http://shop.example.org/list?page=2",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["patterns", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, lines: list[str], name: str = "urls.txt") -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return str(path)


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_patterns_and_pairs_of_a_small_list(tmp_path, capsys) -> None:
    status, out, _ = run(capsys, write(tmp_path, ["# a comment", "", *URLS]))
    assert status == 0
    lines = records(out)
    patterns = [r for r in lines if r["type"] == "pattern"]
    pairs = [r for r in lines if r["type"] == "pair"]
    assert patterns[0]["pattern"] == "<en,fr>"
    assert patterns[0]["local_credibility"] == {"example.com": 0.8}  # 4 of 5 pages
    assert {(p["source"], p["target"]) for p in pairs} == {(URLS[0], URLS[1]), (URLS[2], URLS[3])}
    assert pairs[0]["method"] == "local"
    assert (pairs[0]["source_language"], pairs[0]["target_language"]) == ("en", "fr")
    assert lines.index(patterns[-1]) < lines.index(pairs[0])  # patterns first


def test_tsv_output_is_bitextor_style(tmp_path, capsys) -> None:
    status, out, _ = run(capsys, write(tmp_path, URLS), "--format", "tsv", "--patterns", "1")
    assert status == 0
    comments = [line for line in out.splitlines() if line.startswith("#")]
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert len(comments) == 1 and comments[0].startswith("# <en,fr>\tglobal ")
    assert rows == [
        [URLS[0], URLS[1], "en", "fr", "0.8000"],
        [URLS[2], URLS[3], "en", "fr", "0.8000"],
    ]


def test_a_language_column_is_used(tmp_path, capsys) -> None:
    """With page languages, pages pair by language even when the URL names none."""
    lines = [
        "http://www.example.net/page/1\ten",
        "http://www.example.net/page/1?v=2\tfr",
        "http://www.example.net/page/2\ten",
        "http://www.example.net/page/2?v=2\tfr",
    ]
    status, out, _ = run(capsys, write(tmp_path, lines))
    assert status == 0
    pairs = [r for r in records(out) if r["type"] == "pair"]
    assert len(pairs) == 2
    assert {(p["source_language"], p["target_language"]) for p in pairs} == {("en", "fr")}
    status, out, _ = run(capsys, write(tmp_path, [x.split("\t")[0] for x in lines]))
    assert [r for r in records(out) if r["type"] == "pair"] == []  # URL-only: no language pattern


def test_langs_file_gives_the_languages(tmp_path, capsys) -> None:
    urls = ["http://www.example.net/page/1", "http://www.example.net/page/1?v=2"]
    langs = write(tmp_path, [f"{urls[0]}\ten", f"{urls[1]}\tfr"], "langs.tsv")
    status, out, _ = run(capsys, write(tmp_path, urls), "--langs-file", langs, "--format", "tsv")
    assert status == 0
    assert out.splitlines()[-1].split("\t")[:4] == [*urls, "en", "fr"]


def test_a_bad_line_costs_that_line_with_a_warning_naming_it(tmp_path, capsys) -> None:
    lines = [URLS[0], "ftp://example.com/x", "HTTP://[::1/x", *URLS[1:]]
    status, out, err = run(capsys, write(tmp_path, lines), "--format", "tsv")
    path = tmp_path / "urls.txt"
    assert status == 0
    assert f"{path}:2: not an http(s) URL, skipped: 'ftp://example.com/x'" in err
    assert f"{path}:3: not an http(s) URL, skipped: 'HTTP://[::1/x'" in err
    assert len(err.splitlines()) == 2
    _, good, _ = run(capsys, write(tmp_path, URLS, "good.txt"), "--format", "tsv")
    assert out == good != ""


def test_a_missing_file_is_an_error(tmp_path, capsys) -> None:
    status, _, err = run(capsys, str(tmp_path / "nothing.txt"))
    assert status == 2 and "nothing.txt: no such file" in err


def test_empty_input_from_stdin_is_an_empty_result(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("# nothing here\n"))
    assert run(capsys, "-") == (0, "", "")
