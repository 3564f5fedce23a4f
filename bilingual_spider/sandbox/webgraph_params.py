"""Parameters of the generated web, each with its default and where that default comes from.

``bilingual-spider sandbox generate --help`` and ``sandbox stats`` print this table
(:func:`parameter_table`); change a default here and say where the new one comes from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


def _p(default: Any, source: str) -> Any:
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata={"source": source})
    return field(default=default, metadata={"source": source})


ASSUMPTION = "assumption (no published figure found offline); tune by benchmark"
SWITCHER_PLACEMENTS = ("header", "footer", "select", "list")
"""Where a site's language switcher sits: ``header`` (``A | B`` in the header bar), ``footer``
("Other languages: A, B"), ``select`` (a ``<select>`` menu, the URLs in its options' values),
``list`` (a ``<ul>`` of languages in a sidebar)."""


@dataclass(frozen=True)
class WorldParams:
    """Everything that shapes a generated world. Same params + same text corpus = same world."""

    seed: int = _p(0, "any; every random choice is drawn from random.Random(seed)")
    sites: int = _p(1000, "a world a laptop crawls in minutes; 10,000 is the size tested for speed")

    # What kinds of sites there are.
    share_bilingual: float = _p(
        0.20,
        ASSUMPTION + "; high enough that a 1,000-site world holds ~200 targets, low enough that "
        "an unfocused crawl (Barbosa's FC) wastes most of its pages, as in their Fig. 3",
    )
    share_multilingual: float = _p(0.05, ASSUMPTION)
    share_hubs: float = _p(
        0.01,
        "Barbosa et al. 2011 sec. 4: backlink pages of bilingual sites are often directories "
        "and link lists that co-cite several of them; the share itself is an " + ASSUMPTION,
    )
    share_decoys: float = _p(
        0.10,
        "the failure cases of Barbosa's detector and of PupSniffer (Zhang et al. 2018 sec. 5: "
        "80% of false pairs from wrong language ID); the share is an " + ASSUMPTION,
    )
    decoy_weights: dict[str, float] = _p(
        {
            "switcher_without_translation": 1.0,
            "mostly_untranslated": 1.0,
            "mixed_language": 1.0,
            "monolingual_bilingual_tld": 1.0,
        },
        "the decoys the issue names, equally likely (" + ASSUMPTION + ")",
    )
    share_english_monolingual: float = _p(
        0.5,
        "English is about half of web content by W3Techs' content-language survey (order of "
        "magnitude, quoted from memory, not fetched)",
    )
    language_weights: dict[str, float] = _p(
        {"es": 0.30, "fr": 0.18, "de": 0.18, "ja": 0.14, "zh-Hans": 0.12, "zh-Hant": 0.08},
        "rough relative web-content shares of these languages (W3Techs, order of magnitude); "
        "Spanish first because Barbosa et al. target en-es; both Chinese scripts because "
        "PupSniffer targets <en,tc> and <en,sc>",
    )
    multilingual_languages: tuple[int, int] = _p(
        (3, 4), "languages of a multilingual site, English included (" + ASSUMPTION + ")"
    )

    # How bilingual sites are built.
    layout_weights: dict[str, float] = _p(
        {
            "directory": 0.34,
            "filename": 0.14,
            "parameter": 0.12,
            "subdomain": 0.12,
            "suffix": 0.08,
            "cctld": 0.10,
            "unpatterned": 0.10,
        },
        "the layouts PupSniffer's patterns cover (Zhang et al. 2018 Table 1 has directory "
        "patterns first); 'unpatterned' pages have unrelated names per language, which only "
        "a link or switcher reveals; shares are an " + ASSUMPTION,
    )
    url_token_weights: dict[str, float] = _p(
        {"code": 0.55, "name": 0.15, "locale": 0.15, "hk_style": 0.15},
        "the unit pairs of PupSniffer's examples: <en,es> codes, <english,chinese> names, "
        "locales, and Hong Kong's <eng,tc>/<en,sc> (Zhang et al. 2018 sec. 3); hk_style only "
        "for Chinese sites; shares are an " + ASSUMPTION,
    )
    switcher_weights: dict[str, float] = _p(
        {"native": 0.40, "code": 0.25, "word": 0.20, "flag": 0.15},
        "Barbosa et al. 2011 sec. 3.1 name words, codes, native names and flag images (img "
        "src/alt) as link-predictor evidence; shares are an " + ASSUMPTION,
    )
    switcher_placement_weights: dict[str, float] = _p(
        {"header": 0.40, "footer": 0.20, "select": 0.20, "list": 0.20},
        "where a site's language switcher sits (SWITCHER_PLACEMENTS): a header bar, an 'Other "
        "languages:' footer, a <select> menu whose option values are the URLs, or a sidebar "
        "list; the issue names them as how real bilingual sites look; shares are an "
        + ASSUMPTION
        + "; drawn from a generator of their own (placement:seed:site), so changing them "
        "changes no other draw of the world",
    )
    marker_shape_share: float = _p(
        0.3,
        "share of bilingual and multilingual sites with a 'filename' or 'parameter' layout "
        "whose URLs mark the language as real sites of the WMT16 document-alignment data do "
        "(issue 31, MARKER_SHAPES): one side only (report.asp / report_f.asp, page.php?id=7 / "
        "page.php?id=7&lang=2), an initial glued to a number (news123e / news123f), initials "
        "in a directory (x-e/10.htm / x-f/10.htm), numbers for languages (Lang=1 / Lang=2); "
        + ASSUMPTION
        + "; drawn from a generator of its own (shape:seed:site), so changing it changes no "
        "other draw of the world, only those sites' URLs",
    )
    share_chooser_hreflang: float = _p(
        0.3,
        "share of language-chooser entry pages whose links carry hreflang (their labels are the "
        "site's switcher style: native names, English names, codes or flags with alt); "
        + ASSUMPTION
        + "; drawn with the switcher placement",
    )
    translated_share: tuple[float, float] = _p(
        (0.6, 1.0),
        "partial translation is the rule on real sites: of apache2-doc's English pages, each "
        "language translates a part (our real-sites fetch, issue 2); drawn uniformly per language",
    )
    share_html_lang: float = _p(0.6, "share of sites declaring <html lang>; " + ASSUMPTION)
    share_hreflang: float = _p(
        0.3, "share of multilingual sites with <link rel=alternate hreflang>; " + ASSUMPTION
    )

    # Sizes and degrees.
    pages_min: int = _p(3, "smallest site: home + two pages")
    pages_max: int = _p(120, "cap so a 10,000-site world is written in well under 2 minutes")
    pages_exponent: float = _p(
        1.8,
        "power-law exponent of site sizes; Huberman & Adamic (Nature 1999) report a power law "
        "of pages per site with an exponent of this order (quoted from memory)",
    )
    external_links_min: int = _p(2, "every site links out; " + ASSUMPTION)
    external_links_max: int = _p(100, "cap per site")
    external_links_exponent: float = _p(
        2.0,
        "power-law exponent of a site's out-of-site links; Broder et al. 2000 (Graph structure "
        "in the Web) measure 2.72 for page out-degree and 2.1 for in-degree; sites aggregate "
        "pages, so a heavier tail than 2.72 (mean ~8 out-links per site) is an " + ASSUMPTION,
    )
    preferential_attachment: float = _p(
        1.0,
        "initial attractiveness of a site before its first in-link; with preferential "
        "attachment it gives the power-law in-degrees Broder et al. 2000 measured (~2.1)",
    )
    topic_locality: float = _p(
        0.8,
        "share of out-of-site links to the same topic: Davison 2000 (Topical locality in the "
        "Web) finds linked pages far more similar than random ones; the value is an " + ASSUMPTION,
    )
    pair_locality: float = _p(
        0.4,
        "share of a bilingual site's out-links to sites of its own language pair (the "
        "neighbourhood Barbosa's crawler exploits); " + ASSUMPTION,
    )
    hub_pages: tuple[int, int] = _p(
        (2, 8),
        "link pages per hub site; with share_hubs it makes hubs list ~80% of the bilingual "
        "sites (measured: 399 of 500 in a 2,000-site world), so that some are found only "
        "through backlinks and co-citation; " + ASSUMPTION,
    )
    hub_links: tuple[int, int] = _p(
        (15, 60), "sites listed on one hub page (a directory category); " + ASSUMPTION
    )
    hub_bilingual_share: float = _p(
        0.5,
        "share of a hub page's entries that are bilingual sites of its language pair "
        "(co-citation, Barbosa et al. 2011); " + ASSUMPTION,
    )
    target_topic_weights: dict[str, float] = _p(
        {},
        "topics of the bilingual and multilingual sites, relative weights (empty: as every "
        "other site's, uniform). Barbosa et al. 2011 sec. 3: their crawl 'automatically "
        "focuses on topics where there is a higher concentration of parallel data, as travel, "
        "translator sites, etc.', and the Forward-Link classifier's frequent features were "
        "'hotel', 'air', 'art' and 'language'; the weights themselves are an " + ASSUMPTION,
    )
    sentences_per_page: tuple[int, int] = _p(
        (4, 14), "enough text for language ID on every page (lid.176 is reliable past ~50 chars)"
    )
    mostly_untranslated_english: float = _p(
        0.85,
        "English share of a 'mostly untranslated' decoy page; real sites drop a page half or more "
        "of whose prose is copied (real_site_gold.judge_translation)",
    )
    share_broken_links: float = _p(
        0.02, "share of pages with a link to a page that is gone (404); " + ASSUMPTION
    )
    language_locality: dict[str, float] = _p(
        {},
        "share of a site's out-of-site links drawn among sites of its own language (a bilingual "
        "site's: its second language), by that language; a language not named has no such "
        "preference. Chan and Yamana (Section 4) saw English pages rarely link to Asian-language "
        "pages while Asian-language pages often link to English ones: e.g. "
        '{"en": 0.95, "ja": 0.5}; the values are an ' + ASSUMPTION,
    )
    title_anchor_share: float = _p(
        0.0,
        "share of out-of-site links whose anchor is the title of the page they lead to, in that "
        "page's language, rather than the site's Latin-letter name (0: always the name). Chan "
        "and Yamana's anchor rule needs anchors in the language of the target page; the share "
        "is an " + ASSUMPTION,
    )

    deep_link_share: float = _p(
        0.0,
        "share of a page's out-of-site links that land on a page below the target's root (a "
        "page of the target drawn by a hash), not on its home page; hub directories list home "
        "pages always. 0 keeps every older world and benchmark as it was; issue 30's runs use "
        "0.92: of 100,281 absolute links in 8,148 real HTML files (the Debian documentation of "
        "the real sites and /usr/share/doc), 92.1 % point below the root, median 0.96 per target "
        "host (benchmarks/deep_links.py; documentation cites pages more than link lists do)",
    )
    share_switcher_home_only: float = _p(
        0.0,
        "share of sites with a switcher that show it on their home pages only (each language's "
        "page 0 and the chooser at '/'), none on deeper pages, hreflang alternates included. 0 "
        "keeps older worlds; issue 30's runs use 0.8: 9 of the 11 bilingual real sites of the "
        "sandbox have no switcher below their entry pages (all but Apache's manual and LilyPond)",
    )

    prose_site_share: float = _p(
        0.0,
        "share of sites written as long prose (prose_sentences a page, in paragraphs of 4-6 "
        "sentences) rather than short pages of one-to-three-sentence paragraphs, which "
        "boilerplate removal mostly discards. Schäfer et al. 2014 (Section 2) found a BFS crawl "
        "keeps ~5 % of its documents; the share is an " + ASSUMPTION,
    )
    prose_sentences: tuple[int, int] = _p(
        (20, 40), "sentences a page of a prose site: past the 1,000 characters a kept page needs"
    )
    prose_locality: float = _p(
        0.0,
        "share of a prose site's out-of-site links drawn among prose sites: Schäfer et al. 2014 "
        "(Section 2) found the yield of linked pages follows the yield of the linking pages "
        "(adjusted R^2 0.78); the value is an " + ASSUMPTION,
    )

    def __post_init__(self) -> None:
        if self.sites < 1:
            raise ValueError("sites must be at least 1")
        shares = self.share_bilingual + self.share_multilingual + self.share_hubs
        if not 0 <= shares + self.share_decoys <= 1:
            raise ValueError("share_bilingual + share_multilingual + share_hubs + share_decoys > 1")
        if not 1 <= self.pages_min <= self.pages_max:
            raise ValueError("need 1 <= pages_min <= pages_max")
        if set(self.target_topic_weights) - set(TOPICS):
            unknown_topics = sorted(set(self.target_topic_weights) - set(TOPICS))
            raise ValueError(f"target_topic_weights: unknown topics {unknown_topics}")
        unknown = (set(self.language_weights) | set(self.language_locality)) - set(LANGUAGES)
        if unknown:
            raise ValueError(f"language_weights/locality: unknown languages {sorted(unknown)}")
        if not (0 <= self.prose_site_share <= 1 and 0 <= self.prose_locality <= 1):
            raise ValueError("prose_site_share and prose_locality must be in [0, 1]")
        if not (0 <= self.deep_link_share <= 1 and 0 <= self.share_switcher_home_only <= 1):
            raise ValueError("deep_link_share and share_switcher_home_only must be in [0, 1]")
        if not 0 <= self.title_anchor_share <= 1:
            raise ValueError("title_anchor_share must be in [0, 1]")
        unknown_placements = set(self.switcher_placement_weights) - set(SWITCHER_PLACEMENTS)
        if unknown_placements or not any(w > 0 for w in self.switcher_placement_weights.values()):
            raise ValueError(
                f"switcher_placement_weights: unknown {sorted(unknown_placements)} or no weight"
            )
        if not 0 <= self.share_chooser_hreflang <= 1:
            raise ValueError("share_chooser_hreflang must be in [0, 1]")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> WorldParams:
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ValueError(f"unknown world parameter(s): {', '.join(unknown)}")
        converted = {
            k: tuple(v) if isinstance(known[k].default, tuple) else v for k, v in values.items()
        }
        return cls(**converted)


def parameter_table(params: WorldParams | None = None) -> list[tuple[str, str, str]]:
    """(name, value, source of the default) for every parameter."""
    params = params or WorldParams()
    return [
        (f.name, repr(getattr(params, f.name)), f.metadata.get("source", ""))
        for f in fields(params)
    ]


@dataclass(frozen=True)
class Language:
    """How a language shows itself on a web site."""

    code: str
    native: str  # switcher label, native name
    english_name: str  # switcher label, English word
    short: str  # switcher label, code
    flag: str  # flag image name (a country code)
    url_tokens: dict[str, str]  # url token style -> token
    cctlds: tuple[str, ...]  # country-code TLDs of its countries


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language(
            "en", "English", "English", "EN", "gb",
            {"code": "en", "name": "english", "locale": "en-us", "hk_style": "eng"},
            ("uk", "us", "au", "ie"),
        ),
        Language(
            "es", "Español", "Spanish", "ES", "es",
            {"code": "es", "name": "spanish", "locale": "es-es", "hk_style": "esp"},
            ("es", "mx", "ar", "co", "cl"),
        ),
        Language(
            "fr", "Français", "French", "FR", "fr",
            {"code": "fr", "name": "french", "locale": "fr-fr", "hk_style": "fre"},
            ("fr",),
        ),
        Language(
            "de", "Deutsch", "German", "DE", "de",
            {"code": "de", "name": "german", "locale": "de-de", "hk_style": "ger"},
            ("de", "at"),
        ),
        Language(
            "ja", "日本語", "Japanese", "JP", "jp",
            {"code": "ja", "name": "japanese", "locale": "ja-jp", "hk_style": "jpn"},
            ("jp",),
        ),
        Language(
            "zh-Hans", "简体中文", "Simplified Chinese", "简", "cn",
            {"code": "zh-cn", "name": "chinese", "locale": "zh-cn", "hk_style": "sc"},
            ("cn",),
        ),
        Language(
            "zh-Hant", "繁體中文", "Traditional Chinese", "繁", "tw",
            {"code": "zh-tw", "name": "traditional", "locale": "zh-tw", "hk_style": "tc"},
            ("tw", "hk"),
        ),
        Language(
            "ko", "한국어", "Korean", "KO", "kr",
            {"code": "ko", "name": "korean", "locale": "ko-kr", "hk_style": "kor"},
            ("kr",),
        ),
    )
}  # fmt: skip

GENERIC_TLDS = ("com", "org", "net", "info")
# ccTLDs of countries with two official languages: a monolingual site there is a decoy.
BILINGUAL_TLDS: dict[str, tuple[str, str]] = {
    "ca": ("en", "fr"),
    "ch": ("de", "fr"),
    "hk": ("en", "zh-Hant"),
    "sg": ("en", "zh-Hans"),
    "lu": ("fr", "de"),
}
# Second-level registrations under some ccTLDs, by topic (tldextract must see them as suffixes).
SECOND_LEVEL: dict[str, dict[str, str]] = {
    "government": {
        "hk": "gov.hk", "cn": "gov.cn", "tw": "gov.tw", "jp": "go.jp", "es": "gob.es",
        "fr": "gouv.fr", "uk": "gov.uk", "mx": "gob.mx", "au": "gov.au", "sg": "gov.sg",
    },
    "education": {"hk": "edu.hk", "cn": "edu.cn", "tw": "edu.tw", "jp": "ac.jp", "uk": "ac.uk"},
    "*": {
        "hk": "com.hk", "cn": "com.cn", "tw": "com.tw", "jp": "co.jp", "uk": "co.uk", "kr": "co.kr",
        "mx": "com.mx", "ar": "com.ar", "au": "com.au", "co": "com.co",
    },
}  # fmt: skip
TOPICS: dict[str, tuple[str, ...]] = {
    "travel": ("hotel", "tour", "beach", "trip", "resort", "holiday", "visit", "island"),
    "government": ("ministry", "council", "agency", "city", "office", "public", "region"),
    "education": ("school", "university", "college", "academy", "institute", "campus"),
    "technology": ("soft", "data", "cloud", "code", "net", "systems", "digital", "labs"),
    "business": ("trade", "market", "consult", "group", "partners", "export", "bank"),
    "culture": ("museum", "art", "music", "film", "theatre", "festival", "library"),
}
PAGE_WORDS: tuple[str, ...] = (
    "about", "contact", "services", "news", "products", "history", "team", "faq", "events",
    "guide", "prices", "location", "projects", "press", "careers", "support", "gallery",
)  # fmt: skip
