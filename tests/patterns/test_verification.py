"""Content verification of a pair: STRAND's alignment, length ratio, shared tokens, the model."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lxml import etree

from bilingual_spider.patterns.verification import (
    NO_SPREAD,
    PageContent,
    PairVerifier,
    align_shapes,
    content_signals,
    element_references,
    number_value,
    page_content,
    page_shape,
    pair_signals,
    script_class,
    untranslatable_tokens,
)


def page(title: str, paragraphs: list[str]) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        "<html><head><title>t</title><script>var x = 1;</script></head><body>"
        f'<div class="nav"><a href="/">Home</a></div><h1>{title}</h1>{body}</body></html>'
    )


ENGLISH = page(
    "Installing the package",
    [
        "Run apt-get install foo-1.2 to install the package on a Debian system.",
        "The configuration lives in /etc/foo/foo.conf and is read at start-up.",
        "See RFC 2616 and https://example.org/doc for the details of the protocol.",
        "A short one.",
    ],
)
FRENCH = page(
    "Installer le paquet",
    [
        "Lancez apt-get install foo-1.2 pour installer le paquet sur un système Debian.",
        "La configuration se trouve dans /etc/foo/foo.conf et est lue au démarrage.",
        "Voir la RFC 2616 et https://example.org/doc pour les détails du protocole.",
        "Une courte.",
    ],
)
OTHER_CHAPTER = page(
    "Chapitre suivant",
    [
        "Ce chapitre décrit tout autre chose, sans aucun rapport avec le précédent, et il est "
        "bien plus long que le paragraphe correspondant de la page anglaise ne l'était.",
        "Court.",
    ],
)


def test_a_page_shape_is_its_tags_and_chunk_lengths_without_scripts() -> None:
    shape = page_shape("<html><body><h1>Hi  there</h1><script>x()</script><p>ab</p></body></html>")
    assert shape == ("<html", "<body", "<h1", 8, "</h1", "<p", 2, "</p", "</body", "</html")
    assert page_shape(b"") == ()
    content = page_content(
        '<body><div id="tocframe"><ul class="toc"><li>One</li></ul></div><nav>Two</nav>'
        '<div class="main-menu">Three</div><div class="navigator-free">Text</div></body>'
    )
    assert content.text == "Text"  # tables of contents, menus and navigation are template
    assert content.shape == ("<html", "<body", "<div", 4, "</div", "</body", "</html")


def test_a_translation_aligns_and_another_chapter_does_not() -> None:
    same = align_shapes(page_shape(ENGLISH), page_shape(FRENCH))
    assert same.difference == 0.0 and same.aligned_chunks == 5  # the menu is template
    assert same.length_correlation > 0.9 and same.chunk_ratio_spread < 0.2
    other = align_shapes(page_shape(ENGLISH), page_shape(OTHER_CHAPTER))
    assert other.difference > 0.1 and other.aligned_chunks < same.aligned_chunks
    assert other.length_correlation < 0.9 and other.chunk_ratio_spread > 0.2
    assert align_shapes((), ()).chunk_ratio_spread == NO_SPREAD


def test_untranslatable_tokens_are_numbers_urls_paths_and_identifiers() -> None:
    tokens = untranslatable_tokens(
        "Use --verbose with foo_bar or getValue, see https://x.org/a, /etc/foo.conf, RFC 2616, "
        "on 2024-01-31."
    )
    assert {"--verbose", "foo_bar", "getValue", "https://x.org/a,", "RFC", "2616"} <= tokens
    assert "2024-01-31" in tokens and "etc/foo.conf" in tokens
    assert untranslatable_tokens("Nothing to keep here.") == frozenset()


def test_numbers_are_shared_however_a_page_writes_them() -> None:
    english = untranslatable_tokens("Article 7. Article 19. Article 44, see 1994.")
    brazilian = untranslatable_tokens("Artigo VII. Artigo XIX. Artigo XLIV, ver MCMXCIV.")
    arabic = untranslatable_tokens("المادة ٧ المادة ١٩ المادة ٤٤ ١٩٩٤")
    assert english == brazilian == arabic == {"7", "19", "44", "1994"}
    assert number_value("３.５") == "3.5" and number_value("３.５") == number_value("3.5")
    # an acronym that spells a numeral reads the same on both pages; others stay words
    assert number_value("CD") == "400" and number_value("ABC") == "ABC"
    assert number_value("I") == "I"


def test_script_class() -> None:
    assert script_class("这是一个中文句子，说的是别的事情。") == "cjk"
    assert script_class("Ceci est une phrase.") == "alphabetic"


def test_signals_of_a_pair() -> None:
    text_en = "Run foo-1.2 on Debian. RFC 2616 and https://example.org/doc say more."
    text_fr = "Lancez foo-1.2 sur Debian. La RFC 2616 et https://example.org/doc en disent plus."
    signals = pair_signals(page_shape(ENGLISH), page_shape(FRENCH), text_en, text_fr)
    assert signals.shared_tokens == 1.0
    assert signals.length_ratio == pytest.approx(len(text_fr) / len(text_en))
    assert signals.length_deviation == pytest.approx(abs(math.log(signals.length_ratio)))
    copy = pair_signals(page_shape(ENGLISH), page_shape(ENGLISH), text_en, text_en)
    assert copy.copied_share == 1.0 and copy.difference == 0.0
    assert set(signals.as_dict()) >= {"difference", "length_correlation", "shared_tokens"}


def _examples() -> tuple[list, list[int]]:
    good = pair_signals(page_shape(ENGLISH), page_shape(FRENCH), "a 1 2 3", "b 1 2 3")
    bad = pair_signals(page_shape(ENGLISH), page_shape(OTHER_CHAPTER), "a 1 2 3", "b 7 8 " * 9)
    return [good] * 30 + [bad] * 30, [1] * 30 + [0] * 30


def test_the_verifier_learns_translations_and_round_trips(tmp_path: Path) -> None:
    signals, labels = _examples()
    model = PairVerifier().fit(signals, labels)
    assert model.predict([signals[0], signals[-1]]).tolist() == [1, 0]
    path = tmp_path / "verifier.json"
    model.save(path, {"trained_on": ["x"]})
    loaded = PairVerifier.load(path)
    assert loaded.meta_ == {"trained_on": ["x"]}
    assert loaded.probability(signals[0]) == pytest.approx(model.probability(signals[0]), 1e-4)
    assert loaded.predict_proba([]).shape == (0, 2)


def test_a_body_whose_class_names_a_sidebar_is_still_the_page_content():
    # the Apache manual's glossary and program index: <body class="no-sidebar">; taken for the
    # template, the page had no content and every pair of it was "not_translation"
    html = (
        '<html><body id="manual-page" class="no-sidebar"><div id="page-header">Apache</div>'
        "<h1>Glossary</h1><p>A directive is a configuration command.</p></body></html>"
    )
    content = page_content(html)
    assert content.text == "Glossary A directive is a configuration command."
    assert "<body" in content.shape and "<h1" in content.shape
    assert "Apache" not in content.text  # the page header is still the template


def test_references_are_the_contents_anchors_and_targets_without_language_codes():
    html = (
        '<html><head><link rel="stylesheet" href="/style.css"></head><body>'
        '<div class="navigation"><a href="/fr/index.fr.html" id="menu-home">Accueil</a></div>'
        '<h2 id="s-install"><a name="install"></a>Installer</h2>'
        '<p>Voir <a href="ch02.fr.html#s-options">les options</a> et '
        '<a href="../pt-br/dpkg.html?x=1">dpkg</a>, <a href="mailto:x@y.org">nous</a>.</p>'
        '<img src="images/flag-de.png"><a href="/doc/">docs</a></body></html>'
    )
    assert page_content(html).references == {
        "id:s-install", "id:install", "href:ch02.html", "#s-options", "href:dpkg.html",
        "src:flag-de.png", "href:doc",
    }  # fmt: skip
    assert element_references(etree.fromstring('<a href="index.zh-cn.html"/>')) == [
        "href:index.html"
    ]


def test_shared_references_tell_a_translation_from_another_chapter_of_its_manual():
    def chapter(anchors: list[str], words: str) -> PageContent:
        body = "".join(f'<h2 id="{a}">{words} {a}</h2><p>{words}</p>' for a in anchors)
        return page_content(f"<html><body>{body}<a href='next.html'>&gt;</a></body></html>")

    english = chapter(["intro", "install", "configure", "remove"], "Installing the package")
    french = chapter(["intro", "install", "configure", "remove"], "Installer le paquet")
    next_chapter = chapter(["networks", "routes", "firewall", "vpn"], "Les réseaux du système")
    assert content_signals(english, french).shared_references == 1.0
    assert content_signals(english, next_chapter).shared_references == pytest.approx(2 / 10)
    bare = page_content("<p>Hello</p>")  # fewer than three references: no evidence
    assert content_signals(english, bare).shared_references == 0.5
