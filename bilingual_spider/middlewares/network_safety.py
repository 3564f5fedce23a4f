"""Refuse requests to private, loopback, link-local and other non-public targets, and non-http(s)
URLs (``data:`` URLs excepted: their content is in the URL, nothing is connected to): a crawler
that follows links from the open web must not become a way into the network it runs in (SSRF).
Each refusal is counted (``safety/refused/<reason>``) and logged; a host name that does not
resolve is a DNS failure (``fetch/failed/dns``), not a refusal.

Admitted anyway: hosts and networks in ``BILINGUAL_ALLOWED_HOSTS`` / ``BILINGUAL_ALLOWED_NETWORKS``,
and, when ``BILINGUAL_SANDBOX_PROXY`` is set, every host name (the sandbox proxy answers for all of
them and nothing leaves the machine; IP literals are still checked).

Host names are resolved asynchronously and cached per host; a name that does not resolve is
refused (``unresolved``: fail-closed). A host written as numbers (``2130706433``, ``127.1``,
``0x7f.1``, as ``inet_aton`` reads them) is judged as the address it stands for, before any
resolution and in the sandbox too; an IPv6 address that wraps an IPv4 one (IPv4-mapped, 6to4
``2002:7f00:1::``, Teredo, NAT64 ``64:ff9b::``) is judged by that IPv4 address too. A name may
resolve differently when the download connects (DNS rebinding); a crawler that must be proof
against that should run behind an egress proxy or firewall as well.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Literal
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from bilingual_spider.language.tld import ip_address_of

logger = logging.getLogger(__name__)

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


NAT64_PREFIXES = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
"""IPv6 prefixes whose last 32 bits are an IPv4 address a NAT64 gateway connects to (RFC 6052,
RFC 8215)."""


def embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address wraps, when it is one of the forms that reach it:
    IPv4-mapped (``::ffff:127.0.0.1``), 6to4 (``2002:7f00:1::``), Teredo (its client) and NAT64
    (``64:ff9b::7f00:1``)."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped or address.sixtofour:
        return address.ipv4_mapped or address.sixtofour
    if address.teredo:
        return address.teredo[1]
    if any(address in prefix for prefix in NAT64_PREFIXES):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def numeric_ipv4(host: str) -> ipaddress.IPv4Address | None | Literal[False]:
    """The IPv4 address a host written as numbers stands for, as ``inet_aton`` and the URL
    standard read it (``2130706433``, ``127.1``, ``0177.0.0.1``, ``0x7f.1``: all 127.0.0.1); None
    when the host does not end in a number (a name); False when it does but is no address
    (``1.2.3.4.5``, ``256.1.1.1``, ``example.0x1``), which no host name is either."""
    parts = host.split(".")
    if not parts or _number(parts[-1]) is None:
        return None
    numbers = [_number(part) for part in parts]
    if len(numbers) > 4 or any(n is None for n in numbers):
        return False
    *front, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in front) or last >= 256 ** (4 - len(front)):
        return False
    value = last
    for i, n in enumerate(front):
        value += n << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def _number(part: str) -> int | None:
    """A part of a numeric host: decimal, octal (``0177``) or hex (``0x7f``); None otherwise."""
    try:
        if part[:2].lower() == "0x":
            return int(part[2:] or "0", 16) if part[2:].isascii() else None
        if not (part.isascii() and part.isdigit()):
            return None
        return int(part, 8) if len(part) > 1 and part[0] == "0" else int(part)
    except ValueError:
        return None


def host_address(host: str) -> IPAddress | None | Literal[False]:
    """The address a host is written as: an IP literal or a numeric form (see
    :func:`numeric_ipv4`); None for a name; False for numbers that are no address."""
    literal = ip_address_of(host)
    return literal if literal is not None else numeric_ipv4(host)


def address_reason(address: IPAddress) -> str | None:
    """Why an address is not a public Internet target, or None if it is one. An IPv6 address
    that wraps an IPv4 one (:func:`embedded_ipv4`) is judged by the IPv4 address too."""
    embedded = embedded_ipv4(address)
    if embedded is not None:
        why = address_reason(embedded)
        if why or address.ipv4_mapped:
            return why
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
    if parts.scheme == "data":
        return None, ""  # its content is in the URL: nothing is connected to
    if parts.scheme not in ("http", "https"):
        return "scheme", host
    if not host:
        return "no_host", host
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback", host
    literal = host_address(host)
    if literal is False:
        return "malformed", host  # numbers that are no address: no name either
    if isinstance(literal, ipaddress.IPv4Address | ipaddress.IPv6Address):
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
    literal = host_address(host)
    if isinstance(literal, ipaddress.IPv4Address | ipaddress.IPv6Address):
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
UNRESOLVED = "unresolved"
"""A name that does not resolve, outside the sandbox, is refused (fail-closed): the download's
own resolver might still reach something (a search domain, ``/etc/hosts`` changed meanwhile).
The middleware counts it as what it is, a DNS failure (:data:`DNS_FAILED`), not a refusal."""
DNS_FAILED = "fetch/failed/dns"
"""Stat of the requests whose host name did not resolve (no network, or no such name)."""


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
    must_resolve = not sandbox and reason is None and host_address(host) is None
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
    resolved = resolve(host) if host else []
    if host and not resolved:
        return UNRESOLVED
    networks = [ipaddress.ip_network(n, strict=False) for n in allowed_networks]
    return refusal_reason(url, resolved, networks, allowed_hosts)


class NetworkGuard:
    """The crawl's network-safety check of a URL, asynchronous, each host name resolved once:
    the downloader middleware below and the headless browser's own requests
    (:class:`~bilingual_spider.middlewares.rendering.BrowserRequestFilter`) both ask it."""

    def __init__(
        self,
        allowed_networks: Iterable[str] = (),
        allowed_hosts: Iterable[str] = (),
        sandbox: bool = False,
    ) -> None:
        self.allowed_networks = [ipaddress.ip_network(n, strict=False) for n in allowed_networks]
        self.allowed_hosts = {h.lower() for h in allowed_hosts}
        self.sandbox = sandbox
        self._resolved: dict[str, list[str]] = {}

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> NetworkGuard:
        return cls(
            settings.getlist("BILINGUAL_ALLOWED_NETWORKS"),
            settings.getlist("BILINGUAL_ALLOWED_HOSTS"),
            sandbox=bool(settings.get("BILINGUAL_SANDBOX_PROXY")),
        )

    async def reason(self, url: str) -> str | None:
        """Why ``url`` is refused here, or None; resolves the host only when it has to."""
        reason, host = host_to_resolve(url, self.sandbox, self.allowed_hosts)
        if reason is not None:
            return reason
        resolved = await self._resolve(host) if host else []
        if host and not resolved:
            return UNRESOLVED  # fail closed: what it would connect to is not known
        return refusal_reason(url, resolved, self.allowed_networks, self.allowed_hosts)

    async def _resolve(self, host: str) -> list[str]:
        if host not in self._resolved:
            try:
                infos = await asyncio.get_running_loop().getaddrinfo(host, None)
                self._resolved[host] = sorted({str(info[4][0]) for info in infos})
            except (socket.gaierror, UnicodeError, OSError):
                self._resolved[host] = []  # refused: see UNRESOLVED
        return self._resolved[host]


class NetworkSafetyMiddleware:
    """Downloader middleware: seeds, links, redirects and robots.txt requests all pass here."""

    def __init__(self, stats: StatsCollector, guard: NetworkGuard) -> None:
        self.stats = stats
        self.guard = guard

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> NetworkSafetyMiddleware:
        assert crawler.stats is not None
        return cls(crawler.stats, NetworkGuard.from_settings(crawler.settings))

    async def process_request(self, request: Request) -> None:
        reason = await self.guard.reason(request.url)
        if reason == UNRESOLVED:  # no network, or no such name: a failure, not a refusal
            self.stats.inc_value(DNS_FAILED)
            host = urlsplit(request.url).hostname
            logger.info("could not resolve %s (DNS), role %s", host, request.meta.get("role"))
            raise IgnoreRequest(f"could not resolve {host} (DNS)")
        if reason is not None:
            self.stats.inc_value(f"safety/refused/{reason}")
            logger.info("refused %s (%s, role %s)", request.url, reason, request.meta.get("role"))
            raise IgnoreRequest(f"network safety: {reason}")
