"""What a site declares of its translations is a claim (issue 51): declared pairs are judged on
their content like any pair, a site's declarations earn a credibility, and a conflict goes to
the better attested pair, whatever found it."""

from dataclasses import dataclass

import pytest

from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.patterns import crawl_round
from bilingual_spider.patterns.alternates import (
    HREFLANG,
    SWITCHER,
    TOGGLE,
    Alternate,
    alternate_pairs,
    page_alternates,
)
from bilingual_spider.patterns.crawl_round import (
    NOT_TRANSLATION,
    SUPERSEDED,
    CrawledSites,
    PageRecord,
    pair_round,
)
from bilingual_spider.patterns.declarations import (
    MIN_JUDGED,
    DeclarationTally,
    evidence,
    with_site_credibility,
)
from bilingual_spider.patterns.groups import strongest_first
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.numbered import NUMBERED
from bilingual_spider.patterns.pairing import LOCAL, UrlPair
from bilingual_spider.patterns.verification import page_content

SITE = "http://www.museum.example"
HOME = f"{SITE}/index.html"


@dataclass(frozen=True)
class Texts:
    """What the scripted verifier is shown of a pair: its two pages' own texts."""

    source: str
    target: str

    def as_dict(self) -> dict[str, float]:
        return {}


class ScriptedVerifier:
    """A pair verifier whose probability for each pair of texts is given (a document's
    translation: ``same``; another document: ``other``; ``borderline`` texts named apart)."""

    threshold = 0.7

    def __init__(self, borderline: dict[frozenset[str], float] | None = None) -> None:
        self.borderline = borderline or {}

    def probability(self, texts: Texts) -> float:
        key = frozenset((texts.source, texts.target))
        if key in self.borderline:
            return self.borderline[key]
        return 0.95 if document(texts.source) == document(texts.target) else 0.05


def document(text: str) -> str:
    """The document a page's text is a version of: ``doc7 en`` and ``doc7 fr`` are one."""
    return text.split()[0]


@pytest.fixture(autouse=True)
def _texts_as_signals(monkeypatch):
    monkeypatch.setattr(
        crawl_round, "content_signals", lambda source, target: Texts(source.text, target.text)
    )


PROSE = {
    "en": "The museum opens every day from nine in the morning until six in the evening.",
    "fr": "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir.",
}


def page(url: str, language: str, doc: str, *alternates: Alternate) -> PageRecord:
    text = f"{doc} {language} {PROSE[language]}"
    content = page_content(f"<body><p>{text}</p></body>")
    links = [HOME, f"{SITE}/contact.html"]  # shared by every page: the similarity filter holds
    return PageRecord.of(url, language, text, links, content, alternates=alternates)


def slug_site(n: int, mixed: tuple[tuple[int, int], ...] = ()) -> CrawledSites:
    """``n`` documents in English (``/en/doc-i``) and French (translated slugs: no pattern pairs
    them), each page naming its translation by hreflang both ways, but the documents of each
    ``mixed`` two whose pages name the other document's (as a CMS mixes translation ids up)."""
    crawled = CrawledSites()
    partner = {i: i for i in range(n)}
    for a, b in mixed:
        partner[a], partner[b] = b, a
    for i in range(n):
        j = partner[i]
        en, fr = f"{SITE}/en/doc-{i}", f"{SITE}/fr/texte-{i}"
        en_j, fr_j = f"{SITE}/en/doc-{j}", f"{SITE}/fr/texte-{j}"
        crawled.add(page(en, "en", f"doc{i}", Alternate(fr_j, "fr", HREFLANG)))
        crawled.add(page(fr, "fr", f"doc{i}", Alternate(en_j, "en", HREFLANG)))
    return crawled


def pairs_of(result) -> set[tuple[str, str]]:
    return {(p.source.rsplit("/", 1)[1], p.target.rsplit("/", 1)[1]) for p in result.pairs}


