"""The generated web: a plan of sites, pages, texts and links with its ground truth.

:func:`plan_world` draws every site and link from ``random.Random(params.seed)`` and the parallel
text of :mod:`bilingual_spider.sandbox.textsource` (a switcher's placement and its chooser's
``hreflang`` from a generator of their own per site, so that they change no other draw);
:mod:`.webgraph_render` turns the plan into URLs and HTML, and :mod:`.webgraph_write` into files,
a sandbox config and a ground truth. No I/O here.

Kinds of site: ``monolingual``, ``bilingual`` (English + one language), ``multilingual`` (English +
two or three), ``hub`` (directories that co-cite sites of a topic and language pair), and
``decoy`` (looks bilingual to a naive detector but offers no parallel pages):

- ``switcher_without_translation``: a language switcher whose links lead nowhere (404);
- ``mostly_untranslated``: "translations" whose text is mostly the English original;
- ``mixed_language``: every page alternates paragraphs in two languages, none has a translation;
- ``monolingual_bilingual_tld``: one language under the TLD of a bilingual country (.ca, .hk, ...).
"""

from __future__ import annotations

import math
import random
import zlib
from collections import defaultdict
from dataclasses import dataclass, field

from bilingual_spider.sandbox.engine_index import stable_hash64
from bilingual_spider.sandbox.textsource import TextSource
from bilingual_spider.sandbox.webgraph_params import (
    BILINGUAL_TLDS,
    GENERIC_TLDS,
    LANGUAGES,
    PAGE_WORDS,
    SECOND_LEVEL,
    TOPICS,
    WorldParams,
)

KINDS = ("monolingual", "bilingual", "multilingual", "hub", "decoy")
TARGET_KINDS = ("bilingual", "multilingual")
"""Sites the crawler should find: they hold parallel pages."""


@dataclass
class Site:
    """One generated site. Page 0 is the home page; ``text[p]`` are the message ids of page p,
    the same in every language the page exists in (so its versions are parallel)."""

    id: int
    name: str
    kind: str
    topic: str
    languages: tuple[str, ...]  # the site's primary language first
    layout: str = "plain"
    url_tokens: str = "code"
    switcher: str = ""
    switcher_placement: str = ""  # SWITCHER_PLACEMENTS; "" (no draw): the header
    chooser_hreflang: bool = False  # the language chooser at "/" (if any) writes hreflang
    decoy: str = ""
    domain: str = ""  # registered domain + suffix, e.g. "sunhotel3k.com.mx"
    hosts: dict[str, str] = field(default_factory=dict)  # language -> host
    slugs: list[str] = field(default_factory=list)
    slugs_by_language: dict[str, list[str]] = field(default_factory=dict)  # layout "unpatterned"
    titles: list[int] = field(default_factory=list)
    text: list[list[int]] = field(default_factory=list)
    translated: dict[str, set[int]] = field(default_factory=dict)  # language -> page indexes
    english_kept: dict[tuple[str, int], set[int]] = field(default_factory=dict)
    """(language, page) -> sentence positions left in English (mostly-untranslated decoys)."""
    second_language: str = ""  # decoys: the language the switcher or the mixed text shows
    primary_at_root: bool = False  # directory layout: primary language without a /xx/ prefix
    marker_shape: str = ""  # MARKER_SHAPES: how a 'filename' or 'parameter' site marks languages
    html_lang: bool = True
    prose: bool = False  # long pages of long paragraphs (``prose_site_share``)
    hreflang: bool = False
    external: list[tuple[int, int]] = field(default_factory=list)  # (page, target site id)
    hub_pages: list[HubPage] = field(default_factory=list)
    broken_links: list[int] = field(default_factory=list)  # pages linking to a gone page

    @property
    def primary(self) -> str:
        return self.languages[0]

    @property
    def is_target(self) -> bool:
        return self.kind in TARGET_KINDS

    @property
    def pair(self) -> str:
        """The language pair a site is about: ``en-es``; a monolingual site: its language."""
        if self.kind == "hub":
            return ""
        others = [lang for lang in self.languages if lang != "en"]
        if self.kind in TARGET_KINDS or self.decoy in (
            "switcher_without_translation",
            "mostly_untranslated",
            "mixed_language",
        ):
            second = others[0] if others else self.second_language
            return f"en-{second}" if "en" in self.languages else f"{self.primary}-{second}"
        return self.primary

    @property
    def language(self) -> str:
        """The language a site is about: a target site's last (its non-English) language, else
        its primary language (as its ccTLD is chosen)."""
        return self.languages[-1] if self.is_target else self.primary

    def pages_in(self, language: str) -> list[int]:
        if language == self.primary:
            return list(range(len(self.slugs)))
        return sorted(self.translated.get(language, ()))


