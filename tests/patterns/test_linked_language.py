"""A page's language from the links naming it (issue 49): on a site whose URLs and ``<html
lang>`` say nothing (``/p/NUMBER.html`` under a template's ``lang="en"``), the switcher's labels
and ``hreflang`` of the pages linking to a page declare its language, and that declaration is
weighed as the page's own would be (:func:`resolve_language`). Text: the gettext catalogs of apt
and dpkg Debian installs (Dzongkha, Bokmål), as ``tests/language/test_declared_language.py``."""

from __future__ import annotations

import pytest

from bilingual_spider.language.declared_language import Signal
from bilingual_spider.patterns.alternates import HREFLANG, SWITCHER, Alternate
from bilingual_spider.patterns.crawl_round import (
    CrawledSites,
    PageRecord,
    linked_language_pages,
    pair_round,
    relabelled,
)
from tests.language.test_declared_language import catalog_sentences

SITE = "http://docs.example"


@pytest.fixture(scope="module")
def identifier():
    from bilingual_spider.language.identification import default_identifier

    return default_identifier()


def site(identifier, translated: str, named: str, via: str = SWITCHER, copy: bool = False):
    """Three documents in English and in ``translated`` (English again when ``copy``), at
    opaque URLs; every page links to its version in the other language, labelled ``named`` (and
    ``en``), and to the English home. Each page's language is the identifier's guess."""
    texts, english = catalog_sentences(translated)
    pages = {}
    home = f"{SITE}/p/100.html"
    for n in range(3):
        en_url, other_url = f"{SITE}/p/{200 + n}.html", f"{SITE}/p/{300 + n}.html"
        en_text = " ".join(english[n * 10 : n * 10 + 10])
        other_text = en_text if copy else " ".join(texts[n * 10 : n * 10 + 10])
        for url, text, partner, label in (
            (en_url, en_text, other_url, named),
            (other_url, other_text, en_url, "en"),
        ):
            guess = identifier.identify(text)[0].lang
            pages[url] = PageRecord.of(
                url, guess, text, [home, partner], alternates=[Alternate(partner, label, via)]
            )
    return pages


def test_a_page_in_a_language_the_identifier_lacks_takes_the_one_its_links_name(identifier):
    pages = site(identifier, "dz", "dz")
    assert {pages[f"{SITE}/p/30{n}.html"].language for n in range(3)} == {"bo"}  # a stand-in
    linked = linked_language_pages(pages, identifier.knows)
    assert sorted(linked) == [f"{SITE}/p/30{n}.html" for n in range(3)]  # English: as it was
    assert {(page.language, page.language_signal) for page in linked.values()} == {
        ("dz", Signal.LINKED_ON_SITE)  # the site has no page in Tibetan: bo is a stand-in
    }
    # without the identifier's label set too: the site's languages say so
    assert linked_language_pages(pages) == linked


def test_a_close_neighbour_gives_way_to_the_language_the_links_name(identifier):
    pages = site(identifier, "nb", "nb", via=HREFLANG)
    assert {pages[f"{SITE}/p/30{n}.html"].language for n in range(3)} == {"no"}
    linked = linked_language_pages(pages)
    assert {(page.language, page.language_signal) for page in linked.values()} == {
        ("nb", Signal.LINKED_CLOSE)
    }


def test_an_english_copy_the_links_call_another_language_stays_english(identifier):
    for lang in ("dz", "om", "nb"):  # Tibetan script; Latin script read as English; not close
        pages = site(identifier, "dz", lang, copy=True)
        assert linked_language_pages(pages, identifier.knows) == {}, lang


def test_a_page_its_url_or_two_languages_name_is_left_as_it_is(identifier):
    pages = site(identifier, "nb", "nb")
    marked = {}
    for url, page in pages.items():  # the same site with the translations under /da/
        moved = url.replace("/p/30", "/da/30")
        alternates = [Alternate(a.url.replace("/p/30", "/da/30"), a.language, a.via)
                      for a in page.alternates]  # fmt: skip
        marked[moved] = PageRecord.of(moved, page.language, page.text, page.links,
                                      alternates=alternates)  # fmt: skip
    # its URL says da: the links do not decide (the URL does: Norwegian is not on the site)
    assert {page.language for page in linked_language_pages(marked).values()} == {"da"}
    english = f"{SITE}/p/200.html"
    twice = dict(pages)
    twice[f"{SITE}/p/100.html"] = PageRecord.of(
        f"{SITE}/p/100.html",
        "en",
        "Home",
        [],
        alternates=[Alternate(f"{SITE}/p/300.html", "nn", SWITCHER)],
    )
    linked = linked_language_pages(twice)
    assert f"{SITE}/p/300.html" not in linked  # named nb and nn
    assert f"{SITE}/p/301.html" in linked and english not in linked