def test_a_declared_pair_is_judged_on_its_content_and_the_site_tallied():
    crawled = slug_site(12, mixed=((2, 3), (6, 7)))  # a third mixed up, both ways
    result = pair_round(crawled, verifier=ScriptedVerifier())
    # every right declaration is kept; the four mixed-up pairs are rejected, and the documents
    # they mixed up are paired by their URLs' shared numbers (patterns/numbered.py)
    right = (0, 1, 4, 5, 8, 9, 10, 11)
    assert pairs_of(result) == {(f"doc-{i}", f"texte-{i}") for i in range(12)}
    by_numbers = {p.source.rsplit("-", 1)[1] for p in result.pairs if p.method == NUMBERED}
    assert by_numbers == {"2", "3", "6", "7"}
    assert {p.source.rsplit("-", 1)[1] for p in result.pairs} - by_numbers == {
        str(i) for i in right
    }
    assert result.rejected == {NOT_TRANSLATION: 4}
    tally = result.declarations["museum.example"]
    assert (tally.judged, tally.verified, tally.overruled) == (12, 8, 4)
    assert tally.credibility == pytest.approx(8 / 12) and not tally.credible


def test_a_credible_site_keeps_a_borderline_declared_pair_and_a_doubtful_one_does_not():
    """An out-of-date translation (verifier 0.5, under its 0.7) is kept where the site's
    declarations verify (>= 0.9 of them), and judged on content alone where a third fail."""
    stale = frozenset((f"doc0 en {PROSE['en']}", f"doc0 fr stale {PROSE['fr']}"))
    verifier = ScriptedVerifier({stale: 0.5})

    def round_of(mixed: tuple[tuple[int, int], ...]):
        crawled = slug_site(12, mixed)
        fr0 = f"{SITE}/fr/texte-0"
        crawled.pages[fr0] = PageRecord.of(
            fr0, "fr", f"doc0 fr stale {PROSE['fr']}", crawled.pages[fr0].links,
            page_content(f"<body><p>doc0 fr stale {PROSE['fr']}</p></body>"),
            alternates=crawled.pages[fr0].alternates,
        )  # fmt: skip
        return pair_round(crawled, verifier=verifier)

    credible = round_of(mixed=())
    assert ("doc-0", "texte-0") in pairs_of(credible)
    tally = credible.declarations["museum.example"]
    assert (tally.verified, tally.rescued, tally.failed) == (12, 1, 0)
    assert tally.credibility == pytest.approx(11 / 12) and tally.credible
    doubtful = round_of(mixed=((2, 3), (6, 7)))
    assert ("doc-0", "texte-0") not in pairs_of(doubtful)
    assert doubtful.declarations["museum.example"].rescued == 0


def test_too_few_declarations_are_never_credible():
    tally = DeclarationTally(verified=MIN_JUDGED - 1)
    assert tally.credibility == 1.0 and not tally.credible
    assert DeclarationTally(verified=MIN_JUDGED).credible
    assert DeclarationTally().credibility == 0.0


def test_a_wrong_reciprocal_declaration_loses_to_the_pattern_pair():
    """The Debian-style site: /en/pN and /fr/pN paired by the pattern <en,fr>; p0 and p1 name
    each other's translations by hreflang both ways. Content decides for the pattern: before,
    the declarations superseded it and were kept unjudged."""
    crawled = CrawledSites()
    for i in range(6):
        j = {0: 1, 1: 0}.get(i, i)
        en, fr = f"{SITE}/en/p{i}.html", f"{SITE}/fr/p{i}.html"
        crawled.add(page(en, "en", f"doc{i}", Alternate(f"{SITE}/fr/p{j}.html", "fr", HREFLANG)))
        crawled.add(page(fr, "fr", f"doc{i}", Alternate(f"{SITE}/en/p{j}.html", "en", HREFLANG)))
    result = pair_round(crawled, verifier=ScriptedVerifier())
    assert pairs_of(result) == {(f"p{i}.html", f"p{i}.html") for i in range(6)}
    assert {p.method for p in result.pairs} == {LOCAL}
    assert result.rejected == {NOT_TRANSLATION: 2}
    assert result.declarations["museum.example"].overruled == 2


