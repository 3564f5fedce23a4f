"""Common Crawl's URL index (CDX server) and host-level web graph, over the engine's crawl.

**URL index** (index.commoncrawl.org, served by pywb from ZipNum indexes):
``GET /cc-index/collinfo.json`` lists the collection; ``GET /cc-index/<COLLECTION>-index`` takes
``url`` (also ``example.com/*`` for a prefix and ``*.example.com`` for a domain query),
``matchType`` (``exact`` | ``prefix`` | ``host`` | ``domain``), ``output=json`` (one JSON object a
line, else CDXJ text), ``page``, ``pageSize``, ``showNumPages=true``, ``limit``, ``fl`` and
``filter`` (pywb's ``[!][=|~]field:regex``). Records carry ``urlkey`` (SURT), ``timestamp``,
``url``, ``mime``, ``mime-detected``, ``status``, ``digest``, ``length``, ``offset``,
``filename``, and for successful HTML captures ``languages`` (ISO 639-3) and ``encoding``; all
values are strings, as in the real index. Paging follows pywb's ZipNum source: the whole index is
cut into blocks of ``block_lines`` lines, a page is ``pageSize`` blocks, and a request without
``page`` gets page 0; ``showNumPages`` answers ``{"pages", "pageSize", "blocks"}``. No match:
404 with ``{"message": "No Captures found for: <url>"}``.

**Host graph** (data.commoncrawl.org/projects/hyperlinkgraph/<NAME>/host/): ``<NAME>-host-
vertices.txt.gz`` (``id<TAB>reversed.host``, ids in sorted order of the reversed names) and
``<NAME>-host-edges.txt.gz`` (``from_id<TAB>to_id``, sorted numerically, no self-loops, no
duplicates), built from every link of the engine as cc-pyspark's ``hostlinks_to_graph.py`` does.
Common Crawl also drops hosts whose TLD is not in the IANA list; the sandbox keeps them.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import gzip
import hashlib
import json
import re
from bisect import bisect_left, bisect_right
from typing import Any

import numpy as np

from bilingual_spider.language.codes import iso_639_3
from bilingual_spider.sandbox.engine_index import EngineIndex, split_url
from bilingual_spider.sandbox.search_api_http import ApiAnswer, json_answer
from bilingual_spider.search.surt import after, surt_host, surt_path

INDEX_PREFIX = "/cc-index/"
DATA_PREFIX = "/cc-data/"
NDJSON = "text/x-ndjson"
MATCH_TYPES = ("exact", "prefix", "host", "domain")
_FIELD_ORDER = ("urlkey", "timestamp", "url", "mime", "mime-detected", "status", "digest")
_FIELD_ORDER += ("length", "offset", "filename", "languages", "encoding")


def surt(url: str, host_key: str | None = None) -> str:
    """The SURT urlkey of a URL: ``http://www.Example.com/A?b=1&a=2`` -> ``com,example)/a?a=2&b=1``
    (``host_key``: the host's part, if already known)."""
    host, path = split_url(url)
    return f"{surt_host(host) if host_key is None else host_key}){surt_path(path)}"


def cc_message(status: int, message: str, headers: dict | None = None) -> ApiAnswer:
    return json_answer(status, {"message": message}, headers)


def first(params: dict[str, list[str]], key: str, default: str = "") -> str:
    values = params.get(key)
    return values[0] if values else default


class CdxIndex:
    """The captures of one collection, sorted by urlkey, and the CDX server API over them."""

    def __init__(
        self, index: EngineIndex, collection: str, block_lines: int, page_size: int
    ) -> None:
        self.index, self.collection = index, collection
        self.block_lines, self.page_size = block_lines, page_size
        self.crawl_start = _crawl_start(collection)
        fetched = np.flatnonzero(index.status != 0)
        host_keys = [surt_host(host) for host in index.hosts]
        seconds = (index.url_hash[fetched] % np.uint64(14 * 86400)).tolist()
        urls, hosts = index.urls, index.url_host[fetched].tolist()
        keyed = sorted(
            (surt(urls[u], host_keys[h]), s, u)
            for u, h, s in zip(fetched.tolist(), hosts, seconds, strict=True)
        )
        self.keys = [key for key, _, _ in keyed]
        self.captures = [(s, u) for _, s, u in keyed]  # (seconds into the crawl, URL id)

    # --- collinfo.json --------------------------------------------------------------------------

    def collinfo(self, base: str) -> ApiAnswer:
        start = self.crawl_start
        end = start + datetime.timedelta(days=14)
        return json_answer(
            200,
            [
                {
                    "id": self.collection,
                    "name": f"{start:%B %Y} Index",
                    "timegate": f"{base}{INDEX_PREFIX}{self.collection}/",
                    "cdx-api": f"{base}{INDEX_PREFIX}{self.collection}-index",
                    "from": start.strftime("%Y-%m-%dT%H:%M:%S"),
                    "to": end.strftime("%Y-%m-%dT%H:%M:%S"),
                }
            ],
        )

    # --- the index API --------------------------------------------------------------------------

    def answer(self, params: dict[str, list[str]]) -> ApiAnswer:
        url = first(params, "url")
        if not url:
            return cc_message(400, "The url parameter is required.")
        match_type = first(params, "matchType")
        if not match_type:
            if url.startswith("*."):
                url, match_type = url[2:], "domain"
            elif url.endswith("*"):
                url, match_type = url[:-1], "prefix"
            else:
                match_type = "exact"
        if match_type not in MATCH_TYPES:
            return cc_message(400, f"Invalid match_type: {match_type}")
        try:
            page_size = int(first(params, "pageSize", str(self.page_size)))
            page = int(first(params, "page", "0"))
            limit = int(first(params, "limit", "0"))
        except ValueError:
            return cc_message(400, "page, pageSize and limit must be integers.")
        try:
            tests = [_CdxFilter(spec) for spec in params.get("filter", [])]
        except re.error as exc:
            return cc_message(400, f"Invalid filter: {exc}")
        low, high = self.key_range(url, match_type)
        blocks = self._blocks(low, high)
        page_size = max(1, page_size)
        pages = (blocks - 1) // page_size + 1 if blocks else 0
        if first(params, "showNumPages").lower() == "true":
            return json_answer(200, {"pages": pages, "pageSize": page_size, "blocks": blocks})
        if low == high:
            return cc_message(404, f"No Captures found for: {first(params, 'url')}")
        if not 0 <= page < pages:
            return cc_message(
                400, f"Page {page} invalid: First Page is 0, Last Page is {pages - 1}"
            )
        start_block = low // self.block_lines + page * page_size
        begin = max(low, start_block * self.block_lines)
        end = min(high, (start_block + page_size) * self.block_lines)
        records = [r for r in map(self.record, range(begin, end)) if all(t(r) for t in tests)]
        if limit > 0:
            records = records[:limit]
        return self._output(records, params)

    def key_range(self, url: str, match_type: str) -> tuple[int, int]:
        """Positions [low, high) of the captures a query matches."""
        if match_type == "exact":
            key = surt(url)
            return bisect_left(self.keys, key), bisect_right(self.keys, key)
        if match_type == "prefix":
            prefix = surt(url)
        else:
            prefix = surt_host(split_url(url)[0]) + (")/" if match_type == "host" else "")
        if match_type == "domain":  # the domain itself and every subdomain
            return bisect_left(self.keys, prefix + ")"), bisect_left(self.keys, prefix + "-")
        return bisect_left(self.keys, prefix), bisect_left(self.keys, after(prefix))

    def _blocks(self, low: int, high: int) -> int:
        if low == high:
            return 0
        return (high - 1) // self.block_lines - low // self.block_lines + 1

    def _output(self, records: list[dict[str, str]], params: dict[str, list[str]]) -> ApiAnswer:
        fields = [f for f in first(params, "fl").split(",") if f]
        if fields:
            records = [{f: r[f] for f in fields if f in r} for r in records]
        if first(params, "output") == "json":
            body = "".join(json.dumps(r) + "\n" for r in records)
            return ApiAnswer(200, body.encode(), NDJSON)
        if fields:
            lines = (" ".join(r.get(f, "-") for f in fields) for r in records)
        else:
            lines = (
                f"{r['urlkey']} {r['timestamp']} "
                + json.dumps({k: v for k, v in r.items() if k not in ("urlkey", "timestamp")})
                for r in records
            )
        return ApiAnswer(200, "".join(line + "\n" for line in lines).encode(), "text/plain")

    # --- records --------------------------------------------------------------------------------

    def record(self, position: int) -> dict[str, str]:
        index = self.index
        seconds, url_id = self.captures[position]
        moment = self.crawl_start + datetime.timedelta(seconds=seconds)
        timestamp = moment.strftime("%Y%m%d%H%M%S")
        url = index.urls[url_id]
        status = int(index.status[url_id])
        mime = (index.mime[url_id] or "unk").split(";")[0].strip()
        draw = int(index.url_hash[url_id])
        payload = f"{url}\n{index.title[url_id]}\n{index.snippet[url_id]}".encode()
        record = {
            "urlkey": self.keys[position],
            "timestamp": timestamp,
            "url": url,
            "mime": mime,
            "mime-detected": mime if mime != "unk" else "application/octet-stream",
            "status": str(status),
            "digest": base64.b32encode(hashlib.sha1(payload).digest()).decode(),
            "length": str(800 + draw % 40_000),
            "offset": str((draw >> 16) % 1_200_000_000),
            "filename": self._filename(draw, timestamp, status),
        }
        language = iso_639_3(index.lang[url_id]) if index.lang[url_id] else None
        if status == 200 and mime == "text/html":
            if language:
                record["languages"] = language
            record["encoding"] = "UTF-8"
        return record

    def _filename(self, draw: int, timestamp: str, status: int) -> str:
        """Shaped like Common Crawl's: ``crawl-data/<COLL>/segments/<segment>/warc/CC-MAIN-<start>-
        <end>-<part>.warc.gz`` (``crawldiagnostics`` instead of ``warc`` for non-200 captures)."""
        segment = f"{int(self.crawl_start.timestamp() * 1000) + draw % 100_000}.{draw % 97}"
        kind = "warc" if status == 200 else "crawldiagnostics"
        began = datetime.datetime.strptime(timestamp, "%Y%m%d%H%M%S")
        ended = began + datetime.timedelta(hours=3)
        part = f"CC-MAIN-{began:%Y%m%d%H%M%S}-{ended:%Y%m%d%H%M%S}-{draw % 100_000:05d}"
        return f"crawl-data/{self.collection}/segments/{segment}/{kind}/{part}.warc.gz"


def _crawl_start(collection: str) -> datetime.datetime:
    """``CC-MAIN-2024-33`` -> Monday of ISO week 33 of 2024 (UTC); unknown forms -> 2024-01-01."""
    match = re.fullmatch(r"CC-MAIN-(\d{4})-(\d{2})", collection)
    day = datetime.date(2024, 1, 1)
    if match:
        with contextlib.suppress(ValueError):  # no such week: keep the default
            day = datetime.date.fromisocalendar(int(match[1]), int(match[2]), 1)
    return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC)


