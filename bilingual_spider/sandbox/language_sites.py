"""Documentation sites in languages the identifier lacks or confuses (issue 49): a test world.

Each site is English plus translations at ``/LANG/DOC.html``, written from the gettext catalogs
Debian installs (:mod:`.textsource`: a document is a run of messages, its translation the same
messages' ``msgstr``): Dzongkha (``dz``, which lid.176 has no label for: it says ``bo``), Bokmål
(its ``no``), Nynorsk, Galician with Spanish and Portuguese beside it. Some sites serve a
language that is *not* translated: its pages are the English ones under that language's path
and ``<html lang>`` (an untranslated "translation"; ``om`` has no catalogs here, so a catalog
site's Oromo version is such a copy). Six sites are made of the Universal Declaration of Human
Rights instead (:mod:`.udhr`), the real Oromo, Dzongkha, Bantu, West African and Polynesian
languages of its translations, none of which lid.176 has a label for. Every language's
index page carries a long untranslated English licence in its main text (not a footer), as
documentation sites do.

Pages link to every document of their language, to their versions in the other languages (a
switcher of codes) and to the home page, which links to each language's index. The gold pairs
are (English page, translated page) for every document; a copy is in no pair, nor is an index
page half of whose prose is the untranslated licence (:func:`index_is_copy`: a copy by the rule
the real sites' gold follows, ``patterns/pair_language.py``); its language is still its own
(the detector reads it).

Some sites (``marked=False``) mark no page's language in its URL or its ``<html lang>``: every
page is ``/p/NUMBER.html`` under a template's ``lang="en"``, and only the links to a page say its
language, by their labels (a switcher of language names: ``Norsk bokmål``, ``རྫོང་ཁ``) and, where
``hreflang=True``, their ``hreflang`` (:data:`NATIVE_NAMES`).

Sites are split in two: :data:`TUNED_ON` were looked at while the code was written (their
catalogs are the unit tests' apt and dpkg), the others are held out.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from bilingual_spider.language.page_language import main_text_blocks
from bilingual_spider.patterns.copied_prose import mutual_copied_share
from bilingual_spider.patterns.pair_language import MAX_COPIED_SHARE
from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.textsource import (
    DEFAULT_LOCALE_DIR,
    MIN_SENTENCE_WORDS,
    catalog_messages,
)
from bilingual_spider.sandbox.udhr import udhr_documents

LOCALES = {"dz": "dz", "nb": "nb", "nn": "nn", "gl": "gl", "es": "es", "pt": "pt"}
"""Project code -> gettext locale directory."""
MESSAGES_PER_DOC = 12
MAX_DOCS = 30
MIN_DOCS = 4
LICENCE = (
    "Permission is granted to copy, distribute and/or modify this document under the terms of "
    "the GNU Free Documentation License, Version 1.3 or any later version published by the Free "
    "Software Foundation; with no Invariant Sections, no Front-Cover Texts, and no Back-Cover "
    "Texts. A copy of the license is included in the section entitled GNU Free Documentation "
    "License. This manual is distributed in the hope that it will be useful, but without any "
    "warranty; without even the implied warranty of merchantability or fitness for a particular "
    "purpose. You should have received a copy of the license along with this manual; if not, "
    "write to the Free Software Foundation, or see the project's web site for a copy. The "
    "authors and translators of this manual are listed in the file of the same name, and their "
    "work is acknowledged with thanks by everyone who reads it in their own language."
)
"""An index page's untranslated licence: as long as its table of contents, or longer."""


@dataclass(frozen=True)
class LanguageSite:
    host: str
    languages: tuple[str, ...]
    """Translated languages besides English."""
    catalogs: tuple[str, ...]
    """Catalog names (``apt`` for ``apt.mo``) the documents are made of."""
    copies: tuple[str, ...] = ()
    """Languages served as English copies."""
    marked: bool = True
    """Each page's URL (``/LANG/DOC.html``) and ``<html lang>`` name its language; False: its
    URL is ``/p/NUMBER.html`` and every page says ``lang="en"`` (a template's), so only the
    links naming a page say its language."""
    hreflang: bool = False
    """The switcher's links carry ``hreflang`` besides their label (unmarked sites)."""
    texts: str = "catalogs"
    """What its documents are made of: the gettext ``catalogs``, or ``udhr``: the Universal
    Declaration of Human Rights (:mod:`.udhr`: English, Oromo, Dzongkha; no catalog here has
    Oromo), three articles a document."""


NATIVE_NAMES = {
    "en": "English", "dz": "རྫོང་ཁ", "nb": "Norsk bokmål", "nn": "Norsk nynorsk",
    "gl": "Galego", "es": "Español", "pt": "Português", "om": "Afaan Oromoo", "da": "Dansk",
    "sv": "Svenska", "ha": "Hausa", "ig": "Igbo", "wo": "Wolof", "ee": "Eʋegbe",
    "bm": "Bamanankan", "ti": "ትግርኛ", "mi": "Māori", "sm": "Gagana Samoa", "to": "Lea faka-Tonga",
    "fj": "Na Vosa Vakaviti", "sg": "Sängö", "ay": "Aymar aru",
}  # fmt: skip
"""The switcher's label of each language on unmarked sites: its own name, as Wikipedia's list of
languages writes it."""


