"""A PupSniffer round on hand-made pages: pairs judged by language, marker and shared links;
deep-page candidates; the sites of the next round."""

import pytest

from bilingual_spider.patterns.crawl_round import (
    COPY_OF_ANOTHER,
    NO_SHARED_LINKS,
    NOT_AS_MARKED,
    CrawledSites,
    PageRecord,
    as_marked,
    copy_side,
    deep_page_candidates,
    marked_otherwise,
    next_round_sites,
    pair_round,
    site_languages,
)
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import LOCAL

ENGLISH = "The museum opens every day from nine in the morning until six in the evening."
FRENCH = "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir."
GERMAN = "Das Museum ist täglich von neun Uhr morgens bis sechs Uhr abends geöffnet."


def page(url: str, language: str | None, text: str, *links: str) -> PageRecord:
    return PageRecord.of(url, language, text + " " + url, links)


def museum(pages: int = 4) -> CrawledSites:
    """A site with /en/ and /fr/ versions of ``pages`` pages, each linking to the home pages."""
    crawled = CrawledSites()
    home = {lang: f"http://www.museum.example/{lang}/index.html" for lang in ("en", "fr")}
    for i in range(pages):
        for lang, text in (("en", ENGLISH), ("fr", FRENCH)):
            url = f"http://www.museum.example/{lang}/p{i}.html"
            crawled.add(page(url, lang, f"{text} {i}", home[lang], home["en"]))
    return crawled


def test_a_round_pairs_the_two_versions_of_each_page():
    result = pair_round(museum())
    assert {(p.source, p.target) for p in result.pairs} == {
        (f"http://www.museum.example/en/p{i}.html", f"http://www.museum.example/fr/p{i}.html")
        for i in range(4)
    }
    pair = result.pairs[0]
    assert pair.method == LOCAL and pair.pattern == PairingPattern("en", "fr")
    assert {pair.source_language, pair.target_language} == {"en", "fr"}
    assert pair.similarity is not None and pair.similarity > 0
    assert result.credibility.site["museum.example"] == 1.0  # every page paired
    assert site_languages(result.pairs) == {"museum.example": ["en", "fr"]}


def test_pages_of_one_language_never_pair_and_a_copied_translation_is_rejected():
    crawled = museum(2)
    home = "http://www.museum.example/en/index.html"
    crawled.add(page("http://www.museum.example/en/p8.html", "en", ENGLISH + " eight", home))
    crawled.add(page("http://www.museum.example/fr/p8.html", "en", ENGLISH + " huit", home))
    crawled.add(page("http://www.museum.example/en/p9.html", "en", ENGLISH + " nine", home))
    crawled.add(page("http://www.museum.example/fr/p9.html", "fr", ENGLISH + " nine", home))
    result = pair_round(crawled)
    assert not any(name in p.source for p in result.pairs for name in ("p8", "p9"))
    assert set(result.rejected) == {"copied"}


def test_a_page_that_is_not_in_the_language_its_url_names_is_an_untranslated_fallback():
    crawled = museum(2)
    crawled.add(page("http://www.museum.example/de/p0.html", "en", ENGLISH + " 0 copy"))
    assert not as_marked("http://www.museum.example/de/p0.html", PairingPattern("de", "fr"), "en")
    assert as_marked("http://www.museum.example/de/p0.html", PairingPattern("de", "fr"), "de")
    assert as_marked("http://www.museum.example/p0.html", PairingPattern("", "fr"), "en")
    result = pair_round(crawled)
    assert not any("/de/" in url for p in result.pairs for url in (p.source, p.target))
    assert result.rejected.get(NOT_AS_MARKED, 0) >= 1


@pytest.mark.parametrize(
    ("url", "language", "as_its_url_marks"),
    [
        ("http://x.example/fr/actualites/10257-nul-ne-sera-tenu-en-esclavage", "fr", True),
        ("http://x.example/stad/envar-har-ratt-till-en-social", "fr", True),  # words
        ("http://x.example/docs/getting-started-with-it.en.html", "fr", False),  # a suffix
        ("http://x.example/files/annual_report_2020_en.pdf", "fr", False),
        ("http://x.example/en_rep_04.htm", "fr", False),
        ("http://x.example/b-en.html", "fr", False),  # a short name's words mark
    ],
)
def test_a_slugs_words_name_no_language_its_suffixes_do(url, language, as_its_url_marks):
    assert as_marked(url, PairingPattern("en", "fr"), language) is as_its_url_marks


