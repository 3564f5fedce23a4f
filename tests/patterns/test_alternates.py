"""Pairs a page names itself: hreflang alternates and language switchers, for pages whose URLs
no pattern pairs (translated slugs)."""

from collections import Counter
from dataclasses import replace

from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.patterns.alternates import (
    HREFLANG,
    SITEMAP,
    SWITCHER,
    Alternate,
    alternate_pairs,
    page_alternates,
    with_sitemap,
)
from bilingual_spider.patterns.crawl_round import (
    NOT_AS_DECLARED,
    NOT_AS_NAMED,
    SUPERSEDED,
    CrawledSites,
    PageRecord,
    pair_round,
    url_language,
)
from bilingual_spider.patterns.mining import PairingPattern

ENGLISH = "The museum opens every day from nine in the morning until six in the evening."
FRENCH = "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir."
SPANISH = "El museo abre todos los días desde las nueve de la mañana hasta las seis de la tarde."
SITE = "http://www.museum.example"


def alternates_of(html: str, url: str = f"{SITE}/en/about-us") -> set[Alternate]:
    return set(page_alternates(extract_link_contexts(html, url)))


def test_hreflang_and_switcher_links_name_the_page_translations():
    html = """<html><head>
      <link rel="alternate" hreflang="fr" href="/fr/a-propos">
      <link rel="alternate" hreflang="en" href="/en/about-us">
    </head><body>
      <nav><a href="/fr/a-propos">Français</a> | <a href="/de/ueber-uns">Deutsch</a>
      | <a href="/es/"><img src="/img/flags/es.png" alt=""></a></nav>
      <p>Read <a href="/en/history">our history</a>.</p>
    </body></html>"""
    assert alternates_of(html) == {
        Alternate(f"{SITE}/fr/a-propos", "fr", HREFLANG),  # one URL: the hreflang's
        Alternate(f"{SITE}/de/ueber-uns", "de", SWITCHER),
        Alternate(f"{SITE}/es/", "es", SWITCHER),
    }  # the page's own hreflang link and the link that names no language are not alternates


def test_a_switchers_lang_attribute_names_a_language_its_label_does_not():
    """An own name no table knows (``Reo Tahiti``, Pular in Adlam) is named by the language its
    ``lang`` says the label is in; a ``lang`` the page has itself says nothing."""
    html = """<html lang="en"><body><aside>
      <a href="/ty/about" lang="ty">Reo Tahiti</a> <a href="/fuf/about" lang="fuf">𞤆𞤵𞤤𞤢𞤪</a>
      <a href="/en/history" lang="en-US">History</a></aside></body></html>"""
    assert alternates_of(html) == {
        Alternate(f"{SITE}/ty/about", "ty", SWITCHER),
        Alternate(f"{SITE}/fuf/about", "fuf", SWITCHER),
    }


def test_a_language_named_for_two_urls_names_no_translation():
    html = """<ul><li><a href="/books/1">English</a></li><li><a href="/books/2">English</a></li>
      <li><a href="/fr/a-propos" hreflang="fr">FR</a></li></ul>"""
    assert alternates_of(html) == {Alternate(f"{SITE}/fr/a-propos", "fr", HREFLANG)}


def record(url: str, language: str | None, text: str, *alternates: Alternate) -> PageRecord:
    links = [f"{SITE}/contact", f"{SITE}/en/", f"{SITE}/fr/"]  # shared by both versions
    return PageRecord.of(url, language, f"{text} {url}", links, alternates=alternates)


def test_named_pages_pair_once_and_reciprocal_pairs_are_surer():
    en, fr, de = f"{SITE}/en/about-us", f"{SITE}/fr/a-propos", f"{SITE}/de/ueber-uns"
    pages = {
        en: record(en, "en", ENGLISH, Alternate(fr, "fr", HREFLANG), Alternate(de, "de", SWITCHER)),
        fr: record(fr, "fr", FRENCH, Alternate(en, "en", SWITCHER)),
        de: record(de, "de", "Das Museum", Alternate(en, "en", SWITCHER)),
    }
    pairs = {(p.source, p.target): p for p in alternate_pairs(pages)}
    assert set(pairs) == {(en, fr), (de, en)}  # the source carries the pattern's first unit
    assert pairs[en, fr].method == HREFLANG and pairs[en, fr].local_credibility == 1.0
    assert pairs[en, fr].pattern == PairingPattern("en", "fr")
    assert pairs[de, en].method == SWITCHER


