"""The leased frontier and the shared site store on the real Redis (a key prefix of their own)."""

from __future__ import annotations

import time

import pytest

from bilingual_spider.detection.detector import DetectionState, LinkScore, ProbeResult
from bilingual_spider.detection.store import ConcurrentUpdate
from bilingual_spider.distributed.connection import PatientRedis
from bilingual_spider.distributed.frontier import LeasedFrontier, Requeue, push_seeds, seeds_key
from bilingual_spider.distributed.page_budget import SharedPageBudget
from bilingual_spider.distributed.site_store import RedisSiteStore
from tests.conftest import REDIS_URL
from tests.waiting import wait_until


def test_requests_come_out_by_priority_then_first_in_first_out(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    for blob, priority in ((b"low", 0), (b"a", 5), (b"b", 5), (b"high", 1000), (b"neg", -3)):
        assert frontier.push(blob, priority, fingerprint=blob.decode())
    order = []
    while (taken := frontier.take()[0]) is not None:
        order.append((taken.blob, taken.next_priority))
    assert order == [(b"high", 5), (b"a", 5), (b"b", 0), (b"low", -3), (b"neg", None)]


def test_a_fingerprint_is_queued_once_unless_unfiltered(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    assert frontier.push(b"x", 0, "fp") is not None
    assert frontier.push(b"x", 0, "fp") is None
    assert frontier.push(b"x", 0, None) is not None  # dont_filter
    assert frontier.counters()["filtered"] == 1


def test_a_taken_request_stays_leased_until_acknowledged(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    frontier.push(b"page", 0, "fp")
    taken, _ = frontier.take()
    status = frontier.status()
    assert (status.queued, status.leased, status.finished) == (0, 1, False)
    assert frontier.ack([taken.id]).acked == 1
    assert frontier.status().finished
    assert not redis.client.hlen(frontier.keys["requests"])  # nothing left behind


def test_an_expired_lease_puts_the_request_back_and_a_late_ack_removes_it(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=0.2)
    frontier.push(b"page", 7, "fp")
    taken, _ = frontier.take()
    wait_until(lambda: frontier.status().queued == 1)  # reclaimed, at its old place
    acks = frontier.ack([taken.id])  # its worker finished after all: nobody took it again
    assert (acks.acked, acks.late, acks.refetched) == (0, 1, 0)
    assert frontier.status().finished


def test_the_time_redis_was_down_is_given_back_to_the_leases(redis, redis_prefix):
    """A Redis restart (its run id changed since a worker last heard from it): the leases get the
    time it was down back, so live workers' leases do not expire because Redis was away."""
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=1)
    frontier.push(b"page", 0, "fp")
    taken, _ = frontier.take()
    seconds, micros = redis.client.time()
    now = seconds * 1000 + micros // 1000
    # as if Redis had gone down 5 s ago, with the lease then 1 s from its end, and come back
    redis.client.hset(frontier.keys["heard"], mapping={"run": "an-earlier-run", "at": now - 5000})
    redis.client.zadd(frontier.keys["leases"], {taken.id: now - 4000})
    status = frontier.status()
    assert (status.queued, status.leased) == (0, 1)  # not reclaimed: 1 s of lease left
    assert frontier.counters()["redis_restarts"] == 1
    assert frontier.status().leased == 1  # given back once only
    wait_until(lambda: frontier.status().queued == 1)  # then it expires as any lease does


def lease_deadline(frontier: LeasedFrontier, request_id: str) -> float | None:
    return frontier.redis.client.zscore(frontier.keys["leases"], request_id)


def test_renewed_leases_do_not_expire_and_a_refetch_is_counted(redis, redis_prefix):
    slow = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=1.0)
    slow.push(b"page", 0, "fp")
    taken, _ = slow.take()
    for _ in range(3):  # each renewal moves the deadline to a full lease from now
        before = lease_deadline(slow, taken.id)
        time.sleep(0.01)  # at least: Redis's clock (in ms here) moves on
        assert slow.renew([taken.id]) == 1
        assert lease_deadline(slow, taken.id) > before
    assert slow.status().leased == 1
    other = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=30)
    # no renewal: another worker takes it again once the lease is over
    again = wait_until(lambda: other.take()[0])
    assert again.id == taken.id
    assert slow.ack([taken.id]).refetched == 1
    assert other.ack([again.id]).acked == 1
    assert other.status().finished


