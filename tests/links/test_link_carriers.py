"""Links wherever HTML carries them (issue 37): custom elements of a web-component design system,
``data-href``/``data-url``, click handlers, ``<meta refresh>``; each read like an ``<a>``.

The element names are invented (``acme-*``, ``zz-*``), as a design system names its own."""

from __future__ import annotations

from lxml import etree

from bilingual_spider.links.contexts import LinkContext, element_urls, extract_link_contexts
from bilingual_spider.links.features import link_tokens
from bilingual_spider.patterns.alternates import SWITCHER, Alternate, page_alternates

PAGE = "https://docs.acme.example/en/components/button/"


def links(html: str) -> list[LinkContext]:
    return extract_link_contexts(html, PAGE)


def page(nav: str, body: str) -> str:
    return (
        f"<html lang='en'><body><header>{nav}</header>"
        f"<main><p>Buttons start an action. {body} shows every variant.</p></main></body></html>"
    )


def test_custom_elements_with_href_are_links_read_exactly_as_anchors_are():
    components = page(
        "<acme-nav-link href='/en/components/'>Components</acme-nav-link>"
        "<acme-nav-link href='/fr/composants/bouton/'>Français</acme-nav-link>",
        "The <zz-link href='../link/' title='Link page'>link component</zz-link>",
    )
    anchors = page(
        "<a href='/en/components/'>Components</a><a href='/fr/composants/bouton/'>Français</a>",
        "The <a href='../link/' title='Link page'>link component</a>",
    )
    found = links(components)
    assert [c.url for c in found] == [
        "https://docs.acme.example/en/components/",
        "https://docs.acme.example/fr/composants/bouton/",
        "https://docs.acme.example/en/components/link/",
    ]
    assert found == links(anchors)  # same anchor, around, block, title: the same features
    assert [link_tokens(c) for c in found] == [link_tokens(c) for c in links(anchors)]
    assert page_alternates(found) == (
        Alternate("https://docs.acme.example/fr/composants/bouton/", "fr", SWITCHER),
    )


def test_a_page_without_any_a_element_still_has_its_links():
    html = (
        "<html lang='en'><body><acme-header lang-href='/fr/' skip-to-href='#main'>"
        "<acme-search action='/en/search/'></acme-search></acme-header>"
        "<acme-button href='/en/start/' text='Get started'></acme-button>"
        "<acme-card card-title='Forms' href='/en/forms/'><p>How to build forms</p></acme-card>"
        "</body></html>"
    )
    found = {c.url: c for c in links(html)}
    assert set(found) == {
        "https://docs.acme.example/fr/",
        "https://docs.acme.example/en/start/",
        "https://docs.acme.example/en/forms/",
    }
    assert found["https://docs.acme.example/en/start/"].anchor == "Get started"  # its label
    assert found["https://docs.acme.example/en/forms/"].anchor == "How to build forms"


def test_a_secondary_href_attribute_takes_no_anchor_from_the_elements_content():
    (toggle,) = links(
        "<acme-header lang-href='/fr/accueil/'><nav>Home Docs Contact</nav></acme-header>"
    )
    assert toggle.url == "https://docs.acme.example/fr/accueil/"
    assert toggle.anchor == ""  # the header's text is not the toggle's
    (labelled,) = links("<acme-header lang-href='/fr/' label='Français'>Home</acme-header>")
    assert labelled.anchor == "Français"
    assert page_alternates([labelled]) == (
        Alternate("https://docs.acme.example/fr/", "fr", SWITCHER),
    )


def test_hreflang_on_a_custom_element_is_read():
    (link,) = links("<acme-lang-toggle href='/fr/' hreflang='fr-CA'></acme-lang-toggle>")
    assert link.hreflang == "fr"
    assert page_alternates([link])[0].via == "hreflang"


def test_data_href_data_url_and_click_handlers_that_navigate():
    html = (
        "<table><tr data-href='/en/tables/'><td>Tables</td></tr></table>"
        "<div class='card' data-url='https://other.example/fr/'>Partenaire</div>"
        "<button onclick=\"location.href='/de/'\">Deutsch</button>"
        "<span onclick='window.location = \"/es/\"'>Español</span>"
        "<li onclick=\"document.location.assign('/it/')\">Italiano</li>"
        "<p onclick=\"window.open('/ja/', '_self')\">日本語</p>"
        "<button onclick='toggleMenu(); return false'>Menu</button>"
    )
    assert [(c.url, c.anchor) for c in links(html)] == [
        ("https://docs.acme.example/en/tables/", "Tables"),
        ("https://other.example/fr/", "Partenaire"),
        ("https://docs.acme.example/de/", "Deutsch"),
        ("https://docs.acme.example/es/", "Español"),
        ("https://docs.acme.example/it/", "Italiano"),
        ("https://docs.acme.example/ja/", "日本語"),
    ]


def test_a_refresh_in_the_page_is_a_link_without_text():
    html = (
        "<html><head><meta http-equiv='Refresh' content='0; URL=/en/home/'>"
        "<meta name='description' content='url=/nope/'></head><body><p>Moved.</p></body></html>"
    )
    (link,) = links(html)
    assert link.url == "https://docs.acme.example/en/home/"
    assert (link.anchor, link.around, link.block_text) == ("", "", "")


def test_hrefs_that_are_no_page_links_are_not_read():
    html = (
        "<html><head><base href='https://docs.acme.example/en/'>"
        "<link rel='stylesheet' href='/css/site.css'><link rel='icon' href='/favicon.ico'>"
        "</head><body><svg><use href='/icons.svg#home'></use></svg>"
        "<a name='top'>Top</a><zz-link href='#main'>Skip</zz-link>"
        "<zz-link data-href='javascript:void(0)'>Nothing</zz-link>"
        "<img src='/logo.png' data-url='/logo-large.png'></body></html>"
    )
    assert links(html) == []


def test_one_element_gives_each_url_it_names_once():
    element_html = (
        "<div><acme-link href='/fr/' data-href='/fr/' lang-href='/de/'>x</acme-link></div>"
    )
    found = links(element_html)
    assert [(c.url, c.anchor) for c in found] == [
        ("https://docs.acme.example/fr/", "x"),
        ("https://docs.acme.example/de/", ""),
    ]
    element = etree.fromstring("<p data-url='/a/' onclick=\"location.href='/b/'\">t</p>")
    assert element_urls(element, PAGE) == [
        ("https://docs.acme.example/a/", True),
        ("https://docs.acme.example/b/", True),
    ]


def test_an_anchor_keeps_its_context_when_it_also_names_a_component_label():
    """``text``/``label`` stand in only where the element's text gives no anchor."""
    (link,) = links("<p>See <a href='/fr/' label='French'>Français</a> here</p>")
    plain = links("<p>See <a href='/fr/'>Français</a> here</p>")[0]
    assert link == plain