def test_a_conflict_goes_to_the_better_attested_pair_whatever_found_it():
    """A page with two candidate partners in French that both pass the verifier: the one whose
    content is the better translation wins, by a pattern or by hreflang."""
    borderline = {}
    crawled = CrawledSites()
    for i in range(4):
        en, fr = f"{SITE}/en/p{i}.html", f"{SITE}/fr/p{i}.html"
        named = (Alternate(f"{SITE}/fr/chapitre-0.html", "fr", HREFLANG),) if i == 0 else ()
        crawled.add(page(en, "en", f"doc{i}", *named))
        crawled.add(page(fr, "fr", f"doc{i}"))
    crawled.add(page(f"{SITE}/fr/chapitre-0.html", "fr", "doc0"))
    en0 = crawled.pages[f"{SITE}/en/p0.html"].text
    fr0, chapter = crawled.pages[f"{SITE}/fr/p0.html"].text, f"doc0 fr chapitre {PROSE['fr']}"
    crawled.pages[f"{SITE}/fr/chapitre-0.html"] = PageRecord.of(
        f"{SITE}/fr/chapitre-0.html", "fr", chapter, [HOME, f"{SITE}/contact.html"],
        page_content(f"<body><p>{chapter}</p></body>"),
    )  # fmt: skip
    for better, worse, winner in ((fr0, chapter, "p0.html"), (chapter, fr0, "chapitre-0.html")):
        borderline = {frozenset((en0, better)): 0.95, frozenset((en0, worse)): 0.8}
        result = pair_round(crawled, verifier=ScriptedVerifier(borderline))
        got = {t for s, t in pairs_of(result) if s == "p0.html"}
        assert got == {winner}
        assert result.rejected[SUPERSEDED] == 1


def test_two_pattern_pairs_of_one_page_both_hold():
    """Two URLs of one translation (``/fr/p0.html`` and ``/fr-fr/p0.html``) found by two
    patterns are no conflict of declarations: both stay, as before."""
    crawled = CrawledSites()
    for i in range(4):
        crawled.add(page(f"{SITE}/en/p{i}.html", "en", f"doc{i}"))
        crawled.add(page(f"{SITE}/fr/p{i}.html", "fr", f"doc{i}"))
        crawled.add(page(f"{SITE}/fr-fr/p{i}.html", "fr", f"doc{i}"))
    result = pair_round(crawled, verifier=ScriptedVerifier())
    assert len([p for p in result.pairs if p.source.endswith("/en/p0.html")]) == 2
    assert SUPERSEDED not in result.rejected


def test_evidence_puts_content_before_credibility():
    pattern = PairingPattern("en", "fr")
    declared = UrlPair("a", "b", pattern, 1.0, 1.0, HREFLANG, verification={"probability": 0.75})
    mined = UrlPair("a", "c", pattern, 0.2, 0.1, LOCAL, verification={"probability": 0.9})
    assert evidence(mined) > evidence(declared)
    assert strongest_first([declared, mined]) == [mined, declared]
    unknown = UrlPair("a", "d", pattern, 1.0, 1.0, HREFLANG)  # no content verified
    assert evidence(declared) > evidence(unknown)


def test_a_declared_pair_takes_its_site_credibility_halved_when_one_way():
    pattern = PairingPattern("en", "fr")
    tallies = {"x.example": DeclarationTally(verified=3, failed=1)}
    both = UrlPair("http://x.example/a", "http://x.example/b", pattern, 1.0, 1.0, HREFLANG)
    one_way = UrlPair("http://x.example/a", "http://x.example/c", pattern, 0.5, 0.5, SWITCHER)
    assert with_site_credibility(both, tallies).local_credibility == 0.75
    assert with_site_credibility(one_way, tallies).local_credibility == 0.375
    mined = UrlPair("http://x.example/a", "http://x.example/d", pattern, 0.4, 0.2, LOCAL)
    assert with_site_credibility(mined, tallies) == mined