def test_a_request_taken_again_after_its_lease_expired_says_so(redis, redis_prefix):
    """The worker that takes a reclaimed request is told (its dead holder may have done part of
    the work); a request released unprocessed by a closing worker, or taken the first time, is
    not marked; the mark leaves Redis with the request."""
    dead = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=0.2, worker="dead")
    dead.push(b"expired", 5, "a")
    dead.push(b"released", 0, "b")
    first, _ = dead.take()
    second, _ = dead.take()
    assert (first.redelivered, second.redelivered) == (False, False)
    dead.release([second.id])
    wait_until(lambda: dead.status().queued == 2)  # the lease of the first is over
    live = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=30)
    again, _ = live.take()
    released, _ = live.take()
    assert (again.blob, again.redelivered_from) == (b"expired", "dead")
    assert (released.blob, released.redelivered) == (b"released", False)
    live.ack([again.id, released.id])
    assert not redis.client.exists(live.keys["redelivered"])


def test_requeue_release_end_and_seeds(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    frontier.push(b"a", 10, "a")
    frontier.push(b"b", 5, "b")
    taken, _ = frontier.take()
    assert frontier.requeue(taken.id, b"a2", 1)  # re-scored below b
    first, _ = frontier.take()
    assert first.blob == b"b"
    assert frontier.release([first.id]) == 1
    assert frontier.status().queued == 2
    frontier.end("budget")
    frontier.end("other")
    assert frontier.status().ended == "budget" and frontier.status().finished
    assert frontier.take()[0] is None  # ended: no worker takes anything more
    push_seeds(redis, seeds_key(redis_prefix), ["http://a.example/", "http://b.example/"])
    assert frontier.take_seeds(seeds_key(redis_prefix)) == [
        "http://a.example/",
        "http://b.example/",
    ]
    assert frontier.take_seeds(seeds_key(redis_prefix)) == []


def test_a_take_puts_a_re_scored_request_back_before_taking_the_next(redis, redis_prefix):
    """The scheduler's re-scored request that fell behind goes back with its next take (one round
    trip, not two): the take answers the request that now leads, the other follows."""
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    for blob, priority in ((b"a", 10), (b"b", 5)):
        frontier.push(blob, priority, blob.decode())
    stale, _ = frontier.take()
    lead, _ = frontier.take(requeue=Requeue(stale.id, b"a2", 1))  # re-scored below b
    assert lead.blob == b"b" and lead.next_priority == 1
    again, _ = frontier.take([lead.id], requeue=Requeue(lead.id, b"gone", 9))  # acked: not back
    assert (again.id, again.blob) == (stale.id, b"a2")
    assert frontier.take([again.id])[0] is None
    assert frontier.counters()["requeued"] == 1 and frontier.status().finished


def test_only_leased_requests_keep_their_order_aside_and_go_back_to_it(redis, redis_prefix):
    """A queued request's order is its score in the queue (no copy: fewer bytes a queued URL);
    a taken one keeps it aside until an expired lease or a release puts it back there."""
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s", lease_seconds=0.2)
    order = frontier.keys["order"]
    for blob, priority in ((b"first", 5), (b"second", 5), (b"low", 1)):
        frontier.push(blob, priority, blob.decode())
    assert not redis.client.hlen(order)
    expiring, _ = frontier.take()
    released, _ = frontier.take()
    assert redis.client.hlen(order) == 2
    frontier.release([released.id])
    wait_until(lambda: frontier.status().queued == 3)  # the other lease is over
    assert not redis.client.hlen(order)
    again = [frontier.take()[0] for _ in range(3)]
    assert [t.blob for t in again] == [b"first", b"second", b"low"]  # at their old places
    frontier.ack([t.id for t in again])
    assert frontier.status().finished and not redis.client.hlen(order)


def test_nothing_is_finished_before_anything_was_queued(redis, redis_prefix):
    assert not LeasedFrontier(redis, f"{redis_prefix}:s").status().finished


def state(site: str, pending: tuple[str, ...]) -> DetectionState:
    start = ProbeResult(url=f"http://{site}/", score=None, ok=True, lang="en")
    probes = tuple(LinkScore(url, 0.9) for url in pending)
    return DetectionState(site, f"http://{site}/", start, (), probes)


def test_site_store_one_verdict_and_compare_and_set(redis, redis_prefix):
    one = RedisSiteStore(redis, f"{redis_prefix}:s")
    two = RedisSiteStore(PatientRedis(REDIS_URL), f"{redis_prefix}:s")  # another worker
    assert one.claim("a.example") and not two.claim("a.example")
    one.save(state("a.example", ("p1", "p2")))
    mine, theirs = one.load("a.example"), two.load("a.example")
    two.save(state("a.example", ("p2",)))
    with pytest.raises(ConcurrentUpdate):
        one.save(state("a.example", ("p1",)))
    assert one.load("a.example").pending == theirs.pending[1:]
    assert mine is not None and one.unfinished() == ["a.example"]


def test_a_claim_without_state_expires(redis, redis_prefix):
    store = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=1.0)
    assert store.claim("a.example") and not store.claim("a.example")
    wait_until(lambda: store.claim("a.example"))  # its claimant died before saving anything
    store.save(state("a.example", ("p1",)))
    time.sleep(1.2)  # longer than a claim: a saved state keeps it
    assert not store.claim("a.example")