def test_a_round_pairs_a_page_in_the_language_its_links_name_and_says_so(identifier):
    crawled = CrawledSites()
    for page in site(identifier, "dz", "dz").values():
        crawled.add(page)
    found = pair_round(crawled, knows=identifier.knows)
    assert len(found.pairs) == 3
    for pair in found.pairs:
        assert (pair.source_language, pair.target_language) == ("en", "dz")
        assert pair.language_signals == ("identifier", "linked_on_site")
    assert len(found.linked) == 3
    linked = {url: (language, signal) for url, language, signal in found.linked}
    page = crawled.pages[f"{SITE}/p/300.html"]
    assert relabelled(page, linked).language == "dz"
    assert relabelled(crawled.pages[f"{SITE}/p/200.html"], linked).language == "en"
    assert crawled.pages[f"{SITE}/p/300.html"].language == "bo"  # the record kept is as fetched


def test_a_mixed_page_has_its_blocks_read_in_the_language_its_links_name(identifier):
    from bilingual_spider.language.page_language import LanguageBlock

    bokmal, english = catalog_sentences("nb")
    norwegian = " ".join(bokmal[:10])
    licence = " ".join(english[10:20])
    blocks = (LanguageBlock(norwegian, identifier.identify(norwegian)[0].lang),
              LanguageBlock(licence, "en"))  # fmt: skip
    assert blocks[0].lang == "no"
    url, home = f"{SITE}/p/300.html", f"{SITE}/p/200.html"
    pages = {
        url: PageRecord.of(url, None, f"{norwegian} {licence}", [home], mixed_blocks=blocks),
        home: PageRecord.of(
            home, "en", licence, [url], alternates=[Alternate(url, "nb", SWITCHER)]
        ),  # fmt: skip
    }
    linked = linked_language_pages(pages)
    assert [(block.lang, block.signal) for block in linked[url].mixed_blocks] == [
        ("nb", Signal.LINKED_CLOSE),
        ("en", Signal.IDENTIFIER),  # the untranslated licence stays English
    ]
    assert linked[url].language is None  # each pair decides a mixed page's language


def test_a_page_mixed_only_by_stand_ins_for_a_language_the_identifier_lacks_takes_it(identifier):
    """Real Oromo (the declaration of ``sandbox/udhr.py``): lid.176 reads its paragraphs as
    several stand-ins, none with ``MIN_LANGUAGE_SHARE`` of the text, so the page is mixed as
    fetched. The links name it ``om``, every block reads so: an Oromo page, paired with its
    English version, though an English copy served as Swedish names it too (a page the pages of
    one language name twice offers no pair from their side)."""
    from bilingual_spider.language.page_language import language_blocks, language_of_blocks
    from bilingual_spider.patterns.pair_language import MIN_LANGUAGE_SHARE
    from bilingual_spider.sandbox.udhr import declaration

    oromo = [text for _, text in declaration("om")[4:7]]
    english = " ".join(text for _, text in declaration("en")[4:7])
    blocks = tuple(language_blocks(oromo, identifier=identifier))
    as_read = language_of_blocks(list(blocks))
    assert as_read.score < MIN_LANGUAGE_SHARE and len(as_read.shares) >= 2, as_read
    om_url, en_url, copy_url = (f"{SITE}/p/{n}.html" for n in (300, 200, 400))
    versions = {om_url: "om", en_url: "en", copy_url: "sv"}

    def named(url: str) -> list[Alternate]:
        return [
            Alternate(other, lang, HREFLANG) for other, lang in versions.items() if other != url
        ]

    pages = {
        om_url: PageRecord.of(om_url, None, " ".join(oromo), list(versions),
                              alternates=named(om_url), mixed_blocks=blocks),
        en_url: PageRecord.of(en_url, "en", english, list(versions), alternates=named(en_url)),
        copy_url: PageRecord.of(copy_url, "en", english, list(versions),
                                alternates=named(copy_url)),
    }  # fmt: skip
    linked = linked_language_pages(pages, identifier.knows)
    page = linked[om_url]
    assert (page.language, page.mixed_blocks, page.language_signal) == (
        "om",
        (),
        Signal.LINKED_ON_SITE,
    )
    crawled = CrawledSites()
    for record in pages.values():
        crawled.add(record)
    found = pair_round(crawled, knows=identifier.knows)
    assert [(p.source, p.target, p.source_language, p.target_language) for p in found.pairs] == [
        (en_url, om_url, "en", "om")
    ]


