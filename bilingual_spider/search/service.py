"""The search service: queries in, answer pages out, as ordinary Scrapy requests.

A spider hands a query to the service and names the callback that gets the answer::

    search = SearchService.of(self.crawler)            # in start() or a callback
    search.submit(SearchQuery.backlinks(url), callback=self.parse_backlinks, meta={...})

    def parse_backlinks(self, response):
        page = search_page(response)                     # a SearchPage (search/calls.py)
        for link in page.links: ...                      # page.error is set if it failed for good

The service holds each query until its adapter may be called, then injects a request into the
engine (``engine.crawl``): it goes through the scheduler and the downloader like any page
(priority ``BILINGUAL_SEARCH_PRIORITY``, a download slot of its own per adapter), so backlink
calls share the crawl's concurrency and throttling. ``SearchMiddleware`` (a downloader
middleware) answers from the cache and from local adapters without any download, paces remote
calls, reads the answers, and backs off on 429 and 5xx. Each answer page reaches the callback;
the following pages are asked automatically up to ``BILINGUAL_SEARCH_MAX_PAGES``.

What the service guarantees, and counts in ``search/<adapter>/...`` stats:

* **one call per question**: answers are cached (``cached``); a query asked again while the same
  one is in flight waits for its answer;
* **each API's own rate** (``BILINGUAL_SEARCH_RATES``): a call waits for its moment with an
  ``await``, never blocking the reactor; at most ``BILINGUAL_SEARCH_MAX_IN_FLIGHT`` calls per
  adapter are out at once, so a slow API never fills the downloader;
* **what failed decides the retry** (:mod:`~bilingual_spider.search.failures`): a 429 or 503
  (``throttled``) pauses the adapter for the ``Retry-After`` it gave (else 2, 4, 8 ... s),
  another 5xx, a timeout or a network error waits a back-off of its own, and the call is sent
  again (``retried``), up to ``BILINGUAL_SEARCH_RETRY_TIMES``; an unreadable answer is asked once
  more; a refused key stops the adapter (``key_refused``, one ERROR);
* **an adapter that fails is noticed** (:mod:`~bilingual_spider.search.breaker`): after a run of
  failed calls it is ``down`` (a WARNING), its queries wait while one probe call tests it
  (``probes``, ``back``), and down (or not ready) past ``BILINGUAL_SEARCH_GIVE_UP_AFTER`` its
  queries are answered with an error (``unanswered``) so that the crawl goes on; a share of
  failed calls over ``BILINGUAL_SEARCH_ERROR_SHARE`` gives one WARNING; call timeouts adapt to
  the answers and slow calls free their place; a stopping crawl cancels the calls out
  (``cancelled``);
* **never dropped**: a call that still fails is counted (``failed``) and its query is submitted
  again ``BILINGUAL_SEARCH_LATER_DELAY`` seconds later (``later``, up to
  ``BILINGUAL_SEARCH_LATER_ROUNDS`` times; within ``BILINGUAL_SEARCH_BREAKER_PAUSE`` once the
  crawl has nothing else to do: ``asked_early``), the crawl staying open meanwhile; after that the
  callback gets a page with ``error`` set (``gave_up``, and a WARNING). Queries still held when
  the crawl closes are counted (``unfinished``) and logged;
* **keys never logged** (:mod:`bilingual_spider.search.credentials`).

Other stats: ``requests`` (HTTP calls sent), ``pages`` (answer pages delivered), ``found``
(links in them), ``empty`` (answers with no link), ``delayed`` (calls that waited for their
rate).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.statscollectors import StatsCollector
from scrapy.utils.asyncio import CallLaterResult, call_later, run_in_thread

from bilingual_spider.language.tld import host_of
from bilingual_spider.scheduler.backend import holding_scheduler
from bilingual_spider.search import google_cse
from bilingual_spider.search.adapter import (
    Fetch,
    FetchingAdapter,
    HttpAnswer,
    LocalAdapter,
    RemoteAdapter,
)
from bilingual_spider.search.answer_cache import AnswerCache
from bilingual_spider.search.backlink_pages import backlink_candidates
from bilingual_spider.search.calls import (
    FAILED_STATUS,
    SEARCH_CALL,
    SEARCH_PAGE,
    AskedLater,
    CrawlStopping,
    SearchCall,
    SearchFailed,
    describe_call,
    user_meta,
)
from bilingual_spider.search.cc_index import NAME as CC_INDEX
from bilingual_spider.search.configuration import SearchSetup, build_setup
from bilingual_spider.search.crawl_graph import CrawlLinkGraph
from bilingual_spider.search.credentials import SecretRedaction, redact
from bilingual_spider.search.failures import (
    KEY_REFUSED,
    REFUSED,
    THROTTLE_STATUSES,
    THROTTLED,
    UNREADABLE,
    CallFailure,
    exception_failure,
    status_failure,
    unreadable_failure,
)
from bilingual_spider.search.health import AdapterHealth, HealthSettings
from bilingual_spider.search.held_queries import AdapterQueries, HeldQuery
from bilingual_spider.search.rate_limit import RateLimiter, backoff_delay, parse_retry_after
from bilingual_spider.search.stopping import StoppableDownloads
from bilingual_spider.search.values import (
    SEARCH,
    AnswerError,
    FoundLink,
    HttpCall,
    QueryRefused,
    SearchPage,
    SearchQuery,
)
from bilingual_spider.state.request_meta import HELD_META, WORKER_LOCAL_META

logger = logging.getLogger(__name__)


class SearchService:
    """Scrapy extension: runs search and backlink queries as requests (see the module doc)."""

    def __init__(
        self,
        stats: StatsCollector,
        setup: SearchSetup,
        *,
        max_in_flight: int = 2,
        max_pages: int = 3,
        priority: int = 1000,
        cache_size: int = 20_000,
        retry_times: int = 3,
        backoff: float = 2.0,
        max_backoff: float = 600.0,
        later_delay: float = 300.0,
        later_rounds: int = 2,
        pages_per_host: int = 5,
        timeout: float = 0.0,
        min_timeout: float = 1.0,
        breaker_failures: int = 5,
        breaker_pause: float = 10.0,
        give_up_after: float = 180.0,
        error_share: float = 0.2,
        error_window: int = 40,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stats = stats
        self.remote, self.local = setup.remote, setup.local
        self.crawl_graph: CrawlLinkGraph = setup.crawl_graph
        self.defaults = setup.defaults
        self.hostgraph_pages = setup.hostgraph_pages
        self.limiters = {name: RateLimiter(rate, clock) for name, rate in setup.rates.items()}
        self.max_in_flight, self.max_pages, self.priority = max_in_flight, max_pages, priority
        self.cache = AnswerCache(cache_size)
        self.retry_times, self.backoff, self.max_backoff = retry_times, backoff, max_backoff
        self.later_delay, self.later_rounds = later_delay, later_rounds
        self.pages_per_host = pages_per_host
        self.timeout = timeout
        self.clock = clock
        health_settings = HealthSettings(
            breaker_failures=breaker_failures,
            breaker_pause=breaker_pause,
            max_backoff=max_backoff,
            give_up_after=give_up_after,
            error_share=error_share,
            error_window=error_window,
            timeout=timeout,
            min_timeout=min_timeout,
            later_delay=later_delay,
            later_rounds=later_rounds,
        )
        self.health = {
            name: AdapterHealth(name, stats, health_settings, clock) for name in setup.rates
        }
        self.redaction = SecretRedaction(s for a in self.remote.values() for s in a.secrets())
        self.crawler: Crawler | None = None
        self._counts: defaultdict[str, AdapterQueries] = defaultdict(AdapterQueries)
        self._timer: CallLaterResult | None = None
        self._timer_at = math.inf
        self.downloads = StoppableDownloads(self._stopping, clock)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchService:
        settings = crawler.settings
        if not settings.getbool("BILINGUAL_SEARCH_ENABLED"):
            raise NotConfigured
        service = cls(
            crawler.stats,
            build_setup(settings),
            max_in_flight=settings.getint("BILINGUAL_SEARCH_MAX_IN_FLIGHT"),
            max_pages=settings.getint("BILINGUAL_SEARCH_MAX_PAGES"),
            priority=settings.getint("BILINGUAL_SEARCH_PRIORITY"),
            cache_size=settings.getint("BILINGUAL_SEARCH_CACHE_SIZE"),
            retry_times=settings.getint("BILINGUAL_SEARCH_RETRY_TIMES"),
            backoff=settings.getfloat("BILINGUAL_SEARCH_BACKOFF"),
            max_backoff=settings.getfloat("BILINGUAL_SEARCH_MAX_BACKOFF"),
            later_delay=settings.getfloat("BILINGUAL_SEARCH_LATER_DELAY"),
            later_rounds=settings.getint("BILINGUAL_SEARCH_LATER_ROUNDS"),
            pages_per_host=settings.getint("BILINGUAL_HOSTGRAPH_PAGES_PER_HOST"),
            timeout=min(
                settings.getfloat("BILINGUAL_SEARCH_TIMEOUT"),
                settings.getfloat("DOWNLOAD_TIMEOUT"),
            ),
            min_timeout=settings.getfloat("BILINGUAL_SEARCH_MIN_TIMEOUT"),
            breaker_failures=settings.getint("BILINGUAL_SEARCH_BREAKER_FAILURES"),
            breaker_pause=settings.getfloat("BILINGUAL_SEARCH_BREAKER_PAUSE"),
            give_up_after=settings.getfloat("BILINGUAL_SEARCH_GIVE_UP_AFTER"),
            error_share=settings.getfloat("BILINGUAL_SEARCH_ERROR_SHARE"),
            error_window=settings.getint("BILINGUAL_SEARCH_ERROR_WINDOW"),
        )
        service.crawler = crawler
        crawler.signals.connect(service.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(service.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(service.spider_closed, signal=signals.spider_closed)
        return service

    @classmethod
    def of(cls, crawler: Crawler) -> SearchService:
        """The crawl's service (from a spider's ``start()`` or callbacks on)."""
        service = crawler.get_extension(cls)
        if service is None:
            raise NotConfigured("enable bilingual_spider.search.service.SearchService")
        return service

    # --- what spiders call ---------------------------------------------------------------------

    def submit(
        self,
        query: SearchQuery,
        callback: Callable[..., Any] | None = None,
        *,
        adapter: str | None = None,
        cb_kwargs: dict[str, Any] | None = None,
        meta: dict[str, Any] | None = None,
        priority: int | None = None,
        max_pages: int | None = None,
    ) -> str:
        """Ask ``query``; each answer page reaches ``callback`` (a spider method) as a response
        whose :func:`search_page` is the page. Returns the name of the adapter that answers."""
        name = adapter or self.defaults[query.kind]
        chosen = self.remote.get(name) or self.local.get(name)
        if chosen is None or query.kind not in chosen.kinds:
            raise ValueError(f"no adapter {name!r} for {query.kind} queries")
        missing = chosen.missing_configuration()
        if missing:
            raise NotConfigured(missing)
        call = SearchCall(name, query, max_pages=max_pages or self.max_pages)
        self.stats.inc_value(f"search/{name}/queries")
        self._hold(
            HeldQuery(
                call,
                callback,
                dict(cb_kwargs or {}),
                dict(meta or {}),
                self.priority if priority is None else priority,
            )
        )
        return name

    def record_links(self, page_url: str, links: Iterable[str | tuple[str, str]]) -> None:
        """Record a fetched page's links (URLs or (URL, anchor) pairs) in the crawl's link
        graph, which answers the embedded backlinks."""
        added = self.crawl_graph.add_page(page_url, links)
        self.stats.inc_value("search/crawl_graph/pages")
        if added:
            self.stats.inc_value("search/crawl_graph/links", added)

    def pending(self) -> int:
        """Queries held or out (answers still to come)."""
        return sum(len(c) + len(c.in_flight) for c in self._counts.values())

    def remote_adapter_of(self, request: Request) -> RemoteAdapter | None:
        call = request.meta.get(SEARCH_CALL)
        return self.remote.get(call.adapter) if isinstance(call, SearchCall) else None

    # --- holding and releasing -----------------------------------------------------------------

    def _hold(self, held: HeldQuery) -> None:
        self._keep(held)
        self._pump()

    def _keep(self, held: HeldQuery) -> None:
        """Hold a query until its adapter may be called; in a distributed crawl its request is
        written to the shared frontier at once (leased to this worker)."""
        scheduler = holding_scheduler(self.crawler) if self.crawler is not None else None
        if scheduler is not None and held.frontier_id is None:
            try:
                request = self._request(held)
            except RuntimeError:  # the adapter is not set up yet: in Redis once released
                request = None
            if request is not None:
                held.frontier_id = scheduler.hold(request)
        counts = self._counts[held.call.adapter]
        (counts.later if held.not_before else counts.held).append(held)

    def _pump(self) -> None:
        """Release the held queries that may go now, in order, until the adapter has no call
        left to make (all out, or its rate says wait); wake up when the next one may go. A
        query whose call is out already waits for its answer (:meth:`AdapterQueries.answered`)."""
        if self.crawler is None or self.crawler.engine is None or self.crawler.spider is None:
            return
        now, wake = self.clock(), math.inf
        for name, counts in list(self._counts.items()):
            self._answer_with_error_if_given_up(name, counts)
            if counts:
                wake = min(wake, self.health[name].give_up_time())
            if counts and not self._ready(name):
                wake = min(wake, self._prepare_later(name))
                if not self.health[name].not_ready_for_long():
                    continue
            if counts.later:
                due = [h for h in counts.later if h.not_before <= now]
                counts.later = [h for h in counts.later if h.not_before > now]
                counts.held.extend(due)
                wake = min([wake, *(h.not_before for h in counts.later)])
            wake = min(wake, self._release_held(name, counts, now))
        self._wake_at(wake)

    def _release_held(self, name: str, counts: AdapterQueries, now: float) -> float:
        """Release ``counts.held`` from its head while its adapter may be called (up, or down
        with its probe due: one call); the time when it may be called again (inf: when a call
        ends)."""
        cacheable = self._cacheable(name)
        health = self.health[name]
        breaker = health.breaker
        while counts.held:
            held = counts.held[0]
            call = held.call
            if call.error is None and not (cacheable and call.key in self.cache):
                if call.key in counts.in_flight:
                    counts.waiting.setdefault(call.key, []).append(counts.held.popleft())
                    continue
                busy = self._busy(name, counts, now)
                if busy is not None:
                    return busy
                down = breaker.delay()
                if down > 0:
                    return now + down
                delay = self.limiters[name].delay()
                if delay > 0:
                    return now + delay
                counts.in_flight.add(call.key)
                counts.sent_at[call.key] = now
                if breaker.down:
                    health.probe_sent(call.key)
            self._release(counts.held.popleft())
        return math.inf

    def _busy(self, name: str, counts: AdapterQueries, now: float) -> float | None:
        """None when the adapter has a place for one more call; else when one frees (inf: when
        a call ends). Calls out for longer than :meth:`CallTimes.slow_after` hold no place,
        up to as many slow calls as places."""
        if len(counts.in_flight) < self.max_in_flight:
            return None
        if len(counts.in_flight) >= 2 * self.max_in_flight:
            return math.inf
        slow_after = self.health[name].call_times.slow_after()
        becoming_slow = [t + slow_after for t in counts.sent_at.values() if t + slow_after > now]
        if len(becoming_slow) < self.max_in_flight:
            return None
        return min(becoming_slow)

    def _answer_with_error_if_given_up(self, name: str, counts: AdapterQueries) -> None:
        health = self.health[name]
        reason = health.given_up_reason()
        if reason is None:
            return
        probe = None  # a query kept to probe a given-up adapter whose probe is due
        if health.probe_due():
            probe = next((h for h in counts.held if h.call.error is None), None)
        for entry in counts.every_held():
            if entry.call.error is None and entry is not probe:
                self.stats.inc_value(f"search/{name}/gave_up")
                self.stats.inc_value(f"search/{name}/unanswered")
                health.never_answered += 1
                entry.call = replace(entry.call, error=reason)
        counts.held.extend(counts.later)
        for entries in counts.waiting.values():
            counts.held.extend(entries)
        counts.later, counts.waiting = [], {}

    def unavailable(self, kind: str) -> str | None:
        """Why the default adapter of ``kind`` queries cannot answer now (down, stopped, never
        ready), or None when it can."""
        name = self.defaults.get(kind)
        return None if name is None else self.health[name].unavailable()

    def _release(self, held: HeldQuery) -> None:
        assert self.crawler is not None and self.crawler.engine is not None
        request = self._request(held)
        if held.frontier_id is not None:
            request.meta[HELD_META] = held.frontier_id
        self.crawler.engine.crawl(request)

    def _wake_at(self, when: float) -> None:
        if when == math.inf or when >= self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = when
        self._timer = call_later(max(0.0, when - self.clock()), self._wake)

    def _wake(self) -> None:
        self._timer, self._timer_at = None, math.inf
        self._pump()

    def _done(self, call: SearchCall) -> None:
        """A call of a spider's query is over (answered, given up, or held for later)."""
        if not call.inline and call.query is not None:
            self._counts[call.adapter].answered(call.key)
            self.health[call.adapter].call_over(call.key)
        self._pump()

    def _cacheable(self, name: str) -> bool:
        adapter = self.remote.get(name) or self.local.get(name)
        return bool(getattr(adapter, "cacheable", True))

    # --- requests ------------------------------------------------------------------------------

    def _request(self, held: HeldQuery) -> Request:
        call = held.call
        meta = {
            **held.meta,
            SEARCH_CALL: call,
            "role": held.meta.get("role", "api"),
            "dont_retry": True,  # retried here, with back-off
            "dont_obey_robotstxt": True,  # an API, not a page
            "handle_httpstatus_all": True,  # failures reach the callback as pages with an error
            "allow_offsite": True,
            "download_slot": f"search:{call.adapter}",
            WORKER_LOCAL_META: True,  # its pacing and in-flight count live in this service
        }
        if self.timeout > 0:
            meta["download_timeout"] = self.health[call.adapter].timeout_of(call.attempt)
        adapter = self.remote.get(call.adapter)
        assert call.query is not None
        if adapter is None or call.error is not None:  # answered by the middleware
            description = (
                f"{call.adapter} {call.query.kind} {call.query.target} {call.continuation}"
            )
            return Request(
                "data:text/plain," + quote(description, safe=""),
                callback=held.callback,
                cb_kwargs=held.cb_kwargs,
                meta=meta,
                priority=held.priority,
                dont_filter=True,
            )
        return self._http_request(adapter.call(call.query, call.continuation), meta, held)

    @staticmethod
    def _http_request(
        http: HttpCall, meta: dict[str, Any], held: HeldQuery | None = None
    ) -> Request:
        return Request(
            http.url,
            method=http.method,
            body=http.body,
            headers=dict(http.headers),
            callback=held.callback if held else None,
            cb_kwargs=held.cb_kwargs if held else None,
            meta=meta,
            priority=held.priority if held else 0,
            dont_filter=True,
        )

    # --- the downloader middleware's hooks -----------------------------------------------------

    async def before_download(self, request: Request) -> Response | None:
        """A response made here (cache, local adapter, given-up call), or None after waiting for
        the adapter's moment (then the request is downloaded)."""
        call: SearchCall = request.meta[SEARCH_CALL]
        if call.error is not None:
            page = self._page(call, error=call.error, error_reported=True)
            return self._answer(request, page)
        if not call.raw and self._cacheable(call.adapter):
            cached = self.cache.get(call.key)
            if cached is not None:
                self.stats.inc_value(f"search/{call.adapter}/cached")
                page = replace(cached, cached=True, page_number=call.page_number)
                return self._answer(request, page)
        if not call.raw and call.adapter in self.local:
            try:
                page = await self._local_answer(call)
            except (SearchFailed, AnswerError, QueryRefused) as exc:
                permanent = isinstance(exc, QueryRefused)
                return self._fail(request, None, str(exc), permanent=permanent)
            return self._answer(request, page)
        wait = self.limiters[call.adapter].reserve()
        if wait > 0:
            self.stats.inc_value(f"search/{call.adapter}/delayed")
            await self.downloads.sleep(wait)
        self.stats.inc_value(f"search/{call.adapter}/requests")
        logger.debug("search call %s (%s)", call.adapter, describe_call(call))
        return None

    def after_download(self, request: Request, response: Response) -> Response | Request:
        """Read the answer, or back off and ask again, or count the failure."""
        call: SearchCall = request.meta[SEARCH_CALL]
        if SEARCH_PAGE in request.meta:
            self._deliver(request, request.meta[SEARCH_PAGE])
            return response
        status = response.status
        adapter = self.remote.get(call.adapter)
        readable = status == 200 or (adapter is not None and status in adapter.empty_statuses)
        if call.raw:
            readable = status in (200, 206)  # 206: a Range request's part
        if readable and (call.raw or adapter is None):
            self.health[call.adapter].answered(request.meta.get("download_latency"))
            return response
        if readable:
            assert adapter is not None and call.query is not None
            try:
                page = adapter.parse(call.query, status, response.body, call.continuation)
            except (AnswerError, ValueError) as exc:
                failure = unreadable_failure(str(exc) or type(exc).__name__)
                return self._retry_or_fail(request, response, failure, None)
            self.health[call.adapter].answered(request.meta.get("download_latency"))
            request.meta[SEARCH_PAGE] = replace(page, page_number=call.page_number)
            self._deliver(request, request.meta[SEARCH_PAGE])
            return response
        if status in THROTTLE_STATUSES:
            self.stats.inc_value(f"search/{call.adapter}/throttled")
        refused = adapter is not None and adapter.key_refused(status, response.body)
        failure = status_failure(status, refused)
        if failure.kind == KEY_REFUSED:
            self.health[call.adapter].key_refused(failure)
        if failure.retry_limit == 0:
            return self._fail(request, response, failure.reason, permanent=True)
        header = response.headers.get
        retry_after = (
            adapter.retry_after(header)
            if adapter is not None
            else parse_retry_after(header("Retry-After"))
        )
        return self._retry_or_fail(request, response, failure, retry_after)

    def on_exception(self, request: Request, exception: Exception) -> Response | Request | None:
        call: SearchCall = request.meta[SEARCH_CALL]
        if isinstance(exception, (SearchFailed, AskedLater)):
            return None
        if isinstance(exception, CrawlStopping):  # still out: counted unfinished at the close
            self.stats.inc_value(f"search/{call.adapter}/cancelled")
            return None
        if isinstance(exception, IgnoreRequest):  # refused before it left (network safety...)
            self.stats.inc_value(f"search/{call.adapter}/failed")
            logger.warning("search call %s refused: %s", describe_call(call), exception)
            self._done(call)
            return None
        failure = exception_failure(exception)
        # a network error may quote the URL it was sent to, key included
        failure = replace(failure, reason=redact(failure.reason, self.redaction.secrets))
        return self._retry_or_fail(request, None, failure, None)

    # --- stopping promptly ----------------------------------------------------------------------

    def _stopping(self) -> bool:
        engine = self.crawler.engine if self.crawler is not None else None
        return engine is not None and not engine.running

    async def download(
        self, request: Request, send: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        """Send a search call (``send``: the crawl's download handlers) as a task that is
        cancelled when the crawl stops: a hanging API never holds a Ctrl-C for its timeout."""
        return await self.downloads.download(request, send)

    # --- answers -------------------------------------------------------------------------------

    def _answer(self, request: Request, page: SearchPage) -> Response:
        request.meta[SEARCH_PAGE] = page
        flag = "cached" if page.cached else "search-local"
        status = 200 if page.error is None else FAILED_STATUS
        return Response(request.url, status=status, request=request, flags=[flag])

    def _page(self, call: SearchCall, **values: Any) -> SearchPage:
        assert call.query is not None
        return SearchPage(call.query, call.adapter, page_number=call.page_number, **values)

    def _deliver(self, request: Request, page: SearchPage) -> None:
        """Count an answer page, cache it, ask for the next one; a preflight page (no links,
        only how to page) is followed and not handed to the spider."""
        call: SearchCall = request.meta[SEARCH_CALL]
        name = call.adapter
        if not page.cached and page.error is None and self._cacheable(name):
            self.cache.put(call.key, page)
        if call.inline:
            return
        follow = page.error is None and page.continuation is not None
        follow = follow and (page.preflight or call.page_number < call.max_pages)
        if follow:
            number = call.page_number + (0 if page.preflight else 1)
            following = replace(
                call, continuation=page.continuation, page_number=number, attempt=1, later_round=0
            )
            held = HeldQuery(
                following,
                request.callback,
                dict(request.cb_kwargs),
                user_meta(request.meta),
                request.priority,
            )
            self._keep(held)
        self._done(call)
        if page.preflight and follow:
            raise IgnoreRequest("a paging preflight: the pages follow")
        if page.preflight:  # no pages at all: hand an empty answer to the spider
            request.meta[SEARCH_PAGE] = replace(page, preflight=False)
        self.stats.inc_value(f"search/{name}/pages")
        if page.error is None:
            self.stats.inc_value(f"search/{name}/found", len(page.links))
            if not page.links:
                self.stats.inc_value(f"search/{name}/empty")

    def _retry_or_fail(
        self,
        request: Request,
        response: Response | None,
        failure: CallFailure,
        retry_after: float | None,
    ) -> Response | Request:
        """What failed decides (:mod:`~bilingual_spider.search.failures`): a throttled call
        pauses its adapter (``Retry-After``, else back-off) and is sent again; another
        transient failure waits a back-off of its own; an unreadable answer is asked once
        more at once. Every failure counts against the adapter's circuit breaker."""
        call: SearchCall = request.meta[SEARCH_CALL]
        health = self.health[call.adapter]
        health.failed(failure, describe_call(call))
        if call.query is None:  # a call to get ready
            health.getting_ready_fails(failure.reason)
        pause = backoff_delay(call.attempt, retry_after, self.backoff, self.max_backoff)
        if failure.kind == UNREADABLE:
            pause = 0.0
        if failure.kind == THROTTLED or retry_after is not None or call.inline:
            self.limiters[call.adapter].pause(pause)
        limit = self.retry_times
        if failure.retry_limit is not None:
            limit = min(limit, failure.retry_limit)
        if call.attempt > limit:
            permanent = failure.kind in (UNREADABLE, REFUSED, KEY_REFUSED)
            return self._fail(
                request,
                response,
                failure.reason,
                permanent=permanent,
                wait=pause,
                health=failure.counts_against_the_service,
            )
        self.stats.inc_value(f"search/{call.adapter}/retried")
        logger.debug(
            "search call %s: %s; again in %.1f s", describe_call(call), failure.reason, pause
        )
        again = replace(call, attempt=call.attempt + 1)
        if call.inline:  # the service's own fetch: sent again through the downloader
            return request.replace(meta={**request.meta, SEARCH_CALL: again}, dont_filter=True)
        # a spider's query waits with the others (its adapter may be going down meanwhile)
        held = HeldQuery(
            again, request.callback, dict(request.cb_kwargs), user_meta(request.meta),
            request.priority,
        )  # fmt: skip
        held.not_before = self.clock() + pause if failure.kind != THROTTLED else 0.0
        self._keep(held)
        self._done(call)
        raise AskedLater(f"search call failed ({failure.reason}), asked again")

    def _fail(
        self,
        request: Request,
        response: Response | None,
        reason: str,
        permanent: bool,
        wait: float = 0.0,
        health: bool = False,
    ) -> Response:
        """A query's call failed for good: held for a later round, or answered with the error.
        ``health``: the failure is of the API's health (throttled, transient, unreadable), which
        the service reports itself: the query's own message is then an INFO."""
        call: SearchCall = request.meta[SEARCH_CALL]
        name = call.adapter
        if call.inline:  # counted by the caller (a preparation, a host's pages)
            raise SearchFailed(f"{describe_call(call)}: {reason}")
        self.stats.inc_value(f"search/{name}/failed")
        reported = self.health[name].reported(health)
        level = logging.INFO if reported else logging.WARNING
        if not permanent and call.later_round < self.later_rounds:
            delay = max(wait, self.later_delay * 2**call.later_round)
            self.stats.inc_value(f"search/{name}/later")
            logger.log(
                level,
                "search %s failed (%s): asked again in %.0f s",
                describe_call(call),
                reason,
                delay,
            )
            again = replace(call, attempt=1, later_round=call.later_round + 1)
            meta = user_meta(request.meta)
            not_before = self.clock() + delay
            held = HeldQuery(
                again, request.callback, dict(request.cb_kwargs), meta, request.priority
            )
            held.not_before = not_before
            self._keep(held)
            self._done(call)
            raise AskedLater(f"search call failed, asked again in {delay:.0f} s")
        self.stats.inc_value(f"search/{name}/gave_up")
        logger.log(level, "search %s given up: %s", describe_call(call), reason)
        page = self._page(call, error=reason, error_reported=reported)
        if response is None:
            return self._answer(request, page)  # delivered by after_download
        request.meta[SEARCH_PAGE] = page
        self._deliver(request, page)
        return response

    # --- local adapters and the host graph's pages ---------------------------------------------

    async def _local_answer(self, call: SearchCall) -> SearchPage:
        assert call.query is not None
        adapter = self.local[call.adapter]
        if isinstance(adapter, FetchingAdapter):
            try:
                page = await adapter.answer_fetching(
                    call.query, self._fetcher(call), call.continuation
                )
            finally:
                self._count(call.adapter, adapter)
        else:
            page = adapter.answer(call.query, call.continuation)
        if self.hostgraph_pages.get(call.adapter) == "index" and any(
            link.level == "host" for link in page.links
        ):
            page = await self._resolve_hosts(page)
        return replace(page, page_number=call.page_number)

    async def _resolve_hosts(self, page: SearchPage) -> SearchPage:
        """Host-level backlinks -> the referring hosts' shallowest pages in the URL index."""
        links: list[FoundLink] = []
        for link in page.links:
            if link.level != "host":
                links.append(link)
                continue
            host = host_of(link.url)
            query = SearchQuery.url_index(host, "host", True, limit=10 * self.pages_per_host)
            try:
                found = await self.fetch_page(CC_INDEX, query)
            except Exception as exc:  # any failure: the host's home page stands in
                self.stats.inc_value(f"search/{page.adapter}/unresolved_hosts")
                logger.debug("pages of %s not found in the URL index: %s", host, exc)
                links.append(link)
                continue
            pages = backlink_candidates(found.links, self.pages_per_host)
            if not pages:
                links.append(link)
            links += [replace(p, target=link.target, via_host=host) for p in pages]
        return replace(page, links=tuple(links))

    async def fetch_page(self, name: str, query: SearchQuery) -> SearchPage:
        """One answer page fetched by the service itself (cached, paced, retried)."""
        cached = self.cache.get((name, query, None))
        if cached is not None:
            self.stats.inc_value(f"search/{name}/cached")
            return cached
        adapter = self.remote.get(name)
        if adapter is None:
            raise NotConfigured(f"no remote adapter {name!r}")
        unavailable = self.health[name].given_up_reason()
        if unavailable is not None:  # down for long, or its key refused: not worth a call
            raise SearchFailed(unavailable)
        await self._ensure_ready(name)
        call = SearchCall(name, query, inline=True)
        response = await self._download(adapter.call(query), call)
        page = response.meta.get(SEARCH_PAGE)
        if not isinstance(page, SearchPage):
            raise SearchFailed(f"{name}: no answer page")
        return page

    async def _download(self, http: HttpCall, call: SearchCall) -> Response:
        assert self.crawler is not None and self.crawler.engine is not None
        meta = {
            SEARCH_CALL: call,
            "role": "api",
            "dont_retry": True,
            "dont_obey_robotstxt": True,
            "allow_offsite": True,
            "download_slot": f"search:{call.adapter}",
        }
        ranged = any(name.lower() == "range" for name, _ in http.headers)
        if call.raw and not ranged:  # whole graph files: no size limit, no time limit of ours
            meta.update(download_maxsize=0, download_warnsize=0)
        elif self.timeout > 0:
            meta["download_timeout"] = self.health[call.adapter].timeout_of(call.attempt)
        return await self.crawler.engine.download_async(self._http_request(http, meta))

    def _fetcher(self, call: SearchCall) -> Fetch:
        """The ``fetch`` of a fetching adapter: each call a raw download (paced, retried),
        its bytes counted (``search/<adapter>/bytes``)."""
        raw = replace(call, inline=True, raw=True)

        async def fetch(http: HttpCall) -> HttpAnswer:
            response = await self._download(http, raw)
            self.stats.inc_value(f"search/{call.adapter}/bytes", len(response.body))
            headers = {
                key.decode("latin-1").lower(): value.decode("latin-1")
                for key in response.headers
                if (value := response.headers.get(key)) is not None
            }
            return HttpAnswer(response.status, response.body, headers)

        return fetch

    def _count(self, name: str, adapter: FetchingAdapter) -> None:
        for key, value in adapter.take_counts().items():
            self.stats.inc_value(f"search/{name}/{key}", value)

    # --- getting adapters ready ----------------------------------------------------------------

    def _ready(self, name: str) -> bool:
        preparation = self.health[name].preparation
        if preparation.ready or preparation.given_up is not None:
            return True
        remote = self.remote.get(name)
        if remote is not None:
            preparation.ready = remote.setup_call() is None
        else:
            preparation.ready = self.local[name].ready
        return preparation.ready

    def _prepare_later(self, name: str) -> float:
        """Start preparing ``name`` unless under way; the time to look again (inf: when done)."""
        preparation = self.health[name].preparation
        if preparation.task is not None:
            return math.inf
        if preparation.not_before > self.clock():
            return preparation.not_before
        preparation.task = asyncio.ensure_future(self._prepare(name))
        preparation.task.add_done_callback(lambda _: self._prepared(name))
        return math.inf

    async def _ensure_ready(self, name: str) -> None:
        preparation = self.health[name].preparation
        if preparation.given_up is not None:
            raise SearchFailed(preparation.given_up)
        if self._ready(name):
            return
        if preparation.task is None:
            preparation.task = asyncio.ensure_future(self._prepare(name))
            preparation.task.add_done_callback(lambda _: self._prepared(name))
        await asyncio.shield(preparation.task)

    async def _prepare(self, name: str) -> None:
        started = time.perf_counter()
        remote = self.remote.get(name)
        if remote is not None:
            setup = remote.setup_call()
            if setup is not None:
                response = await self._download(
                    setup, SearchCall(name, None, inline=True, raw=True)
                )
                remote.setup(response.body)
        elif isinstance(fetching := self.local[name], FetchingAdapter):
            try:
                await fetching.prepare_fetching(self._fetcher(SearchCall(name, None)))
            finally:
                self._count(name, fetching)
        else:
            adapter = self.local[name]
            for http, path in adapter.downloads():
                response = await self._download(http, SearchCall(name, None, inline=True, raw=True))
                _write_atomically(path, response.body)
            await run_in_thread(adapter.prepare)
        logger.info("search adapter %s ready in %.1f s", name, time.perf_counter() - started)

    def _prepared(self, name: str) -> None:
        health = self.health[name]
        task, health.preparation.task = health.preparation.task, None
        if task is None or task.cancelled():  # the crawl is closing
            return
        error = task.exception()
        if error is None:
            health.now_ready()
        else:
            health.preparation_failed(error)
        self._pump()

    # --- signals -------------------------------------------------------------------------------

    def spider_opened(self) -> None:
        self.redaction.install()
        if self.defaults.get(SEARCH) == google_cse.NAME:
            logger.warning(google_cse.CLOSING)
        every: dict[str, RemoteAdapter | LocalAdapter] = {**self.remote, **self.local}
        for name, adapter in every.items():
            missing = adapter.missing_configuration()
            if missing is None:
                rate = self.limiters[name].interval
                logger.debug(
                    "search adapter %s: %s", name, f"{1 / rate:g}/s" if rate else "no rate limit"
                )
        self._pump()

    def spider_idle(self) -> None:
        engine = self.crawler.engine if self.crawler is not None else None
        idle = engine is not None and engine.spider_is_idle()  # another handler may have added
        for name, counts in self._counts.items():
            if idle and counts.in_flight:  # nothing is out: these were dropped on the way
                self.stats.inc_value(f"search/{name}/lost", len(counts.in_flight))
                logger.warning(
                    "%d %s search calls were dropped before an answer: %s",
                    len(counts.in_flight),
                    name,
                    sorted(map(str, counts.in_flight)),
                )
                for key in list(counts.in_flight):
                    counts.answered(key)
            if idle:
                self._ask_later_ones_soon(name, counts)
        if any(c or c.in_flight for c in self._counts.values()) or any(
            h.preparation.task is not None and not h.not_ready_for_long()
            for h in self.health.values()
        ):
            self._pump()
            raise DontCloseSpider

    def _ask_later_ones_soon(self, name: str, counts: AdapterQueries) -> None:
        """The crawl has nothing else to do: the queries of an adapter that is up and ready,
        held for a later round, are asked again within ``BILINGUAL_SEARCH_BREAKER_PAUSE``
        instead of ``BILINGUAL_SEARCH_LATER_DELAY`` (``asked_early``): they no longer hold the
        crawl's end for minutes."""
        health = self.health[name]
        breaker = health.breaker
        if breaker.down or not health.preparation.ready:
            return
        soon = self.clock() + breaker.pause
        for held in counts.later:
            if held.not_before > soon:
                held.not_before = soon
                self.stats.inc_value(f"search/{name}/asked_early")

    def spider_closed(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer, self._timer_at = None, math.inf
        for name, health in self.health.items():
            counts = self._counts.get(name)
            health.close(len(counts) + len(counts.in_flight) if counts is not None else 0)
        self.redaction.uninstall()


def _write_atomically(path: Path, body: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.{os.getpid()}")
    staging.write_bytes(body)
    os.replace(staging, path)
