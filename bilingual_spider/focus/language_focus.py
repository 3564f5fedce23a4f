"""Language-focused link selection: follow the links that probably lead to target-language pages.

Chan and Yamana, *The Method of Improving the Specific Language Focused Crawler* (Waseda), Section
3 (the modified queuing rules, after Tamura et al. 2006, their Section 2.2):

* **hard focus** (:func:`hard_focus`, Section 3): "If the top-level domain in the URL is .cn, store
  this URL to the queue"; if not, "distinguish the language of the anchor text on the hyperlink.
  Then, if the anchor text is Chinese, store the URL to the queue"; "Drop the URLs from queue when
  other situations". An anchor too short to identify (``und``) is neither proof nor disproof.
* **soft focus** (:func:`soft_focus`, Tamura et al. via Section 2.2, steps 7-8): "If the web page
  is Thai language, queue the hyperlinks with high priority. If the web page is no Thai language,
  queue the hyperlinks with low priority". We also count Chan and Yamana's link evidence (a target
  TLD or anchor) as a reason for high priority; no link is dropped.
* **URL language markers** (:func:`url_language_of`; ours, an extension beyond Chan and Yamana):
  a link whose own URL names one language (a ``/en/`` directory, an ``en.`` subdomain, an
  ``_en.html`` / ``.en.html`` / ``.html.en`` token, a ``lang=en`` parameter: the units of
  PupSniffer's URL patterns, Zhang et al. 2018) is judged by that language before its TLD: a
  target marker keeps it, another language's marker stops the TLD rule from keeping it (the
  English half of a bilingual ``.jp`` site), and the anchor still may.
* **marked sites** (:class:`MarkedSites`; ours, an extension beyond Chan and Yamana): once a site
  (host without its subdomain unit, :func:`~bilingual_spider.patterns.units.site_of`) is seen
  to mark its target-language pages (a link or a fetched page whose URL names a target
  language: ``/ja/``, ``ja.``, ``_ja``, ``lang=ja``), its *unmarked* URLs are no longer target
  evidence through the TLD rule (they are most often the site's primary English version, at
  the root or on ``www.``); they fall through to the anchor rule.
* **server-based and directory-based** selection (:class:`TargetYield`, Section 2.2, steps 1-3):
  for each web server i, Nr(i) counts its target-language pages and Na(i) all its collected
  pages; we keep the same counts per directory, and turn them into a preference for the links
  that point there instead of Tamura's conservative filter (only Thai servers / directories).

Everything here is pure: plain values in, plain values out. Language codes are the project's
(:mod:`bilingual_spider.language.codes`); a language matches a target when they are the same
language whatever the region (``pt-BR`` matches ``pt``), but Chinese scripts stay distinct
(``zh-Hans`` does not match ``zh-Hant``; a bare ``zh`` matches both). Relevances are in [0, 1]
and become frontier priorities only through
:func:`~bilingual_spider.frontier.rescoring.link_priority`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from bilingual_spider.frontier.rescoring import link_priority
from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import HAN, KANA, UNDETERMINED
from bilingual_spider.language.tld import host_of, languages_of_host
from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.units import site_of, split_url

KEEP_RELEVANCE = 1.0
"""Relevance of a link hard focus keeps (the paper does not prioritise the queue: Section 3,
"We don't prioritize the URLs in queue in this research")."""
DROP_RELEVANCE = 0.0

SOFT_BASE = 0.1
"""Soft focus: relevance of a link with no evidence for a target language. Above 0 so that it
still outranks nothing and is crawled when the frontier has nothing better (Tamura's low
priority)."""
SOFT_PAGE = 0.5
"""Soft focus: added when the page that holds the link is in a target language (Tamura's high
priority). The largest term: Schäfer et al. (2014, Section 2) found the yield of the pages behind a
crawl's links follows the yield of the pages the links come from (adjusted R^2 0.78)."""
SOFT_LINK = 0.4
"""Soft focus: added when the link itself has a target TLD or a target-language anchor (Chan and
Yamana's hard-focus evidence). Link alone 0.5 < page alone 0.6 < both 1.0; neither 0.1."""


@dataclass(frozen=True)
class FocusDecision:
    """Whether to queue a link, why (``tld``, ``url_marker``, ``anchor``, ``dropped_tld``,
    ``dropped_url_marker``, ``dropped_unmarked_on_marked_site``, ``dropped_anchor``,
    ``dropped_unknown``, ``soft_target``, ``soft_other``), and its relevance in [0, 1]."""

    keep: bool
    reason: str
    relevance: float

    @property
    def priority(self) -> int:
        """The frontier priority of the link (through the frontier's one scoring path)."""
        return link_priority(self.relevance)