SITES = (
    LanguageSite("dz-apt.example", ("dz",), ("apt", "dpkg", "libapt-pkg6.0"), ("om",)),
    LanguageSite("nordic-apt.example", ("nb", "nn"), ("apt", "dpkg", "libapt-pkg6.0"), ("da",)),
    LanguageSite("galego-apt.example", ("gl",), ("apt", "dpkg", "libapt-pkg6.0"), ("pt",)),
    LanguageSite(
        "dz-gtk.example", ("dz",), ("glib20", "gtk20", "shadow", "gdk-pixbuf", "at-spi2-core"),
        ("om",),
    ),
    LanguageSite(
        "nordic-gtk.example", ("nb", "nn"),
        (
            "glib20", "gtk20", "shadow", "Linux-PAM", "PackageKit", "shared-mime-info",
            "gettext-runtime", "polkit-1",
        ),
        ("sv",),
    ),
    LanguageSite(
        "iberia-gnu.example", ("gl", "es", "pt"),
        (
            "coreutils", "tar", "sed", "grep", "findutils", "wget", "bash", "diffutils", "libc",
            "gnupg2", "make", "systemd", "man-db-gnulib",
        ),
        ("om",),
    ),
    LanguageSite(
        "nynorsk-desktop.example", ("nn",),
        ("xdg-user-dirs", "gettext-tools", "software-properties", "at-spi2-core", "gdk-pixbuf"),
    ),
    LanguageSite(
        "nordic-switcher.example", ("nb", "nn"),
        ("gtk30", "notification-daemon", "system-config-printer"), ("da",), marked=False,
    ),
    LanguageSite(
        "dz-hreflang.example", ("dz",), ("gtk30", "gtk30-properties", "gtk20-properties"),
        ("om",), marked=False, hreflang=True,
    ),
    LanguageSite(
        "galego-switcher.example", ("gl", "es"),
        (
            "gsettings-desktop-schemas", "gstreamer-1.0", "libsecret", "popt", "appstream",
            "adduser", "python-apt",
        ),
        ("pt",), marked=False,
    ),
    LanguageSite("oromo-udhr.example", ("om",), (), texts="udhr"),
    LanguageSite(
        "udhr-switcher.example", ("om", "dz"), (), ("da",), marked=False, texts="udhr"
    ),
    LanguageSite(
        "oromo-hreflang.example", ("om",), (), ("sv",), marked=False, hreflang=True,
        texts="udhr",
    ),
    LanguageSite(
        "bantu-udhr.example", ("rw", "sn", "ny", "st", "tn", "zu", "xh", "lg", "ln"), (),
        ("sg",), texts="udhr",
    ),
    LanguageSite(
        "west-africa-udhr.example", ("ha", "ig", "wo", "ee", "bm", "ti"), (), ("sg",),
        marked=False, texts="udhr",
    ),
    LanguageSite(
        "pacific-udhr.example", ("mi", "sm", "to", "fj"), (), ("ay",), marked=False,
        hreflang=True, texts="udhr",
    ),
)  # fmt: skip
TUNED_ON = (
    "dz-apt.example", "nordic-apt.example", "galego-apt.example", "nordic-switcher.example"
)  # fmt: skip
"""The sites looked at while the code was written; the others are held out."""


def site_documents(
    site: LanguageSite, locale_dir: Path = DEFAULT_LOCALE_DIR
) -> list[list[dict[str, str]]]:
    """The site's documents: runs of :data:`MESSAGES_PER_DOC` sentences (messages of
    ``textsource.MIN_SENTENCE_WORDS`` English words or more: prose, not a menu's titles)
    translated into every language of the site, each as {language: text} (``en`` too); a
    site of ``udhr`` texts: the declaration's (:func:`~.udhr.udhr_documents`)."""
    if site.texts == "udhr":
        return udhr_documents(("en", *site.languages))
    by_english: dict[str, dict[str, str]] = {}
    for catalog in site.catalogs:
        per_language = []
        for lang in site.languages:
            path = locale_dir / LOCALES[lang] / "LC_MESSAGES" / f"{catalog}.mo"
            per_language.append(
                (lang, dict(catalog_messages(path, lang)) if path.is_file() else {})
            )
        for english in per_language[0][1] if per_language else ():
            texts = {lang: found.get(english) for lang, found in per_language}
            prose = len(english.split()) >= MIN_SENTENCE_WORDS  # a sentence, not a title
            if prose and all(texts.values()) and english not in by_english:
                by_english[english] = {"en": english, **{k: v for k, v in texts.items() if v}}
    messages = list(by_english.values())
    docs = [
        messages[i : i + MESSAGES_PER_DOC]
        for i in range(0, len(messages) - MESSAGES_PER_DOC + 1, MESSAGES_PER_DOC)
    ]
    return docs[:MAX_DOCS]


