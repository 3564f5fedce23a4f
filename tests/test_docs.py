"""Every recipe (a ``sh`` block) of the README and of ``docs/`` runs, so none can rot.

Each block runs in a folder of its own, as a user runs it from the project's folder (its
``scrapy.cfg`` and ``.venv``), with the files a recipe names ready (``seeds.txt``, ``sites.txt``,
``urls.txt``, ``page.html``) and ``BILINGUAL_SANDBOX_PROXY`` pointing at a sandbox web of the
real sites: the "real web" of a recipe is the sandbox's (it answers for any host name; the seeds
are the Apache manual and the Python documentation). A block that starts a
sandbox on port 8399 gets a free port instead, a crawl's page budget is cut to at most
60 pages (20 a site), and a ``scrapy crawl`` runs without the real web's politeness delay
(``-s DOWNLOAD_DELAY=0``, as every crawl of the sandbox). Its ``scrapy`` and ``bilingual-spider``
start as the suite's other crawls do (``python_command()``: the fork server of
``tests/forkserver.py``), with the console scripts' modules (``-m scrapy``,
``-m bilingual_spider.cli``). Every command of a block must
succeed (``bash -e``). A block that cannot run here says which test covers it, in a comment
just above it (``<!-- recipe covered by tests/...py (why) -->``), and that test must exist.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from scrapy.utils.conf import arglist_to_dict

from bilingual_spider.sandbox.process import SandboxServer, python_command
from bilingual_spider.sandbox.realsites import sandbox_seed_urls
from tests.waiting import CRAWL_SECONDS

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(
    r"(?:<!-- recipe covered by (?P<covered>[^ ]+)[^>]*-->\n)?```sh\n(?P<body>.*?)```", re.S
)


def recipes() -> list[tuple[str, str, str | None]]:
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            line = text[: match.start("body")].count("\n")
            where = f"{document.relative_to(ROOT)}:{line}"
            found.append((where, match["body"], match["covered"]))
    return found


RECIPES = recipes()
SMALLER = {"budget": 60, "site_budget": 20}
"""The most pages a recipe's crawl takes here (``-a budget=300`` runs with 60): each command
and option of a recipe runs, on a crawl no longer than this test needs to see it work."""


def smaller(script: str) -> str:
    """The recipe with each page budget cut to :data:`SMALLER` (a smaller one kept)."""
    return re.sub(
        r"\b(site_budget|budget)=(\d+)",
        lambda found: f"{found[1]}={min(int(found[2]), SMALLER[found[1]])}",
        script,
    )


NO_DELAY = "-s DOWNLOAD_DELAY=0"


def undelayed(script: str) -> str:
    """Each ``scrapy crawl`` of the recipe with :data:`NO_DELAY` just after its spider's name: the
    sandbox needs no politeness delay (a recipe's pupsniffer crawls of 20 pages a site took
    most of their time waiting it out). A delay the recipe sets comes after, and holds."""
    return re.sub(r"\bscrapy crawl ([a-z_]+)\b", rf"scrapy crawl \1 {NO_DELAY}", script)


PAGES = ("install", "invoking", "stopping", "configuring", "urlmapping")
"""Pages of the Apache manual, in English and French (``urls.txt``)."""


def test_recipes_are_found_and_each_covered_one_names_a_test_that_exists() -> None:
    assert len(RECIPES) >= 8
    for where, _, covered in RECIPES:
        if covered:
            assert (ROOT / covered).is_file(), f"{where}: no test {covered}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def real_sandbox() -> Iterator[SandboxServer]:
    """The real sites: a multilingual manual and a monolingual one to crawl."""
    with SandboxServer(["--real-sites"]) as server:
        yield server


@pytest.fixture(scope="module")
def commands(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of ``scrapy`` and ``bilingual-spider`` commands run by ``python_command()``."""
    folder = tmp_path_factory.mktemp("commands")
    python = shlex.join(python_command())
    for name, module in {"scrapy": "scrapy", "bilingual-spider": "bilingual_spider.cli"}.items():
        (folder / name).write_text(f'#!/bin/sh\nexec {python} -m {module} "$@"\n')
        (folder / name).chmod(0o755)
    return folder


