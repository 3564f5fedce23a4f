"""The frontier split into partitions by host: key names, where a host's keys live on a Redis
Cluster of three masters, and the frontier's promises over partitions (on the real Redis with
four partitions, and on the cluster)."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.host_slots import HostSlots
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.distributed.page_budget import SharedPageBudget
from bilingual_spider.distributed.partitioned_frontier import (
    TAKE_BATCH,
    PartitionedFrontier,
    split_id,
)
from bilingual_spider.distributed.partitions import CLUSTER_PARTITIONS, KeyLayout, host_of
from bilingual_spider.distributed.site_store import RedisSiteStore
from bilingual_spider.frontier.link_classifier import OnlineLinkClassifier
from tests.conftest import REDIS_URL
from tests.waiting import wait_until

HOSTS = [f"www.site{i}.example" for i in range(60)]


def test_one_redis_keeps_the_key_names_of_before():
    layout = KeyLayout("p")
    assert layout.crawl_base("s") == layout.partition_base("s", 0) == "p:s"
    assert layout.host_base("a.example") == "p:host:a.example"
    assert layout.robots_key("a.example:8080") == "p:robots:a.example:8080"
    assert layout.partition_of("a.example") == 0


@pytest.mark.parametrize("partitions", [1, 3, 16, 100])
def test_partition_p_hashes_into_the_p_th_run_of_slots(partitions):
    layout = KeyLayout("bilingual_spider", partitions, tagged=True)
    for p in range(partitions):
        slot = key_slot(layout.partition_base("backforth", p).encode())
        assert slot * partitions // REDIS_CLUSTER_HASH_SLOTS == p


def test_a_hosts_keys_share_one_hash_tag_and_the_crawl_wide_keys_another():
    layout = KeyLayout("px", 16, tagged=True)
    host = "www.site7.example"
    p = layout.partition_of(host)
    assert (
        p == layout.partition_of(host.upper()) == layout.partition_of(host_of(f"http://{host}/a"))
    )
    keys = [
        f"{layout.partition_base('backforth', p)}:queue",
        f"{layout.host_base(host)}:next",
        layout.robots_key(f"{host}:80"),
    ]
    assert len({key_slot(key.encode()) for key in keys}) == 1
    assert key_slot(f"{layout.crawl_base('backforth')}:counters".encode()) == key_slot(
        f"{layout.crawl_base('backforth')}:ended".encode()
    )
    assert Counter(layout.partition_of(h) for h in HOSTS).keys() == set(range(16))


def test_all_of_a_hosts_keys_live_on_one_master_and_hosts_spread_over_all_three(
    redis_cluster, cluster_redis
):
    """Requests of 60 hosts queued and taken, each host's politeness slot reserved and its
    robots.txt stored, on the three-master cluster: every key of a host (its partition's queue,
    request store, leases and duplicate filter, its politeness keys, its robots.txt) is held by
    one master (asked of each master: which has it), and the hosts' keys are on all three."""
    prefix = f"bilingual-test-{uuid.uuid4().hex[:12]}"
    layout = KeyLayout(prefix, CLUSTER_PARTITIONS, tagged=True)
    frontier = PartitionedFrontier(cluster_redis, layout, "backforth", worker="w")
    slots = HostSlots(cluster_redis, layout, "w1", delay=0.0, concurrency=1)
    for host in HOSTS:
        frontier.push(f"http://{host}/".encode(), 0, f"fp-{host}", host=host)
        assert slots.acquire(host, "token") == 0
        cluster_redis.client.set(layout.robots_key(host), b"User-agent: *")
    for _ in range(len(HOSTS) // 2):  # half of them leased
        assert frontier.take()[0] is not None
    nodes = [node.client() for node in redis_cluster.nodes]
    where = {key.decode(): i for i, node in enumerate(nodes) for key in node.scan_iter("*")}
    holders: dict[str, int] = {}
    for host in HOSTS:
        base = layout.partition_base("backforth", layout.partition_of(host))
        keys = [f"{base}:{name}" for name in ("queue", "requests", "seen", "counters")]
        keys += [f"{layout.host_base(host)}:next", f"{layout.host_base(host)}:inflight"]
        keys.append(layout.robots_key(host))
        assert set(keys[1:]) <= set(where)  # each is on some master (the queue: if not empty)
        held = {where[key] for key in keys if key in where}
        assert len(held) == 1, (host, held)
        slots_of = {cluster_redis.client.cluster_keyslot(key) for key in keys}  # the server's
        assert len(slots_of) == 1
        holders[host] = held.pop()
    for node in nodes:
        node.close()
    assert set(holders.values()) == {0, 1, 2}, Counter(holders.values())


@pytest.fixture(params=["redis, 4 partitions", "cluster, 16 partitions"])
def partitioned(request):
    """A factory of workers' frontiers of one crawl split into partitions."""
    prefix = f"bilingual-test-{uuid.uuid4().hex[:12]}"
    if request.param.startswith("redis"):
        request.getfixturevalue("redis_prefix")
        connection = PatientRedis(REDIS_URL)
        layout = KeyLayout(prefix, 4, tagged=True)
    else:
        connection = request.getfixturevalue("cluster_redis")
        layout = KeyLayout(prefix, CLUSTER_PARTITIONS, tagged=True)

    def frontier(worker: str, lease_seconds: float = 60.0) -> PartitionedFrontier:
        return PartitionedFrontier(connection, layout, "s", lease_seconds, worker)

    yield frontier
    if request.param.startswith("redis"):  # the cluster is the session's own, shut down after
        for key in connection.client.scan_iter(f"*{prefix}*"):
            connection.client.delete(key)
        connection.close()


def test_two_workers_take_every_request_once_from_every_partition(partitioned):
    """Two workers take in turn until nothing is left, acknowledging what they took with their
    next take: every request is taken once, every partition gave some to each worker within
    its turns, and the crawl is finished with everything acknowledged."""
    a, b = partitioned("a"), partitioned("b")
    pushed = {}
    for i, host in enumerate(HOSTS):
        for page in range(3):
            blob = f"http://{host}/{page}".encode()
            pushed[blob] = a.push(blob, i % 5, f"fp{i}-{page}", host=host)
    assert a.push(b"http://www.site0.example/0", 0, "fp0-0", host=HOSTS[0]) is None  # seen
    taken: list[bytes] = []
    done = {"a": [], "b": []}
    while True:
        progress = False
        for name, worker in (("a", a), ("b", b)):
            got, _ = worker.take(done[name])
            done[name] = []
            if got is not None:
                taken.append(got.blob)
                done[name].append(got.id)
                progress = True
        if not progress:
            break
    assert Counter(taken) == Counter(pushed.keys())  # each once
    for name, worker in (("a", a), ("b", b)):
        worker.ack(done[name])
    status = a.status()
    assert status.finished and (status.queued, status.leased) == (0, 0)
    counters = a.counters()
    assert counters["queued"] == counters["acked"] == len(pushed)
    assert counters["filtered"] == 1


def test_a_worker_takes_its_turns_partition_by_partition(partitioned):
    frontier = partitioned("w")
    for host in HOSTS:
        for page in range(20):
            frontier.push(f"http://{host}/{page}".encode(), 0, f"{host}{page}", host=host)
    partitions = [split_id(frontier.take()[0].id)[0] for _ in range(TAKE_BATCH * 3)]
    runs = [partitions[i : i + TAKE_BATCH] for i in range(0, len(partitions), TAKE_BATCH)]
    assert all(len(set(run)) == 1 for run in runs)  # a batch from one partition
    assert len({run[0] for run in runs}) == 3  # then the next one's turn


def test_a_dead_workers_lease_comes_back_in_its_partition(partitioned):
    dead, alive = partitioned("dead", lease_seconds=0.3), partitioned("alive")
    dead.push(b"http://www.site3.example/", 0, "fp", host="www.site3.example")
    taken, _ = dead.take()
    assert alive.take()[0] is None  # leased
    again = wait_until(lambda: alive.take()[0], limit=30)
    assert again.blob == taken.blob and again.redelivered_from == "dead"
    assert alive.ack([again.id]).acked == 1
    assert dead.ack([taken.id]).refetched == 1
    assert alive.status().finished


def test_the_budget_and_the_end_are_crawl_wide(partitioned):
    a, b = partitioned("a"), partitioned("b")
    for host in HOSTS[:20]:
        a.push(f"http://{host}/".encode(), 0, host, host=host)
    first, _ = a.take()
    second, _ = b.take()
    a.take([first.id], pages=1, budget=2)
    assert a.budget_spent() == 1 and a.status(until_work=True).ended is None
    b.take([second.id], pages=1, budget=2)  # the page that spends the budget
    assert a.budget_spent() == 2
    assert a.status().ended == "budget" and b.status(until_work=True).finished
    assert a.take()[0] is None and b.take()[0] is None  # no partition gives anything


def test_a_page_counted_by_request_is_forgotten_when_its_request_is_acknowledged(partitioned):
    """backforth counts each page once per request in the crawl-wide ``counted`` hash: the
    acknowledgement (riding on a take, or alone) drops the request's field, so the hash holds
    the requests in flight, not one field per page; a request another worker took again after
    its lease expired keeps its count (its second processing must not count again)."""
    a, b = partitioned("a"), partitioned("b", lease_seconds=0.3)
    for frontier in (a, b):
        frontier.pages_counted_by_request = True
    for host in HOSTS[:12]:
        a.push(f"http://{host}/".encode(), 0, host, host=host)
    budget = SharedPageBudget(a.redis, a.base, 100)
    counted = f"{a.base}:counted"
    taken = [a.take()[0] for _ in range(3)]
    assert [budget.spend(request_id=t.id) for t in taken] == [1, 2, 3]
    assert a.redis.client.hlen(counted) == 3
    a.take([taken[0].id])  # acknowledged with the next take
    a.ack([taken[1].id, taken[2].id])
    assert a.redis.client.hlen(counted) == 0
    late, _ = b.take()
    assert budget.spend(request_id=late.id) == 4
    again = wait_until(lambda: a.take()[0], limit=30)  # b's lease expired: a takes it
    while again.id != late.id:
        again = wait_until(lambda: a.take()[0], limit=30)
    assert budget.spend(request_id=again.id) == 0  # counted once
    assert b.ack([late.id]).refetched == 1
    assert a.redis.client.hexists(counted, late.id)  # kept: a still processes it


def test_workers_with_another_number_of_partitions_refuse_to_start(partitioned):
    frontier = partitioned("a")
    assert frontier.check_dupefilter() is None
    other = PartitionedFrontier(
        frontier.redis, KeyLayout(frontier.layout.prefix, 2, tagged=True), "s"
    )
    assert other.check_dupefilter() == frontier.dupefilter


def test_the_crawl_wide_stores_run_on_the_cluster(cluster_redis):
    """The crawl-wide state's scripts (link classifiers, site detections, page budget) run on
    the cluster unchanged: their keys share the crawl's own hash tag."""
    layout = KeyLayout(f"bilingual-test-{uuid.uuid4().hex[:12]}", CLUSTER_PARTITIONS, True)
    base = layout.crawl_base("backforth")
    one, two = (SharedLinkModels(cluster_redis, base, ("forward",), 10) for _ in range(2))
    for i in range(10):
        one.add_example("forward", ["url:links", f"anchor:w{i}"], True)
        two.add_example("forward", ["url:news", f"anchor:w{i}"], False)
    mine, theirs = {"forward": OnlineLinkClassifier()}, {"forward": OnlineLinkClassifier()}
    assert two.step(theirs, pages=1, sites=0).retrained == []  # its examples sent; not due
    assert one.step(mine, pages=9, sites=1).retrained == ["forward"]  # on both workers' examples
    assert two.step(theirs, pages=1, sites=0).loaded == ["forward"]
    assert theirs["forward"].score(["url:links"]) == mine["forward"].score(["url:links"]) > 0.5
    first, second = (RedisSiteStore(cluster_redis, base, worker=w) for w in ("a", "b"))
    assert first.claim("www.site1.example") and not second.claim("www.site1.example")
    budget = SharedPageBudget(cluster_redis, base, 3)
    assert (budget.spend(2), budget.spend(1)) == (2, 3)
    assert cluster_redis.client.get(f"{base}:ended") == b"budget"