@pytest.mark.parametrize(
    ("url", "html_lang", "declared"),
    [
        ("http://x.example/vijesti/51233-svi-su-pred-zakonom-jednaki-i.html", None, None),
        ("http://x.example/vijesti/51233-svi-su-pred-zakonom-jednaki-i.html", "hr", "hr"),
        ("http://x.example/docs/getting-started-with-it.fr.html", None, "fr"),
        ("http://x.example/su/index.html", None, "su"),
    ],
)
def test_a_slugs_words_declare_no_language(url, html_lang, declared):
    """Bosnian ``svi su pred zakonom``, "all are before the law": ``su`` is no Sundanese."""
    from bilingual_spider.patterns.crawl_round import declared_language

    assert declared_language(url, html_lang) == declared


def test_a_page_its_links_name_in_its_language_is_marked_so_whatever_its_url_says():
    """``uk.`` is the British site, ``ua.`` the Ukrainian one: each names the other (hreflang
    en-GB, uk-UA). The host's ``uk`` says Ukrainian; the links naming the page say English."""
    from dataclasses import replace

    from bilingual_spider.patterns.alternates import (
        Alternate,
        declared_versions,
        linked_languages,
    )
    from bilingual_spider.patterns.crawl_round import judge_pair
    from bilingual_spider.patterns.pairing import UrlPair

    british, ukrainian = "http://uk.freight.example/a.html", "http://ua.freight.example/a.html"
    source = PageRecord.of(british, "en", ENGLISH, [ukrainian])
    source = replace(source, alternates=(Alternate(ukrainian, "uk", "hreflang"),))
    target = PageRecord.of(ukrainian, "uk", "Музей відкритий щодня з дев'ятої ранку.", [british])
    target = replace(target, alternates=(Alternate(british, "en", "hreflang"),))
    pair = UrlPair(british, ukrainian, PairingPattern("en", "uk"), 1.0, 1.0, "hreflang")
    assert judge_pair(pair, source, target, {})[1] == NOT_AS_MARKED
    named, versions = linked_languages([source, target]), declared_versions([source, target])
    kept, why = judge_pair(pair, source, target, {}, declared=versions, named_languages=named)
    assert why == "kept" and kept is not None and kept.source_language == "en"
    crawled = CrawledSites()
    crawled.add(source), crawled.add(target)
    assert [(p.source, p.target) for p in pair_round(crawled).pairs] == [(british, ukrainian)]


def test_pages_that_share_no_link_are_not_a_pair():
    crawled = CrawledSites()
    for i in range(3):
        crawled.add(page(f"http://a.example/en/p{i}.html", "en", ENGLISH, "http://a.example/en/"))
        crawled.add(page(f"http://a.example/fr/p{i}.html", "fr", FRENCH, "http://a.example/fr/"))
    crawled.add(page("http://a.example/en/q.html", "en", ENGLISH + " q", "http://x.example/1"))
    crawled.add(page("http://a.example/fr/q.html", "fr", FRENCH + " q", "http://y.example/2"))
    result = pair_round(crawled)
    assert len(result.pairs) == 3
    assert result.rejected == {NO_SHARED_LINKS: 1}


def test_deep_candidates_come_from_unpaired_pages_and_skip_what_was_fetched_or_checked():
    crawled = museum(3)
    lonely = "http://www.museum.example/en/lonely.html"
    crawled.add(page(lonely, "en", ENGLISH + " lonely"))
    result = pair_round(crawled)
    candidates = deep_page_candidates(crawled, result, per_site=10)
    assert [c.candidate for c in candidates] == ["http://www.museum.example/fr/lonely.html"]
    assert candidates[0].source == lonely
    checked = [candidates[0].candidate]
    assert deep_page_candidates(crawled, result, per_site=10, checked=checked) == []
    assert deep_page_candidates(crawled, result, per_site=0) == []


