"""Pair-first crawling: what a site's page budget buys first.

The paper crawls whole sites, then mines. Within a page budget, a breadth-first crawl spends it on
pages whose counterparts it never fetches, and on sites that have one language only. While a
site is crawled, :class:`SiteProgress` keeps its pages' URLs and languages and:

- mines the site's own pairing patterns every :data:`REMINE_EVERY` pages once it has
  :data:`MIN_PAGES` (PupSniffer's mining, :func:`~.url_list.mine_url_list`, on this site's pages
  alone; a language pattern counts when it pairs :data:`MIN_MATCHED` pages or its local
  credibility, eq. 3, reaches the paper's 0.1);
- gives the *counterparts* of a fetched page (its URL with each credible pattern substituted,
  both ways, as deep pages are made: :func:`~.deep_pages.deep_candidates`), which the spider
  asks for first, before new pages;
- keeps the site's new links pending and gives them a few at a time (:data:`WINDOW` requests in
  flight), so that the budget is not all promised to the links of the first pages; once the
  site has credible patterns, new pages may take :data:`LINK_SHARE` of it and counterparts the
  rest, until no counterpart can come (:meth:`SiteProgress.link_budget`);
- says when a site is monolingual so far (:meth:`SiteProgress.monolingual`): no more of its
  budget is spent.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

from bilingual_spider.language.codes import base_language
from bilingual_spider.patterns.deep_pages import deep_candidates
from bilingual_spider.patterns.markers import is_language_pattern, language_of_unit
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.units import split_url
from bilingual_spider.patterns.url_list import mine_url_list

MIN_PAGES = 20
REMINE_EVERY = 25
MIN_LOCAL_CREDIBILITY = 0.1
"""The paper's threshold of local credibility (section 4.1)."""
MIN_MATCHED = 4
"""Or pages a pattern pairs (two pairs): mid-crawl, a breadth-first crawl has fetched 50 English
pages and the German index, so eq. 3 gives ``<en,de>`` 2/52, though it is the site's pattern."""
MIN_MATCHED_MARKED = 2
"""One pair is enough for a pattern both of whose units name a language (``<en,de>``)."""
MAX_PATTERNS = 300
"""Credible patterns kept per site (a site in 19 languages has 171 language pairs)."""
LINK_SHARE = 0.6
"""Share of a site's budget new pages may take once the site has credible patterns."""
MONOLINGUAL_AFTER = 50
WINDOW = 16
"""Page requests of a site kept in flight while new pages are asked for a few at a time."""
MIN_TRIES = 4
MIN_FOUND_SHARE = 0.5
ON_TRIAL_IN_FLIGHT = 1
"""Pages of a key on trial (none of its pages there yet) in flight at a time (:class:`Trials`)."""
NAMED_TRIES = 8
"""Versions a site's pages name in one language that are asked for before the language is given
up when none of them was there (:meth:`SiteProgress.names_missing`)."""
MAIN_LANGUAGE_SHARE = 0.95
MARKED_LINK_SHARE = 0.05
K = TypeVar("K")


