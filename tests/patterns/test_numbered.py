"""Pairs of pages whose URLs share their numbers and shape under translated slugs."""

from __future__ import annotations

from bilingual_spider.patterns.crawl_round import CrawledSites, PageRecord, pair_round
from bilingual_spider.patterns.numbered import NUMBERED, numbered_pairs, url_skeleton

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


def records(*pages: tuple[str, str, str]) -> dict[str, PageRecord]:
    return {url: PageRecord.of(url, lang, text, ()) for url, lang, text in pages}


def test_the_only_pages_of_two_languages_with_one_skeleton_pair():
    pages = records(
        ("http://x.example/en/report/2023/05/annual-report", "en", ENGLISH),
        ("http://x.example/de/bericht/2023/05/jahresbericht", "de", GERMAN),
        ("http://x.example/en/doc/7-rights", "en", ENGLISH),
        ("http://x.example/de/dok/7-rechte", "de", GERMAN),
        ("http://x.example/de/dok/7-pflichten", "de", GERMAN),  # two German pages: ambiguous
        ("http://x.example/fr/doc/7-droits", "fr", FRENCH),
        ("http://y.example/fr/report/2023/05/rapport", "fr", FRENCH),  # another site
        ("http://x.example/en/doc/8-a", "en", ENGLISH),
        ("http://x.example/en/doc/8-b", "en", ENGLISH),
    )
    pairs = {(p.source, p.target, p.method) for p in numbered_pairs(pages)}
    assert pairs == {
        ("http://x.example/de/bericht/2023/05/jahresbericht",
         "http://x.example/en/report/2023/05/annual-report", NUMBERED),
        ("http://x.example/en/doc/7-rights", "http://x.example/fr/doc/7-droits", NUMBERED),
    }  # fmt: skip
    # a page another method pairs with a French page is left to it
    paired = [("http://x.example/en/doc/7-rights", "http://x.example/fr/doc/other")]
    pages.update(records(("http://x.example/fr/doc/other", "fr", FRENCH)))
    assert len(numbered_pairs(pages, paired)) == 1


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
    assert {(a, b) for a, b, n in pairs if n == "22"} == {("DE", "EN")}
    assert {(a, b) for a, b, n in pairs if n == "07"} == {("DE", "EN"), ("DE", "RM"), ("EN", "RM")}
