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