@dataclass
class SiteProgress:
    """What one site's crawl has seen so far, for pair-first crawling."""

    site: str
    languages: dict[str, str | None] = field(default_factory=dict)
    """URL -> the language of its main text (None: undetermined)."""
    linked_languages: Counter[str] = field(default_factory=Counter)
    """How many of the in-site links seen have a URL unit naming each language."""
    named_languages: Counter[str] = field(default_factory=Counter)
    """How many pages name a version of themselves in each language (hreflang, switcher)."""
    patterns: tuple[PairingPattern, ...] = ()
    """Credible language patterns of the site (:func:`~.markers.is_language_pattern`), most
    credible first. Patterns of other units (``<core,index>``: two pages of the Apache manual
    whose languages were read apart) pair pages at the round's end, but their counterparts are
    seldom there: of 167 asked on the Apache manual and LilyPond, 2 were."""
    listed_patterns: tuple[PairingPattern, ...] = ()
    """Language patterns of the URLs its sitemap lists (:meth:`add_sitemap_pages`)."""
    mined_at: int = 0
    links_seen: set[str] = field(default_factory=set, repr=False)
    pending: deque[str] = field(default_factory=deque, repr=False)
    """In-site links not asked for yet, in the order found (breadth-first)."""
    in_flight: int = 0
    """Page requests of the site asked for and not answered yet."""
    tried: Counter[PairingPattern] = field(default_factory=Counter, repr=False)
    """Counterparts asked for by each pattern, answered so far."""
    found: Counter[PairingPattern] = field(default_factory=Counter, repr=False)
    """Of those, the ones that were there (HTTP 200)."""
    counterpart_trials: Trials[tuple[PairingPattern, str]] = field(
        default_factory=lambda: Trials(MIN_TRIES), repr=False
    )
    """Counterparts by pattern and section (:func:`section_of`): a pattern may pay off in one
    part of a site and not in another. The five Debian manuals on www.debian.org are one site,
    <en,zh-tw> pairs debian-reference's pages, and the Debian FAQ has no Traditional Chinese;
    its 16 chapters come in a burst, and judged by the whole site (:meth:`pays_off`) and by
    answers alone, each chapter asked its missing forms by 11 such patterns before any answer
    came back, 176 pages not there."""
    named_trials: Trials[str] = field(default_factory=lambda: Trials(NAMED_TRIES), repr=False)
    """Versions of its pages the site's pages name (hreflang, a switcher), by language: a
    switcher may list every language of a project on every page when only a few of them are
    on this site (the LilyPond manual's lists eleven; its German and French are here)."""

    def add(
        self, url: str, language: str | None, links: Iterable[str], named: Iterable[str] = ()
    ) -> None:
        """A fetched page, its language, its in-site links and the languages of the versions
        of it the page names (:mod:`.alternates`, maybe on another host); re-mines when due."""
        self.languages[url] = language
        self.named_languages.update({base_language(lang) for lang in named})
        self.add_listed(links)
        pages = len(self.languages)
        if pages >= MIN_PAGES and pages - self.mined_at >= REMINE_EVERY:
            self._mine()

    def add_listed(self, links: Iterable[str]) -> None:
        """In-site URLs to fetch (a page's links, a sitemap's pages): pending, in order, after
        those seen before; the languages their URLs name counted."""
        for link in links:
            if link in self.links_seen:
                continue
            self.links_seen.add(link)
            self.pending.append(link)
            marked = {language_of_unit(unit.value) for unit in split_url(link).units()}
            self.linked_languages.update(base_language(lang) for lang in marked if lang)

    def add_sitemap_pages(self, urls: Sequence[str]) -> None:
        """The pages the site's sitemap lists: pending after the links seen so far; and the
        language patterns that pair :data:`MIN_MATCHED` of those URLs (URL-only mining,
        :mod:`.url_list`) make the counterparts of its pages until the fetched pages have
        patterns of their own (they do not change :meth:`link_budget`)."""
        self.add_listed(urls)
        if not urls:
            return
        matched = mine_url_list(urls).credibility.matched.get(self.site, {})
        credible = [k for k, n in matched.items() if n >= MIN_MATCHED]
        ranked = sorted(credible, key=lambda k: (-matched[k], k))
        self.listed_patterns = tuple(ranked[:MAX_PATTERNS])

    def _mine(self) -> None:
        self.mined_at = len(self.languages)
        known = {url: lang for url, lang in self.languages.items() if lang}
        credibility = mine_url_list(list(self.languages), known).credibility
        local = credibility.local.get(self.site, {})
        matched = credibility.matched.get(self.site, {})
        credible = [
            k
            for k, n in matched.items()
            if is_language_pattern(k)
            and (
                n >= (MIN_MATCHED_MARKED if _names_languages(k) else MIN_MATCHED)
                or local.get(k, 0.0) >= MIN_LOCAL_CREDIBILITY
            )
        ]
        ranked = sorted(credible, key=lambda k: (-matched[k], k))
        self.patterns = tuple(ranked[:MAX_PATTERNS])

    def counterparts(self, url: str) -> list[tuple[str, PairingPattern]]:
        """The URLs the site's credible patterns make of ``url``, most credible first, each with
        its pattern; a pattern whose counterparts were mostly missing (:meth:`answered`) makes
        none."""
        useful = tuple(k for k in self.patterns or self.listed_patterns if self.pays_off(k))
        if not useful:
            return []
        return [(c.candidate, c.pattern) for c in deep_candidates(url, useful, len(useful))]

    def pays_off(self, pattern: PairingPattern) -> bool:
        """Fewer than :data:`MIN_TRIES` of its counterparts answered, or at least
        :data:`MIN_FOUND_SHARE` of them there."""
        tried = self.tried[pattern]
        return tried < MIN_TRIES or self.found[pattern] >= MIN_FOUND_SHARE * tried

    def answered(self, pattern: PairingPattern, found: bool, section: str = "") -> None:
        """A counterpart made by ``pattern`` (of a page of ``section``) was there (``found``) or
        not."""
        self.tried[pattern] += 1
        self.found[pattern] += found
        self.counterpart_trials.answered((pattern, section), found)

    def named_answered(self, language: str, found: bool) -> None:
        """A version of a page named in ``language`` (hreflang, a switcher) was there or not."""
        self.named_trials.answered(language, found)

    def names_missing(self, language: str) -> bool:
        """Whether none of the first :data:`NAMED_TRIES` versions in ``language`` named on this
        site was there. Such versions are asked for neither first nor as links; the language's
        pages that are there come by the other links to them."""
        return self.named_trials.decision(language) == "drop"

    def next_links(self, window: int = WINDOW) -> list[str]:
        """Pending links to ask for now: as many as keep :data:`WINDOW` requests in flight. New
        pages are asked for a few at a time, so that the counterparts of the pages that come in
        can still take the budget."""
        wanted = max(0, window - self.in_flight)
        return [self.pending.popleft() for _ in range(min(wanted, len(self.pending)))]

    def link_budget(self, budget: int) -> int:
        """How much of ``budget`` new pages may take: :data:`LINK_SHARE` of it once the site
        has credible patterns, while any of its requests is in flight (the pages to come may
        have counterparts); a site with none in flight has no counterpart to come, and new
        pages may take the rest. (Before, a site whose counterparts took the share first stopped
        short of its budget once the counterparts of the pages it had were fetched: the
        Debian installation guide, 423-500 pages of 500 from run to run.)"""
        return int(budget * LINK_SHARE) if self.patterns and self.in_flight else budget

    def monolingual(self, after: int = MONOLINGUAL_AFTER) -> bool:
        """``after`` pages (0: never), :data:`MAIN_LANGUAGE_SHARE` of them in one language, no
        other language named in the URLs of :data:`MARKED_LINK_SHARE` of the in-site links
        seen (at least 3: ``os.html`` and ``git-am.html`` do not make a site Ossetian or
        Amharic), and no other language named as their version by as many of its pages (a
        site whose French is on another host, ``numerique.canada.ca`` for
        ``digital.canada.ca``, is not monolingual)."""
        if not after or len(self.languages) < after:
            return False
        found = Counter(base_language(lang) for lang in self.languages.values() if lang)
        if not found:
            return False
        main, count = found.most_common(1)[0]
        if count < MAIN_LANGUAGE_SHARE * sum(found.values()):
            return False
        enough = max(3, MARKED_LINK_SHARE * len(self.links_seen))
        if any(n >= enough for lang, n in self.linked_languages.items() if lang != main):
            return False
        enough = max(3, MARKED_LINK_SHARE * len(self.languages))
        return not any(n >= enough for lang, n in self.named_languages.items() if lang != main)