def is_target(code: str | None, targets: Iterable[str]) -> bool:
    """Is ``code`` one of ``targets``? ``None`` and ``und`` are not."""
    if not code or code == UNDETERMINED:
        return False
    return any(same_language(code, t) for t in targets)


def _anchor_known(anchor_language: str | None) -> bool:
    return bool(anchor_language) and anchor_language != UNDETERMINED


EVIDENCE = ("tld", "anchor")
"""The link evidence of Chan and Yamana's rules, in the order they are tried."""
EVIDENCE_NAMES = ("url", "site", "tld", "anchor")
"""Every rule :func:`hard_focus` can read: the paper's ``tld`` and ``anchor``, and ours, ``url``
(:func:`url_language_of`) and ``site`` (:class:`MarkedSites`)."""


def hard_focus(
    link_url: str,
    anchor_language: str | None,
    targets: Iterable[str],
    evidence: Collection[str] = EVIDENCE,
    marked_sites: MarkedSites | None = None,
) -> FocusDecision:
    """Chan and Yamana's queuing rules (Section 3): keep a link whose host's TLD belongs to a
    target language, else one whose anchor is in a target language; drop the rest.

    ``anchor_language`` is the decision of
    :meth:`~bilingual_spider.language.identification.LanguageIdentifier.decide_many` for the
    anchor text; ``und`` or None (too short to tell, or no text) falls through to the next rule.
    A drop says which rule dropped it: ``dropped_tld`` (the TLD names other languages only, and
    the anchor did not save the link), ``dropped_anchor`` (the anchor is in another language and
    the TLD says nothing), ``dropped_unknown`` (neither tells). ``evidence`` names the rules
    used (some of :data:`EVIDENCE_NAMES`; ``tld`` only, ``anchor`` only: the benchmark's crawls).

    With ``url`` (ours): a URL that names a target language keeps the link (``url_marker``); a
    URL that names another language stops the TLD rule from keeping it, and when the anchor does
    not save it either the drop is ``dropped_url_marker`` (a link the paper's rules keep).

    With ``site`` (ours) and ``marked_sites``: a URL that names no language, on a site seen to
    mark its target-language pages, is not kept by the TLD rule; when the anchor does not save
    it, the drop is ``dropped_unmarked_on_marked_site``.
    """
    evidence = _checked(evidence)
    targets = tuple(targets)
    tld_languages = tld_languages_of(link_url) if "tld" in evidence else ()
    url_language = url_language_of(link_url) if "url" in evidence else None
    if "anchor" not in evidence:
        anchor_language = None
    by_tld = any(is_target(lang, targets) for lang in tld_languages)
    url_vetoes = url_language is not None and not is_target(url_language, targets)
    site_vetoes = (
        by_tld
        and "site" in evidence
        and marked_sites is not None
        and marked_sites.unmarked_on_marked_site(link_url)
    )
    if by_tld and not url_vetoes and not site_vetoes:
        return FocusDecision(True, "tld", KEEP_RELEVANCE)
    if is_target(url_language, targets):
        return FocusDecision(True, "url_marker", KEEP_RELEVANCE)
    if is_target(anchor_language, targets):
        return FocusDecision(True, "anchor", KEEP_RELEVANCE)
    if site_vetoes:
        return FocusDecision(False, "dropped_unmarked_on_marked_site", DROP_RELEVANCE)
    if by_tld:
        return FocusDecision(False, "dropped_url_marker", DROP_RELEVANCE)
    if tld_languages:
        return FocusDecision(False, "dropped_tld", DROP_RELEVANCE)
    if _anchor_known(anchor_language):
        return FocusDecision(False, "dropped_anchor", DROP_RELEVANCE)
    return FocusDecision(False, "dropped_unknown", DROP_RELEVANCE)


def _checked(evidence: Collection[str]) -> Collection[str]:
    unknown = set(evidence) - set(EVIDENCE_NAMES)
    if unknown or not evidence:
        raise ValueError(f"evidence must be some of {EVIDENCE_NAMES}, got {tuple(evidence)}")
    return evidence


def url_languages(url: str) -> tuple[str, ...]:
    """The languages a URL's own units name (:func:`~bilingual_spider.patterns.units.split_url`,
    :func:`~bilingual_spider.patterns.markers.language_of_unit`), in URL order, each once.

    Read: the subdomain unit (``en.x.jp``), every directory (``/en/``, ``/english/``), the first
    file-name token and the last two (``en_rep.htm``, ``page_en.html``, ``page.en.html``,
    ``page.html.en``) and the query parameters (``lang=en``). Middle tokens are not read: a
    ``how-to-apply.html`` does not name Tonga.

    >>> url_languages("http://www.x.jp/en/page_en.html"), url_languages("http://x.jp/a.php?lang=ko")
    (('en',), ('ko',))
    """
    units = split_url(url)
    tokens = units.tokens
    edges = (*tokens[:1], *tokens[1:][-2:])
    found = (language_of_unit(u) for u in (units.host_unit, *units.dirs, *edges, *units.query) if u)
    return tuple(dict.fromkeys(code for code in found if code))


