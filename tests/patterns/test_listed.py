"""Pairs of pages two paired translated lists name in the same place."""

from __future__ import annotations

from bilingual_spider.patterns.crawl_round import (
    CrawledSites,
    PageRecord,
    marked_otherwise,
    pair_round,
)
from bilingual_spider.patterns.listed import LISTED, listed_pairs
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair

SITE = "http://www.vilanova.example"
DOCS = {
    "es": ["servicios", "agenda", "historia", "playas"],
    "ca": ["serveis", "agenda-ca", "historia-ca", "platges"],
}
TEXTS = {
    "es": "El ayuntamiento abre todos los días de nueve de la mañana a seis de la tarde.",
    "ca": "L'ajuntament obre cada dia de nou del matí a sis de la tarda.",
}


def municipal(skip: str = "") -> dict[str, PageRecord]:
    """Each language's index lists its documents in one order (the home and a contact page
    too), under translated slugs with no number; ``skip``: a Catalan document not written."""
    pages = {}
    for lang, docs in DOCS.items():
        urls = [f"{SITE}/{lang}/{doc}/" for doc in docs if doc != skip]
        index = f"{SITE}/{lang}/"
        links = [f"{SITE}/", *urls, f"{SITE}/contact/"]
        pages[index] = PageRecord.of(index, lang, TEXTS[lang], links)
        for n, url in enumerate(urls):
            pages[url] = PageRecord.of(url, lang, f"{TEXTS[lang]} {n}", [index, f"{SITE}/"])
    welcome = "Bienvenidos al portal de Vilanova, su ciudad junto al mar."
    pages[f"{SITE}/"] = PageRecord.of(f"{SITE}/", "es", welcome, [])
    return pages


INDEXES = UrlPair(
    f"{SITE}/ca/", f"{SITE}/es/", PairingPattern.of("ca", "es"), 1.0, 1.0, "switcher", "ca", "es"
)


def test_two_paired_indexes_pair_their_documents_in_order():
    pairs = {
        (p.source.split("/")[-2], p.target.split("/")[-2])
        for p in listed_pairs(municipal(), [INDEXES])
    }
    assert pairs == set(zip(DOCS["ca"], DOCS["es"], strict=True))
    assert {p.method for p in listed_pairs(municipal(), [INDEXES])} == {LISTED}


def test_of_lists_a_document_apart_each_page_is_a_candidate_with_the_longers_next_place():
    """A document missing in Catalan shifts the later places: each Catalan page is a candidate
    with the Spanish page in its place and the one after (the content verifier chooses)."""
    pairs = {
        (p.source.split("/")[-2], p.target.split("/")[-2])
        for p in listed_pairs(municipal(skip="agenda-ca"), [INDEXES])
    }
    assert pairs == {
        ("serveis", "servicios"),
        ("serveis", "agenda"),
        ("historia-ca", "agenda"),
        ("historia-ca", "historia"),
        ("platges", "historia"),
        ("platges", "playas"),
    }
    assert listed_pairs(municipal(skip="agenda-ca"), [INDEXES], max_shift=0) == []


def test_lists_too_far_apart_or_pages_paired_already_pair_nothing_more():
    pages = municipal()
    index = f"{SITE}/es/"
    more = [f"{SITE}/es/nuevo-{n}/" for n in range(3)]  # too many more to place
    for url in more:
        pages[url] = PageRecord.of(url, "es", TEXTS["es"], [index])
    pages[index] = PageRecord.of(index, "es", TEXTS["es"], [*more, *pages[index].links])
    assert listed_pairs(pages, [INDEXES]) == []
    known = UrlPair(f"{SITE}/ca/serveis/", f"{SITE}/es/servicios/", INDEXES.pattern, 1.0, 1.0,
                    "local", "ca", "es")  # fmt: skip
    pairs = listed_pairs(municipal(), [INDEXES, known])
    assert len(pairs) == 3 and all("serveis" not in p.source for p in pairs)


