"""Link contexts from tricky HTML: flags, nested images, relative URLs, <base>, alternates,
<select> language menus, skipped schemes, charsets, and pages no parser should choke on."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bilingual_spider.links.contexts import LinkContext, absolute_url, extract_link_contexts
from bilingual_spider.links.features import link_tokens

PAGE = "http://www.example.com/en/about/team.html"


def links(html: str | bytes, page_url: str = PAGE, around_words: int = 10) -> list[LinkContext]:
    return extract_link_contexts(html, page_url, around_words)


def test_flag_only_link_has_no_anchor_but_its_image_alt_and_absolute_src():
    (link,) = links('<a href="/es/"><img src="../img/flags/es.png" alt="Español"></a>')
    assert link.url == "http://www.example.com/es/"
    assert link.anchor == ""
    assert link.img_alt == "Español"
    assert link.img_src == "http://www.example.com/en/img/flags/es.png"


def test_nested_images_are_all_collected_and_text_between_them_is_the_anchor():
    (link,) = links(
        '<a href="x.html"><span><img alt="flag" src="a.gif"></span> Deutsch '
        '<b><img src="b.gif" alt=" de "></b></a>'
    )
    assert link.anchor == "Deutsch"
    assert link.img_alt == "flag de"
    assert link.img_src.split() == [
        "http://www.example.com/en/about/a.gif",
        "http://www.example.com/en/about/b.gif",
    ]


def test_relative_and_protocol_relative_urls_are_resolved_without_fragment():
    found = links(
        '<a href="../../fr/team.html#top">fr</a> <a href="//es.example.com/x?a=1">es</a>'
        '<a href=" \n/de/\tteam.html ">de</a>',
        page_url="https://www.example.com/en/about/team.html",
    )
    assert [c.url for c in found] == [
        "https://www.example.com/fr/team.html",
        "https://es.example.com/x?a=1",
        "https://www.example.com/de/team.html",
    ]


def test_a_links_tracking_parameters_are_dropped_its_others_kept():
    found = links(
        '<a href="/?utm_source=linkedin&amp;utm_medium=social">home</a>'
        '<a href="/blog/?page=2&amp;fbclid=IwAR0x">blog</a><a href="/s?q=utm_source">s</a>',
        page_url="http://digital.example.ca/en/",
    )
    assert [c.url for c in found] == [
        "http://digital.example.ca/",
        "http://digital.example.ca/blog/?page=2",
        "http://digital.example.ca/s?q=utm_source",
    ]


def test_a_links_session_id_is_dropped_one_page_one_url():
    """A session's id, new in every answer, makes every link another URL of the same page:
    ``;jsessionid=`` in the path, ``PHPSESSID``, a ``sid`` of 32 hexadecimal digits; a short
    ``sid`` (a story's id) stays."""
    session = "0123456789abcdef0123456789abcdef"
    found = links(
        '<a href="/kk/;jsessionid=4CB78CB8FC37C009614806C8106879E3">kk</a>'
        '<a href="/en/articles/?PHPSESSID=ek7p9232kerpep8a7gqpfnvvb9&amp;p=2">articles</a>'
        f'<a href="/news.php?sid={session}&amp;id=4">news</a><a href="/story.php?sid=42">s</a>',
        page_url="http://www.steppe.example/",
    )
    assert [c.url for c in found] == [
        "http://www.steppe.example/kk/",
        "http://www.steppe.example/en/articles/?p=2",
        "http://www.steppe.example/news.php?id=4",
        "http://www.steppe.example/story.php?sid=42",
    ]


def test_base_href_is_the_base_of_every_link_and_image():
    found = links(
        '<html><head><base href="/site/v2/"></head><body>'
        '<a href="es/index.html"><img src="flags/es.png"></a></body></html>'
    )
    assert found[0].url == "http://www.example.com/site/v2/es/index.html"
    assert found[0].img_src == "http://www.example.com/site/v2/flags/es.png"


def test_hreflang_alternates_in_head_are_links_without_anchor():
    found = links(
        '<html lang="en"><head><link rel="stylesheet" href="a.css">'
        '<link rel="alternate" type="application/rss+xml" href="/feed">'
        '<link rel="alternate" hreflang="zh-TW" href="/zh-tw/about/team.html">'
        '<link rel="Alternate" hreflang="x-default" href="/"></head>'
        "<body><p>Words here</p></body></html>"
    )
    assert [(c.url, c.hreflang, c.anchor, c.around) for c in found] == [
        ("http://www.example.com/zh-tw/about/team.html", "zh-Hant", "", ""),
        ("http://www.example.com/", "", "", ""),
    ]
    assert found[0].page_lang == "en"


def test_links_that_lead_to_no_page_are_skipped():
    found = links(
        '<a href="javascript:void(0)">js</a> <a href="JavaScript:go()">js</a>'
        '<a href="mailto:a@example.com">mail</a> <a href="tel:+100">tel</a>'
        '<a href="#top">top</a> <a href="">empty</a> <a>no href</a> <a href="http://">bad</a>'
        '<a href="ftp://example.com/f">ftp</a> <a href="http://[::1">broken</a>'
        '<a href="/ok.html">ok</a>'
    )
    assert [c.anchor for c in found] == ["ok"]


def test_around_has_n_words_each_side_without_the_anchor_and_without_scripts():
    html = (
        "<p>one two three four <a href=x>the link</a> five six "
        "<script>var hidden = 1;</script>seven eight</p>"
    )
    (link,) = links(html, around_words=3)
    assert link.anchor == "the link"
    assert link.around == "two three four five six seven"


def test_around_counts_chinese_by_characters():
    (link,) = links("<p>这是一个很长的中文句子<a href=x>链接</a>后面还有文字</p>", around_words=4)
    assert link.around == "中文句子 后面还有"


def test_block_text_is_the_enclosing_block_and_page_lang_is_normalised():
    (link,) = links(
        '<html lang="pt-br"><body><ul><li>Read <a href="/x" title=" The  title ">this</a> '
        "now</li><li>other</li></ul></body></html>"
    )
    assert link.block_text == "Read this now"
    assert link.page_lang == "pt-BR"
    assert link.title == "The title"


def test_block_around_keeps_to_the_links_own_list_item():
    first, second = links(
        "<h1>Travel sites</h1><ul><li><a href=http://a.es/>Hotel Sol</a> (English, Español)</li>"
        "<li><a href=http://b.de/>Pension Berg</a> (Deutsch)</li></ul>"
    )
    assert "Deutsch" in first.around and first.block_around == "(English, Español)"
    assert "Travel" in second.around and second.block_around == "(Deutsch)"


def test_hreflang_attribute_of_a_link_and_area_alt():
    found = links(
        '<a href="/ja/" hreflang="ja-JP">日本語</a><map><area href="/ko/" alt="한국어"></map>'
    )
    assert (found[0].hreflang, found[0].anchor) == ("ja", "日本語")
    assert (found[1].url, found[1].img_alt, found[1].anchor) == (
        "http://www.example.com/ko/",
        "한국어",
        "",
    )


SELECT_MENU = (
    '<html lang="en"><body><div id="header"><a href="/">Home</a> <form>Language: '
    '<select onchange="location.href=this.value">'
    '<option value="/en/about/team.html" selected>English</option>'
    '<option value="/fr/about/team.html">Français</option>'
    '<option value="http://ja.example.com/about/team.html" title="Japanese">日本語</option>'
    '<option value="../../de/about/team.html">Deutsch</select></form></div>'
    "<p>Our team works for you</p></body></html>"
)


def test_select_menu_options_whose_values_are_urls_are_links_named_by_their_text():
    home, *options = links(SELECT_MENU, around_words=3)
    assert home.anchor == "Home"
    assert [(c.url, c.anchor) for c in options] == [
        ("http://www.example.com/en/about/team.html", "English"),
        ("http://www.example.com/fr/about/team.html", "Français"),
        ("http://ja.example.com/about/team.html", "日本語"),
        ("http://www.example.com/de/about/team.html", "Deutsch"),
    ]
    french = options[1]
    assert french.around == "Home Language: English 日本語"  # 3 words each side: 日, 本, 語
    assert french.block_text == "Language: English Français 日本語 Deutsch"  # the <form>
    assert french.block_around == "Language: English 日本語"
    assert (options[2].title, french.page_lang, french.img_alt) == ("Japanese", "en", "")
    assert "anchor:~lang=other" in link_tokens(french)  # features read options as any link


def test_options_whose_values_are_no_url_and_options_outside_a_select_are_no_links():
    found = links(
        '<select name="lang"><option value="">Language</option><option value="1">One</option>'
        '<option value="fr">Français</option><option value="#">-</option><option>/es/</option>'
        '<option value="javascript:go(\'/de/\')">Deutsch</option><option value="mailto:a@b/c">m'
        '</option><option value="http://">x</option><option value=" ?lang=ja ">日本語</option>'
        '<option value="index_ko.html">한국어</option></select>'
        '<datalist><option value="/zz/">outside</option></datalist>'
    )
    assert [(c.url, c.anchor) for c in found] == [
        ("http://www.example.com/en/about/team.html?lang=ja", "日本語"),
        ("http://www.example.com/en/about/index_ko.html", "한국어"),
    ]


def test_shift_jis_and_euc_kr_bytes_are_decoded_from_their_meta_charset():
    japanese = (
        '<html><head><meta charset="shift_jis"></head><body>'
        '<a href="/ja/">日本語</a> ようこそ</body></html>'
    ).encode("shift_jis")
    korean = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr">'
        '</head><body><a href="/ko/">한국어</a> 환영합니다</body></html>'
    ).encode("euc-kr")
    assert [(c.anchor, c.around) for c in links(japanese)] == [("日本語", "ようこそ")]
    assert [(c.anchor, c.around) for c in links(korean)] == [("한국어", "환영합니다")]


