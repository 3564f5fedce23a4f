import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.links.script_links import (
    EMPTY_MENU,
    NO_LINKS,
    REASONS,
    SCRIPT_SWITCHER,
    render_reason,
)


def page(body: str, head: str = "") -> str:
    return f'<!DOCTYPE html><html lang="en"><head>{head}</head><body>{body}</body></html>'


STATIC_SWITCHER = '<a href="/about.html">About</a><a href="/fr/">Français</a>'
A = '<a href="/a.html">A</a>'
EXTERNAL = '<script src="/s.js"></script>'


@pytest.mark.parametrize(
    "html, reason",
    [
        # a single-page application's shell: scripts, no link at all
        (page('<div id="app"></div>', '<script src="/app.js"></script>'), NO_LINKS),
        (page('<div id="root"></div><script type="module">import "/m.js"</script>'), NO_LINKS),
        # only a link to the page itself (an in-page fragment) is no link
        (page('<a href="#top">Top</a><script>start()</script>'), NO_LINKS),
        # links, and a switcher written by document.write / innerHTML
        (
            page(
                '<a href="/about.html">About</a>'
                "<script>document.write('<a href=\"/fr/p.html\">Français</a>')</script>"
            ),
            SCRIPT_SWITCHER,
        ),
        (
            page(
                '<a href="/about.html">About</a><div id="s"></div><script>'
                'var names = {en: "English", de: "Deutsch"};'
                'document.getElementById("s").innerHTML = build(names);</script>'
            ),
            SCRIPT_SWITCHER,
        ),
        (
            page(
                '<a href="/a.html">A</a><script>var a = document.createElement("link");'
                'a.setAttribute("hreflang", lang);</script>'
            ),
            SCRIPT_SWITCHER,
        ),
        # a language menu left empty for an external script to fill
        (page(A + '<select id="pick"></select>' + EXTERNAL), EMPTY_MENU),
        (page(A + '<ul class="lang-menu"></ul>' + EXTERNAL), EMPTY_MENU),
    ],
)
def test_pages_whose_links_are_built_by_scripts_need_a_browser(html, reason):
    assert render_reason(html) == reason
    assert render_reason(html.encode()) == reason


@pytest.mark.parametrize(
    "html",
    [
        page(""),  # no script, no link: nothing a browser would add
        page('<div id="app"></div><script type="application/ld+json">{"a": 1}</script>'),
        page('<a href="/a.html">A</a><script>window.dataLayer = [];</script>'),
        # a static switcher: scripts that write HTML change nothing
        page(STATIC_SWITCHER + "<script>document.write('<b>English</b>')</script>"),
        page(STATIC_SWITCHER + '<select id="pick"></select><script src="/s.js"></script>'),
        page('<a href="/de/" hreflang="de">DE</a><nav id="lang"></nav>' + EXTERNAL),
        page('<a href="/fr/"><img alt="Français"></a><script>x.innerHTML="English"</script>'),
        page('<a href="/a.html">A</a><script>el.innerHTML = "<b>" + count + "</b>";</script>'),
        # an empty menu that is no language menu
        page('<a href="/a.html">A</a><ul class="related"></ul><script src="/s.js"></script>'),
        "",
        "\x00\x00",
    ],
)
def test_pages_that_show_their_links_or_run_no_script_need_none(html):
    assert render_reason(html) is None


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_reason_or_none(text):
    assert render_reason(text) in (*REASONS, None)
    assert render_reason("<script>" + text) in (*REASONS, None)
