"""The order of a PupSniffer crawl's pages without a crawl: budgets, named translations and
counterparts first, a few new pages at a time, nothing more of a monolingual site."""

from __future__ import annotations

from collections import Counter

from bilingual_spider.patterns.alternates import Alternate
from bilingual_spider.patterns.crawl_order import MIN_PAGES, MIN_TRIES, NAMED_TRIES, WINDOW
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pair_first import PAIR_FIRST_PRIORITY, PairFirstOrder
from bilingual_spider.patterns.round_state import InMemoryRoundStore

SITE = "museum.example"


def url(lang: str, n: int | str) -> str:
    return f"http://www.museum.example/{lang}/p{n}.html"


def order(budget: int = 1000, pair_first: bool = True, after: int = 50) -> PairFirstOrder:
    counted: Counter[str] = Counter()
    count = counted.update
    made = PairFirstOrder(InMemoryRoundStore(), budget, pair_first, after, lambda k: count([k]))
    made.counted = counted  # type: ignore[attr-defined]
    return made


def test_without_pair_first_a_pages_in_site_links_in_order_within_the_budget():
    pages = order(budget=3, pair_first=False)
    links = [url("en", n) for n in range(5)] + ["http://other.example/x.html"]
    assert [a.url for a in pages.page_came(SITE, url("en", "home"), "en", links)] == links[:3]
    assert list(pages.page_came(SITE, url("en", "home"), "en", links)) == []  # asked already


def test_new_pages_are_asked_for_a_window_at_a_time():
    pages = order()
    links = [url("en", n) for n in range(WINDOW + 10)]
    first = list(pages.page_came(SITE, url("en", "home"), "en", links))
    assert [a.url for a in first] == links[:WINDOW]
    assert list(pages.next_pages(SITE)) == []  # the window is full
    pages.answered(SITE, None, found=True)
    assert [a.url for a in pages.next_pages(SITE)] == [links[WINDOW]]


def test_new_pages_take_the_rest_of_the_budget_once_no_counterpart_can_come():
    """Counterparts took 30 of 40 pages, past the 24 new pages may take while they come; once
    the last is answered, none can come, and the pending links get the other 10."""
    pages = order(budget=40)
    list(pages.page_came(SITE, url("en", "home"), "en", []))
    progress = pages.progress[SITE]
    progress.patterns = (PairingPattern("en", "fr"),)
    assert len(list(pages.pages(SITE, [url("fr", n) for n in range(30)]))) == 30
    progress.pending.extend(url("en", n) for n in range(12))
    for _ in range(20):
        pages.answered(SITE, None, found=True)
    assert list(pages.next_pages(SITE)) == []  # 10 still in flight
    for _ in range(10):
        pages.answered(SITE, None, found=True)
    assert [a.url for a in pages.next_pages(SITE)] == [url("en", n) for n in range(10)]


def test_a_named_translation_comes_first_and_counterparts_by_the_sites_patterns():
    pages = order()
    french = Alternate(url("fr", 0), "fr", "hreflang")
    asks = list(pages.page_came(SITE, url("en", 0), "en", [url("fr", 0)], [french]))
    assert (asks[0].url, asks[0].priority) == (url("fr", 0), PAIR_FIRST_PRIORITY)
    assert pages.counted["pages_asked/named"] == 1
    list(pages.page_came(SITE, url("fr", 0), "fr", []))
    for n in range(1, MIN_PAGES + 5):  # enough English pages to mine the site's patterns
        for ask in pages.page_came(SITE, url("en", n), "en", []):
            pages.answered(SITE, ask.counterpart_of, True, section=ask.section)
        pages.answered(SITE, None, found=True)
    before = pages.counted["pages_asked/counterpart"]
    asks = list(pages.page_came(SITE, url("en", "new"), "en", []))
    assert [(a.url, a.counterpart_of) for a in asks] == [
        (url("fr", "new"), PairingPattern("en", "fr"))
    ]
    assert pages.counted["pages_asked/counterpart"] == before + 1


def test_a_crawl_for_two_languages_asks_first_only_for_translations_in_them():
    """An en-fr crawl of a page whose menu names 9 translations asks for the French one first;
    the German one stays a link (a page of unknown language is asked for: it may be French)."""
    pages = PairFirstOrder(InMemoryRoundStore(), 1000, languages=("en", "fr-CA"))
    named = [
        Alternate(url("de", 0), "de", "hreflang"),
        Alternate(url("fr", 0), "fr", "hreflang"),
        Alternate(url("xx", 0), "", "switcher"),
    ]
    asks = list(pages.page_came(SITE, url("en", 0), "en", [], named))
    first = {a.url for a in asks if a.priority == PAIR_FIRST_PRIORITY}
    assert first == {url("fr", 0), url("xx", 0)}
    anyone = list(order().page_came(SITE, url("en", 0), "en", [], named))
    assert url("de", 0) in [a.url for a in anyone]  # a crawl of any languages: all of them