def test_the_next_round_takes_the_best_external_sites_not_crawled_yet():
    crawled = museum(2)
    crawled.add(
        page("http://www.museum.example/en/links.html", "en", ENGLISH, "http://hotel.example/")
    )
    crawled.add(
        page("http://www.gallery.example/", "en", GERMAN, "http://hotel.example/x"),
        ["http://hotel.example/x", "http://www.museum.example/", "http://shop.example/"],
    )
    crawled.add(
        page("http://www.museum.example/en/partners.html", "en", ENGLISH),
        ["http://hotel.example/", "http://www.gallery.example/"],
    )
    result = pair_round(crawled)
    picked = next_round_sites(crawled, result, top=5)
    assert [external.site for external, _ in picked][0] == "hotel.example"
    assert {external.site for external, _ in picked} == {"hotel.example", "shop.example"}
    assert dict((e.site, url) for e, url in picked)["hotel.example"] == "http://hotel.example/"
    assert len(next_round_sites(crawled, result, top=1)) == 1


def test_records_are_bounded():
    record = PageRecord.of("http://a/", "en", "x" * 50_000, (f"http://a/{i}" for i in range(900)))
    assert len(record.text) == 20_000 and len(record.links) == 500


def test_a_pair_whose_pattern_is_not_among_the_counted_ones_still_shares_its_links():
    """Sim_Pattern (eq. 9) counts the top global patterns and the pair's own: a site in many
    languages has more language-pair patterns than the top ones hold."""
    from bilingual_spider.patterns.crawl_round import judge_pair
    from bilingual_spider.patterns.pairing import UrlPair

    de_fr = PairingPattern("de", "fr")
    source = page("http://x.example/de/a.html", "de", GERMAN, "http://x.example/de/b.html")
    target = page("http://x.example/fr/a.html", "fr", FRENCH, "http://x.example/fr/b.html")
    pair = UrlPair(source.url, target.url, de_fr, 0.5, 0.1, LOCAL)
    judged, why = judge_pair(pair, source, target, {PairingPattern("en", "fr"): 1.0})
    assert judged is not None and why == "kept" and judged.similarity > 0


def test_a_declared_pair_shares_the_links_its_urls_differ_as():
    """A pair hreflang declares has its languages' pattern, ``<de,en>``, which no link of a
    Debian manual's ``guide.de.html/`` matches: the unit its two URLs differ in does."""
    from bilingual_spider.patterns.alternates import HREFLANG
    from bilingual_spider.patterns.crawl_round import judge_pair
    from bilingual_spider.patterns.pairing import UrlPair

    root = "http://www.debian.org/doc/manuals/apt-guide/"
    source = page(root + "guide.de.html/index.html", "de", GERMAN, root + "guide.de.html/ch1.html")
    target = page(root + "guide.html/index.html", "en", ENGLISH, root + "guide.html/ch1.html")
    pair = UrlPair(source.url, target.url, PairingPattern("de", "en"), 1.0, 1.0, HREFLANG)
    judged, why = judge_pair(pair, source, target, {})
    assert judged is not None and why == "kept" and judged.similarity > 0
    other = page(root + "offline.html/index.html", "en", ENGLISH, root + "offline.html/ch2.html")
    assert judge_pair(pair, source, other, {})[1] == NO_SHARED_LINKS  # another chapter


def _verifier():
    """A verifier fitted on two hand-made kinds: aligned pages and pages of another shape."""
    from bilingual_spider.patterns.verification import PairVerifier, page_content, pair_signals

    one = page_content("<body><h1>Museum</h1><p>" + ENGLISH + "</p><p>Open.</p></body>")
    two = page_content("<body><h1>Musée</h1><p>" + FRENCH + "</p><p>Ouvert.</p></body>")
    other = page_content("<body><table><tr><td>9</td><td>" + FRENCH * 3 + "</td></tr></table>")
    good = pair_signals(one.shape, two.shape, one.text, two.text)
    bad = pair_signals(one.shape, other.shape, one.text, other.text)
    return PairVerifier().fit([good] * 20 + [bad] * 20, [1] * 20 + [0] * 20), one, two, other


