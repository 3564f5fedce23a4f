"""The Bilingual Site (BS) Detector of Barbosa, Bangalore, Kumar and Rangarajan, "Crawling back
and forth: using back and out links to locate bilingual sites" (IJCNLP 2011), section 2.1.

From a site's first page, in two steps:

1. **Link Predictor**: every link of the page gets the likelihood that it "points to parallel
   text" (:mod:`bilingual_spider.detection.link_predictor`); the links scoring at least the
   *minimum likelihood* are the candidates (:func:`candidate_links`).
2. **Language identification** of the page itself and of the pages behind the candidates
   (probes); the site is bilingual when the languages of interest both appear (:func:`decide`).

The paper's Table 1 varies the minimum likelihood and reports precision, recall and the pages
downloaded per site; "Link Predictor alone" (``mode="link_predictor"``) calls a site bilingual as
soon as one link reaches the minimum likelihood, with the first page as its only download.

Where the paper is silent, we chose (and :class:`DetectorConfig` makes each a setting):

- **Which links.** The paper uses "the internal links of these sites". Bilingual sites put their
  translations on sibling hosts too (``es.example.com``, ``example.es``), so a link counts when
  its host is the page's, shares its registered domain, or carries the same name under another
  public suffix (``example.com`` -> ``example.es``): ``hosts="related"``. Links to unrelated
  sites never count: a page that links to a site in another language is no translation of it.
- **How many probes, in which order.** Best score first, at most ``max_probes``, in rounds of as
  many probes as languages are still missing (at most ``probe_batch``); detection stops as soon
  as the verdict is bilingual. Links that name a language still missing (``hreflang``, a
  language's name as anchor or alt text, a code in the URL) go before the others, links naming
  a language already found go last (the paper's order is the score alone; this only saves
  downloads). With ``min_likelihood=0`` and no cap every link may be probed, as in the paper's
  first row, but a bilingual site stops at its evidence.
- **Enough text.** A page counts for one language: its main-text language, when that language
  holds at least ``min_share`` of the page's judged text and ``min_text_chars`` characters
  (Chinese, Japanese and Korean weighted by :data:`DENSE_SCRIPT_WEIGHTS`). A language chooser (a
  few words), a mixed-language page or a mostly untranslated stub counts for none.
- **A second page of a language** (``second_look``). When a probe behind a link naming a
  language X shows another language (a translated index page whose untranslated licence
  outweighs its table of contents, an English copy under X's path) and no other page of X was
  asked, one more page of X is probed within ``max_probes`` before X is called absent: another
  link naming X, else a link of that probe's own page naming X (``/nn/index.html`` ->
  ``/nn/apt.html``), else, when that page has less text than a chooser and counts for no
  language or for one no other page showed, its first link naming no language and no page above
  it, one in its own directory first (at opaque URLs, a table of contents' first entry). Two
  pages of X in another language: X is absent.
- **A regional language read as its neighbour** (:func:`read_apart`). A probe behind a first
  page's link naming X, read in the first page's language, counts for X when it copies next to
  none of the first page's prose (an untranslated fallback copies it) and a share of it reads
  as X (Walloon behind a French home).
- **A probed page's switcher.** When the first page's links name no language but those found
  (a home that links its English documentation only) and the page behind a link naming a
  language shows that language, that page's links naming other languages of interest are
  probed as the first page's would be, once a site (``language_hints``).
- **Failed probes** (HTTP errors, timeouts, redirects to another site, non-HTML answers) count
  for no language; the verdict is reached with what the other pages showed, and says why.
- **Cost** is the first page plus every probe requested, failed ones included (redirect hops are
  not counted).

Everything here is pure: pages arrive already fetched and identified (the Scrapy adapter is
:mod:`bilingual_spider.adapters.site_detection`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from bilingual_spider.detection.ladder import (
    ANCESTORS,
    URL_SIBLINGS,
    ancestor_urls,
    likely_languages,
    linked_ancestors,
    own_markers,
    path_language,
    site_codes,
    url_siblings,
)
from bilingual_spider.language.codes import base_language, normalize_language_code
from bilingual_spider.language.declared_language import language_script, script_of
from bilingual_spider.language.names import language_of_code, names_a_language
from bilingual_spider.language.tld import domain_parts, host_of
from bilingual_spider.links.features import labelled_language, leads_to_languages
from bilingual_spider.patterns.copied_prose import mutual_copied_share
from bilingual_spider.patterns.crawl_round import MAX_APART_COPIED_SHARE, named_above
from bilingual_spider.patterns.markers import LANGUAGE_PARAMETER, language_of_unit
from bilingual_spider.patterns.pair_language import prose_blocks
from bilingual_spider.patterns.units import host_code_label, url_host_language

MODES = ("detector", "link_predictor")
RULES = (
    "scored links", "language hints", "chooser labels", "first page", "link predictor",
    URL_SIBLINGS, f"{ANCESTORS}: scored links", f"{ANCESTORS}: language hints",
    f"{ANCESTORS}: chooser labels",
)  # fmt: skip
"""What decided a verdict: the languages of pages behind links scoring >= the minimum
likelihood; of pages behind links naming a language (``language_hints``); a language chooser's
labels, one proven by its page (``chooser_labels``); the first page's failure; the Link
Predictor alone; the fallback ladder (:mod:`bilingual_spider.detection.ladder`): the page's URL
with another language's unit, or an ancestor page judged by the first three rules."""
SECOND_LOOK = "second look"
"""The ``via`` of a probe asked because the page behind a link naming its language showed
another (``second_look``): it counts as a probe of the page's links."""
OTHER_SITE = "other site"
"""The ``via`` of a probe of a link of the first page naming another language on another site
(``other_sites``): its page counts only when it links back to the first page's site naming the
first page's language."""
HOST_RULES = ("host", "domain", "related")
SKIPPED_EXTENSIONS = frozenset(
    {
        "jpg", "jpeg", "png", "gif", "svg", "webp", "ico", "bmp", "tif", "tiff", "css", "js",
        "json", "xml", "rss", "atom", "pdf", "ps", "doc", "docx", "xls", "xlsx", "ppt", "pptx",
        "odt", "ods", "zip", "gz", "tgz", "bz2", "xz", "tar", "7z", "rar", "deb", "rpm", "exe",
        "msi", "dmg", "iso", "apk", "mp3", "mp4", "m4a", "ogg", "oga", "ogv", "wav", "flac",
        "avi", "mov", "mkv", "webm", "woff", "woff2", "ttf", "otf", "eot",
    }
)  # fmt: skip
"""Links to files with these extensions are never probed: no page to identify."""
DENSE_SCRIPT_WEIGHTS = {"zh": 2.5, "yue": 2.5, "ja": 2.0, "ko": 2.0}
"""In ``min_text_chars``, a character of these languages counts as this many: the English page
of a translated pair has this many times the characters of the Chinese, Japanese or Korean one
(medians measured on gold pairs: real sites zh 2.1-2.4, ja 1.9, ko 2.2; generated web zh 3.0-3.4,
ja 1.9)."""
APART_PROSE_CHARS = 4_000
"""The prose of a page kept for :func:`read_apart`: enough to tell a copy from a translation."""
MIN_APART_SHARE = 0.05
"""A page read in its neighbour's language counts for the language its link named only when
the identifier reads at least this share of it in that language (the fourth held-out set's
Walloon home: French 0.83, Walloon 0.17; its Scots home: English 0.94, Scots 0.06)."""


