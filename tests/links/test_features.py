"""Link features: language codes and names survive, CJK is split into usable pieces, stop words
go, words are stemmed, and where the target is (same host, same site, other site) is told."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.links.contexts import LinkContext, extract_link_contexts
from bilingual_spider.links.features import (
    NEIGHBOURHOOD_CONTEXTS,
    link_tokens,
    neighbourhood_link_tokens,
    site_relation,
    text_words,
)

PAGE = "http://www.example.com/en/about.html"


def context(**fields: str) -> LinkContext:
    values = dict.fromkeys(LinkContext.__dataclass_fields__, "")
    values.update(url="http://www.example.com/x.html", page_url=PAGE)
    values.update(fields)
    return LinkContext(**values)


def tokens(**fields: str) -> set[str]:
    return set(link_tokens(context(**fields)))


def test_language_codes_in_urls_survive_splitting():
    assert {"url:zh-tw", "url:zh", "url:tw", "url:index"} <= tokens(
        url="http://www.example.com/zh-tw/index.html"
    )
    assert {"url:pt-br", "url:pt", "url:br"} <= tokens(url="http://www.example.com/pt_BR/a.html")
    assert "url:eng" in tokens(url="http://www.example.com/eng/")
    assert {"url:lang", "url:es"} <= tokens(url="http://www.example.com/page.php?lang=es")
    assert {"url:contact", "url:en"} <= tokens(url="http://www.example.com/contact_EN.html")
    assert {"url:about", "url:us", "url:es"} <= tokens(url="http://www.example.com/AboutUsES.htm")
    assert "url:~lang" in tokens(url="http://www.example.com/ja/")
    assert "url:~lang" not in tokens(url="http://www.example.com/faq/news.html")


def test_percent_encoded_cjk_paths_are_decoded():
    assert "url:中文" in tokens(url="http://www.example.com/%E4%B8%AD%E6%96%87/")


def test_host_labels_and_tld_are_separate_features():
    found = tokens(url="http://es.example.co.uk/")
    assert {"host:es", "host:example", "host:co", "host:uk", "tld:uk", "host:~lang"} <= found


def test_language_names_in_many_scripts_reach_the_features():
    for anchor, expected in (
        ("English", "anchor:english"),
        ("Español", "anchor:español"),
        ("Deutsch", "anchor:deutsch"),
        ("中文", "anchor:中文"),
        ("日本語", "anchor:日本語"),
        ("한국어", "anchor:한국어"),
        ("Русский", "anchor:русский"),
    ):
        found = tokens(anchor=anchor)
        assert expected in found and "anchor:~lang" in found, anchor
    assert {"anchor:françai", "anchor:~lang"} <= tokens(anchor="Français")  # stemmed


def test_a_switchers_in_this_language_is_a_language_link():
    """LilyPond's switcher writes Czech ``Česky`` ("in Czech"), not the name ``Čeština``."""
    for anchor in ("Česky", "Magyarul", "Po polsku", "По-русски", "繁體", "简体"):
        found = tokens(anchor=anchor, page_lang="en")
        assert {"anchor:~lang", "anchor:~lang=other"} <= found, anchor


def test_cjk_text_gives_runs_and_bigrams():
    assert {"anchor:繁體中文", "anchor:繁體", "anchor:中文", "anchor:~lang"} <= tokens(
        anchor="繁體中文"
    )
    assert {"anchor:中文", "anchor:简", "anchor:~lang"} <= tokens(anchor="中文(简)")
    assert "anchor:~lang" in tokens(anchor="日本語版")
    assert {"around:会社", "around:概要"} <= tokens(around="会社概要 ようこそ")
    assert text_words("Hello 世界, ok") == ["hello", "世界", "ok"]


def test_stop_words_go_and_words_are_stemmed():
    found = tokens(anchor="The history of the city", around="and our services for hotels")
    assert {"anchor:histori", "anchor:citi", "around:servic", "around:hotel"} <= found
    assert not {"anchor:the", "anchor:of", "around:and", "around:our", "around:for"} & found
    assert "url:servic" in tokens(url="http://www.example.com/services.html")


def test_a_single_word_is_kept_even_if_it_is_a_stop_word():
    assert {"anchor:it", "anchor:~lang"} <= tokens(anchor="IT")
    assert "anchor:no" in tokens(anchor="NO")


def test_page_language_stop_words_are_used_but_never_language_names():
    found = tokens(anchor="Lea esto en español", page_lang="es")
    assert {"anchor:lea", "anchor:español", "anchor:~lang"} <= found
    assert not {"anchor:en", "anchor:esto"} & found
    assert "anchor:english" in tokens(anchor="English version", page_lang="en")


def test_image_source_words_and_flags():
    found = tokens(img_src="http://www.example.com/images/flags/es.png", img_alt="Spanish flag")
    assert {"src:flag", "src:es", "src:~lang", "alt:spanish", "alt:~lang"} <= found
    assert "src:~lang" in tokens(img_src="http://www.example.com/img/gb.gif")
    assert "anchor:~none" in tokens(img_src="http://www.example.com/img/gb.gif")