def test_with_a_verifier_a_pair_must_be_a_translation_by_content():
    from bilingual_spider.patterns.crawl_round import NOT_TRANSLATION

    verifier, english, french, other = _verifier()
    crawled = CrawledSites()
    home = "http://www.museum.example/en/index.html"
    for name, content in (("p1", french), ("p2", other)):
        for lang, text, kept in (("en", ENGLISH, english), ("fr", FRENCH, content)):
            url = f"http://www.museum.example/{lang}/{name}.html"
            crawled.add(PageRecord.of(url, lang, f"{text} {name}", [home], kept))
    result = pair_round(crawled, verifier=verifier)
    assert [p.source.rsplit("/", 1)[1] for p in result.pairs] == ["p1.html"]
    verification = result.pairs[0].verification
    assert verification is not None and verification["probability"] >= 0.5
    assert {"difference", "length_correlation", "shared_tokens"} <= set(verification)
    assert result.rejected == {NOT_TRANSLATION: 1}
    assert pair_round(crawled).pairs[1].verification is None  # no verifier: both pairs kept


def test_two_pages_that_link_nothing_are_judged_on_their_content_alone():
    """A registry's reports link nothing (no menu, no breadcrumb): the link filter has nothing
    to weigh, so a verifier's word decides; without one, they share no links as before."""
    from bilingual_spider.patterns.crawl_round import judge_pair
    from bilingual_spider.patterns.pairing import UrlPair

    verifier, english, french, other = _verifier()
    pattern = PairingPattern("en", "fr")
    pairs = []
    for name, content in (("r1", french), ("r2", other)):
        en = PageRecord.of(f"http://x.example/en/{name}.html", "en", ENGLISH, (), english)
        fr = PageRecord.of(f"http://x.example/fr/{name}.html", "fr", FRENCH, (), content)
        pair = UrlPair(en.url, fr.url, pattern, 0.5, 0.5, LOCAL)
        pairs.append((judge_pair(pair, en, fr, {}, verifier)[1], judge_pair(pair, en, fr, {})[1]))
    assert pairs == [("kept", NO_SHARED_LINKS), ("not_translation", NO_SHARED_LINKS)]


def test_a_pair_both_pages_declare_by_hreflang_is_judged_on_its_content():
    """Two pages of another shape that name each other by hreflang are no translation on a
    site with too few declarations to be credible, named both ways or one way
    (``test_declarations``: what a credible site's declarations keep)."""
    from bilingual_spider.patterns.alternates import HREFLANG, Alternate
    from bilingual_spider.patterns.crawl_round import NOT_TRANSLATION

    verifier, english, _, other = _verifier()
    home = "http://www.museum.example/en/index.html"

    def round_of(reciprocal: bool):
        crawled = CrawledSites()
        for name in ("p1", "p2"):
            en = f"http://www.museum.example/en/{name}.html"
            fr = f"http://www.museum.example/fr/{name}-ancien.html"  # no pattern pairs them
            crawled.add(PageRecord.of(en, "en", f"{ENGLISH} {name}", [home], english,
                                      alternates=[Alternate(fr, "fr", HREFLANG)]))  # fmt: skip
            back = [Alternate(en, "en", HREFLANG)] if reciprocal else []
            crawled.add(PageRecord.of(fr, "fr", f"{FRENCH} {name}", [home], other,
                                      alternates=back))  # fmt: skip
        return pair_round(crawled, verifier=verifier)

    both = round_of(reciprocal=True)
    assert both.pairs == () and both.rejected == {NOT_TRANSLATION: 2}
    assert both.declarations["museum.example"].overruled == 2
    one_way = round_of(reciprocal=False)
    assert one_way.pairs == () and one_way.rejected == {NOT_TRANSLATION: 2}


