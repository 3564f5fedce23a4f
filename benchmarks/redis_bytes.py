"""Redis bytes per queued URL: our leased frontier against scrapy-redis, on one Redis.

A private ``redis-server`` (free port, no persistence, shut down at the end) holds, in turn, N
queued requests of ours and N of scrapy-redis's (FLUSHDB between runs; N = 100k and 1M). The
requests are a COBFC crawl's frontier: forward links to N distinct sites (as the backforth spider
queues them: one request per site), made by the backforth spider itself
(``BackForthSpider._forward_request``: its link-neighbourhood tokens, frontier tag, callback and
errback) from generated link contexts (hosts of two to three words under 12 TLDs, paths of one to
four segments, anchors of one to four words, 8 to 20 words around), with the ``depth`` Scrapy's
depth middleware adds. Ours go through ``LeasedScheduler.enqueue_request`` (fingerprint,
serializer, the frontier's push script); scrapy-redis's through its own ``Scheduler`` with its
defaults (``PriorityQueue``, ``RFPDupeFilter``, ``picklecompat``). Bytes: ``used_memory`` after
minus before; attributed to keys with ``MEMORY USAGE key SAMPLES 0``. Per-host politeness keys
(``PREFIX:host:*``) exist only for hosts with a request in flight, not per queued request, so a
queue holds none. ``ours_partitioned``: ours with the frontier in 16 partitions by host (the
layout of a Redis Cluster), on the same one Redis.

    python benchmarks/redis_bytes.py [--sizes 100000,1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import scrapy
from scrapy.utils.test import get_crawler
from scrapy_redis.scheduler import Scheduler as ScrapyRedisScheduler

from bilingual_spider import settings as project_settings
from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.sandbox.redis_server import PrivateRedis
from bilingual_spider.scheduler import compact_serializer
from bilingual_spider.scheduler.leased_scheduler import LeasedScheduler
from bilingual_spider.spiders.backforth import BackForthSpider

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
PREFIX = "bench"
VOCABULARY = (
    "hotel sevilla centro museo prado travel guide blog news casa rural playa madrid barcelona "
    "valencia restaurant menu carta vinos bodega tienda shop online store libros books music "
    "festival cultura arte gallery photo tours excursiones english spanish español inglés idiomas "
    "escuela school language academy university universidad research investigación project "
    "proyecto software open source data city ciudad turismo tourism beach mountain sierra nevada "
    "granada malaga cordoba toledo bilbao about contact contacto quienes somos services servicios "
    "products productos rooms habitaciones booking reservas offers ofertas home inicio"
)
WORDS = VOCABULARY.split()
TLDS = ("com", "es", "org", "net", "de", "fr", "co.uk", "mx", "it", "eu", "info", "com.ar")
SCRAPY_REDIS_DUPEFILTER = "scrapy_redis.dupefilter.RFPDupeFilter"  # as its README sets it
SUFFIXES = ("", "", ".html", ".php", "/")


def link_contexts(n: int, seed: int) -> Iterator[LinkContext]:
    """``n`` out-of-site links to ``n`` distinct sites, with their page and text around."""
    rng = random.Random(seed)

    def words(low: int, high: int) -> list[str]:
        return rng.choices(WORDS, k=rng.randint(low, high))

    def host(i: int) -> str:
        sub = rng.choice(("www.", "www.", "", "blog.", "en."))
        return f"{sub}{'-'.join(words(1, 2))}{i}.{rng.choice(TLDS)}"

    for i in range(n):
        path = "/".join(words(1, 4)) + rng.choice(SUFFIXES)
        lang = rng.choice(("", "", "en/", "es/"))
        around = words(8, 20)
        yield LinkContext(
            url=f"https://{host(i)}/{lang}{path}",
            page_url=f"https://{host(n + i)}/{'/'.join(words(1, 3))}/",
            anchor=" ".join(words(1, 4)),
            around=" ".join(around),
            img_alt="",
            img_src="",
            title="",
            hreflang="",
            block_text=" ".join(around[: len(around) // 2]),
            page_lang=rng.choice(("en", "es")),
            block_around=" ".join(around[: len(around) // 2]),
        )


def crawl_settings(redis_url: str) -> dict[str, Any]:
    every = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}
    return {**every, "REDIS_URL": redis_url, "BILINGUAL_REDIS_KEY_PREFIX": PREFIX}


def frontier_requests(spider: BackForthSpider, n: int, seed: int) -> Iterator[scrapy.Request]:
    """The forward requests the backforth spider makes of the generated links."""
    depths = random.Random(seed + 1)
    for context in link_contexts(n, seed):
        for request in spider._forward_request(context, found_by="benchmark"):
            request.meta["depth"] = depths.randint(1, 6)  # as Scrapy's DepthMiddleware adds it
            yield request


def backforth_spider(redis_url: str, **more: Any) -> tuple[Any, BackForthSpider]:
    crawler = get_crawler(BackForthSpider, {**crawl_settings(redis_url), **more})
    spider = BackForthSpider.from_crawler(crawler, seeds="http://www.museo.example/", langs="")
    return crawler, spider


def ours(redis_url: str, n: int, seed: int, partitions: int = 1) -> dict[str, Any]:
    """Queue ``n`` requests through our scheduler (its frontier in ``partitions`` by host, as on
    a Redis Cluster); the keys it wrote, open for measuring."""
    crawler, spider = backforth_spider(redis_url, BILINGUAL_REDIS_PARTITIONS=partitions)
    scheduler = LeasedScheduler.from_crawler(crawler)
    crawler.engine = SimpleNamespace(_slot=None, scheduler=scheduler)  # no crawl running
    scheduler.open(spider)
    queued = sum(scheduler.enqueue_request(r) for r in frontier_requests(spider, n, seed))
    scheduler._renewal.stop()
    frontier = scheduler.frontier
    parts = getattr(frontier, "parts", [frontier])  # a partitioned frontier's, or the one
    client = frontier.redis.client
    payload = [blob for part in parts for blob in client.hvals(part.keys["requests"])]
    scheduler.redis.close()
    return {"queued": queued, "payload_bytes": sum(map(len, payload)) / max(1, len(payload))}


def scrapy_redis(
    redis_url: str, n: int, seed: int, serializer: str = "scrapy_redis.picklecompat"
) -> dict[str, Any]:
    """Queue ``n`` requests through scrapy-redis's scheduler with its defaults (or another
    request serializer)."""
    crawler, spider = backforth_spider(
        redis_url, DUPEFILTER_CLASS=SCRAPY_REDIS_DUPEFILTER, SCHEDULER_SERIALIZER=serializer
    )
    scheduler = ScrapyRedisScheduler.from_crawler(crawler)
    scheduler.open(spider)
    queued = sum(bool(scheduler.enqueue_request(r)) for r in frontier_requests(spider, n, seed))
    members = scheduler.server.zrange(scheduler.queue.key, 0, -1)
    return {"queued": queued, "payload_bytes": sum(map(len, members)) / max(1, len(members))}


def scrapy_redis_compact(redis_url: str, n: int, seed: int) -> dict[str, Any]:
    """scrapy-redis storing requests with our serializer: the cost of the leases' structure."""
    return scrapy_redis(redis_url, n, seed, compact_serializer.__name__)


