"""The fallback ladder's URLs (pure) and the detector climbing it."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.detection.detector import (
    BilingualSiteDetector,
    DetectorConfig,
    LinkScore,
    Step,
)
from bilingual_spider.detection.ladder import (
    ANCESTORS,
    URL_SIBLINGS,
    ancestor_urls,
    likely_languages,
    own_markers,
    path_language,
    site_codes,
    url_siblings,
)
from bilingual_spider.patterns.units import split_url


@dataclass
class Lang:
    lang: str
    chars: int = 600
    shares: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.shares = self.shares or {self.lang: 1.0}

    @property
    def undetermined(self) -> bool:
        return self.lang == "und"


def test_siblings_substitute_the_unit_naming_the_pages_language() -> None:
    ref = "http://www.debian.org/doc/manuals/debian-reference/ch01.fr.html"
    assert url_siblings(ref, "fr", ["en"]) == [
        ("http://www.debian.org/doc/manuals/debian-reference/ch01.en.html", "en"),
        ("http://www.debian.org/doc/manuals/debian-reference/ch01.html", "en"),
    ]
    assert url_siblings("http://x.org/s?lang=de&p=2", "de", ["en"])[0][0] == (
        "http://x.org/s?lang=en&p=2"
    )
    assert url_siblings("http://x.org/english/a.html", "en", ["fr"]) == [
        ("http://x.org/french/a.html", "fr")
    ]


def test_a_unit_naming_another_language_is_no_marker() -> None:
    assert own_markers("http://git-scm.com/docs/git-am.html", "en") == []  # am: Amharic
    assert url_siblings("http://x.org/ja/policy.html", "en", ["fr"]) == []
    assert url_siblings("http://x.org/fr/a.html", "", ["en"]) == []  # language unknown


def test_ancestors_start_above_the_language_directory_then_the_home_page() -> None:
    assert ancestor_urls("http://d-i.debian.org/manual/zh_CN/ch01s01.html", "zh-Hans") == [
        "http://d-i.debian.org/manual/",
        "http://d-i.debian.org/",
        "http://d-i.debian.org/manual/zh_CN/",
    ]
    deep = "http://x.org/a/b/c/d/e.html"
    assert ancestor_urls(deep)[:2] == ["http://x.org/a/b/c/", "http://x.org/"]
    apt = "http://www.debian.org/doc/manuals/apt-guide/guide.fr.html/ch2.html"
    assert ancestor_urls(apt, "fr")[0] == "http://www.debian.org/doc/manuals/apt-guide/"
    assert ancestor_urls("http://x.org/", "en") == []
    assert ancestor_urls("http://x.org/a/index.html", "en") == ["http://x.org/"]


def test_siblings_are_written_in_the_sites_code_forms() -> None:
    page = "http://docs.x.org/7.4/sv-SE/sect.supervision.html"
    assert (
        url_siblings(page, "sv", ["en"])[0][0]
        == "http://docs.x.org/7.4/en-US/sect.supervision.html"
    )
    seen = site_codes([page, "http://docs.x.org/7.4/en-GB/index.html", "http://docs.x.org/id.html"])
    assert seen == ("sv-SE", "en-GB")  # a file stem is no code
    assert url_siblings(page, "sv", ["en"], seen)[0][0] == (
        "http://docs.x.org/7.4/en-GB/sect.supervision.html"
    )
    assert url_siblings("http://x.org/pt_BR/a.html", "pt", ["en"], ("en_GB",))[0][0] == (
        "http://x.org/en_GB/a.html"
    )
    assert url_siblings("http://x.org/a.fr.html?x=1", "fr", ["en"], ("en-US",))[0][0] == (
        "http://x.org/a.en.html?x=1"  # a locale seen elsewhere is not the form of a bare code
    )


def test_the_path_names_a_language_where_the_site_writes_one() -> None:
    assert path_language("http://x.org/browse/zh-CN/a.html") == "zh-Hans"
    assert path_language("http://x.org/guide/ch01.de.html") == "de"
    assert path_language("http://x.org/page?lang=pt_BR") == "pt-BR"
    assert path_language("http://x.org/docs/git-am.html") == ""  # a stem: no marker
    assert path_language("http://x.org/docs/id.html") == ""


def test_likely_languages_put_english_first_for_other_pages() -> None:
    assert likely_languages("http://x.com/a", "fr")[0] == "en"
    assert likely_languages("http://x.com/a", "en", named=["ja"])[0] == "ja"
    assert "de" in likely_languages("http://x.at/a", "en")
    assert likely_languages("http://x.com/a", "es", langs=("es", "ca")) == ["ca", "en", "fr", "de"]


@settings(deadline=None, max_examples=200)
@given(
    path=st.lists(
        st.sampled_from(["en", "fr", "docs", "fr_FR", "guide.fr.html", "a", "english"]),
        max_size=4,
    ),
    name=st.sampled_from(["", "index.html", "page.fr.html", "x.html", "p_en.htm"]),
    language=st.sampled_from(["en", "fr", "de"]),
)
def test_ladder_urls_stay_on_the_site_and_never_repeat_the_page(
    path: list[str], name: str, language: str
) -> None:
    url = "http://www.example.org/" + "".join(f"{d}/" for d in path) + name
    site = split_url(url).site
    siblings = [u for u, _ in url_siblings(url, language, ["en", "fr", "de"])]
    ancestors = ancestor_urls(url, language)
    assert url not in siblings and url not in ancestors
    assert len(set(ancestors)) == len(ancestors)
    for made in siblings + ancestors:
        assert split_url(made).site == site
    for made in ancestors:
        assert url.startswith(made.rstrip("/"))


# --- the detector on the ladder --------------------------------------------------------------


def test_a_deep_page_without_switcher_climbs_to_the_chooser() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    deep = "http://www.x.org/manual/en/ch03.html"
    start = detector.page(deep, Lang("en"))
    step = detector.begin("www.x.org", start, [])
    assert [(p.url, p.via) for p in step.probes] == [("http://www.x.org/manual/", ANCESTORS)]
    chooser = detector.page("http://www.x.org/manual/", Lang("und", chars=20))
    chooser_links = [
        LinkScore("http://www.x.org/manual/en/", 0.3, "en"),
        LinkScore("http://www.x.org/manual/es/", 0.3, "es"),
    ]
    assert step.state is not None
    step = detector.record(step.state, chooser, chooser_links)
    assert [p.url for p in step.probes] == ["http://www.x.org/manual/es/"]
    assert step.state is not None
    step = detector.record(step.state, detector.page("http://www.x.org/manual/es/", Lang("es")))
    verdict = step.verdict
    assert verdict is not None and verdict.bilingual
    assert verdict.rule == f"{ANCESTORS}: language hints"
    assert verdict.pages_downloaded == 3


def test_a_page_in_another_language_tries_its_english_url_first() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    start = detector.page("http://www.x.org/fr/guide.html", Lang("fr"))
    step = detector.begin("www.x.org", start, [])
    assert [(p.url, p.via) for p in step.probes] == [
        ("http://www.x.org/en/guide.html", URL_SIBLINGS)
    ]
    assert step.state is not None
    answered = detector.page("http://www.x.org/en/guide.html", Lang("en"))
    final = detector.record(step.state, answered)
    assert final.verdict is not None and final.verdict.bilingual
    assert (final.verdict.rule, final.verdict.pages_downloaded) == (URL_SIBLINGS, 2)


def test_the_ladder_stays_within_the_probe_budget() -> None:
    detector = BilingualSiteDetector(DetectorConfig(max_probes=3))
    start = detector.page("http://www.x.org/a/b/fr/c/d.fr.html", Lang("fr"))
    step: Step = detector.begin("www.x.org", start, [])
    asked = 0
    while step.verdict is None:
        assert step.state is not None and len(step.probes) == 1
        asked += 1
        probe = step.probes[0]
        step = detector.record(step.state, detector.failed(probe.url, "HTTP 404"), [])
    assert asked == 3 and step.verdict.pages_downloaded == 4
    assert not step.verdict.bilingual and "ladder" in step.verdict.reason


def _answer(detector: BilingualSiteDetector, step: Step, lang: str | None, links=()) -> Step:
    """Answer the one pending probe of ``step``: a page in ``lang``, or a 404 (None)."""
    assert step.state is not None and len(step.probes) == 1
    url = step.probes[0].url
    page = detector.failed(url, "HTTP 404") if lang is None else detector.page(url, Lang(lang))
    return detector.record(step.state, page, list(links))


def _ask_all(detector: BilingualSiteDetector, step: Step, lang: str | None) -> list[LinkScore]:
    """Answer every probe of the ladder the same way (a page in ``lang``, or a 404) until the
    verdict; the probes asked, in order."""
    asked = []
    while step.verdict is None:
        asked.append(step.probes[0])
        step = _answer(detector, step, lang)
    return asked


def test_an_ancestor_that_fails_is_skipped_and_the_home_page_reached() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    deep = "http://docs.x.org/browse/en-US/sect.supervision.html"
    step = detector.begin("docs.x.org", detector.page(deep, Lang("en")), [])
    assert step.probes[0].url == "http://docs.x.org/browse/"
    step = _answer(detector, step, None)  # /browse/: HTTP 404
    assert [(p.url, p.via) for p in step.probes] == [("http://docs.x.org/", ANCESTORS)]
    chooser = [LinkScore("http://docs.x.org/browse/sv-SE/index.html", 0.2, "sv")]
    step = _answer(detector, step, "und", chooser)
    assert step.probes[0].url == "http://docs.x.org/browse/sv-SE/index.html"
    verdict = _answer(detector, step, "sv").verdict
    assert verdict is not None and verdict.bilingual and verdict.pages_downloaded == 4
    assert "1 missing" in verdict.reason


def test_a_page_with_no_language_link_climbs_no_higher_than_the_home_page() -> None:
    detector = BilingualSiteDetector(DetectorConfig(ladder_ancestors=5))
    deep = "http://x.org/a/b/c/page.html"
    step = detector.begin("x.org", detector.page(deep, Lang("en")), [])
    asked = [probe.url for probe in _ask_all(detector, step, "en")]
    assert asked[:2] == ["http://x.org/a/b/", "http://x.org/"]
    assert not any(url.startswith("http://x.org/a/") for url in asked[2:])  # no climb after home


def test_a_region_coded_page_guesses_its_english_version_in_the_sites_form() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    page = "http://docs.x.org/7.4/sv-SE/sect.html"
    links = [LinkScore("http://docs.x.org/7.4/sv-SE/next.html", 0.1)]
    step = detector.begin("docs.x.org", detector.page(page, Lang("sv")), links)
    assert [(p.url, p.via) for p in step.probes] == [
        ("http://docs.x.org/7.4/en-US/sect.html", URL_SIBLINGS)
    ]
    verdict = _answer(detector, step, "en").verdict
    assert verdict is not None and verdict.bilingual and verdict.rule == URL_SIBLINGS


def test_a_page_whose_text_tells_no_language_is_guessed_from_its_path() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    page = "http://x.org/manual/fr-FR/figure.html"
    step = detector.begin("x.org", detector.page(page, Lang("und", chars=40)), [])
    asked = [(probe.url, probe.via) for probe in _ask_all(detector, step, None)]
    assert ("http://x.org/manual/en-US/figure.html", URL_SIBLINGS) in asked


def test_a_locale_other_than_a_variant_is_a_locale_systems() -> None:
    assert (
        url_siblings("http://x.org/ko_KR/a.html", "ko", ["en"])[0][0] == "http://x.org/en_US/a.html"
    )
    assert url_siblings("http://x.org/zh_CN/a.html", "zh-Hans", ["en"])[0][0] == (
        "http://x.org/en/a.html"  # Debian's zh_CN/ beside en/
    )


def test_the_ancestors_a_page_links_are_asked_first() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    deep = "http://docs.x.org/browse/en-US/sect.html"
    links = [LinkScore("http://docs.x.org/index.html", 0.1), LinkScore("http://docs.x.org/a", 0.1)]
    step = detector.begin("docs.x.org", detector.page(deep, Lang("en")), links)
    assert [(p.url, p.via) for p in step.probes] == [("http://docs.x.org/", ANCESTORS)]


def test_a_page_in_the_language_its_url_names_counts_whatever_its_anchor_named() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    page = "http://x.org/browse/ko/colon.html"  # an untranslated page: English text
    links = [LinkScore("http://x.org/browse/ko/czech-dvorak.html", 0.1, "cs")]  # "Czech (US)"
    step = detector.begin("x.org", detector.page(page, Lang("en")), links)
    assert [p.url for p in step.probes] == ["http://x.org/browse/ko/czech-dvorak.html"]
    verdict = _answer(detector, step, "ko").verdict
    assert verdict is not None and verdict.bilingual and verdict.languages == ("en", "ko")


def test_the_climb_ends_at_the_home_page_even_when_it_fails() -> None:
    detector = BilingualSiteDetector(DetectorConfig(max_probes=5))
    deep = "http://x.org/api/v2/ref/page.html"
    step = detector.begin("x.org", detector.page(deep, Lang("en")), [])
    ancestors = [p.url for p in _ask_all(detector, step, None) if p.via == ANCESTORS]
    assert ancestors == ["http://x.org/api/v2/", "http://x.org/"]  # then no deeper directory


def test_a_page_whose_file_name_names_its_language_climbs_to_its_own_directory_first() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    page = "http://www.x.org/doc/manuals/reference/ch06.en.html"
    step = detector.begin("www.x.org", detector.page(page, Lang("en")), [])
    assert step.probes[0].url == "http://www.x.org/doc/manuals/reference/"


def test_a_linked_home_page_that_fails_leaves_the_neutral_root_to_ask() -> None:
    detector = BilingualSiteDetector(DetectorConfig())
    page = "http://www.x.org/doc/2.4/ja/index.html"
    links = [LinkScore("http://www.x.org/", 0.1)]
    step = detector.begin("www.x.org", detector.page(page, Lang("ja")), links)
    step = _answer(detector, step, None)  # the URL sibling /doc/2.4/en/index.html: HTTP 404
    assert step.probes[0].url == "http://www.x.org/"
    step = _answer(detector, step, None)  # the home page: HTTP 404
    assert step.probes[0].url == "http://www.x.org/doc/2.4/"
    step = _answer(detector, step, "und", [LinkScore("http://www.x.org/doc/2.4/de/", 0.1, "de")])
    verdict = _answer(detector, step, "de").verdict
    assert verdict is not None and verdict.bilingual


def test_a_section_a_switcher_names_in_another_language_is_asked_again_in_it() -> None:
    """A Gagauz page lid.176 reads as Turkish, entered deep under ``/gag/``: the Romanian home's
    switcher names ``/gag/`` Gagauz, so the section is asked again as Gagauz, and Turkish, the
    first page's reading, is no longer among the site's languages a guess may stand in for."""
    detector = BilingualSiteDetector(DetectorConfig(langs=("en", "gag")))
    step = detector.begin("x.md", detector.page("http://x.md/gag/kultura/a.html", Lang("tr")), [])
    home = [LinkScore("http://x.md/", 0.3, "ro"), LinkScore("http://x.md/en/", 0.3, "en")]
    step = detector.record(step.state, detector.page("http://x.md/gag/", Lang("tr")), home)
    assert step.state is not None and "tr" in step.state.site_languages
    switcher = [LinkScore("http://x.md/en/", 0.3, "en"), LinkScore("http://x.md/gag/", 0.3, "gag")]
    for probe in sorted(step.probes, key=lambda p: p.hint != "ro"):  # the Romanian home first
        assert step.state is not None
        step = detector.record(step.state, detector.page(probe.url, Lang(probe.hint)), switcher)
    assert step.state is not None
    assert [(p.url, p.hint) for p in step.probes] == [("http://x.md/gag/", "gag")]
    assert step.state.site_languages == ("gag", "ro", "en")
    verdict = _answer(detector, step, "gag").verdict
    assert verdict is not None and verdict.bilingual and "gag" in verdict.languages
