"""The detector's hints from sitemaps (``BILINGUAL_SITEMAPS``): a site whose home page links no
translation, but whose sitemap names the home page's Spanish version, is called bilingual from
its home page; without sitemaps it is not."""

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.spiders.pages import ENGLISH, SPANISH, page
from tests.waiting import CRAWL_SECONDS

HOST = "www.mapa.example"
SITEMAP = f"""<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
  <url><loc>http://{HOST}/</loc>
    <xhtml:link rel="alternate" hreflang="en" href="http://{HOST}/"/>
    <xhtml:link rel="alternate" hreflang="es" href="http://{HOST}/es/inicio.html"/></url>
  <url><loc>http://{HOST}/about.html</loc></url>
</urlset>
"""


@pytest.fixture(scope="module")
def sitemap_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    root = tmp_path_factory.mktemp("sitemap_detect")
    files = {
        "index.html": page("en", ENGLISH, ("/about.html", "About us")),
        "about.html": page("en", ENGLISH),
        "es/inicio.html": page("es", SPANISH),  # linked by no page
        "robots.txt": "User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n",
        "sitemap.xml": SITEMAP,
    }
    for path, text in files.items():
        (root / HOST / path).parent.mkdir(parents=True, exist_ok=True)
        (root / HOST / path).write_text(text, encoding="utf-8")
    config = root / "sandbox.toml"
    config.write_text(textwrap.dedent(f'[[mount]]\nhost = "{HOST}"\ndirs = ["{root / HOST}"]\n'))
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def verdict(server: SandboxServer, tmp_path: Path, sitemaps: bool) -> dict:
    output = tmp_path / f"verdicts-{sitemaps}.jsonl"
    result = run_spider(
        "detect",
        settings={
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_SITEMAPS": sitemaps,
            "DOWNLOAD_DELAY": 0,
        },
        arguments={"seeds": f"http://{HOST}/"},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = output.read_text().splitlines()
    return json.loads(line)


def test_a_sitemap_names_the_home_pages_translation_to_the_detector(sitemap_web, tmp_path):
    found = verdict(sitemap_web, tmp_path, sitemaps=True)
    assert found["bilingual"] is True, found["reason"]
    assert sorted(found["languages"]) == ["en", "es"]
    assert f"http://{HOST}/es/inicio.html" in found["reason"]
    assert verdict(sitemap_web, tmp_path, sitemaps=False)["bilingual"] is False
