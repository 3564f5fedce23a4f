"""Translation groups: pairs that share a page make one document in N languages; a group holds
one page per language; the pairs a group implies are judged as any pair is."""

from hypothesis import given
from hypothesis import strategies as st

from bilingual_spider.patterns.crawl_round import (
    COPY_OF_ANOTHER,
    NOT_AS_MARKED,
    PageRecord,
    judge_group_pairs,
)
from bilingual_spider.patterns.groups import (
    GROUP,
    Outcome,
    TranslationGroups,
    build_groups,
    implied_pair,
    url_difference,
)
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import DEEP, LOCAL, UrlPair

LANGUAGES = ("de", "en", "fr", "it", "pt")
TEXTS = {
    "de": "Das Museum ist täglich von neun Uhr morgens bis sechs Uhr abends geöffnet.",
    "en": "The museum opens every day from nine in the morning until six in the evening.",
    "fr": "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir.",
    "it": "Il museo è aperto tutti i giorni dalle nove del mattino alle sei di sera.",
    "pt": "O museu abre todos os dias das nove da manhã às seis da tarde.",
}


def url(language: str, page: str = "x") -> str:
    return f"http://docs.example/{language}/{page}.html"


def pair(a: str, b: str, page: str = "x", method: str = LOCAL, credibility: float = 0.5) -> UrlPair:
    return UrlPair(
        url(a, page),
        url(b, page),
        PairingPattern.of(a, b),
        credibility,
        credibility,
        method,
        source_language=a,
        target_language=b,
    )


def star(n: int, page: str = "x") -> list[UrlPair]:
    """The first language paired with each other one (what deep-page checks give)."""
    return [pair(LANGUAGES[0], other, page, DEEP) for other in LANGUAGES[1:n]]


def test_a_star_of_pairs_in_n_languages_is_one_group_of_n_with_n_n_minus_1_over_2_pairs():
    for n in range(2, len(LANGUAGES) + 1):
        groups = build_groups(star(n))
        (group,) = groups.groups()
        assert group.by_language() == {lang: url(lang) for lang in LANGUAGES[:n]}
        implied = group.implied(tuple(p) for p in groups.found())
        assert len(implied) == n * (n - 1) // 2 - (n - 1)
        every = {frozenset(p) for p in groups.found()} | {
            frozenset((a.url, b.url)) for a, b in implied
        }
        assert len(every) == n * (n - 1) // 2
        assert {frozenset((url("en"), url("fr")))} <= every or n < 3


def test_pairs_that_share_no_page_merge_when_a_pair_joins_them_transitively():
    groups = TranslationGroups()
    assert groups.add(pair("de", "en")) is Outcome.NEW
    assert groups.add(pair("fr", "it")) is Outcome.NEW
    assert len(groups.groups()) == 2
    assert groups.add(pair("en", "fr")) is Outcome.MERGED
    (group,) = groups.groups()
    assert set(group.by_language()) == {"de", "en", "fr", "it"}
    implied = {frozenset((a.url, b.url)) for a, b in group.implied(groups.found())}
    assert implied == {
        frozenset((url("de"), url("fr"))),
        frozenset((url("de"), url("it"))),
        frozenset((url("en"), url("it"))),
    }
    assert groups.add(pair("de", "it")) is Outcome.KNOWN


def test_a_group_keeps_one_page_per_language_and_counts_the_conflict():
    groups = TranslationGroups()
    groups.add(pair("en", "fr"))
    other_french = UrlPair(
        url("en"), url("fr", "y"), PairingPattern("en", "fr"), 0.4, 0.4, LOCAL, "en", "fr"
    )
    assert groups.add(other_french) is Outcome.CONFLICT
    groups.add(pair("en", "de", "y"))
    groups.add(pair("de", "fr", "y"))  # a second document {de, en, fr} of page y
    assert groups.add(pair("en", "it")) is Outcome.JOINED
    # a wrong pair across the two documents would put two English pages in one group
    assert groups.add(pair_of(url("it"), "it", url("de", "y"), "de")) is Outcome.CONFLICT
    assert groups.conflicts == 2
    assert sorted(len(g.members) for g in groups.groups()) == [3, 3]
    assert url("fr", "y") not in groups.groups()[0].by_language().values()


def pair_of(a: str, language_a: str, b: str, language_b: str, strength: float = 0.5) -> UrlPair:
    pattern = PairingPattern.of(language_a, language_b)
    return UrlPair(a, b, pattern, strength, strength, LOCAL, language_a, language_b)


def test_the_strongest_pair_keeps_its_place_whatever_the_order():
    weak = pair_of(url("en"), "en", url("fr", "y"), "fr", 0.2)
    strong = pair_of(url("en"), "en", url("fr"), "fr", 0.9)
    for given_pairs in ([weak, strong], [strong, weak]):
        groups = build_groups(given_pairs)
        (group,) = groups.groups()
        assert group.by_language() == {"en": url("en"), "fr": url("fr")}
        assert groups.conflicts == 1


def test_a_pair_without_two_languages_changes_nothing():
    groups = TranslationGroups()
    assert groups.add(pair_of(url("en"), "en", url("fr"), "")) is Outcome.NO_LANGUAGE
    assert groups.add(pair_of(url("en"), "en", url("en", "y"), "en")) is Outcome.NO_LANGUAGE
    assert groups.groups() == []


