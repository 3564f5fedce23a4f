"""Is a URL pair really two languages? The language check of a candidate pair.

The paper called a page English when over half of its characters were Latin letters; 80% of its
false pairs came from that test (section 6.1). Here each side's language comes from the project's
language identification (``language/identification.py``, ``language/page_language.py``), for
any languages, and a pair is rejected when:

- its two sides are in the same language (``en`` and ``en-GB``; ``zh-Hans`` and ``zh-Hant`` are
  different: the project treats the two scripts as two targets);
- either side's language is undetermined;
- the "translation" is mostly the source text: half or more of either page's prose is copied
  from the other (:mod:`.copied_prose`: a block is copied when it is the other page's verbatim
  or half or more of its word 3-grams are the other page's; a page served untranslated under
  the other language's URL, a translation left half in English). The real sites' gold judges
  its pairs by the same measure.

A page whose text is mixed (a translated manual that keeps an untranslated English appendix,
its code and UI strings) has no language with :data:`MIN_LANGUAGE_SHARE` of its text. Its
language is then decided against the other page of the pair (:func:`own_prose`): it is the main
language of its prose *not copied from the other page*, and the pair is rejected as copied when
half or more of its prose is. So a pair is a translation when each page is in its own language
and less than half of its prose is copied from the other; rejected when half or more is copied,
or when a page is in the wrong language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bilingual_spider.language.codes import same_language
from bilingual_spider.language.declared_language import resolve_language
from bilingual_spider.language.identification import (
    UNDETERMINED,
    LanguageIdentifier,
    decide,
    default_calibration,
    default_identifier,
)
from bilingual_spider.language.page_language import LanguageBlock
from bilingual_spider.patterns.copied_prose import (
    SourceProse,
    as_source,
    mutual_copied_share,
)
from bilingual_spider.patterns.resemblance import containment, fingerprint

MAX_COPIED_SHARE = 0.5
"""A page with this share of its prose copied from the other page, or more, is a copy."""
BLOCK_SEPARATOR = "\n"
"""Between the blocks of a page's prose given as one string (``PageRecord.prose``)."""
MIN_LANGUAGE_SHARE = 0.6
"""A page is in a language when that language has this share of its main text's blocks (the
detector's ``BILINGUAL_DETECTOR_MIN_SHARE``); a page with no such language is *mixed*, and
its language is decided by :func:`own_prose` against the other page of a pair."""
OWN_PROSE_MAJORITY = 0.5
"""A mixed page is in the language of more than this share of its prose not copied from the
other page (its main language): the rule's "less than half copied", for the rest."""


class PairLanguageVerdict(StrEnum):
    BILINGUAL = "bilingual"
    SAME_LANGUAGE = "same_language"
    UNDETERMINED = "undetermined"
    COPIED = "copied"


@dataclass(frozen=True)
class PairLanguageCheck:
    verdict: PairLanguageVerdict
    source_language: str
    target_language: str
    copied_share: float
    """The larger share of a page's prose copied from the other page
    (:func:`~.copied_prose.mutual_copied_share`; a mixed page's, :func:`own_prose`)."""

    @property
    def accepted(self) -> bool:
        return self.verdict is PairLanguageVerdict.BILINGUAL


def prose_blocks(text: str) -> list[str]:
    """A page's prose blocks from its prose as one string (:data:`BLOCK_SEPARATOR`)."""
    return text.split(BLOCK_SEPARATOR)


def copied_share(source_text: str, target_text: str) -> float:
    """How much of the shorter text is found in the longer one (character 5-grams): a signal
    of the pair verifier (:mod:`.verification`)."""
    a, b = fingerprint(source_text), fingerprint(target_text)
    part, whole = (a, b) if len(a) <= len(b) else (b, a)
    return containment(part, whole)


@dataclass(frozen=True)
class OwnProse:
    """A page's prose that is not copied from the other page of a pair."""

    lang: str
    """Its main language (more than :data:`OWN_PROSE_MAJORITY` of it, block by block, else
    that of the whole of it read as one text), or ``und``."""
    copied_share: float
    """The share of the page's judged prose (by characters) copied from the other page."""


