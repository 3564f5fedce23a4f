"""The items of a PupSniffer crawl (``scrapy crawl pupsniffer``), each emitted once by whichever
worker gets to it first (the store's :data:`~bilingual_spider.patterns.round_state.EMITTED`
marks): a :class:`~bilingual_spider.items.UrlPairItem` per pair, a
:class:`~bilingual_spider.items.BilingualSiteItem` per site with a pair and a
:class:`~bilingual_spider.items.TranslationGroupItem` per group. Stats
``pupsniffer/pairs/<method>``, ``pairs_other_languages``, ``sites_bilingual``, ``groups``,
``groups_of/<N>``, ``groups_rejected/<reason>``.

Items made at the end of a stage (in Scrapy's ``spider_idle``, outside any callback) travel in
the meta of one :func:`items_request` (a ``data:`` URL, no network) to a spider callback that
yields the new ones (:meth:`PupSnifferItems.new_items`, which marks them): they go through the
pipelines and feeds like any other, with Scrapy's public API only, and the crawl does not close
before they are through.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import scrapy
from scrapy.crawler import Crawler

from bilingual_spider.items import (
    WRITTEN_ONCE_KINDS,
    BilingualSiteItem,
    TranslationGroupItem,
    UrlPairItem,
    item_key,
)
from bilingual_spider.language.identification import UNDETERMINED
from bilingual_spider.patterns.crawl_round import GroupPairs, RoundPairs, site_languages
from bilingual_spider.patterns.declarations import is_declared
from bilingual_spider.patterns.groups import has_languages
from bilingual_spider.patterns.pairing import DEEP, SEARCH, UrlPair
from bilingual_spider.patterns.round_state import EMITTED, RoundStore
from bilingual_spider.patterns.units import site_of

HTTP_CHECKED = (DEEP, SEARCH)
"""Methods whose target page was generated and checked over HTTP."""
ITEMS_META = "pupsniffer_items"
"""Request meta key: the items an :func:`items_request` carries to its callback."""
ITEMS_PRIORITY = 1000
"""Before every page: a stage's items are out before the next stage's pages come."""


def verification_of(pair: UrlPair) -> dict[str, Any]:
    """What was checked of a pair (``checks``) and, when its content was verified, the
    verifier's probability and each signal's value. ``declared``: a page names the other (by
    hreflang, a sitemap, a switcher or a toggle), a claim verified like any pair
    (:mod:`.declarations`). ``language_signals``: which signal decided each page's language
    (the identifier, or the code the site declares: ``declared_close``, ``declared_unknown``)."""
    checks = ["langid", "similarity"]
    if pair.method in HTTP_CHECKED:
        checks.append("http")
    if is_declared(pair):
        checks.append("declared")
    if pair.verification is not None:
        checks.append("content")
    found: dict[str, Any] = {"checks": checks, **(pair.verification or {})}
    if pair.language_signals is not None:  # which signal decided each side's language
        found["language_signals"] = list(pair.language_signals)
    return found


def url_pair_item(pair: UrlPair, group: str = "") -> UrlPairItem:
    """The item of a judged pair."""
    return UrlPairItem(
        source_url=pair.source,
        target_url=pair.target,
        source_lang=pair.source_language or UNDETERMINED,
        target_lang=pair.target_language or UNDETERMINED,
        pattern=str(pair.pattern),
        local_credibility=round(pair.local_credibility, 4),
        global_credibility=round(pair.global_credibility, 6),
        method=pair.method,
        verification=verification_of(pair),
        score=round(max(pair.local_credibility, pair.global_credibility), 4),
        similarity=pair.similarity,
        group=group,
    )


def items_request(
    items: Iterable[Any],
    callback: Callable[..., Any] | None,
    errback: Callable[..., Any] | None,
) -> scrapy.Request | None:
    """A request whose ``callback`` (None: the spider's ``parse``) yields ``items``
    (``meta[ITEMS_META]``); None: no items."""
    batch = list(items)
    if not batch:
        return None
    return scrapy.Request(
        "data:text/plain,pupsniffer-items",
        callback=callback,
        errback=errback,
        priority=ITEMS_PRIORITY,
        dont_filter=True,
        meta={"role": "items", ITEMS_META: batch, "dont_obey_robotstxt": True},
    )


Keyed = tuple[str, Any]
"""An item and its :data:`~bilingual_spider.patterns.round_state.EMITTED` key (``pair A B``,
``site S``, ``group G``)."""


class PupSnifferItems:
    """Makes a crawl's items, each once, in the languages asked for (``langs``; empty: any).

    The items are made keyed (:meth:`pair_items`, :meth:`site_items`, :meth:`group_items`) and
    marked emitted only as they are yielded (:meth:`new_items`), in the callback that hands them
    to the pipelines: a stage's items travel unmarked in their items request, so a worker killed
    after making them and before queuing that request leaves them to the worker that redoes the
    stage's move (marked at the stage's end, they were lost with it)."""

    def __init__(self, store: RoundStore, crawler: Crawler, langs: Iterable[str]) -> None:
        self.store = store
        self.crawler = crawler  # its stats are there once the crawl starts
        self.langs = list(langs)
        self.offer_again = True
        """Whether a redelivered batch offers again the items marked emitted (False after a
        restart that had no JSON-lines output to read: what it wrote is not known)."""

    def new_items(self, keyed: Iterable[Keyed], redelivered: bool = False) -> Iterator[Any]:
        """The items not emitted before (by any worker), each once, and counted: each marked as
        it is handed on. A crawl killed while a batch goes through the pipelines and feeds (each
        item commits the ``JOBDIR`` stores before it is written) leaves the rest of the batch
        unmarked, for its redelivered request to emit (marked all at once, they were lost).
        Items run ahead of the feeds (Scrapy hands up to ``CONCURRENT_ITEMS`` of a callback's
        to the pipelines at once), so some were marked, and committed with another item, and
        not written: a ``redelivered`` batch offers again its items marked emitted that are
        written once crawl-wide (pairs and sites: ``pupsniffer/items_offered_again``), and the
        crawl's record of the items written (the duplicates pipeline) drops those some worker's
        output holds. An item is counted once, when first marked."""
        for key, item in keyed:
            if self.store.mark_new(EMITTED, [key]):
                self._count(item)
                yield item
            elif redelivered and self._offered_again(item):
                yield item

    def _offered_again(self, item: Any) -> bool:
        """Whether a redelivered batch hands on ``item``, marked emitted before the kill."""
        key = item_key(item)
        if not self.offer_again or key is None or key[0] not in WRITTEN_ONCE_KINDS:
            return False
        self.crawler.stats.inc_value("pupsniffer/items_offered_again")
        return True

    def unmarked(self, keyed: Iterable[Keyed]) -> list[Keyed]:
        """Those of ``keyed`` not emitted yet (what an items request need carry)."""
        keyed = list(keyed)
        emitted = self.store.marked(EMITTED, [key for key, _ in keyed])
        return [(key, item) for key, item in keyed if key not in emitted]

    def _count(self, item: Any) -> None:
        stats = self.crawler.stats
        if isinstance(item, UrlPairItem):
            stats.inc_value(f"pupsniffer/pairs/{item.method}")
        elif isinstance(item, BilingualSiteItem):
            stats.inc_value("pupsniffer/sites_bilingual")
        elif isinstance(item, TranslationGroupItem):
            stats.inc_value("pupsniffer/groups")
            stats.inc_value(f"pupsniffer/groups_of/{len(item.joined)}")
            for reason, count in item.pairs_rejected.items():
                stats.inc_value(f"pupsniffer/groups_rejected/{reason}", count)

    def pair_items(self, pairs: Iterable[UrlPair], group: str = "") -> Iterator[Keyed]:
        wanted: dict[str, UrlPair] = {}
        for pair in pairs:
            if self.langs and not {pair.source_language, pair.target_language} <= set(self.langs):
                self.crawler.stats.inc_value("pupsniffer/pairs_other_languages")
                continue
            wanted.setdefault("pair " + " ".join(sorted((pair.source, pair.target))), pair)
        for key, pair in wanted.items():
            yield key, url_pair_item(pair, group)

    def group_items(self, groups: GroupPairs) -> Iterator[Keyed]:
        """Each group with two of the languages asked for, after the pairs it implies in those
        languages (method ``group``)."""
        for verdict in groups.verdicts:
            group = verdict.group
            if not has_languages(group, self.langs):
                continue
            yield from self.pair_items(verdict.implied, group=group.group_id)
            yield (
                f"group {group.group_id}",
                TranslationGroupItem(
                    group_id=group.group_id,
                    site=site_of(group.members[0].url),
                    members=group.by_language(),
                    joined={
                        m.url: {"method": m.method, "with": m.partner, "pattern": m.pattern}
                        for m in group.members
                    },
                    pairs_found=verdict.direct,
                    pairs_implied=len(verdict.implied),
                    pairs_rejected=dict(verdict.rejected),
                ),
            )

    def site_items(self, round_pairs: RoundPairs) -> Iterator[Keyed]:
        credibility = round_pairs.credibility
        bilingual = {
            f"site {site}": (site, languages)
            for site, languages in site_languages(round_pairs.pairs).items()
            if len(languages) >= 2
        }
        emitted = self.store.marked(EMITTED, list(bilingual))  # asked no found_by again
        for key, (site, languages) in bilingual.items():
            if key in emitted:
                continue
            local = credibility.local.get(site, {})
            best = sorted(local, key=lambda k: -local[k])[:3]
            evidence = [f"{k} C(k,w)={local[k]:.3f}" for k in best]
            if tally := round_pairs.declarations.get(site):
                evidence.append(tally.evidence())
            yield (
                key,
                BilingualSiteItem(
                    site=site,
                    languages=languages,
                    evidence=evidence,
                    score=round(credibility.site.get(site, 0.0), 4),
                    found_by=self.store.found_by(site),
                ),
            )