TOGGLE_HEADER = """<html lang="en"><body>
<xx-header
  lang="en"
  lang-href='/fr/composants/bouton/'
  skip-to-href="#main">
</xx-header>
<main><p>Buttons start an action.</p><xx-link href="/en/components/">Components</xx-link></main>
</body></html>"""


def test_an_unlabelled_toggle_is_an_alternate_whose_language_its_target_says():
    url = f"{SITE}/en/components/button/"
    alternates = page_alternates(extract_link_contexts(TOGGLE_HEADER, url))
    assert alternates == (Alternate(f"{SITE}/fr/composants/bouton/", "", TOGGLE),)
    fr = f"{SITE}/fr/composants/bouton/"
    pages = {
        url: page(url, "en", "doc1", *alternates),
        fr: page(fr, "fr", "doc1", Alternate(url, "", TOGGLE)),
    }
    [pair] = alternate_pairs(pages)
    assert (pair.source, pair.target, pair.method) == (url, fr, TOGGLE)
    assert pair.pattern == PairingPattern("en", "fr") and pair.local_credibility == 1.0
    pages[fr] = page(fr, "en", "doc1")  # the target is English: no translation of it
    assert alternate_pairs(pages) == []


@pytest.mark.parametrize(
    "html",
    [
        '<div class="language-toggle"><a href="/fr/a-propos"><svg></svg></a></div>',
        '<a id="langSwitch" href="/fr/a-propos"><i class="icon"></i></a>',
        '<gcds-lang-toggle href="/fr/a-propos"></gcds-lang-toggle>',
    ],
)
def test_toggles_are_read_as_real_sites_write_them(html):
    alternates = page_alternates(extract_link_contexts(html, f"{SITE}/en/about-us"))
    assert alternates == (Alternate(f"{SITE}/fr/a-propos", "", TOGGLE),)


def test_a_link_outside_any_language_choice_is_no_toggle():
    html = '<nav class="main-menu"><a href="/fr/a-propos"><svg></svg></a></nav><p class="slang">'
    assert page_alternates(extract_link_contexts(html, f"{SITE}/en/about-us")) == ()


def test_hreflang_and_a_switcher_naming_two_pages_offer_both():
    html = """<head><link rel="alternate" hreflang="fr" href="/fr/old-name"></head>
      <body><a href="/fr/a-propos">Français</a></body>"""
    alternates = set(page_alternates(extract_link_contexts(html, f"{SITE}/en/about-us")))
    assert alternates == {
        Alternate(f"{SITE}/fr/old-name", "fr", HREFLANG),
        Alternate(f"{SITE}/fr/a-propos", "fr", SWITCHER),
    }


def test_links_to_declared_versions_count_as_shared_on_a_site_of_translated_slugs():
    """Two translations at translated slugs share no link and no pattern pairs their links: the
    pages their menus link to name each other by toggle, which the similarity filter counts."""
    en, fr = f"{SITE}/en/button/", f"{SITE}/fr/bouton/"
    en_menu, fr_menu = f"{SITE}/en/components/", f"{SITE}/fr/composants/"

    def slug_page(url, language, menu, other, other_menu):
        text = f"doc1 {language} {PROSE[language]}"
        return PageRecord.of(
            url, language, text, [menu], page_content(f"<body><p>{text}</p></body>"),
            alternates=[Alternate(other, "", TOGGLE)],
        )  # fmt: skip

    crawled = CrawledSites()
    crawled.add(slug_page(en, "en", en_menu, fr, fr_menu))
    crawled.add(slug_page(fr, "fr", fr_menu, en, en_menu))
    assert pair_round(crawled, verifier=ScriptedVerifier()).rejected == {"no_shared_links": 1}
    menu_en = PageRecord.of(
        en_menu, "en", "doc2 en", [], alternates=[Alternate(fr_menu, "", TOGGLE)]
    )
    crawled.add(menu_en)
    result = pair_round(crawled, verifier=ScriptedVerifier())
    assert [(p.source, p.target) for p in result.pairs] == [(en, fr)]
    assert result.pairs[0].method == TOGGLE and result.pairs[0].similarity > 0


