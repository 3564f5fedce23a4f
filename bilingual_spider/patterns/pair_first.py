"""Which pages of its sites a PupSniffer crawl asks for, and in what order (pair-first crawling,
:mod:`.crawl_order`), within the page budgets a :class:`~.round_state.RoundStore` keeps.

For each page that comes: the translations it names (:mod:`.alternates`; on another host too,
when that site is crawled already) and its counterparts by its site's credible patterns first,
then the site's pending in-site pages a few at a time (:meth:`~.crawl_order.SiteProgress.
link_budget`); nothing more of a site monolingual so far. Without pair-first crawling, the
page's in-site links in their order. The ``pupsniffer`` spider turns each :class:`PageAsk`
into a request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from bilingual_spider.language.codes import same_language
from bilingual_spider.patterns.alternates import Alternate
from bilingual_spider.patterns.crawl_order import (
    MONOLINGUAL_AFTER,
    WINDOW,
    SiteProgress,
    section_of,
)
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.round_state import SEEN, RoundStore
from bilingual_spider.patterns.units import site_of

PAIR_FIRST_PRIORITY = 10
"""Priority of a fetched page's counterparts and named translations: asked before new pages."""
VERSION_SITES = 20
"""Other sites a page names as holding its versions that a crawl takes up, per page
(:meth:`PairFirstOrder.version_sites`)."""


@dataclass(frozen=True)
class PageAsk:
    """A page of ``site`` to request (counted in its budget already)."""

    site: str
    url: str
    priority: int = 0
    counterpart_of: PairingPattern | None = None
    """The pattern that made the URL of a page's counterpart."""
    named_language: str = ""
    """The language of the version of a page this is said to be (hreflang, a switcher)."""
    section: str = ""
    """The section of the page a counterpart is made of (:func:`~.crawl_order.section_of`)."""


def _no_count(key: str) -> None:
    pass


