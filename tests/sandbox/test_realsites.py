"""The real sites of the sandbox web: site list, fetching, language indexes and gold pairs.

Unit tests build tiny trees in tmp_path and never need apt; the tests marked by the ``real``
fixture run over the fetched Debian packages (``prepare()`` into the default cache).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
import stat
import textwrap
import tomllib
from pathlib import Path
from urllib.parse import urljoin

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.patterns.copied_prose import SourceProse, copied_prose_share, letters
from bilingual_spider.sandbox import entry_pages, real_site, real_site_gold, realsites
from bilingual_spider.sandbox.config import SandboxConfig
from bilingual_spider.sandbox.debian_packages import AptUnavailable, FetchError, fetch
from bilingual_spider.sandbox.entry_pages import LanguageStart, render_entry_page, start_pages
from bilingual_spider.sandbox.page_text import prose_segments, text_segments
from bilingual_spider.sandbox.real_site import ENTRY_STYLES, PageFile, RealSite, load_sites
from bilingual_spider.sandbox.real_site_gold import judge_translation, same_language
from bilingual_spider.sandbox.realsites import build, entry_style_urls
from bilingual_spider.sandbox.server import Sandbox
from tests.conftest import missing

ENGLISH = [
    "The server listens on every address of the machine by default.",
    "You can restrict it to some addresses and ports with the Listen directive.",
    "Several Listen directives may be given; the server then accepts requests on all of them.",
]
FRENCH = [
    "Par défaut, le serveur écoute sur toutes les adresses de la machine.",
    "Vous pouvez le restreindre à certaines adresses et à certains ports avec la directive Listen.",
    "Plusieurs directives Listen peuvent être données ; le serveur accepte alors les requêtes "
    "sur chacune d'entre elles.",
]
GERMAN = [
    "Standardmäßig lauscht der Server auf allen Adressen der Maschine.",
    "Mit der Listen-Direktive können Sie ihn auf einige Adressen und Ports beschränken.",
]
JAPANESE = [
    "サーバはデフォルトでマシンのすべてのアドレスで待ち受けます。",
    "Listen ディレクティブでアドレスとポートを制限できます。",
]


def page(lang: str, paragraphs: list[str], encoding: str = "utf-8") -> bytes:
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    return (
        f'<html lang="{lang}"><head><meta http-equiv="Content-Type" '
        f'content="text/html; charset={encoding}"><title>Listen</title>'
        f"<script>var english = 'some script text that is not prose';</script>"
        f"<style>p {{ color: black; }}</style></head><body>\n{body}"
        f"<pre>Listen 192.0.2.1:80\nListen [2001:db8::a00:20ff:fea7:ccea]:80</pre></body></html>"
    ).encode(encoding)


def tiny_site(root: Path) -> RealSite:
    """An Apache-like tree: en/ originals; fr/ translated; de/ a symlink to the English file;
    es/ labelled Spanish but German; ja/ a "translation" that is mostly English; it/ a page with
    no English original."""
    manual = root / "usr/share/doc/tiny/manual"
    for lang in ("en", "fr", "de", "es", "ja", "it"):
        (manual / lang).mkdir(parents=True)
    (manual / "en/listen.html").write_bytes(page("en", ENGLISH))
    (manual / "en/index.html").write_bytes(page("en", ENGLISH[:2]))
    (manual / "fr/listen.html").write_bytes(page("fr", FRENCH))
    (manual / "fr/index.html").write_bytes(page("fr", FRENCH[:2]))
    (manual / "de/listen.html").symlink_to("../en/listen.html")
    (manual / "es/listen.html").write_bytes(page("es", GERMAN))
    (manual / "ja/listen.html").write_bytes(page("ja", JAPANESE + ENGLISH))
    (manual / "it/only-italian.html").write_bytes(
        page("it", ["Questa pagina esiste soltanto in italiano e non ha un originale inglese."])
    )
    (manual / "index.html").write_text("<html><body>an index that the overlay replaces</body>")
    (manual / "style.css").write_text("p { color: black }")
    return RealSite(
        name="tiny-manual",
        kind="multilingual",
        host="tiny.example",
        prefix="/docs/",
        packages=("tiny-doc",),
        dirs=("usr/share/doc/tiny/manual",),
        page_pattern=r"^(?P<lang>[a-z]{2})/(?P<page>.+\.html)$",
        source_lang="en",
        entry_style="native_list",
    )


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path, list[dict]]:
    root, cache = tmp_path / "root", tmp_path / "cache"
    summaries = build(cache, root, [tiny_site(root)])
    return root, cache, summaries


def gold_lines(cache: Path) -> list[list[str]]:
    lines = (cache / "gold_pairs.tsv").read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines]


# --- the site list ------------------------------------------------------------------------------


def test_shipped_site_list_loads() -> None:
    sites = {site.name: site for site in load_sites()}
    assert {s.kind for s in sites.values()} == {"multilingual", "monolingual"}
    assert sites["apache-httpd-manual"].host == "httpd.apache.org"
    assert sites["apache-httpd-manual"].prefix == "/docs/2.4/"
    assert sites["apache-httpd-manual"].entry_style == "none"
    assert sites["debian-reference"].entry_style == "native_list"
    assert sites["lilypond-docs"].home_url.endswith("/Documentation/web/index.html")
    assert {s.set for s in sites.values()} == {"original", "new", "deep"}
    assert sum(s.set == "original" for s in sites.values()) == 7
    held_out = {s.kind for s in sites.values() if s.holdout}
    assert held_out == {"multilingual", "monolingual"}  # one of each is never trained on
    assert len(sites["debian-maint-guide"].dirs) == 6
    assert {sites["python-docs"].kind, sites["git-docs"].kind} == {"monolingual"}
    for site in sites.values():
        assert site.seed_url == f"http://{site.host}{site.prefix}"


@pytest.mark.parametrize(
    ("site", "relative", "expected"),
    [
        ("apache-httpd-manual", "fr/platform/ebcdic.html", ("fr", "platform/ebcdic.html")),
        ("apache-httpd-manual", "pt-br/bind.html", ("pt-BR", "bind.html")),
        ("apache-httpd-manual", "zh-cn/mod/core.html", ("zh-Hans", "mod/core.html")),
        ("apache-httpd-manual", "index.html", None),
        ("debian-reference", "ch01.zh-tw.html", ("zh-Hant", "ch01")),
        ("debian-reference", "index.en.html", ("en", "index")),
        ("debian-installation-guide", "zh_CN/ch01s02.html", ("zh-Hans", "ch01s02.html")),
        ("debian-installation-guide", "en/index.html", ("en", "index.html")),
        ("debian-faq", "basic-defs.en.html", ("en", "basic-defs")),
        ("debian-faq", "fr/basic-defs.fr.html", ("fr", "basic-defs")),
        ("debian-faq", "basic-defs.html", None),  # a symlink to basic-defs.en.html
        ("debian-maint-guide", "start.zh-tw.html", ("zh-Hant", "start")),
        ("python-docs", "library/os.html", ("en", "library/os.html")),
    ],
)
def test_page_patterns_identify_language_and_page(
    site: str, relative: str, expected: tuple[str, str] | None
) -> None:
    sites = {s.name: s for s in load_sites()}
    assert sites[site].match(relative) == expected


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"prefix": "/docs"}, "prefix"),
        ({"kind": "bilingual"}, "kind"),
        ({"page_pattern": r"(?P<lang>\w+)/.*"}, "page"),
        ({"page_pattern": "(unclosed"}, "page_pattern"),
        ({"dirs": ["/usr/share/doc"]}, "relative"),
        ({"colour": "red"}, "unknown"),
    ],
)
def test_bad_site_entries_are_refused(tmp_path: Path, change: dict, message: str) -> None:
    entry = {
        "name": "x",
        "kind": "multilingual",
        "host": "x.example",
        "prefix": "/docs/",
        "packages": ["x-doc"],
        "dirs": ["usr/share/doc/x"],
        "page_pattern": r"^(?P<lang>[a-z]{2})/(?P<page>.+)$",
    } | change
    with pytest.raises(ValueError, match=message):
        RealSite.from_dict(entry)


# --- text, language and the English share -------------------------------------------------------


def test_text_segments_drop_scripts_styles_and_code_and_keep_blocks() -> None:
    segments = text_segments(page("en", ENGLISH))
    assert segments == ["Listen", *ENGLISH]


def test_text_segments_decode_the_declared_charset() -> None:
    korean = "주소와 포트 지정: 아파치 웹서버는 여러 주소에서 요청을 기다립니다."
    assert text_segments(page("ko", [korean], encoding="euc-kr"))[1] == korean
    xml = '<?xml version="1.0" encoding="ISO-8859-1"?>\n<html><body><p>Déjà vu</p></body></html>'
    assert text_segments(xml.encode("latin-1")) == ["Déjà vu"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=400).map(lambda t: t.encode("utf-8")))
def test_text_segments_never_fail_and_are_normalised(data: bytes) -> None:
    for segment in text_segments(data):
        assert segment and segment == " ".join(segment.split())


@pytest.mark.parametrize(
    ("found", "expected", "same"),
    [
        ("pt", "pt-BR", True),  # lid.176 has no Brazilian Portuguese
        ("en", "en-GB", True),
        ("zh-Hans", "zh-Hant", False),  # the script heuristic tells these apart
        ("zh-Hant", "zh", True),
        ("fr", "fr", True),
        ("de", "fr", False),
        (None, "fr", False),
    ],
)
def test_same_language(found: str | None, expected: str, same: bool) -> None:
    assert same_language(found, expected) is same


def test_copied_prose_share_counts_blocks_of_the_source_page_by_letters() -> None:
    copied, translated, short = "a" * 30, "c" * 70, "too short"
    assert copied_prose_share([copied, translated, short], {copied, short}) == 30 / 100
    assert copied_prose_share([short], {short}) == 0.0


# A DocBook page of the installation guide (cs/apas02.html, shortened): its navigation is
# translated, its body left mostly in English with the cross-references translated.
DOCBOOK_NAVIGATION = """<html><head><title>A.2. Zavedení instalačního programu</title></head>
<body><div class="navheader"><table><tr><th>A.2. Zavedení instalačního programu</th></tr>
<tr><th>Příloha A. Jak na instalaci (navigace)</th></tr></table></div>
<div class="sect1"><h2>A.2. Zavedení instalačního programu</h2>{body}</div>
<div class="legalnotice"><p>Tento dokument je šířen pod licencí GNU GPL verze 2.</p></div>
<div class="navfooter"><table><tr><td>A.1. Příprava instalačních médií</td>
<td>A.3. Instalace pomocí programu</td></tr></table></div></body></html>"""
UNTRANSLATED = (
    "The debian-cd team provides builds of installation images using debian-installer on the "
    "Debian CD/DVD page. For more information on where to get installation images, see {xref}."
)


def test_prose_segments_leave_out_navigation_and_legal_notices() -> None:
    body = "<p>Následující podkapitoly osvětlují, které obrazy byste měli použít.</p>"
    data = DOCBOOK_NAVIGATION.format(body=body).encode("utf-8")
    assert prose_segments(data) == [
        "A.2. Zavedení instalačního programu",
        "Následující podkapitoly osvětlují, které obrazy byste měli použít.",
    ]
    assert "A.1. Příprava instalačních médií" in text_segments(data)  # the whole page's text
    html5 = b"<html><body><nav><p>Home of the manual and its index</p></nav><main><p>Body text."
    html5 += b"</p></main><div role='navigation'>Previous chapter of it</div><footer>f</footer>"
    assert prose_segments(html5 + b"</body></html>") == ["Body text."]
    apache = b"<html><body class='no-sidebar'><div id='page-header'>Apache HTTP Server</div>"
    apache += b"<div id='page-content'><p>Frequently Asked Questions</p></div></body></html>"
    assert prose_segments(apache) == ["Frequently Asked Questions"]


def test_an_untranslated_block_with_translated_cross_references_is_copied() -> None:
    english = UNTRANSLATED.format(
        xref="4.1 \u201cOfficial Debian GNU/Linux Installation Images\u201d"
    )
    czech_kept = UNTRANSLATED.format(xref="4.1 „Oficiální Debian GNU/Linux instalační obrazy“")
    czech_own = "Následující podkapitoly osvětlují, které obrazy byste měli použít pro instalaci."
    source = SourceProse([english, "The following sections tell which images to use."])
    assert source.copies(english) and source.copies(czech_kept)
    assert not source.copies(czech_own)
    share = copied_prose_share([czech_kept, czech_own], source)
    assert share == letters(czech_kept) / (letters(czech_kept) + letters(czech_own))
    assert judge_translation("cs", [czech_kept, czech_own], source, _identify) == "copied"


def test_a_japanese_translation_of_numbered_headings_is_no_copy() -> None:
    # the installation guide's ja/ch08.html: a table of contents whose headings keep their
    # numbers and product names; with runs of letters as words, "8.2.1. Debian
    # パッケージングシステム" shared two of its three 3-grams with the English heading
    english = ["8.2.1. Debian Packaging System, and how to use it"]
    japanese = ["8.2.1. Debian パッケージングシステムとその使い方の説明"]
    assert copied_prose_share(japanese, english) == 0.0
    assert judge_translation("ja", japanese, english, _identify_japanese) is None


def _identify_japanese(texts: list[str]) -> list[str | None]:
    return ["ja" for _ in texts]


def _identify(texts: list[str]) -> list[str | None]:
    """Language ID of the test's paragraphs (which list each sentence comes from)."""
    found = []
    for text in texts:
        votes = {lang: sum(s in text for s in sentences) for lang, sentences in PROSE.items()}
        found.append(max(votes, key=lambda lang: votes[lang]) if any(votes.values()) else None)
    return found