def test_declarations_a_url_pattern_corroborates_make_a_site_credible():
    """The Apache manual's shape: /en/pN and /fr/pN, paired by the pattern <en,fr> and by
    hreflang both ways; a third of the French pages are out of date (verifier 0.5). The pattern
    corroborates each declaration the verifier rejected, so the site's declarations are credible
    and its out-of-date translations kept; a mixed-up declaration is never a pattern's pair."""

    def round_of(mixed: bool):
        crawled, stale = CrawledSites(), {}
        for i in range(9):
            j = {0: 1, 1: 0}.get(i, i) if mixed else i
            en, fr = f"{SITE}/en/p{i}.html", f"{SITE}/fr/p{i}.html"
            crawled.add(
                page(en, "en", f"doc{i}", Alternate(f"{SITE}/fr/p{j}.html", "fr", HREFLANG))
            )
            crawled.add(
                page(fr, "fr", f"doc{i}", Alternate(f"{SITE}/en/p{j}.html", "en", HREFLANG))
            )
            if i % 3 == 2:
                stale[frozenset((crawled.pages[en].text, crawled.pages[fr].text))] = 0.5
        return pair_round(crawled, verifier=ScriptedVerifier(stale))

    right = round_of(mixed=False)
    tally = right.declarations["museum.example"]
    assert (tally.judged, tally.corroborated, tally.rescued) == (9, 3, 3) and tally.credible
    assert pairs_of(right) == {(f"p{i}.html", f"p{i}.html") for i in range(9)}
    wrong = round_of(mixed=True)
    tally = wrong.declarations["museum.example"]
    assert tally.corroborated == 3 and not tally.credible  # p0 and p1 named each other's
    assert pairs_of(wrong) == {(f"p{i}.html", f"p{i}.html") for i in range(9) if i % 3 != 2}


def test_a_page_a_url_pattern_placed_elsewhere_pairs_by_no_list():
    """Another edition's manual: ``/fr/c3.html`` is not ``/en/c3.html``'s document (the URL
    pattern's pair is rejected by content), and the French index lists its chapters in another
    order, so by their places ``/en/c3.html`` and ``/fr/c2.html`` would pair, a pair the
    verifier is fooled by (another edition's chapter, Sylpheed's ``sylpheed-16.html``). A page
    the site's URL structure placed elsewhere pairs by no list."""
    crawled = CrawledSites()
    docs = {"en": ["doc1", "doc2", "doc3"], "fr": ["doc1", "doc8", "doc9"]}
    order = {"en": (1, 2, 3), "fr": (1, 3, 2)}
    for lang, names in docs.items():
        urls = {n: f"{SITE}/{lang}/c{n}.html" for n in (1, 2, 3)}
        index = f"{SITE}/{lang}/index.html"
        crawled.add(PageRecord.of(
            index, lang, f"index {lang} {PROSE[lang]}", [urls[n] for n in order[lang]],
            page_content(f"<body><p>index {lang} {PROSE[lang]}</p></body>"),
        ))  # fmt: skip
        for n, doc in zip((1, 2, 3), names, strict=True):
            crawled.add(page(urls[n], lang, doc))
    fooled = frozenset((f"doc3 en {PROSE['en']}", f"doc8 fr {PROSE['fr']}"))
    result = pair_round(crawled, verifier=ScriptedVerifier({fooled: 0.8}))
    pairs = {(p.source.rsplit("/", 1)[1], p.target.rsplit("/", 1)[1]) for p in result.pairs}
    assert ("c1.html", "c1.html") in pairs
    assert ("c3.html", "c2.html") not in pairs and ("c2.html", "c3.html") not in pairs
