"""What the Redis scheduler stores for a queued request: the compact blob, the 20-byte digest."""

from __future__ import annotations

from scrapy_redis import picklecompat

from bilingual_spider.scheduler import compact_serializer
from bilingual_spider.state.request_meta import FRONTIER_ID_META
from tests.distributed.test_held_requests import scheduler
from tests.scheduler.test_compact_serializer import TYPICAL


def test_a_queued_request_is_stored_compact_and_comes_back_whole(redis_prefix):
    worker, spider = scheduler(redis_prefix, 30)
    try:
        request = TYPICAL.replace(callback=spider.parse_answer, errback=None)
        assert worker.enqueue_request(request)
        assert not worker.enqueue_request(request.copy())  # its digest is seen
        client, keys = worker.frontier.redis.client, worker.frontier.keys
        (blob,) = client.hvals(keys["requests"])
        as_dict = request.to_dict(spider=spider)
        assert blob[:1] == compact_serializer.FORMAT
        assert len(blob) < len(picklecompat.dumps(as_dict)) / 3
        fingerprint = worker.crawler.request_fingerprinter.fingerprint(request)
        assert client.smembers(keys["seen"]) == {fingerprint} and len(fingerprint) == 20
        assert not client.hlen(keys["order"])  # a queued request's order is its score
        taken = worker.next_request()
        assert taken.meta.pop(FRONTIER_ID_META) == "1"  # its id in the frontier, when taken
        assert taken.to_dict(spider=spider) == as_dict
    finally:
        worker.close("finished")