def test_one_way_unfetched_and_shared_targets_give_no_pair():
    en, fr, home = f"{SITE}/en/about-us", f"{SITE}/fr/a-propos", f"{SITE}/fr/"
    news = [f"{SITE}/en/news-{i}" for i in range(2)]
    pages = {
        en: record(en, "en", ENGLISH, Alternate(fr, "fr", SWITCHER)),
        **{url: record(url, "en", ENGLISH, Alternate(home, "fr", SWITCHER)) for url in news},
        home: record(home, "fr", FRENCH),
        fr: record(fr, "fr", FRENCH),
    }
    # the French home is named by two English pages: a switcher's target, no one's translation
    [pair] = alternate_pairs(pages)
    assert (pair.source, pair.target, pair.local_credibility) == (en, fr, 0.5)
    del pages[fr]
    assert alternate_pairs(pages) == []
    pages[fr] = record(fr, "fr", FRENCH, Alternate(f"{SITE}/fr/autre", "fr", SWITCHER))
    assert len(alternate_pairs(pages)) == 1  # a link to its own language is no translation


def test_a_page_not_in_the_language_its_namers_declare_pairs_with_none():
    en, es, fr = f"{SITE}/en/core.html", f"{SITE}/es/core.html", f"{SITE}/fr/core.html"
    crawled = CrawledSites()
    links = (Alternate(en, "en", HREFLANG), Alternate(es, "es", HREFLANG))
    crawled.add(
        record(en, "en", ENGLISH, Alternate(es, "es", HREFLANG), Alternate(fr, "fr", HREFLANG))
    )
    crawled.add(record(es, "en", ENGLISH + " sin traducir", Alternate(fr, "fr", HREFLANG)))
    crawled.add(record(fr, "fr", FRENCH, *links))
    # /es/ holds the English text (an untranslated fallback): neither es-en nor es-fr is a pair
    result = pair_round(crawled)
    assert {(p.source, p.target) for p in result.pairs} == {(en, fr)}


def test_pages_naming_each_other_beat_a_pattern_when_content_cannot_tell():
    """No content verifier: a pair both pages name, on a site whose declarations all hold, is
    better attested than the pattern's (``test_declarations``: content decides when it can);
    a pair found both ways counts once."""
    crawled = CrawledSites()
    for i in range(4):  # /en/pN and /fr/pN: the pattern <en,fr> pairs them
        en, fr = f"{SITE}/en/p{i}.html", f"{SITE}/fr/p{i}.html"
        named_fr = f"{SITE}/fr/chapitre-{i}.html" if i == 0 else fr
        crawled.add(record(en, "en", f"{ENGLISH} {i}", Alternate(named_fr, "fr", HREFLANG)))
        crawled.add(record(fr, "fr", f"{FRENCH} {i}"))
    chapter = f"{SITE}/fr/chapitre-0.html"
    crawled.add(
        record(chapter, "fr", f"{FRENCH} 0 bis", Alternate(f"{SITE}/en/p0.html", "en", HREFLANG))
    )
    result = pair_round(crawled)
    got = {(p.source, p.target): p.method for p in result.pairs}
    assert got == {
        (f"{SITE}/en/p0.html", f"{SITE}/fr/chapitre-0.html"): HREFLANG,
        **{(f"{SITE}/en/p{i}.html", f"{SITE}/fr/p{i}.html"): "local" for i in (1, 2, 3)},
    }
    assert result.rejected[SUPERSEDED] == 1


def test_a_sitemap_names_translations_the_page_does_not_and_its_pairs_say_so():
    en, fr, de = f"{SITE}/en/about-us", f"{SITE}/fr/a-propos", f"{SITE}/de/ueber-uns"
    own = (Alternate(de, "de", SWITCHER),)
    listed = [("fr", fr), ("de", f"{SITE}/de/other"), ("en", en)]
    named = with_sitemap(own, listed, en)
    # the page's own word for de wins; its own URL is no alternate of itself
    assert named == (Alternate(de, "de", SWITCHER), Alternate(fr, "fr", SITEMAP))
    pages = {
        en: record(en, "en", ENGLISH, *named),
        fr: record(fr, "fr", FRENCH),
        de: record(de, "de", "Das Museum ist jeden Tag geöffnet."),
    }
    methods = {(p.source, p.target): p.method for p in alternate_pairs(pages)}
    assert methods == {(en, fr): SITEMAP, (de, en): SWITCHER}
    pages[fr] = record(fr, "fr", FRENCH, Alternate(en, "en", HREFLANG))
    assert {p.method for p in alternate_pairs(pages) if p.target == fr} == {HREFLANG}