APPENDIX = [
    "Appendix: the configuration file lists every directive the server understands.",
    "Each directive takes one value; unknown directives stop the server at start-up.",
]
FRENCH_BODY = FRENCH + [
    "Une directive Listen sans adresse fait écouter le serveur sur toutes les interfaces.",
    "Redémarrez le serveur après avoir modifié le fichier pour que les valeurs changent.",
]
PROSE = {"en": ENGLISH + APPENDIX, "fr": FRENCH_BODY, "de": GERMAN, "ja": JAPANESE}


@pytest.mark.parametrize(
    ("lang", "segments", "reason"),
    [
        ("fr", FRENCH_BODY + APPENDIX, None),  # ~70 % translated, the appendix kept in English
        ("fr", FRENCH_BODY[:1] + APPENDIX, "copied"),  # 70 % is the English page's
        ("ja", JAPANESE + ENGLISH, "copied"),
        ("fr", GERMAN + APPENDIX[:1], "wrong_language"),  # its own prose is German
        ("fr", FRENCH, None),
    ],
)
def test_judge_translation_by_its_own_prose_and_the_copied_share(
    lang: str, segments: list[str], reason: str | None
) -> None:
    source = set(ENGLISH + APPENDIX)
    if reason is None and APPENDIX[0] in segments:
        assert 0.25 < copied_prose_share(segments, source) < 0.35
    assert judge_translation(lang, segments, source, _identify) == reason


