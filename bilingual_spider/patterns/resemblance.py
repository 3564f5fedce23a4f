"""How much two page texts are the same text: shingle fingerprints (Broder 1997).

Used to tell a generated URL that answers with the site's not-found page or with the page we
came from (section 4.3), and a "translation" that is mostly the source text. A fingerprint is the
set of hashed character n-grams of the whitespace-collapsed, case-folded text, so it works for
any script (Chinese has no spaces) and can be kept instead of the text. Shingles are hashed with
CRC-32, which is the same in every process (Python's ``hash`` of a string is not), so a
fingerprint can be stored and shared between workers.
"""

from __future__ import annotations

from functools import lru_cache
from zlib import crc32

SHINGLE_CHARS = 5
MAX_TEXT_CHARS = 50_000
"""Only the start of a long text is fingerprinted."""

FINGERPRINT_CACHE = 64
"""Fingerprints kept by text: the pair verifier fingerprints both pages of every candidate
pair at a crawl's end, and a page is in many (a site's index, in every language)."""

Fingerprint = frozenset[int]


@lru_cache(maxsize=FINGERPRINT_CACHE)
def fingerprint(text: str, n: int = SHINGLE_CHARS) -> Fingerprint:
    """The hashed character ``n``-grams of ``text`` (the whole text when shorter than ``n``)."""
    flat = " ".join(text[:MAX_TEXT_CHARS].casefold().split())
    if len(flat) <= n:
        return frozenset({crc32(flat.encode())}) if flat else frozenset()
    return frozenset(crc32(flat[i : i + n].encode()) for i in range(len(flat) - n + 1))


def resemblance(a: Fingerprint, b: Fingerprint) -> float:
    """Jaccard resemblance |a & b| / |a | b|; 0 when either is empty."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def containment(part: Fingerprint, whole: Fingerprint) -> float:
    """Share of ``part``'s shingles found in ``whole``; 0 when ``part`` is empty."""
    if not part:
        return 0.0
    return len(part & whole) / len(part)