@pytest.mark.parametrize(
    ("where", "body"),
    [(where, body) for where, body, covered in RECIPES if not covered],
    ids=[where for where, _, covered in RECIPES if not covered],
)
def test_recipe_runs(where: str, body: str, real_sandbox, commands, tmp_path: Path) -> None:
    (tmp_path / "scrapy.cfg").write_text((ROOT / "scrapy.cfg").read_text())
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    seeds = [url for url in sandbox_seed_urls() if "apache" in url or "python" in url]
    (tmp_path / "seeds.txt").write_text("".join(f"{url}\n" for url in seeds))
    (tmp_path / "sites.txt").write_text(f"{seeds[0]}\n")
    (tmp_path / "urls.txt").write_text(
        "".join(f"{seeds[0]}{page}.html.{lang}\n" for lang in ("en", "fr") for page in PAGES)
    )
    (tmp_path / "page.html").write_text(
        "<html><body><p>The council approved the budget of the city.</p></body></html>"
    )
    port = str(free_port())
    for real, served in {  # the README's real web, as the sandbox serves it (a crawl that fetches
        "https://www.canada.ca/en/services.html": f"{seeds[0]}en/index.html",  # nothing fails)
        "https://www.canada.ca/": seeds[0],
        "https://www.admin.ch/": seeds[1],
    }.items():
        body = body.replace(real, served)
    script = undelayed(smaller(body)).replace("http://127.0.0.1:8399", f"http://127.0.0.1:{port}")
    script = script.replace("--port 8399", f"--port {port}")
    if "sandbox serve" not in script:  # the recipe's "real web" is the small sandbox
        script = script.replace(f"http://127.0.0.1:{port}", real_sandbox.proxy_url)
    env = {
        **os.environ,
        "PATH": f"{commands}:{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}",
        "BILINGUAL_SANDBOX_PROXY": real_sandbox.proxy_url,
        "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS": "",
    }
    env.pop("SCRAPY_SETTINGS_MODULE", None)  # as from the project's folder: its scrapy.cfg
    done = subprocess.run(
        ["bash", "-e", "-c", f"trap 'jobs -p | xargs -r kill 2>/dev/null; true' EXIT\n{script}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=CRAWL_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{where}\n{script}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_a_recipe_s_budgets_are_cut_and_nothing_else() -> None:
    recipe = "crawl -a budget=300 -a site_budget=100 -a budget=5 -a rounds=2 -s X_budget=9"
    assert (
        smaller(recipe)
        == "crawl -a budget=60 -a site_budget=20 -a budget=5 -a rounds=2 -s X_budget=9"
    )


def test_a_recipe_s_crawls_run_without_the_politeness_delay_and_its_own_delay_holds() -> None:
    recipe = (
        "scrapy crawl backforth -a budget=5\n"
        "scrapy crawl pupsniffer -s DOWNLOAD_DELAY=2 -a rounds=2\n"
        "bilingual-spider detect http://x.org/"
    )
    assert undelayed(recipe) == (
        "scrapy crawl backforth -s DOWNLOAD_DELAY=0 -a budget=5\n"
        "scrapy crawl pupsniffer -s DOWNLOAD_DELAY=0 -s DOWNLOAD_DELAY=2 -a rounds=2\n"
        "bilingual-spider detect http://x.org/"
    )
    assert arglist_to_dict(["DOWNLOAD_DELAY=0", "DOWNLOAD_DELAY=2"]) == {"DOWNLOAD_DELAY": "2"}


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 220  # issue 52: 248, of which "After a kill" was 46
    kill = [line for line in lines if "After a kill" in line]
    assert len(kill) == 1 and "docs/after_a_kill.md" in "\n".join(lines)
    assert (ROOT / "docs" / "after_a_kill.md").is_file()
    head = "\n".join(lines[:40])
    assert "make demo" in head and "make test" in head


def test_a_verdict_s_status_and_its_values_are_documented() -> None:
    """Issue 52: sites not judged carried ``bilingual: false``, and only ``status``, documented
    nowhere, told them from monolingual ones."""
    for document in (ROOT / "README.md", ROOT / "docs" / "outputs.md"):
        text = " ".join(document.read_text(encoding="utf-8").split())
        for value in ("`status`", "`bilingual`", "`not_bilingual`", "`not_judged`"):
            assert value in text, f"{document.name}: {value}"
