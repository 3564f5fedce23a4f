"""The simulated engine's index in memory, as the search/backlink API reads it.

Built once from engine directories (:mod:`bilingual_spider.sandbox.engine_files`): every URL the
engine saw gets an integer id, every host and registered domain too, and the links become numpy
arrays (source id, target id, anchor id), deduplicated per (source, target). On top of them:

- a PageRank over the page graph (Page, Brin, Motwani & Winograd 1999, damping 0.85), scaled
  logarithmically to 1..100 like Moz's Page Authority and, summed per registered domain, Domain
  Authority (Moz describes both as logarithmic 1-100 scores predicted from link data);
- stable 64-bit hashes of URLs, from which the API derives its deterministic choices (which links
  its backlink index covers, which stale links it reports) without storing them.

150,000 pages and 1.5 million links load in about 6 s (``benchmarks/search_api_load.py``).
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bilingual_spider.sandbox.engine_files import read_links, read_pages

if TYPE_CHECKING:
    import tldextract

DAMPING = 0.85  # Page et al. 1999
PAGERANK_ITERATIONS = 40
_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@lru_cache(maxsize=1)
def _extractor() -> tldextract.TLDExtract:
    import tldextract  # here: it is slow to import, and only the API needs it

    # The snapshot bundled with tldextract: never fetch the Public Suffix List (offline sandbox).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def registered_domain(host: str) -> str:
    """``www.example.co.uk`` -> ``example.co.uk``; hosts under an unknown suffix (``.example``,
    ``.internal``) keep their last two labels, and an IP address stays itself."""
    labels = host.split(".")
    if all(label.isdigit() for label in labels):  # an IPv4 address
        return host
    parts = _extractor()(host)
    if parts.suffix and parts.domain:
        return f"{parts.domain}.{parts.suffix}"
    if parts.suffix:  # the host is a public suffix itself
        return host
    return ".".join(labels[-2:]) if len(labels) > 2 else host


def split_url(url: str) -> tuple[str, str]:
    """(host, path with query) of an absolute URL, without ``urlsplit``'s cost: the host in lower
    case without port, user or trailing dot; the path ``/`` if empty; no fragment."""
    rest = url.partition("://")[2] if "://" in url else url
    rest = rest.partition("#")[0]
    cut = min((i for i in (rest.find("/"), rest.find("?")) if i >= 0), default=len(rest))
    netloc, path = rest[:cut], rest[cut:]
    host = netloc.rpartition("@")[2]
    host = host[1 : host.find("]")] if host.startswith("[") else host.partition(":")[0]
    if not path.startswith("/"):
        path = "/" + path
    return host.lower().rstrip("."), path


def url_host(url: str) -> str:
    return split_url(url)[0]


def stable_hash64(text: str) -> int:
    """A 64-bit hash of ``text`` that is the same on every machine and run."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def mix64(*values: np.ndarray | int) -> np.ndarray:
    """Combine 64-bit values into one well-mixed 64-bit hash, elementwise (splitmix64's mixer)."""
    with np.errstate(over="ignore"):
        acc = np.uint64(0x9E3779B97F4A7C15)
        for value in values:
            if isinstance(value, int):
                value = value & 0xFFFFFFFFFFFFFFFF  # negative seeds too
            acc = (acc ^ np.asarray(value, dtype=np.uint64)) * np.uint64(0xBF58476D1CE4E5B9)
            acc = acc ^ (acc >> np.uint64(31))
        acc = (acc ^ (acc >> np.uint64(30))) * np.uint64(0x94D049BB133111EB)
        acc = acc ^ (acc >> np.uint64(27))
        acc = acc * np.uint64(0x94D049BB133111EB)
        return np.asarray(acc ^ (acc >> np.uint64(31))) & _MASK64


