"""The real sites, served by the sandbox and crawled through Scrapy, agree with their gold pairs."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.real_site_gold import same_language
from tests.conftest import missing
from tests.waiting import CRAWL_SECONDS

HTML_LANG = re.compile(rb"<html[^>]*\blang=\"([^\"]+)\"", re.IGNORECASE)


@pytest.fixture(scope="session")
def real_sites() -> list[dict]:
    from bilingual_spider.sandbox.debian_packages import AptUnavailable
    from bilingual_spider.sandbox.realsites import prepare

    try:
        return prepare()
    except AptUnavailable as exc:
        missing(f"real sites unavailable: {exc}")
        raise


@pytest.fixture(scope="session")
def gold(real_sites) -> list[tuple[str, str, str, str, str]]:
    from bilingual_spider.sandbox.realsites import gold_pairs_path

    lines = gold_pairs_path().read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines]


@pytest.fixture(scope="session")
def real_sandbox(real_sites) -> Iterator[SandboxServer]:
    with SandboxServer(["--real-sites"]) as server:
        yield server


def declared(body: bytes) -> str | None:
    match = HTML_LANG.search(body[:4096])
    return normalize_language_code(match.group(1).decode()) if match else None


def test_every_site_is_served_at_its_seed(real_sandbox, real_sites) -> None:
    for site in real_sites:
        status, _, body = real_sandbox.get(site["seed_url"])
        assert status == 200, site["name"]
        assert any(tag in body.lower() for tag in (b"<a ", b"<a\n", b"<option ")), site["name"]


def test_sampled_gold_pairs_are_served_in_their_languages(real_sandbox, gold) -> None:
    for source, target, source_lang, target_lang, site in random.Random(0).sample(gold, 60):
        source_status, _, source_body = real_sandbox.get(source)
        target_status, _, target_body = real_sandbox.get(target)
        assert (source_status, target_status) == (200, 200), (source, target)
        assert source_body != target_body, (source, target)
        for body, lang in ((source_body, source_lang), (target_body, target_lang)):
            found = declared(body)
            if found is not None:  # not every Debian page declares its language
                assert same_language(found, lang), (site, source, target, found, lang)


def test_monolingual_sites_have_no_gold_pairs(real_sites) -> None:
    for site in real_sites:
        if site["kind"] == "monolingual":
            assert site["gold_pairs"] == 0, site["name"]
        else:  # pairs, or pairs whose English page the sandbox cannot serve (its entry page)
            pairs = site["gold_pairs"] + site["dropped"].get("source_not_served", 0)
            assert pairs > 0, site["name"]
            assert len(site["languages"]) >= 2, site["name"]


def test_crawl_of_the_apache_manual_agrees_with_gold(real_sandbox, gold, tmp_path: Path) -> None:
    output, stats_file = tmp_path / "pages.jsonl", tmp_path / "stats.json"
    result = run_spider(
        "forward",
        settings={
            "BILINGUAL_SANDBOX_PROXY": real_sandbox.proxy_url,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
            "CLOSESPIDER_PAGECOUNT": 600,
            "BILINGUAL_STATS_FILE": stats_file,
            "DEPTH_LIMIT": 3,
        },
        arguments={"seeds": "http://httpd.apache.org/docs/2.4/"},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    pages = {
        r["url"]: r
        for line in output.read_text().splitlines()
        if (r := json.loads(line))["status"] == 200
    }
    assert len(pages) >= 300
    apache_gold = {(s, t) for s, t, *_ in gold if "httpd.apache.org" in s}
    gold_targets = {t for _, t in apache_gold}
    covered = [(s, t) for s, t in apache_gold if s in pages and t in pages]
    assert len(covered) >= 20
    for source, target in covered:
        assert pages[source]["declared_lang"] == "en"
        assert pages[target]["declared_lang"] not in (None, "en")
        # the page lists its translation among its hreflang alternates
        assert target in pages[source]["alternates"].values()
    # a page under /<lang>/ that is really the English file (a symlink) is never a gold target
    untranslated = [
        url
        for url, page in pages.items()
        if (m := re.match(r"http://httpd\.apache\.org/docs/2\.4/([a-z-]+)/", url))
        and m.group(1) != "en"
        and page["declared_lang"] == "en"
    ]
    assert untranslated, "the crawl should meet untranslated (symlinked) pages"
    assert not set(untranslated) & gold_targets
