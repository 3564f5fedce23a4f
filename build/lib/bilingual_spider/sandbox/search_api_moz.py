"""Backlinks in the format of the Moz Links API v2 (``POST https://lsapi.seomoz.com/v2/links``).

Request (JSON): ``target`` (required), ``target_scope`` (``page`` | ``subdomain`` |
``root_domain``, default ``page``), ``limit`` (default 25, at most 50), ``next_token``, ``filter``
(``external`` by default; ``internal``, ``follow``, ``nofollow``, combined with ``+``), ``sort``
(``source_page_authority`` by default, or ``source_domain_authority``), ``source_scope``,
``source_root_domain``, ``anchor_text``. Answer: ``{"next_token": ..., "results": [link, ...]}``,
each link with ``source`` and ``target`` URL metrics (``page`` without scheme, ``subdomain``,
``root_domain``, ``title``, ``http_code``, ``page_authority``, ``domain_authority``, link counts)
and ``anchor_text``, ``nofollow``, ``redirect``, ``rel_canonical``, ``date_first_seen`` ... as in
the answers Moz documents. ``next_token`` is ``""`` on the last page.

Like a real engine, the answer is top-k, incomplete and noisy:

- the index holds only a share ``coverage`` of the true in-links, chosen by a stable hash of
  (source, target, seed): the same query always gets the same answer;
- a share ``noise`` of the answers are stale links from pages that do not link to the target;
- results are ranked by the source's Page Authority (a PageRank, see
  :mod:`bilingual_spider.sandbox.engine_index`) and cut at ``max_results``.

Error bodies are ``{"name": ..., "message": ...}`` with the HTTP status (400 for a bad body, 405,
429): Moz documents errors per endpoint, but its exact error body could not be verified here.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
import struct
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bilingual_spider.sandbox.engine_index import (
    EngineIndex,
    csr,
    mix64,
    registered_domain,
    split_url,
    stable_hash64,
    unit_interval,
)
from bilingual_spider.sandbox.search_api_http import ApiAnswer, json_answer

PATH = "/moz/v2/links"
SCOPES = ("page", "subdomain", "root_domain")
SORTS = ("source_page_authority", "source_domain_authority")
FILTERS = ("external", "internal", "follow", "nofollow")
DEFAULT_LIMIT = 25
MAX_LIMIT = 50  # documented maximum of "limit"
INDEX_DATE = datetime.date(2024, 8, 15)  # the day the simulated index was "built"
_STALE_SALT = 0x5354414C45  # "STALE"
_CACHE_SIZE = 256


def moz_error(status: int, name: str, message: str, headers: dict | None = None) -> ApiAnswer:
    return json_answer(status, {"name": name, "message": message}, headers)


def moz_page(url: str) -> str:
    """Moz's form of a URL: no scheme, host in lower case (``moz.com/blog``)."""
    host, path = split_url(url)
    return host + path


@dataclass(frozen=True)
class LinksQuery:
    target: str
    scope: str
    filters: tuple[str, ...]
    sort: str
    source_scope: str
    source_root_domain: str
    anchor_text: str | None

    def digest(self) -> bytes:
        return hashlib.blake2b(repr(self).encode(), digest_size=6).digest()


class BadRequest(ValueError):
    pass