def test_a_round_pairs_the_documents_of_indexes_a_pattern_pairs():
    crawled = CrawledSites()
    for page in municipal().values():
        crawled.add(page)
    result = pair_round(crawled)  # /ca/ and /es/: the pattern <ca,es>
    listed = {
        (p.source.split("/")[-2], p.target.split("/")[-2])
        for p in result.pairs
        if p.method == LISTED
    }
    assert listed == set(zip(DOCS["ca"], DOCS["es"], strict=True))


def test_a_slugs_last_word_that_spells_a_language_the_site_has_no_page_in_marks_nothing():
    """Merikoski's Finnish slugs end in ``-ja`` ("and"): no Japanese on the site, so no page is
    a fallback and the lists stay as long."""
    crawled = CrawledSites()
    texts = {"fi": "Kaikki ihmiset syntyvät vapaina ja tasavertaisina.", "sv": TEXTS["ca"]}
    slugs = {"fi": ["kaikki-ovat-ja", "jokaisella-on"], "sv": ["alla-ar", "envar-har"]}
    for lang, folder in (("fi", "kaupunki"), ("sv", "stad")):
        urls = [f"{SITE}/{folder}/{slug}" for slug in slugs[lang]]
        crawled.add(PageRecord.of(f"{SITE}/{folder}/", lang, texts[lang], urls))
        for n, url in enumerate(urls):
            crawled.add(PageRecord.of(url, lang, f"{texts[lang]} {n}", [f"{SITE}/{folder}/"]))
    indexes = UrlPair(f"{SITE}/kaupunki/", f"{SITE}/stad/", PairingPattern.of("fi", "sv"),
                      1.0, 1.0, "switcher", "fi", "sv")  # fmt: skip
    unmarked = {u: p for u, p in crawled.pages.items() if not marked_otherwise(p, {"fi", "sv"})}
    assert len(listed_pairs(unmarked, [indexes])) == 2
    assert marked_otherwise(crawled.pages[f"{SITE}/kaupunki/kaikki-ovat-ja"], {"fi", "ja"})
    # in a slug, a word that spells a language the site has is a word ("en", Swedish "a")
    swedish = PageRecord.of(f"{SITE}/stad/envar-har-ratt-till-en-social", "sv", "", ())
    assert not marked_otherwise(swedish, {"sv", "en"})
    fallback = PageRecord.of(f"{SITE}/docs/index-sv.html", "fi", "", ())
    assert marked_otherwise(fallback, {"sv", "fi"})  # a short file name's suffix marks


def test_lists_are_followed_down_a_level_at_a_time_from_the_pairs_found_otherwise():
    """Each home lists its sections, each section its documents, under translated folder and
    file names: the homes' pattern pairs the sections by their places, and those pairs the
    documents by theirs."""
    sections = {"es": ("servicios", "cultura"), "ca": ("serveis", "cultura-ca")}
    documents = {"es": ("horarios", "tasas", "museo", "teatro"),
                 "ca": ("horaris", "taxes", "museu", "teatre")}  # fmt: skip
    crawled = CrawledSites()
    for lang in ("es", "ca"):
        home = f"{SITE}/{lang}/"
        folders = [f"{home}{section}/" for section in sections[lang]]
        crawled.add(PageRecord.of(home, lang, TEXTS[lang], [f"{SITE}/", *folders]))
        for n, folder in enumerate(folders):
            docs = [f"{folder}{doc}.html" for doc in documents[lang][2 * n : 2 * n + 2]]
            crawled.add(PageRecord.of(folder, lang, f"{TEXTS[lang]} {n}", [home, *docs]))
            for m, url in enumerate(docs):
                links = [f"{SITE}/", folder]  # the logo, the section
                crawled.add(PageRecord.of(url, lang, f"{TEXTS[lang]} {n} {m}", links))
    listed = {
        (p.source.split("/")[-1] or p.source.split("/")[-2], p.target.split("/")[-1] or "")
        for p in pair_round(crawled).pairs
        if p.method == LISTED
    }
    assert {("horaris.html", "horarios.html"), ("teatre.html", "teatro.html")} <= listed
    assert len(listed) == 6  # two sections, four documents
