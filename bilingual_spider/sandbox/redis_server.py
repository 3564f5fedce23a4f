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
    cluster:
        A node of a Redis Cluster (``cluster-enabled yes``, its bus on a free port of its own,
        its node table in ``nodes.conf`` in ``directory``): see :class:`PrivateRedisCluster`.
    """

    def __init__(self, directory: Path, appendonly: bool = False, cluster: bool = False) -> None:
        self.directory = Path(directory)
        self.appendonly = appendonly
        self.port = free_port()
        self.cluster_port = free_port() if cluster else None
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
        if self.cluster_port is not None:
            command += ["--cluster-enabled", "yes", "--cluster-port", str(self.cluster_port)]
            command += ["--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "2000"]
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
        # redis-py raises once the server has closed the connection (tried once: its default
        # retries would knock at the closed port for seconds)
        with contextlib.suppress(Exception):
            self.client(retries=0).shutdown(nosave=not self.appendonly)
        wait_or_kill(self.process)
        self.process = None

    def restart(self, down_seconds: float = 0.0) -> None:
        """Shut down, stay down ``down_seconds``, start again with the same directory."""
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def client(self, retries: int = 3) -> Any:
        import redis
        from redis.backoff import ExponentialBackoff
        from redis.retry import Retry

        retry = Retry(ExponentialBackoff(), retries)
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5, retry=retry)

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


class PrivateRedisCluster:
    """A Redis Cluster of ``masters`` private ``redis-server`` nodes on 127.0.0.1 (no replicas),
    made as a user makes one: each node started with ``--cluster-enabled yes``, then
    ``redis-cli --cluster create HOST:PORT ... --cluster-replicas 0 --cluster-yes``, which gives
    each master an equal run of the 16,384 hash slots.

    Parameters
    ----------
    directory:
        Each node keeps its data and node table in a directory of its own under it.
    masters:
        Nodes (each a master).
    appendonly:
        Each node logs its writes to an AOF (a node restarted keeps its data, and its node table
        brings it back into the cluster with the same slots).
    """

    def __init__(self, directory: Path, masters: int = 3, appendonly: bool = False) -> None:
        self.nodes = [
            PrivateRedis(Path(directory) / f"node{i}", appendonly=appendonly, cluster=True)
            for i in range(masters)
        ]

    @staticmethod
    def available() -> bool:
        return PrivateRedis.available() and shutil.which("redis-cli") is not None

    @property
    def url(self) -> str:
        """A node's URL: the cluster client finds the others from it."""
        return self.nodes[0].url

    def __enter__(self) -> PrivateRedisCluster:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def start(self, timeout: float = 30.0) -> None:
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        command = ["redis-cli", "--cluster", "create", *addresses]
        command += ["--cluster-replicas", "0", "--cluster-yes"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=timeout)
        self.wait_until_ok(timeout)

    def wait_until_ok(self, timeout: float = 30.0) -> None:
        """Until every node says ``cluster_state:ok`` (all slots served)."""
        deadline = time.monotonic() + timeout
        while not all(self._ok(node) for node in self.nodes):
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.1)

    @staticmethod
    def _ok(node: PrivateRedis) -> bool:
        client = node.client()
        try:
            return bool(client.cluster("INFO")["cluster_state"] == "ok")
        except Exception:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def restart(self, node: int, down_seconds: float = 0.0) -> None:
        """Shut down one master (SHUTDOWN: its AOF flushed), stay down ``down_seconds``, start
        it again on its directory, and wait for the cluster to be whole again."""
        self.nodes[node].restart(down_seconds)
        self.wait_until_ok()

    def client(self) -> Any:
        import redis

        return redis.RedisCluster(host="127.0.0.1", port=self.nodes[0].port, socket_timeout=5)

    def command_calls(self) -> dict[str, int]:
        """``INFO commandstats`` of every node, summed."""
        calls: dict[str, int] = {}
        for node in self.nodes:
            for name, count in node.command_calls().items():
                calls[name] = calls.get(name, 0) + count
        return calls
