"""Crawls of sites whose links a script builds (``BILINGUAL_RENDER_JS``), scored with the sites'
gold: with rendering on, their pairs are found and only they are rendered; off (the default),
their pairs are not found and nothing is rendered."""

import importlib.util
import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.script_sites import (
    APP_HOST,
    PLAIN_HOST,
    SWITCHER_HOST,
    load_gold,
    write_script_sites,
)
from tests.conftest import catalog_text, missing

CRAWL_SECONDS = 300
HOSTS = (APP_HOST, SWITCHER_HOST, PLAIN_HOST)


class Beacon(BaseHTTPRequestHandler):
    """A service on the crawler's own machine (127.0.0.1) that a page's script tries to reach."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Beacon.asked.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def beacon() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Beacon)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/secret"
    server.shutdown()


@pytest.fixture(scope="module")
def sites(
    tmp_path_factory: pytest.TempPathFactory, beacon: str
) -> Iterator[tuple[Path, SandboxServer]]:
    if importlib.util.find_spec("scrapy_playwright") is None:
        missing("scrapy-playwright is not installed (pip install -e '.[dev]')")
    if shutil.which("chromium") is None:
        missing("no chromium on PATH (apt-get install chromium)")
    root = tmp_path_factory.mktemp("script_sites")
    config = write_script_sites(root, catalog_text(["en", "fr"]))
    [script] = root.rglob("site.js")  # every page of the app also asks the loopback service
    with script.open("a") as out:
        out.write(f"fetch({json.dumps(beacon)}).catch(function () {{}});\n")
    with SandboxServer(["--config", str(config)]) as server:
        yield root, server


def crawl(server: SandboxServer, out: Path, render: bool) -> dict:
    (out / "seeds.txt").write_text("".join(f"http://{host}/\n" for host in HOSTS))
    result = run_spider(
        "pupsniffer",
        settings={
            "BILINGUAL_SANDBOX_PROXY": server.proxy_url,
            "BILINGUAL_RENDER_JS": render,
            "BILINGUAL_RENDER_TIMEOUT": 120,  # a loaded machine: a slow page is no failure
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        },
        arguments={
            "seeds": out / "seeds.txt",
            "langs": "en,fr",
            "site_budget": 100,
            "out": out / "run",
        },
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = (out / "run" / "pairs.jsonl").read_text().splitlines()
    pairs = [json.loads(line) for line in lines]
    return {
        "found": {
            host: {
                frozenset((p["source_url"], p["target_url"]))
                for p in pairs
                if host in p["source_url"]
            }
            for host in HOSTS
        },
        "stats": json.loads((out / "run" / "stats.json").read_text()),
    }


def gold_pairs(gold: dict, host: str) -> set[frozenset[str]]:
    return {frozenset(p) for p in gold[host]["gold_pairs"]}


def test_rendering_finds_the_pairs_of_script_built_sites_and_renders_only_them(sites, tmp_path):
    root, server = sites
    gold = load_gold(root)
    run = crawl(server, tmp_path, render=True)
    for host in HOSTS:
        assert run["found"][host] == gold_pairs(gold, host), host
    stats = run["stats"]
    assert stats["render/sites"] == 2  # the plain site is never switched
    assert stats["render/reason/no_links"] == 1
    assert stats["render/reason/script_switcher"] == 1
    # at most each script-built site's pages and its /contact.html (linked, gone: a 404)
    script_pages = gold[APP_HOST]["pages"] + gold[SWITCHER_HOST]["pages"] + 2
    assert 2 * len(gold_pairs(gold, APP_HOST)) <= stats["render/pages"] <= script_pages
    by_reason = stats["render/pages_by_reason/no_links"]
    assert by_reason + stats["render/pages_by_reason/script_switcher"] == stats["render/pages"]
    assert by_reason >= 2 * len(gold_pairs(gold, APP_HOST))
    assert "render/failed" not in stats
    # the app's script asked the loopback service from every rendered page: the browser, like a
    # link, never reached it
    assert not Beacon.asked
    assert stats["render/refused/loopback"] >= 2 * len(gold_pairs(gold, APP_HOST))


def test_rendering_is_off_by_default(sites, tmp_path):
    root, server = sites
    gold = load_gold(root)
    run = crawl(server, tmp_path, render=False)
    assert not run["found"][APP_HOST]
    assert not run["found"][SWITCHER_HOST]
    assert run["found"][PLAIN_HOST] == gold_pairs(gold, PLAIN_HOST)
    assert not [key for key in run["stats"] if key.startswith("render/")]