def page_path(site: LanguageSite, lang: str, name: str) -> str:
    """Where the page ``name`` (``index``, ``doc03``) of language ``lang`` is on ``site``."""
    if site.marked:
        return f"{lang}/{name}.html"
    return f"p/{zlib.crc32(f'{site.host}/{lang}/{name}'.encode()):010d}.html"


def _switcher_link(site: LanguageSite, lang: str, name: str) -> str:
    if site.marked:
        return f'<a href="/{page_path(site, lang, name)}">{lang}</a>'
    hreflang = f' hreflang="{lang}"' if site.hreflang else ""
    label = escape(NATIVE_NAMES[lang])
    return f'<a href="/{page_path(site, lang, name)}"{hreflang}>{label}</a>'


def _page(lang: str, title: str, blocks: Iterable[str], links: str, switcher: str) -> str:
    body = "".join(f"<p>{escape(b)}</p>" for b in blocks)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{escape(title)}'
        f'</title></head><body><div class="switcher">{switcher}</div><div class="content">'
        f'<h1>{escape(title)}</h1>{body}</div><div class="toc">{links}</div>'
        f'<p><a href="/">Home</a></p></body></html>'
    )


def write_site(
    site: LanguageSite, out: Path, locale_dir: Path = DEFAULT_LOCALE_DIR
) -> tuple[list[tuple[str, str]], dict[str, str]]:
    """Write the site's pages under ``out``; its gold pairs (English URL, translated URL) and
    the language of each page's URL (a copy's: the language it is served as)."""
    docs = site_documents(site, locale_dir)
    if len(docs) < MIN_DOCS:
        raise RuntimeError(f"{site.host}: {len(docs)} documents; its catalogs are not installed")
    names = ["index"] + [f"doc{i:02d}" for i in range(len(docs))]
    shown = ("en", *site.languages, *site.copies)
    gold = []
    languages = {}
    for lang in shown:
        text_lang = lang if lang in site.languages else "en"  # a copy is the English text
        toc = "".join(
            f'<p><a href="/{page_path(site, lang, name)}">{escape(doc[0][text_lang])}</a></p>'
            for name, doc in zip(names[1:], docs, strict=True)
        )
        html_lang = lang if site.marked else "en"
        for n, name in enumerate(names):
            switcher = " ".join(_switcher_link(site, other, name) for other in shown)
            if n == 0:
                titles = [doc[0][text_lang] for doc in docs]
                page = _page(html_lang, titles[0], [*titles, LICENCE], toc, switcher)
            else:
                doc = docs[n - 1]
                page = _page(
                    html_lang, doc[0][text_lang], [m[text_lang] for m in doc[1:]], toc, switcher
                )
            path = out / page_path(site, lang, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(page, encoding="utf-8")
            languages[site_url(site, page_path(site, lang, name))] = lang
            english = out / page_path(site, "en", "index")
            if lang in site.languages and (n > 0 or not index_is_copy(english, path)):
                gold.append(
                    (
                        site_url(site, page_path(site, "en", name)),
                        site_url(site, page_path(site, lang, name)),
                    )
                )
    home = "".join(
        f'<p><a href="/{page_path(site, lang, "index")}">'
        f"{lang if site.marked else escape(NATIVE_NAMES[lang])}</a></p>"
        for lang in shown
    )
    (out / "index.html").write_text(
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{site.host}</title></head>'
        f"<body>{home}</body></html>",
        encoding="utf-8",
    )
    return gold, languages


def index_is_copy(english: Path, translated: Path) -> bool:
    """Whether a language's index page is a copy of the English one by the rule of
    ``patterns/pair_language.py`` (the real sites' gold's): half the prose of either page or
    more is the other's (the untranslated licence against a short table of contents)."""
    prose = [
        main_text_blocks(path.read_bytes(), code=False, navigation=False)[0]
        for path in (english, translated)
    ]
    return mutual_copied_share(*prose) >= MAX_COPIED_SHARE


def site_url(site: LanguageSite, path: str = "") -> str:
    return f"http://{site.host}/{path}"


@dataclass(frozen=True)
class LanguageWorld:
    config: Path
    """The sandbox server's config (``--config``)."""
    gold: dict[str, list[tuple[str, str]]]
    """Host -> its gold pairs."""
    languages: dict[str, str]
    """URL -> the language the page is served as (a copy: the language of its URL)."""


def build_world(
    out: str | os.PathLike[str], locale_dir: Path = DEFAULT_LOCALE_DIR
) -> LanguageWorld:
    """Write every site of :data:`SITES` under ``out`` and the sandbox config that serves them."""
    root = Path(out)
    gold = {}
    languages: dict[str, str] = {}
    mounts = []
    for site in SITES:
        directory = root / site.host
        gold[site.host], served_as = write_site(site, directory, locale_dir)
        languages.update(served_as)
        mounts.append((site.host, "/", [directory.resolve()]))
    config = root / "sandbox.toml"
    config.write_text(render_sandbox_toml(mounts), encoding="utf-8")
    return LanguageWorld(config, gold, languages)
