"""The sandbox's search and backlink API, served by the sandbox server at ``api.sandbox.internal``.

Each endpoint speaks the format of the real service an adapter targets, over the simulated
engine's crawl (:mod:`bilingual_spider.sandbox.engine_files`):

=====================================================  ===========================================
``POST /moz/v2/links``                                 Moz Links API v2 ``links`` (backlinks)
``GET /res/v1/web/search?q=&count=&offset=``           Brave Search API web search
``GET /customsearch/v1?q=&start=&num=``                Google Custom Search JSON API
``GET /cc-index/collinfo.json``                        Common Crawl index: collections
``GET /cc-index/<COLLECTION>-index?url=&output=json``  Common Crawl index: CDX server (pywb)
``GET /cc-data/projects/hyperlinkgraph/<NAME>/host/``  Common Crawl host-level web graph
``<NAME>-host-vertices.txt.gz`` / ``-host-edges...``
``GET /cc-data/crawl-data/<CRAWL>/cc-index-table...``  Common Crawl columnar index: file listing
``GET /cc-data/cc-index/table/cc-main/warc/...``       its Parquet files (HTTP Range)
=====================================================  ===========================================

The formats, and how the answers are made incomplete and noisy like a real engine's, are in
:mod:`~bilingual_spider.sandbox.search_api_moz`, :mod:`~bilingual_spider.sandbox.search_api_brave`,
:mod:`~bilingual_spider.sandbox.search_api_google` and
:mod:`~bilingual_spider.sandbox.search_api_commoncrawl` (and ``search_api_columnar``). With
``rate_limit`` on, every endpoint family has a token bucket; an over-limit request gets 429
(Common Crawl: configurable 503) with ``Retry-After`` and a body in that service's error format.
A fault mode (:mod:`~bilingual_spider.sandbox.search_api_faults`) makes a share of the calls
hang, answer HTML, a huge or cut body, 401, or a storm of 429.

No sockets here: :meth:`SearchApi.handle` maps (method, path, query, body, headers) to an
answer, and the server (:mod:`bilingual_spider.sandbox.server`) only dispatches to it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl

from bilingual_spider.sandbox.config import RATE_LIMITED_FAMILIES, ApiConfig
from bilingual_spider.sandbox.engine_index import EngineIndex
from bilingual_spider.sandbox.search_api_brave import PATH as BRAVE_PATH
from bilingual_spider.sandbox.search_api_brave import (
    BraveWebSearch,
    rate_limit_headers,
    rate_limited,
)
from bilingual_spider.sandbox.search_api_columnar import ColumnarIndex
from bilingual_spider.sandbox.search_api_commoncrawl import (
    DATA_PREFIX,
    INDEX_PREFIX,
    CdxIndex,
    HostGraph,
    cc_message,
    s3_error,
)
from bilingual_spider.sandbox.search_api_faults import ApiFaults
from bilingual_spider.sandbox.search_api_google import PATH as GOOGLE_PATH
from bilingual_spider.sandbox.search_api_google import CustomSearch, google_error
from bilingual_spider.sandbox.search_api_http import (
    ApiAnswer,
    TokenBucket,
    json_answer,
    retry_after,
)
from bilingual_spider.sandbox.search_api_moz import PATH as MOZ_PATH
from bilingual_spider.sandbox.search_api_moz import MozLinks, moz_error

logger = logging.getLogger(__name__)

API_HOST = "api.sandbox.internal"
BASE_URL = f"http://{API_HOST}"
COLLINFO_PATH = INDEX_PREFIX + "collinfo.json"


def not_configured() -> ApiAnswer:
    """What the API host answers when the sandbox config has no ``[api]`` table."""
    return json_answer(
        404,
        {
            "error": "the search/backlink API is not configured: add an [api] table with "
            "engine_dirs to the sandbox config (see bilingual_spider/sandbox/config.py)"
        },
    )


class SearchApi:
    """All endpoints over one engine index."""

    def __init__(
        self,
        index: EngineIndex,
        config: ApiConfig,
        seed: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.index, self.config = index, config
        seed = config.seed if config.seed is not None else seed
        self.moz = MozLinks(
            index,
            config.backlink_coverage,
            config.backlink_noise,
            config.backlink_max_results,
            seed,
        )
        self.google = CustomSearch(index)
        self.brave = BraveWebSearch(self.google)  # the same index and ranking
        self.cdx = CdxIndex(index, config.collection, config.cdx_block_lines, config.cdx_page_size)
        self.hostgraph = HostGraph(index, config.hostgraph_name)
        self.columnar = ColumnarIndex(
            self.cdx, config.columnar_files, config.columnar_row_group_rows
        )
        self.faults = ApiFaults(config.fault, config.fault_rate, config.fault_families, seed)
        self.faults.calls = config.fault_calls
        self.buckets: dict[str, TokenBucket] = {}
        if config.rate_limit:
            for family in RATE_LIMITED_FAMILIES:
                burst = getattr(config, f"{family}_burst")
                rate = getattr(config, f"{family}_per_second")
                self.buckets[family] = TokenBucket(burst, rate, clock)

    @classmethod
    def load(cls, config: ApiConfig, seed: int = 0) -> SearchApi:
        """Read the engine directories and build every index."""
        started = time.perf_counter()
        index = EngineIndex.load(config.engine_dirs)
        api = cls(index, config, seed)
        logger.info(
            "search API on http://%s: %s, loaded in %.1f s",
            API_HOST,
            index.summary(),
            time.perf_counter() - started,
        )
        return api

    def handle(
        self,
        method: str,
        path: str,
        query: str = "",
        body: bytes = b"",
        headers: Mapping[str, str] | None = None,
    ) -> ApiAnswer:
        """Answer one request to the API host (``path`` without the query string; ``headers``
        with lower-case names)."""
        family = _family(path)
        if family is None:
            return json_answer(404, {"error": f"no API endpoint at {path}"})
        faulty = self.faults.answer(family)
        if faulty is not None:
            return faulty
        bucket = self.buckets.get(family)
        if bucket is not None:
            wait = bucket.take()
            if wait > 0:
                return self._throttled(family, path, retry_after(wait))
        if family == "moz":
            return self.moz.answer(method, body)
        if method not in ("GET", "HEAD"):
            return ApiAnswer(405, b"", "text/plain", {"Allow": "GET, HEAD"})
        params = _params(query)
        if family == "google":
            return self.google.answer(method, {k: v[0] for k, v in params.items()})
        if family == "columnar":
            answer = self.columnar.answer(path, headers or {})
            if answer is not None:
                return answer
            return s3_error(404, "NoSuchKey", "The specified key does not exist.", path)
        if family == "brave":
            single = {k: v[0] for k, v in params.items()}
            return self.brave.answer(single, headers or {}, self.buckets.get("brave"))
        if family == "hostgraph":
            return self.hostgraph.answer(path)
        if path == COLLINFO_PATH:
            return self.cdx.collinfo(BASE_URL)
        if path == f"{INDEX_PREFIX}{self.config.collection}-index":
            return self.cdx.answer(params)
        return ApiAnswer(404, b"Not Found\n", "text/plain")

    def _throttled(self, family: str, path: str, headers: dict[str, str]) -> ApiAnswer:
        status = self.config.commoncrawl_throttle_status
        if family == "moz":
            return moz_error(429, "Too Many Requests", "Rate limit exceeded.", headers)
        if family == "brave":
            return rate_limited({**rate_limit_headers(self.buckets[family]), **headers})
        if family == "google":
            return google_error(
                429,
                "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute per "
                "user' of service 'customsearch.googleapis.com' for consumer "
                "'project_number:0'.",
                "rateLimitExceeded",
                headers,
            )
        if family == "cdx":
            return cc_message(status, "Please slow down: too many requests.", headers)
        return s3_error(status, "SlowDown", "Please reduce your request rate.", path, headers)


def _family(path: str) -> str | None:
    if path == MOZ_PATH:
        return "moz"
    if path == GOOGLE_PATH:
        return "google"
    if path == BRAVE_PATH:
        return "brave"
    if path.startswith(INDEX_PREFIX):
        return "cdx"
    if path.startswith((f"{DATA_PREFIX}cc-index/", f"{DATA_PREFIX}crawl-data/")):
        return "columnar"
    if path.startswith(DATA_PREFIX):
        return "hostgraph"
    return None


def _params(query: str) -> dict[str, list[str]]:
    params: dict[str, list[str]] = {}
    for key, value in parse_qsl(query, keep_blank_values=True):
        params.setdefault(key, []).append(value)
    return params