def unit_interval(hashes: np.ndarray) -> np.ndarray:
    """Map 64-bit hashes to floats uniform in [0, 1)."""
    return (np.asarray(hashes, dtype=np.uint64) >> np.uint64(11)).astype(np.float64) / 2.0**53


def csr(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Group positions by key: ``order[offsets[k]:offsets[k + 1]]`` are the positions of key k."""
    order = np.argsort(keys, kind="stable").astype(np.int32)
    counts = np.bincount(keys, minlength=size)
    offsets = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return order, offsets


def pagerank(src: np.ndarray, dst: np.ndarray, size: int) -> np.ndarray:
    """PageRank by power iteration; the rank of dangling nodes is spread over all nodes."""
    if size == 0:
        return np.zeros(0)
    out_degree = np.bincount(src, minlength=size).astype(np.float64)
    dangling = out_degree == 0
    share = np.divide(1.0, out_degree, out=np.zeros(size), where=~dangling)
    rank = np.full(size, 1.0 / size)
    for _ in range(PAGERANK_ITERATIONS):
        spread = np.bincount(dst, weights=rank[src] * share[src], minlength=size)
        rank = (1.0 - DAMPING) / size + DAMPING * (spread + rank[dangling].sum() / size)
    return rank


def authority_scale(values: np.ndarray) -> np.ndarray:
    """Scores 1..100, logarithmic in ``values`` (the lowest value scores 1, the highest 100)."""
    if values.size == 0:
        return np.zeros(0, dtype=np.int16)
    logs = np.log(np.maximum(values, 1e-300))
    low, high = float(logs.min()), float(logs.max())
    if high - low < 1e-12:
        return np.full(values.size, 1, dtype=np.int16)
    return (1 + np.rint(99 * (logs - low) / (high - low))).astype(np.int16)


class _Interner:
    """Strings to dense ids."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.values: list[str] = []

    def __call__(self, value: str) -> int:
        found = self.ids.get(value)
        if found is None:
            found = self.ids[value] = len(self.values)
            self.values.append(value)
        return found


@dataclass
class EngineIndex:
    """URLs, hosts, domains, pages and links of the engine's crawl, with ids and authority."""

    urls: list[str]
    url_ids: dict[str, int]
    url_host: np.ndarray  # int32 host id of each URL
    hosts: list[str]
    host_ids: dict[str, int]
    host_domain: np.ndarray  # int32 domain id of each host
    url_domain: np.ndarray  # int32 domain id of each URL
    domains: list[str]
    domain_ids: dict[str, int]
    status: np.ndarray  # int16 HTTP status of each URL the engine fetched (0: only linked to)
    mime: list[str]  # per URL ("" if not fetched)
    lang: list[str]
    title: list[str]
    snippet: list[str]
    link_src: np.ndarray  # int32, one entry per distinct (source, target)
    link_dst: np.ndarray
    link_anchor: np.ndarray
    anchors: list[str]
    url_hash: np.ndarray  # uint64 stable hash of each URL
    page_authority: np.ndarray  # int16 1..100 per URL
    domain_authority: np.ndarray  # int16 1..100 per domain

    @classmethod
    def load(cls, directories: Iterable[Path]) -> EngineIndex:
        """Read and merge engine directories; a URL seen twice keeps its first page record."""
        urls, anchors = _Interner(), _Interner()
        pages: dict[int, tuple[int, str, str, str, str]] = {}
        src, dst, anchor = [], [], []
        for directory in directories:
            for page in read_pages(Path(directory)):
                pages.setdefault(
                    urls(page.url), (page.status, page.mime, page.lang, page.title, page.snippet)
                )
            part_src, part_dst, part_anchor = _read_link_ids(Path(directory), urls, anchors)
            src.append(part_src)
            dst.append(part_dst)
            anchor.append(part_anchor)
        return cls._build(urls, anchors, pages, src, dst, anchor)

    @classmethod
    def _build(
        cls,
        urls: _Interner,
        anchors: _Interner,
        pages: dict[int, tuple[int, str, str, str, str]],
        src_parts: list[np.ndarray],
        dst_parts: list[np.ndarray],
        anchor_parts: list[np.ndarray],
    ) -> EngineIndex:
        size = len(urls.values)
        hosts, domains = _Interner(), _Interner()
        host_of = np.fromiter((hosts(url_host(u)) for u in urls.values), np.int32, size)
        host_domain = np.fromiter(
            (domains(registered_domain(h)) if h else domains("") for h in hosts.values),
            np.int32,
            len(hosts.values),
        )
        status = np.zeros(size, dtype=np.int16)
        mime, lang, title, snippet = ([""] * size for _ in range(4))
        for url_id, (code, page_mime, page_lang, page_title, page_snippet) in pages.items():
            status[url_id] = code
            mime[url_id], lang[url_id] = page_mime, page_lang
            title[url_id], snippet[url_id] = page_title, page_snippet
        src, dst, anchor = _dedupe_links(
            np.concatenate(src_parts or [np.zeros(0, np.int32)]),
            np.concatenate(dst_parts or [np.zeros(0, np.int32)]),
            np.concatenate(anchor_parts or [np.zeros(0, np.int32)]),
            size,
        )
        rank = pagerank(src, dst, size)
        domain_rank = np.bincount(host_domain[host_of], weights=rank, minlength=len(domains.values))
        return cls(
            urls=urls.values,
            url_ids=urls.ids,
            url_host=host_of,
            hosts=hosts.values,
            host_ids=hosts.ids,
            host_domain=host_domain,
            url_domain=host_domain[host_of],
            domains=domains.values,
            domain_ids=domains.ids,
            status=status,
            mime=mime,
            lang=lang,
            title=title,
            snippet=snippet,
            link_src=src,
            link_dst=dst,
            link_anchor=anchor,
            anchors=anchors.values,
            url_hash=np.fromiter((stable_hash64(u) for u in urls.values), np.uint64, size),
            page_authority=authority_scale(rank),
            domain_authority=authority_scale(domain_rank),
        )

    def pages_with_status(self, code: int) -> np.ndarray:
        return np.flatnonzero(self.status == code).astype(np.int32)

    def summary(self) -> str:
        fetched = int(np.count_nonzero(self.status))
        return (
            f"{len(self.urls)} URLs ({fetched} fetched), {len(self.hosts)} hosts, "
            f"{len(self.domains)} domains, {self.link_src.size} links"
        )


def _read_link_ids(
    directory: Path, urls: _Interner, anchors: _Interner
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The links of one directory as id arrays (the interning is inlined: 1.5M links a world)."""
    src, dst, anchor = array("i"), array("i"), array("i")
    url_ids, url_values = urls.ids, urls.values
    anchor_ids, anchor_values = anchors.ids, anchors.values
    for link in read_links(directory):
        source = url_ids.get(link.source)
        if source is None:
            source = url_ids[link.source] = len(url_values)
            url_values.append(link.source)
        target = url_ids.get(link.target)
        if target is None:
            target = url_ids[link.target] = len(url_values)
            url_values.append(link.target)
        text = anchor_ids.get(link.anchor)
        if text is None:
            text = anchor_ids[link.anchor] = len(anchor_values)
            anchor_values.append(link.anchor)
        src.append(source)
        dst.append(target)
        anchor.append(text)
    return tuple(np.frombuffer(a, dtype=np.int32).copy() for a in (src, dst, anchor))  # type: ignore[return-value]


def _dedupe_links(
    src: np.ndarray, dst: np.ndarray, anchor: np.ndarray, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One link per (source, target), the first one seen (its anchor), ordered by source."""
    if src.size == 0:
        return src, dst, anchor
    keys = src.astype(np.int64) * max(size, 1) + dst
    _, first = np.unique(keys, return_index=True)
    return src[first], dst[first], anchor[first]
