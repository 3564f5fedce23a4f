"""Pairs of pages whose URLs share their numbers and shape under translated slugs."""

from __future__ import annotations

from dataclasses import replace

from bilingual_spider.patterns.crawl_round import CrawledSites, PageRecord, pair_round
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.numbered import NUMBERED, numbered_pairs, url_skeleton
from bilingual_spider.patterns.pairing import UrlPair

ENGLISH = "The museum opens every day from nine in the morning until six in the evening."
GERMAN = "Das Museum ist täglich von neun Uhr morgens bis sechs Uhr abends geöffnet."
FRENCH = "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir."
ROMANSH = "Il museum è avert mintga di da las nov la damaun fin las sis la saira."


def test_a_skeleton_keeps_a_urls_numbers_and_shape_and_drops_its_words():
    assert url_skeleton("http://x/en/news/10234-rights-for-all") == "/*/*/10234-*"
    assert url_skeleton("http://x/fr/actualites/10234-des-droits-pour-tous") == "/*/*/10234-*"
    assert url_skeleton("http://x/EN/human-rights/article-03.html") == url_skeleton(
        "http://x/RM/dretgs-umans/artitgel-03.html"
    )
    assert url_skeleton("http://x/en/p-4711/steel-valve") != url_skeleton("http://x/es/p-47110/x")
    assert url_skeleton("http://x/en/page.php?id=17") == "/*/*?*=17"
    assert url_skeleton("http://x/zh/%E6%96%87%E7%AB%A0-7") == "/*/*-7"  # the words, unquoted
    assert url_skeleton("http://x/de/menschenrechte/") is None  # no number: every index's


def test_a_slug_wordpress_numbered_as_its_name_was_taken_has_the_skeleton_without_it_too():
    taken = "http://x.example/en/products/p-7344/everyone-has-the-right-to-freedom-2"
    pages = records(
        (taken, "en", ENGLISH),
        ("http://x.example/nl/producten/p-7344/een-ieder-heeft-recht", "nl", GERMAN),
        ("http://x.example/en/guide/chapter-2.html", "en", ENGLISH),  # no number left: no pair
        ("http://x.example/de/leitfaden/einleitung.html", "de", GERMAN),
    )
    assert [(p.source, p.target) for p in numbered_pairs(pages)] == [
        (taken, "http://x.example/nl/producten/p-7344/een-ieder-heeft-recht")
    ]


def records(*pages: tuple[str, str, str]) -> dict[str, PageRecord]:
    return {url: PageRecord.of(url, lang, text, ()) for url, lang, text in pages}


def test_pages_of_two_languages_with_one_skeleton_are_candidates_unless_many_share_it():
    pages = records(
        ("http://x.example/en/report/2023/05/annual-report", "en", ENGLISH),
        ("http://x.example/de/bericht/2023/05/jahresbericht", "de", GERMAN),
        ("http://x.example/de/bericht/2023/05/quartalsbericht", "de", GERMAN),  # a month's two
        ("http://y.example/fr/rapport/2023/05/rapport", "fr", FRENCH),  # another site
        ("http://x.example/fr/doc/7-droits", "fr", FRENCH),
        *((f"http://x.example/en/doc/7-{word}", "en", ENGLISH) for word in "abcd"),  # four
        ("http://x.example/fr/doc/8-droits", "fr", FRENCH),
        ("http://x.example/en/doc/8-rights", "en", ENGLISH),
        ("http://x.example/en/doc/9-rights", "en", ENGLISH),  # no French page with 9
    )
    report = "http://x.example/en/report/2023/05/annual-report"
    assert {(p.source, p.target, p.method) for p in numbered_pairs(pages)} == {
        ("http://x.example/de/bericht/2023/05/jahresbericht", report, NUMBERED),
        ("http://x.example/de/bericht/2023/05/quartalsbericht", report, NUMBERED),
        ("http://x.example/en/doc/8-rights", "http://x.example/fr/doc/8-droits", NUMBERED),
    }
    # a page another method paired with a German page is left to it
    other = UrlPair(report, "http://x.example/de/x", PairingPattern.of("en", "de"), 1, 1, "local")
    judged = replace(other, source_language="en", target_language="de")
    assert {p.target for p in numbered_pairs(pages, [judged])} == {
        "http://x.example/fr/doc/8-droits"
    }


def test_a_round_pairs_translated_slugs_by_their_numbers_past_a_fallback():
    """Graubünden's chancellery: /EN/, /DE/, /RM/ under translated folder and file names, no
    page linking its translation; the Romansh URL of article 22 serves the German page."""
    crawled = CrawledSites()
    home = "http://gr.example/"
    sections = {
        "en": ("EN/publications/human-rights/article", ENGLISH),
        "de": ("DE/publikationen/menschenrechte/artikel", GERMAN),
        "rm": ("RM/publicaziuns/dretgs-umans/artitgel", ROMANSH),
    }
    for n in (4, 7, 22):
        for lang, (path, _) in sections.items():
            own = lang if (lang, n) != ("rm", 22) else "de"
            body = sections[own][1]
            crawled.add(PageRecord.of(f"{home}{path}-{n:02d}.html", own, f"{body} {n}", [home]))
    pairs = {
        (p.source.split("/")[3], p.target.split("/")[3], p.source[-7:-5])
        for p in pair_round(crawled).pairs
        if p.method == NUMBERED
    }
    assert {(a, b) for a, b, n in pairs if n == "22"} == {("DE", "EN")}  # not the fallback
    assert {("DE", "EN"), ("EN", "RM")} <= {(a, b) for a, b, n in pairs if n == "07"}


def test_of_a_pages_numbered_candidates_in_a_language_the_best_verified_holds():
    """A month's two German reports share the English report's skeleton: the one the content
    verifier finds the better translation takes the English page's German place."""
    from bilingual_spider.patterns.crawl_round import _best_attested

    report = "http://x.example/en/report/2023/05/annual-report"
    de = PairingPattern.of("de", "en")

    def candidate(url: str, probability: float) -> UrlPair:
        return UrlPair(url, report, de, 0.25, 0.25, NUMBERED, "de", "en",
                       verification={"probability": probability})  # fmt: skip

    worse = candidate("http://x.example/de/bericht/2023/05/quartalsbericht", 0.6)
    better = candidate("http://x.example/de/bericht/2023/05/jahresbericht", 0.9)
    assert _best_attested([worse, better]) == [(worse, False), (better, True)]
