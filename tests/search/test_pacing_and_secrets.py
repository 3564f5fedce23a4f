"""Rate limits, Retry-After and back-off arithmetic, the answer cache, secret redaction in logs,
and how settings choose the adapters (all without a crawl)."""

from __future__ import annotations

import logging
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scrapy.http import Response

from bilingual_spider.middlewares.search_credentials import SearchCredentialsMiddleware
from bilingual_spider.search.answer_cache import AnswerCache
from bilingual_spider.search.calls import SEARCH_CALL, SearchCall
from bilingual_spider.search.configuration import build_setup
from bilingual_spider.search.credentials import REDACTED, SecretRedaction, redact
from bilingual_spider.search.google_cse import CLOSING
from bilingual_spider.search.rate_limit import RateLimiter, backoff_delay, parse_retry_after
from bilingual_spider.search.service import SearchService
from bilingual_spider.search.values import SearchPage, SearchQuery
from tests.crawlers import project_settings
from tests.fake_clock import FakeClock


def test_rate_limiter_spaces_calls_and_pauses() -> None:
    clock = FakeClock(100.0)
    limiter = RateLimiter(2.0, clock)  # a call every 0.5 s
    assert [limiter.reserve() for _ in range(3)] == [0.0, 0.5, 1.0]
    assert limiter.delay() == pytest.approx(1.5)
    clock.now += 2.0
    assert limiter.delay() == 0.0 and limiter.reserve() == 0.0
    limiter.pause(10.0)
    limiter.pause(3.0)  # a shorter pause never shortens the one set
    assert limiter.delay() == pytest.approx(10.0)
    assert limiter.reserve() == pytest.approx(10.0)
    unlimited = RateLimiter(None, clock)
    assert [unlimited.reserve() for _ in range(5)] == [0.0] * 5
    with pytest.raises(ValueError):
        RateLimiter(-1.0)


@given(st.floats(0.01, 100.0), st.lists(st.floats(0.0, 5.0), min_size=1, max_size=30))
def test_reserved_calls_are_never_closer_than_the_interval(rate: float, gaps: list[float]) -> None:
    clock = FakeClock(100.0)
    limiter = RateLimiter(rate, clock)
    starts = []
    for gap in gaps:
        clock.now += gap
        starts.append(clock.now + limiter.reserve())
    assert all(b - a >= 1.0 / rate - 1e-9 for a, b in zip(starts, starts[1:], strict=False))


def test_retry_after_and_backoff() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0
    assert parse_retry_after(None) is None and parse_retry_after("") is None
    assert [backoff_delay(n, None, 1.0, 5.0) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 5.0]
    assert backoff_delay(5, 3.0, 1.0, 5.0) == 3.0  # the server's word wins


def test_answer_cache_is_bounded_and_never_keeps_failures() -> None:
    cache = AnswerCache(2)
    pages = [SearchPage(SearchQuery.search(f"q{i}"), "google_cse") for i in range(3)]
    keys = [("google_cse", p.query, None) for p in pages]
    cache.put(keys[0], pages[0])
    cache.put(keys[1], pages[1])
    assert cache.get(keys[0]) == pages[0]  # now the most recently used
    cache.put(keys[2], pages[2])
    assert keys[1] not in cache and keys[0] in cache and len(cache) == 2
    failed = SearchPage(SearchQuery.search("x"), "google_cse", error="HTTP 500")
    cache.put(("google_cse", failed.query, None), failed)
    assert ("google_cse", failed.query, None) not in cache


def test_secrets_are_redacted_from_messages_arguments_and_tracebacks(caplog) -> None:
    secret = "AIza-very-secret"
    redaction = SecretRedaction([secret, ""])
    log = logging.getLogger("tests.search.redaction")
    redaction.install()
    try:
        with caplog.at_level(logging.DEBUG):
            log.info("Crawled (200) <GET %s>", f"http://api/?q=x&key={secret}")
            try:
                raise TimeoutError(f"Getting http://api/?key={secret} took longer than 1 s")
            except TimeoutError:
                log.exception("download failed")
            log.warning("nothing secret here: %d", 3)
    finally:
        redaction.uninstall()
    text = caplog.text
    assert secret not in text and text.count(REDACTED) == 2
    assert "nothing secret here: 3" in text
    assert logging.getLogRecordFactory() is logging.LogRecord  # uninstalled
    assert redact("a-b-ab", ["ab", "a-b"]) == f"{REDACTED}-{REDACTED}"


