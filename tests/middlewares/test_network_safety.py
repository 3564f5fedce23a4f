import asyncio
import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.test import get_crawler

from bilingual_spider.middlewares.network_safety import (
    NetworkSafetyMiddleware,
    address_reason,
    refusal_reason,
)


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
        ("http:///nohost", "no_host"),
        ("http://8.8.8.8/", None),
        ("https://[2001:4860:4860::8888]/", None),
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
    middleware = NetworkSafetyMiddleware(stats, sandbox=True)
    # a fake host name would not resolve: in sandbox mode it is not resolved at all
    assert run(middleware.process_request(Request("http://www.no-such-tld.invalid/"))) is None
    with pytest.raises(IgnoreRequest, match="private"):
        run(middleware.process_request(Request("http://192.168.0.10/")))
    with pytest.raises(IgnoreRequest, match="sandbox_https"):
        run(middleware.process_request(Request("https://www.example.org/")))
    assert stats.get_value("safety/refused/private") == 1
    assert stats.get_value("safety/refused/sandbox_https") == 1


def test_middleware_resolves_names_on_the_real_web() -> None:
    stats = get_crawler().stats
    middleware = NetworkSafetyMiddleware(stats)
    middleware._resolved["intranet.example"] = ["10.9.9.9"]  # as if DNS had answered so
    with pytest.raises(IgnoreRequest, match="private"):
        run(middleware.process_request(Request("http://intranet.example/")))
    admitted = NetworkSafetyMiddleware(stats, allowed_hosts=["intranet.example"])
    admitted._resolved["intranet.example"] = ["10.9.9.9"]
    assert run(admitted.process_request(Request("http://intranet.example/"))) is None
