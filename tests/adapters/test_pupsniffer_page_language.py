"""A PupSniffer page's language read with the language its site declares (issue 49): a page in a
language lid.176 lacks (Dzongkha) or confuses with a neighbour (Bokmål, Nynorsk, Galician) is in
the language its URL names, pairs with its English original, and an English copy under that
language's URL is English and pairs with nothing."""

from __future__ import annotations

import pytest
from scrapy.http import HtmlResponse

from bilingual_spider.adapters.pupsniffer_items import url_pair_item
from bilingual_spider.adapters.pupsniffer_pages import page_links, page_record, page_text
from bilingual_spider.language.declared_language import Signal
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.patterns.crawl_round import KEPT, NOT_AS_MARKED, judge_pair
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pair_language import PairLanguageVerdict
from bilingual_spider.patterns.pairing import LOCAL, UrlPair
from tests.language.test_declared_language import catalog_sentences

SITE = "http://docs.example"
LINKS = "".join(f'<a href="{SITE}/{name}.html">{name}</a>' for name in ("a", "b", "c"))


def response(url: str, sentences: list[str], lang: str = "") -> HtmlResponse:
    attribute = f' lang="{lang}"' if lang else ""
    body = "".join(f"<p>{s}</p>" for s in sentences)
    html = f"<html{attribute}><body>{body}<div>{LINKS}</div></body></html>"
    return HtmlResponse(url, body=html.encode(), encoding="utf-8")


def record(url: str, sentences: list[str], lang: str = ""):
    page = response(url, sentences, lang)
    found = page_text(page, default_identifier())
    return found, page_record(page, found, page_links(page), with_content=False)


@pytest.mark.parametrize("lang", ["dz", "nb", "nn", "gl"])
def test_a_translated_page_is_in_its_declared_language_and_pairs_with_its_original(lang):
    translated, english = catalog_sentences(lang, 40)
    found, target = record(f"{SITE}/{lang}/install.html", translated)
    assert found.language == lang
    _, source = record(f"{SITE}/en/install.html", english)
    pair = UrlPair(source.url, target.url, PairingPattern("en", lang), 0.5, 0.5, LOCAL)
    kept, why = judge_pair(pair, source, target, {})
    assert why == KEPT and kept is not None
    assert (kept.source_language, kept.target_language) == ("en", lang)
    # the item's evidence says which signal decided each side's language
    evidence = url_pair_item(kept).verification["language_signals"]
    assert evidence == ["identifier", found.signal]
    assert found.signal != "identifier" or lang in ("nn", "gl")  # lid.176 knows nn and gl


def test_the_signal_that_decided_is_said():
    dzongkha, _ = catalog_sentences("dz", 40)
    assert record(f"{SITE}/dz/a.html", dzongkha)[0].signal is Signal.DECLARED_UNKNOWN
    bokmal, english = catalog_sentences("nb", 40)
    assert record(f"{SITE}/nb/a.html", bokmal)[0].signal is Signal.DECLARED_CLOSE
    assert record(f"{SITE}/en/a.html", english)[0].signal is Signal.IDENTIFIER
    # no marker in the URL: <html lang> declares it
    assert record(f"{SITE}/a.html", bokmal, "nb")[0].language == "nb"


@pytest.mark.parametrize("lang", ["dz", "nb", "gl"])
def test_an_english_copy_under_a_language_path_is_english_and_not_paired(lang):
    _, english = catalog_sentences(lang, 40)
    found, copy = record(f"{SITE}/{lang}/install.html", english, lang)
    assert found.language == "en"
    _, source = record(f"{SITE}/en/install.html", english)
    pair = UrlPair(source.url, copy.url, PairingPattern("en", lang), 0.5, 0.5, LOCAL)
    kept, why = judge_pair(pair, source, copy, {})
    assert kept is None and why in (PairLanguageVerdict.SAME_LANGUAGE, NOT_AS_MARKED)


def test_an_index_page_with_an_untranslated_licence_is_in_its_prose_language():
    """Prose before boilerplate: the English licence in a translated index page's main text
    (longer than its table of contents) does not decide its language; the copy check still
    counts it (half its prose is the English page's: a copy, as the real sites' gold says)."""
    from bilingual_spider.sandbox.language_sites import LICENCE

    for lang in ("dz", "gl"):
        translated, english = catalog_sentences(lang, 40)
        titles, english_titles = translated[:12], english[:12]
        assert len(LICENCE) > len(" ".join(titles))
        found, target = record(f"{SITE}/{lang}/index.html", [*titles, LICENCE])
        assert found.language == lang
        _, source = record(f"{SITE}/en/index.html", [*english_titles, LICENCE])
        pair = UrlPair(source.url, target.url, PairingPattern("en", lang), 0.5, 0.5, LOCAL)
        kept, why = judge_pair(pair, source, target, {})
        assert kept is None and why == PairLanguageVerdict.COPIED, lang