def url_language_of(url: str) -> str | None:
    """The one language a URL names (:func:`url_languages`); None when it names none, or two
    that are not the same language (``/en/japanese-food.html``: the URL does not tell). Of the
    codes of one language, the most specific (``zh`` and ``tc``: ``zh-Hant``)."""
    codes = url_languages(url)
    if not codes or not all(same_language(a, b) for a in codes for b in codes):
        return None
    return max(codes, key=len)


def tld_languages_of(url: str) -> tuple[str, ...]:
    """The languages of the TLD of a URL's host (:func:`languages_of_host`), cached by host: a
    crawl asks for the same hosts again and again."""
    return _host_languages(urlsplit(url).hostname or "")


@lru_cache(maxsize=1 << 16)
def _host_languages(host: str) -> tuple[str, ...]:
    return languages_of_host(host)


def anchor_reading(anchor_language: str | None, anchor: str, page_has_kana: bool) -> str | None:
    """The language an anchor counts as. Japanese writes many words in kanji alone (会社概要),
    which :func:`~bilingual_spider.language.identification.script_correction` reads as Chinese;
    on a page that writes kana (a Japanese page) such an anchor may be either, so it counts as
    ``und`` (neither proof nor disproof: it falls through) instead of as Chinese."""
    if (
        page_has_kana
        and anchor_language is not None
        and anchor_language.startswith("zh")
        and HAN.search(anchor)
        and not KANA.search(anchor)
    ):
        return UNDETERMINED
    return anchor_language


def soft_focus(
    link_url: str,
    anchor_language: str | None,
    page_language: str | None,
    targets: Iterable[str],
    evidence: Collection[str] = EVIDENCE,
    marked_sites: MarkedSites | None = None,
) -> FocusDecision:
    """Tamura et al.'s soft focus: keep every link, with a high relevance when the page holding it
    is in a target language and/or the link has a target TLD or anchor, a low one otherwise.

    Relevance = :data:`SOFT_BASE` + :data:`SOFT_PAGE` (target page) + :data:`SOFT_LINK` (target
    TLD or anchor): 1.0 for both, 0.6 page only, 0.5 link only, 0.1 neither. The reason is
    ``soft_target`` when there is any evidence, ``soft_other`` when there is none.
    """
    targets = tuple(targets)
    from_target_page = is_target(page_language, targets)
    link_evidence = hard_focus(link_url, anchor_language, targets, evidence, marked_sites).keep
    relevance = SOFT_BASE + SOFT_PAGE * from_target_page + SOFT_LINK * link_evidence
    reason = "soft_target" if from_target_page or link_evidence else "soft_other"
    return FocusDecision(True, reason, min(1.0, relevance))


# --- marked sites (ours) --------------------------------------------------------------------

MAX_SITES = 100_000
"""Default number of sites :class:`MarkedSites` remembers (a site name each, some 100 bytes: about
10 MB); the least recently seen marking goes first."""


class MarkedSites:
    """The sites seen to mark their target-language pages in their URLs (ours, beyond Chan and
    Yamana): a site whose Japanese pages live under ``/ja/`` or on ``ja.`` serves its unmarked URLs
    in another language, most often its primary English version.

    A site is a host without its subdomain unit (:func:`~bilingual_spider.patterns.units.site_of`:
    ``www.x.jp`` and ``ja.x.jp`` are both ``x.jp``). Memory is bounded: at most ``max_sites``
    sites, the least recently seen marking being forgotten first (a forgotten site is unmarked
    again: the TLD rule keeps its unmarked URLs).
    """

    def __init__(self, targets: Iterable[str], max_sites: int = MAX_SITES) -> None:
        if max_sites < 1:
            raise ValueError(f"max_sites must be at least 1, got {max_sites}")
        self.targets = tuple(targets)
        self.max_sites = max_sites
        self._sites: OrderedDict[str, None] = OrderedDict()

    def observe(self, url: str) -> bool:
        """Remember the site of ``url`` when the URL names a target language
        (:func:`url_language_of`); whether it does."""
        if not is_target(url_language_of(url), self.targets):
            return False
        site = site_of(url)
        self._sites.pop(site, None)
        self._sites[site] = None
        if len(self._sites) > self.max_sites:
            self._sites.popitem(last=False)
        return True

    def is_marked(self, url: str) -> bool:
        """Has the site of ``url`` been seen to mark its target-language pages?"""
        return site_of(url) in self._sites

    def unmarked_on_marked_site(self, url: str) -> bool:
        """``url`` names no language (:func:`url_languages`) and its site marks its target pages."""
        return not url_languages(url) and self.is_marked(url)

    def __len__(self) -> int:
        return len(self._sites)


