"""Fixtures shared by the tests: a small sandbox web with every fault, a real Redis key prefix."""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import uuid
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

# No hypothesis example is judged by how long it took: on a busy machine a slow example is not a
# failure (no per-example deadline, no "too slow" health check). Tests that need fewer or more
# examples still say so with @settings(max_examples=...), which inherits these profiles.
# The suite draws the same examples every run (derandomize): a CI run fails on the code, never on
# the luck of its draw (CI9 failed on a draw no run had made before). New draws are the fuzzing
# runs' work: `make test-explore` (HYPOTHESIS_PROFILE=explore) and benchmarks/fuzz.py.
settings.register_profile(
    "machine_speed_independent",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile(
    "explore", settings.get_profile("machine_speed_independent"), derandomize=False
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "machine_speed_independent"))

from bilingual_spider.sandbox.process import PYTHON_VARIABLE, SandboxServer  # noqa: E402
from bilingual_spider.sandbox.textsource import Message, TextSource  # noqa: E402

REDIS_URL = os.environ.get("BILINGUAL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

SLOWEST_FILES = (
    "tests/sandbox/test_demo.py",
    "tests/spiders/test_kill_resume.py",
    "tests/distributed/test_workers.py",
    "tests/sandbox/test_published_sites.py",
    "tests/test_docs.py",
    "tests/sandbox/test_deep_sites.py",
    "tests/distributed/test_pupsniffer_workers.py",
    "tests/spiders/test_pupsniffer_groups.py",
    "tests/middlewares/test_focus_crawl.py",
    "tests/spiders/test_backforth_search_faults.py",
)
"""The test files that take longest (``--durations``), slowest first: ``make test``'s processes
(``--dist loadfile --no-loadscope-reorder``) take whole files in this order, so the longest
ones start first and no process is left alone with one at the end (before, files were taken
by their number of tests, and the demo's, with 5 tests and 2 demos, started last)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker: the files of :data:`SLOWEST_FILES` first, in its order, then
    the others by their number of tests, most first (pytest-xdist's own order); each file's
    tests keep their order. A single process runs the tests in the order they are collected."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    files = [item.nodeid.split("::", 1)[0] for item in items]
    tests = Counter(files)
    first = {file: i for i, file in reversed(list(enumerate(files)))}
    rank = {file: i for i, file in enumerate(SLOWEST_FILES)}
    key = {
        id(item): (rank.get(f, len(rank)), -tests[f], first[f])
        for item, f in zip(items, files, strict=True)
    }
    items.sort(key=lambda item: key[id(item)])


@functools.cache
def _catalog_messages(languages: frozenset[str]) -> tuple[Message, ...]:
    return tuple(TextSource.from_catalogs(languages).messages)


def catalog_text(languages: Iterable[str]) -> TextSource:
    """``TextSource.from_catalogs(languages)``, the catalogs read once per test process (10 s or
    more each time, for every generated world of the suite): a new ``TextSource`` of the same
    messages each call, which the generators only read."""
    return TextSource(list(_catalog_messages(frozenset(languages))))


def write_small_web(root: Path) -> Path:
    """A bilingual site (en/fr directories with switchers), a Korean EUC-KR page, and a
    monolingual site linking out, plus the TOML config that mounts them with faults."""
    bilingual = root / "bilingual"
    for lang, other, word in (("en", "fr", "Français"), ("fr", "en", "English")):
        (bilingual / lang).mkdir(parents=True)
        for i in range(1, 6):
            nxt = f'<a href="/{lang}/p{i + 1}.html">next</a>' if i < 5 else ""
            (bilingual / lang / f"p{i}.html").write_text(
                f'<html lang="{lang}"><head><meta charset="utf-8"><title>p{i}</title></head><body>'
                f'<p>page {i}</p>{nxt} <a href="/{other}/p{i}.html" hreflang="{other}">{word}</a>'
                f' <a href="/private/secret.html">secret</a></body></html>',
                encoding="utf-8",
            )
    (bilingual / "private").mkdir()
    (bilingual / "private" / "secret.html").write_text("<html><body>secret</body></html>")
    (bilingual / "index.html").write_text(
        '<html><body><a href="/en/p1.html">English</a> <a href="/fr/p1.html">Français</a>'
        ' <a href="http://mono.example/">partner</a></body></html>'
    )
    (bilingual / "list.php?lang=fr").write_text("<html lang=fr><body>liste</body></html>")
    korean = root / "korean"
    korean.mkdir()
    (korean / "index.html").write_bytes(
        '<html lang="ko"><head><meta http-equiv="Content-Type" content="text/html; charset=EUC-KR">'
        "</head><body><p>아파치 웹서버 문서입니다</p></body></html>".encode("euc-kr")
    )
    mono = root / "mono"
    mono.mkdir()
    (mono / "index.html").write_text(
        '<html lang="en"><body><a href="http://www.bilingual.example/">a bilingual site</a>'
        ' <a href="/calendar/2020/01/">calendar</a> <a href="/huge/page.html">big</a>'
        ' <a href="/loop/a">loop</a></body></html>'
    )
    config = root / "sandbox.toml"
    config.write_text(
        textwrap.dedent(
            f"""
            seed = 7
            [[mount]]
            host = "www.bilingual.example"
            prefix = "/"
            dirs = ["{bilingual}"]
            [[mount]]
            host = "www.korean.example"
            prefix = "/docs/"
            dirs = ["{korean}"]
            [[mount]]
            host = "mono.example"
            dirs = ["{mono}"]
            [[mount]]
            host = "slow.example"
            dirs = ["{mono}"]
            [[mount]]
            host = "flaky.example"
            dirs = ["{mono}"]
            [[mount]]
            host = "reset.example"
            dirs = ["{mono}"]
            [[mount]]
            host = "latin.example"
            dirs = ["{korean}"]
            [[mount]]
            host = "soft404.example"
            dirs = ["{mono}"]

            [hosts."www.bilingual.example"]
            robots_txt = "User-agent: *\\nDisallow: /private/\\n"
            [hosts."mono.example"]
            calendar_trap_prefix = "/calendar/"
            huge_page_prefix = "/huge/"
            huge_page_bytes = 3000000
            redirect_loop_prefix = "/loop/"
            [hosts."slow.example"]
            latency_ms = 300
            [hosts."flaky.example"]
            error_rate = 0.5
            error_status = 503
            [hosts."reset.example"]
            reset_rate = 1.0
            [hosts."latin.example"]
            charset_header = "iso-8859-1"
            strip_meta_charset = true
            [hosts."soft404.example"]
            soft_404 = true
            """
        )
    )
    return config


def missing(message: str) -> None:
    """Something a test needs is missing: skip on a developer's machine, fail in CI (which must
    have everything)."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session", autouse=True)
