"""Which pages of a referring host to fetch when a backlink names only the host: those most
likely to hold its links to other sites. Plain Python."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from bilingual_spider.search.values import FoundLink

LINK_LIST_WORDS = frozenset(
    {"link", "links", "directory", "directories", "resources", "partners", "sites", "webring"}
)
"""URL words of pages that list other sites: "link" and "directory" are the Backlink
classifier's most frequent features in Barbosa et al. (2011, sec. 2.3)."""


def backlink_candidates(captures: Iterable[FoundLink], count: int) -> list[FoundLink]:
    """The ``count`` pages of a referring host most likely to hold its links to other sites:
    pages whose URL names a link list first, then the home page and the pages nearest the root
    (fewest path segments, then the shortest URL); one per URL, successful captures only."""

    def rank(link: FoundLink) -> tuple[bool, int, int, str]:
        parts = urlsplit(link.url)
        segments = [s for s in parts.path.split("/") if s]
        words = set(re.split(r"[^a-z]+", f"{parts.path} {parts.query}".lower()))
        depth = len(segments) + (1 if parts.query else 0)
        return (not (words & LINK_LIST_WORDS), depth, len(link.url), link.url)

    unique = {link.url: link for link in captures if link.status in (None, 200)}
    return sorted(unique.values(), key=rank)[:count]
