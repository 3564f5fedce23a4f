"""Helpers of the tests with real worker processes: a generated world served with every host
answering late, the settings of a worker logging what it fetched, and workers run to their end."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bilingual_spider.distributed.partitions import KeyLayout
from bilingual_spider.sandbox.process import SandboxServer, crawl_env
from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE
from tests.conftest import REDIS_URL, generated_world_served
from tests.spiders.response_log import logged_crawl_settings
from tests.waiting import CRAWL_SECONDS

PROJECT = Path(__file__).resolve().parents[2]


@contextmanager
def slow_world_served(
    directory: Path, seed: int, sites: int, latency_ms: int
) -> Iterator[tuple[Path, SandboxServer]]:
    """A generated world whose every host answers ``latency_ms`` late, served for the block."""
    with generated_world_served(directory, seed, sites) as (world, plain):
        plain.stop()
        slow = directory / "latency.toml"
        slow.write_text(f'[hosts."*"]\nlatency_ms = {latency_ms}\n')
        config = ["--config", str(world / CONFIG_FILE), "--config", str(slow)]
        with SandboxServer(config) as server:
            yield world, server


def worker_settings(server: SandboxServer, out: Path, prefix: str | None) -> dict[str, Any]:
    """A crawl through the sandbox logging its responses, stats and log to ``out``; with a
    ``prefix``, a worker of the crawl under it on the real Redis (short leases and waits)."""
    out.mkdir(parents=True, exist_ok=True)
    settings: dict[str, Any] = {
        **logged_crawl_settings(server.proxy_url, out / "responses.jsonl", out / "stats.json"),
        "LOG_FILE": out / "log.txt",
        "LOG_LEVEL": "INFO",
    }
    if prefix is not None:
        settings.update(
            REDIS_URL=REDIS_URL,
            BILINGUAL_REDIS_KEY_PREFIX=prefix,
            BILINGUAL_REDIS_LEASE_SECONDS=4,
            BILINGUAL_REDIS_IDLE_MAX_WAIT=1,
        )
    return settings


def start_worker(command: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        command,
        cwd=PROJECT,
        env=crawl_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )


def run_to_end(commands: list[list[str]], timeout: float = CRAWL_SECONDS) -> list[int]:
    """Start a worker per command and wait for all to end by themselves; their exit codes."""
    workers = [start_worker(command) for command in commands]
    try:
        return [worker.wait(timeout=timeout) for worker in workers]
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()


def frontier_state(
    client, prefix: str, spider: str = "backforth", layout: KeyLayout | None = None
) -> dict[str, dict[str, int]]:
    """The crawl's counters and what is left in its queue, leases and request store (summed over
    the partitions of ``layout``; default: one Redis)."""
    layout = layout or KeyLayout(prefix)
    bases = {layout.partition_base(spider, p) for p in range(layout.partitions)}
    bases.add(layout.crawl_base(spider))  # the crawl-wide counters (budget_pages) of partitions
    counters: Counter[str] = Counter()
    left: Counter[str] = Counter({"queue": 0, "leases": 0, "requests": 0})
    for base in bases:
        counters.update({k.decode(): int(v) for k, v in client.hgetall(f"{base}:counters").items()})
        left["queue"] += client.zcard(f"{base}:queue")
        left["leases"] += client.zcard(f"{base}:leases")
        left["requests"] += client.hlen(f"{base}:requests")
    return {"counters": dict(counters), "left": dict(left)}


def assert_ended_with_nothing_lost(run: dict) -> None:
    """Every worker ended by itself, and every request queued was processed to the end by some
    worker (0 lost), rarely twice."""
    assert set(run["codes"]) == {0}
    assert all(s["finish_reason"] == "finished" for s in run["stats"])
    assert run["left"] == {"queue": 0, "leases": 0, "requests": 0}, run["counters"]
    counters = run["counters"]
    assert counters["acked"] + counters.get("late_acks", 0) == counters["queued"], counters
    assert counters.get("refetched", 0) <= 0.01 * counters["queued"], counters