# --- gold pairs over a tiny tree -----------------------------------------------------------------


def test_tiny_site_gold_pairs_and_drops(tiny: tuple[Path, Path, list[dict]]) -> None:
    _, cache, (summary,) = tiny
    assert gold_lines(cache) == [
        [
            "http://tiny.example/docs/en/index.html",
            "http://tiny.example/docs/fr/index.html",
            "en",
            "fr",
            "tiny-manual",
        ],
        [
            "http://tiny.example/docs/en/listen.html",
            "http://tiny.example/docs/fr/listen.html",
            "en",
            "fr",
            "tiny-manual",
        ],
    ]
    assert summary["dropped"] == {
        "untranslated_symlink": 1,  # de/listen.html -> ../en/listen.html
        "copied": 1,  # ja/listen.html: Japanese, but most of its text is the English page's
        "wrong_language": 1,  # es/listen.html is German
        "source_not_english": 0,
        "source_not_served": 0,
        "no_source_page": 1,  # it/only-italian.html
        "other_section": 0,
    }
    assert summary["languages"] == ["en", "fr"]
    # 8 .html files of the tree + the root index.html, replaced by the language index
    assert summary["pages"] == 9
    assert summary["gold_pairs"] == 2
    assert summary["seed_url"] == "http://tiny.example/docs/"
    assert json.loads((cache / "sites.json").read_text()) == tiny[2]


