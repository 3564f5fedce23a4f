"""Deep pages (Zhang et al. 2018, 4.3) and search mode's candidates (4.5) checked over HTTP for
the ``pupsniffer`` spider: a HEAD request, a GET when it answers (or does not allow HEAD), the
soft-404 judge (:func:`~bilingual_spider.patterns.deep_pages.judge_candidate`), then the checks
of every pair (:func:`~bilingual_spider.patterns.crawl_round.judge_pair`). Stats
``pupsniffer/deep/<outcome>``, ``pupsniffer/deep/source_missing``,
``pupsniffer/rejected/<reason>``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import scrapy
from scrapy.crawler import Crawler
from scrapy.http import Response

from bilingual_spider.patterns.crawl_round import PageRecord, Rejection, judge_pair
from bilingual_spider.patterns.deep_pages import (
    CandidateStatus,
    DeepCandidate,
    candidate_url_pair,
    judge_candidate,
)
from bilingual_spider.patterns.pairing import DEEP, UrlPair
from bilingual_spider.patterns.round_driver import RoundDriver
from bilingual_spider.patterns.round_state import FOUND, RoundStore, found_pair_key
from bilingual_spider.patterns.similarity import unit_weights
from bilingual_spider.patterns.units import site_of
from bilingual_spider.patterns.verification import PairVerifier

MISSING = f"pupsniffer/deep/{CandidateStatus.MISSING.value}"


class DeepPageChecks:
    """Requests of deep-page candidates and the judgement of their answers.

    Parameters
    ----------
    store, driver:
        The crawl's state and its rounds (the credibility tables of a candidate's round).
    crawler:
        The crawl (its stats).
    verifier, rejected_pair:
        The pair verifier, and who is told of each pair a check rejected.
    answered, failed:
        The spider's callback and errback of a candidate's requests.
    """

    def __init__(
        self,
        store: RoundStore,
        driver: RoundDriver,
        crawler: Crawler,
        verifier: PairVerifier | None,
        rejected_pair: Rejection,
        answered: Callable[..., Any],
        failed: Callable[..., Any],
    ) -> None:
        self.store, self.driver, self.crawler = store, driver, crawler
        self.verifier, self.rejected_pair = verifier, rejected_pair
        self.answered, self.failed = answered, failed

    def request(
        self, candidate: DeepCandidate, method: str, round: int, found_by: str = DEEP
    ) -> scrapy.Request:
        """``method`` (HEAD or GET) of a candidate of ``round``, found by method ``found_by``."""
        return scrapy.Request(
            candidate.candidate,
            method=method,
            callback=self.answered,
            errback=self.failed,
            dont_filter=True,
            meta={
                "role": "deep",
                "candidate": candidate,
                "method": found_by,
                "round": round,
                "handle_httpstatus_all": True,
            },
        )

    def head_answered(self, response: Response) -> Iterator[scrapy.Request]:
        """The GET of a candidate whose HEAD answered (or that does not allow HEAD)."""
        if 200 <= response.status < 300 or response.status in (405, 501):
            candidate, meta = response.meta["candidate"], response.meta
            yield self.request(candidate, "GET", meta["round"], meta.get("method", DEEP))
        else:
            self.crawler.stats.inc_value(MISSING)

    def source_of(self, response: Response) -> PageRecord | None:
        """The page the candidate was made from; None when it was lost with the store."""
        source = self.store.page(response.meta["candidate"].source)
        if source is None:  # kept before the candidate was made: lost with the store
            self.crawler.stats.inc_value("pupsniffer/deep/source_missing")
        return source

    def exists(self, response: Response, source: PageRecord, text: str) -> bool:
        """Whether the candidate's answer (its main ``text``) is a page of its own: not missing,
        not the site's soft-404 page, not a redirect to the source or the home page."""
        candidate: DeepCandidate = response.meta["candidate"]
        outcome = judge_candidate(
            candidate.candidate,
            response.status,
            response.url,
            text,
            candidate.source,
            source.text,
            self.store.not_found(site_of(candidate.source)),
        )
        self.crawler.stats.inc_value(f"pupsniffer/deep/{outcome.value}")
        return outcome is CandidateStatus.EXISTS

    def judged_pair(
        self, response: Response, source: PageRecord, target: PageRecord
    ) -> UrlPair | None:
        """The pair of the source page and the candidate's page, judged as every pair is; a
        translation is kept for the translation groups (:data:`~.round_state.FOUND`)."""
        candidate: DeepCandidate = response.meta["candidate"]
        credibility = self.driver.pairs_of(response.meta["round"]).credibility
        weights = unit_weights(credibility.top_patterns(30))
        pair = candidate_url_pair(candidate, credibility, response.meta.get("method", DEEP))
        judged, why = judge_pair(pair, source, target, weights, self.verifier)
        if judged is None:
            self.crawler.stats.inc_value(f"pupsniffer/rejected/{why}")
            self.rejected_pair(pair, why)
            return None
        self.store.mark_new(FOUND, [found_pair_key(judged)])  # for the groups
        return judged