@dataclass
class Trials(Generic[K]):
    """Pages of one kind a site is asked for, judged by key (a pattern in a section, a named
    language) by their answers: asked once one of them was there; none once the first ``tries``
    were all missing; else, on trial, :data:`ON_TRIAL_IN_FLIGHT` in flight at a time and the
    others held back. Pages come in bursts (a manual's chapters, each naming its versions in
    eleven languages) faster than answers: judged by answers alone, each key asked for all of
    a burst's pages before the first answer said whether they are there."""

    tries: int
    asked: Counter[K] = field(default_factory=Counter)
    """Pages asked for, by key."""
    tried: Counter[K] = field(default_factory=Counter)
    """Of those, the ones answered."""
    found: Counter[K] = field(default_factory=Counter)
    """Of those, the ones that were there."""
    held: dict[K, dict[str, None]] = field(default_factory=dict)
    """Pages held back, by key, in the order they came (each once)."""
    dropped: int = 0
    """Pages held back and then not asked for."""

    def decision(self, key: K) -> Literal["ask", "hold", "drop"]:
        """Whether a page of ``key`` is asked for now, held back, or not asked for."""
        if self.found[key]:
            return "ask"
        if self.tried[key] >= self.tries:
            return "drop"
        return "ask" if self.asked[key] - self.tried[key] < ON_TRIAL_IN_FLIGHT else "hold"

    def answered(self, key: K, found: bool) -> None:
        self.tried[key] += 1
        self.found[key] += found

    def hold(self, key: K, url: str) -> None:
        self.held.setdefault(key, {})[url] = None

    def take(self, key: K) -> list[str]:
        """The pages of ``key`` held back that may be asked for now (taken off hold): all once
        one was there, the next while on trial with none in flight, none otherwise; a key
        whose pages are not asked for any more loses its held ones (:attr:`dropped` counts
        them)."""
        waiting = self.held.get(key, {})
        decision = self.decision(key)
        if decision == "hold" or not waiting:
            return []
        if decision == "drop":
            self.dropped += len(self.held.pop(key))
            return []
        taken = list(waiting) if self.found[key] else [next(iter(waiting))]
        for url in taken:
            del waiting[url]
        if not waiting:
            del self.held[key]
        return taken


def section_of(url: str) -> str:
    """The part of its site a URL is in: its directories before the first that names a language
    (all of them when none does). The five Debian manuals on www.debian.org are five sections
    (``doc/manuals/debian-faq`` for ``doc/manuals/debian-faq/de/x.de.html`` and
    ``doc/manuals/debian-faq/x.en.html``); a site naming its languages in file names only
    has a section per directory."""
    dirs = split_url(url).dirs
    for i, directory in enumerate(dirs):
        if language_of_unit(directory):
            return "/".join(dirs[:i])
    return "/".join(dirs)


def _names_languages(pattern: PairingPattern) -> bool:
    return all(unit and language_of_unit(unit) for unit in (pattern.first, pattern.second))