def test_how_each_member_joined_is_kept():
    (group,) = build_groups([pair("de", "en", method=DEEP), pair("en", "fr")]).groups()
    joined = {member.url: (member.method, member.partner) for member in group.members}
    assert joined == {
        url("de"): (DEEP, url("en")),
        url("en"): (DEEP, url("de")),
        url("fr"): (LOCAL, url("en")),
    }
    assert len(group.group_id) == 16
    assert group.group_id == build_groups([pair("en", "fr"), pair("de", "en")]).groups()[0].group_id


def test_an_implied_pair_takes_the_unit_its_urls_differ_by_as_its_pattern():
    assert url_difference(url("de-DE"), url("fr-FR")) == PairingPattern("de-DE", "fr-FR")
    assert url_difference(url("de"), url("fr", "y")) is None
    assert url_difference("http://a.example/x.html", "http://b.example/x.html") is None
    (group,) = build_groups(star(3)).groups()
    implied = implied_pair(*[m for m in group.members if m.language != "de"])
    assert implied.method == GROUP
    assert (implied.source, implied.target) == (url("en"), url("fr"))
    assert implied.pattern == PairingPattern("en", "fr")


PAIRS = st.lists(
    st.tuples(
        st.sampled_from(LANGUAGES),
        st.sampled_from(LANGUAGES),
        st.sampled_from("xyz"),
        st.sampled_from("xyz"),
        st.floats(0.0, 1.0),
    ),
    max_size=30,
)


@given(PAIRS)
def test_any_pairs_make_groups_of_one_page_per_language_each_page_in_one_group(given_pairs):
    pairs = [
        pair_of(url(a, p), a, url(b, q), b, strength)
        for a, b, p, q, strength in given_pairs
        if a != b
    ]
    groups = build_groups(pairs)
    seen: set[str] = set()
    for group in groups.groups():
        languages = [member.language for member in group.members]
        assert len(languages) == len(set(languages)) >= 2
        urls = {member.url for member in group.members}
        assert not urls & seen
        seen |= urls
        n = len(urls)
        direct = [p for p in groups.found() if p <= urls]
        assert len(direct) + len(group.implied(tuple(p) for p in direct)) == n * (n - 1) // 2
    joined = {frozenset((p.source, p.target)) for p in pairs}
    assert groups.found() <= joined


def record(language: str, text_language: str | None = None) -> PageRecord:
    """A page of the document, in ``text_language`` (its own by default), linking to the
    other pages of its language's version of the site."""
    links = [url(language, "index"), url(language, "a"), url(language, "b")]
    text = TEXTS[text_language or language]
    return PageRecord.of(url(language), text_language or language, text, links)


def test_the_pairs_a_group_implies_are_judged_as_any_pair_is():
    pages = {url(lang): record(lang) for lang in ("de", "en", "fr")}
    pages[url("it")] = record("it", "en")  # /it/ in English: an untranslated fallback
    found = star(3) + [pair_of(url("de"), "de", url("it"), "en")]  # what a crawl found
    result = judge_group_pairs(found, pages.get, {})
    (verdict,) = result.verdicts
    assert {m.language for m in verdict.group.members} == {"de", "en", "fr"}  # "it" page: "en"
    assert result.conflicts == 1
    assert verdict.direct == 2
    (implied,) = verdict.implied
    assert {implied.source, implied.target} == {url("en"), url("fr")}
    assert implied.method == GROUP and implied.similarity is not None


def test_an_implied_pair_that_fails_a_check_is_not_reported():
    pages = {url(lang): record(lang) for lang in ("de", "en")}
    pages[url("fr")] = record("fr", "it")  # identified Italian under /fr/
    found = [pair_of(url("de"), "de", url("en"), "en"), pair_of(url("de"), "de", url("fr"), "it")]
    (verdict,) = judge_group_pairs(found, pages.get, {}).verdicts
    assert verdict.implied == ()
    assert verdict.rejected == {NOT_AS_MARKED: 1}
    assert verdict.direct == 2 and len(verdict.group.members) == 3


def test_a_pair_found_by_one_worker_is_kept_for_the_groups_of_all():
    from bilingual_spider.patterns.round_state import found_pair, found_pair_key

    deep = pair("de", "fr", method=DEEP, credibility=0.25)
    assert found_pair(found_pair_key(deep)) == deep


def test_a_member_found_to_be_the_copy_of_another_is_in_none_of_the_pairs_its_group_implies():
    pages = {url(lang): record(lang) for lang in ("de", "en", "fr")}
    links = [url("pt", "index"), url("pt", "a"), url("pt", "b")]
    half = f"{TEXTS['pt']} {TEXTS['en']} {TEXTS['en']}"  # the English page's text, and its own
    pages[url("pt")] = PageRecord.of(url("pt"), "pt", half, links, language_share=0.55)
    found = [pair("de", "en", method=DEEP), pair("de", "fr", method=DEEP), pair("de", "pt")]
    (verdict,) = judge_group_pairs(found, pages.get, {}).verdicts
    implied = {frozenset((p.source, p.target)) for p in verdict.implied}
    assert implied == {frozenset((url("en"), url("fr")))}  # not pt with en (copied) nor fr
    assert verdict.rejected == {"copied": 1, COPY_OF_ANOTHER: 1}
