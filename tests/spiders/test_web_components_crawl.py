"""A PupSniffer crawl of a site whose links are all web components (issue 37, deliverable 1).

The real site with translated slugs (``sandbox/slug_sites.py``: digital.canada.ca and
numerique.canada.ca, 215 gold pairs) rewritten as a web-component design system writes it: every
``<a>`` becomes a custom element with the same attributes (``<acme-link href>``), so no page has
an ``<a>`` left. Read only as ``<a>`` links, the crawl would stop at the two home pages; read
wherever HTML carries links, it pairs the site as the original is paired
(``tests/sandbox/test_slug_sites.py``)."""

from __future__ import annotations

import json
import re

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.slug_sites import SlugSites, prepare
from tests.sandbox.slug_crawl import crawl_slug_pairs
from tests.waiting import CRAWL_SECONDS

_OPEN_A = re.compile(r"<a(?=[\s>])", re.IGNORECASE)
_CLOSE_A = re.compile(r"</a\s*>", re.IGNORECASE)


@pytest.fixture(scope="module")
def component_sites(tmp_path_factory: pytest.TempPathFactory) -> SlugSites:
    sites = prepare(tmp_path_factory.mktemp("components"))  # an own copy: rewritten in place
    for _, path in sites.page_files().values():
        html = path.read_text(encoding="utf-8")
        html = _CLOSE_A.sub("</acme-link>", _OPEN_A.sub("<acme-link", html))
        path.write_text(html, encoding="utf-8")
    return sites


def test_no_page_has_an_a_element_left(component_sites: SlugSites) -> None:
    files = [path for _, path in component_sites.page_files().values()]
    assert len(files) > 500
    assert not any(_OPEN_A.search(path.read_text(encoding="utf-8")) for path in files)


def test_a_pupsniffer_crawl_pairs_a_web_component_site(component_sites: SlugSites, tmp_path):
    pairs, right = crawl_slug_pairs(component_sites, tmp_path)
    assert len(right) >= 40, [(p["source_url"], p["method"]) for p in pairs][:20]
    assert len(right) >= 0.95 * len(pairs)
    assert all(p["verification"] for p in right)


def test_the_detector_calls_a_web_component_site_bilingual_from_its_home_page(
    component_sites: SlugSites, tmp_path
):
    """``scrapy crawl detect`` from each language's home page: the language toggle and the
    navigation are custom elements only, and the site is still judged bilingual (en, fr)."""
    output = tmp_path / "verdicts.jsonl"
    with SandboxServer(["--config", str(component_sites.config)]) as server:
        result = run_spider(
            "detect",
            settings={"BILINGUAL_SANDBOX_PROXY": server.proxy_url, "DOWNLOAD_DELAY": 0},
            arguments={"seeds": ",".join(component_sites.seed_urls())},
            output=output,
            timeout=CRAWL_SECONDS,
        )
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = [json.loads(line) for line in output.read_text().splitlines()]
    assert len(verdicts) == len(component_sites.seed_urls())
    for verdict in verdicts:
        assert verdict["bilingual"] is True, verdict["reason"]
        assert sorted(verdict["languages"]) == ["en", "fr"]
