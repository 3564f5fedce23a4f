"""Pair-first crawling: a site's counterparts from its own patterns, its link budget, and when a
site is monolingual so far."""

from bilingual_spider.patterns.crawl_order import (
    LINK_SHARE,
    MIN_PAGES,
    MIN_TRIES,
    NAMED_TRIES,
    ON_TRIAL_IN_FLIGHT,
    SiteProgress,
    Trials,
    section_of,
)
from bilingual_spider.patterns.mining import PairingPattern

SITE = "museum.example"


def english_pages(progress: SiteProgress, count: int, links: tuple[str, ...] = ()) -> None:
    for i in range(count):
        progress.add(f"http://www.museum.example/en/p{i}.html", "en", links)


def test_counterparts_come_from_the_sites_own_patterns_once_it_has_enough_pages():
    progress = SiteProgress(SITE)
    progress.add("http://www.museum.example/en/index.html", "en", ())
    progress.add("http://www.museum.example/de/index.html", "de", ())
    assert progress.counterparts("http://www.museum.example/en/p1.html") == []  # not mined yet
    assert progress.link_budget(100) == 100
    english_pages(progress, MIN_PAGES + 5)  # 50 English pages and one German: eq. 3 says 2/27
    assert PairingPattern("de", "en") in progress.patterns  # one pair of language units is enough
    de_en = PairingPattern("de", "en")
    assert progress.counterparts("http://www.museum.example/en/p1.html") == [
        ("http://www.museum.example/de/p1.html", de_en)
    ]
    assert progress.link_budget(100) == 100  # nothing in flight: no counterpart to come
    progress.in_flight = 1
    assert progress.link_budget(100) == int(100 * LINK_SHARE)


def test_a_site_in_one_language_stops_after_enough_pages_unless_its_links_name_another():
    one = SiteProgress(SITE)
    english_pages(one, 49, ("http://www.museum.example/docs/os.html",))
    assert not one.monolingual(50)
    english_pages(one, 50, ("http://www.museum.example/docs/os.html",))  # Ossetian? once
    assert one.monolingual(50) and not one.monolingual(0)
    marked = SiteProgress(SITE)
    links = tuple(f"http://www.museum.example/fr/p{i}.html" for i in range(20))
    english_pages(marked, 60, links)
    assert not marked.monolingual(50)  # links to French pages it has not fetched yet


def test_a_site_whose_pages_name_their_version_on_another_host_is_not_monolingual():
    english, named = SiteProgress("digital.canada.ca"), SiteProgress("digital.canada.ca")
    for i in range(60):
        url = f"http://digital.canada.ca/p{i}/"
        english.add(url, "en", (), ["fr"] if i < 2 else [])  # twice: a stray "Français"
        named.add(url, "en", (), ["fr"] if i % 2 else [])  # half its pages: a switcher
    assert english.monolingual(50) and not named.monolingual(50)


def test_a_pattern_whose_counterparts_are_mostly_missing_makes_no_more():
    progress = SiteProgress(SITE)
    progress.add("http://www.museum.example/en/index.html", "en", ())
    progress.add("http://www.museum.example/de/index.html", "de", ())
    english_pages(progress, MIN_PAGES + 5)
    de_en = PairingPattern("de", "en")
    for found in (True, False, False):
        progress.answered(de_en, found)
    assert progress.counterparts("http://www.museum.example/en/p2.html")  # 3 tries: too few
    progress.answered(de_en, False)
    assert progress.counterparts("http://www.museum.example/en/p2.html") == []  # 1 of 4