def test_a_mixed_page_is_mined_in_the_language_its_url_names_and_judged_by_its_own_prose():
    """A German page that keeps the English appendix (no language has 60 % of it) pairs with
    the English page; the same mix under /fr/ (German prose, a French URL) does not."""
    from bilingual_spider.language.page_language import LanguageBlock
    from bilingual_spider.patterns.crawl_round import judge_pair, marked_language
    from bilingual_spider.patterns.pairing import UrlPair

    appendix = [
        "Appendix A. The configuration file lists every option the server understands.",
        "Each option takes one value; unknown options are reported and then ignored.",
    ]
    german = [
        GERMAN,
        "Der Eintritt ist für Kinder unter zwölf Jahren und für Studierende frei.",
        "Führungen in deutscher Sprache beginnen jeden Samstag um elf Uhr im Foyer.",
    ]
    english = [
        ENGLISH,
        "Entry is free for children under twelve and for students with a valid card.",
        "Guided tours in German start every Saturday at eleven o'clock in the foyer.",
    ]
    mixed = [*(LanguageBlock(t, "de") for t in german), *(LanguageBlock(t, "en") for t in appendix)]
    shares = {"de": 0.59, "en": 0.41}
    assert marked_language("http://x.example/de/a.html", shares) == "de"
    assert marked_language("http://x.example/a.de.html", shares) == "de"
    assert marked_language("http://x.example/ja/a.html", shares) is None
    home = "http://x.example/index.html"
    source = PageRecord.of("http://x.example/en/a.html", "en", " ".join(english + appendix), [home])
    text = " ".join(german + appendix)

    def judged(lang: str):
        url = f"http://x.example/{lang}/a.html"
        target = PageRecord.of(url, marked_language(url, shares), text, [home], mixed_blocks=mixed)
        pair = UrlPair(source.url, url, PairingPattern("en", lang), 0.5, 0.1, LOCAL)
        return judge_pair(pair, source, target, {})

    kept, why = judged("de")
    assert why == "kept" and kept is not None and kept.target_language == "de"
    assert judged("fr") == (None, NOT_AS_MARKED)


# --- a page half copied from the English page is in no pair (the installation guide's ru) --------

RUSSIAN = "Музей открыт каждый день с девяти часов утра до шести часов вечера, вход свободный."
ENGLISH_APPENDIX = (
    "The installer normally enables memory-saving tricks to run on systems with little memory. "
    "Installation on systems with less memory or disk space may be possible but is not advised."
)


def test_a_page_found_to_be_a_copy_of_the_english_page_pairs_with_no_other_translation():
    crawled = CrawledSites()
    home = "http://d-i.example/manual/en/index.html"
    english = f"{ENGLISH} {ENGLISH_APPENDIX}"
    texts = {"en": (english, 1.0), "ca": (FRENCH + " Catalan", 1.0)}
    texts["ru"] = (f"{RUSSIAN} {ENGLISH_APPENDIX}", 0.55)  # 45 % English, copied from en
    for lang, (text, share) in texts.items():
        for name in ("ch01s05", "ch01s06"):
            url = f"http://d-i.example/manual/{lang}/{name}.html"
            own = text if name == "ch01s05" else f"{text.split('.')[0]} {lang} {name}."
            crawled.add(PageRecord.of(url, lang, own, [home], language_share=share))
    rejected: list[tuple[str, str, str]] = []
    result = pair_round(
        crawled, rejected_pair=lambda p, why: rejected.append((p.source, p.target, why))
    )
    found = {
        (p.source.split("/")[-2], p.target.split("/")[-2], p.source[-12:]) for p in result.pairs
    }
    assert ("en", "ca", "ch01s05.html") in found or ("ca", "en", "ch01s05.html") in found
    ru = "http://d-i.example/manual/ru/ch01s05.html"
    assert not any(ru in (p.source, p.target) for p in result.pairs)  # not with ca either
    assert any(ru in pair[:2] and why == COPY_OF_ANOTHER for *pair, why in rejected)
    other = "http://d-i.example/manual/ru/ch01s06.html"  # its other page is a translation
    assert any(other in (p.source, p.target) for p in result.pairs)


def test_the_copy_is_the_page_with_text_besides_its_language_next_to_a_page_in_one_language():
    english = PageRecord.of("http://x/en/a.html", "en", "", (), language_share=0.98)
    half = PageRecord.of("http://x/ru/a.html", "ru", "", (), language_share=0.55)
    other = PageRecord.of("http://x/ja/a.html", "ja", "", (), language_share=0.7)
    assert copy_side(english, half) == copy_side(half, english) == "http://x/ru/a.html"
    assert copy_side(half, other) is None  # two translations sharing a third page's English
    danish = PageRecord.of("http://x/da/a.html", "da", "", (), language_share=0.93)
    assert copy_side(english, danish) is None  # a translation with a shared list, not a copy
    # English text at a .pl URL, which a switcher names Polish: the page its text did not name
    fallback = PageRecord.of(
        "http://x.pl/a.html", "pl", "", (), language_share=0.98, language_signal="linked_on_site"
    )
    assert copy_side(english, fallback) == copy_side(fallback, english) == "http://x.pl/a.html"
    declared = PageRecord.of(
        "http://x/nb/a.html", "nb", "", (), language_share=0.98, language_signal="declared_close"
    )
    assert copy_side(fallback, declared) is None  # neither's language is its text's