def test_a_sitemap_alternate_in_another_language_than_named_makes_no_pair():
    en, fr = f"{SITE}/en/about-us", f"{SITE}/fr/a-propos"
    pages = {
        en: record(en, "en", ENGLISH, *with_sitemap((), [("fr", fr)], en)),
        fr: record(fr, "en", ENGLISH + " again"),  # an untranslated copy under a French URL
    }
    assert alternate_pairs(pages) == []


def test_a_page_listing_versions_pairs_them_with_one_another_not_with_itself():
    """A separate "other languages" page per document (the second held-out set's
    ``/languages/article-02.html``): it names the English version too, so it is no version
    itself; its versions pair two by two, one way, unless another page names one of them too
    (a site's list of its languages' home pages)."""
    hub, en, ty, fuf = (f"{SITE}/{path}" for path in ("langs/a2", "a2", "ty/a2", "fuf/a2"))
    listed = (Alternate(en, "en", SWITCHER), Alternate(ty, "ty", SWITCHER))
    pages = {
        hub: record(hub, "en", "Article 4", *listed, Alternate(fuf, "fuf", HREFLANG)),
        en: record(en, "en", ENGLISH),
        ty: record(ty, "ty", "Te fare vairaa taoâ"),
        fuf: record(fuf, "fuf", "𞤆𞤵𞤤𞤢𞤪"),
    }
    pairs = {(p.source, p.target): p for p in alternate_pairs(pages)}
    assert set(pairs) == {(en, fuf), (en, ty), (fuf, ty)}
    assert pairs[en, fuf].method == HREFLANG and pairs[en, ty].method == SWITCHER
    assert {p.local_credibility for p in pairs.values()} == {0.5}
    pages[hub] = record(hub, None, "", *listed)  # no language of its own: a list too
    assert {(p.source, p.target) for p in alternate_pairs(pages)} == {(en, ty)}
    pages[ty] = record(ty, "ty", "Te fare", Alternate(f"{SITE}/fr/", "fr", SWITCHER))
    pages[f"{SITE}/home"] = record(f"{SITE}/home", "fr", FRENCH, Alternate(ty, "ty", SWITCHER))
    got = {(p.source, p.target) for p in alternate_pairs(pages)}
    assert (en, ty) not in got  # the Tahitian page is named twice: no one document's


def test_a_switcher_whose_own_language_leads_to_the_language_home_is_the_pages_own():
    """The first held-out set's syllabaries site: every article's switcher says ``English`` for
    the English index, named so by every page; the article is no list of versions and pairs
    with the translations it names."""
    home, ii, chr_ = f"{SITE}/index.html", f"{SITE}/a3.ii.html", f"{SITE}/a3.chr.html"
    pages = {f"{SITE}/a{i}.html": record(
        f"{SITE}/a{i}.html", "en", f"{ENGLISH} {i}", Alternate(home, "en", SWITCHER),
        *([Alternate(ii, "ii", SWITCHER), Alternate(chr_, "chr", SWITCHER)] if i == 3 else []),
    ) for i in range(3, 5)}  # fmt: skip
    pages |= {ii: record(ii, "ii", "ꆈꌠꉙ"), chr_: record(chr_, "chr", "ᏣᎳᎩ")}
    got = {(p.source, p.target) for p in alternate_pairs(pages)}
    assert got == {(f"{SITE}/a3.html", ii), (chr_, f"{SITE}/a3.html")}


def test_a_fallback_at_the_url_links_name_for_another_language_is_in_no_pair():
    """``/aii/pN`` holds the English text (an untranslated fallback) where a switcher names
    Assyrian: a pattern pairs it with the French page as English, and it took the French page's
    place beside its real English version; as in a declared pair, it is in none."""
    crawled = CrawledSites()
    for i in range(3):
        en, fr, aii = (f"{SITE}/{lang}/p{i}.html" for lang in ("en", "fr", "aii"))
        crawled.add(record(en, "en", f"{ENGLISH} {i}", Alternate(aii, "aii", SWITCHER)))
        crawled.add(record(fr, "fr", f"{FRENCH} {i}"))
        crawled.add(record(aii, "en", f"{ENGLISH} {i}"))
    result = pair_round(crawled)
    assert {(p.source.split("/")[3], p.target.split("/")[3]) for p in result.pairs} == {
        ("en", "fr")
    }
    assert result.rejected[NOT_AS_NAMED] == 3