def test_malformed_html_is_read_as_browsers_do():
    found = links(
        "<html><body><p>start <a href=one.html>one <a href=two.html>two</b></p>"
        "<div><a href='three.html'>th<i>ree</div><!-- <a href=hidden.html>x</a> -->tail"
    )
    assert [(c.url.rsplit("/", 1)[1], c.anchor) for c in found] == [
        ("one.html", "one"),
        ("two.html", "two"),
        ("three.html", "th ree"),
    ]


def test_xml_declaration_non_ascii_urls_and_empty_pages():
    declaration = '<?xml version="1.0" encoding="utf-8"?>'
    found = links(declaration + '<html><a href="/中文/页.html">x</a></html>')
    assert found[0].url == "http://www.example.com/%E4%B8%AD%E6%96%87/%E9%A1%B5.html"
    assert links("") == [] and links(b"") == [] and links("   ") == []


def test_absolute_url_keeps_http_and_https_only():
    assert absolute_url("http://a.example/x/", "y") == "http://a.example/x/y"
    assert absolute_url("http://a.example/x/", "data:text/html,hi") is None
    assert absolute_url("http://a.example/x/", "HTTPS://B.example/") == "HTTPS://B.example/"


_TAGS = st.sampled_from(
    ["a", "img", "p", "div", "base", "link", "script", "li", "td", "area", "html", "head", "b",
     "select", "option"]
)  # fmt: skip
_ATTRS = st.sampled_from(["href", "src", "alt", "hreflang", "rel", "lang", "title", "value"])
_VALUES = st.one_of(
    st.sampled_from(
        ["//x.example/", "javascript:x", "#", "", "../..", "http://[", "alternate", "zh_TW",
         "http://a.example/é", "mailto:x", "\x00", "\ud800", "es", " \n ", "/fr/", "?lang=x"]
    ),
    st.text(max_size=20),
)  # fmt: skip
_ELEMENT = st.builds(
    lambda tag, attrs, text, close: (
        f"<{tag} "
        + " ".join(f'{name}="{value}"' for name, value in attrs)
        + f">{text}"
        + (f"</{tag}>" if close else "")
    ),
    _TAGS,
    st.lists(st.tuples(_ATTRS, _VALUES), max_size=3),
    st.text(max_size=15),
    st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(_ELEMENT, st.text(max_size=20)), max_size=12))