@dataclass
class HubPage:
    """A directory page of a hub site: a topic, a language pair, and the sites it lists."""

    slug: str
    topic: str
    pair: str
    sites: list[int]


@dataclass
class World:
    params: WorldParams
    sites: list[Site]
    text: TextSource
    text_fingerprint: str

    def site_of_host(self) -> dict[str, Site]:
        return {host: site for site in self.sites for host in site.hosts.values()}


def _pick(rng: random.Random, weights: dict[str, float]) -> str:
    keys = sorted(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys])[0]


def _power_law(rng: random.Random, low: int, high: int, exponent: float) -> int:
    """An integer in [low, high] with P(x) ~ x^-exponent (inverse transform of a bounded Pareto)."""
    a = exponent - 1.0
    u = rng.random()
    lo, hi = low ** (-a), (high + 1) ** (-a)
    return min(high, int((lo - u * (lo - hi)) ** (-1.0 / a)))


def chosen_by_hash(key: str, share: float) -> bool:
    """A choice made with probability ``share`` by a hash of ``key``, not by the world's random
    generator: a parameter at 0 draws nothing, so older worlds stay the same."""
    return share > 0 and stable_hash64(key) % 10_000 < share * 10_000


def _stable(text: str) -> int:
    return zlib.crc32(text.encode())


class _TextPools:
    """Message ids with a translation into every language of a site, per topic."""

    def __init__(self, source: TextSource) -> None:
        self.source = source
        self._cache: dict[tuple[frozenset[str], str, str], list[int]] = {}
        catalog_topic = {
            m.catalog: _stable(m.catalog) % len(TOPICS) for m in source.messages
        }  # a catalog's messages all go to one topic: topics get vocabularies of their own
        self._topic_of = [catalog_topic[m.catalog] for m in source.messages]

    def pool(self, languages: frozenset[str], topic: str, what: str) -> list[int]:
        key = (languages, topic, what)
        if key not in self._cache:
            by_lang = self.source.titles if what == "titles" else self.source.sentences
            have = set.intersection(*(set(by_lang[lang]) for lang in languages))
            ordered = sorted(have)
            topic_index = sorted(TOPICS).index(topic) if topic in TOPICS else 0
            topical = [i for i in ordered if self._topic_of[i] == topic_index]
            self._cache[key] = topical if len(topical) >= 60 else ordered
        return self._cache[key]


def plan_world(params: WorldParams, text: TextSource) -> World:
    """Draw a whole world from ``params`` (deterministic for a seed and a text corpus)."""
    text.require(["en", *params.language_weights])
    rng = random.Random(params.seed)
    pools = _TextPools(text)
    kinds = _draw_kinds(rng, params)
    sites = [_plan_site(rng, params, pools, i, kind) for i, kind in enumerate(kinds)]
    urns = _Urns(sites, max(1, math.ceil(params.preferential_attachment)))
    _plan_external_links(rng, params, urns)
    _plan_hubs(rng, params, urns)
    return World(params, sites, text, text.fingerprint())


def _draw_kinds(rng: random.Random, params: WorldParams) -> list[str]:
    n = params.sites
    counts = {
        "bilingual": round(n * params.share_bilingual),
        "multilingual": round(n * params.share_multilingual),
        "hub": max(1, round(n * params.share_hubs)) if n >= 10 else 0,
        "decoy": round(n * params.share_decoys),
    }
    counts["monolingual"] = max(0, n - sum(counts.values()))
    kinds = [kind for kind in KINDS for _ in range(counts[kind])][:n]
    rng.shuffle(kinds)
    return kinds