def test_the_page_that_spends_a_shared_budget_ends_the_crawl_for_every_worker(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    frontier.push(b"page", 0, "fp")
    one, two = (SharedPageBudget(redis, f"{redis_prefix}:s", budget=3) for _ in range(2))
    assert (one.spend(), two.spend()) == (1, 2)
    assert frontier.status().ended is None
    assert one.spend() == 3
    assert frontier.status().ended == "budget" and frontier.take()[0] is None
    assert two.spend() == 4 and frontier.counters()["budget_pages"] == 4


def test_an_ack_counts_its_pages_against_the_budget_in_the_same_script(redis, redis_prefix):
    """The scheduler's page budget is counted by the acknowledging script itself: a worker
    killed after an acknowledgement has counted its pages (counted in a second call, a kill
    between the two lost them, and the crawl wrote pages past its budget)."""
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s")
    for blob in (b"a", b"b", b"c", b"d"):
        frontier.push(blob, 0, blob.decode())
    first, _ = frontier.take()
    second, _ = frontier.take([first.id], pages=1, budget=3)
    assert frontier.counters()["budget_pages"] == 1
    assert frontier.ack([second.id], pages=1, budget=3).acked == 1  # one page, not yet the budget
    assert frontier.counters()["budget_pages"] == 2 and frontier.status().ended is None
    third, _ = frontier.take()
    assert frontier.take([third.id], pages=1, budget=3)[0] is None  # the page that spends it
    assert frontier.counters()["budget_pages"] == 3 and frontier.status().ended == "budget"
    frontier.ack([], pages=0)  # nothing to say: no call
    assert frontier.counters()["budget_pages"] == 3


def test_a_restarted_worker_gives_its_former_leases_back_as_redelivered(redis, redis_prefix):
    """Released by a worker restarted under its old name, a request tells whoever takes it that
    it may have been processed in part (as after an expired lease); released at close, not."""
    worker = LeasedFrontier(redis, f"{redis_prefix}:s", worker="w1")
    other = LeasedFrontier(redis, f"{redis_prefix}:s", worker="w2")
    for blob in (b"closing", b"restarted"):
        worker.push(blob, 0, blob.decode())
    closing, restarted = worker.take()[0], worker.take()[0]
    assert sorted(i for i, _ in worker.leased_by("w1")) == sorted([closing.id, restarted.id])
    assert worker.release([closing.id]) == 1
    assert worker.release([restarted.id], redelivered=True) == 1
    taken = {t.blob: t.redelivered_from for t in (other.take()[0], other.take()[0])}
    assert taken == {b"closing": None, b"restarted": "w1"}


def test_a_restarted_worker_lets_go_of_the_claims_it_saved_nothing_of(redis, redis_prefix):
    before = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="w1")
    other = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="w2")
    assert before.claim("bare.example") and before.claim("saved.example")
    before.save(state("saved.example", ("p1",)))
    assert other.claim("theirs.example")
    after = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="w1")
    assert after.forget_claims() == 1  # only its own claim with nothing saved
    assert other.claim("bare.example")  # at once, not after the claim's 60 s
    assert not other.claim("saved.example") and not after.claim("theirs.example")


def test_a_dead_workers_claim_is_taken_over_only_while_it_saved_nothing(redis, redis_prefix):
    dead = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="dead")
    live = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="live")
    third = RedisSiteStore(redis, f"{redis_prefix}:s", claim_seconds=60, worker="third")
    assert dead.claim("bare.example") and dead.claim("saved.example")
    dead.save(state("saved.example", ("p1",)))
    assert third.claim("theirs.example")
    assert live.take_over_claim("bare.example", "dead")
    assert not third.take_over_claim("bare.example", "dead")  # live holds it now
    assert not live.take_over_claim("saved.example", "dead")  # its state is resumed instead
    assert not live.take_over_claim("theirs.example", "dead")
    assert not live.take_over_claim("nobody.example", "dead")
    live.save(state("bare.example", ("p1",)))
    assert live.written_by("bare.example") == "live"


def test_a_page_processed_again_after_its_worker_died_counts_once(redis, redis_prefix):
    frontier = LeasedFrontier(redis, f"{redis_prefix}:s", worker="w1")
    frontier.push(b"page", 0, "fp")
    taken = frontier.take()[0]
    budget = SharedPageBudget(redis, f"{redis_prefix}:s", budget=10)
    assert budget.spend(request_id=taken.id) == 1
    assert budget.spend(request_id=taken.id) == 0  # redelivered, processed again: not counted
    assert budget.spend() == 2  # a page without a frontier id (one process) always counts
    frontier.ack([taken.id])
    assert not redis.client.hlen(frontier.keys["counted"])  # dropped with its request