def test_odd_html_never_raises_and_gives_absolute_http_urls(parts: list[str]):
    for context in links("".join(parts)):
        assert context.url.lower().startswith(("http://", "https://"))
        assert "#" not in context.url
        assert context.page_url == PAGE


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([PAGE, "https://h.example", "not a url"]))
def test_any_bytes_never_raise(body: bytes, page_url: str):
    links(body, page_url)


_MENU_URLS = {
    "http://www.example.com/en/about/team.html",
    "http://www.example.com/fr/about/team.html",
    "http://ja.example.com/about/team.html",
    "http://www.example.com/de/about/team.html",
}


def _menu_as_text(html: str) -> str:
    """The same page with its <select> menu as plain text: the same words, no options."""
    for old, new in (("<select", "<span"), ("</select>", "</span>")):
        html = html.replace(old, new)
    return html.replace("<option", "<b").replace("</option>", "</b>")


def _plain_page_parts(parts: list[str]) -> bool:
    """Parts that let a menu among them be read: no menu of their own, no <base>, no end of the
    page, no lone surrogate (an unreadable page)."""
    text = "".join(parts)
    tags = ("select", "option", "<b", "html", "head")
    return not any(tag in text.lower() for tag in tags) and text.encode(errors="replace") == (
        text.encode(errors="ignore")
    )


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(_ELEMENT, st.text(max_size=20)), max_size=8).filter(_plain_page_parts),
    st.integers(min_value=0, max_value=8),
)
@example(['<a href="\x08">'], 0)  # a link to the page itself, unclosed around the menu (CI9)
def test_a_select_menu_adds_its_options_and_changes_no_other_links_context(
    parts: list[str], at: int
):
    menu = SELECT_MENU[SELECT_MENU.index("<form>") : SELECT_MENU.index("</form>") + 7]
    page = "".join(parts[:at]) + menu + "".join(parts[at:])
    with_menu, without_menu = links(page), links(_menu_as_text(page))
    # the page's own links to those URLs (``<a href="">``: the page itself, its English option)
    own = {c.anchor for c in without_menu if c.url in _MENU_URLS}
    assert {c.anchor for c in with_menu if c.url in _MENU_URLS} - own <= {
        "English",
        "Français",
        "日本語",
        "Deutsch",
    }  # or none: an unclosed <script> before the menu swallows it
    assert [c for c in with_menu if c.url not in _MENU_URLS] == [
        c for c in without_menu if c.url not in _MENU_URLS
    ]