def _plan_site(
    rng: random.Random, params: WorldParams, pools: _TextPools, site_id: int, kind: str
) -> Site:
    if kind in TARGET_KINDS and params.target_topic_weights:
        topic = _pick(rng, {t: params.target_topic_weights.get(t, 0.0) for t in TOPICS})
    else:
        topic = rng.choice(sorted(TOPICS))
    words = TOPICS[topic]
    stem = rng.choice(words) + rng.choice(("", "s", "plus", "world", "net", "one", "pro"))
    name = f"{stem}{_base36(site_id)}"
    site = Site(site_id, name, kind, topic, ("en",))
    decoy = _pick(rng, params.decoy_weights) if kind == "decoy" else ""
    site.decoy = decoy
    site.languages = _draw_languages(rng, params, kind, decoy)
    if decoy in ("switcher_without_translation", "mostly_untranslated", "mixed_language"):
        site.second_language = _pick(rng, params.language_weights)
        if site.second_language == site.primary:
            site.second_language = "en" if site.primary != "en" else "es"
    multi_page = kind in TARGET_KINDS or decoy in (
        "switcher_without_translation",
        "mostly_untranslated",
    )
    if multi_page:
        site.layout = _pick(rng, params.layout_weights)
        site.switcher = _pick(rng, params.switcher_weights)
        site.url_tokens = _draw_url_tokens(rng, params, site)
        site.primary_at_root = site.layout == "directory" and rng.random() < 0.5
        site.hreflang = kind in TARGET_KINDS and rng.random() < params.share_hreflang
        _draw_switcher_presentation(params, site)
        _draw_marker_shape(params, site)
    site.html_lang = rng.random() < params.share_html_lang
    prose_key = f"prose:{params.seed}:{site_id}"
    site.prose = kind != "hub" and chosen_by_hash(prose_key, params.prose_site_share)
    _assign_domain(rng, site)
    _plan_pages(rng, params, pools, site)
    return site


def _draw_switcher_presentation(params: WorldParams, site: Site) -> None:
    """Where the site's switcher sits and whether its language chooser writes hreflang, drawn
    from a generator of their own (not the world's): every other draw of the world stays the
    same whatever these parameters are."""
    rng = random.Random(f"placement:{params.seed}:{site.id}")
    site.switcher_placement = _pick(rng, params.switcher_placement_weights)
    site.chooser_hreflang = rng.random() < params.share_chooser_hreflang


MARKER_SHAPES = {
    "filename": ("one_sided", "glued_initial", "initial_directory"),
    "parameter": ("numeric", "numeric_one_sided"),
}
"""The URL shapes of issue 31 a site of each layout may take instead of its own (rendered by
``webgraph_render.page_url``). ``glued_initial`` and ``initial_directory`` mark English and
French by their initials (``e``, ``f``): only English-French sites take them."""
INITIAL_LANGUAGES = frozenset({"en", "fr"})


def _draw_marker_shape(params: WorldParams, site: Site) -> None:
    """Whether the site marks its languages in one of :data:`MARKER_SHAPES`, drawn from a
    generator of its own (no other draw of the world changes). An English-French site of the
    'filename' layout takes one three times as often (the initials ``e``/``f`` are Canada's
    convention, and such sites are few)."""
    shapes = MARKER_SHAPES.get(site.layout)
    if site.kind not in TARGET_KINDS or not shapes:
        return
    rng = random.Random(f"shape:{params.seed}:{site.id}")
    initials = set(site.languages) <= INITIAL_LANGUAGES
    share = min(1.0, 3 * params.marker_shape_share) if initials else params.marker_shape_share
    if rng.random() >= share:
        return
    if not initials:
        shapes = tuple(s for s in shapes if s not in ("glued_initial", "initial_directory"))
    site.marker_shape = rng.choice(shapes)