def test_untranslated_file_that_is_the_english_file_is_no_pair(tmp_path: Path) -> None:
    """A hard link (or a bind mount) is no symlink, but it is the very English file."""
    root = tmp_path / "root"
    site = tiny_site(root)
    manual = root / site.dirs[0]
    os.link(manual / "en/listen.html", manual / "it/listen.html")
    (summary,) = build(tmp_path / "cache", root, [site])
    assert summary["dropped"]["untranslated_symlink"] == 2  # de/ (symlink) and it/ (hard link)
    assert summary["dropped"]["wrong_language"] == 1  # es/ only
    assert summary["gold_pairs"] == 2


def test_translations_of_a_source_page_in_another_language_are_unjudged(tmp_path: Path) -> None:
    """Debian's Apache manual has ``en/`` pages in Portuguese: the gold drops their pairs, and
    lists the translations as pages it cannot judge, for the benchmarks to leave out."""
    root = tmp_path / "root"
    site = tiny_site(root)
    manual = root / site.dirs[0]
    (manual / "en/bind.html").write_bytes(page("en", FRENCH))  # "English", but French
    (manual / "fr/bind.html").write_bytes(page("fr", FRENCH))
    (manual / "es/bind.html").write_bytes(page("es", GERMAN))
    cache = tmp_path / "cache"
    (summary,) = build(cache, root, [site])
    assert summary["dropped"]["source_not_english"] == 2
    assert summary["gold_pairs"] == 2  # index.html and listen.html, as without bind.html
    unjudged = (cache / "gold_unjudged.tsv").read_text(encoding="utf-8").splitlines()
    assert unjudged == [
        "http://tiny.example/docs/es/bind.html\thttp://tiny.example/docs/fr/bind.html"
    ]
    assert realsites.gold_unjudged_path(cache) == cache / "gold_unjudged.tsv"


def test_page_pattern_groups_files_of_one_page() -> None:
    files = [
        PageFile(rel, Path(rel), lang, page_id, False, (0, i))
        for i, (rel, lang, page_id) in enumerate(
            [
                ("ch01.en.html", "en", "ch01"),
                ("ch01.fr.html", "fr", "ch01"),
                ("ch02.en.html", "en", "ch02"),
                ("ch01.zh-tw.html", "zh-Hant", "ch01"),
            ]
        )
    ]
    groups = real_site.group_by_page(files)
    assert {page_id: sorted(by_lang) for page_id, by_lang in groups.items()} == {
        "ch01": ["en", "fr", "zh-Hant"],
        "ch02": ["en"],
    }


def test_monolingual_site_has_no_pairs(tmp_path: Path) -> None:
    root = tmp_path / "root"
    site = tiny_site(root)
    mono = dataclasses.replace(site, kind="monolingual", entry_style="none")
    (summary,) = build(tmp_path / "cache", root, [mono])
    assert summary["gold_pairs"] == 0 and gold_lines(tmp_path / "cache") == []
    assert summary["languages"] == ["en"] and not summary["bilingual"]
    mounts = tomllib.loads((tmp_path / "cache/sandbox.toml").read_text())["mount"]
    own = next(m for m in mounts if m["host"] == "tiny.example")
    assert own["dirs"] == [str((root / "usr/share/doc/tiny/manual").resolve())]  # its own root