# --- server-based and directory-based selection (Tamura et al. 2006) ---------------------------

MAX_HOSTS = 100_000
"""Default number of hosts whose counts :class:`TargetYield` keeps: two ints and a host name,
some 100 bytes each, so about 10 MB; the least recently counted host goes first."""
MAX_DIRECTORIES = 200_000
"""Default number of (host, directory) pairs kept, evicted the same way."""
YIELD_WEIGHT = 0.5
"""Default share of :meth:`TargetYield.relevance` that comes from the server/directory yield."""


PLACES = ("server", "directory")
"""Tamura et al.'s two variants: the yield of a link's web server, or of its directory."""


def directory_of(url: str) -> tuple[str, str]:
    """The host of a URL and its directory, the first path segment: ``http://a.jp/docs/x.html``
    -> ``("a.jp", "docs")``; a page at the root (``/index.html``, ``/``) is in ``""``."""
    path = urlsplit(url).path
    segments = path.lstrip("/").split("/")
    return host_of(url), segments[0] if len(segments) > 1 else ""


@dataclass(frozen=True)
class YieldCounts:
    """Tamura's Nr (target-language pages) and Na (all collected pages) of a server or directory."""

    target: int = 0
    total: int = 0

    def add(self, is_target_page: bool) -> YieldCounts:
        return YieldCounts(self.target + is_target_page, self.total + 1)

    @property
    def preference(self) -> float:
        """Laplace-smoothed share of target pages, (Nr + 1) / (Na + 2): 0.5 for an unseen place,
        and one page moves it only to 2/3 or 1/3."""
        return (self.target + 1) / (self.total + 2)


class _Bounded:
    """Counts by key, keeping at most ``cap`` keys; the least recently counted goes first."""

    def __init__(self, cap: int) -> None:
        if cap < 1:
            raise ValueError(f"cap must be at least 1, got {cap}")
        self.cap = cap
        self._counts: OrderedDict[object, YieldCounts] = OrderedDict()

    def add(self, key: object, is_target_page: bool) -> None:
        self._counts[key] = self._counts.pop(key, YieldCounts()).add(is_target_page)
        if len(self._counts) > self.cap:
            self._counts.popitem(last=False)

    def get(self, key: object) -> YieldCounts | None:
        return self._counts.get(key)

    def __len__(self) -> int:
        return len(self._counts)


class TargetYield:
    """Per-server and per-directory target-language yield (Tamura et al. 2006, steps 1-3), turned
    into a preference for links that point there.

    Memory is bounded: at most ``max_hosts`` hosts and ``max_directories`` (host, directory)
    pairs are kept, the least recently counted being forgotten first (a forgotten place is
    unseen again: preference 0.5).
    """

    def __init__(self, max_hosts: int = MAX_HOSTS, max_directories: int = MAX_DIRECTORIES) -> None:
        self._hosts = _Bounded(max_hosts)
        self._directories = _Bounded(max_directories)

    def add_page(self, url: str, is_target_page: bool) -> None:
        """Count a fetched page: Na += 1 for its server and directory, Nr += 1 if in a target."""
        host, directory = directory_of(url)
        self._hosts.add(host, is_target_page)
        self._directories.add((host, directory), is_target_page)

    def server_counts(self, url: str) -> YieldCounts:
        return self._hosts.get(host_of(url)) or YieldCounts()

    def server_preference(self, url: str) -> float:
        """Server-based: the smoothed target share of the link's host."""
        return self.server_counts(url).preference

    def directory_preference(self, url: str) -> float:
        """Directory-based: the smoothed target share of the link's directory, or of its host
        while the directory has no page counted yet."""
        counts = self._directories.get(directory_of(url))
        return counts.preference if counts else self.server_preference(url)

    def relevance(
        self,
        url: str,
        focus_relevance: float,
        weight: float = YIELD_WEIGHT,
        place: str = "directory",
    ) -> float:
        """A link's relevance: ``(1 - weight) * focus_relevance + weight * preference``, in
        [0, 1] (the focus relevance is clipped), the preference being the link's directory's
        (``place="directory"``) or its server's (``"server"``)."""
        if not 0.0 <= weight <= 1.0:
            raise ValueError(f"weight must be in [0, 1], got {weight}")
        if place not in PLACES:
            raise ValueError(f"place must be one of {PLACES}, got {place!r}")
        focus = min(1.0, max(0.0, focus_relevance))
        preference = (
            self.server_preference(url) if place == "server" else self.directory_preference(url)
        )
        return (1.0 - weight) * focus + weight * preference

    @property
    def hosts(self) -> int:
        return len(self._hosts)

    @property
    def directories(self) -> int:
        return len(self._directories)
