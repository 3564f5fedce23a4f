"""PatientRedis: waits for a Redis that went away, but a stop signal still stops a waiting
worker; an unreachable Redis at start-up is one line, in seconds (issue 32)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable

import pytest
from redis.exceptions import ConnectionError

from bilingual_spider.distributed import connection
from bilingual_spider.distributed.connection import (
    PatientRedis,
    RedisUnavailable,
    stop_signals_heard,
    unreachable,
)
from bilingual_spider.sandbox.process import (
    SandboxServer,
    crawl_env,
    python_command,
    spider_command,
)
from bilingual_spider.sandbox.redis_server import PrivateRedis, free_port
from tests.conftest import REDIS_URL, missing
from tests.distributed.workers import PROJECT
from tests.waiting import CRAWL_SECONDS, PATIENCE_SECONDS, wait_until


class Flaky:
    """A call that fails ``failures`` times (Redis away), then answers."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionError("Error 111 connecting. Connection refused.")
        return "PONG"


@pytest.fixture(autouse=True)
def no_stop_request():
    connection._stop_requested.clear()
    yield
    connection._stop_requested.clear()


def patient(slept: list[float], should_stop=lambda: False) -> PatientRedis:
    return PatientRedis(REDIS_URL, max_wait=2.0, sleep=slept.append, should_stop=should_stop)


def test_a_call_waits_for_redis_in_short_slices_and_doubles_its_wait() -> None:
    slept: list[float] = []
    redis = patient(slept)
    assert redis.call(Flaky(4)) == "PONG"
    assert redis.outages == 1
    assert max(slept) <= connection.WAIT_SLICE
    assert sum(slept) == pytest.approx(0.5 + 1 + 2 + 2)  # doubling, at most max_wait
    redis.close()


def test_once_asked_to_stop_a_call_is_tried_once_and_given_up() -> None:
    slept: list[float] = []
    stop = {"now": False}

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        stop["now"] = len(slept) >= 3  # a stop signal arrives during the wait

    redis = PatientRedis(REDIS_URL, sleep=sleep, should_stop=lambda: stop["now"])
    flaky = Flaky(10**9)
    with pytest.raises(RedisUnavailable, match="stopping"):
        redis.call(flaky)
    assert len(slept) == 3  # the wait ended at the stop request
    with pytest.raises(RedisUnavailable):
        redis.call(flaky)  # from then on: no wait at all
    assert len(slept) == 3 and flaky.calls == 3
    redis.close()


def test_a_stop_signal_is_heard_and_handed_on() -> None:
    handed: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda number, frame: handed.append(number))
    try:
        with stop_signals_heard():
            os.kill(os.getpid(), signal.SIGTERM)
        assert connection.stop_requested() and handed == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is not None
        os.kill(os.getpid(), signal.SIGTERM)  # the old handler is back
        assert handed == [signal.SIGTERM, signal.SIGTERM]
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_unreachable_names_the_server_and_a_reachable_one_is_none() -> None:
    port = free_port()
    problem = unreachable(f"redis://:secret@127.0.0.1:{port}/0", timeout=1.0)
    assert problem and problem.startswith(f"Redis at redis://***@127.0.0.1:{port}/0 does not")
    assert "secret" not in problem
    assert unreachable(REDIS_URL, timeout=1.0) is None


def test_the_crawl_command_refuses_an_unreachable_redis_in_one_line() -> None:
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    done = subprocess.run(
        [*python_command(), "-m", "scrapy", "crawl", "backforth", "-a", "seeds=a.example"]
        + ["-s", f"REDIS_URL={url}", "-s", "BILINGUAL_REDIS_STARTUP_TIMEOUT=1"],
        capture_output=True,
        text=True,
        env=crawl_env(),
        timeout=CRAWL_SECONDS,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"scrapy crawl backforth: Redis at {url} does not answer "
        f"(Error 111 connecting to 127.0.0.1:{port}. Connection refused.); "
        "start it, or fix REDIS_URL"
    ]
    assert done.stdout == ""


def test_a_waiting_process_ends_on_sigterm(tmp_path) -> None:
    """A process blocked in a call while Redis is away (as a worker's reactor thread is) ends
    when sent SIGTERM: the handler it had runs, the wait stops and the call is given up."""
    script = tmp_path / "waiter.py"
    script.write_text(
        "import os, signal\n"
        "from bilingual_spider.distributed.connection import PatientRedis, RedisUnavailable\n"
        "signal.signal(signal.SIGTERM, lambda n, f: print('handler ran', flush=True))\n"
        f"redis = PatientRedis('redis://127.0.0.1:{free_port()}/0', max_wait=5)\n"
        "print('waiting', flush=True)\n"
        "try:\n"
        "    redis.call(redis.client.ping)\n"
        "except RedisUnavailable:\n"
        "    print('given up', flush=True)\n"
        # os._exit: no interpreter shutdown, during which Python puts SIGTERM's default action
        # back, so a SIGTERM the test sends again then would kill the process (-15), not stop it.
        "    os._exit(3)\n"
    )
    waiter = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert waiter.stdout is not None and waiter.stderr is not None
        assert waiter.stdout.readline() == "waiting\n"
        assert "waits and retries" in waiter.stderr.readline()  # the outage began

        def ended_after_a_signal() -> bool:
            waiter.send_signal(signal.SIGTERM)  # again, if the first came before the wait
            try:
                waiter.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                return False
            return True

        wait_until(ended_after_a_signal, PATIENCE_SECONDS)
    finally:
        if waiter.poll() is None:
            waiter.kill()
    assert waiter.returncode == 3
    printed = waiter.stdout.read().splitlines()
    assert "handler ran" in printed and "given up" in printed  # a later signal may print after


def test_a_crawl_waiting_for_redis_stops_on_sigterm(tmp_path) -> None:
    """A ``backforth`` worker whose Redis went away mid-crawl waits (its log says so), and a
    stop signal ends it (before issue 32, only SIGKILL did)."""
    if not PrivateRedis.available():
        missing("redis-server is not installed: apt-get install redis-server")
    slow = tmp_path / "latency.toml"
    slow.write_text('[hosts."*"]\nlatency_ms = 300\n')  # the crawl is still running at the stop
    log = tmp_path / "log.txt"

    def log_says(words: str) -> Callable[[], bool]:
        return lambda: log.is_file() and words in log.read_text(errors="replace")

    with (
        SandboxServer(["--real-sites", "--config", str(slow)]) as sandbox,
        PrivateRedis(tmp_path / "redis") as redis_server,
    ):
        settings = {"BILINGUAL_SANDBOX_PROXY": sandbox.proxy_url, "REDIS_URL": redis_server.url}
        settings |= {"LOG_FILE": log, "LOG_LEVEL": "INFO", "BILINGUAL_REDIS_RETRY_MAX_WAIT": 5}
        command = spider_command("backforth", settings, output=tmp_path / "sites.jsonl")
        worker = subprocess.Popen(
            command,
            env=crawl_env(),
            cwd=PROJECT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until(log_says("Spider opened"), CRAWL_SECONDS)
            redis_server.stop()
            wait_until(log_says("this worker waits and retries"), CRAWL_SECONDS)

            def ended_after_a_signal() -> bool:
                worker.send_signal(signal.SIGTERM)
                try:
                    worker.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    return False
                return True

            wait_until(ended_after_a_signal, PATIENCE_SECONDS)
        finally:
            if worker.poll() is None:
                worker.kill()
    assert log_says("Received SIGTERM")()
