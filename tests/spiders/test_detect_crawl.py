"""The ``detect`` spider and ``bilingual-spider detect`` against the sandbox web: the verdicts
agree with the ground truth of a generated world and of the real sites, and a verdict is
reached, with its reason, when probes time out, 404 or redirect to another site."""

from __future__ import annotations

import json
import subprocess
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import (
    SandboxServer,
    crawl_env,
    python_command,
    run_spider,
)
from bilingual_spider.sandbox.webgraph_params import WorldParams
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, generate, load_ground_truth
from tests.conftest import catalog_text, missing
from tests.spiders.pages import ENGLISH, SPANISH, page
from tests.waiting import CRAWL_SECONDS

FAKE_SCORER = "tests.spiders.fake_scorer.FakeLinkScorer"
FAST = {"DOWNLOAD_DELAY": 0, "CONCURRENT_REQUESTS": 32, "CONCURRENT_REQUESTS_PER_DOMAIN": 8}

# --- a small web with every way a probe can fail ---------------------------------------------

FAULT_SITES = {
    # host: {path: html}
    "www.museo.example": {
        "index.html": page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About us")),
        "es/index.html": page("es", SPANISH, ("/", "English")),
        "about.html": page("en", ENGLISH),
    },
    "www.elige.example": {  # a language chooser: its Spanish page proves it
        "index.html": page("und", "", ("/en/", "English"), ("/es/", "Español")),
        "en/index.html": page("en", ENGLISH),
        "es/index.html": page("es", SPANISH),
    },
    "www.lento.example": {"index.html": page("en", ENGLISH, ("http://es.lento.example/", "ES"))},
    "es.lento.example": {"index.html": page("es", SPANISH)},
    "www.roto.example": {"index.html": page("en", ENGLISH, ("/es/", "Español"))},
    "www.fuera.example": {
        "index.html": page("en", ENGLISH, ("/es/", "Español")),
        "es/index.html": page("es", "", refresh="http://www.otro.example/"),
    },
    "www.otro.example": {"index.html": page("es", SPANISH)},
    "www.solo.example": {"index.html": page("en", ENGLISH, ("/about.html", "About us"))},
    "www.caido.example": {"index.html": page("en", ENGLISH)},
}
FAULTS = """
[hosts."es.lento.example"]
latency_ms = 3000
[hosts."www.caido.example"]
reset_rate = 1.0
"""
FAULT_VERDICTS = {  # site: (bilingual, pages downloaded, words of the reason)
    "www.museo.example": (True, 2, "es at http://www.museo.example/es/"),
    "www.elige.example": (True, 2, "es at http://www.elige.example/es/ (its link named es)"),
    "www.lento.example": (False, 2, "1 probe(s) failed (timeout)"),
    "www.roto.example": (False, 2, "1 probe(s) failed (HTTP 404)"),
    "www.fuera.example": (False, 2, "(redirected off-site to www.otro.example)"),
    "www.solo.example": (False, 1, "no link scored >= 0.8"),
    "www.caido.example": (False, 1, "first page failed: connection failed"),
}


@pytest.fixture(scope="module")
def fault_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    root = tmp_path_factory.mktemp("faultweb")
    mounts = []
    for host, files in FAULT_SITES.items():
        for path, html in files.items():
            target = root / host / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        mounts.append(f'[[mount]]\nhost = "{host}"\ndirs = ["{root / host}"]\n')
    config = root / "sandbox.toml"
    config.write_text("seed = 3\n" + "\n".join(mounts) + textwrap.dedent(FAULTS))
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def crawl(server: SandboxServer, seeds: list[str], tmp_path: Path, **settings: object) -> dict:
    """Run ``scrapy crawl detect``; the verdicts by site."""
    output = tmp_path / "verdicts.jsonl"
    result = run_spider(
        "detect",
        settings={"BILINGUAL_SANDBOX_PROXY": server.proxy_url, **FAST, **settings},
        arguments={"seeds": ",".join(seeds)},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(verdicts) == len({v["site"] for v in verdicts}), "one verdict per site"
    return {v["site"]: v for v in verdicts}


def test_verdicts_are_reached_when_probes_fail(fault_web, tmp_path: Path) -> None:
    stats_file = tmp_path / "stats.json"
    verdicts = crawl(
        fault_web,
        [f"http://{site}/" for site in FAULT_VERDICTS] + ["http://www.museo.example/about.html"],
        tmp_path,
        BILINGUAL_DETECTOR_LINK_SCORER=FAKE_SCORER,
        BILINGUAL_DETECTOR_PROBE_TIMEOUT=1,
        BILINGUAL_DETECTOR_PROBE_RETRIES=0,
        BILINGUAL_STATS_FILE=stats_file,
    )
    assert set(verdicts) == set(FAULT_VERDICTS)
    for site, (bilingual, pages, reason) in FAULT_VERDICTS.items():
        verdict = verdicts[site]
        assert verdict["bilingual"] == bilingual, (site, verdict["reason"])
        assert verdict["pages_downloaded"] == pages, (site, verdict["reason"])
        assert reason in verdict["reason"], (site, verdict["reason"])
    stats = json.loads(stats_file.read_text())
    assert stats["detector/sites"] == 7
    assert stats["detector/sites_already_judged"] == 1  # museo's second page
    assert stats["detector/sites_bilingual"] == 2 and stats["detector/sites_monolingual"] == 4
    assert stats["detector/sites_not_judged"] == 1  # caído: its first page never came
    statuses = {site: v["status"] for site, v in verdicts.items()}
    assert statuses["www.caido.example"] == "not_judged"
    assert statuses["www.solo.example"] == "not_bilingual"
    assert statuses["www.museo.example"] == "bilingual"
    assert stats["detector/probes"] == 5 and stats["detector/probes_failed"] == 3
    assert stats["detector/rule/chooser_labels"] == 1
    assert stats["detector/probes_failed/timeout"] == 1
    assert stats["detector/probes_failed/http_404"] == 1
    assert stats["detector/probes_failed/offsite_redirect"] == 1
    assert stats["detector/pages"] == sum(pages for _, pages, _ in FAULT_VERDICTS.values())


def test_cli_prints_one_json_verdict_per_site(fault_web) -> None:
    result = subprocess.run(
        [
            *python_command(), "-m", "bilingual_spider.cli", "detect", "--langs", "en,es",
            "-s", f"BILINGUAL_DETECTOR_LINK_SCORER={FAKE_SCORER}",
            "www.museo.example", "http://www.solo.example/", "http://www.museo.example/x",
        ],
        capture_output=True, text=True, timeout=CRAWL_SECONDS,
        env=crawl_env({"BILINGUAL_SANDBOX_PROXY": fault_web.proxy_url}),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    by_site = {v["site"]: v for v in verdicts}
    assert len(verdicts) == 2
    assert by_site["www.museo.example"]["bilingual"] is True
    assert by_site["www.museo.example"]["languages"] == ["en", "es"]
    assert by_site["www.museo.example"]["langs"] == ["en", "es"]
    assert by_site["www.solo.example"]["bilingual"] is False


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["ftp://example.org/", "http://bad host/"], "not an http(s) URL"),
        (["--langs", "en", "example.org"], "two languages"),
        (["--min-likelihood", "2", "example.org"], "between 0 and 1"),
        (["--model", "/nonexistent.npz", "example.org"], "no such file"),
    ],
)
def test_cli_rejects_bad_input_clearly(arguments: list[str], message: str) -> None:
    result = subprocess.run(
        [*python_command(), "-m", "bilingual_spider.cli", "detect", *arguments],
        capture_output=True, text=True, timeout=CRAWL_SECONDS, env=crawl_env(),
    )  # fmt: skip
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


