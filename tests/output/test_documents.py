"""Document pairs: written in both formats, read back; a crawl writes one per reported pair,
with both pages' main text."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from bilingual_spider.output.documents import DocumentPairWriter, PageBodies, main_text
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.slug_sites import prepare
from tests.waiting import CRAWL_SECONDS

PAIR = {
    "source_url": "http://x.example/en/a.html",
    "target_url": "http://x.example/fr/a.html",
    "source_lang": "en",
    "target_lang": "fr",
    "method": "local",
    "pattern": "<en,fr>",
    "verification": {"probability": 0.93},
}


def test_both_formats_read_back(tmp_path: Path) -> None:
    texts = ("The museum opens at nine.\nTickets: 5 €", "Le musée ouvre à neuf heures.")
    for name in ("pairs.jsonl", "pairs.tsv"):
        writer = DocumentPairWriter(tmp_path / name)
        writer.write(PAIR, *texts)
        writer.close()
    [line] = (tmp_path / "pairs.jsonl").read_text(encoding="utf-8").splitlines()
    read = json.loads(line)
    assert (read["url1"], read["lang2"], read["text1"], read["text2"]) == (
        PAIR["source_url"], "fr", *texts,
    )  # fmt: skip
    assert read["verification"] == {"probability": 0.93}
    [row] = (tmp_path / "pairs.tsv").read_text(encoding="utf-8").splitlines()
    url1, url2, text1, text2 = row.split("\t")
    assert (url1, url2) == (PAIR["source_url"], PAIR["target_url"])
    assert (base64.b64decode(text1).decode(), base64.b64decode(text2).decode()) == texts


def test_page_bodies_are_kept_on_disk_and_main_text_drops_the_template(tmp_path: Path) -> None:
    store = PageBodies(tmp_path / "pages.sqlite")
    body = (
        b"<html><body><nav><a href='/'>Home</a> | <a href='/fr/'>Fran\xc3\xa7ais</a></nav>"
        b"<article><h1>Opening hours</h1><p>The museum opens every day from nine in the "
        b"morning until six in the evening, except on public holidays.</p></article>"
        b"<footer>Copyright 2026 The Museum. All rights reserved.</footer></body></html>"
    )
    store.add("http://x.example/a", body)
    assert store.get("http://x.example/a") == body and store.get("http://x.example/b") is None
    store.close()
    text = main_text(body)
    assert "every day from nine" in text and "All rights reserved" not in text


def test_a_crawl_writes_a_document_pair_for_every_pair_it_reports(tmp_path: Path) -> None:
    sites = prepare(tmp_path / "cache")
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(sites.seed_urls()) + "\n")
    items, docs, stats = tmp_path / "items.jsonl", tmp_path / "docs.jsonl", tmp_path / "s.json"
    with SandboxServer(["--config", str(sites.config)]) as server:
        result = run_spider(
            "pupsniffer",
            settings={
                "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
                "BILINGUAL_STATS_FILE": str(stats),
                "BILINGUAL_PUPSNIFFER_PAIR_FIRST": True,
                "DOWNLOAD_DELAY": 0,
                "ROBOTSTXT_OBEY": False,
            },
            arguments={"seeds": seeds, "site_budget": 60, "docs": docs},
            output=items,
            timeout=CRAWL_SECONDS,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    pairs = [json.loads(line) for line in items.read_text().splitlines()]
    pairs = [p for p in pairs if "source_url" in p]
    documents = [json.loads(line) for line in docs.read_text(encoding="utf-8").splitlines()]
    assert len(pairs) >= 10
    assert [(d["url1"], d["url2"]) for d in documents] == [
        (p["source_url"], p["target_url"]) for p in pairs
    ]
    assert json.loads(stats.read_text())["docs/pairs"] == len(pairs)
    for document in documents:
        assert (document["lang1"], document["lang2"]) == ("en", "fr")
        assert len(document["text1"]) > 100 and len(document["text2"]) > 100
        assert "Français" not in document["text1"]  # the switcher is template, not text
    assert not list(tmp_path.glob(".docs.jsonl.pages.sqlite"))  # the page store is removed


def test_a_pages_main_text_is_extracted_once_until_the_page_comes_again(tmp_path, monkeypatch):
    """A page is in as many pairs as its languages paired with it: its text is extracted the
    first time a pair asks for it, and again only when the page was fetched again."""
    import bilingual_spider.output.documents as documents

    extracted: list[bytes] = []
    monkeypatch.setattr(documents, "main_text", lambda body: extracted.append(body) or "text")
    store = PageBodies(tmp_path / "pages.sqlite")
    store.add("http://x.example/a", b"<p>first</p>")
    assert [store.main_text("http://x.example/a") for _ in range(3)] == ["text"] * 3
    assert extracted == [b"<p>first</p>"]
    store.add("http://x.example/a", b"<p>again</p>")
    assert store.main_text("http://x.example/a") == "text"
    assert extracted == [b"<p>first</p>", b"<p>again</p>"]
    assert store.main_text("http://x.example/never") is None
    store.close()