def test_a_site_naming_each_pages_language_twice_asks_for_its_counterparts():
    """``faq/de/x.de.html`` and ``faq/fr/x.fr.html`` differ in two units: their pattern is the
    two-place <de+de, fr+fr>, whose counterparts replace both (before: none at all)."""
    progress = SiteProgress("debian.org")
    faq = "http://www.debian.org/doc/manuals/debian-faq"
    for i in range(MIN_PAGES // 2):  # re-mined at 30 pages
        for lang in ("de", "fr", "it"):
            progress.add(f"{faq}/{lang}/ch{i}.{lang}.html", lang, ())
    assert progress.counterparts(f"{faq}/de/ch99.de.html") == [
        (f"{faq}/fr/ch99.fr.html", PairingPattern("de+de", "fr+fr")),
        (f"{faq}/it/ch99.it.html", PairingPattern("de+de", "it+it")),
    ]


def test_pages_whose_languages_were_read_apart_make_no_counterpart_pattern():
    """The Apache manual: each language's ``mod/core.html`` read as Danish beside its
    ``mod/index.html``; <core,index> pairs five pages, but no site names a language so, and its
    counterparts (``mod/index.html`` for ``mod/core.html``) are seldom pages."""
    progress = SiteProgress("x.org")
    for i in range(MIN_PAGES + 5):
        lang = "en" if i % 2 else "de"
        progress.add(f"http://x.org/{lang}/p{i}.html", lang, ())
    for lang in ("en", "de", "fr", "es", "it"):
        progress.add(f"http://x.org/{lang}/mod/index.html", lang, ())
        progress.add(f"http://x.org/{lang}/mod/core.html", "da", ())
    progress._mine()
    assert PairingPattern("de", "en") in progress.patterns
    assert PairingPattern("core", "index") not in progress.patterns
    made = [url for url, _ in progress.counterparts("http://x.org/en/mod/core.html")]
    assert "http://x.org/de/mod/core.html" in made
    assert "http://x.org/en/mod/index.html" not in made


def test_a_language_is_missing_when_none_of_its_first_named_versions_was_there():
    none, one = SiteProgress(SITE), SiteProgress(SITE)
    for n in range(NAMED_TRIES - 1):
        none.named_answered("ca", False)
        one.named_answered("ca", n == NAMED_TRIES - 2)
    assert not none.names_missing("ca")
    none.named_answered("ca", False)
    one.named_answered("ca", False)
    assert none.names_missing("ca") and not none.names_missing("fr")
    assert not one.names_missing("ca")  # one of them was there


def test_listed_pages_are_pending_after_the_links_seen_once_each():
    progress = SiteProgress("x.org")
    progress.add("http://x.org/", "en", ["http://x.org/a", "http://x.org/b"])
    progress.add_listed(["http://x.org/b", "http://x.org/fr/c", "http://x.org/fr/d"])
    assert list(progress.pending) == [
        "http://x.org/a",
        "http://x.org/b",
        "http://x.org/fr/c",
        "http://x.org/fr/d",
    ]
    assert progress.linked_languages["fr"] == 2


def test_a_sitemaps_urls_give_language_patterns_before_any_page_is_mined():
    progress = SiteProgress("x.org")
    progress.add("http://x.org/", "en", [])
    assert progress.counterparts("http://x.org/en/a.html") == []
    listed = [f"http://x.org/{lang}/page-{k}.html" for k in range(6) for lang in ("en", "fr")]
    progress.add_sitemap_pages([*listed, "http://x.org/about.html"])
    assert "http://x.org/fr/a.html" in [
        url for url, _ in progress.counterparts("http://x.org/en/a.html")
    ]
    assert len(progress.pending) == len(listed) + 1
    assert progress.link_budget(100) == 100  # new pages keep the whole budget meanwhile


def test_a_sitemap_without_language_patterns_gives_none():
    progress = SiteProgress("x.org")
    progress.add_sitemap_pages([f"http://x.org/news/page-{k}.html" for k in range(20)])
    assert progress.listed_patterns == ()


def test_a_section_is_the_directories_before_the_first_naming_a_language():
    faq = "http://www.debian.org/doc/manuals/debian-faq"
    assert section_of(f"{faq}/de/ch-basic.de.html") == "doc/manuals/debian-faq"
    assert section_of(f"{faq}/ch-basic.en.html") == "doc/manuals/debian-faq"
    assert section_of("http://x.org/docs/2.4/mod/core.html.fr") == "docs/2.4/mod"
    assert section_of("http://x.org/en/a.html") == section_of("http://x.org/") == ""


def test_a_key_on_trial_has_one_page_in_flight_until_one_is_there_and_none_after_all_missed():
    trials: Trials[str] = Trials(tries=MIN_TRIES)
    for n in range(3):
        trials.hold("faq", f"http://x.org/faq/zh-tw/{n}.html")
    assert trials.decision("faq") == "ask"
    assert trials.take("faq") == ["http://x.org/faq/zh-tw/0.html"]  # on trial: the first alone
    trials.asked["faq"] += ON_TRIAL_IN_FLIGHT
    assert trials.decision("faq") == "hold" and trials.take("faq") == []  # no answer yet
    assert trials.decision("guide") == "ask"  # another key: its own trial
    trials.answered("faq", False)
    assert trials.take("faq") == ["http://x.org/faq/zh-tw/1.html"]  # one missing: the next
    for _ in range(MIN_TRIES - 1):
        trials.asked["faq"] += 1
        trials.answered("faq", False)
    assert trials.decision("faq") == "drop" and trials.take("faq") == []
    assert trials.held == {} and trials.dropped == 1  # its first MIN_TRIES all missing
    trials.hold("guide", "http://x.org/guide/zh-tw/0.html")
    trials.hold("guide", "http://x.org/guide/zh-tw/0.html")  # held once
    trials.hold("guide", "http://x.org/guide/zh-tw/1.html")
    trials.asked["guide"] += 5
    trials.answered("guide", True)
    assert trials.decision("guide") == "ask"  # one was there: no limit
    assert trials.take("guide") == [
        "http://x.org/guide/zh-tw/0.html",
        "http://x.org/guide/zh-tw/1.html",
    ]


def test_a_sites_counterparts_are_on_trial_by_pattern_and_section_its_named_versions_by_language():
    progress, pattern = SiteProgress("x.org"), PairingPattern("en", "zh-tw")
    progress.answered(pattern, True, "reference")
    progress.answered(pattern, False, "faq")
    assert progress.counterpart_trials.decision((pattern, "reference")) == "ask"
    assert (progress.tried[pattern], progress.found[pattern]) == (2, 1)  # the site's, too
    assert progress.pays_off(pattern)
    for _ in range(NAMED_TRIES):
        progress.named_answered("ca", False)
    assert progress.named_trials.decision("ca") == "drop" and progress.names_missing("ca")
