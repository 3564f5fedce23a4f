"""What the crawl produces. Plain dataclasses: Scrapy's feeds and pipelines take them as items.

Every item's first field is its ``type`` (``bilingual_site``, ``site_verdict``, ``url_pair``,
``translation_group``, ``page``), so a line of any feed says what it is; a run directory
(``-a out=DIR``) has a feed per type (:data:`FEED_FILES`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class BilingualSiteItem:
    """A site judged bilingual (or multilingual), with why and how it was reached."""

    type: str = field(default="bilingual_site", init=False)
    site: str
    """The site's host name (``www.example.es``)."""
    languages: list[str]
    """Project language codes found on the site, most pages first."""
    evidence: list[str] = field(default_factory=list)
    """URLs (or short descriptions) of what decided the verdict."""
    score: float = 0.0
    """Confidence of the verdict in [0, 1]."""
    found_by: str = ""
    """How the site was reached: ``seed``, ``forward link of http://hub/``, ``search``, ..."""


@dataclass
class SiteVerdictItem:
    """The bilingual-site detector's verdict on one site, bilingual or not (one per site).

    The fields are those of :class:`bilingual_spider.detection.detector.SiteVerdict`."""

    type: str = field(default="site_verdict", init=False)
    site: str
    """The site's key: its host name (or its first URL with ``BILINGUAL_DETECTOR_SITE_KEY=url``)."""
    url: str
    """The first page the verdict started from."""
    bilingual: bool
    languages: list[str]
    """Languages found with enough text, in the order the pages showed them."""
    reason: str
    pages_downloaded: int
    status: str = "not_bilingual"
    """``bilingual``, ``not_bilingual`` (judged: not two of the languages asked for), or
    ``not_judged`` (its first page could not be read: refused, failed, not a page)."""
    """The first page + the probes requested."""
    rule: str = "scored links"
    """What decided: ``scored links``, ``language hints``, ``chooser labels``, ``first page``
    or ``link predictor`` (see detection/detector.py, ``RULES``)."""
    best_score: float | None = None
    """The best Link Predictor score among the first page's links to the same site."""
    links: int = 0
    candidates: int = 0
    """Links at or above the minimum likelihood."""
    mode: str = "detector"
    min_likelihood: float = 0.8
    langs: list[str] = field(default_factory=list)
    """The languages of interest (empty: any two)."""
    evidence: list[dict] = field(default_factory=list)
    """Every page looked at: url, score, ok, reason, final_url, lang, shares, text_chars,
    counted, hint (the language its link named)."""


@dataclass
class UrlPairItem:
    """Two URLs holding the same content in two languages."""

    type: str = field(default="url_pair", init=False)
    source_url: str
    target_url: str
    source_lang: str
    target_lang: str
    pattern: str = ""
    """The pairing pattern that matched, e.g. ``<en,fr>``; empty when none did."""
    local_credibility: float = 0.0
    global_credibility: float = 0.0
    method: str = ""
    """How the pair was found: ``local``, ``rescue``, ``deep``, ``search``, ``hreflang``, ..."""
    verification: dict[str, Any] = field(default_factory=dict)
    """What was checked (``checks``: ``langid``, ``similarity``, ``http``, ``declared``: a page
    names the other, by hreflang, a sitemap, a switcher or a toggle, ``content``) and, when
    the content was verified, the verifier's ``probability`` and each signal (``difference``,
    ``length_correlation``, ``content_agreement``, ``length_ratio``, ``shared_tokens``,
    ``copied_share``, ...: ``patterns/verification.py``)."""
    score: float = 0.0
    similarity: float | None = None
    """Link similarity of the two pages (PupSniffer's non-bilingual pair filter, eq. 7-9);
    ``None`` when it was not computed."""
    group: str = ""
    """Method ``group``: the id of the :class:`TranslationGroupItem` that implied the pair."""


@dataclass
class TranslationGroupItem:
    """Pages that translate each other: one document in several languages (PupSniffer's
    pairs that share a page, ``patterns/groups.py``), at most one page per language."""

    type: str = field(default="translation_group", init=False)
    group_id: str
    site: str
    """The site of its first page."""
    members: dict[str, str]
    """Language -> URL."""
    joined: dict[str, dict[str, str]] = field(default_factory=dict)
    """URL -> how it joined: ``method`` of the pair that brought it in, the page it was paired
    ``with``, the ``pattern``."""
    pairs_found: int = 0
    """Pairs of members found directly (pattern, deep page, hreflang, switcher)."""
    pairs_implied: int = 0
    """Pairs of members no method found, judged translations (``UrlPairItem``, method
    ``group``; those in the languages asked for are emitted)."""
    pairs_rejected: dict[str, int] = field(default_factory=dict)
    """Pairs of members no method found, rejected by a check, by reason."""


@dataclass
class FetchedPageItem:
    """A record of one fetched page: the forward crawl's output and the baseline of benchmarks."""

    type: str = field(default="page", init=False)
    url: str
    status: int
    host: str
    content_type: str
    length: int
    role: str
    """Why it was requested: ``seed``, ``forward``, ``probe``, ``backlink``, ``api``."""
    depth: int = 0
    declared_lang: str | None = None
    """The page's ``<html lang>``, normalised; None when absent or not a language code."""
    alternates: dict[str, str] = field(default_factory=dict)
    """``hreflang`` alternates: normalised language -> absolute URL."""
    outlinks: int = 0


FEED_FILES: dict[type, str] = {
    BilingualSiteItem: "sites.jsonl",
    SiteVerdictItem: "verdicts.jsonl",
    UrlPairItem: "pairs.jsonl",
    TranslationGroupItem: "groups.jsonl",
    FetchedPageItem: "pages.jsonl",
}
"""The feed of each item type in a run directory."""


WRITTEN_ONCE_KINDS = frozenset({"verdict", "site", "pair"})
"""Item kinds (:func:`record_key`) written once crawl-wide, over every worker's output and over
a kill (the crawl state's ``written_items``, claimed by
:class:`~bilingual_spider.pipelines.duplicates.DuplicatesPipeline`): a site's verdict and record,
a URL pair. Pages keep the per-worker filter (a forward crawl's pages are settled by URL)."""


def record_key(record: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The identity of an item, from its fields (an item's, or a line of a JSON-lines feed), for
    de-duplication: one per site (and one verdict per site), per unordered URL pair, per URL.
    None: never a duplicate."""
    kind = record.get("type")
    if kind == "bilingual_site":
        return ("site", str(record["site"]).lower())
    if kind == "site_verdict":
        return ("verdict", str(record["site"]).lower())
    if kind == "url_pair":
        first, second = sorted((str(record["source_url"]), str(record["target_url"])))
        return ("pair", first, second)
    if kind == "page":
        return ("page", str(record["url"]))
    return None


def item_key(item: object) -> tuple[str, ...] | None:
    """The identity of an item (:func:`record_key` of its fields; None: never a duplicate)."""
    if not isinstance(item, (BilingualSiteItem, SiteVerdictItem, UrlPairItem, FetchedPageItem)):
        return None
    return record_key({"type": item.type, **vars(item)})