class _CdxFilter:
    """pywb's filter ``[!][=|~]field:expression``: a regex matched from the start of the field's
    value, ``=`` an exact value, ``~`` a substring; ``!`` negates."""

    def __init__(self, spec: str) -> None:
        self.invert = spec.startswith("!")
        spec = spec[1:] if self.invert else spec
        self.mode = spec[0] if spec[:1] in ("=", "~") else ""
        self.field, _, self.expression = (spec[1:] if self.mode else spec).partition(":")
        self.pattern = re.compile(self.expression) if not self.mode else None

    def __call__(self, record: dict[str, str]) -> bool:
        value = record.get(self.field, "")
        if self.mode == "=":
            found = value == self.expression
        elif self.mode == "~":
            found = self.expression in value
        else:
            found = self.pattern is not None and self.pattern.match(value) is not None
        return found != self.invert


class HostGraph:
    """The host-level graph export, built on first request."""

    def __init__(self, index: EngineIndex, name: str) -> None:
        self.index, self.name = index, name
        self._files: dict[str, bytes] | None = None

    @property
    def base(self) -> str:
        return f"{DATA_PREFIX}projects/hyperlinkgraph/{self.name}/host/{self.name}-host-"

    def answer(self, path: str) -> ApiAnswer:
        name = path[len(self.base) :] if path.startswith(self.base) else ""
        if name in ("vertices.txt.gz", "edges.txt.gz"):
            return ApiAnswer(200, self.files()[name], "application/octet-stream")
        return s3_error(404, "NoSuchKey", "The specified key does not exist.", path)

    def files(self) -> dict[str, bytes]:
        if self._files is None:
            vertices, edges = host_graph(self.index)
            self._files = {
                "vertices.txt.gz": _gzip(f"{i}\t{name}\n" for i, name in enumerate(vertices)),
                "edges.txt.gz": _gzip(f"{a}\t{b}\n" for a, b in edges.tolist()),
            }
        return self._files


