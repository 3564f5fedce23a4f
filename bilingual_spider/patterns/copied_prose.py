"""How much of a page's prose is copied from another page: the judging rule of issue 31, one
measure for the crawl's copy check (:mod:`.pair_language`) and the real sites' gold
(``sandbox/real_site_gold.py``).

The unit is the text block (paragraph, list item, cell, heading), not the sentence or the
character shingle: translations made with po4a/gettext translate one string per block, and an
untranslated string is left as the whole English block, but with its cross-references and
entities translated (``see 4.1 „Oficiální Debian …“``). So a block is copied when it is a block
of the other page verbatim, or when half or more of its word 3-grams are the other page's
(:meth:`SourceProse.copies`); the share of such blocks, weighted by their letters, is the share
of the page left untranslated (:func:`copied_prose_share`). Blocks of fewer than
:data:`MIN_SEGMENT_LETTERS` letters are left out: product names, menu words and commands are
the same in every language.

Words are runs of letters and digits, except in the scripts written without spaces (Chinese,
Japanese, Thai...), whose every character is a word: ``8.2.1. Debian パッケージングシステム``
is eight words of which three are shared with ``8.2.1. The Debian Packaging System``, not five
of which three are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

WORD_NGRAM = 3
COPIED_BLOCK_SHARE = 0.5
"""A block is copied when this share of its word 3-grams, or more, are the other page's."""
MIN_SEGMENT_LETTERS = 20
"""Blocks with fewer letters are left out of the copied share."""
NGRAM_CACHE = 4096
"""Blocks whose n-grams are kept (:func:`word_ngrams`): a page is judged in several candidate
pairs, each way, one after the other."""
_UNSPACED = (
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff"  # Khmer
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ideographs
)
_WORDS = re.compile(rf"[{_UNSPACED}]|[^\W{_UNSPACED}]+")
_NOT_LETTERS = re.compile(r"[\W\d_]+")


def letters(text: str) -> int:
    """Number of letters (of any script) in ``text``."""
    return len(_NOT_LETTERS.sub("", text))


def words(text: str) -> list[str]:
    """The lower-cased words of ``text``: runs of letters and digits, each character of a
    script written without spaces on its own."""
    return [w.lower() for w in _WORDS.findall(text)]


@lru_cache(maxsize=NGRAM_CACHE)
def word_ngrams(text: str, n: int = WORD_NGRAM) -> frozenset[tuple[str, ...]]:
    """The lower-cased word ``n``-grams of ``text`` (:func:`words`); fewer words give none."""
    found = words(text)
    return frozenset(tuple(found[i : i + n]) for i in range(len(found) - n + 1))


class SourceProse:
    """The prose of the page copied from (the source), to tell which blocks of another page
    are copies of it."""

    def __init__(self, blocks: Iterable[str]) -> None:
        self.blocks = set(blocks)
        self.ngrams = {g for block in self.blocks for g in word_ngrams(block)}

    def copies(self, block: str) -> bool:
        """Whether ``block`` is the source's: one of its blocks verbatim, or a block half or
        more of whose word 3-grams are the source's (an untranslated paragraph whose
        cross-reference or product name the translator's tools translated)."""
        if block in self.blocks:
            return True
        ngrams = word_ngrams(block)
        shared = sum(1 for g in ngrams if g in self.ngrams)
        return bool(ngrams) and shared >= COPIED_BLOCK_SHARE * len(ngrams)


def as_source(source: SourceProse | Iterable[str]) -> SourceProse:
    return source if isinstance(source, SourceProse) else SourceProse(source)


def copied_prose_share(blocks: Sequence[str], source: SourceProse | Iterable[str]) -> float:
    """Share of a page's prose ``blocks`` copied from the ``source`` page's prose, by letters.

    Parameters
    ----------
    blocks:
        The page's prose blocks.
    source:
        The other page's prose (:class:`SourceProse`, or its blocks).

    Returns
    -------
    float in [0, 1]; 0 for a page with no block of :data:`MIN_SEGMENT_LETTERS` letters.
    """
    prose = as_source(source)
    weighted = [(b, n) for b in blocks if (n := letters(b)) >= MIN_SEGMENT_LETTERS]
    total = sum(n for _, n in weighted)
    return sum(n for b, n in weighted if prose.copies(b)) / total if total else 0.0


def mutual_copied_share(first: Sequence[str], second: Sequence[str]) -> float:
    """The larger of the two pages' prose shares copied from the other
    (:func:`copied_prose_share` each way): a pair is a translation when each page has less
    than half of its prose copied from the other."""
    return max(
        copied_prose_share(first, SourceProse(second)),
        copied_prose_share(second, SourceProse(first)),
    )
