"""The generated sites whose pages carry no language links (issue 50): their shapes, and the
detector entered from their deep pages in a real crawl, scored with their gold."""

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.deep_sites import (
    DeepSitesParams,
    code_of,
    deep_entries,
    load_gold,
    write_deep_sites,
)
from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.conftest import catalog_text

LANGUAGES = ["en", "fr", "es", "de", "ja", "zh-Hans", "pt-BR", "it", "ru", "ko"]
PARAMS = DeepSitesParams(seed=7, sites=14, pages=5)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("deep_sites")
    config = write_deep_sites(root, catalog_text(LANGUAGES), PARAMS)
    return root, config


def _links(path: Path) -> list[str]:
    return re.findall(r'href="([^"]+)"', path.read_text())


def _file(root: Path, url: str) -> Path:
    host, _, path = url.removeprefix("http://").partition("/")
    return root / host / (path + "index.html" if path.endswith("/") or not path else path)


def test_deep_pages_link_no_other_language_and_only_the_home_page_chooses(
    sites: tuple[Path, Path],
) -> None:
    root, _ = sites
    gold = load_gold(root)
    assert {t["shape"] for t in gold.values()} >= {"root_chooser", "monolingual"}
    for host, truth in gold.items():
        codes = {lang: code_of(lang, truth["layout"]["form"]) for lang in truth["languages"]}
        home = _links(root / host / "index.html")
        for url in truth["pages"]:
            if url.endswith(f"{host}/"):
                continue
            own = next(
                lang for lang, code in codes.items() if f"/{code}/" in url or f".{code}." in url
            )
            others = [code for lang, code in codes.items() if lang != own]
            for link in _links(_file(root, url)):  # never another language's page
                assert not any(f"/{c}/" in link or f".{c}." in link for c in others), (url, link)
        if truth["shape"] == "script_menu":
            assert home == [] and "MENUS" in (root / host / "menu.js").read_text()
        else:
            chosen = [link for link in home if link not in ("/", "/contact.html")]
            assert len(chosen) == len(truth["languages"])  # the home page lists every language


def test_entries_are_deep_pages_drawn_from_every_site(sites: tuple[Path, Path]) -> None:
    root, _ = sites
    gold = load_gold(root)
    entries = deep_entries(gold, 3, seed=1)
    assert {host for _, _, host in entries} == set(gold)
    assert all(not url.endswith(f"{host}/") for url, _, host in entries)
    assert entries == deep_entries(gold, 3, seed=1)


@pytest.fixture(scope="module")
def verdicts(sites: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    root, config = sites
    gold = load_gold(root)
    chosen = []
    for _, truth in sorted(gold.items()):
        english = [u for u in truth["pages"] if f"/{code_of('en', truth['layout']['form'])}/" in u]
        if truth["shape"] == "root_chooser" and truth["layout"]["prefix"] and english:
            chosen.append((english[1], True))
        elif truth["shape"] == "monolingual":
            chosen.append((truth["pages"][1], False))
    assert any(truth for _, truth in chosen) and not all(truth for _, truth in chosen)
    work = tmp_path_factory.mktemp("deep_crawl")
    (work / "seeds.txt").write_text("".join(url + "\n" for url, _ in chosen))
    with SandboxServer(["--config", str(config)]) as server:
        result = run_spider(
            "detect",
            settings={
                "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
                "BILINGUAL_DETECTOR_SITE_KEY": "url",
                "DOWNLOAD_DELAY": 0,
                "LOG_LEVEL": "WARNING",
            },
            arguments={"seeds": work / "seeds.txt"},
            output=work / "verdicts.jsonl",
            timeout=300,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = (work / "verdicts.jsonl").read_text().splitlines()
    found = {v["url"]: v for v in map(json.loads, lines)}
    yield {url: (truth, found[url]) for url, truth in chosen}


def test_a_deep_english_page_below_a_missing_directory_reaches_the_chooser_at_home(
    verdicts: dict,
) -> None:
    for url, (truth, verdict) in verdicts.items():
        assert verdict["bilingual"] == truth, (url, verdict["reason"])
        if truth:
            assert verdict["rule"].startswith("ancestors"), verdict["reason"]


def test_with_rendering_on_a_deep_page_whose_site_menu_is_a_script_finds_its_languages(
    tmp_path: Path,
) -> None:
    """The home page's language menu written by a script (``menu.js``): no URL guess reaches the
    other languages, the browser does (``BILINGUAL_RENDER_JS``, within the probe budget)."""
    import shutil

    from tests.conftest import missing

    if shutil.which("chromium") is None:
        missing("no chromium on PATH (apt-get install chromium)")
    params = DeepSitesParams(seed=7, sites=3, pages=4, shape_weights={"script_menu": 1.0})
    config = write_deep_sites(tmp_path / "scripted", catalog_text(LANGUAGES), params)
    scripted = [t for _, t in sorted(load_gold(tmp_path / "scripted").items())]
    assert {t["shape"] for t in scripted} == {"script_menu"}
    seeds = [truth["pages"][1] for truth in scripted]
    (tmp_path / "seeds.txt").write_text("".join(url + "\n" for url in seeds))
    said = {}
    with SandboxServer(["--config", str(config)]) as server:
        for render in (False, True):
            output = tmp_path / f"verdicts-{render}.jsonl"
            result = run_spider(
                "detect",
                settings={
                    "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
                    "BILINGUAL_DETECTOR_SITE_KEY": "url",
                    "BILINGUAL_RENDER_JS": render,
                    "DOWNLOAD_DELAY": 0,
                    "LOG_LEVEL": "WARNING",
                },
                arguments={"seeds": tmp_path / "seeds.txt"},
                output=output,
                timeout=300,
            )
            assert result.returncode == 0, result.stderr[-2000:]
            verdicts = [json.loads(line) for line in output.read_text().splitlines()]
            said[render] = {v["url"]: v["bilingual"] for v in verdicts}
    assert all(said[True][url] for url in seeds), said[True]
    assert not all(said[False][url] for url in seeds)  # without a browser, no way there