def test_hreflang_and_title_features():
    found = tokens(hreflang="zh-Hant", title="Traditional Chinese", page_lang="en")
    assert {"hreflang:zh-hant", "hreflang:~lang", "hreflang:~lang=other"} <= found
    assert {"title:tradit", "title:chines", "title:~lang"} <= found


def test_languages_are_compared_with_the_pages_own():
    assert "anchor:~lang=same" in tokens(anchor="English", page_lang="en-GB")
    assert "anchor:~lang=other" in tokens(anchor="Español", page_lang="en")
    # no <html lang>: the code in the page's URL tells
    assert "url:~lang=other" in tokens(url="http://www.example.com/fr/about.html")
    assert "url:~lang=same" in tokens(url="http://www.example.com/en/news.html")
    # both Chinese scripts are different languages
    zh = tokens(anchor="繁體中文", page_lang="zh-Hans")
    assert "anchor:~lang=other" in zh


def test_url_difference_with_the_page():
    switch = tokens(url="http://www.example.com/es/about.html")
    assert {"diff:+es", "diff:-en", "diff:~swap", "diff:n=1/1"} <= switch
    ordinary = tokens(url="http://www.example.com/en/contact.html")
    assert {"diff:+contact", "diff:-about"} <= ordinary and "diff:~swap" not in ordinary


def test_where_the_target_is():
    assert site_relation("http://www.example.com/a", "http://www.example.com/b") == "same_host"
    assert site_relation("http://es.example.com/", "http://www.example.com/b") == "same_domain"
    assert site_relation("http://www.example.es/", "http://www.example.com/b") == "same_name"
    assert site_relation("http://www.example.com.mx/", "http://example.co.uk/") == "same_name"
    assert site_relation("http://other.org/", "http://www.example.com/b") == "other"
    assert site_relation(PAGE, PAGE) == "self"
    assert "site:same_domain" in tokens(url="http://fr.example.com/")


def test_tokens_of_a_real_switcher_page():
    page = (
        '<html lang="en"><body><div class="lang"><a href="/es/about.html">'
        '<img src="/img/flags/es.png" alt="Español"></a></div></body></html>'
    )
    (link,) = extract_link_contexts(page, PAGE)
    found = set(link_tokens(link))
    assert {"url:es", "alt:español", "src:flag", "diff:~swap", "alt:~lang=other"} <= found


@settings(max_examples=100, deadline=None)
@given(
    st.text(max_size=40),
    st.text(max_size=40),
    st.sampled_from(["http://a.example/x", "http://[::1]/", "http://a.example/%ZZ?q=%E4", "x"]),
)
def test_any_text_gives_string_tokens(anchor: str, around: str, url: str):
    found = link_tokens(replace(context(anchor=anchor, around=around), url=url, title=anchor))
    assert all(isinstance(t, str) and ":" in t for t in found)


def test_hiding_languages_keeps_the_markers_and_drops_the_language_words():
    shown = context(
        url="http://www.example.com/es/about.html",
        anchor="Español",
        img_src="http://www.example.com/flags/es.png",
        hreflang="es",
        page_lang="en",
    )
    hidden = set(link_tokens(shown, hide_languages=True))
    markers = {"anchor:~lang", "url:~lang", "src:~lang", "hreflang:~lang", "diff:~swap"}
    assert markers <= hidden and markers <= set(link_tokens(shown))
    assert not {"anchor:español", "url:es", "src:es", "hreflang:es", "diff:+es"} & hidden
    assert {"url:about", "src:flag"} <= hidden
    assert "host:es" not in link_tokens(context(url="http://es.example.com/"), hide_languages=True)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["", "Español", "English version", "hotel links", "日本語", "de"]),
    st.sampled_from(["", "Cheap rooms (English, Deutsch)", "for travellers", "fr"]),
    st.sampled_from(
        [
            "http://es.example.com/es/about.html",
            "http://www.hotel-playa.es/links.html",
            "http://a.example/x",
            "http://[::1]/",
            "x",
        ]
    ),
    st.sampled_from(["", "en", "es-ES", "zh-Hant"]),
    st.sampled_from(["http://www.example.com/en/index.html", "http://de.example.de/"]),
)
def test_the_neighbourhood_tokens_are_the_link_tokens_of_those_contexts(
    anchor: str, around: str, url: str, page_lang: str, page_url: str
):
    link = replace(
        context(anchor=anchor, around="ignored words", url=url, page_lang=page_lang),
        page_url=page_url,
        img_alt="Spanish flag",
        img_src="http://www.example.com/flags/es.png",
        title=anchor,
        hreflang="es",
    )
    kept = [
        token
        for token in link_tokens(replace(link, around=around))
        if token.startswith(NEIGHBOURHOOD_CONTEXTS)
    ]
    assert neighbourhood_link_tokens(link, around) == kept