def _draw_languages(
    rng: random.Random, params: WorldParams, kind: str, decoy: str
) -> tuple[str, ...]:
    others = dict(params.language_weights)
    if kind == "bilingual" or decoy == "mostly_untranslated":
        return ("en", _pick(rng, others))
    if kind == "multilingual":
        low, high = params.multilingual_languages
        chosen: list[str] = []
        for _ in range(rng.randint(low, high) - 1):
            lang = _pick(rng, others)
            chosen.append(lang)
            others.pop(lang)
            if not others:
                break
        return ("en", *chosen)
    if decoy == "monolingual_bilingual_tld":
        tld = rng.choice(sorted(BILINGUAL_TLDS))
        return (rng.choice(BILINGUAL_TLDS[tld]),)
    if kind == "hub" or rng.random() < params.share_english_monolingual:
        return ("en",)
    return (_pick(rng, others),)


def _draw_url_tokens(rng: random.Random, params: WorldParams, site: Site) -> str:
    weights = dict(params.url_token_weights)
    if not any(lang.startswith("zh") for lang in site.languages):
        weights.pop("hk_style", None)
    if site.layout in ("subdomain", "cctld"):
        weights = {"code": 1.0, "name": 0.2}
    style = _pick(rng, weights)
    tokens = [LANGUAGES[lang].url_tokens[style] for lang in site.languages]
    return style if len(set(tokens)) == len(tokens) else "code"


def _assign_domain(rng: random.Random, site: Site) -> None:
    """Pick the site's TLD (generic, its language's ccTLD, or a bilingual country's) and hosts."""
    lang = site.language
    if site.decoy == "monolingual_bilingual_tld":
        tld = rng.choice([t for t, langs in BILINGUAL_TLDS.items() if site.primary in langs])
    elif site.kind in TARGET_KINDS and rng.random() < 0.1 and _bilingual_tld(site):
        tld = _bilingual_tld(site)
    elif rng.random() < 0.45 and site.kind != "hub":
        tld = rng.choice(LANGUAGES[lang].cctlds)
    else:
        tld = rng.choice(GENERIC_TLDS)
    suffix = SECOND_LEVEL.get(site.topic, {}).get(tld) or SECOND_LEVEL["*"].get(tld)
    if suffix and rng.random() < 0.7:
        tld = suffix
    site.domain = f"{site.name}.{tld}"
    shown = [*site.languages, site.second_language] if site.second_language else site.languages
    for language in shown:
        site.hosts[language] = f"www.{site.domain}"
    if site.layout == "subdomain":
        for language in shown[1:]:
            token = LANGUAGES[language].url_tokens[site.url_tokens]
            site.hosts[language] = f"{token}.{site.domain}"
    elif site.layout == "cctld":
        site.domain = f"{site.name}.com"
        for language in shown:
            cc = "com" if language == "en" else LANGUAGES[language].cctlds[0]
            site.hosts[language] = f"www.{site.name}.{cc}"


def _bilingual_tld(site: Site) -> str:
    for tld, langs in sorted(BILINGUAL_TLDS.items()):
        if set(site.languages) == set(langs):
            return tld
    return ""


def _plan_pages(rng: random.Random, params: WorldParams, pools: _TextPools, site: Site) -> None:
    n_pages = _power_law(rng, params.pages_min, params.pages_max, params.pages_exponent)
    words = list(PAGE_WORDS) + list(TOPICS[site.topic])
    site.slugs = ["index"]
    for i in range(1, n_pages):
        word = words[(i - 1) % len(words)]
        site.slugs.append(word if i <= len(words) else f"{word}-{i}")
    text_languages = {*site.languages, site.second_language} - {""}
    languages = frozenset(text_languages)
    titles = pools.pool(languages, site.topic, "titles")
    sentences = pools.pool(languages, site.topic, "sentences")
    low, high = params.prose_sentences if site.prose else params.sentences_per_page
    site.titles = [rng.choice(titles) for _ in site.slugs]
    site.text = [rng.sample(sentences, rng.randint(low, high)) for _ in site.slugs]
    for language in site.languages[1:]:
        share = rng.uniform(*params.translated_share)
        site.translated[language] = {0} | {p for p in range(1, n_pages) if rng.random() < share}
    if site.decoy == "mostly_untranslated":
        for page in site.translated[site.languages[1]]:
            size = len(site.text[page])
            kept = rng.sample(range(size), math.ceil(size * params.mostly_untranslated_english))
            site.english_kept[(site.languages[1], page)] = set(kept)
    if site.layout == "unpatterned":
        for language in [*site.languages[1:], site.second_language]:
            if not language:
                continue
            token = LANGUAGES[language].url_tokens["code"]
            site.slugs_by_language[language] = [
                f"{token}{_base36(rng.randrange(36**4))}-{p}" for p in range(n_pages)
            ]
    site.broken_links = [p for p in range(n_pages) if rng.random() < params.share_broken_links]


