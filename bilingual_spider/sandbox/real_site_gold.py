"""Gold parallel pairs of a real site, derived from its files: its source-language page x every
other-language file of the same page, unless the translation is a symlink to the source file,
half or more of its prose is the source page's, or its own prose (not copied) is not in its
language (:func:`derive_gold`, :func:`judge_translation`)."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bilingual_spider.language.codes import same_language as codes_same_language
from bilingual_spider.patterns.copied_prose import SourceProse, as_source, copied_prose_share
from bilingual_spider.sandbox.page_text import prose_segments
from bilingual_spider.sandbox.real_site import PageFile, RealSite, group_by_page, is_untranslated

if TYPE_CHECKING:
    from bilingual_spider.language.identification import LanguageIdentifier

logger = logging.getLogger(__name__)

DROP_REASONS = (
    "untranslated_symlink",  # (a) a symlink to, or the same file as, the English page
    "copied",  # (b) half or more of its prose is the English page's (copied_prose_share)
    "wrong_language",  # (c) language ID of its own (not copied) prose is not the file's language
    "source_not_english",  # the English page itself is not identified as English
    "source_not_served",  # the site's entry page is served at the English page's URL
    "no_source_page",  # a translated page with no English page of the same name
    "other_section",  # it holds another section than the English page of its name (by hand)
)


MIN_TRANSLATED_SHARE = 0.5
"""A language counts as one the site is written in when at least this share of its own (not
symlinked) files are translations (pass :func:`judge_translation`); a site is *bilingual* when
one language besides the source counts (debian-policy's Japanese, mostly English, does not)."""


@dataclass(frozen=True)
class GoldPair:
    """Two URLs of the sandbox web that translate each other."""

    source_url: str
    target_url: str
    source_lang: str
    target_lang: str
    site: str

    def tsv(self) -> str:
        return "\t".join(
            (self.source_url, self.target_url, self.source_lang, self.target_lang, self.site)
        )


@dataclass
class SiteGold:
    """What :func:`derive_gold` found for one site."""

    pairs: list[GoldPair] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    languages: list[str] = field(default_factory=list)
    """Languages with at least one real page: the source and every target of a gold pair."""
    unjudged: list[list[str]] = field(default_factory=list)
    """The other-language URLs of each page whose source page is not in the source language."""
    judged: Counter[str] = field(default_factory=Counter)
    """Per other language: its own (not symlinked) files judged against their source page."""
    unserved: list[GoldPair] = field(default_factory=list)
    """Translations of a source page not served at its URL (``source_not_served``): no pair
    of the gold, but translations of the site."""

    def translated_languages(self) -> list[str]:
        """The other languages whose judged files are mostly translations
        (:data:`MIN_TRANSLATED_SHARE`)."""
        kept = Counter(pair.target_lang for pair in [*self.pairs, *self.unserved])
        return sorted(
            lang for lang, n in self.judged.items() if kept[lang] >= MIN_TRANSLATED_SHARE * n
        )


def same_language(found: str | None, expected: str) -> bool:
    """Whether language ID's ``found`` agrees with a file's ``expected`` language. lid.176 has no
    regional varieties (``pt`` for ``pt-BR``), so bases are compared; but it (with
    :func:`~bilingual_spider.language.identification.chinese_script`) tells Simplified from
    Traditional Chinese, so those must agree unless the file says only ``zh``
    (:func:`bilingual_spider.language.codes.same_language`)."""
    return found is not None and codes_same_language(found, expected)


def lid_codes(identifier: LanguageIdentifier) -> Callable[[list[str]], list[str | None]]:
    """Adapt a LanguageIdentifier to "texts in, one code (or None) per text out"."""

    def identify(texts: list[str]) -> list[str | None]:
        return [guesses[0].lang if guesses else None for guesses in identifier.identify_many(texts)]

    return identify


class PageTextCache:
    """Prose blocks of files (:func:`prose_segments`), read and parsed once per real file."""

    def __init__(self) -> None:
        self._segments: dict[tuple[int, int], list[str]] = {}

    def segments(self, page_file: PageFile) -> list[str]:
        if page_file.file_id not in self._segments:
            self._segments[page_file.file_id] = prose_segments(page_file.path.read_bytes())
        return self._segments[page_file.file_id]


def derive_gold(
    site: RealSite,
    files: Sequence[PageFile],
    identifier: LanguageIdentifier | None = None,
    shadowed: Collection[str] = (),
) -> SiteGold:
    """Gold pairs of a site: its source-language page x every other-language file of the same
    page, dropping (and counting by reason, see :data:`DROP_REASONS`) untranslated symlinks,
    files whose text is not in their own language, and translations that are mostly English.
    ``shadowed``: files not served at their URL (the site's entry page is,
    :func:`~bilingual_spider.sandbox.entry_pages.site_dirs`); a source page among them is
    judged with its translations (they say whether the site is bilingual), but its pairs are
    dropped (``source_not_served``) and its translations' pairs are unjudged: no crawl can
    fetch that page.

    ``identifier`` defaults to the process's shared lid.176 identifier. A monolingual site has
    no pairs and drops nothing.
    """
    gold = SiteGold(dropped=Counter(dict.fromkeys(DROP_REASONS, 0)))
    if site.kind != "multilingual":
        gold.languages = [site.source_lang] if files else []
        return gold
    if identifier is None:
        from bilingual_spider.language.identification import default_identifier

        identifier = default_identifier()
    identify = lid_codes(identifier)
    texts = PageTextCache()
    languages = set()
    for page, by_lang in sorted(group_by_page(files).items()):
        source = by_lang.get(site.source_lang)
        others = [f for lang, f in sorted(by_lang.items()) if lang != site.source_lang]
        if source is None:
            gold.dropped["no_source_page"] += len(others)
            continue
        languages.add(site.source_lang)
        if not others:  # an English-only page: nothing to pair or judge
            continue
        source_segments = texts.segments(source)
        if not same_language(_main_language(source_segments, identify), site.source_lang):
            logger.info("%s: %s is not identified as %s", site.name, page, site.source_lang)
            gold.dropped["source_not_english"] += len(others)
            gold.unjudged.append([site.url(f.relative) for f in others])
            continue
        source_prose = SourceProse(source_segments)
        elsewhere = [site.url(f.relative) for f in others if f.relative in site.other_sections]
        if len(elsewhere) > 1:  # sections of other editions: the gold says nothing of their pairs
            gold.unjudged.append(elsewhere)
        for target in others:
            if is_untranslated(target, source):
                reason: str | None = "untranslated_symlink"
            elif target.relative in site.other_sections:
                reason = "other_section"
            else:
                gold.judged[target.lang] += 1
                reason = judge_translation(
                    target.lang, texts.segments(target), source_prose, identify, site.source_lang
                )
            if reason:
                gold.dropped[reason] += 1
                logger.debug("%s: %s dropped (%s)", site.name, target.relative, reason)
                continue
            languages.add(target.lang)
            gold.pairs.append(
                GoldPair(
                    site.url(source.relative),
                    site.url(target.relative),
                    source.lang,
                    target.lang,
                    site.name,
                )
            )
    unserved = {site.url(f) for f in shadowed}
    gold.unserved = [p for p in gold.pairs if p.source_url in unserved]
    for source_url in dict.fromkeys(p.source_url for p in gold.unserved):
        gold.unjudged.append([p.target_url for p in gold.unserved if p.source_url == source_url])
    gold.dropped["source_not_served"] += len(gold.unserved)
    gold.pairs = [p for p in gold.pairs if p.source_url not in unserved]
    gold.languages = sorted(languages)
    return gold


def judge_translation(
    lang: str,
    segments: Sequence[str],
    source_segments: SourceProse | Iterable[str],
    identify: Callable[[list[str]], list[str | None]],
    source_lang: str = "en",
) -> str | None:
    """Why a file in ``lang`` with text blocks ``segments`` is no translation of the source page
    with blocks ``source_segments`` (the judging rule of :mod:`~bilingual_spider.patterns.
    pair_language`): ``"copied"`` when half or more of its prose is the source page's
    (:func:`copied_prose_share` >= :data:`~bilingual_spider.patterns.pair_language.
    MAX_COPIED_SHARE`, b); ``"wrong_language"`` when language ID of its own prose, the blocks
    not copied from the source page, disagrees with ``lang`` (c); None when it is a translation:
    a translated manual that keeps an untranslated appendix, code or UI strings, less than half
    of it, is one. ``source_lang``: the source page's language (its blocks are what is copied)."""
    from bilingual_spider.patterns.pair_language import MAX_COPIED_SHARE  # language ID: slow

    source = as_source(source_segments)
    if copied_prose_share(segments, source) >= MAX_COPIED_SHARE:
        return "copied"
    own = [s for s in segments if not source.copies(s)]
    if not same_language(_main_language(own, identify), lang):
        return "wrong_language"
    return None


def _main_language(
    segments: Sequence[str], identify: Callable[[list[str]], list[str | None]]
) -> str | None:
    return identify([" ".join(segments)])[0] if segments else None


def is_bilingual(site: RealSite, gold: SiteGold) -> bool:
    """A multilingual site with a language besides the source that its files are mostly
    translated into (:meth:`SiteGold.translated_languages`): what a site detector should say."""
    return site.kind == "multilingual" and bool(gold.translated_languages())