def ours_partitioned(redis_url: str, n: int, seed: int) -> dict[str, Any]:
    """Ours with the frontier in 16 partitions by host (a Redis Cluster's default), on one
    Redis: what the partitions add per URL."""
    return ours(redis_url, n, seed, partitions=16)


QUEUES = {
    "ours": ours,
    "ours_partitioned": ours_partitioned,
    "scrapy_redis": scrapy_redis,
    "scrapy_redis_compact": scrapy_redis_compact,
}


def measure(redis: PrivateRedis, run: Any, n: int, seed: int) -> dict[str, Any]:
    client = redis.client()
    client.flushdb()
    before = int(client.info("memory")["used_memory"])
    started = time.monotonic()
    result = run(redis.url, n, seed)
    seconds = time.monotonic() - started
    after = int(client.info("memory")["used_memory"])
    keys = {
        key.decode(): int(client.memory_usage(key, samples=0) or 0)
        for key in client.scan_iter(count=1000)
    }
    client.close()
    return {
        **result,
        "used_memory_bytes": after - before,
        "bytes_per_url": round((after - before) / n, 1),
        "keys_bytes_per_url": {k: round(v / n, 1) for k, v in sorted(keys.items()) if v >= n / 10},
        "seconds": round(seconds, 1),
    }


def print_ratios(runs: dict[str, Any], n: int) -> None:
    """Ours over each other queue's bytes per URL, kept in ``runs["ours_over"]``."""
    if "ours" not in runs:
        return
    ours_bytes = runs["ours"]["bytes_per_url"]
    others = [name for name in runs if name != "ours"]
    runs["ours_over"] = {
        name: round(ours_bytes / runs[name]["bytes_per_url"], 3) for name in others
    }
    for name, ratio in runs["ours_over"].items():
        print(f"{n:>9}  ours / {name} = {ratio:.3f}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--queues", default=",".join(QUEUES), help="of " + ", ".join(QUEUES))
    parser.add_argument("--out", default=str(RESULTS / "redis_bytes.json"))
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.sizes.split(",")]
    runs: dict[str, dict[str, Any]] = {}
    print(f"{'N':>9}  {'queue':<20} {'bytes/URL':>9} {'payload':>8} {'s':>6}  largest keys")
    with tempfile.TemporaryDirectory() as tmp, PrivateRedis(Path(tmp)) as redis:
        for n in sizes:
            for name in args.queues.split(","):
                result = measure(redis, QUEUES[name], n, args.seed)
                assert result["queued"] == n, result
                runs.setdefault(str(n), {})[name] = result
                kinds: Counter[str] = Counter()  # summed over the partitions' keys of a kind
                for key, size in result["keys_bytes_per_url"].items():
                    kinds[key.rsplit(":", 1)[-1]] += size
                keys = ", ".join(f"{kind} {size:.1f}" for kind, size in kinds.most_common())
                print(
                    f"{n:>9}  {name:<20} {result['bytes_per_url']:>9.1f}"
                    f" {result['payload_bytes']:>8.1f} {result['seconds']:>6.1f}  {keys}",
                    flush=True,
                )
            print_ratios(runs[str(n)], n)
    result = {
        "benchmark": "redis_bytes",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": " ".join(__doc__.split("\n\n")[1].split()),
        "seed": args.seed,
        "runs": runs,
    }
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