@dataclass(frozen=True)
class DetectorConfig:
    """The knobs of the detector (the Scrapy settings ``BILINGUAL_DETECTOR_*``).

    Parameters
    ----------
    langs:
        The languages of interest (project codes, ``zh`` matches both Chinese scripts); the site is
        bilingual when two of them appear. Empty: any two languages (``--langs any``).
    min_likelihood:
        Links scoring at least this are candidates (the paper's minimum likelihood; its crawl
        used 0.8).
    max_probes:
        At most this many candidate pages are downloaded per site; None: all of them.
    probe_batch:
        At most this many probes of one site are in flight at once.
    min_text_chars, min_share:
        A page counts for its main language when that language covers at least ``min_share`` of
        its judged main text and ``min_text_chars`` characters.
    hosts:
        Which links may be probed: ``host`` (same host), ``domain`` (same registered domain) or
        ``related`` (also the same name under another public suffix).
    mode:
        ``detector`` (both steps) or ``link_predictor`` (step 1 alone, one page per site).
    language_hints:
        When the links scoring at least ``min_likelihood`` are used up (or there are none) and
        the verdict is still open, probe the links that *name* another language
        (:func:`link_language_hint`: ``hreflang``, a language's name or code, a flag), best
        score first, within ``max_probes``: one low score cannot starve the detector. Such a
        page counts only when it is in the language its link named (a link whose anchor
        happens to be ``Kikuyu`` on a site of pages in mixed languages proves nothing), and
        the first that is not ends the language-hint probes (the site's language names are no
        switcher).
    chooser_labels, chooser_max_chars:
        A first page that counts for no language and has fewer than ``chooser_max_chars``
        characters of text is a *language chooser*, judged by the pages its links lead to.
        With ``chooser_labels``, once a probe behind a link naming a language other than
        English shows that very language, the chooser's links naming other languages are taken
        at their word: it named two languages of interest and one of them proved true.
    ladder, ladder_siblings, ladder_ancestors:
        When the first page says nothing (nothing to probe, or no probe counted for a language),
        climb the fallback ladder (:mod:`bilingual_spider.detection.ladder`) within
        ``max_probes``: at most ``ladder_siblings`` URLs made by substituting the page's language
        unit, and at most ``ladder_ancestors`` pages above it that answered (a chooser or a home
        page; one that failed is skipped), each judged as a first page. Off: the paper's
        single-page detector.
    second_look:
        When a probe behind a link naming a language shows another one, probe one more page of
        that language (within ``max_probes``) before calling it absent.
    other_sites:
        When nothing else is left to probe, the first page's links naming another language of
        interest on another site (``hosts="related"`` only: a toggle from
        ``www.parks-NAME.ca`` to ``www.parcs-NAME.ca``) are probed, each counting only when its
        page links back to the first page's site naming the first page's language.
    """

    langs: tuple[str, ...] = ()
    min_likelihood: float = 0.8
    max_probes: int | None = 5
    probe_batch: int = 2
    min_text_chars: int = 100
    min_share: float = 0.6
    hosts: str = "related"
    mode: str = "detector"
    language_hints: bool = True
    chooser_labels: bool = True
    chooser_max_chars: int = 400
    ladder: bool = True
    ladder_siblings: int = 1
    ladder_ancestors: int = 2
    second_look: bool = True
    other_sites: bool = True

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_likelihood <= 1.0:
            raise ValueError(f"min_likelihood must be in [0, 1], not {self.min_likelihood}")
        if self.max_probes is not None and self.max_probes < 0:
            raise ValueError("max_probes must be >= 0 (or None: no limit)")
        if self.probe_batch < 1:
            raise ValueError("probe_batch must be >= 1")
        if not 0.0 < self.min_share <= 1.0:
            raise ValueError("min_share must be in (0, 1]")
        if self.hosts not in HOST_RULES:
            raise ValueError(f"hosts must be one of {', '.join(HOST_RULES)}, not {self.hosts!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if len(self.langs) == 1:
            raise ValueError("give two languages of interest or more (or none: any two)")
        if self.chooser_max_chars < 0:
            raise ValueError("chooser_max_chars must be >= 0")
        if self.ladder_siblings < 0 or self.ladder_ancestors < 0:
            raise ValueError("ladder_siblings and ladder_ancestors must be >= 0")


def parse_langs(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """``"en,es"`` -> ``("en", "es")``; ``"any"``, ``""`` or None -> ``()`` (any two languages).

    >>> parse_langs("EN, es"), parse_langs("any"), parse_langs("zh_TW,en")
    (('en', 'es'), (), ('zh-Hant', 'en'))
    """
    if text is None:
        return ()
    items = text.split(",") if isinstance(text, str) else list(text)
    items = [item.strip() for item in items if item.strip()]
    if [item.lower() for item in items] in ([], ["any"]):
        return ()
    langs: list[str] = []
    for item in items:
        code = normalize_language_code(item)
        if code is None or not names_a_language(code):
            raise ValueError(
                f"not a language code: {item!r} (a BCP 47 code of a language: e.g. en,es, "
                "zh-Hant,om, or any)"
            )
        if code not in langs:
            langs.append(code)
    if len(langs) < 2:
        raise ValueError(f"need two languages of interest or more, or 'any' (got {text!r})")
    return tuple(langs)


@dataclass(frozen=True)
class LinkScore:
    """A link of the first page with its Link Predictor score."""

    url: str
    score: float
    hint: str = ""
    """The language the link names (``hreflang``, ``Español``, ``/es/``, ``?lang=fr``); "" when
    none (see :func:`link_language_hint`)."""
    via: str = ""
    """"" for a link of a page; the ladder's rung that made the URL (``url siblings``,
    ``ancestors``)."""
    languages_page: bool = False
    """The link's label says it leads to the site's languages (``Translations``, ``🌐``:
    :func:`~bilingual_spider.links.features.leads_to_languages`)."""


@dataclass(frozen=True)
class ProbeResult:
    """One page the detector looked at: the site's first page or a probe."""

    url: str
    score: float | None
    """The link's Link Predictor score; None for the first page."""
    ok: bool
    reason: str = ""
    """Why the page failed (``HTTP 404``, ``timeout``, ``redirected off-site to ...``)."""
    final_url: str = ""
    """Where the request ended after redirects (when it differs from ``url``)."""
    lang: str = "und"
    """The main-text language (``und``: none could be told)."""
    shares: Mapping[str, float] = field(default_factory=dict)
    """Each language's share of the judged main text."""
    text_chars: int = 0
    """Characters of main text judged."""
    counted: str = ""
    """The language this page counts for in the verdict; "" when none (too little text, mixed
    languages, failed)."""
    hint: str = ""
    """The language the link to this probe named ("" for the first page, or a link naming
    none)."""
    via: str = ""
    """"" for the first page and the probes of a page's links; else the ladder's rung."""
    prose: str = field(default="", repr=False)
    """The start of the page's prose (its blocks joined by ``BLOCK_SEPARATOR``, at most
    :data:`APART_PROSE_CHARS`), kept while the site is under way: a page read in the first
    page's language behind a link naming another may be that language (:func:`read_apart`).
    A verdict's evidence carries none."""
    declared: str = field(default="", repr=False)
    """The language the page's URL, else its ``<html lang>``, declares ("" none:
    ``crawl_round.declared_language``), for :func:`read_apart`."""

    def to_dict(self) -> dict[str, Any]:
        """The page as plain values, without its prose and declaration (kept for
        :func:`read_apart` only)."""
        record = asdict(self)
        del record["prose"], record["declared"]
        return record


@dataclass(frozen=True)
class SiteVerdict:
    """The detector's answer for one site, with its evidence and its cost."""

    site: str
    url: str
    """The first page."""
    bilingual: bool
    languages: tuple[str, ...]
    """Languages found with enough text, in the order the pages showed them."""
    reason: str
    pages_downloaded: int
    """First page + probes requested (a failed probe costs a request too)."""
    rule: str
    """Which rule decided (:data:`RULES`)."""
    evidence: tuple[ProbeResult, ...]
    """The first page, then the probes in the order they were answered."""
    best_score: float | None
    """The best score of a probe-able link of the first page; None when it had none."""
    links: int
    """Probe-able links of the first page (same site, web pages)."""
    candidates: int
    """Those scoring at least the minimum likelihood."""
    mode: str
    min_likelihood: float
    langs: tuple[str, ...]

    @property
    def status(self) -> str:
        """``bilingual``, ``not_bilingual``, or ``not_judged``: its first page could not be read
        (refused, failed, not a page), so nothing was learnt of its languages."""
        if self.bilingual:
            return "bilingual"
        return "not_judged" if self.rule == "first page" else "not_bilingual"

    def describe(self) -> str:
        """One line: ``bilingual (en, fr)``, ``not bilingual in en, es (found en, fr, de)``,
        ``not judged: first page failed: ...``."""
        found = ", ".join(self.languages) or "none"
        asked = ", ".join(self.langs) if self.langs else "any two languages"
        if self.status == "bilingual":
            return f"bilingual ({found}; asked {asked})"
        if self.status == "not_judged":
            return f"not judged: {self.reason}"
        return f"not bilingual in {asked} (found {found}): {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """The verdict as plain dicts, tuples and numbers (``json.dumps`` takes it)."""
        evidence = [page.to_dict() for page in self.evidence]
        return {**asdict(self), "evidence": evidence, "status": self.status}


@dataclass(frozen=True)
class DetectionState:
    """A site under detection, between probe answers (kept by a
    :class:`~bilingual_spider.detection.store.SiteStore`)."""

    site: str
    url: str
    start: ProbeResult
    queue: tuple[LinkScore, ...]
    """Candidates not probed yet."""
    pending: tuple[LinkScore, ...]
    """Probes requested, not answered yet."""
    results: tuple[ProbeResult, ...] = ()
    links: int = 0
    candidates: int = 0
    best_score: float | None = None
    probes_requested: int = 0
    hinted: tuple[LinkScore, ...] = ()
    """Links below the minimum likelihood that name another language, probed once ``queue`` is
    used up (``language_hints``)."""
    named: tuple[str, ...] = ()
    """The languages the first page's probe-able links name, in page order."""
    hints_used: bool = False
    """Whether ``hinted`` was moved into the queue."""
    base: ProbeResult | None = None
    """The page whose links are queued when it is not the first page (an ancestor)."""
    rung: str = ""
    """The ladder's rung under way ("" the first page's)."""
    rung_start: int = 0
    """Results before this index belong to earlier rungs."""
    siblings_tried: int = 0
    ancestors_tried: int = 0
    ancestors_missing: int = 0
    """Ancestor pages that failed (``HTTP 404``): skipped, they count against the probe budget
    only."""
    linked_ancestors: tuple[str, ...] = ()
    """The pages above the first page that it links (they exist: asked first)."""
    codes: tuple[str, ...] = ()
    """The language units the site's URLs write (``en-US``, ``pt_BR``): the forms of the URL
    siblings (:func:`~bilingual_spider.detection.ladder.site_codes`)."""
    second_looks: tuple[str, ...] = ()
    """The languages a second page was asked of (``second_look``), once each."""
    switcher_read: bool = False
    """Whether a probe's own switcher was read (:meth:`BilingualSiteDetector.record`), once a
    site."""
    elsewhere: tuple[LinkScore, ...] = ()
    """The first page's links naming another language of interest on another site, asked
    last (``other_sites``)."""
    start_section: str = ""
    """The language an ancestor's switcher names the first page's section in
    (:func:`~bilingual_spider.patterns.crawl_round.named_above`: ``/gag/``, "Gagauzça", above
    a Gagauz page lid.176 reads as Turkish), or "": none named."""
    climb: bool = True
    """Whether this site may climb the ladder (a crawl may judge some pages' sites from the page
    alone: a backlink page fetched for its links)."""
    start_below: LinkScore | None = None
    """One page down from a first page too thin to count (a chooser, an index of headings):
    its second look at its own language, asked last (:meth:`BilingualSiteDetector._advance`)."""
    languages_pages: tuple[str, ...] = ()
    """The pages the first page links as its site's languages (``Translations``): climbed to
    before the pages above it, each judged as a first page (a home whose links name no
    language, its translations listed one page down)."""

    @property
    def site_languages(self) -> tuple[str, ...]:
        """The languages the first page shows: its own and those its links name. A probe's
        page read as another, however sure the identifier is, may be a stand-in for the
        language its link or URL declares (lid.176 reads Faroese as Icelandic on a site that
        names English, Faroese and Sami: the ``offered`` of
        :func:`~bilingual_spider.language.declared_language.resolve_language`)."""
        own = (self.start.lang,) if self.start.lang not in ("", "und") else ()
        if self.start_section:  # the language its section is named in overrules its reading
            own = (self.start_section,)
        return tuple(dict.fromkeys((*own, *self.named)))


@dataclass(frozen=True)
class Step:
    """What the detector wants next: probes to fetch, or the verdict (then ``state`` is None)."""

    state: DetectionState | None
    probes: tuple[LinkScore, ...] = ()
    verdict: SiteVerdict | None = None


class PageLanguageLike(Protocol):
    """What :func:`bilingual_spider.language.page_language.page_language` returns."""

    lang: str
    shares: dict[str, float]
    undetermined: bool
    chars: int


class Predictor(Protocol):
    def predict_proba(self, contexts: list[Any]) -> Any: ...


# --- step 1: the links and their scores -------------------------------------------------------


def score_links(contexts: Sequence[Any], predictor: Predictor) -> list[LinkScore]:
    """Score link contexts (``LinkContext``) with the Link Predictor: column 1 of
    ``predict_proba``, the likelihood that the link leads to the same content in another
    language."""
    if not contexts:
        return []
    probabilities = predictor.predict_proba(list(contexts))
    return [
        LinkScore(
            context.url,
            float(row[1]),
            context_hint(context),
            languages_page=leads_to_languages(context.anchor, context.img_alt, context.title),
        )
        for context, row in zip(contexts, probabilities, strict=True)
    ]


def context_hint(context: Any) -> str:
    """:func:`link_language_hint` of a ``LinkContext``."""
    return link_language_hint(
        context.url,
        context.hreflang,
        context.anchor,
        context.img_alt,
        context.img_src,
        context.lang,
        context.page_lang,
    )


_URL_TOKEN = re.compile(r"[/._?=&+]")


def link_language_hint(
    url: str,
    hreflang: str = "",
    anchor: str = "",
    img_alt: str = "",
    img_src: str = "",
    lang: str = "",
    page_lang: str = "",
) -> str:
    """The language a link names: its ``hreflang``, else its anchor text or image alt text when
    that (or a part of it between brackets, slashes or bars: ``français (fr)``) is a language's
    name or code (``Español``, ``EN``), else the ``lang`` its label is written in
    (:func:`~bilingual_spider.links.features.labelled_language`), else a language parameter's
    value (``?lang=yua``) or a language code as its host's first label (``es.example.com``,
    any language's two-letter code: :func:`~bilingual_spider.patterns.units.host_language`;
    not the country whose region the link's or its page's ``lang`` names: ``uk.example.com``
    from a page in ``en-GB`` is the United Kingdom's), else a flag image's name
    (``flags/fr.png``; a flag is a country's: ``flags/ch.gif`` on a link to ``ch.example.org``
    is Chamorro's, not Swiss German's), else a language code among its path and query tokens;
    "" when there is none. A file name's stem is no marker, nor an anchor that only repeats it
    (``<a href="os.html">OS</a>``, ``id.html``: modules; of the 3,248 URLs of WMT16's gold
    pairs, none has a language code or name as its whole file stem).

    >>> link_language_hint("http://x.org/es/index.html"), link_language_hint("http://x/?lang=zh-tw")
    ('es', 'zh-Hant')
    >>> link_language_hint("http://x.org/p.html", anchor="Français"), link_language_hint("http://x/faq")
    ('fr', '')
    >>> link_language_hint("http://x/p", anchor="Deutsch (de)")
    'de'
    >>> link_language_hint("http://x/p", img_src="/img/flags/jp.gif")
    'ja'
    >>> link_language_hint("http://x/index.php?lang=yua"), link_language_hint("http://x/yua/")
    ('yua', '')
    """
    parts = urlsplit(url)
    name = parts.path.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0].lower() if "." in name else ""
    if stem and anchor.strip().lower() == stem and not (hreflang or img_alt or img_src):
        anchor = ""  # <a href="os.html">OS</a>: a page named like its anchor, not a switcher
    if code := labelled_language(hreflang, anchor, img_alt, lang=lang) or host_code_label(
        anchor, url
    ):
        return code
    for parameter, value in parse_qsl(parts.query):  # lang=yua: any language's code
        if LANGUAGE_PARAMETER.fullmatch(parameter) and (code := language_of_unit(f"lang={value}")):
            return code
    # ch.example.org: any language's code; not uk.example.com linked as en-GB (a country's)
    if code := url_host_language(url, lang or page_lang):
        return code
    if code := labelled_language(img_src=img_src):  # a flag names a country (ch: Swiss German)
        return code
    for token in _URL_TOKEN.split(f"{parts.path}?{parts.query}".lower()):
        if token and token != stem and (code := language_of_code(token)):
            return code
    return ""


def same_site(page_url: str, link_url: str, rule: str = "related") -> bool:
    """May a link of ``page_url`` lead to a translation of it? ``host``: the same host;
    ``domain``: also any host of the same registered domain; ``related``: also the same name
    under another public suffix (``www.example.com`` -> ``www.example.es``), or with a language's
    code joined to it (``www.example-fr.org``). Suffixes are the Public Suffix List's, private
    ones included: ``a.github.io`` and ``b.github.io`` are two sites.

    >>> same_site("http://ex.com/", "http://es.ex.com/"), same_site("http://ex.com/", "http://ex.es")
    (True, True)
    >>> same_site("http://ex.com/", "http://ex2.com/"), same_site("ex.com", "es.ex.com", "host")
    (False, False)
    >>> same_site("http://ex.org/", "http://ex-fr.org/"), same_site("ex.org", "ex-fr.org", "domain")
    (True, False)
    """
    a, b = host_of(page_url), host_of(link_url)
    if not a or not b:
        return False
    if a == b or rule == "host":
        return a == b
    name_a, suffix_a = domain_parts(a, private_domains=True)
    name_b, suffix_b = domain_parts(b, private_domains=True)
    if not name_a or not name_b:
        return False
    if name_a == name_b:
        return suffix_a == suffix_b or rule == "related"
    return rule == "related" and _language_joined(name_a, name_b)


def _language_joined(a: str, b: str) -> bool:
    """Whether one domain name is the other with a language's two-letter code joined to it by a
    hyphen (``example-fr``, ``fr-example``)."""
    short, long = sorted((a, b), key=len)
    if long == f"{short}-{long[-2:]}":
        return bool(language_of_code(long[-2:]))
    if long == f"{long[:2]}-{short}":
        return bool(language_of_code(long[:2]))
    return False


def probe_able(page_url: str, link_url: str, rule: str = "related") -> bool:
    """A web page of the same site (:func:`same_site`), other than the page itself."""
    return probe_able_from((page_url,), link_url, rule)


def probe_able_from(page_urls: Sequence[str], link_url: str, rule: str = "related") -> bool:
    """:func:`probe_able` from any of a page's URLs (the one asked for, the one redirected to)."""
    if not _web_page(link_url):
        return False
    link = _without_fragment(link_url)
    return any(
        link != _without_fragment(page_url) and same_site(page_url, link_url, rule)
        for page_url in page_urls
    )


@lru_cache(maxsize=4096)
def _web_page(url: str) -> bool:
    """An http(s) URL not of a file :data:`SKIPPED_EXTENSIONS` names."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return False
    name = parts.path.rsplit("/", 1)[-1]
    return not ("." in name and name.rpartition(".")[2].lower() in SKIPPED_EXTENSIONS)


def _without_fragment(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", parts.query, ""))


def probe_able_links(
    page_url: str | Sequence[str], links: Iterable[LinkScore], config: DetectorConfig
) -> dict[str, LinkScore]:
    """The probe-able links of a page, one per URL (fragments dropped, best score kept, a hint
    kept from any of its links), in page order. ``page_url`` may list the page's URLs (the one
    asked for, and the one reached after redirects): a link counts when it is probe-able from one
    of them and is none of them."""
    page_urls = [page_url] if isinstance(page_url, str) else list(dict.fromkeys(page_url))
    itself = {_without_fragment(url) for url in page_urls}
    own = link_language_hint(page_urls[0]) if config.ladder else ""
    best: dict[str, LinkScore] = {}
    for link in links:
        url = _without_fragment(link.url)
        if url in itself or not probe_able_from(page_urls, link.url, config.hosts):
            continue
        if own and link.hint and matches(link.hint, own):  # /ja/a.html -> /ja/b.html: within
            continue  # the page's own language section, no translation of it
        known = best.get(url)
        score = link.score if math.isfinite(link.score) else 0.0
        if known is None or score > known.score:
            best[url] = LinkScore(url, score, link.hint or (known.hint if known else ""))
        elif not known.hint and link.hint:
            best[url] = replace(known, hint=link.hint)
    return best


def candidate_links(
    page_url: str | Sequence[str], links: Iterable[LinkScore], config: DetectorConfig
) -> tuple[list[LinkScore], int, float | None]:
    """The probe-able links (:func:`probe_able_links`) scoring at least the minimum likelihood,
    best first, with the number of probe-able links and their best score."""
    best = probe_able_links(page_url, links, config)
    top = max((link.score for link in best.values()), default=None)
    return _at_least(best.values(), config.min_likelihood), len(best), top


def _at_least(links: Iterable[LinkScore], minimum: float) -> list[LinkScore]:
    chosen = [link for link in links if link.score >= minimum]
    chosen.sort(key=lambda link: -link.score)  # stable: page order among equal scores
    return chosen


def hinted_links(
    links: Iterable[LinkScore], config: DetectorConfig, own: str = ""
) -> list[LinkScore]:
    """The links scoring under the minimum likelihood that name a language other than ``own``
    (the first page's), best first: the second tier of probes (``language_hints``)."""
    chosen = [
        link
        for link in links
        if link.score < config.min_likelihood
        and link.hint
        and not (own and (matches(link.hint, own) or matches(own, link.hint)))
    ]
    chosen.sort(key=lambda link: -link.score)
    return chosen


def named_languages(links: Iterable[LinkScore]) -> tuple[str, ...]:
    """The languages links name, once each, in page order."""
    return tuple(dict.fromkeys(link.hint for link in links if link.hint))


# --- step 2: language of the pages and the decision ----------------------------------------


def counted_language(shares: Mapping[str, float], chars: int, config: DetectorConfig) -> str:
    """The language a page counts for, or "" (too little text, or no language dominates).

    Shares and characters of Chinese, Japanese and Korean are weighted by
    :data:`DENSE_SCRIPT_WEIGHTS`, so that a Japanese page quoting English commands is judged by
    how much it says in each language rather than by how many characters each takes.

    >>> config = DetectorConfig(min_text_chars=100, min_share=0.6)
    >>> counted_language({"ja": 0.45, "en": 0.55}, 1000, config)
    'ja'
    >>> counted_language({"en": 1}, 80, config), counted_language({"fr": .5, "es": .5}, 900, config)
    ('', '')
    """
    weighted = {code: share * _density(code) for code, share in shares.items() if code != "und"}
    total = sum(weighted.values())
    if chars <= 0 or total <= 0:
        return ""
    lang = max(weighted, key=lambda code: weighted[code])
    if weighted[lang] / total < config.min_share or weighted[lang] * chars < config.min_text_chars:
        return ""
    return lang


def _density(lang: str) -> float:
    return DENSE_SCRIPT_WEIGHTS.get(base_language(lang), 1.0)


def matches(found: str, wanted: str) -> bool:
    """Does a language found on a page satisfy a language of interest? ``zh`` takes both scripts;
    ``pt`` takes ``pt-BR``."""
    return found == wanted or base_language(found) == wanted


def names_its_language(page: ProbeResult, found: Sequence[str] = ()) -> bool:
    """Is the page in the language its link named (``pt-BR`` and ``pt`` are one language), or
    in a language not ``found`` yet that its own URL names (``/ko/x.html`` in Korean, linked as
    ``Czech (US)``: the site's section for it, issue 50), or did the link name none, or does
    the page count for none?"""
    if not (page.hint and page.counted):
        return True
    if base_language(page.hint) == base_language(page.counted):
        return True
    named = path_language(page.final_url or page.url)
    new = not any(base_language(f) == base_language(page.counted) for f in found)
    return new and bool(named) and base_language(named) == base_language(page.counted)


def read_apart(start: ProbeResult, page: ProbeResult, langs: Sequence[str] = ()) -> bool:
    """Is ``page``, behind a link of the first page (``start``) naming a language of interest
    (``langs``; any when empty), in that language, though read in the first page's? A regional
    language is read as its national neighbour (Walloon as French, Scots as English), as an
    untranslated fallback is; the fallback copies the first page's prose, the translation
    next to none of it (:data:`~bilingual_spider.patterns.crawl_round.MAX_APART_COPIED_SHARE`,
    as PupSniffer's ``versions_apart`` tells them apart). The page must declare the named
    language itself, by its URL or its ``<html lang>`` (a menu's "Filipino (Dvorak Baybayin)"
    names a keyboard, its page declares English), be written in that language's script, and
    the identifier must read at least :data:`MIN_APART_SHARE` of it in that language."""
    hint, read = page.hint, page.counted
    if not (hint and read and start.counted and start.prose and page.prose):
        return False
    if not _same_language(page.declared, hint):
        return False
    if _same_language(hint, read) or not _same_language(read, start.counted):
        return False
    if langs and not any(_same_language(hint, lang) for lang in langs):
        return False
    share = sum(s for code, s in page.shares.items() if _same_language(code, hint))
    if share < MIN_APART_SHARE or script_of(page.prose) != language_script(hint):
        return False
    copied = mutual_copied_share(prose_blocks(start.prose), prose_blocks(page.prose))
    return copied <= MAX_APART_COPIED_SHARE


def languages_found(pages: Iterable[ProbeResult]) -> list[str]:
    """The languages the pages count for, in order of first appearance."""
    found: list[str] = []
    for page in pages:
        if page.ok and page.counted and page.counted not in found:
            found.append(page.counted)
    return found


def interesting(found: Sequence[str], langs: Sequence[str]) -> list[str]:
    """The languages of interest among ``found`` (every found language when ``langs`` is empty)."""
    if not langs:
        return list(found)
    return [wanted for wanted in langs if any(matches(f, wanted) for f in found)]


def decide(pages: Sequence[ProbeResult], langs: Sequence[str]) -> tuple[bool, list[str]]:
    """Bilingual when two languages of interest (any two when ``langs`` is empty) each have a page
    of their own; returns the verdict and the languages found."""
    found = languages_found(pages)
    return len(interesting(found, langs)) >= 2, found


# --- the detector ------------------------------------------------------------------------


class BilingualSiteDetector:
    """The BS Detector as a state machine: :meth:`begin` with the first page and its scored
    links, then :meth:`record` each probe's outcome until a :class:`Step` carries the verdict.

    Parameters
    ----------
    config:
        See :class:`DetectorConfig`.
    """

    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()

    def page(
        self,
        url: str,
        language: PageLanguageLike | None,
        score: float | None = None,
        final_url: str = "",
        prose: str = "",
        declared: str = "",
    ) -> ProbeResult:
        """A page that was fetched, with its language (None: not identified, as in
        ``link_predictor`` mode), its ``prose`` (blocks joined by ``BLOCK_SEPARATOR``) and the
        language its URL or ``<html lang>`` ``declared``."""
        final = final_url if final_url and final_url != url else ""
        if language is None:
            return ProbeResult(url, score, True, final_url=final)
        lang = "und" if language.undetermined else str(language.lang)
        shares = {str(code): float(share) for code, share in language.shares.items()}
        return ProbeResult(
            url,
            score,
            True,
            final_url=final,
            lang=lang,
            shares=shares,
            text_chars=language.chars,
            counted=""
            if language.undetermined
            else counted_language(shares, language.chars, self.config),
            prose=prose[:APART_PROSE_CHARS],
            declared=declared,
        )

    @staticmethod
    def failed(
        url: str, reason: str, score: float | None = None, final_url: str = ""
    ) -> ProbeResult:
        """A page that could not be used, and why."""
        final = final_url if final_url and final_url != url else ""
        return ProbeResult(url, score, False, reason=reason, final_url=final)

    def begin(
        self, site: str, start: ProbeResult, links: Iterable[LinkScore], climb: bool = True
    ) -> Step:
        """Start detecting ``site`` from its first page (``start``) and that page's scored links;
        ``climb=False``: no fallback ladder for this site."""
        if not start.ok:
            reason = f"first page failed: {start.reason}"
            return Step(None, verdict=self._verdict(site, start, (), reason, 1, rule="first page"))
        page_urls = [start.url, start.final_url] if start.final_url else [start.url]
        links = list(links)
        probe_able = probe_able_links(page_urls, links, self.config)
        candidates = _at_least(probe_able.values(), self.config.min_likelihood)
        state = DetectionState(
            site,
            start.url,
            start,
            tuple(candidates),
            (),
            (),
            len(probe_able),
            len(candidates),
            max((link.score for link in probe_able.values()), default=None),
            hinted=tuple(hinted_links(probe_able.values(), self.config, start.counted)),
            named=named_languages(probe_able.values()),
            elsewhere=tuple(self._elsewhere(page_urls, links, start.counted)),
            codes=_site_codes(page_urls, links) if climb else (),
            linked_ancestors=_linked_ancestors(start, links) if climb else (),
            languages_pages=_languages_pages(page_urls, links, self.config) if climb else (),
            climb=climb,
            start_below=self._page_below(page_urls, links, set(page_urls), start.lang)
            if self.is_chooser(start) and self.config.mode == "detector"
            else None,
        )
        if self.config.mode == "link_predictor":
            return Step(None, verdict=self._link_predictor_verdict(state))
        return self._advance(state)

    def record(
        self,
        state: DetectionState,
        result: ProbeResult,
        links: Iterable[LinkScore] | None = None,
    ) -> Step:
        """A probe answered (or failed): the next probes, or the verdict. ``links``: the scored
        links of the probe's page when :meth:`wants_links` says so (an ancestor page of the
        ladder, the pages it may probe; a page that showed another language than its link
        named, where a second page of that language may be found)."""
        probe = self._pending(state, result)
        pending = tuple(p for p in state.pending if p is not probe)
        result = replace(result, hint=probe.hint, via=probe.via)
        if probe.via == ANCESTORS:
            if not result.ok:  # skipped: the next ancestor is asked (issue 50)
                state = replace(state, ancestors_missing=state.ancestors_missing + 1)
            if result.counted:  # a chooser or a home page, judged by the pages it leads to
                reason = f"an ancestor page ({result.counted}): not counted"
                result = replace(result, counted="", reason=reason, lang=result.lang)
            state = replace(state, pending=pending, results=(*state.results, result))
            return self._advance(self._climbed(state, result, links or ()))
        if probe.via == OTHER_SITE and result.counted and not self._links_back(state, links or ()):
            site = host_of(state.start.final_url or state.start.url)
            result = replace(result, counted="", reason=f"no link back to {site}: not counted")
        found = languages_found((state.start, *state.results))
        second = self._second_page(state, probe, result, found, links or ())
        looked_again = probe.via == SECOND_LOOK
        if probe.via == "" and read_apart(state.start, result, self.config.langs):
            named = f"read as {result.counted}, no copy of the first page: {result.hint}"
            result = replace(result, counted=result.hint, reason=f"{named} (versions apart)")
        if (state.hints_used or looked_again) and not names_its_language(result, found):
            # probed only because its link named a language, and the page is in another: words
            # that happen to name languages (a menu's ``Arabic (Buckwalter)``), not a switcher;
            # the page does not count, and no more such links are probed
            named = f"its link named {result.hint}, the page is {result.counted}"
            result = replace(result, counted="", reason=f"{named}: not counted")
            state = replace(state, queue=())
        switcher = self._switcher_due(state, probe, result, found)
        results = (*state.results, replace(result, prose=""))
        state = replace(state, pending=pending, results=results)
        if second is not None:  # one more page of the language before calling it absent
            state = replace(
                state,
                queue=(second, *(link for link in state.queue if link.url != second.url)),
                hinted=tuple(link for link in state.hinted if link.url != second.url),
                second_looks=(*state.second_looks, second.hint),
            )
        elif switcher and links is not None:
            state = self._read_switcher(state, result, links)
        return self._advance(state)

    def _switcher_due(
        self, state: DetectionState, probe: LinkScore, result: ProbeResult, found: Sequence[str]
    ) -> bool:
        """A page's own switcher: the first page's links name no language but the ones found
        (a home that links its English documentation only), and the probe behind its link
        naming a language showed that language; its links naming other languages (its
        switcher, its "Other languages:") are read, once a site, within the budget."""
        if not (self.config.language_hints and self.config.mode == "detector"):
            return False
        if state.switcher_read or probe.via != "" or not probe.hint:
            return False
        if not (result.counted and _same_language(result.counted, probe.hint)):
            return False
        if decide((state.start, *state.results, result), self.config.langs)[0]:
            return False  # bilingual already
        shown = (*found, result.counted)
        waiting = (*state.queue, *state.hinted, *state.pending)
        if any(link.hint and not _names_found(link, shown) for link in waiting if link != probe):
            return False
        budget = self.config.max_probes
        return budget is None or budget - state.probes_requested > 0

    def _read_switcher(
        self, state: DetectionState, result: ProbeResult, links: Iterable[LinkScore]
    ) -> DetectionState:
        """The links of a probe's page naming a language of interest not found yet join the
        queue as links naming a language (:meth:`_switcher_due`)."""
        found = languages_found((state.start, *state.results))
        page_urls = [url for url in (result.url, result.final_url) if url]
        asked = _asked(state) | {_without_fragment(link.url) for link in state.queue}
        links = list(links)
        section = _section_language(state.start, [link for link in links if link.hint])
        named: list[LinkScore] = []
        for link in links:
            url = _without_fragment(link.url)
            if not link.hint or _names_found(link, found):
                continue
            if not interesting([link.hint], self.config.langs):
                continue
            if url in asked:  # the first page's section, read as another language: asked again
                ours = section and _same_language(link.hint, section)
                if ours and _is_above(url, state.start) and section not in state.second_looks:
                    named.append(LinkScore(url, link.score, section, via=SECOND_LOOK))
                continue
            if probe_able_from(page_urls, link.url, self.config.hosts):
                named.append(LinkScore(url, link.score, link.hint))
                asked.add(url)
        looks = tuple(link.hint for link in named if link.via == SECOND_LOOK)
        return replace(
            state,
            queue=(*state.queue, *named),
            switcher_read=True,
            hints_used=state.hints_used or bool(named),
            start_section=section or state.start_section,
            second_looks=(*state.second_looks, *looks),
        )

    def wants_links(self, state: DetectionState, result: ProbeResult) -> bool:
        """Whether :meth:`record` reads the links of this probe's page: an ancestor page of the
        ladder, or a page that showed another language than its link named when no other link
        of that language is queued (its own links may lead to a second page of it)."""
        probe = next((p for p in state.pending if p.url == result.url), None)
        if probe is None:
            return False
        if probe.via in (ANCESTORS, OTHER_SITE):
            return True
        found = languages_found((state.start, *state.results))
        if self._switcher_due(state, probe, result, found):
            return True
        if not self._second_look_due(state, probe, result, found):
            return False
        return self._second_page(state, probe, result, found, ()) is None

    def _elsewhere(
        self, page_urls: Sequence[str], links: Iterable[LinkScore], own: str
    ) -> list[LinkScore]:
        """The first page's links naming another language of interest on another site, one a
        language (:attr:`DetectorConfig.other_sites`)."""
        config = self.config
        if not (config.other_sites and config.hosts == "related" and config.mode == "detector"):
            return []
        chosen: dict[str, LinkScore] = {}
        for link in links:
            lang = link.hint
            if not lang or (own and _same_language(lang, own)) or lang in chosen:
                continue
            if not interesting([lang], config.langs) or not _web_page(link.url):
                continue
            if not any(same_site(url, link.url, config.hosts) for url in page_urls):
                chosen[lang] = LinkScore(_without_fragment(link.url), 0.0, lang, via=OTHER_SITE)
        return list(chosen.values())

    def _links_back(self, state: DetectionState, links: Iterable[LinkScore]) -> bool:
        """Whether a page of another site links back to the first page's site naming the first
        page's language (a toggle's other side: ``English``, ``hreflang="en"``)."""
        start = state.start
        own = start.counted or start.lang
        return any(
            link.hint
            and _same_language(link.hint, own)
            and same_site(start.final_url or start.url, link.url, self.config.hosts)
            for link in links
        )

    @staticmethod
    def _pending(state: DetectionState, result: ProbeResult) -> LinkScore:
        probe = next((p for p in state.pending if p.url == result.url), None)
        if probe is None:
            raise ValueError(f"{result.url} is no pending probe of {state.site}")
        return probe

    # --- a second page of a language ------------------------------------------------------

    def _second_look_due(
        self, state: DetectionState, probe: LinkScore, result: ProbeResult, found: Sequence[str]
    ) -> bool:
        """The page behind a link of the page's (not the ladder's) naming a language X of
        interest showed another language, or none; X was not found, no other page of X is on
        its way, no second page of X was asked yet, and the budget allows one more probe."""
        lang = probe.hint
        if not (self.config.second_look and self.config.mode == "detector"):
            return False
        if not (lang and result.ok and probe.via == ""):
            return False
        known = (result.counted, *found, *state.second_looks)
        if any(_same_language(code, lang) for code in known):
            return False
        if self.config.langs and not any(matches(lang, wanted) for wanted in self.config.langs):
            return False
        others = [p for p in state.pending if p is not probe]
        if any(p.hint and _same_language(p.hint, lang) for p in others):
            return False
        budget = self.config.max_probes
        return budget is None or budget - state.probes_requested > 0

    def _second_page(
        self,
        state: DetectionState,
        probe: LinkScore,
        result: ProbeResult,
        found: Sequence[str],
        links: Iterable[LinkScore],
    ) -> LinkScore | None:
        """The second page of the language ``probe`` named (:meth:`_second_look_due`): another
        link of the page naming it (queued or in the language-hint tier), else a link of the
        probe's own page naming it (``/nn/index.html`` -> ``/nn/apt.html``), by its label or its
        URL (:func:`_leads_to`: a switcher's swapped labels), else, when the
        probe's page has less text than a chooser (``chooser_max_chars``) and counts for no
        language or for one no other page of the site showed (a stand-in's reading of X), its
        first link that names no language and is no page above it, one in its own directory
        first (at opaque URLs, where only the switcher names languages, its table of contents'
        first entry, not a bar's ``/about.html``: an index page of headings, a switcher's labels
        and an untranslated licence has too little prose to show its language); None when
        there is none, or none is due."""
        if not self._second_look_due(state, probe, result, found):
            return None
        lang = probe.hint
        asked = _asked(state) | {_without_fragment(result.final_url or result.url)}
        for link in (*state.queue, *state.hinted):
            if _leads_to(link, lang) and link.url not in asked:
                return replace(link, hint=lang, via=SECOND_LOOK)
        page_urls = [url for url in (result.url, result.final_url) if url]
        links = list(links)
        for link in links:
            url = _without_fragment(link.url)
            if url in asked or not probe_able_from(page_urls, link.url, self.config.hosts):
                continue
            if _leads_to(link, lang):
                return LinkScore(url, link.score, lang, via=SECOND_LOOK)
        # too little prose to count, or a language the site shows nowhere else: X misread?
        unsure = not result.counted or not any(_same_language(result.counted, f) for f in found)
        if unsure and result.text_chars < self.config.chooser_max_chars:
            return self._page_below(page_urls, links, asked, lang)
        return None

    def _page_below(
        self, page_urls: Sequence[str], links: Iterable[LinkScore], asked: set[str], lang: str
    ) -> LinkScore | None:
        """A second look at ``lang`` one page down from a thin index page: its first link that
        names no language and is no page above it, one in its own directory first (a table of
        contents, not the site's bar: ``/about.html``)."""
        above = {_without_fragment(url) for url in ancestor_urls(page_urls[-1])}
        below: list[LinkScore] = []
        for link in links:
            url = _without_fragment(link.url)
            if url in asked or url in above or link.hint:
                continue
            if probe_able_from(page_urls, link.url, self.config.hosts):
                below.append(LinkScore(url, link.score, lang, via=SECOND_LOOK))
        here = _directory(page_urls[-1])
        return next((link for link in below if _directory(link.url) == here), None) or next(
            iter(below), None
        )

    def _home_second_look(self, state: DetectionState, found: Sequence[str]) -> LinkScore | None:
        """The first page's own second look (:attr:`DetectionState.start_below`), due when
        everything else is probed and one language of interest is missing for a bilingual
        verdict: the first page's, which it has too little prose to show (a home that is an
        index of headings, its version chooser naming only the translations)."""
        look, lang = state.start_below, state.start.lang
        if look is None or lang in ("", "und") or not self.config.second_look:
            return None
        if any(_same_language(lang, code) for code in (*found, *state.second_looks)):
            return None
        wanted = interesting([lang], self.config.langs)
        if not wanted or len(interesting(found, self.config.langs)) != 1:
            return None
        return look

    def fail_start(self, site: str, url: str, reason: str) -> SiteVerdict:
        """The verdict for a site whose first page could not be fetched."""
        step = self.begin(site, self.failed(url, reason), ())
        assert step.verdict is not None
        return step.verdict

    def is_chooser(self, page: ProbeResult) -> bool:
        """A page that counts for no language and has little text of its own: a language
        chooser (or a page too thin to tell), judged by the pages its links lead to."""
        return page.ok and not page.counted and page.text_chars < self.config.chooser_max_chars

    def _advance(self, state: DetectionState) -> Step:
        pages = (state.start, *state.results)
        bilingual, found = decide(pages, self.config.langs)
        if bilingual:
            return Step(None, verdict=self._final(state, True, found))
        confirmed = self._chooser_languages(state)
        if confirmed:
            return Step(None, verdict=self._final(state, True, confirmed, chooser=True))
        if state.pending:
            return Step(state)
        if not state.queue and state.hinted and self.config.language_hints:
            state = replace(state, queue=state.hinted, hinted=(), hints_used=True)
        budget = self._probe_budget(state)
        if not state.queue and budget > 0 and self._said_nothing(state):
            step = self._next_rung(state)
            if step is not None:
                return Step(
                    replace(
                        state,
                        pending=(step,),
                        probes_requested=state.probes_requested + 1,
                        rung=step.via,
                        rung_start=len(state.results),
                        siblings_tried=state.siblings_tried + (step.via == URL_SIBLINGS),
                        ancestors_tried=state.ancestors_tried + (step.via == ANCESTORS),
                    ),
                    probes=(step,),
                )
        if not state.queue and budget > 0 and (look := self._home_second_look(state, found)):
            state = replace(
                state,
                queue=(look,),
                start_below=None,
                second_looks=(*state.second_looks, look.hint),
            )
        if not state.queue and budget > 0 and state.elsewhere:
            state = replace(state, queue=state.elsewhere, elsewhere=(), hints_used=True)
        if not state.queue or budget <= 0:
            return Step(None, verdict=self._final(state, False, found))
        missing = max(1, 2 - len(interesting(found, self.config.langs)))
        last: tuple[str, ...] = ()
        if self._trusts_labels(state):
            missing, last = 1, ("en",)  # prove the language a fake translation is not in
        ordered = probe_order(state.queue, found, self.config.langs, last)
        ordered.sort(key=lambda link: link.via != SECOND_LOOK)  # a second look goes first
        if self.config.ladder:  # a link naming a language found already leads to it again
            ordered = [link for link in ordered if not _names_found(link, found)]
            if not ordered:
                return self._advance(replace(state, queue=()))
        batch = tuple(ordered[: min(budget, missing, self.config.probe_batch)])
        rest = tuple(link for link in ordered if link not in batch)
        state = replace(
            state, queue=rest, pending=batch, probes_requested=state.probes_requested + len(batch)
        )
        return Step(state, probes=batch)

    def _trusts_labels(self, state: DetectionState) -> bool:
        """The chooser rule applies: the first page is a chooser naming two languages of
        interest."""
        return (
            self.config.chooser_labels
            and self.is_chooser(state.base or state.start)
            and len(interesting(state.named, self.config.langs)) >= 2
        )

    def _chooser_languages(self, state: DetectionState) -> list[str]:
        """[proven, named]: a probe showed the (non-English) language its chooser link named, and
        the chooser names another language of interest; [] otherwise."""
        if not self._trusts_labels(state):
            return []
        for page in state.results[state.rung_start :]:
            if page.via not in ("", SECOND_LOOK):
                continue
            lang = page.counted
            if not (page.ok and lang and page.hint and base_language(lang) != "en"):
                continue
            if not (matches(lang, page.hint) or matches(page.hint, lang)):
                continue
            if not interesting([lang], self.config.langs):
                continue
            others = [n for n in state.named if not (matches(n, lang) or matches(lang, n))]
            wanted = [n for n in others if interesting([n], self.config.langs)]
            if wanted:
                return [lang, wanted[0]]
        return []

    # --- the fallback ladder ------------------------------------------------------------------

    def _said_nothing(self, state: DetectionState) -> bool:
        """Whether the rung under way gave no evidence: no probe of a page's links counted for a
        language (a URL sibling or an ancestor page proves nothing by itself being there). A
        probe that showed the page's own language did say something: the links the Link
        Predictor or the language names picked lead to that language (links naming a language
        found already are not probed at all)."""
        if not (self.config.ladder and state.climb and self.config.mode == "detector"):
            return False
        if not state.start.ok:
            return False
        return not any(
            r.ok and r.counted and r.via in ("", SECOND_LOOK)
            for r in state.results[state.rung_start :]
        )

    def _next_rung(self, state: DetectionState) -> LinkScore | None:
        """The ladder's next request: a URL sibling or an ancestor page (see
        :mod:`~bilingual_spider.detection.ladder` for the order), one not asked for yet."""
        start = state.start
        url = start.final_url or start.url
        own = start.counted
        marker = _marker_language(url, own)
        asked = {_without_fragment(u) for u in (start.url, start.final_url) if u}
        asked |= {_without_fragment(r.url) for r in state.results}
        asked |= {_without_fragment(r.final_url) for r in state.results if r.final_url}
        english = base_language(own or "en") == "en"
        for rung in (ANCESTORS, URL_SIBLINGS) if english else (URL_SIBLINGS, ANCESTORS):
            if rung == URL_SIBLINGS and state.siblings_tried < self.config.ladder_siblings:
                targets = likely_languages(url, marker, state.named, self.config.langs)
                targets = [t for t in targets if not (own and matches(t, own))]
                for candidate, lang in url_siblings(url, marker, targets, state.codes):
                    if _without_fragment(candidate) not in asked:
                        return LinkScore(candidate, 0.0, lang, via=URL_SIBLINGS)
            if rung == ANCESTORS and self._may_climb(state):
                for candidate in self._ancestors_left(state, url, marker):
                    if _without_fragment(candidate) not in asked:
                        return LinkScore(candidate, 0.0, via=ANCESTORS)
        return None

    def _may_climb(self, state: DetectionState) -> bool:
        """Fewer than ``ladder_ancestors`` ancestor pages answered (those that failed are
        skipped), and the site's home page, the top of the climb, did not answer."""
        answered = state.ancestors_tried - state.ancestors_missing
        home = any(
            r.ok and r.via == ANCESTORS and urlsplit(r.url).path == "/" for r in state.results
        )
        return answered < self.config.ladder_ancestors and not home

    @staticmethod
    def _ancestors_left(state: DetectionState, url: str, marker: str) -> list[str]:
        """The ancestors to ask, in order (:func:`ancestor_urls`), after the pages the first
        page links as its languages (:attr:`DetectionState.languages_pages`); once the home
        page failed, only the first of the climb (the neutral root, the section above, when a
        link to the home page put it first): the others are the page's own language's, and
        failing ones would spend the whole probe budget."""
        ordered = ancestor_urls(url, marker, state.linked_ancestors)
        if not any(r.via == ANCESTORS and urlsplit(r.url).path == "/" for r in state.results):
            return list(dict.fromkeys((*state.languages_pages, *ordered)))
        return ancestor_urls(url, marker)[:1]

    def _climbed(
        self, state: DetectionState, page: ProbeResult, links: Iterable[LinkScore]
    ) -> DetectionState:
        """An ancestor page answered: its links that name a language not found yet become the
        queue (the language-hint tier: such a page counts only in the language its link
        named), best score first; the chooser rule applies to it."""
        if not page.ok:
            return replace(state, queue=(), hinted=(), rung_start=len(state.results))
        links = list(links)
        urls = [page.url, page.final_url] if page.final_url else [page.url]
        asked = {_without_fragment(u) for u in (state.start.url, state.start.final_url) if u}
        asked |= {_without_fragment(r.url) for r in state.results}
        probe_able = {
            url: link
            for url, link in probe_able_links(urls, links, self.config).items()
            if url not in asked
        }
        found = languages_found((state.start, *state.results))
        switcher = [link for link in probe_able.values() if link.hint]
        queue = [link for link in switcher if not _names_found(link, found)]
        queue.sort(key=lambda link: -link.score)
        codes = site_codes([*state.codes, *_site_codes(urls, links)]) if links else state.codes
        return replace(  # a switcher's or a chooser's links name their languages
            state,
            base=page,
            codes=codes,
            queue=tuple(queue),
            hinted=(),
            named=named_languages(switcher),
            start_section=_section_language(state.start, switcher) or state.start_section,
            hints_used=True,
            rung_start=len(state.results),
        )

    def _probe_budget(self, state: DetectionState) -> int:
        if self.config.max_probes is None:
            return len(state.queue)
        return self.config.max_probes - state.probes_requested

    def _final(
        self, state: DetectionState, bilingual: bool, found: list[str], chooser: bool = False
    ) -> SiteVerdict:
        if chooser:
            rule, reason = "chooser labels", _chooser_reason(state, found)
        else:
            rule = "language hints" if state.hints_used else "scored links"
            reason = _reason(state, bilingual, found, self.config)
        if state.rung == URL_SIBLINGS and bilingual:
            rule = URL_SIBLINGS
        elif state.rung == ANCESTORS and bilingual:
            rule = f"{ANCESTORS}: {rule}"
        if state.siblings_tried or state.ancestors_tried:
            reason += (
                f" (ladder: {state.siblings_tried} URL sibling(s), "
                f"{state.ancestors_tried} ancestor page(s)"
                + (f", {state.ancestors_missing} missing" if state.ancestors_missing else "")
                + ")"
            )
        return self._verdict(
            state.site,
            state.start,
            state.results,
            reason,
            1 + state.probes_requested,
            found,
            bilingual,
            state,
            rule,
        )

    def _link_predictor_verdict(self, state: DetectionState) -> SiteVerdict:
        if state.queue:
            top = state.queue[0]
            reason = f"link {top.url} scored {top.score:.2f} >= {self.config.min_likelihood}"
        else:
            reason = _no_candidates(state, self.config)
        return self._verdict(
            state.site, state.start, (), reason, 1, [], bool(state.queue), state, "link predictor"
        )

    def _verdict(
        self,
        site: str,
        start: ProbeResult,
        results: Sequence[ProbeResult],
        reason: str,
        cost: int,
        found: Sequence[str] = (),
        bilingual: bool = False,
        state: DetectionState | None = None,
        rule: str = "scored links",
    ) -> SiteVerdict:
        return SiteVerdict(
            site=site,
            url=start.url,
            bilingual=bilingual,
            languages=tuple(found),
            reason=reason,
            pages_downloaded=cost,
            rule=rule,
            evidence=(replace(start, prose=""), *results),
            best_score=state.best_score if state else None,
            links=state.links if state else 0,
            candidates=state.candidates if state else 0,
            mode=self.config.mode,
            min_likelihood=self.config.min_likelihood,
            langs=self.config.langs,
        )


def _site_codes(page_urls: Sequence[str], links: Iterable[LinkScore]) -> tuple[str, ...]:
    """The language units of the page's URLs and of its links to its own site."""
    same = [link.url for link in links if probe_able_from(page_urls, link.url)]
    return site_codes([*page_urls, *same])


def _languages_pages(
    page_urls: Sequence[str], links: Iterable[LinkScore], config: DetectorConfig
) -> tuple[str, ...]:
    """The probe-able pages the first page links as its site's languages, once each."""
    return tuple(
        dict.fromkeys(
            _without_fragment(link.url)
            for link in links
            if link.languages_page and probe_able_from(page_urls, link.url, config.hosts)
        )
    )


def _linked_ancestors(start: ProbeResult, links: Iterable[LinkScore]) -> tuple[str, ...]:
    """The links of the first page to the pages above it (its home page, a breadcrumb)."""
    url = start.final_url or start.url
    return linked_ancestors(url, _marker_language(url, start.counted), [u.url for u in links])


def _section_language(start: ProbeResult, switcher: Iterable[LinkScore]) -> str:
    """The language the links naming a language (``switcher``) name the first page's section
    in (:func:`~bilingual_spider.patterns.crawl_round.named_above`: ``/gag/``, "Gagauzça"), or
    "": none, or several."""
    sections: dict[str, set[str]] = {}
    for link in switcher:
        sections.setdefault(_without_fragment(link.url), set()).add(link.hint)
    named = named_above(start.final_url or start.url, sections)
    return next(iter(named)) if len(named) == 1 else ""


def _is_above(url: str, start: ProbeResult) -> bool:
    """Whether ``url`` is a directory above the first page."""
    page = start.final_url or start.url
    return url != page and url.endswith("/") and page.startswith(url)


def _marker_language(url: str, own: str) -> str:
    """The language whose unit in ``url`` the ladder substitutes and climbs above: the page's
    own (``own``, the language it counts for) when its URL names it, else the language its URL
    names (:func:`~bilingual_spider.detection.ladder.path_language`: the text told none, or
    another), else ``own``."""
    if own and own_markers(url, own):
        return own
    return path_language(url) or own


def _leads_to(link: LinkScore, lang: str) -> bool:
    """Whether ``link`` names ``lang``, by its label or by its URL's path (a switcher whose
    labels are swapped: ``/sk/`` labelled "Slovenščina")."""
    return _same_language(link.hint, lang) or _same_language(path_language(link.url), lang)


def _same_language(a: str, b: str) -> bool:
    return bool(a and b) and base_language(a) == base_language(b)


def _asked(state: DetectionState) -> set[str]:
    """The site's pages asked for so far (the first page, the probes answered and pending), as
    :func:`_without_fragment` writes them."""
    urls = [state.start.url, state.start.final_url]
    urls += [u for r in state.results for u in (r.url, r.final_url)]
    urls += [p.url for p in state.pending]
    return {_without_fragment(url) for url in urls if url}


def _directory(url: str) -> str:
    """``http://x.org/p/3.html`` -> ``http://x.org/p/``."""
    parts = urlsplit(url)
    return f"{parts.netloc.lower()}{parts.path.rsplit('/', 1)[0]}/"


def _names_found(link: LinkScore, found: Sequence[str]) -> bool:
    return bool(link.hint) and any(matches(link.hint, f) or matches(f, link.hint) for f in found)


def probe_order(
    queue: Sequence[LinkScore],
    found: Sequence[str],
    langs: Sequence[str],
    last: Sequence[str] = (),
) -> list[LinkScore]:
    """Best score first; links hinting at a language still missing go before links without a
    hint (those hinting at a language in ``last`` after the other missing ones), links hinting
    at a language already found (or not of interest) go last."""

    def group(link: LinkScore) -> int:
        if not link.hint:
            return 2
        if any(matches(link.hint, f) or matches(f, link.hint) for f in found):
            return 3
        if langs and not any(matches(link.hint, w) for w in langs):
            return 3
        return 1 if any(matches(link.hint, code) for code in last) else 0

    return sorted(queue, key=lambda link: (group(link), -link.score))


def _no_candidates(state: DetectionState, config: DetectorConfig) -> str:
    if not state.links:
        return "no link to another page of the site"
    return f"no link scored >= {config.min_likelihood} (best {state.best_score:.2f})"


def _chooser_reason(state: DetectionState, found: list[str]) -> str:
    proven, named = found
    chooser = state.base or state.start
    page = next(p for p in state.results if p.counted == proven)
    return (
        f"{proven} at {page.final_url or page.url} (its link named {page.hint}), and the "
        f"language chooser {chooser.final_url or chooser.url} links {named} "
        f"(it names {', '.join(state.named)})"
    )


def _reason(
    state: DetectionState, bilingual: bool, found: list[str], config: DetectorConfig
) -> str:
    pages = (state.start, *state.results)
    if bilingual:
        shown = interesting(found, config.langs)
        where = []
        for lang in shown[:2]:
            page = next(p for p in pages if p.counted and matches(p.counted, lang))
            where.append(f"{page.counted} at {page.final_url or page.url}")
        return " and ".join(where) + _tier(state, config)
    if not state.candidates and not state.hints_used:
        return _no_candidates(state, config)
    failed = [p for p in state.results if not p.ok]
    languages = ", ".join(found) or "no language"
    reason = f"only {languages} in {len(pages) - len(failed)} page(s)"
    if failed:
        reasons = sorted({p.reason for p in failed})
        reason += f"; {len(failed)} probe(s) failed ({'; '.join(reasons)})"
    if state.queue:
        reason += f"; {len(state.queue)} candidate(s) not probed (max_probes {config.max_probes})"
    return reason + _tier(state, config)


def _tier(state: DetectionState, config: DetectorConfig) -> str:
    """How the probes were chosen, when links naming a language were probed too."""
    if not state.hints_used:
        return ""
    if not state.candidates:
        best = f"{state.best_score:.2f}" if state.best_score is not None else "none"
        minimum = config.min_likelihood
        return f" (probed links naming a language: no link scored >= {minimum}, best {best})"
    return (
        f" (probed links naming a language after the {state.candidates} scoring >= "
        f"{config.min_likelihood})"
    )