# --- language index -----------------------------------------------------------------------------


def test_start_pages_prefer_index_pages_and_skip_symlinked_languages() -> None:
    files = [
        PageFile("en/b.html", Path(), "en", "b.html", False, (0, 1)),
        PageFile("en/index.html", Path(), "en", "index.html", False, (0, 2)),
        PageFile("fr/b.html", Path(), "fr", "b.html", False, (0, 3)),
        PageFile("fr/a/index.html", Path(), "fr", "a/index.html", False, (0, 4)),
        PageFile("de/index.html", Path(), "de", "index.html", True, (0, 2)),
        PageFile("index.ja.html", Path(), "ja", "index", False, (0, 5)),
    ]
    assert start_pages(files) == {
        "en": "en/index.html",
        "fr": "fr/a/index.html",
        "ja": "index.ja.html",
    }


def test_start_pages_prefer_the_home_page_in_every_language() -> None:
    files = [
        PageFile("essay/index.html", Path(), "en", "essay/index", False, (0, 1)),
        PageFile("web/index.html", Path(), "en", "web/index", False, (0, 2)),
        PageFile("web/index.fr.html", Path(), "fr", "web/index", False, (0, 3)),
        PageFile("essay/index.de.html", Path(), "de", "essay/index", False, (0, 4)),
    ]
    assert start_pages(files, home_page="web/index") == {
        "de": "essay/index.de.html",
        "en": "web/index.html",
        "fr": "web/index.fr.html",
    }


def test_language_index_lists_languages_by_native_name(tiny: tuple[Path, Path, list]) -> None:
    _, cache, _ = tiny
    html = (cache / "overlays/tiny-manual/native_list/index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)"[^>]*hreflang="([^"]+)"[^>]*>([^<]+)</a> \((\S+)\)', html)
    assert links == [
        ("en/index.html", "en", "English", "en"),  # the source language first
        ("es/listen.html", "es", "español", "es"),
        ("fr/index.html", "fr", "français", "fr"),
        ("it/only-italian.html", "it", "Italiano", "it"),
        ("ja/listen.html", "ja", "日本語", "ja"),
    ]  # de has only a symlink to English: no language of the site


STARTS = [
    LanguageStart("en", "en/index.html", "Listen"),
    LanguageStart("fr", "fr/a%20b.html", "Écouter"),
    LanguageStart("zh-Hant", "zh-tw/index.html", "監聽"),
]


def entry_links(html: str, base: str = "http://x.example/docs/") -> dict[str, str]:
    """Where an entry page's links lead (``a``, ``option`` values and ``link`` alternates),
    absolute, -> their label (anchor text, option text, image src, or hreflang)."""
    root = lxml.html.document_fromstring(html, base_url=base)
    found = {}
    for element in [*root.iter("a", "option"), *root.iter("link")]:
        target = element.get("href") or element.get("value")
        if target:
            images = element.findall(".//img")
            label = element.text_content().strip() or (images[0].get("src") if images else "")
            found.setdefault(urljoin(base, target), label or element.get("hreflang", ""))
    return found


@pytest.mark.parametrize("style", [s for s in ENTRY_STYLES if s not in ("header", "footer")])
def test_choosers_link_every_language_start_page(style: str) -> None:
    html = render_entry_page(style, "Listen", STARTS, "/docs/")
    links = entry_links(html)
    expected = {f"http://x.example/docs/{s.href}" for s in STARTS}
    assert set(links) == expected, style
    labels = {
        "native_list": ["English", "français", "中文(繁)"],
        "english_names": ["English", "French", "Chinese (Traditional)"],
        "codes": ["EN", "FR", "ZH-HANT"],
        "flags": ["images/flags/gb.png", "images/flags/fr.png", "images/flags/tw.png"],
        "hreflang": ["Listen", "Écouter", "監聽"],
        "select": ["English", "français", "中文(繁)"],
    }[style]
    assert [links[f"http://x.example/docs/{s.href}"] for s in STARTS] == labels
    assert letters(lxml.html.document_fromstring(html).text_content()) < 200  # a short page


@pytest.mark.parametrize("style", ["header", "footer"])
def test_switcher_entry_is_the_source_page_with_a_switcher_and_a_base(style: str) -> None:
    source_html = (
        "<html><head><title>Listen</title></head><body><p>The server listens.</p>"
        '<a href="next.html">Next</a></body></html>'
    )
    html = render_entry_page(style, "Listen", STARTS, "/docs/", STARTS[0], source_html)
    assert "<p>The server listens.</p>" in html
    root = lxml.html.document_fromstring(html)
    assert root.find(".//base").get("href") == "/docs/en/index.html"
    base = "http://x.example/docs/en/index.html"  # what a browser resolves against
    links = entry_links(html, base)
    assert links["http://x.example/docs/en/next.html"] == "Next"  # its own links still work
    assert links["http://x.example/docs/fr/a%20b.html"] == "français"
    assert links["http://x.example/docs/zh-tw/index.html"] == "中文(繁)"
    switcher = html.index("français")
    if style == "header":
        assert switcher < html.index("The server listens")
        assert "http://x.example/docs/en/index.html" in links
    else:
        assert html.index("Other languages:") < switcher and switcher > html.index("Next")
    with pytest.raises(ValueError, match="source language"):
        render_entry_page(style, "Listen", STARTS, "/docs/")


