"""Pairs of pages whose URLs share their numbers and their shape, and nothing else: translated
slugs.

A site that translates its folder and file names (``/EN/publications/human-rights/
article-03.html``, ``/DE/publikationen/menschenrechte/artikel-03.html``, ``/RM/publicaziuns/
dretgs-umans/artitgel-03.html``) and links no page to its translation leaves PupSniffer's URL
patterns nothing to read: every unit differs, so no pattern of one or two units pairs them
(:mod:`.mining`). What a translation keeps of a URL is what it keeps of a text
(:func:`.verification.untranslatable_tokens`): its numbers (an article's, a chapter's, a news
item's id, a date) and its shape. So each URL is reduced to its *skeleton*: its path and query,
each run of words (letters, and the hyphens, dots and underscores between them) one ``*``, its
digits and the rest kept: ``/*/*/*/*-03.*``. Two pages of a site in two languages whose URLs have
one skeleton with a number in it are a candidate pair; a WordPress page whose name was taken
(``freedom-2``: its slug and ``-2``) has its skeleton without that too. A skeleton a few pages
of a language share (a date: a month's documents) makes each of them a candidate with each of
the other language's, and of a page's candidates in a language the best verified holds
(:func:`.crawl_round._best_attested`); a skeleton more pages share makes none. The content
verifier judges each pair as it judges any other (:func:`.crawl_round.judge_pair`); a page some
other method pairs with a page of that language is left to that method.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import combinations
from typing import Protocol
from urllib.parse import unquote, urlsplit

from bilingual_spider.language.codes import same_language
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.pairing import UrlPair
from bilingual_spider.patterns.units import site_of

NUMBERED = "numbered"
"""The method of a pair of pages whose URLs share their skeleton (:func:`numbered_pairs`)."""
NUMBERED_CREDIBILITY = 0.25
"""The credibility of a numbered pair: under a declaration's (a page says so) and a credible
pattern's; in a conflict, content decides (:func:`.declarations.evidence`)."""

MAX_SHARING = 3
"""Pages of one language sharing a skeleton beyond which it pairs none: each candidate pair is
verified, a group of n in each language n * n times."""

_WORDS = re.compile(r"[^\W\d_]+(?:[-_.+~ ]+[^\W\d_]+)*")
_NAME_TAKEN = re.compile(r"\*-\d(?:\.\*)?(?=/?$)")
"""WordPress's ``-2`` after a slug whose name another page has (``freedom-2.html``)."""


class LanguagePage(Protocol):
    """What :func:`numbered_pairs` needs of a fetched page (``crawl_round.PageRecord``)."""

    @property
    def language(self) -> str | None: ...
    @property
    def mixed(self) -> bool: ...


@lru_cache(maxsize=65536)
def url_skeleton(url: str) -> str | None:
    """The URL's path and query, each run of words one ``*`` (``/en/news/10234-rights-for-all``
    -> ``/*/*/10234-*``), None when no digit is left: a skeleton of words alone is every
    page's of that depth.

    >>> url_skeleton("http://x/EN/guide/article-03.html"), url_skeleton("http://x/de/a-b/")
    ('/*/*/*-03.*', None)
    """
    parts = urlsplit(url)
    text = unquote(parts.path) + (f"?{unquote(parts.query)}" if parts.query else "")
    skeleton = _WORDS.sub("*", text)
    return skeleton if any(char.isdigit() for char in skeleton) else None


def url_skeletons(url: str) -> tuple[str, ...]:
    """The URL's skeleton (:func:`url_skeleton`), and, of a slug WordPress numbered because its
    name was taken, the skeleton without that number if a number is left (``/*/*-7344/*-2`` and
    ``/*/*-7344/*``).

    >>> url_skeletons("http://x/en/p-7344/freedom-2.html"), url_skeletons("http://x/en/freedom-2")
    (('/*/*-7344/*-2.*', '/*/*-7344/*'), ('/*/*-2',))
    """
    skeleton = url_skeleton(url)
    if skeleton is None:
        return ()
    taken = _NAME_TAKEN.sub("*", skeleton)
    has_number = taken != skeleton and any(char.isdigit() for char in taken)
    return (skeleton, taken) if has_number else (skeleton,)


def numbered_pairs(
    pages: Mapping[str, LanguagePage], paired: Iterable[UrlPair] = ()
) -> list[UrlPair]:
    """The candidate pairs of fetched ``pages`` of one site in two languages whose URLs have one
    skeleton (:func:`url_skeleton`) that at most :data:`MAX_SHARING` pages of each language
    have; not those one of whose pages is in a pair of ``paired`` (judged, its languages
    known: another method's kept pairs, and the URL patterns' rejected ones, which place the
    page's translation elsewhere) with a page of the other's language."""
    partners: dict[str, list[str]] = defaultdict(list)
    for pair in paired:
        partners[pair.source].append(pair.target_language or "")
        partners[pair.target].append(pair.source_language or "")
    groups: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for url, page in pages.items():
        if page.language and not page.mixed:
            for skeleton in url_skeletons(url):
                groups[site_of(url), skeleton][page.language].append(url)
    pairs: dict[frozenset[str], UrlPair] = {}
    for by_language in groups.values():
        few = sorted(
            (lang, url)
            for lang, urls in by_language.items()
            if len(urls) <= MAX_SHARING
            for url in urls
        )
        for (lang_a, url_a), (lang_b, url_b) in combinations(few, 2):
            if same_language(lang_a, lang_b) or any(
                same_language(lang, other)
                for url, other in ((url_a, lang_b), (url_b, lang_a))
                for lang in partners.get(url, ())
            ):
                continue
            pattern = PairingPattern.of(lang_a, lang_b)
            source, target = (url_a, url_b) if pattern.first == lang_a else (url_b, url_a)
            credibility = NUMBERED_CREDIBILITY
            pairs.setdefault(
                frozenset((source, target)),
                UrlPair(source, target, pattern, credibility, credibility, NUMBERED),
            )
    return list(pairs.values())
