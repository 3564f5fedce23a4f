"""The crawl's own link graph: which fetched pages link to which host (the embedded backlinks).

With no search or backlink API, the pages a crawl has already fetched are the backlinks it can
know: every page records its out-of-site links here, and the backlinks of a bilingual site are
the fetched pages that link to it. Memory is bounded: at most ``max_hosts`` target hosts (the
least recently linked are forgotten first) and ``max_sources`` linking pages per host (the first
ones seen are kept), each with one anchor text.

Out-of-site means another registered domain (``es.example.com`` and ``www.example.com`` are one
site), as the paper excludes internal links from the bipartite graph.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from bilingual_spider.language.tld import host_of, registered_domain


@dataclass(frozen=True, slots=True)
class CrawlBacklink:
    source: str
    """The fetched page that links."""
    target: str
    """The URL it links to."""
    anchor: str


@lru_cache(maxsize=65536)
def site_of(host: str) -> str:
    """The registered domain of a host (the host itself when it has none)."""
    return registered_domain(host) or host


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").rstrip(".")
    except ValueError:
        return ""


class CrawlLinkGraph:
    """Target host -> {linking page: (target URL, anchor)}, bounded."""

    def __init__(self, max_hosts: int = 200_000, max_sources: int = 50) -> None:
        if max_hosts < 1 or max_sources < 1:
            raise ValueError("the bounds must be positive")
        self.max_hosts, self.max_sources = max_hosts, max_sources
        self._by_host: OrderedDict[str, dict[str, tuple[str, str]]] = OrderedDict()
        self.pages_recorded = 0
        self.hosts_forgotten = 0

    def __len__(self) -> int:
        """The number of target hosts known."""
        return len(self._by_host)

    def add_page(self, source: str, links: Iterable[str | tuple[str, str]]) -> int:
        """Record the out-of-site links of a fetched page (URLs, or (URL, anchor) pairs).

        Returns how many links were recorded (new, out-of-site, within the bounds)."""
        source_site = site_of(_host(source))
        self.pages_recorded += 1
        recorded = 0
        for link in links:
            url, anchor = (link, "") if isinstance(link, str) else link
            host = _host(url)
            if not host or site_of(host) == source_site:
                continue
            recorded += self._add(host, source, url, " ".join(anchor.split()))
        return recorded

    def _add(self, host: str, source: str, url: str, anchor: str) -> int:
        sources = self._by_host.get(host)
        if sources is None:
            sources = self._by_host[host] = {}
            if len(self._by_host) > self.max_hosts:
                self._by_host.popitem(last=False)
                self.hosts_forgotten += 1
        else:
            self._by_host.move_to_end(host)
        if source in sources or len(sources) >= self.max_sources:
            return 0
        sources[source] = (url, anchor)
        return 1

    def backlinks(self, target: str, scope: str = "page") -> list[CrawlBacklink]:
        """The fetched pages that link to ``target``: with scope ``page``, those linking to the
        URL itself first, then those linking elsewhere into its host; ``host``: into the host;
        ``domain``: into any host of its registered domain."""
        host = host_of(target)
        if scope == "domain":
            site = site_of(host)
            hosts = [h for h in self._by_host if site_of(h) == site]
        else:
            hosts = [host] if host in self._by_host else []
        found = [
            CrawlBacklink(source, url, anchor)
            for h in hosts
            for source, (url, anchor) in self._by_host[h].items()
        ]
        if scope == "page":
            wanted = _normal(target)
            found.sort(key=lambda b: _normal(b.target) != wanted)  # stable: exact matches first
        return found


def _normal(url: str) -> str:
    """A URL without scheme, fragment and trailing slash, for comparing link targets."""
    rest = url.partition("://")[2] if "://" in url else url
    return rest.partition("#")[0].rstrip("/").lower()