def own_prose(
    blocks: Sequence[LanguageBlock],
    other: str | SourceProse,
    majority: float = OWN_PROSE_MAJORITY,
    identifier: LanguageIdentifier | None = None,
    declared: str | None = None,
) -> OwnProse:
    """The language of a page's prose not copied from the other page of a pair, and how much
    of its prose is copied. ``blocks``: the page's judged blocks with their languages
    (``language_blocks``); ``other``: the other page's prose (its blocks joined by
    :data:`BLOCK_SEPARATOR`). A block is copied when it is the other page's verbatim or half or
    more of its word 3-grams are (:meth:`~.copied_prose.SourceProse.copies`: an untranslated
    paragraph, a UI string kept as it is). When no language has ``majority`` of the prose not
    copied, block by block, its language is that of this prose read as one text (language ID
    by ``identifier``, default the process's shared one, weighed against the page's
    ``declared`` language: :func:`text_language`)."""
    source = as_source(prose_blocks(other) if isinstance(other, str) else other)
    own: Counter[str] = Counter()
    own_blocks = []
    copied = total = 0
    for block in blocks:
        total += len(block.text)
        if source.copies(block.text):
            copied += len(block.text)
        else:
            own_blocks.append(block.text)
            if block.lang:
                own[block.lang] += len(block.text)
    share = copied / total if total else 0.0
    kept = sum(own.values())
    if not kept:
        return OwnProse(UNDETERMINED, share)
    lang, chars = own.most_common(1)[0]
    if chars / kept > majority:
        return OwnProse(lang, share)
    # no language has most of it block by block: short blocks (a table of contents' one-line
    # entries) are often named wrongly one by one (a Danish index page: da 267 characters, de
    # 242, en 134, sv 84); the main language of its own prose read as one text, as the real
    # sites' gold judges a page
    if identifier is None:
        identifier = default_identifier()
    return OwnProse(text_language(" ".join(own_blocks), identifier, declared), share)


def check_pair_language(
    source_language: str | None,
    target_language: str | None,
    source_text: str,
    target_text: str,
    max_copied: float = MAX_COPIED_SHARE,
    *,
    source_blocks: Sequence[LanguageBlock] = (),
    target_blocks: Sequence[LanguageBlock] = (),
    declared: tuple[str | None, str | None] = (None, None),
) -> PairLanguageCheck:
    """Judge a pair from each side's identified language and their prose (blocks joined by
    :data:`BLOCK_SEPARATOR`). A mixed side (no language, its judged ``*_blocks`` given) is in
    the main language of its prose not copied from the other page, and the pair is ``copied``
    when half or more of that prose is (:func:`own_prose`, with the languages the site
    ``declared`` for the two pages)."""
    source_prose, target_prose = prose_blocks(source_text), prose_blocks(target_text)
    share = mutual_copied_share(source_prose, target_prose)
    mixed_copied = 0.0
    languages = []
    for language, blocks, other, claimed in (
        (source_language, source_blocks, target_prose, declared[0]),
        (target_language, target_blocks, source_prose, declared[1]),
    ):
        if language is None and blocks:
            prose = own_prose(blocks, SourceProse(other), declared=claimed)
            mixed_copied = max(mixed_copied, prose.copied_share)
            language = prose.lang
        languages.append(language or UNDETERMINED)
    src, tgt = languages
    if mixed_copied >= max_copied:
        verdict = PairLanguageVerdict.COPIED
    elif UNDETERMINED in (src, tgt):
        verdict = PairLanguageVerdict.UNDETERMINED
    elif same_language(src, tgt):
        verdict = PairLanguageVerdict.SAME_LANGUAGE
    elif share >= max_copied:
        verdict = PairLanguageVerdict.COPIED
    else:
        verdict = PairLanguageVerdict.BILINGUAL
    return PairLanguageCheck(verdict, src, tgt, max(share, mixed_copied))


def text_language(text: str, identifier: LanguageIdentifier, declared: str | None = None) -> str:
    """The language of a page's main text, or ``und`` (calibrated, see ``decide``); the
    ``declared`` one where the identifier cannot know it or names a close neighbour
    (:func:`~bilingual_spider.language.declared_language.resolve_language`)."""
    found = decide(identifier.identify(text), text, default_calibration())
    if found.undetermined:
        return UNDETERMINED
    resolved = resolve_language(
        found.lang, text, declared, identifier.knows, found.score, unsure_declared=True
    )
    return resolved.lang if resolved else UNDETERMINED


def check_pair_texts(
    source_text: str, target_text: str, identifier: LanguageIdentifier
) -> PairLanguageCheck:
    """:func:`check_pair_language` with both languages identified from the texts."""
    return check_pair_language(
        text_language(source_text, identifier),
        text_language(target_text, identifier),
        source_text,
        target_text,
    )
