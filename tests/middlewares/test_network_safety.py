import asyncio
import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scrapy import Request
from scrapy.exceptions import IgnoreRequest

from bilingual_spider.middlewares.network_safety import (
    NetworkGuard,
    NetworkSafetyMiddleware,
    address_reason,
    check_url,
    refusal_reason,
)
from tests.crawlers import get_crawler


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1/", "loopback"),
        ("http://127.8.9.10:8080/x", "loopback"),
        ("http://[::1]/", "loopback"),
        ("http://localhost/", "loopback"),
        ("http://api.localhost/", "loopback"),
        ("http://10.0.0.1/", "private"),
        ("http://172.16.5.4/", "private"),
        ("http://192.168.1.1/", "private"),
        ("http://100.64.0.1/", "private"),  # carrier-grade NAT: not global
        ("http://[fd00::1]/", "private"),
        ("http://169.254.169.254/", "link_local"),
        ("http://[fe80::1]/", "link_local"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("http://0.0.0.0/", "reserved"),
        ("http://224.0.0.1/", "reserved"),
        ("ftp://example.org/", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("data:text/plain,items", None),  # no connection: the content is in the URL
        ("http:///nohost", "no_host"),
        ("http://8.8.8.8/", None),
        ("https://[2001:4860:4860::8888]/", None),
        # numeric host forms, as inet_aton reads them (issue 32): judged before any resolution
        ("http://2130706433/", "loopback"),
        ("http://127.1/", "loopback"),
        ("http://0177.0.0.1/", "loopback"),
        ("http://0x7f.1/", "loopback"),
        ("http://0X7F000001/", "loopback"),
        ("http://0xa.0xa.0xa.0xa/", "private"),
        ("http://3232235777/", "private"),  # 192.168.1.1
        ("http://134744072/", None),  # 8.8.8.8
        ("http://1.2.3.4.5/", "malformed"),
        ("http://256.1.1.1/", "malformed"),
        ("http://www.example.0x1/", "malformed"),
        # IPv6 wrappers of private IPv4 addresses
        ("http://[2002:7f00:1::]/", "loopback"),  # 6to4 of 127.0.0.1
        ("http://[2002:c0a8:101::1]/", "private"),  # 6to4 of 192.168.1.1
        ("http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "loopback"),  # Teredo, client 127.0.0.1
        ("http://[64:ff9b::7f00:1]/", "loopback"),  # NAT64 of 127.0.0.1
        ("http://[2002:808:808::]/", None),  # 6to4 of 8.8.8.8: a public address
    ],
)
def test_url_reasons(url: str, reason: str | None) -> None:
    assert refusal_reason(url) == reason


def test_resolved_addresses_decide_for_host_names() -> None:
    assert refusal_reason("http://intranet.example/", ["10.2.3.4"]) == "private"
    assert refusal_reason("http://mixed.example/", ["8.8.8.8", "127.0.0.1"]) == "loopback"
    assert refusal_reason("http://public.example/", ["8.8.8.8"]) is None


def test_allow_lists() -> None:
    net = [ipaddress.ip_network("10.1.0.0/16")]
    assert refusal_reason("http://10.1.2.3/", allowed_networks=net) is None
    assert refusal_reason("http://10.2.2.3/", allowed_networks=net) == "private"
    assert refusal_reason("http://localhost/", allowed_hosts=["localhost"]) is None
    assert refusal_reason("ftp://localhost/", allowed_hosts=["localhost"]) == "scheme"


@given(st.ip_addresses())
def test_every_address_is_classified_consistently(address) -> None:
    reason = address_reason(address)
    assert reason in (None, "loopback", "link_local", "reserved", "private")
    if reason is None:
        assert address.is_global


def run(coro):
    return asyncio.run(coro)


def test_middleware_counts_refusals_and_skips_dns_in_sandbox() -> None:
    stats = get_crawler().stats
    middleware = NetworkSafetyMiddleware(stats, NetworkGuard(sandbox=True))
    # a fake host name would not resolve: in sandbox mode it is not resolved at all
    assert run(middleware.process_request(Request("http://www.no-such-tld.invalid/"))) is None
    with pytest.raises(IgnoreRequest, match="private"):
        run(middleware.process_request(Request("http://192.168.0.10/")))
    with pytest.raises(IgnoreRequest, match="sandbox_https"):
        run(middleware.process_request(Request("https://www.example.org/")))
    assert stats.get_value("safety/refused/private") == 1
    assert stats.get_value("safety/refused/sandbox_https") == 1


def test_numeric_hosts_are_refused_without_resolving_them_even_in_the_sandbox() -> None:
    stats = get_crawler().stats
    for sandbox in (True, False):
        middleware = NetworkSafetyMiddleware(stats, NetworkGuard(sandbox=sandbox))
        for url in ("http://2130706433/", "http://127.1/x", "http://0x7f.0.0.1/"):
            with pytest.raises(IgnoreRequest, match="loopback"):
                run(middleware.process_request(Request(url)))
        assert middleware.guard._resolved == {}  # nothing was resolved
    assert stats.get_value("safety/refused/loopback") == 6


def test_a_name_that_does_not_resolve_is_refused_outside_the_sandbox() -> None:
    stats = get_crawler().stats
    middleware = NetworkSafetyMiddleware(stats, NetworkGuard())
    with pytest.raises(IgnoreRequest, match=r"could not resolve www.no-such-name.invalid \(DNS\)"):
        run(middleware.process_request(Request("http://www.no-such-name.invalid/")))
    assert middleware.guard._resolved == {"www.no-such-name.invalid": []}
    assert stats.get_value("fetch/failed/dns") == 1  # a DNS failure, named so (issue 52) ...
    assert stats.get_value("safety/refused/unresolved") is None  # ... not a safety refusal
    assert check_url("http://www.no-such-name.invalid/") == "unresolved"
    assert check_url("http://www.no-such-name.invalid/", sandbox=True) is None
    allowed = NetworkSafetyMiddleware(
        stats, NetworkGuard(allowed_hosts=["www.no-such-name.invalid"])
    )
    assert run(allowed.process_request(Request("http://www.no-such-name.invalid/"))) is None


def test_middleware_resolves_names_on_the_real_web() -> None:
    stats = get_crawler().stats
    middleware = NetworkSafetyMiddleware(stats, NetworkGuard())
    middleware.guard._resolved["intranet.example"] = ["10.9.9.9"]  # as if DNS had answered so
    with pytest.raises(IgnoreRequest, match="private"):
        run(middleware.process_request(Request("http://intranet.example/")))
    admitted = NetworkSafetyMiddleware(stats, NetworkGuard(allowed_hosts=["intranet.example"]))
    admitted.guard._resolved["intranet.example"] = ["10.9.9.9"]
    assert run(admitted.process_request(Request("http://intranet.example/"))) is None
