"""The detector's fallback ladder in a crawl (``scrapy crawl detect`` through the sandbox): a site
entered from a deep page without a switcher is judged from its URL siblings and its ancestors,
a monolingual site whose URLs carry ``/en/`` stays monolingual, and a site reached from many deep
pages is judged once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.spiders.pages import ENGLISH, SPANISH, page

FAKE_SCORER = "tests.spiders.fake_scorer.FakeLinkScorer"
FAST = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS": 32, "CONCURRENT_REQUESTS_PER_DOMAIN": 8}
CHAPTERS = [f"guia/capitulo{n}.html" for n in range(1, 6)]


def _chapter(lang: str, text: str, n: int) -> str:
    """A manual's chapter: text and a link to the next chapter, no language switcher."""
    return page(lang, text, (f"capitulo{n % 5 + 1}.html", "Next"))


SITES = {
    # a manual whose language switcher is only the chooser at its root
    "www.raiz.example": {
        "index.html": page("und", "", ("/en/", "English"), ("/es/", "Español")),
        "en/index.html": page("en", ENGLISH, ("/en/guia/capitulo1.html", "Guide")),
        "es/index.html": page("es", SPANISH, ("/es/guia/capitulo1.html", "Guía")),
        **{f"en/{c}": _chapter("en", ENGLISH, n) for n, c in enumerate(CHAPTERS, 1)},
        **{f"es/{c}": _chapter("es", SPANISH, n) for n, c in enumerate(CHAPTERS, 1)},
    },
    # region-coded directories below /browse/, which has no index page: the chooser is at /
    "www.browse.example": {
        "index.html": page(
            "und",
            "",
            ("/browse/en-US/index.html", "English"),
            ("/browse/es-MX/index.html", "Español"),
        ),
        "browse/en-US/index.html": page("en", ENGLISH, ("capitulo1.html", "Guide")),
        "browse/es-MX/index.html": page("es", SPANISH, ("capitulo1.html", "Guía")),
        **{f"browse/en-US/capitulo{n}.html": _chapter("en", ENGLISH, n) for n in range(1, 6)},
        **{f"browse/es-MX/capitulo{n}.html": _chapter("es", SPANISH, n) for n in range(1, 6)},
    },
    # English only, every URL under /en/
    "www.mono.example": {
        "index.html": page("en", ENGLISH, ("/en/", "Start")),
        "en/index.html": page("en", ENGLISH, ("/en/guia/capitulo1.html", "Guide")),
        **{f"en/{c}": _chapter("en", ENGLISH, n) for n, c in enumerate(CHAPTERS, 1)},
    },
}


@pytest.fixture(scope="module")
def ladder_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    root = tmp_path_factory.mktemp("ladderweb")
    mounts = []
    for host, files in SITES.items():
        for path, html in files.items():
            target = root / host / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        mounts.append(f'[[mount]]\nhost = "{host}"\ndirs = ["{root / host}"]\n')
    config = root / "sandbox.toml"
    config.write_text("seed = 3\n" + "\n".join(mounts))
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def crawl(
    server: SandboxServer, seeds: list[str], tmp_path: Path, **settings: object
) -> tuple[list[dict], dict]:
    """Run ``scrapy crawl detect``: the verdicts and the crawl's stats."""
    output, stats = tmp_path / "verdicts.jsonl", tmp_path / "stats.json"
    result = run_spider(
        "detect",
        settings={
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_DETECTOR_LINK_SCORER": FAKE_SCORER,
            "BILINGUAL_STATS_FILE": stats,
            **FAST,
            **settings,
        },
        arguments={"seeds": ",".join(seeds)},
        output=output,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [json.loads(line) for line in output.read_text().splitlines()]
    return verdicts, json.loads(stats.read_text())


@pytest.mark.parametrize(
    ("entry", "rule", "pages"),
    [
        ("www.raiz.example/en/guia/capitulo3.html", "ancestors: language hints", 3),  # the root
        ("www.raiz.example/es/guia/capitulo3.html", "url siblings", 2),  # /es/ -> /en/
        # region-coded directories below /browse/, which answers 404: skipped
        ("www.browse.example/browse/en-US/capitulo3.html", "ancestors: language hints", 4),
        ("www.browse.example/browse/es-MX/capitulo3.html", "url siblings", 2),  # -> en-US, not en
    ],
)
def test_a_deep_page_without_switcher_finds_the_root_chooser(
    ladder_web: SandboxServer, tmp_path: Path, entry: str, rule: str, pages: int
) -> None:
    url = f"http://{entry}"
    [verdict], stats = crawl(ladder_web, [url], tmp_path, BILINGUAL_DETECTOR_SITE_KEY="url")
    assert verdict["bilingual"] is True, verdict["reason"]
    assert sorted(verdict["languages"]) == ["en", "es"]
    assert (verdict["rule"], verdict["pages_downloaded"]) == (rule, pages), verdict["reason"]
    assert stats["detector/pages"] == pages
    assert stats.get("detector/ladder/ancestors_skipped", 0) == (pages == 4)


def test_the_single_page_detector_stays_available(
    ladder_web: SandboxServer, tmp_path: Path
) -> None:
    url = "http://www.raiz.example/en/guia/capitulo3.html"
    [verdict], stats = crawl(
        ladder_web, [url], tmp_path, BILINGUAL_DETECTOR_SITE_KEY="url", BILINGUAL_DETECTOR_LADDER=0
    )
    assert verdict["bilingual"] is False, verdict["reason"]
    assert "detector/ladder/ancestors" not in stats


def test_a_monolingual_site_with_en_in_its_urls_stays_monolingual(
    ladder_web: SandboxServer, tmp_path: Path
) -> None:
    url = "http://www.mono.example/en/guia/capitulo2.html"
    [verdict], stats = crawl(ladder_web, [url], tmp_path, BILINGUAL_DETECTOR_SITE_KEY="url")
    assert verdict["bilingual"] is False, verdict["reason"]
    assert verdict["languages"] == ["en"]
    tried = [page["url"] for page in verdict["evidence"][1:]]
    assert "http://www.mono.example/" in tried  # the ladder climbed ...
    assert any("/es/" in u or "/fr/" in u for u in tried)  # ... and tried other languages
    assert verdict["pages_downloaded"] <= 6  # the first page and at most max_probes (5)
    assert stats["detector/ladder/ancestors"] >= 1


def test_a_site_reached_from_five_deep_pages_is_judged_once(
    ladder_web: SandboxServer, tmp_path: Path
) -> None:
    seeds = [f"http://www.raiz.example/en/{chapter}" for chapter in CHAPTERS]
    verdicts, stats = crawl(ladder_web, seeds, tmp_path)  # sites are hosts (the default)
    assert [v["site"] for v in verdicts] == ["www.raiz.example"]
    assert verdicts[0]["bilingual"] is True, verdicts[0]["reason"]
    assert stats["detector/sites"] == 1
    assert stats["detector/sites_already_judged"] == 4
    assert stats["detector/pages"] == verdicts[0]["pages_downloaded"] <= 3
