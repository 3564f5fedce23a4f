"""The suite's fork server (``tests/forkserver.py``) runs a command as a new interpreter would:
same output, exit status and signals, and its command dies with the client."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.forkserver import SOCKET_VARIABLE
from tests.waiting import wait_until

SCRIPT = Path(__file__).parent / "forkserver.py"

COMMAND = textwrap.dedent(
    """
    import os, sys, time
    print("preloaded" if "scipy.stats" in sys.modules else "new", os.getcwd(), sys.argv[1:],
          os.environ.get("PROBE_VALUE"), sys.path[0] == os.getcwd())
    print("to stderr", file=sys.stderr)
    if sys.argv[1] == "wait":
        open("pid", "w").write(str(os.getpid()))
        time.sleep(60)
    sys.exit(int(sys.argv[1]))
    """
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    directory = tmp_path_factory.mktemp("forkserver")
    path = directory / "socket"
    process = subprocess.Popen([sys.executable, str(SCRIPT), "--serve", str(path)])
    wait_until(path.exists)
    yield path
    process.terminate()
    process.wait()


def start(server: Path, cwd: Path, *arguments: str, **env: str) -> subprocess.Popen[str]:
    (cwd / "probe_command.py").write_text(COMMAND)
    environment = {**os.environ, SOCKET_VARIABLE: str(server), "PROBE_VALUE": "v", **env}
    return subprocess.Popen(
        [sys.executable, "-S", str(SCRIPT), "-m", "probe_command", *arguments],
        cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_a_command_runs_forked_with_its_own_directory_environment_streams_and_status(
    server, tmp_path
):
    out, err = start(server, tmp_path, "3").communicate(timeout=60)
    assert out.split() == ["preloaded", str(tmp_path), "['3']", "v", "True"]
    assert err == "to stderr\n"
    assert start(server, tmp_path, "3").wait(timeout=60) == 3
    assert start(server, tmp_path, "0").wait(timeout=60) == 0


def test_another_hash_seed_runs_a_new_interpreter(server, tmp_path):
    out, _ = start(server, tmp_path, "0", PYTHONHASHSEED="0").communicate(timeout=60)
    assert out.split()[0] == "new"


def test_no_server_runs_a_new_interpreter(tmp_path):
    process = start(tmp_path / "no-socket", tmp_path, "5")
    out, _ = process.communicate(timeout=60)
    assert out.split()[0] == "new" and process.returncode == 5


def test_a_signal_goes_on_to_the_command_and_its_status_comes_back(server, tmp_path):
    process = start(server, tmp_path, "wait")
    wait_until((tmp_path / "pid").exists)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == -signal.SIGTERM


def test_a_killed_client_takes_its_command_with_it(server, tmp_path):
    process = start(server, tmp_path, "wait")
    wait_until((tmp_path / "pid").exists)
    command = int((tmp_path / "pid").read_text())
    assert command != process.pid
    process.kill()
    process.wait(timeout=60)
    wait_until(lambda: not Path(f"/proc/{command}").exists())


def test_a_fork_reads_the_settings_from_its_own_environment(server, tmp_path):
    (tmp_path / "settings_probe.py").write_text(
        "from bilingual_spider import settings\nprint(settings.BILINGUAL_SANDBOX_PROXY)\n"
    )
    environment = {**os.environ, SOCKET_VARIABLE: str(server)}
    for proxy in ("http://127.0.0.1:1", "http://127.0.0.1:2"):
        done = subprocess.run(
            [sys.executable, "-S", str(SCRIPT), "-m", "settings_probe"],
            cwd=tmp_path, env={**environment, "BILINGUAL_SANDBOX_PROXY": proxy},
            capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        assert done.stdout == f"{proxy}\n"


@pytest.mark.parametrize(
    ("command", "printed"),
    [
        (["bilingual_spider.cli", "--version"], "bilingual-spider "),  # run afresh as __main__
        (["scrapy", "version"], "Scrapy "),  # a package: its __main__
    ],
)
def test_a_module_the_server_imported_runs_as_main_without_a_warning(
    server, tmp_path, command, printed
):
    done = subprocess.run(
        [sys.executable, "-S", str(SCRIPT), "-m", *command],
        cwd=tmp_path, env={**os.environ, SOCKET_VARIABLE: str(server)},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.startswith(printed) and done.stderr == ""