def parse_request(body: bytes) -> tuple[LinksQuery, int, int]:
    """(query, limit, offset) from a request body; raises BadRequest."""
    try:
        data = json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadRequest(f"The request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadRequest("The request body must be a JSON object.")
    target = data.get("target")
    if not isinstance(target, str) or not target.strip():
        raise BadRequest("Missing required field: target.")
    scope = _choice(data, "target_scope", "page", SCOPES)
    sort = _choice(data, "sort", SORTS[0], SORTS)
    source_scope = _choice(data, "source_scope", "page", SCOPES)
    filters = tuple(str(data.get("filter") or "external").split("+"))
    bad = [f for f in filters if f not in FILTERS]
    if bad:
        raise BadRequest(f"Invalid filter: {'+'.join(bad)} (valid: {', '.join(FILTERS)}).")
    limit = data.get("limit", DEFAULT_LIMIT)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise BadRequest(f"limit must be an integer from 1 to {MAX_LIMIT}.")
    anchor = data.get("anchor_text")
    if anchor is not None and not isinstance(anchor, str):
        raise BadRequest("anchor_text must be a string.")
    query = LinksQuery(
        target=moz_page(target.strip()),
        scope=scope,
        filters=tuple(sorted(set(filters))),
        sort=sort,
        source_scope=source_scope,
        source_root_domain=str(data.get("source_root_domain") or "").lower(),
        anchor_text=" ".join(anchor.split()).lower() if anchor is not None else None,
    )
    return query, limit, _decode_token(data.get("next_token"), query)


def _choice(data: dict, key: str, default: str, valid: tuple[str, ...]) -> str:
    value = data.get(key, default)
    if value not in valid:
        raise BadRequest(f"Invalid {key}: {value!r} (valid: {', '.join(valid)}).")
    return str(value)


def encode_token(offset: int, query: LinksQuery) -> str:
    raw = struct.pack(">I", offset) + query.digest()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_token(token: object, query: LinksQuery) -> int:
    if token in (None, ""):
        return 0
    try:
        raw = base64.urlsafe_b64decode(str(token) + "=" * (-len(str(token)) % 4))
        offset, digest = struct.unpack(">I", raw[:4])[0], raw[4:]
    except (ValueError, struct.error):
        raise BadRequest("Invalid next_token.") from None
    if digest != query.digest():
        raise BadRequest("next_token does not belong to this request.")
    return offset


@dataclass(frozen=True)
class Backlink:
    source: int  # URL ids
    target: int
    anchor: str


class MozLinks:
    """The backlink index (a covered share of the engine's links) and the ``links`` endpoint."""

    def __init__(
        self, index: EngineIndex, coverage: float, noise: float, max_results: int, seed: int
    ) -> None:
        self.index, self.noise, self.max_results, self.seed = index, noise, max_results, seed
        link_hash = mix64(index.url_hash[index.link_src], index.url_hash[index.link_dst], seed)
        kept = unit_interval(link_hash) < coverage
        self.src, self.dst = index.link_src[kept], index.link_dst[kept]
        self.anchor = index.link_anchor[kept]
        sizes = len(index.urls), len(index.hosts), len(index.domains)
        self.by_target = csr(self.dst, sizes[0])
        self.by_target_host = csr(index.url_host[self.dst], sizes[1])
        self.hosts_of_domain = csr(index.host_domain, sizes[2])
        self.urls_of_host = csr(index.url_host, sizes[1])
        # every link the engine knows (covered or not): true sources are never reported as stale
        self.out_offsets = np.searchsorted(index.link_src, np.arange(sizes[0] + 1))
        self.pages = index.pages_with_status(200)
        self._counts = _LinkCounts(self)
        self._cache: OrderedDict[LinksQuery, list[Backlink]] = OrderedDict()

    def answer(self, method: str, body: bytes) -> ApiAnswer:
        if method != "POST":
            return moz_error(405, "Method Not Allowed", "Use POST.", {"Allow": "POST"})
        try:
            query, limit, offset = parse_request(body)
        except BadRequest as exc:
            return moz_error(400, "Bad Request", str(exc))
        links = self.backlinks(query)
        page = links[offset : offset + limit]
        following = offset + limit if offset + limit < len(links) else None
        return json_answer(
            200,
            {
                "next_token": encode_token(following, query) if following is not None else "",
                "results": [self._link_json(link) for link in page],
            },
        )

    # --- the ranked list of one query ---------------------------------------------------------

    def backlinks(self, query: LinksQuery) -> list[Backlink]:
        """All backlinks of a query, ranked and cut at ``max_results`` (cached)."""
        found = self._cache.get(query)
        if found is None:
            found = self._rank(query)
            self._cache[query] = found
            if len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(query)
        return found

    def _rank(self, query: LinksQuery) -> list[Backlink]:
        scope = self._scope(query)
        if scope is None:
            return []
        positions, target_domain, in_scope = scope
        keep = self._filter_mask(self.src[positions], target_domain, query)
        positions = positions[keep]
        if query.anchor_text is not None:
            wanted = query.anchor_text
            anchors = self.index.anchors
            positions = positions[
                [" ".join(anchors[a].split()).lower() == wanted for a in self.anchor[positions]]
            ]
        links = [
            Backlink(int(s), int(d), self.index.anchors[a])
            for s, d, a in zip(
                self.src[positions], self.dst[positions], self.anchor[positions], strict=True
            )
        ]
        links += self._stale(query, len(links), target_domain, in_scope)
        links.sort(key=self._sort_key(query.sort))
        if query.source_scope != "page":
            links = self._best_per_source(links, query.source_scope)
        return links[: self.max_results]

    def _scope(self, query: LinksQuery) -> tuple[np.ndarray, int, np.ndarray] | None:
        """Positions of the covered links into the target, its domain, and the in-scope URLs."""
        index = self.index
        host = query.target.split("/", 1)[0]
        if query.scope == "page":
            urls = self._page_urls(query.target)
            if urls.size == 0:
                return None
            return _gather(self.by_target, urls), int(index.url_domain[urls[0]]), urls
        if query.scope == "subdomain":
            host_id = index.host_ids.get(host)
            if host_id is None:
                return None
            hosts = np.array([host_id], dtype=np.int32)
        else:
            domain_id = index.domain_ids.get(registered_domain(host))
            if domain_id is None:
                return None
            hosts = _gather(self.hosts_of_domain, np.array([domain_id], dtype=np.int32))
        domain = int(index.host_domain[hosts[0]])
        return _gather(self.by_target_host, hosts), domain, _gather(self.urls_of_host, hosts)

    def _page_urls(self, target: str) -> np.ndarray:
        """The URLs (http and https) whose Moz form is ``target``."""
        host_id = self.index.host_ids.get(target.split("/", 1)[0])
        if host_id is None:
            return np.zeros(0, dtype=np.int32)
        candidates = _gather(self.urls_of_host, np.array([host_id], dtype=np.int32))
        urls = self.index.urls
        return candidates[[moz_page(urls[u]) == target for u in candidates.tolist()]]

    def _filter_mask(
        self, sources: np.ndarray, target_domain: int, query: LinksQuery
    ) -> np.ndarray:
        domains = self.index.url_domain[sources]
        keep = np.ones(sources.size, dtype=bool)
        if "external" in query.filters:
            keep &= domains != target_domain
        if "internal" in query.filters:
            keep &= domains == target_domain
        if "nofollow" in query.filters:  # the engine's links carry no rel=nofollow
            keep &= False
        if query.source_root_domain:
            wanted = self.index.domain_ids.get(query.source_root_domain, -1)
            keep &= domains == wanted
        return keep

    def _stale(
        self, query: LinksQuery, true_count: int, target_domain: int, in_scope: np.ndarray
    ) -> list[Backlink]:
        """Deterministic stale backlinks: ``noise`` of the answer, from pages not linking in."""
        if true_count == 0 or self.noise <= 0 or self.pages.size == 0 or in_scope.size == 0:
            return []
        key = stable_hash64(f"{query.scope}\t{query.target}")
        expected = true_count * self.noise / (1.0 - self.noise)
        coin = unit_interval(mix64(key, self.seed, _STALE_SALT))
        wanted = int(expected) + (1 if coin < expected - int(expected) else 0)
        scope_set = set(in_scope.tolist())
        chosen: list[Backlink] = []
        seen: set[int] = set()
        for attempt in range(20 * wanted):
            if len(chosen) == wanted:
                break
            draw = mix64(key, self.seed, _STALE_SALT, attempt + 1)
            source = int(self.pages[int(draw % np.uint64(self.pages.size))])
            if source in seen or not self._filter_mask(np.array([source]), target_domain, query)[0]:
                continue
            seen.add(source)
            if self._links_into(source, scope_set):
                continue
            target = int(in_scope[int(mix64(draw, 7) % np.uint64(in_scope.size))])
            chosen.append(Backlink(source, target, self._some_anchor(source)))
        if query.anchor_text is not None:
            chosen = [b for b in chosen if " ".join(b.anchor.split()).lower() == query.anchor_text]
        return chosen

    def _links_into(self, source: int, scope: set[int]) -> bool:
        start, end = self.out_offsets[source], self.out_offsets[source + 1]
        return any(int(t) in scope for t in self.index.link_dst[start:end])

    def _some_anchor(self, source: int) -> str:
        start, end = self.out_offsets[source], self.out_offsets[source + 1]
        return self.index.anchors[int(self.index.link_anchor[start])] if end > start else ""

    def _sort_key(self, sort: str) -> Callable[[Backlink], tuple[int, str, str]]:
        index = self.index
        if sort == "source_domain_authority":
            authority = index.domain_authority[index.url_domain]
        else:
            authority = index.page_authority
        urls = index.urls
        return lambda b: (-int(authority[b.source]), urls[b.source], urls[b.target])

    def _best_per_source(self, links: list[Backlink], scope: str) -> list[Backlink]:
        index, seen, best = self.index, set(), []
        for link in links:
            host = int(index.url_host[link.source])
            group = host if scope == "subdomain" else int(index.host_domain[host])
            if group not in seen:
                seen.add(group)
                best.append(link)
        return best

    # --- JSON ---------------------------------------------------------------------------------

    def _link_json(self, link: Backlink) -> dict[str, Any]:
        first, last = _link_dates(self.index, link, self.seed)
        return {
            "source": self._counts.metrics(link.source),
            "target": self._counts.metrics(link.target),
            "anchor_text": link.anchor,
            "rel_canonical": False,
            "nofollow": False,
            "redirect": False,
            "via_redirect": False,
            "via_rel_canonical": False,
            "date_first_seen": first,
            "date_last_seen": last,
            "date_disappeared": "",
        }


def _gather(grouped: tuple[np.ndarray, np.ndarray], keys: np.ndarray) -> np.ndarray:
    order, offsets = grouped
    parts = [order[offsets[k] : offsets[k + 1]] for k in keys.tolist()]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def _link_dates(index: EngineIndex, link: Backlink, seed: int) -> tuple[str, str]:
    draw = int(mix64(index.url_hash[link.source], index.url_hash[link.target], seed, 0xDA7E))
    first = INDEX_DATE - datetime.timedelta(days=30 + draw % 700)
    last = INDEX_DATE - datetime.timedelta(days=(draw >> 20) % 30)
    return first.isoformat(), last.isoformat()


class _LinkCounts:
    """Moz's URL metrics of a URL, counted over the backlink index (distinct domains on demand)."""

    def __init__(self, links: MozLinks) -> None:
        self.links, self.index, self.url_domain = links, links.index, links.index.url_domain
        url_domain = self.url_domain
        index, src, dst = links.index, links.src, links.dst
        sizes = len(index.urls), len(index.hosts), len(index.domains)
        dst_domain, dst_host = url_domain[dst], index.url_host[dst]
        external = url_domain[src] != dst_domain
        self.to_page = np.bincount(dst, minlength=sizes[0])
        self.external_to_page = np.bincount(dst[external], minlength=sizes[0])
        self.to_host = np.bincount(dst_host, minlength=sizes[1])
        self.external_to_host = np.bincount(dst_host[external], minlength=sizes[1])
        self.to_domain = np.bincount(dst_domain, minlength=sizes[2])
        self.external_to_domain = np.bincount(dst_domain[external], minlength=sizes[2])
        self.from_offsets = np.searchsorted(src, np.arange(sizes[0] + 1))  # src is sorted
        self._distinct: dict[tuple[str, int], int] = {}

    def domains_to(self, kind: str, key: int) -> int:
        """Distinct root domains linking to a page, a host or a domain."""
        found = self._distinct.get((kind, key))
        if found is None:
            links = self.links
            if kind == "page":
                positions = _gather(links.by_target, np.array([key]))
            else:
                hosts = np.array([key])
                if kind == "domain":
                    hosts = _gather(links.hosts_of_domain, hosts)
                positions = _gather(links.by_target_host, hosts)
            found = int(np.unique(self.url_domain[links.src[positions]]).size)
            self._distinct[(kind, key)] = found
        return found

    def metrics(self, url_id: int) -> dict[str, Any]:
        index = self.index
        host = int(index.url_host[url_id])
        domain = int(index.host_domain[host])
        status = int(index.status[url_id])
        draw = int(index.url_hash[url_id])
        crawled = INDEX_DATE - datetime.timedelta(days=draw % 60) if status else None
        start, end = self.from_offsets[url_id], self.from_offsets[url_id + 1]
        return {
            "page": moz_page(index.urls[url_id]),
            "subdomain": index.hosts[host],
            "root_domain": index.domains[domain],
            "title": index.title[url_id],
            "last_crawled": crawled.isoformat() if crawled else "",
            "http_code": status,
            "pages_to_page": int(self.to_page[url_id]),
            "nofollow_pages_to_page": 0,
            "redirect_pages_to_page": 0,
            "external_pages_to_page": int(self.external_to_page[url_id]),
            "deleted_pages_to_page": 0,
            "root_domains_to_page": self.domains_to("page", url_id),
            "pages_to_subdomain": int(self.to_host[host]),
            "external_pages_to_subdomain": int(self.external_to_host[host]),
            "root_domains_to_subdomain": self.domains_to("host", host),
            "pages_to_root_domain": int(self.to_domain[domain]),
            "external_pages_to_root_domain": int(self.external_to_domain[domain]),
            "root_domains_to_root_domain": self.domains_to("domain", domain),
            "page_authority": int(index.page_authority[url_id]),
            "domain_authority": int(index.domain_authority[domain]),
            "spam_score": 1,
            "pages_from_page": int(end - start),
            "root_domains_from_page": int(
                np.unique(self.url_domain[self.links.dst[start:end]]).size
            ),
        }