def host_graph(index: EngineIndex) -> tuple[list[str], np.ndarray]:
    """(reversed host names in id order, sorted distinct edges as an (n, 2) array)."""
    src_host = index.url_host[index.link_src]
    dst_host = index.url_host[index.link_dst]
    used = np.unique(np.concatenate([src_host, dst_host]))
    used = [h for h in used.tolist() if index.hosts[h]]
    reversed_names = sorted((".".join(reversed(index.hosts[h].split("."))), h) for h in used)
    vertex = np.full(len(index.hosts), -1, dtype=np.int64)
    for vertex_id, (_, host) in enumerate(reversed_names):
        vertex[host] = vertex_id
    a, b = vertex[src_host], vertex[dst_host]
    keep = (a >= 0) & (b >= 0) & (a != b)
    pairs = np.unique(a[keep] * len(reversed_names) + b[keep]) if keep.any() else np.zeros(0, int)
    edges = np.stack([pairs // max(1, len(reversed_names)), pairs % max(1, len(reversed_names))], 1)
    return [name for name, _ in reversed_names], edges


def _gzip(lines: Any) -> bytes:
    return gzip.compress("".join(lines).encode("utf-8"), compresslevel=6, mtime=0)


def s3_error(
    status: int, code: str, message: str, key: str, headers: dict | None = None
) -> ApiAnswer:
    """An S3-style XML error, as data.commoncrawl.org answers."""
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f"<Error><Code>{code}</Code><Message>{message}</Message><Key>{key.lstrip('/')}</Key>"
        "</Error>"
    )
    return ApiAnswer(status, body.encode(), "application/xml", dict(headers or {}))
