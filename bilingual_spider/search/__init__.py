"""Search and backlink adapters: a query becomes a Scrapy request, an answer becomes links.

=========================  ==================================================================
``values.py``              :class:`SearchQuery`, :class:`FoundLink`, :class:`SearchPage`
``adapter.py``             the interface every adapter offers (remote over HTTP, or local)
``moz.py``                 Moz Links API v2 backlinks (``POST /v2/links``, ``next_token``)
``brave.py``               Brave Search API (``site:``, ``filetype:``; ``inurl:`` filtered here)
``google_cse.py``          Google Custom Search (``site:``, ``inurl:``, ``filetype:``; closing)
``cc_index.py``            Common Crawl's CDX URL index (NDJSON, ``showNumPages``/``page``)
``cc_columnar.py``         Common Crawl's columnar URL index (Parquet), read by HTTP ranges
``parquet_ranges.py``      a remote Parquet file's footer and column chunks, decoded by pyarrow
``surt.py``                SURT keys, the sort order of Common Crawl's indexes
``cc_hostgraph.py``        Common Crawl's host graph, downloaded once and indexed on disk
``crawl_graph.py``         the crawl's own link graph (bounded, in memory)
``embedded.py``            backlinks with no API: the crawl graph + a host graph on disk
``rate_limit.py``          per-adapter pacing, Retry-After, back-off (pure arithmetic)
``failures.py``            what failed (throttled, transient, unreadable, key refused) and so
                           what to do
``breaker.py``             an adapter's health: circuit breaker, error window, call timeouts
``health.py``              each adapter's readiness and health joined, and what is said of it
``answer_cache.py``        answers already received (LRU)
``credentials.py``         keys added at the last moment; secrets redacted from every log
``configuration.py``       the adapters of a crawl, from its settings and environment
``service.py``             the Scrapy side: :class:`SearchService` (extension): queries held,
                           released as requests, answers read, retried or given up
``calls.py``               what a search request carries (:class:`SearchCall` in its meta) and
                           the answer page its callback reads (:func:`search_page`)
``held_queries.py``        the queries held per adapter until it may be called (plain Python)
``backlink_pages.py``      a referring host's pages most likely to link out (plain Python)
``stopping.py``            waits and calls out cancelled when the crawl stops
``middlewares.py``         its two downloader middlewares (hooks, cancellable downloads)
=========================  ==================================================================

Everything but ``credentials.py``, ``service.py``, ``calls.py``, ``stopping.py`` and
``middlewares.py`` is plain Python (numpy
for the host graph, pyarrow for the columnar index): an adapter's request-building and parsing
are tested without Scrapy.
"""

from bilingual_spider.search.values import (
    BACKLINKS,
    SEARCH,
    URL_INDEX,
    FoundLink,
    HttpCall,
    SearchPage,
    SearchQuery,
)

__all__ = [
    "BACKLINKS",
    "SEARCH",
    "URL_INDEX",
    "FoundLink",
    "HttpCall",
    "SearchPage",
    "SearchQuery",
]
