"""difflib's ``SequenceMatcher`` for long sequences over a small alphabet: page shapes.

A page shape (:func:`~bilingual_spider.patterns.verification.page_shape`) is up to 3,000 tokens
of a few dozen kinds (tags, and one symbol for every text chunk). ``SequenceMatcher`` (no junk,
``autojunk`` off) finds each matching block by a longest-match search whose cost is, for every
token of the first sequence, the number of times it occurs in the second: for two shapes a
third of whose tokens are text chunks, the whole product of their lengths, in Python. On the
shapes of a PupSniffer crawl of the Apache manual (507 pairs, up to 3,000 tokens each) that was
10.7 s; :class:`ArraySequenceMatcher` finds the same blocks in 2.5 s.

It keeps difflib's algorithm and overrides only the longest-match search of a large range
(:data:`ArraySequenceMatcher.MIN_AREA` cells or more): the same dynamic programme, one row of
the first sequence at a time over the whole range of the second in numpy. It returns what
difflib returns: the longest match, the earliest in the first sequence, then the earliest in the
second (difflib keeps the first strictly longer run it meets, scanning rows in order and each
row left to right; ``argmax`` gives a row's first maximum). With no junk, difflib's extensions
of the match over junk and equal neighbours find nothing to add: a run the programme counted is
maximal.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from difflib import Match, SequenceMatcher

import numpy as np


class ArraySequenceMatcher(SequenceMatcher):
    """``SequenceMatcher(None, a, b, autojunk=False)``, its long searches in numpy."""

    MIN_AREA = 20_000
    """Ranges of fewer cells (first range's length times the second's) are searched by difflib:
    on the Apache manual's shapes, any threshold from 2,000 to 20,000 gave the same time."""

    def __init__(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> None:
        super().__init__(None, a, b, autojunk=False)
        codes: dict[Hashable, int] = {}
        self._a_codes = np.array([codes.setdefault(x, len(codes)) for x in a], dtype=np.int32)
        self._b_codes = np.array([codes.setdefault(x, len(codes)) for x in b], dtype=np.int32)

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> Match:
        ahi = len(self.a) if ahi is None else ahi
        bhi = len(self.b) if bhi is None else bhi
        if (ahi - alo) * (bhi - blo) < self.MIN_AREA:
            return super().find_longest_match(alo, ahi, blo, bhi)
        b_range = self._b_codes[blo:bhi]
        # run[j + 1]: the length of the common run ending at the row's token and b[blo + j]
        previous = np.zeros(bhi - blo + 1, dtype=np.int32)
        run = np.zeros_like(previous)
        occurs: dict[int, np.ndarray] = {}
        besti, bestj, bestsize = alo, blo, 0
        for i in range(alo, ahi):
            code = int(self._a_codes[i])
            where = occurs.get(code)
            if where is None:
                where = occurs[code] = b_range == code
            np.multiply(previous[:-1] + 1, where, out=run[1:])
            end = int(run.argmax())
            size = int(run[end])
            if size > bestsize:
                besti, bestj, bestsize = i - size + 1, blo + end - size, size
            previous, run = run, previous
        return Match(besti, bestj, bestsize)
