"""Is a URL pair really two languages? The language check of a candidate pair.

The paper called a page English when over half of its characters were Latin letters; 80% of its
false pairs came from that test (section 6.1). Here each side's language comes from the project's
language identification (``language/identification.py``, ``language/page_language.py``), for
any languages, and a pair is rejected when:

- its two sides are in the same language (``en`` and ``en-GB``; ``zh-Hans`` and ``zh-Hant`` are
  different: the project treats the two scripts as two targets);
- either side's language is undetermined;
- the "translation" is mostly the source text: most of the shorter text's character 5-grams are
  found in the other (a page served untranslated under the other language's URL).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import (
    UNDETERMINED,
    LanguageIdentifier,
    decide,
    default_calibration,
)
from bilingual_spider.patterns.resemblance import containment, fingerprint

MAX_COPIED_SHARE = 0.5
"""A translation sharing more than this share of its 5-grams with the source is a copy."""


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
    """Share of the shorter text's 5-grams found in the other text."""

    @property
    def accepted(self) -> bool:
        return self.verdict is PairLanguageVerdict.BILINGUAL


def copied_share(source_text: str, target_text: str) -> float:
    """How much of the shorter text is found in the longer one (character 5-grams)."""
    a, b = fingerprint(source_text), fingerprint(target_text)
    part, whole = (a, b) if len(a) <= len(b) else (b, a)
    return containment(part, whole)


def check_pair_language(
    source_language: str | None,
    target_language: str | None,
    source_text: str,
    target_text: str,
    max_copied: float = MAX_COPIED_SHARE,
) -> PairLanguageCheck:
    """Judge a pair from each side's identified language and their texts."""
    src, tgt = source_language or UNDETERMINED, target_language or UNDETERMINED
    share = copied_share(source_text, target_text)
    if UNDETERMINED in (src, tgt):
        verdict = PairLanguageVerdict.UNDETERMINED
    elif same_language(src, tgt):
        verdict = PairLanguageVerdict.SAME_LANGUAGE
    elif share > max_copied:
        verdict = PairLanguageVerdict.COPIED
    else:
        verdict = PairLanguageVerdict.BILINGUAL
    return PairLanguageCheck(verdict, src, tgt, share)


def text_language(text: str, identifier: LanguageIdentifier) -> str:
    """The language of a page's main text, or ``und`` (calibrated, see ``decide``)."""
    return decide(identifier.identify(text), text, default_calibration()).lang


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