def test_every_site_is_served_behind_every_entry_style(tiny: tuple[Path, Path, list]) -> None:
    _, cache, summaries = tiny
    rows = entry_style_urls(cache)
    assert [(r.url, r.bilingual, r.site, r.style) for r in rows] == [
        (f"http://{style}.entry.tiny.example/docs/", True, "tiny-manual", style)
        for style in ENTRY_STYLES
    ]
    config = SandboxConfig()
    config.add_file(cache / "sandbox.toml")
    sandbox = Sandbox(config)
    for row in rows:
        answer = sandbox.handle("GET", row.url, "")
        assert answer.status == 200, row.style
        assert "fr/index.html" in answer.body.decode(), row.style
        deep = sandbox.handle("GET", row.url + "fr/listen.html", "")
        assert deep.status == 200 and "Par défaut" in deep.body.decode()  # the whole site


def test_a_language_mostly_left_in_english_does_not_make_a_site_bilingual(tmp_path: Path) -> None:
    root = tmp_path / "root"
    site = tiny_site(root)
    manual = root / "usr/share/doc/tiny/manual"
    shutil.rmtree(manual / "fr")
    (summary,) = build(tmp_path / "cache", root, [site])
    # es is German, ja is mostly English: languages with files, none of them translated
    assert summary["gold_pairs"] == 0 and summary["translated_languages"] == []
    assert not summary["bilingual"] and summary["kind"] == "multilingual"
    rows = entry_style_urls(tmp_path / "cache")
    assert rows and not any(r.bilingual for r in rows)


# --- the sandbox config -------------------------------------------------------------------------


def test_sandbox_toml_has_absolute_dirs_overlay_first(tiny: tuple[Path, Path, list]) -> None:
    root, cache, _ = tiny
    with (cache / "sandbox.toml").open("rb") as f:
        data = tomllib.load(f)
    assert set(data) == {"mount"}
    mount = data["mount"][0]
    assert len(data["mount"]) == 1 + len(ENTRY_STYLES)
    assert mount == {
        "host": "tiny.example",
        "prefix": "/docs/",
        "dirs": [
            str((cache / "overlays/tiny-manual/native_list").resolve()),
            str((root / "usr/share/doc/tiny/manual").resolve()),
        ],
    }
    assert all(Path(d).is_absolute() for d in mount["dirs"])


def test_sandbox_serves_the_language_index_and_the_pairs(tiny: tuple[Path, Path, list]) -> None:
    _, cache, _ = tiny
    config = SandboxConfig()
    config.add_file(cache / "sandbox.toml")
    sandbox = Sandbox(config)
    root = sandbox.handle("GET", "http://tiny.example/docs/", "")
    assert root.status == 200 and b'hreflang="fr"' in root.body
    for source, target, *_ in gold_lines(cache):
        assert sandbox.handle("GET", source, "").status == 200
        assert sandbox.handle("GET", target, "").status == 200


# --- fetching, with stand-ins for apt-get and dpkg ----------------------------------------------


def fake_tool(path: Path, script: str) -> str:
    path.write_text("#!/bin/sh\n" + textwrap.dedent(script))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def fake_site(packages: tuple[str, ...]) -> RealSite:
    return RealSite(
        "fake", "monolingual", "fake.example", "/", packages, ("usr/share/doc",), "(?P<page>.+)"
    )


def test_fetch_without_apt_get_says_so(tmp_path: Path) -> None:
    with pytest.raises(AptUnavailable, match="not on PATH"):
        fetch(tmp_path, [fake_site(("foo-doc",))], apt_get=str(tmp_path / "no-apt-get"))


def test_fetch_failure_names_the_package_and_apt_get_update(tmp_path: Path) -> None:
    apt_get = fake_tool(
        tmp_path / "apt-get",
        """
        echo "E: Unable to locate package foo-doc-fr" >&2
        exit 100
        """,
    )
    with pytest.raises(FetchError) as failure:
        fetch(tmp_path / "cache", [fake_site(("foo-doc", "foo-doc-fr"))], apt_get=apt_get)
    message = str(failure.value)
    assert "foo-doc-fr" in message and "foo-doc," not in message
    assert "apt-get update" in message
    assert not list((tmp_path / "cache/debs").glob("*.deb"))


