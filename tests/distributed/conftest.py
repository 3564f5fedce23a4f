"""The fixtures of the Redis tests of the distributed package: a connection to the real Redis,
a private Redis Cluster of three masters (started once per session), and the two as the
backends the important worker tests run on."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bilingual_spider.distributed.connection import PatientRedis, cluster_client
from bilingual_spider.distributed.partitions import CLUSTER_PARTITIONS, KeyLayout
from bilingual_spider.sandbox.redis_server import PrivateRedisCluster
from tests.conftest import REDIS_URL, missing


@pytest.fixture
def redis(redis_prefix):
    connection = PatientRedis(REDIS_URL)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedisCluster]:
    """A Redis Cluster of three masters on 127.0.0.1 (``redis-server --cluster-enabled yes`` on
    free ports, ``redis-cli --cluster create``), with AOF; shut down after the session."""
    if not PrivateRedisCluster.available():
        missing("redis-server or redis-cli is not installed: apt-get install redis-server")
    with PrivateRedisCluster(tmp_path_factory.mktemp("cluster"), appendonly=True) as cluster:
        yield cluster


@pytest.fixture
def cluster_redis(redis_cluster: PrivateRedisCluster) -> Iterator[PatientRedis]:
    """A worker's connection to the cluster."""
    connection = PatientRedis(redis_cluster.url, client=cluster_client(redis_cluster.url))
    yield connection
    connection.close()


@dataclass
class RedisBackend:
    """Where the workers of a test keep their shared state: the real Redis, or the cluster."""

    name: str
    url: str
    settings: dict[str, Any] = field(default_factory=dict)
    """What every worker is given besides ``REDIS_URL``."""
    cluster: PrivateRedisCluster | None = None

    def client(self) -> Any:
        import redis

        if self.cluster is not None:
            return self.cluster.client()
        return redis.Redis.from_url(self.url)

    def layout(self, prefix: str) -> KeyLayout:
        """The key names of the crawls under ``prefix``."""
        if self.cluster is None:
            return KeyLayout(prefix)
        return KeyLayout(prefix, CLUSTER_PARTITIONS, tagged=True)

    def worker_settings(self) -> dict[str, Any]:
        return {"REDIS_URL": self.url, **self.settings}


def backend_named(name: str, request: pytest.FixtureRequest) -> RedisBackend:
    """``redis``: the real Redis (keys of one server, as before); ``cluster``: the three-master
    Redis Cluster of the session (the frontier in 16 partitions by host)."""
    if name == "redis":
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        try:
            client.ping()
        except redis.exceptions.ConnectionError:
            missing(f"no Redis at {REDIS_URL}: .ci/run starts one; start one to run this test")
        finally:
            client.close()
        return RedisBackend("redis", REDIS_URL)
    cluster = request.getfixturevalue("redis_cluster")
    return RedisBackend("cluster", cluster.url, {"BILINGUAL_REDIS_CLUSTER": True}, cluster)


@pytest.fixture(params=["redis", "cluster"])
def redis_backend(request: pytest.FixtureRequest) -> RedisBackend:
    """Each test using it runs twice: on the real Redis and on the cluster (see
    :func:`backend_named`)."""
    return backend_named(request.param, request)


def delete_keys(client: Any, prefix: str) -> None:
    """Delete every key of the crawls under ``prefix`` (tagged ones too), one by one (on a
    cluster they are in many slots)."""
    for key in list(client.scan_iter(f"*{prefix}:*")):
        client.delete(key)