def test_a_page_its_url_names_takes_it_over_a_sure_stand_in_the_site_has_no_page_in(identifier):
    from tests.language.test_declared_language import FAROESE

    _, english = catalog_sentences("dz")
    en_text = " ".join(english[:10])
    pages = {}
    for lang, text in (("en", en_text), ("fo", FAROESE)):
        url = f"{SITE}/{lang}/rights.html"
        pages[url] = PageRecord.of(url, identifier.identify(text)[0].lang, text, [])
    faroese = f"{SITE}/fo/rights.html"
    assert pages[faroese].language == "is"
    linked = linked_language_pages(pages, identifier.knows)
    assert list(linked) == [faroese]
    assert (linked[faroese].language, linked[faroese].language_signal) == (
        "fo",
        Signal.DECLARED_ON_SITE,
    )
    icelandic = f"{SITE}/is/rights.html"  # the site has Icelandic pages: it may be their copy
    pages[icelandic] = PageRecord.of(icelandic, "is", FAROESE, [])
    assert faroese not in linked_language_pages(pages, identifier.knows)


def test_a_page_read_as_its_language_takes_the_variety_its_url_declares_beside_another():
    """``?lang=pt-pt`` and ``?lang=pt-br`` pages, both read ``pt``: each its own variety, so
    that an English page pairs with both (a declared Portuguese region is always taken)."""
    european = "Todos os seres humanos nascem livres e iguais em dignidade e em direitos."
    brazilian = "Todos os seres humanos nascem livres e iguais em dignidade e direitos."
    pages = {
        f"{SITE}/?p=1&lang={code}": PageRecord.of(f"{SITE}/?p=1&lang={code}", "pt", text, [])
        for code, text in (("pt-pt", european), ("pt-br", brazilian))
    }
    linked = linked_language_pages(pages)
    assert {page.language for page in linked.values()} == {"pt-PT", "pt-BR"}
    assert {page.language_signal for page in linked.values()} == {Signal.DECLARED_CLOSE}
    alone = {url: page for url, page in pages.items() if url.endswith("pt-br")}
    assert [page.language for page in linked_language_pages(alone).values()] == ["pt-BR"]
    english = "All human beings are born free and equal in dignity and rights."
    bare = {  # a bare en beside en-us: one template's word against another's, no variety
        f"{SITE}/?p=2&lang={code}": PageRecord.of(f"{SITE}/?p=2&lang={code}", "en", english, [])
        for code in ("en", "en-us")
    }
    assert linked_language_pages(bare) == {}


def test_the_pages_below_a_section_the_links_name_take_its_language(identifier):
    """Only the home's switcher names ``/rdzong/`` Dzongkha (a directory no URL marker reads,
    as Gagauz's ``/gag/``); the pages below it, linked from that section alone under a
    template's ``lang="en"``, take its language as a page the links name would."""
    texts, english = catalog_sentences("dz")
    section = f"{SITE}/rdzong/"
    pages = {
        f"{SITE}/": PageRecord.of(f"{SITE}/", "en", " ".join(english[:10]), [section],
                                  alternates=[Alternate(section, "dz", SWITCHER)]),
    }  # fmt: skip
    below = [f"{SITE}/rdzong/chos/{n}.html" for n in range(2)]
    for n, url in enumerate(below):
        text = " ".join(texts[n * 10 : n * 10 + 10])
        guess = identifier.identify(text)[0].lang
        pages[url] = PageRecord.of(url, guess, text, [section], html_lang="en")
    assert {pages[url].language for url in below} == {"bo"}  # a stand-in
    linked = linked_language_pages(pages, identifier.knows)
    assert {linked[url].language for url in below} == {"dz"}