def test_a_language_none_of_whose_named_versions_is_there_is_asked_for_no_more():
    """The LilyPond manual's switcher names eleven languages on every page; two are on the
    site. Once NAMED_TRIES named versions in Catalan were all missing, a page's Catalan version
    is asked for neither first nor as a link; French, there once in NAMED_TRIES, still is."""
    pages = order()

    def came(n: int) -> list[str]:
        named = [
            Alternate(url("ca", n), "ca", "switcher"),
            Alternate(url("fr", n), "fr", "switcher"),
        ]
        links = [url("ca", n), url("fr", n), url("en", f"next{n}")]
        asks = list(pages.page_came(SITE, url("en", n), "en", links, named))
        for ask in asks:
            found = ask.url == url("fr", 0) or "next" in ask.url
            pages.answered(SITE, ask.counterpart_of, found, ask.named_language)
        return [a.url for a in asks]

    for n in range(NAMED_TRIES):
        assert url("ca", n) in came(n)
    assert pages.counted["named_languages_given_up"] == 0
    asked = came(NAMED_TRIES)
    assert url("ca", NAMED_TRIES) not in asked and url("fr", NAMED_TRIES) in asked
    assert url("ca", NAMED_TRIES + 1) not in came(NAMED_TRIES + 1)
    assert url("ca", NAMED_TRIES) not in [a.url for a in pages.next_pages(SITE)]
    assert pages.counted["named_languages_given_up"] == 1


def test_a_monolingual_site_gets_no_more_pages():
    pages = order(after=10)
    for n in range(10):
        list(pages.page_came(SITE, url("en", n), "en", [url("en", n + 100)]))
    assert list(pages.page_came(SITE, url("en", 10), "en", [url("en", 200)])) == []
    assert pages.counted["sites_stopped_monolingual"] == 1
    pages.answered(SITE, None, found=True)
    assert list(pages.next_pages(SITE)) == []


def test_a_burst_of_pages_asks_a_patterns_counterparts_one_at_a_time_until_one_is_there():
    """The Debian FAQ's chapters come together; <en,zh-tw> pays off elsewhere on the site. In
    each section its first counterpart is asked alone, the others held back: all asked at once
    where it was there, dropped where the first MIN_TRIES are missing."""
    pages = order()
    list(pages.page_came(SITE, url("en", "home"), "en", []))
    progress = pages.progress[SITE]
    pattern = PairingPattern("en", "zh-tw")
    progress.patterns = (pattern,)
    guide = [f"http://www.museum.example/guide/en/ch{n}.html" for n in range(5)]
    asks = [a for page in guide for a in pages.page_came(SITE, page, "en", [])]
    assert [(a.url, a.counterpart_of, a.section) for a in asks] == [
        (guide[0].replace("/en/", "/zh-tw/"), pattern, "guide")
    ]
    pages.answered(SITE, pattern, True, section="guide")
    released = list(pages.next_pages(SITE))
    assert [a.url for a in released] == [p.replace("/en/", "/zh-tw/") for p in guide[1:]]
    assert all(a.priority == PAIR_FIRST_PRIORITY and a.section == "guide" for a in released)
    for _ in released:
        pages.answered(SITE, pattern, True, section="guide")
    faq = [f"http://www.museum.example/faq/en/ch{n}.html" for n in range(10)]
    asks = [a for page in faq for a in pages.page_came(SITE, page, "en", [])]
    assert [a.url for a in asks] == [faq[0].replace("/en/", "/zh-tw/")]
    assert len(progress.counterpart_trials.held[pattern, "faq"]) == 9
    for n in range(MIN_TRIES):  # each missing: the next one, alone
        pages.answered(SITE, pattern, False, section="faq")
        assert len(list(pages.next_pages(SITE))) == (1 if n < MIN_TRIES - 1 else 0)
    assert progress.counterpart_trials.held == {} and progress.pays_off(pattern)
    assert pages.counted["pages_asked/counterpart"] == len(guide) + MIN_TRIES
    assert pages.counted["counterparts_not_asked"] == len(faq) - MIN_TRIES
    assert list(pages.page_came(SITE, faq[0].replace("ch0", "ch99"), "en", [])) == []  # dropped
    more = list(pages.page_came(SITE, guide[0].replace("ch0", "ch99"), "en", []))
    assert [a.url for a in more] == [guide[0].replace("ch0", "ch99").replace("/en/", "/zh-tw/")]


