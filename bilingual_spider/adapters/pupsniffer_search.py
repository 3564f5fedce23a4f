"""PupSniffer's search mode (Zhang et al. 2018, 4.5: little prior knowledge) over the crawl's
search service: for each seed's host, ``inurl:MARKER site:HOST`` with the source language's
markers, then the domain-mode and directory-mode queries its results suggest
(:mod:`bilingual_spider.patterns.search`); each result page in the source language has the prior
patterns of each target language substituted into its URL, and the ``pupsniffer`` spider checks
those candidates as deep pages (method ``search``). Stats ``pupsniffer/search/queries``,
``queries_failed``, ``results``, ``results_not_in_source_language``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import scrapy
from scrapy.crawler import Crawler
from scrapy.http import Response

from bilingual_spider.language.codes import same_language
from bilingual_spider.patterns.deep_pages import DeepCandidate
from bilingual_spider.patterns.round_state import CHECKED, QUERIES, SEEN, RoundStore
from bilingual_spider.patterns.search import (
    directory_mode_queries,
    domain_mode_queries,
    prior_patterns,
    query,
    search_substitutions,
    url_markers,
)
from bilingual_spider.search.calls import search_page
from bilingual_spider.search.service import SearchService
from bilingual_spider.search.values import SearchQuery

logger = logging.getLogger(__name__)


class PupSnifferSearch:
    """Queries of search mode and what their results give.

    Parameters
    ----------
    crawler:
        The crawl (its search service and stats).
    store:
        The crawl's state: queries asked, results seen, candidates checked.
    langs:
        The source language, then the target languages.
    answered, result_page, failed:
        The spider's callbacks: a query's answer page, a result page, a failed result page.
    """

    def __init__(
        self,
        crawler: Crawler,
        store: RoundStore,
        langs: Sequence[str],
        answered: Callable[..., Any],
        result_page: Callable[..., Any],
        failed: Callable[..., Any],
    ) -> None:
        self.crawler = crawler
        self.store = store
        self.langs = list(langs)
        self.answered, self.result_page, self.failed = answered, result_page, failed

    def ask(self, site: str, first: bool = True) -> None:
        """``inurl:MARKER site:SITE`` for each marker of the source language."""
        self.submit([query(marker, site) for marker in url_markers(self.langs[0])], first)

    def submit(self, texts: Iterable[str], first: bool) -> None:
        """Each query of ``texts`` not asked yet (by any worker)."""
        service = SearchService.of(self.crawler)
        for text in self.store.mark_new(QUERIES, list(dict.fromkeys(texts))):
            service.submit(SearchQuery.search(text), self.answered, cb_kwargs={"first": first})
            self.crawler.stats.inc_value("pupsniffer/search/queries")

    def results(self, response: Response, first: bool = False) -> Iterator[scrapy.Request]:
        """Result URLs of a query: fetched as pages in the source language; after a first
        query, the domain- and directory-mode queries its results suggest."""
        page = search_page(response)
        stats = self.crawler.stats
        if page.error:
            stats.inc_value("pupsniffer/search/queries_failed")
            level = logging.INFO if page.error_reported else logging.WARNING  # said by the service
            logger.log(level, "search %s failed for good: %s", page.query.describe(), page.error)
            return
        urls = [link.url for link in page.links if link.url.startswith(("http://", "https://"))]
        if first:
            markers = url_markers(self.langs[0])
            modes = domain_mode_queries(urls, markers) + directory_mode_queries(urls, markers)
            self.submit(modes, first=False)
        for url in self.store.mark_new(SEEN, list(dict.fromkeys(urls))):
            stats.inc_value("pupsniffer/search/results")
            yield scrapy.Request(
                url,
                callback=self.result_page,
                errback=self.failed,
                meta={"role": "search_result"},
            )

    def candidates(
        self, url: str, language: str | None, redelivered: bool = False
    ) -> Iterator[DeepCandidate]:
        """The top prior patterns of each target language substituted into a result page's
        URL, when the page (in ``language``) is in the source language; each once, unless the
        page is ``redelivered`` (its first worker died, perhaps before it queued them)."""
        source = self.langs[0]
        if language is None or not same_language(language, source):
            self.crawler.stats.inc_value("pupsniffer/search/results_not_in_source_language")
            return
        for target in self.langs[1:]:
            made = search_substitutions(url, prior_patterns(source, target), source)
            new = set(self.store.mark_new(CHECKED, [c.candidate for c in made]))
            if redelivered:
                new = {c.candidate for c in made}
            yield from (candidate for candidate in made if candidate.candidate in new)