def test_the_copy_check_compares_the_pages_prose_not_their_shared_commands_and_tables():
    # debian-reference's ch03: a translation whose package tables and shell sessions, the same
    # in every language, are more than half of its main text
    commands = " ".join(f"$ sudo apt-get install package-{i} libexample{i}-dev" for i in range(12))
    home = "http://www.debian.example/doc/index.html"
    for prose in (True, False):
        crawled = CrawledSites()
        for lang, text in (("en", ENGLISH), ("fr", FRENCH)):
            for name in ("ch03", "ch04"):
                url = f"http://www.debian.example/doc/{name}.{lang}.html"
                own = f"{text} {name}"
                crawled.add(
                    PageRecord.of(
                        url, lang, f"{own} {commands}", [home], prose=own if prose else ""
                    )
                )
        result = pair_round(crawled)
        assert len(result.pairs) == (2 if prose else 0)
        assert result.rejected.get("copied", 0) == (0 if prose else 2)


def test_a_url_naming_the_language_takes_the_script_its_page_declares() -> None:
    from bilingual_spider.patterns.crawl_round import declared_language

    assert declared_language("http://news.example/serbian/lat/a/", "sr-Latn") == "sr-Latn"
    assert declared_language("http://news.example/serbian/cyr/a/", "sr-Cyrl") == "sr"
    assert declared_language("http://news.example/serbian/lat/a/", "en-Latn") == "sr"


def test_a_host_label_that_is_the_country_the_page_declares_names_no_language() -> None:
    """``br.`` declaring ``pt-BR`` is Brazil's site, ``uk.`` declaring ``en-GB`` the United
    Kingdom's; ``br.`` and ``uk.`` declaring no region, or their own language, stay Breton's and
    Ukrainian's (Wikipedia's hosts)."""
    from bilingual_spider.patterns.crawl_round import declared_language, url_language

    assert declared_language("http://br.outdoor.example/a", "pt-BR") == "pt-BR"
    assert declared_language("http://uk.freight.example/", "en-GB") == "en-GB"
    assert url_language("http://uk.freight.example/", "en-GB") is None
    assert declared_language("http://ca.outdoor.example/fr/a", "fr-CA") == "fr"
    assert declared_language("http://br.wiki.example/a", None) == "br"
    assert declared_language("http://uk.wiki.example/a", "uk") == "uk"
    assert declared_language("http://br.wiki.example/a", "en-US") == "br"


def test_a_url_unit_that_is_the_pages_own_html_lang_names_that_language():
    """``/sc/`` is Simplified Chinese on Hong Kong's sites, Sardinian on Sardinia's, whose
    pages say ``<html lang="sc">``."""
    from bilingual_spider.patterns.crawl_round import declared_language, url_language

    sardinian = "http://www.sardegna.example/sc/decraratzione/articulu-1.html"
    assert url_language(sardinian) == "zh-Hans"
    assert url_language(sardinian, "sc") == declared_language(sardinian, "sc") == "sc"
    assert url_language("http://www.info.gov.hk/sc/news.htm", "zh-Hans") == "zh-Hans"
    # a host label that is the page's own code is no other declaration than the page's
    assert declared_language("http://pcd.langues.example/", "pcd") == "pcd"
    assert as_marked(sardinian, PairingPattern("it", "sc"), "sc", "sc")
    assert not as_marked(sardinian, PairingPattern("it", "sc"), "sc")
    record = PageRecord.of(sardinian, "sc", "Totu sos èsseres umanos", (), html_lang="sc")
    assert not marked_otherwise(record)