def test_fetch_downloads_and_unpacks_once(tmp_path: Path) -> None:
    calls = tmp_path / "calls.log"
    apt_get = fake_tool(
        tmp_path / "apt-get",
        f"""
        echo "apt-get $*" >> {calls}
        shift
        for p in "$@"; do echo deb > "${{p}}_1.0_all.deb"; done
        """,
    )
    dpkg = fake_tool(
        tmp_path / "dpkg",
        f"""
        echo "dpkg $*" >> {calls}
        mkdir -p "$3/usr/share/doc" && touch "$3/usr/share/doc/$(basename "$2" .deb)"
        """,
    )
    cache = tmp_path / "cache"
    (cache / "debs").mkdir(parents=True)
    (cache / "debs/foo-doc_0.9_all.deb").write_text("already downloaded")
    sites = [fake_site(("foo-doc", "foo-doc-fr")), fake_site(("foo-doc-de", "foo-doc"))]
    root = fetch(cache, sites, apt_get=apt_get, dpkg=dpkg)
    fetch(cache, sites, apt_get=apt_get, dpkg=dpkg)  # the second time, nothing to do
    log = calls.read_text().splitlines()
    assert log[0] == "apt-get download foo-doc-fr foo-doc-de"
    assert sorted(line.split()[2].rsplit("/", 1)[1] for line in log[1:]) == [
        "foo-doc-de_1.0_all.deb",
        "foo-doc-fr_1.0_all.deb",
        "foo-doc_0.9_all.deb",
    ]
    assert len(log) == 4
    assert (root / "usr/share/doc/foo-doc-fr_1.0_all").exists()


# --- the real sites (fetched Debian packages) ---------------------------------------------------


@pytest.fixture(scope="module")
def real() -> dict[str, dict]:
    try:
        summaries = realsites.prepare()
    except AptUnavailable as exc:
        missing(f"the real sites need apt-get and dpkg (Debian/Ubuntu): {exc}")
    return {site["name"]: site for site in summaries}


@pytest.fixture(scope="module")
def real_gold(real: dict[str, dict]) -> set[tuple[str, str, str, str, str]]:
    lines = realsites.gold_pairs_path().read_text(encoding="utf-8").splitlines()
    return {tuple(line.split("\t")) for line in lines}  # type: ignore[misc]


@pytest.fixture(scope="module")
def apache_files(real: dict[str, dict]) -> list[PageFile]:
    site = next(s for s in load_sites() if s.name == "apache-httpd-manual")
    root = realsites.resolve_cache_dir() / "root"
    return real_site.page_files(site, real_site.served_html([root / d for d in site.dirs]))


APACHE = "http://httpd.apache.org/docs/2.4/"
REFERENCE = "http://www.debian.org/doc/manuals/debian-reference/"


def declared_lang(path: Path) -> str | None:
    found = re.search(rb'<html[^>]*\blang="([^"]+)"', path.read_bytes()[:2048])
    return normalize_language_code(found.group(1).decode()) if found else None


def test_real_apache_pairs(real_gold: set, apache_files: list[PageFile]) -> None:
    pairs = {(s, t) for s, t, *_ in real_gold}
    assert (APACHE + "en/caching.html", APACHE + "fr/caching.html") in pairs
    assert (APACHE + "en/mod/core.html", APACHE + "fr/mod/core.html") in pairs
    targets = {t for _, t in pairs}
    assert APACHE + "fr/platform/ebcdic.html" not in targets  # a symlink to the English page
    # Debian's en/bind.html is the Brazilian Portuguese page (apache2-doc 2.4.71-1~deb12u1), so
    # en/bind.html <-> fr/bind.html is a pair only where en/bind.html is really English.
    english_bind = next(f for f in apache_files if f.relative == "en/bind.html")
    is_english = declared_lang(english_bind.path) == "en"
    assert ((APACHE + "en/bind.html", APACHE + "fr/bind.html") in pairs) is is_english


def test_real_debian_reference_pairs(real_gold: set) -> None:
    assert (REFERENCE + "ch01.en.html", REFERENCE + "ch01.fr.html", "en", "fr") in {
        g[:4] for g in real_gold
    }
    zh_tw = [g for g in real_gold if g[1].endswith(".zh-tw.html")]
    assert zh_tw and {g[3] for g in zh_tw} == {"zh-Hant"}
    assert (REFERENCE + "ch01.en.html", REFERENCE + "ch01.zh-tw.html") in {g[:2] for g in zh_tw}


MONOLINGUAL = {"python-docs", "git-docs", "debian-policy", "sqlite-docs", "nodejs-docs"}


def test_real_sites_summaries(real: dict[str, dict], real_gold: set) -> None:
    for name in ("python-docs", "git-docs"):
        assert real[name]["kind"] == "monolingual"
        assert real[name]["gold_pairs"] == 0 and real[name]["pages"] > 100
        assert not any(g[4] == name for g in real_gold)
    for site in real.values():
        assert site["gold_pairs"] == sum(g[4] == site["name"] for g in real_gold)
        if site["kind"] == "multilingual":
            assert site["gold_pairs"] or site["dropped"]["source_not_served"], site["name"]
            assert len(site["languages"]) >= 2
        assert site["bilingual"] is (site["name"] not in MONOLINGUAL), site["name"]
    # debian-policy-ja: a few pages are translated, most are the English text
    assert real["debian-policy"]["kind"] == "multilingual"
    assert real["debian-policy"]["translated_languages"] == []
    assert real["lilypond-docs"]["translated_languages"] == ["de", "fr"]
    for _, _, source_lang, target_lang, _ in real_gold:
        assert source_lang == "en" and target_lang != "en"
        assert normalize_language_code(target_lang) == target_lang