# --- a generated world and the real sites, with ground truth --------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("detectworld") / "w"
    params = WorldParams(seed=4, sites=300)
    generate(out, params, catalog_text(["en", *params.language_weights]))
    return out


@pytest.fixture(scope="module")
def world_and_real_sites(world: Path) -> Iterator[tuple[SandboxServer, list[dict]]]:
    from bilingual_spider.sandbox.debian_packages import AptUnavailable
    from bilingual_spider.sandbox.realsites import prepare

    try:
        real = prepare()
    except AptUnavailable as exc:
        missing(f"real sites unavailable: {exc}")
        raise
    with SandboxServer(["--real-sites", "--config", str(world / CONFIG_FILE)]) as server:
        yield server, real


def known_sites(world: Path, fake_scorer: bool) -> dict[str, bool]:
    """A handful of generated sites of every kind: root URL -> bilingual. The fake scorer knows
    language codes and names but not the abbreviations some switchers show (``简``)."""
    picked: dict[str, bool] = {}
    wanted = {
        ("bilingual", ""): 4,
        ("multilingual", ""): 2,
        ("monolingual", ""): 3,
        ("decoy", "switcher_without_translation"): 2,
        ("decoy", "mostly_untranslated"): 2,
        ("decoy", "mixed_language"): 2,
        ("decoy", "monolingual_bilingual_tld"): 1,
    }
    for site in load_ground_truth(world)["sites"]:
        kind = (site["kind"], site["decoy"])
        if fake_scorer and site["switcher"] not in ("", "native", "code"):
            continue
        if fake_scorer and any(lang.startswith("zh") for lang in site["languages"]):
            continue
        if wanted.get(kind, 0) > 0:
            wanted[kind] -= 1
            picked[site["root_url"]] = site["bilingual"]
    assert not any(wanted.values()), wanted
    return picked


def real_seeds(real: list[dict]) -> dict[str, bool]:
    return {site["seed_url"]: site["bilingual"] for site in real}


@pytest.mark.parametrize("scorer", ["fake", "model"])
def test_detector_crawl_agrees_with_the_ground_truth(
    scorer: str, world: Path, world_and_real_sites, tmp_path: Path
) -> None:
    server, real = world_and_real_sites
    settings: dict[str, object] = {"BILINGUAL_DETECTOR_SITE_KEY": "url"}
    if scorer == "fake":
        settings["BILINGUAL_DETECTOR_LINK_SCORER"] = FAKE_SCORER
    else:
        from bilingual_spider.detection.link_predictor import DEFAULT_MODEL_PATH

        if not DEFAULT_MODEL_PATH.is_file():
            missing(f"{DEFAULT_MODEL_PATH} is missing: bilingual-spider train link-predictor")
    expected = {**known_sites(world, scorer == "fake"), **real_seeds(real)}
    verdicts = crawl(server, list(expected), tmp_path, **settings)
    wrong = {
        url: verdicts[url]["reason"]
        for url, bilingual in expected.items()
        if verdicts[url]["bilingual"] != bilingual
    }
    assert not wrong
    pages = [verdicts[url]["pages_downloaded"] for url in expected]
    assert sum(pages) / len(pages) <= 3.0