class PairFirstOrder:
    """The page requests of a crawl's sites, pair first.

    Parameters
    ----------
    store:
        The crawl's state: which URLs were asked for, each site's pages counted.
    site_budget:
        Pages asked for per site.
    pair_first:
        False: a page's in-site links in their order, nothing else.
    monolingual_after:
        Pages after which a site in one language only is given no more (0: never).
    count:
        Told of each event worth a stat: ``pages_asked/named``, ``pages_asked/counterpart``,
        ``counterparts_not_asked`` and ``named_versions_not_asked`` (held back on trial, then
        not asked for), ``sites_stopped_monolingual``, ``named_languages_given_up``.
    languages:
        The crawl's languages (empty: any): a translation a page names in another language is
        not asked for first (it stays one of the page's links). A 10-language manual's menu
        otherwise spent an en-fr crawl's budget on its other eight languages.
    version_sites:
        Other sites a page names as holding its versions that are taken up, per page
        (:meth:`version_sites`; 0: none).
    """

    def __init__(
        self,
        store: RoundStore,
        site_budget: int,
        pair_first: bool = True,
        monolingual_after: int = MONOLINGUAL_AFTER,
        count: Callable[[str], None] = _no_count,
        languages: Sequence[str] = (),
        version_sites: int = VERSION_SITES,
    ) -> None:
        self.store = store
        self.max_version_sites = version_sites
        self.languages = tuple(languages)
        self.site_budget = site_budget
        self.pair_first = pair_first
        self.monolingual_after = monolingual_after
        self.count = count
        self.progress: dict[str, SiteProgress] = {}  # this process's pages of each site
        self.stopped: set[str] = set()
        self.given_up: set[tuple[str, str]] = set()  # (site, language): its named versions

    def page_came(
        self,
        site: str,
        url: str,
        language: str | None,
        links: Sequence[str],
        alternates: Sequence[Alternate] = (),
    ) -> Iterator[PageAsk]:
        """The pages to ask for after page ``url`` of ``site`` came, in its ``language``, with
        its ``links`` and the translations it names (``alternates``)."""
        if not self.pair_first:
            yield from self.pages(site, [link for link in links if site_of(link) == site])
            return
        progress = self.progress.setdefault(site, SiteProgress(site))
        not_links: set[str] = set()  # asked for by name, held back, or not asked for
        named_now: dict[str, dict[str, str]] = {}  # by site: named in no language
        for alternate in alternates:
            other = self.progress.get(site_of(alternate.url))  # a site crawled already
            if other is None:
                continue
            if alternate.language and other.names_missing(alternate.language):
                not_links.add(alternate.url)
                self._given_up(other.site, alternate.language)
            elif not (language and same_language(alternate.language, language)) and self.wanted(
                alternate.language
            ):
                not_links.add(alternate.url)
                if alternate.language:
                    other.named_trials.hold(alternate.language, alternate.url)
                else:
                    named_now.setdefault(other.site, {})[alternate.url] = ""
        inside = [link for link in links if site_of(link) == site and link not in not_links]
        progress.add(url, language, inside, [a.language for a in alternates])
        for other, urls in named_now.items():
            yield from self._named(other, urls)
        section = section_of(url)
        for candidate, pattern in progress.counterparts(url):
            progress.counterpart_trials.hold((pattern, section), candidate)
        for other in {site_of(a.url) for a in alternates} - {site}:
            if other in self.progress:  # named versions on another site crawled already
                yield from self._released(self.progress[other])
        yield from self.next_pages(site)

    def version_sites(
        self,
        site: str,
        language: str | None,
        alternates: Sequence[Alternate],
        known: bool = False,
    ) -> list[str]:
        """The URL a page of ``site`` in ``language`` names first on each other site not known
        to the crawl yet as its version in another of the crawl's languages, at most
        :attr:`max_version_sites` sites. A site's translations may live on other hosts: ccTLD
        siblings (``NAME.com``, ``NAME.de``), differently named domains (``parks-NAME.ca``,
        ``parcs-NAME.ca``), ``NAME-fr.org``. Its pages say so; crawled as sites of their own,
        their pages pair with the site's by what the pages declare. A link that names no
        language (a toggle, ``FON``: a word as much as Fon's code) takes up no site: a sibling
        site that copies the site's English (a country's site in a language not translated
        yet) would pair its copies with the site's translations. ``known``: the sites taken up
        already too (a redelivered page's: its first worker may have died before it queued
        their first pages)."""
        urls: dict[str, str] = {}
        for alternate in alternates:
            other = site_of(alternate.url)
            if (
                other in ("", site)
                or other in urls
                or not alternate.language
                or not self.wanted(alternate.language)
                or (language and same_language(alternate.language, language))
                or (self.store.found_by(other) and not known)
            ):
                continue
            urls[other] = alternate.url
        return list(urls.values())[: self.max_version_sites]

    def _named(self, site: str, urls: dict[str, str]) -> Iterator[PageAsk]:
        """The versions of a page on ``site`` its page names (URL -> language), asked for
        first."""
        for ask in self.pages(site, list(urls), priority=PAIR_FIRST_PRIORITY):
            self.count("pages_asked/named")
            yield PageAsk(ask.site, ask.url, ask.priority, named_language=urls[ask.url])

    def _counterparts(
        self, site: str, urls: list[str], pattern: PairingPattern, section: str
    ) -> Iterator[PageAsk]:
        """Counterparts made by ``pattern`` of pages of ``section`` of ``site``, asked for
        first."""
        for ask in self.pages(site, urls, priority=PAIR_FIRST_PRIORITY):
            self.count("pages_asked/counterpart")
            yield PageAsk(ask.site, ask.url, ask.priority, pattern, section=section)

    def _released(self, progress: SiteProgress) -> Iterator[PageAsk]:
        """The pages of ``progress``'s site held back on trial
        (:class:`~.crawl_order.Trials`: counterparts by pattern and section, named versions by
        language) that may be asked for now; those of a pattern that no longer pays off on the
        site, not at all."""
        counterparts, named = progress.counterpart_trials, progress.named_trials
        dropped = counterparts.dropped, named.dropped
        for key in list(counterparts.held):
            pattern, section = key
            if not progress.pays_off(pattern):
                counterparts.dropped += len(counterparts.held.pop(key))
                continue
            while taken := counterparts.take(key):
                for ask in self._counterparts(progress.site, taken, pattern, section):
                    counterparts.asked[key] += 1
                    yield ask
        for language in list(named.held):
            while taken := named.take(language):
                for ask in self._named(progress.site, dict.fromkeys(taken, language)):
                    named.asked[language] += 1
                    yield ask
            if named.decision(language) == "drop":
                self._given_up(progress.site, language)
        for _ in range(counterparts.dropped - dropped[0]):
            self.count("counterparts_not_asked")
        for _ in range(named.dropped - dropped[1]):
            self.count("named_versions_not_asked")

    def _given_up(self, site: str, language: str) -> None:
        if (site, language) not in self.given_up:
            self.given_up.add((site, language))
            self.count("named_languages_given_up")

    def wanted(self, language: str) -> bool:
        """Whether a page said to be in ``language`` is in one of the crawl's languages (any
        when the crawl names none, or the language is unknown)."""
        return not (self.languages and language) or any(
            same_language(language, wanted) for wanted in self.languages
        )

    def sitemap_listed(
        self, site: str, paired: Sequence[str], pages: Sequence[str]
    ) -> Iterator[PageAsk]:
        """The pages of the translation groups the site's sitemap names (``paired``), asked
        first, each group's together (within the site's budget); the other pages it lists
        (``pages``) join the site's pending pages, after the links seen so far, and the language
        patterns of their URLs make counterparts until the site's fetched pages have patterns of
        their own."""
        for ask in self.pages(site, [url for url in paired if site_of(url) == site],
                              priority=PAIR_FIRST_PRIORITY):  # fmt: skip
            self.count("pages_asked/sitemap")
            yield ask
        progress = self.progress.get(site)
        if progress is not None:
            progress.add_sitemap_pages([url for url in pages if site_of(url) == site])

    def next_pages(self, site: str) -> Iterator[PageAsk]:
        """The site's pending in-site pages that may be asked for now."""
        progress = self.progress.get(site)
        if progress is None:
            return
        if progress.monolingual(self.monolingual_after):
            if site not in self.stopped:
                self.stopped.add(site)
                progress.pending.clear()
                progress.counterpart_trials.held.clear()
                progress.named_trials.held.clear()
                self.count("sites_stopped_monolingual")
            return
        yield from self._released(progress)
        budget = progress.link_budget(self.site_budget)
        while progress.pending and progress.in_flight < WINDOW:
            batch = progress.next_links()
            granted = list(self.pages(site, batch, budget=budget))
            if not granted and len(self.store.marked(SEEN, batch)) < len(batch):
                progress.pending.extendleft(reversed(batch))  # new pages' share is used up
                break
            yield from granted

    def answered(
        self,
        site: str,
        counterpart_of: PairingPattern | None,
        found: bool,
        named_language: str = "",
        section: str = "",
    ) -> None:
        """A page request of ``site`` was answered (``found``: HTTP 200) or failed: one fewer in
        flight; a counterpart's answer counts for its pattern (in the ``section`` of the page it
        was made of), a named version's for its language."""
        progress = self.progress.get(site)
        if progress is None:
            return
        progress.in_flight = max(0, progress.in_flight - 1)
        if counterpart_of is not None:
            progress.answered(counterpart_of, found, section)
        if named_language:
            progress.named_answered(named_language, found)

    def pages(
        self, site: str, urls: Iterable[str], priority: int = 0, budget: int | None = None
    ) -> Iterator[PageAsk]:
        """The ``urls`` of ``site`` not asked for yet, within its budget (``budget``, else the
        site's): counted now."""
        budget = self.site_budget if budget is None else budget
        progress = self.progress.get(site) if self.pair_first else None
        for url in self.store.reserve_pages(site, list(urls), budget):
            if progress is not None:
                progress.in_flight += 1
            yield PageAsk(site, url, priority)
