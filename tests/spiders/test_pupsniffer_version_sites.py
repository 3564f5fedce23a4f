"""A site whose translations live on other hosts (ccTLD siblings): ``www.kestrel.com`` in
English, ``www.kestrel.de`` and ``www.kestrel.fr``, each chapter naming its versions on the
other two (hreflang), under translated file names. A PupSniffer crawl of the English home takes
the two sites up as the site's versions and pairs every chapter across them; with
``BILINGUAL_PUPSNIFFER_VERSION_SITES = 0`` it stays on ``www.kestrel.com`` and pairs nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer
from tests.spiders.test_pupsniffer_groups import PARAGRAPHS, TITLES, sniff

HOSTS = {"en": "www.kestrel.com", "de": "www.kestrel.de", "fr": "www.kestrel.fr"}
SLUGS = {"en": "manual", "de": "handbuch", "fr": "manuel"}
CHAPTERS = 4


def chapter_url(language: str, chapter: int) -> str:
    return f"http://{HOSTS[language]}/{SLUGS[language]}-{chapter}.html"


def chapter_page(language: str, chapter: int) -> str:
    alternates = "".join(
        f'<link rel="alternate" hreflang="{lang}" href="{chapter_url(lang, chapter)}">'
        for lang in HOSTS
        if lang != language
    )
    text = "".join(f"<p>{p.format(n=chapter + 1)}</p>" for p in PARAGRAPHS[language])
    following = chapter_url(language, (chapter + 1) % CHAPTERS)
    return (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        f"<title>{TITLES[language]} {chapter + 1}</title>{alternates}</head><body>"
        f"<main><h1>{TITLES[language]} {chapter + 1}</h1>{text}"
        f'<p><a href="{following}">&gt;&gt;</a></p></main></body></html>'
    )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    mounts = []
    for language, host in HOSTS.items():
        root = tmp_path_factory.mktemp(language)
        chapters = "".join(
            f'<li><a href="{chapter_url(language, c)}">{TITLES[language]} {c + 1}</a></li>'
            for c in range(CHAPTERS)
        )
        (root / "index.html").write_text(
            f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
            f"<title>Kestrel</title></head><body><ul>{chapters}</ul></body></html>",
            encoding="utf-8",
        )
        for chapter in range(CHAPTERS):
            (root / f"{SLUGS[language]}-{chapter}.html").write_text(
                chapter_page(language, chapter), encoding="utf-8"
            )
        mounts += ["--mount", f"{host}={root}"]
    with SandboxServer(mounts) as server:
        yield server


def test_a_sites_versions_on_other_hosts_are_crawled_and_paired(served, tmp_path: Path):
    run = sniff(served, tmp_path, seeds=f"http://{HOSTS['en']}/")
    pairs = {frozenset((p["source_url"], p["target_url"])) for p in run["pairs"]}
    for chapter in range(CHAPTERS):
        for language in ("de", "fr"):
            assert frozenset((chapter_url("en", chapter), chapter_url(language, chapter))) in pairs
    assert run["stats"]["pupsniffer/version_sites"] == 2  # each site taken up once
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    found_by = {i["site"]: i["found_by"] for i in items if i["type"] == "bilingual_site"}
    assert found_by["kestrel.de"] == "versions of kestrel.com"  # the pairs <de,en>, <de,fr>


def test_without_version_sites_the_crawl_stays_on_its_seed(served, tmp_path: Path):
    run = sniff(
        served,
        tmp_path,
        {"BILINGUAL_PUPSNIFFER_VERSION_SITES": 0},
        seeds=f"http://{HOSTS['en']}/",
    )
    assert run["pairs"] == []
    assert {url.split("/")[2] for url in run["fetched"]} == {HOSTS["en"]}
