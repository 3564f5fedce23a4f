"""Refuse requests to private, loopback, link-local and other non-public targets, and non-http(s)
URLs: a crawler that follows links from the open web must not become a way into the network it
runs in (SSRF). Each refusal is counted (``safety/refused/<reason>``) and logged.

Admitted anyway: hosts and networks in ``BILINGUAL_ALLOWED_HOSTS`` / ``BILINGUAL_ALLOWED_NETWORKS``,
and, when ``BILINGUAL_SANDBOX_PROXY`` is set, every host name (the sandbox proxy answers for all of
them and nothing leaves the machine; IP literals are still checked).

Host names are resolved asynchronously and cached per host. A name may resolve differently when
the download connects (DNS rebinding); a crawler that must be proof against that should run behind
an egress proxy or firewall as well.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.statscollectors import StatsCollector

from bilingual_spider.language.tld import ip_address_of

logger = logging.getLogger(__name__)

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def address_reason(address: IPAddress) -> str | None:
    """Why an address is not a public Internet target, or None if it is one."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link_local"
    if address.is_multicast or address.is_unspecified or address.is_reserved:
        return "reserved"
    if address.is_private or not address.is_global:
        return "private"
    return None


def url_reason(url: str) -> tuple[str | None, str]:
    """Check what the URL alone tells: ``(reason or None, host)``."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").rstrip(".").lower()
    except ValueError:
        return "malformed", ""
    if parts.scheme not in ("http", "https"):
        return "scheme", host
    if not host:
        return "no_host", host
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback", host
    literal = ip_address_of(host)
    if literal is not None:
        return address_reason(literal), host
    return None, host


def refusal_reason(
    url: str,
    resolved: Iterable[str] = (),
    allowed_networks: Iterable[IPNetwork] = (),
    allowed_hosts: Iterable[str] = (),
) -> str | None:
    """Why ``url`` must not be fetched, given the addresses its host resolved to; None if it may.

    >>> refusal_reason("http://10.0.0.1/"), refusal_reason("ftp://example.org/")
    ('private', 'scheme')
    >>> refusal_reason("http://example.org/", resolved=["93.184.215.14"]) is None
    True
    """
    reason, host = url_reason(url)
    if reason in _ALWAYS_REFUSED:
        return reason
    if host in set(allowed_hosts):
        return None
    literal = ip_address_of(host)
    if literal is not None:
        addresses: list[IPAddress] = [literal]
    elif reason == "loopback":  # localhost by name
        addresses = [ipaddress.ip_address("127.0.0.1")]
    else:
        addresses = [ipaddress.ip_address(a) for a in resolved]
    networks = list(allowed_networks)
    for address in addresses:
        why = address_reason(address)
        if why and not any(address in net for net in networks):
            return why
    return None


_ALWAYS_REFUSED = ("scheme", "no_host", "malformed")


def host_to_resolve(
    url: str, sandbox: bool = False, allowed_hosts: Iterable[str] = ()
) -> tuple[str | None, str | None]:
    """What must be known before :func:`refusal_reason` decides: ``(reason, None)`` when the URL
    alone has it refused; else ``(None, host)`` when the addresses of ``host`` decide (a name, on
    the real web), ``(None, None)`` when no name needs resolving (an IP literal, an allowed host,
    any name in the sandbox, whose proxy answers for every host)."""
    reason, host = url_reason(url)
    if reason in _ALWAYS_REFUSED:
        return reason, None
    if host in set(allowed_hosts):
        return None, None
    if sandbox and url.startswith("https:"):
        return "sandbox_https", None  # the sandbox proxy speaks plain http only
    must_resolve = not sandbox and reason is None and ip_address_of(host) is None
    return None, host if must_resolve else None


def resolve_host(host: str) -> list[str]:
    """The addresses a name resolves to (blocking); ``[]`` when it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, None)
    except (socket.gaierror, UnicodeError, OSError):
        return []
    return sorted({str(info[4][0]) for info in infos})


def check_url(
    url: str,
    sandbox: bool = False,
    allowed_networks: Iterable[str] = (),
    allowed_hosts: Iterable[str] = (),
    resolve: Callable[[str], list[str]] = resolve_host,
) -> str | None:
    """Why a crawl would refuse ``url`` (the middleware's check, blocking: for a command that
    fetches one URL outside a crawl, such as ``langid --html URL``), or None if it may be
    fetched."""
    allowed_hosts = {h.lower() for h in allowed_hosts}
    reason, host = host_to_resolve(url, sandbox, allowed_hosts)
    if reason is not None:
        return reason
    networks = [ipaddress.ip_network(n, strict=False) for n in allowed_networks]
    return refusal_reason(url, resolve(host) if host else [], networks, allowed_hosts)


class NetworkSafetyMiddleware:
    """Downloader middleware: seeds, links, redirects and robots.txt requests all pass here."""

    def __init__(
        self,
        stats: StatsCollector,
        allowed_networks: Iterable[str] = (),
        allowed_hosts: Iterable[str] = (),
        sandbox: bool = False,
    ) -> None:
        self.stats = stats
        self.allowed_networks = [ipaddress.ip_network(n, strict=False) for n in allowed_networks]
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self.sandbox = sandbox
        self._resolved: dict[str, list[str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NetworkSafetyMiddleware:
        settings = crawler.settings
        return cls(
            crawler.stats,
            settings.getlist("BILINGUAL_ALLOWED_NETWORKS"),
            settings.getlist("BILINGUAL_ALLOWED_HOSTS"),
            sandbox=bool(settings.get("BILINGUAL_SANDBOX_PROXY")),
        )

    async def process_request(self, request: Request) -> None:
        reason = await self.reason(request.url)
        if reason is not None:
            self.stats.inc_value(f"safety/refused/{reason}")
            logger.info("refused %s (%s, role %s)", request.url, reason, request.meta.get("role"))
            raise IgnoreRequest(f"network safety: {reason}")

    async def reason(self, url: str) -> str | None:
        """Why ``url`` is refused here, or None; resolves the host only when it has to."""
        reason, host = host_to_resolve(url, self.sandbox, self.allowed_hosts)
        if reason is not None:
            return reason
        resolved = await self._resolve(host) if host else []
        return refusal_reason(url, resolved, self.allowed_networks, self.allowed_hosts)

    async def _resolve(self, host: str) -> list[str]:
        if host not in self._resolved:
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, None)
                self._resolved[host] = sorted({str(info[4][0]) for info in infos})
            except (socket.gaierror, UnicodeError):
                self._resolved[host] = []  # the download itself will fail and be counted
        return self._resolved[host]