def test_a_page_whose_url_names_its_language_keeps_it_whatever_a_label_says():
    """``read.php?hl=nr`` linked as ``isiNdebele`` (North Ndebele's own name too, so ``nd``),
    ``ch.example.org`` behind a flag ``ch.gif`` (Switzerland's: German): the URL's word wins,
    the page stays in its pattern pairs (the second held-out set's Ndebele and Chamorro)."""
    crawled = CrawledSites()
    for i in range(3):
        en, nr = f"{SITE}/read.php?doc={i}", f"{SITE}/read.php?doc={i}&hl=nr"
        crawled.add(record(en, "en", f"{ENGLISH} {i}", Alternate(nr, "nd", SWITCHER)))
        ndebele = "Bonke abantu bazalwa bakhululekile njalo balingana ngesithunzi lamalungelo."
        crawled.add(record(nr, "nr", f"{ndebele} {i}"))
    assert len(pair_round(crawled).pairs) == 3


def test_a_page_whose_own_lang_the_identifier_overrules_is_a_fallback_on_a_site_declaring_several():
    """The third held-out set's English copy at ``article-N-lua.html`` says
    ``xml:lang="lua"``; read surely as English, a pattern paired it as English with each
    translation. A template's ``lang="en"`` on every page says nothing of a translation."""
    crawled = CrawledSites()
    sections = {"en": "a", "fr": "b", "lua": "c"}  # the URL names no language
    for i in range(3):
        en, fr, lua = (f"{SITE}/docs/p{i}-{sections[lang]}.html" for lang in sections)
        for url, lang, declared, text in (
            (en, "en", "en", ENGLISH), (fr, "fr", "fr", FRENCH), (lua, "en", "lua", ENGLISH)
        ):  # fmt: skip
            crawled.add(replace(record(url, lang, f"{text} {i}"), html_lang=declared))
    result = pair_round(crawled)
    assert {(p.source[-9:], p.target[-9:]) for p in result.pairs} == {
        (f"p{i}-a.html", f"p{i}-b.html") for i in range(3)
    }
    assert result.rejected[NOT_AS_DECLARED] >= 3
    template = CrawledSites()  # every page says lang="en": a template's
    for page in crawled.pages.values():
        template.add(replace(page, html_lang="en"))
    assert NOT_AS_DECLARED not in pair_round(template).rejected
    # at article-N-lua.html (the third held-out set's copy), the file name's "lua" is the code
    # its page declares, the same word: a fallback by its own word still
    named = CrawledSites()
    for page in crawled.pages.values():
        name = page.url.replace("-c.html", "-lua.html").replace("-b.html", "-fr.html")
        named.add(replace(page, url=name.replace("-a.html", "-en.html")))
    assert url_language(f"{SITE}/docs/p1-lua.html", "lua") == "lua"
    assert pair_round(named).rejected[NOT_AS_DECLARED] >= 3