def test_a_print_version_of_a_fetched_page_is_in_no_pair_but_a_translation_naming_it_is():
    """A print version names its page as canonical: its pairs would be that page's, again. A
    translation that names its original as canonical (a common mistake) is still paired."""
    from bilingual_spider.patterns.crawl_round import COPY_OF_CANONICAL
    from bilingual_spider.patterns.numbered import NUMBERED

    report = "http://x.example/en/reports/report-7.html"
    printed = "http://x.example/en/print/report-7.html"
    french = "http://x.example/fr/rapports/rapport-7.html"
    crawled = CrawledSites()
    crawled.add(PageRecord.of(printed, "en", ENGLISH, ["http://x.example/"], canonical=report))
    crawled.add(PageRecord.of(report, "en", ENGLISH, ["http://x.example/"]))
    crawled.add(PageRecord.of(french, "fr", FRENCH, ["http://x.example/"], canonical=report))
    result = pair_round(crawled)
    assert [(p.source, p.target, p.method) for p in result.pairs] == [(report, french, NUMBERED)]
    assert result.rejected[COPY_OF_CANONICAL] == 1


def test_a_document_whose_canonical_is_its_languages_home_is_no_copy_of_it():
    """A CMS that names every French document's canonical the French home: the documents copy
    nothing of it, and pair with their English versions."""
    crawled = CrawledSites()
    home = "http://x.example/fr/"
    crawled.add(PageRecord.of(home, "fr", "Bienvenue au musée.", ["http://x.example/en/"]))
    for i in range(3):
        english = f"http://x.example/en/doc-{i}.html"
        french = f"http://x.example/fr/doc-{i}.html"
        crawled.add(PageRecord.of(english, "en", f"{ENGLISH} {i}", ["http://x.example/en/"]))
        crawled.add(PageRecord.of(french, "fr", f"{FRENCH} {i}", [home], canonical=home))
    result = pair_round(crawled)
    assert len(result.pairs) == 3, result.rejected
    assert "copy_of_canonical" not in result.rejected


def test_a_missing_translation_serving_its_languages_home_is_in_no_pair() -> None:
    """A missing translation's URL that serves the French home (a soft 404) copies the home's
    prose: no pair. A document whose first paragraph the home quotes as a teaser copies a
    small share of it, and pairs."""
    from bilingual_spider.patterns.crawl_round import COPY_OF_ANCESTOR

    welcome = "Bienvenue au musée de la ville, ouvert à tous les visiteurs depuis mille neuf cent."
    teaser = f"{FRENCH} 0"
    more = "Les collections anciennes occupent les trois étages du bâtiment principal."
    garden = "Le jardin botanique accueille des expositions de plantes rares chaque printemps."
    crawled = CrawledSites()
    home = "http://x.example/fr/"
    crawled.add(PageRecord.of(home, "fr", f"{welcome} {teaser}", [], prose=f"{welcome}\n{teaser}"))
    for i in range(3):
        english = f"http://x.example/en/doc-{i}.html"
        french = f"http://x.example/fr/doc-{i}.html"
        crawled.add(PageRecord.of(english, "en", f"{ENGLISH} {i}", ["http://x.example/en/"]))
        prose = {0: f"{teaser}\n{more}\n{more} {i}", 1: garden, 2: f"{welcome}\n{teaser}"}
        crawled.add(PageRecord.of(french, "fr", prose[i], [home], prose=prose[i]))
    result = pair_round(crawled)
    paired = {(p.source, p.target) for p in result.pairs}
    assert ("http://x.example/en/doc-0.html", "http://x.example/fr/doc-0.html") in paired
    assert ("http://x.example/en/doc-1.html", "http://x.example/fr/doc-1.html") in paired
    assert not any("doc-2" in url for pair in paired for url in pair)
    assert result.rejected[COPY_OF_ANCESTOR] >= 1


def test_a_page_in_its_declared_language_that_is_the_root_again_is_its_home_and_pairs() -> None:
    """``/`` and ``/en/start/`` are one English index under two URLs: the French index pairs
    with it. The root again at ``/ku/``, a URL that declares no language read so, is a
    fallback."""
    from bilingual_spider.patterns.crawl_round import copies_ancestor

    index = f"{ENGLISH}\nThe collections fill the three floors of the main building."
    root, start = "http://x.example/", "http://x.example/en/start/"
    pages = {
        root: PageRecord.of(root, "en", index, [], prose=index),
        start: PageRecord.of(start, "en", index, [], prose=index),
    }
    assert not copies_ancestor(pages[start], pages)
    fallback = "http://x.example/docs/ku/"
    pages[fallback] = PageRecord.of(fallback, "en", index, [], prose=index)
    assert copies_ancestor(pages[fallback], pages)