def test_the_plain_join_shortcut_answers_as_urljoin_does():
    """``absolute_url`` skips urljoin for plain absolute URLs and paths from the root: on random
    hrefs built of the characters that make urljoin change a URL, the answers are the same."""
    import random
    from urllib.parse import urljoin

    from bilingual_spider.links.contexts import _NO_HOST, _plain_join

    bases = ["http://a.com/b/c.html", "https://A.Com:8080/x/", "http://u@h.org", "HTTP://h.org/a"]
    parts = ["http://", "https://", "HTTP://", "/", "//", "a", ".", "..", "?", ";", "#", "[",
             "]", "\\", "x.html", "%20", " ", "é", ":", "@", "~"]  # fmt: skip
    rng = random.Random(3)
    shortcuts = 0
    for _ in range(20_000):
        href = "".join(rng.choice(parts) for _ in range(rng.randint(1, 6))).strip()
        if not href or href[0] == "#" or _NO_HOST.match(href):
            continue  # absolute_url returns None before joining
        for base in bases:
            joined = _plain_join(base, href)
            if joined is not None:
                shortcuts += 1
                assert joined == urljoin(base, href).split("#", 1)[0], (base, href)
    assert shortcuts > 2_000


def test_an_anchors_lang_is_its_labels_language_a_components_is_its_pages():
    """``<a lang="ty">Reo Tahiti</a>``: the label is Tahitian, so is the page it offers; a design
    system's ``<gcds-header lang="fr" lang-href>`` on a page without ``<html lang>`` says the
    page's own language (the toggle leads to the other: the published sites' toggles)."""
    html = """<body><gcds-header lang="fr" lang-href="/en/a.html"></gcds-header>
      <a href="/ty/a.html" lang="ty">Reo Tahiti</a>
      <a href="/fr/b.html" lang="fr">Suite</a></body>"""
    got = {link.url.rsplit("/", 2)[1]: link.lang for link in links(html)}
    assert got == {"en": "", "ty": "ty", "fr": "fr"}
    in_french = links(f'<html lang="fr-CA">{html}</html>')
    assert {link.url.rsplit("/", 2)[1]: link.lang for link in in_french}["fr"] == ""