class _Urns:
    """Preferential attachment: a site is drawn with probability proportional to its in-links
    plus an initial attractiveness, overall, within its topic, or within its language pair."""

    def __init__(self, sites: list[Site], attractiveness: int) -> None:
        self.sites = sites
        self.everything: list[int] = []
        self.topic: dict[str, list[int]] = defaultdict(list)
        self.pair: dict[str, list[int]] = defaultdict(list)
        self.language: dict[str, list[int]] = defaultdict(list)
        self.prose: list[int] = []
        for site in sites:
            if site.kind != "hub":
                for _ in range(attractiveness):
                    self.add(site)

    def add(self, site: Site) -> None:
        self.everything.append(site.id)
        self.topic[site.topic].append(site.id)
        self.language[site.language].append(site.id)
        if site.prose:
            self.prose.append(site.id)
        if site.is_target:
            self.pair[site.pair].append(site.id)

    def draw(self, rng: random.Random, urn: list[int]) -> Site:
        site = self.sites[rng.choice(urn or self.everything)]
        self.add(site)  # the rich get richer
        return site


def _plan_external_links(rng: random.Random, params: WorldParams, urns: _Urns) -> None:
    """Out-of-site links by preferential attachment within topics, language pairs and (with
    ``language_locality``) languages."""
    sites = urns.sites
    order = list(range(len(sites)))
    rng.shuffle(order)
    for source_id in order:
        source = sites[source_id]
        n_links = _power_law(
            rng,
            params.external_links_min,
            params.external_links_max,
            params.external_links_exponent,
        )
        locality = params.language_locality.get(source.language, 0.0)
        for _ in range(n_links):
            target = urns.draw(rng, _link_urn(rng, params, urns, source, locality))
            if target.id != source.id:
                source.external.append((rng.randrange(len(source.slugs)), target.id))


def _link_urn(
    rng: random.Random, params: WorldParams, urns: _Urns, source: Site, locality: float
) -> list[int]:
    """Where an out-link of ``source`` is drawn from: prose sites (a prose site, with
    ``prose_locality``), its language's sites (with ``language_locality``; no draw without
    these, so older worlds stay the same), its language pair's, its topic's, or every site."""
    if source.prose and params.prose_locality and rng.random() < params.prose_locality:
        return urns.prose
    if locality and rng.random() < locality:
        return urns.language[source.language]
    r = rng.random()
    if source.is_target and r < params.pair_locality and len(urns.pair[source.pair]) > 1:
        return urns.pair[source.pair]
    if r < params.topic_locality:
        return urns.topic[source.topic]
    return urns.everything


def _plan_hubs(rng: random.Random, params: WorldParams, urns: _Urns) -> None:
    """Directory pages that co-cite sites of one topic and language pair (preferentially)."""
    pairs = sorted(urns.pair)
    for hub in (s for s in urns.sites if s.kind == "hub"):
        section = rng.choice(("links", "directory", "resources", "partners"))
        for k in range(rng.randint(*params.hub_pages)):
            topic = hub.topic if k == 0 else rng.choice(sorted(TOPICS))
            pair = rng.choice(pairs) if pairs else ""
            listed: list[int] = []
            for _ in range(rng.randint(*params.hub_links)):
                if pair and rng.random() < params.hub_bilingual_share:
                    listed.append(urns.draw(rng, urns.pair[pair]).id)
                else:
                    listed.append(urns.draw(rng, urns.topic[topic]).id)
            slug = f"{section}/{topic}-{pair or 'all'}-{k}"
            hub.hub_pages.append(HubPage(slug, topic, pair, list(dict.fromkeys(listed))))


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out