def test_real_gold_pages_are_served(real: dict[str, dict], real_gold: set) -> None:
    config = SandboxConfig()
    config.add_file(realsites.sandbox_config_path())
    sandbox = Sandbox(config)
    for site in real.values():
        answer = sandbox.handle("GET", site["seed_url"], "")
        body = answer.body.lower()
        assert answer.status == 200 and (b"<a " in body or b"<option " in body), site["name"]
    for source, target, *_ in random.Random(0).sample(sorted(real_gold), 100):
        assert sandbox.handle("GET", source, "").status == 200, source
        assert sandbox.handle("GET", target, "").status == 200, target


def test_real_apache_hreflang_alternates_are_the_real_translations(
    apache_files: list[PageFile],
) -> None:
    """The "Available languages" of an English page are exactly the languages that have a real
    (non-symlink) file of it. (Only true for pages whose en/ file is English: see
    test_real_apache_pairs.)"""
    groups = real_site.group_by_page(apache_files)
    checked = 0
    for page_id in random.Random(1).sample(sorted(groups), 80):
        by_lang = groups[page_id]
        english = by_lang.get("en")
        if english is None or declared_lang(english.path) != "en":
            continue
        real_langs = {lang for lang, f in by_lang.items() if not f.symlink}
        html = english.path.read_text(encoding="utf-8", errors="replace")
        alternates = {normalize_language_code(h) for h in re.findall(r'hreflang="([^"]+)"', html)}
        assert alternates | {"en"} == real_langs, page_id
        checked += 1
    assert checked >= 60


def test_a_translation_that_holds_another_section_is_no_gold_pair(tmp_path: Path) -> None:
    # sylpheed-manual's de/sylpheed-10.html is the English 11: the site lists such files
    root = tmp_path / "root"
    site = dataclasses.replace(tiny_site(root), other_sections=("fr/index.html", "ja/index.html"))
    (root / site.dirs[0] / "ja/index.html").write_bytes(page("ja", JAPANESE))
    served = real_site.served_html(entry_pages.site_dirs(tmp_path / "cache", site, root))
    gold = real_site_gold.derive_gold(site, real_site.page_files(site, served))
    assert [(p.source_url, p.target_url) for p in gold.pairs] == [
        ("http://tiny.example/docs/en/listen.html", "http://tiny.example/docs/fr/listen.html")
    ]
    assert gold.dropped["other_section"] == 2
    assert ["http://tiny.example/docs/fr/index.html", "http://tiny.example/docs/ja/index.html"] in (
        gold.unjudged
    )


def test_a_source_page_behind_the_entry_page_pairs_nothing(tmp_path: Path) -> None:
    # cups-web: its English page is index.html, where the site's entry page is served
    root, cache = tmp_path / "root", tmp_path / "cache"
    site = dataclasses.replace(
        tiny_site(root), page_pattern=r"^(?:(?P<lang>[a-z]{2})/)?(?P<page>index\.html)$"
    )
    (root / site.dirs[0] / "en/index.html").unlink()
    (root / site.dirs[0] / "index.html").write_bytes(page("en", ENGLISH[:2]))
    (root / site.dirs[0] / "de/index.html").write_bytes(page("de", GERMAN[:2]))
    (summary,) = build(cache, root, [site])
    assert gold_lines(cache) == []
    assert summary["dropped"]["source_not_served"] == 2
    unjudged = (cache / "gold_unjudged.tsv").read_text(encoding="utf-8").splitlines()
    assert "http://tiny.example/docs/de/index.html\thttp://tiny.example/docs/fr/index.html" in (
        unjudged
    )


def test_the_build_key_follows_the_model_s_bytes_not_its_place(tmp_path, monkeypatch) -> None:
    """A clone of the project in another folder (CI's) reuses the real sites' build: the key
    read the model's path, so each clone derived the gold again (2 minutes)."""
    from bilingual_spider.language.identification import DEFAULT_MODEL_PATH, MODEL_ENV_VAR

    config = tmp_path / "sites.toml"
    config.write_text("")
    keys = []
    for folder, content in (("a", None), ("b", None), ("c", b"another model")):
        model = tmp_path / folder / "lid.176.ftz"
        model.parent.mkdir()
        model.write_bytes(content or DEFAULT_MODEL_PATH.read_bytes())
        monkeypatch.setenv(MODEL_ENV_VAR, str(model))
        keys.append(realsites.build_key(tmp_path / "cache", config))
    assert keys[0] == keys[1] != keys[2]
