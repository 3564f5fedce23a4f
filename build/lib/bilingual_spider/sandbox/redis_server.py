"""A private ``redis-server`` for tests and benchmarks: its own port and directory, so that its
command counts are a crawl's alone and it can be shut down and started again (AOF) mid-crawl
without touching the Redis other people use."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from bilingual_spider.sandbox.process import wait_or_kill


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PrivateRedis:
    """``redis-server`` on 127.0.0.1, a free port, data in ``directory``.

    Parameters
    ----------
    directory:
        Where it keeps its data (its AOF with ``appendonly``); kept across :meth:`restart`.
    appendonly:
        Log every write to an append-only file, fsynced every second (``appendfsync everysec``).
    """

    def __init__(self, directory: Path, appendonly: bool = False) -> None:
        self.directory = Path(directory)
        self.appendonly = appendonly
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def available() -> bool:
        return shutil.which("redis-server") is not None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def __enter__(self) -> PrivateRedis:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self, timeout: float = 10.0) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--dir", str(self.directory), "--save", "", "--protected-mode", "no"]
        command += ["--appendonly", "yes" if self.appendonly else "no"]
        command += ["--logfile", str(self.directory / "redis.log")]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.client().ping():
                    return
            except Exception:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start: {self.directory}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """``SHUTDOWN`` (the AOF is flushed), then wait for the process to end."""
        if self.process is None:
            return
        # redis-py raises once the server has closed the connection
        with contextlib.suppress(Exception):
            self.client().shutdown(nosave=not self.appendonly)
        wait_or_kill(self.process)
        self.process = None

    def restart(self, down_seconds: float = 0.0) -> None:
        """Shut down, stay down ``down_seconds``, start again with the same directory."""
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def client(self) -> Any:
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def command_calls(self) -> dict[str, int]:
        """``INFO commandstats``: calls per command since the server started (commands run
        inside Lua scripts included, e.g. the frontier's ``INFO server``; the call reading them
        is not counted in what it returns)."""
        client = self.client()
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
        calls = {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()}
        return calls