def test_a_burst_of_pages_naming_their_versions_asks_one_a_language_until_one_is_there():
    """LilyPond's pages come in a burst, each naming its Catalan and French versions; only the
    French are on the site. One named version a language is in flight until one is there: all
    the French then; the Catalan one at a time, none after NAMED_TRIES missing (by name or as
    a link), where a burst used to ask each page's before any answer came."""
    pages = order()
    list(pages.page_came(SITE, url("en", "home"), "en", []))
    burst = range(NAMED_TRIES + 12)
    asks = []
    for n in burst:
        named = [
            Alternate(url("ca", n), "ca", "switcher"),
            Alternate(url("fr", n), "fr", "switcher"),
        ]
        asks += pages.page_came(SITE, url("en", n), "en", [url("ca", n), url("fr", n)], named)
    assert [a.url for a in asks] == [url("ca", 0), url("fr", 0)]
    pages.answered(SITE, None, True, named_language="fr")
    french = list(pages.next_pages(SITE))
    assert [a.url for a in french] == [url("fr", n) for n in burst[1:]]
    catalan = [url("ca", 0)]
    for _ in range(NAMED_TRIES):
        pages.answered(SITE, None, False, named_language="ca")
        catalan += [a.url for a in pages.next_pages(SITE) if "/ca/" in a.url]
    assert catalan == [url("ca", n) for n in range(NAMED_TRIES)]
    assert pages.counted["named_versions_not_asked"] == len(burst) - NAMED_TRIES
    assert pages.counted["named_languages_given_up"] == 1
    assert pages.counted["pages_asked/named"] == len(burst) + NAMED_TRIES


def test_counterparts_held_back_are_not_asked_once_their_pattern_fails_on_the_site():
    pages = order()
    list(pages.page_came(SITE, url("en", "home"), "en", []))
    pattern = PairingPattern("en", "fr")
    pages.progress[SITE].patterns = (pattern,)
    guide = [f"http://www.museum.example/guide/en/ch{n}.html" for n in range(5)]
    asks = [a for page in guide for a in pages.page_came(SITE, page, "en", [])]
    for n in range(MIN_TRIES):  # another section's counterparts all missing: 0 of 4
        pages.answered(SITE, pattern, False, section=f"faq{n}")
    pages.answered(SITE, pattern, True, section="guide")  # 1 of 5 on the site: it fails
    assert len(asks) == 1 and list(pages.next_pages(SITE)) == []
    assert pages.counted["counterparts_not_asked"] == len(guide) - 1


def test_a_pages_versions_on_sites_not_known_yet_are_taken_up_once_each():
    """ccTLD siblings and a differently named domain: each site a page names its versions on is
    taken up once, by its first URL; not the site itself, a site known already, a version in
    the page's own language, in a language the crawl does not want or in none (a toggle)."""
    pages = PairFirstOrder(InMemoryRoundStore(), 1000, languages=("en", "de", "fr"))
    named = [
        Alternate("http://www.kestrel.de/a.html", "de", "hreflang"),
        Alternate("http://www.kestrel.de/b.html", "de", "switcher"),
        Alternate("http://www.kestrel.fr/a.html", "fr", "hreflang"),
        Alternate("http://www.kestrel.co.uk/a.html", "en", "hreflang"),
        Alternate("http://www.kestrel.it/a.html", "it", "hreflang"),
        Alternate("http://www.parcs-kestrel.ca/", "fr", "switcher"),
        Alternate("http://www.kestrel.bj/", "", "toggle"),
        Alternate("http://www.museum.example/de/a.html", "de", "hreflang"),
        Alternate("http://www.known.example/a.html", "fr", "hreflang"),
    ]
    pages.store.first_sight("known.example", "seed")
    found = pages.version_sites(SITE, "en", named)
    assert found == [
        "http://www.kestrel.de/a.html",
        "http://www.kestrel.fr/a.html",
        "http://www.parcs-kestrel.ca/",
    ]
    pages.max_version_sites = 1
    assert pages.version_sites(SITE, "en", named) == found[:1]
    pages.store.first_sight("kestrel.de", f"versions of {SITE}")
    assert pages.version_sites(SITE, "en", named)[0] == "http://www.kestrel.fr/a.html"
    # a redelivered page names them again, known or not (its first worker may have died first)
    assert pages.version_sites(SITE, "en", named, known=True)[0] == "http://www.kestrel.de/a.html"