def test_a_regional_language_read_as_its_neighbour_is_paired_as_it_declares():
    """TYPO3's ``index.php?id=N&L=K`` names no language; each page's ``<html lang>`` does. Pages
    declaring Asturian, read surely as Spanish, pair with their English versions as Asturian
    where the site has no Spanish page (a stand-in: the site's languages say so); where it has
    Spanish pages, with their Spanish versions too, which they do not copy (one document in two
    languages: ``declared_apart``). A page at an Asturian URL that copies its Spanish version is
    an untranslated fallback, in no pair."""
    from bilingual_spider.language.identification import default_identifier
    from tests.language.test_declared_language import catalog_sentences

    identifier = default_identifier()
    asturian, english = catalog_sentences("ast", count=60)
    read_as_spanish = [
        text for text in (" ".join(asturian[i : i + 5]) for i in range(0, 60, 5))
        if identifier.identify(text)[0].lang == "es"
    ][:3]  # fmt: skip
    assert len(read_as_spanish) == 3
    crawled = CrawledSites()
    for i, text in enumerate(read_as_spanish):
        en, ast = f"{SITE}/index.php?id={i + 10}", f"{SITE}/index.php?id={i + 10}&L=2"
        crawled.add(replace(record(en, "en", f"{ENGLISH} {english[i]}"), html_lang="en"))
        crawled.add(replace(record(ast, "es", text), html_lang="ast"))
    result = pair_round(crawled)
    assert {(p.source_language, p.target_language) for p in result.pairs} == {("en", "ast")}
    assert len(result.pairs) == 3 and NOT_AS_DECLARED not in result.rejected
    for i in range(4):  # Spanish pages too, and a fourth document whose Asturian page copies it
        es = f"{SITE}/index.php?id={i + 10}&L=1"
        crawled.add(replace(record(es, "es", f"{SPANISH} {i}"), html_lang="es"))
    en, fallback = f"{SITE}/index.php?id=13", f"{SITE}/index.php?id=13&L=2"
    crawled.add(replace(record(en, "en", f"{ENGLISH} {english[3]}"), html_lang="en"))
    crawled.add(replace(record(fallback, "es", f"{SPANISH} 3"), html_lang="ast"))
    result = pair_round(crawled)
    languages = Counter(tuple(sorted((p.source_language, p.target_language))) for p in result.pairs)
    assert languages == {("ast", "en"): 3, ("ast", "es"): 3, ("en", "es"): 4}
    assert not any(fallback in (p.source, p.target) for p in result.pairs)
    assert {s for p in result.pairs for s in p.language_signals or ()} >= {"declared_apart"}


def test_a_flag_on_a_link_to_a_host_named_for_a_language_names_that_language():
    """``flags/ch.gif`` is Switzerland's flag; on a link to ``ch.`` it offers Chamorro (the
    fresh held-out set's Marianas site), not Swiss German. Elsewhere a flag names its country's
    language."""
    html = """<html><body>
    <a href="http://ch.rights.example/a.html"><img src="/flags/ch.gif" alt="Chamoru"></a>
    <a href="http://rights.example/fr/a.html"><img src="/flags/fr.gif" alt=""></a>
    </body></html>"""
    found = alternates_of(html, "http://mh.rights.example/a.html")
    assert {(a.url, a.language) for a in found} == {
        ("http://ch.rights.example/a.html", "ch"),
        ("http://rights.example/fr/a.html", "fr"),
    }


def test_a_page_too_long_to_check_for_copies_is_not_confirmed_by_its_version():
    """The copy check reads a page's first ``MAX_TEXT_CHARS`` characters: a long page read as
    its neighbour may copy it past them (a manual translated in its first part), so no version
    confirms it in its declared language."""
    from bilingual_spider.patterns.crawl_round import MAX_TEXT_CHARS, versions_apart

    crawled = CrawledSites()
    short = (
        "Los museos abren cada día a las nueve. Las colecciones permanentes ocupan tres plantas "
        "del edificio histórico, y las exposiciones temporales cambian cada estación del año. "
    )
    texts = [f"{short} {i}" for i in range(3)] + [short * (MAX_TEXT_CHARS // len(short) + 1)]
    for i, text in enumerate(texts):
        es, ast = f"{SITE}/index.php?id={i}&L=1", f"{SITE}/index.php?id={i}&L=2"
        crawled.add(replace(record(es, "es", f"{SPANISH} {i}"), html_lang="es"))
        crawled.add(replace(record(ast, "es", text), html_lang="ast"))
    apart = versions_apart(crawled.pages)
    assert sorted(apart) == [f"{SITE}/index.php?id={i}&L=2" for i in range(3)]
    assert {page.language for page in apart.values()} == {"ast"}


def test_a_three_letter_code_names_a_language_where_the_link_host_repeats_it():
    """A switcher of codes, ``FR · WA · PCD``, to subdomains: ``PCD`` alone could be a word, as
    ``FAQ`` and ``NEW`` are (Newari's code); a link to ``pcd.`` says it is Picard."""
    html = """<html><body><nav>
    <a href="http://wa.langues.example/">WA</a> · <a href="http://pcd.langues.example/">PCD</a>
    <a href="http://faq.langues.example/">FAQ</a> <a href="http://www.langues.example/new/">NEW</a>
    </nav></body></html>"""
    found = alternates_of(html, "http://www.langues.example/")
    assert {(a.url, a.language) for a in found} == {
        ("http://wa.langues.example/", "wa"),
        ("http://pcd.langues.example/", "pcd"),
    }