def forkserver() -> Iterator[None]:
    """Crawls and sandbox servers start as forks of an interpreter that has imported their
    libraries (``tests/forkserver.py``); ``BILINGUAL_TEST_FORKSERVER=off`` starts new ones."""
    from tests.forkserver import SOCKET_VARIABLE

    if os.environ.get(SOCKET_VARIABLE) == "off":
        yield
        return
    directory = Path(tempfile.mkdtemp(prefix="forkserver-"))
    script = Path(__file__).parent / "forkserver.py"
    with open(directory / "server.log", "wb") as log:
        server = subprocess.Popen(
            [sys.executable, str(script), "--serve", str(directory / "socket")],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
        )  # fmt: skip
    # Until it listens (its imports take seconds), the commands run new interpreters.
    os.environ[SOCKET_VARIABLE] = str(directory / "socket")
    os.environ[PYTHON_VARIABLE] = shlex.join([sys.executable, "-S", str(script)])
    yield
    del os.environ[SOCKET_VARIABLE], os.environ[PYTHON_VARIABLE]
    server.terminate()
    server.wait()
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def small_web_config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_small_web(tmp_path_factory.mktemp("smallweb"))


@pytest.fixture(scope="session")
def small_sandbox(small_web_config: Path) -> Iterator[SandboxServer]:
    with SandboxServer(["--config", str(small_web_config)]) as server:
        yield server


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own on the real Redis; every key under it is deleted after."""
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL)
    try:
        client.ping()
    except redis.exceptions.ConnectionError:
        missing(f"no Redis at {REDIS_URL}: .ci/run starts one; start one to run this test")
    prefix = f"bilingual-test-{uuid.uuid4().hex[:12]}"
    yield prefix
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@contextmanager
def generated_world_served(
    directory: Path, seed: int, sites: int
) -> Iterator[tuple[Path, SandboxServer]]:
    """A generated world (``seed``, ``sites``, every other parameter at its default) written to
    ``directory`` and served by the sandbox for the duration of the block."""
    from bilingual_spider.sandbox.webgraph_params import WorldParams
    from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, generate

    languages = ["en", *WorldParams().language_weights]
    generate(directory, WorldParams(seed=seed, sites=sites), catalog_text(languages))
    with SandboxServer(["--config", str(directory / CONFIG_FILE)]) as server:
        yield directory, server