def test_settings_choose_adapters_urls_and_rates() -> None:
    sandbox = build_setup(
        project_settings({"BILINGUAL_SANDBOX_PROXY": "http://127.0.0.1:1"}), environ={}
    )
    assert sandbox.defaults == {
        "backlinks": "moz",
        "search": "brave",
        "url_index": "cc_index",
    }
    assert sandbox.remote["brave"].base_url == "http://api.sandbox.internal/res/v1/web/search"
    assert sandbox.remote["moz"].base_url == "http://api.sandbox.internal/moz/v2/links"
    assert set(sandbox.rates.values()) == {None}  # the fakes limit themselves
    real = build_setup(
        project_settings({}),
        environ={"GOOGLE_CSE_KEY": "k", "GOOGLE_CSE_CX": "c", "BRAVE_API_KEY": " b "},
    )
    assert real.defaults["backlinks"] == "embedded"  # no Moz keys: the crawl's own graph
    assert real.remote["moz"].base_url == "https://lsapi.seomoz.com/v2/links"
    assert real.rates["moz"] == 0.1 and real.rates["google_cse"] == 1.0
    assert real.remote["google_cse"].secrets() == ("k",)  # from the environment
    assert real.remote["brave"].secrets() == ("b",) and real.rates["brave"] == 1.0
    assert real.remote["brave"].base_url == "https://api.search.brave.com/res/v1/web/search"
    keyless = build_setup(project_settings({"BILINGUAL_SEARCH_WEB": "google_cse"}), environ={})
    assert keyless.defaults["search"] == "google_cse"
    assert "BILINGUAL_BRAVE_KEY" in (keyless.remote["brave"].missing_configuration() or "")
    setting = build_setup(
        project_settings({"BILINGUAL_BRAVE_KEY": "s"}), environ={"BRAVE_API_KEY": "e"}
    )
    assert setting.remote["brave"].secrets() == ("s",)  # the setting wins
    assert real.rates["embedded"] is None
    assert real.hostgraph_pages == {"cc_hostgraph": "index", "embedded": "home"}
    moz = build_setup(
        project_settings({"BILINGUAL_SEARCH_RATES": '{"moz": 5}'}), environ={"MOZ_TOKEN": "t"}
    )
    assert moz.defaults["backlinks"] == "moz" and moz.rates["moz"] == 5.0
    for bad in (
        {"BILINGUAL_SEARCH_BACKLINKS": "google_cse"},
        {"BILINGUAL_SEARCH_RATES": {"altavista": 1}},
        {"BILINGUAL_HOSTGRAPH_PAGES": "all"},
    ):
        with pytest.raises(ValueError):
            build_setup(project_settings(bad), environ={})


def test_held_queries_wait_for_the_same_call_out_and_then_go_first() -> None:
    """The service's pump stops at the first query that may not go; a query whose call is out
    already waits beside it (not in the line) and goes first once that call is answered."""
    from bilingual_spider.search.held_queries import AdapterQueries, HeldQuery

    def held(target: str, not_before: float = 0.0) -> HeldQuery:
        call = SearchCall("moz", SearchQuery.backlinks(target))
        return HeldQuery(call, None, {}, {}, 0, not_before=not_before)

    counts = AdapterQueries()
    first, duplicate, other, later = held("a.es"), held("a.es"), held("b.es"), held("c.es", 5.0)
    counts.held.extend([other])
    counts.later.append(later)
    counts.in_flight.add(first.call.key)
    counts.waiting.setdefault(first.call.key, []).append(duplicate)
    assert len(counts) == 3
    assert list(counts.every_held()) == [other, later, duplicate]
    counts.answered(first.call.key)
    assert list(counts.held) == [duplicate, other]
    assert not counts.in_flight and not counts.waiting
    assert len(counts) == 3


class Stats:
    def inc_value(self, *args: object, **kwargs: object) -> None:
        pass


def service(**settings: object) -> SearchService:
    environ = {
        "BRAVE_API_KEY": "brave-s3cret",
        "GOOGLE_CSE_KEY": "AIza-s3cret",
        "GOOGLE_CSE_CX": "cx-1",
    }
    return SearchService(Stats(), build_setup(project_settings(settings), environ=environ))  # type: ignore[arg-type]


@pytest.mark.parametrize("web", ["google_cse", "brave"])
def test_google_cse_chosen_for_web_search_warns_that_it_is_closing(web: str, caplog) -> None:
    chosen = service(BILINGUAL_SEARCH_WEB=web)
    with caplog.at_level(logging.WARNING):
        chosen.spider_opened()
        chosen.spider_closed()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ([CLOSING] if web == "google_cse" else [])
    assert "2027-01-01" in CLOSING and "BILINGUAL_SEARCH_WEB=brave" in CLOSING


def test_brave_key_is_in_the_request_only_while_it_is_downloaded() -> None:
    search = service()
    adapter = search.remote["brave"]
    query = SearchQuery.search("inurl:en site:gov.hk")
    request = search._http_request(adapter.call(query), {SEARCH_CALL: SearchCall("brave", query)})
    queued = pickle.dumps(request)  # what a disk or Redis queue would keep
    assert b"brave-s3cret" not in queued and b"X-Subscription-Token" not in queued
    middleware = SearchCredentialsMiddleware(search)
    middleware.process_request(request)
    assert request.headers["X-Subscription-Token"] == b"brave-s3cret"
    middleware.process_response(request, Response(request.url, status=429, request=request))
    assert "X-Subscription-Token" not in request.headers and request.url == adapter.call(query).url
    middleware.process_request(request)
    middleware.process_exception(request, TimeoutError("took longer than 180 s"))
    assert "X-Subscription-Token" not in request.headers
    assert "brave-s3cret" in search.redaction.secrets  # scrubbed from every log record
