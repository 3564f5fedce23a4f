"""What a PupSniffer crawl has seen, and the pairs one round of it gives (Zhang et al. 2018,
sections 4.1-4.4 and 5), as plain values: the ``pupsniffer`` spider is its Scrapy adapter.

A round crawls its sites within a page budget each, then:

1. mines pairing patterns over every page seen so far (so global credibility, eq. 4, grows with
   the crawl) and discovers pairs by local credibility and weak-pattern rescue (4.1, 4.2);
2. judges each pair: the two pages' languages from language ID must differ and the
   "translation" must not be mostly the source text (:mod:`.pair_language`), the two pages
   must share links or pattern-matched links (the non-bilingual pair filter, eq. 7-9), and
   their content must be a translation's (:mod:`.verification`: STRAND's alignment, length
   ratio, shared tokens, copy share);
3. generates deep-page candidates for the pages left unpaired (4.3), which the adapter checks
   over HTTP and judges with :func:`~.deep_pages.judge_candidate`;
4. ranks the external sites the crawled sites link to by WPR (eq. 6) for the next round (4.4).
"""

from __future__ import annotations

from collections import ChainMap, Counter
from collections.abc import Callable, Collection, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from urllib.parse import urlsplit

from bilingual_spider.language.codes import (
    base_language,
    normalize_language_code,
    same_language,
    script_subtag,
)
from bilingual_spider.language.declared_language import (
    BY_LINKS,
    Signal,
    language_script,
    names_the_variety,
    resolve_language,
    script_of,
)
from bilingual_spider.language.page_language import (
    LanguageBlock,
    language_of_blocks,
    resolved_blocks,
)
from bilingual_spider.patterns.alternates import (
    Alternate,
    alternate_pairs,
    as_declared,
    declared_versions,
    linked_languages,
)
from bilingual_spider.patterns.copied_prose import mutual_copied_share
from bilingual_spider.patterns.credibility import Credibility
from bilingual_spider.patterns.declarations import (
    BORDERLINE_PROBABILITY,
    KEPT,
    NOT_TRANSLATION,
    DeclarationTally,
    evidence,
    is_declared,
    tally_declarations,
    with_site_credibility,
)
from bilingual_spider.patterns.deep_pages import (
    DEEP_TOP_PATTERNS,
    DeepCandidate,
    deep_candidates,
    is_same_page,
)
from bilingual_spider.patterns.discovery import ExternalSite, rank_external_sites
from bilingual_spider.patterns.groups import (
    TranslationGroup,
    build_groups,
    implied_pair,
    url_difference,
)
from bilingual_spider.patterns.listed import LISTED, MAX_LEVELS, MAX_SHIFT, listed_pairs
from bilingual_spider.patterns.markers import language_of_unit
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.numbered import NUMBERED, numbered_pairs
from bilingual_spider.patterns.pair_language import (
    MAX_COPIED_SHARE,
    MIN_LANGUAGE_SHARE,
    PairLanguageVerdict,
    check_pair_language,
    prose_blocks,
)
from bilingual_spider.patterns.pairing import LOCAL, PairingConfig, UrlPair
from bilingual_spider.patterns.similarity import bilingual_similarity, keep_pair, unit_weights
from bilingual_spider.patterns.units import (
    FILE,
    HOST,
    Unit,
    country_host,
    host_language,
    site_of,
    split_url,
)
from bilingual_spider.patterns.url_list import mine_url_list
from bilingual_spider.patterns.verification import PageContent, PairVerifier, content_signals

MAX_TEXT_CHARS = 20_000
"""Main text kept per page: enough for the copy check; memory stays bounded per page."""
MAX_LINKS = 500
"""Links kept per page for the similarity filter."""
MAX_MARKED_FILE_UNITS = 3
"""Words of a file name beyond which a language code among them is a word, not a marker, but
where a dot or an underscore joins it (``index-de.html``, ``b.fr.html``,
``getting-started.fr.html`` mark a language; a slug's words do not: :func:`marking_units`)."""
SIMILARITY_PATTERNS = 30
"""Top global patterns that count in Sim_Pattern (the paper's experiment: 30, C(k) = 1)."""
NO_SHARED_LINKS = "no_shared_links"
NOT_AS_MARKED = "not_as_marked"
"""A page whose identified language is not the one its URL unit names."""
NOT_AS_DECLARED = "not_as_declared"
"""A page its own ``<html lang>`` declares in another language than it is read in, on a site
whose pages declare several (no template's): an untranslated fallback (an English copy that
says ``xml:lang="lua"``), no translation of any page (:func:`own_word_overruled`)."""
DECLARED_APART = "declared_apart"
"""The signal of a page a version of its document shows to be in its declared language
(:func:`versions_apart`)."""
NOT_AS_NAMED = "not_as_named"
"""A page whose URL names no language, identified in none of those the links naming it declare:
an untranslated fallback (an English copy at the URL a list names for Assyrian), no translation
of any page (:func:`as_named`)."""
SUPERSEDED = "superseded"
"""A pair one of whose pages has a better attested partner in the other's language
(:func:`.declarations.evidence`): a pattern pair against the page's verified hreflang, or a
wrong hreflang against the pattern's pair."""
COPY_OF_CANONICAL = "copy_of_canonical"
"""A page that names as its canonical page another page of its language the crawl fetched, and
copies half or more of its prose (a print version, a mobile copy): its pairs are that page's."""
COPY_OF_ANCESTOR = "copy_of_ancestor"
"""A pair one of whose pages is a page above it in its language again, fetched too (its
language's home, its section's index: :func:`copies_ancestor`), and the other not: what a
missing translation's URL serves instead of saying it is missing (a soft 404). Two pages that
are both their homes again (a site whose homes show its first document) may pair."""
COPY_OF_ANOTHER = "copy_of_another"
"""A page found, in another pair of the round, to be half or more a copy of a page in one
language (:func:`copy_side`): mostly untranslated, it is no translation in any pair."""
PURE_LANGUAGE_SHARE = 0.9
"""A page with this share of its main text in its language, or more, is written in one
language: a page half copied from it is the copy, not it (:func:`copy_side`)."""
COPY_LANGUAGE_SHARE = 0.8
"""The copy has at most this share of its text in its language: a fifth of it or more is in
another (a page 93 % Danish judged copied is a translation with a shared list, not a copy)."""
MAX_APART_COPIED_SHARE = 0.1
"""A page read in its neighbour's language is confirmed in its declared one by a version it
copies at most this share of (:func:`versions_apart`). The fourth held-out set's 44 regional
pages share 0.0 of their prose with their national versions (untranslated chrome and all),
its fallbacks 0.94-1.0; Debian's Spanish ``mod/core.html`` of Apache, translated in part and
read as English, 0.39 of its first 20,000 characters with the English page."""
PAGE_NOT_KEPT = "page_not_kept"
"""A group's page whose record is gone (a lost store): its implied pairs cannot be judged."""


@dataclass(frozen=True)
class PageRecord:
    """One fetched page as pair discovery needs it."""

    url: str
    language: str | None
    """Language of its main text from language ID; ``None``: undetermined."""
    text: str = ""
    links: tuple[str, ...] = ()
    """Its links, each once, in the page's order (a translated index lists its documents in the
    order its original does: :mod:`.listed`)."""
    content: PageContent | None = None
    """Its shape and own text for content verification (:mod:`.verification`); ``None`` when
    not kept."""
    alternates: tuple[Alternate, ...] = ()
    """The translations the page names itself (:mod:`.alternates`)."""
    mixed_blocks: tuple[LanguageBlock, ...] = ()
    """A mixed page's judged text blocks with their languages (no language has
    :data:`~.pair_language.MIN_LANGUAGE_SHARE` of its text: a translation that keeps an
    untranslated appendix, code, UI strings); empty for any other page. Each pair decides such
    a page's language (:func:`~.pair_language.own_prose`); its ``language`` is only the one its
    URL names (:func:`marked_language`), for mining."""
    language_share: float = 1.0
    """The share of its main text in its main language (language ID's, by blocks); 1.0 when
    not known."""
    prose: str = ""
    """What the copy check compares (:mod:`.pair_language`, :mod:`.copied_prose`): its main
    text's blocks without code and navigation, joined by
    :data:`~.pair_language.BLOCK_SEPARATOR`; empty: ``text``."""

    language_signal: str = "identifier"
    """Which signal decided ``language``: the identifier, or the language the site declares
    (``declared_close``, ``declared_unknown``: :mod:`~bilingual_spider.language.declared_language`
    )."""
    html_lang: str | None = None
    """The language its ``<html lang>`` (or ``xml:lang``) declares; None when none."""
    canonical: str | None = None
    """The page it names as the one it copies (``<link rel="canonical">`` to another URL: a
    print version, a mobile copy); None when it names none."""

    @property
    def copy_text(self) -> str:
        return self.prose or self.text

    @property
    def mixed(self) -> bool:
        return bool(self.mixed_blocks)

    @classmethod
    def of(
        cls,
        url: str,
        language: str | None,
        text: str,
        links: Iterable[str],
        content: PageContent | None = None,
        alternates: Iterable[Alternate] = (),
        mixed_blocks: Iterable[LanguageBlock] = (),
        language_share: float = 1.0,
        prose: str = "",
        language_signal: str = "identifier",
        html_lang: str | None = None,
        canonical: str | None = None,
    ) -> PageRecord:
        """A record with its texts and links cut to :data:`MAX_TEXT_CHARS` and
        :data:`MAX_LINKS` (a mixed page's blocks too, to the first :data:`MAX_TEXT_CHARS`
        characters)."""
        kept: list[str] = []
        for link in dict.fromkeys(links):
            if len(kept) == MAX_LINKS:
                break
            kept.append(link)
        if content is not None:
            content = replace(content, text=content.text[:MAX_TEXT_CHARS])
        blocks: list[LanguageBlock] = []
        chars = 0
        for block in mixed_blocks:
            if chars >= MAX_TEXT_CHARS:
                break
            blocks.append(block)
            chars += len(block.text)
        return cls(
            url,
            language,
            text[:MAX_TEXT_CHARS],
            tuple(kept),
            content,
            tuple(alternates),
            tuple(blocks),
            language_share,
            prose[:MAX_TEXT_CHARS],
            language_signal,
            normalize_language_code(html_lang) if html_lang else None,
            canonical,
        )


@dataclass
class CrawledSites:
    """Every page fetched so far, by site, and which external sites each site links to."""

    pages: MutableMapping[str, PageRecord] = field(default_factory=dict)
    site_pages: dict[str, list[str]] = field(default_factory=dict)
    external: dict[str, dict[str, str]] = field(default_factory=dict)
    """site -> external site -> the first URL of it seen linked."""

    def add(self, record: PageRecord, external_urls: Iterable[str] = ()) -> None:
        site = site_of(record.url)
        if record.url not in self.pages:
            self.site_pages.setdefault(site, []).append(record.url)
        self.pages[record.url] = record
        targets = self.external.setdefault(site, {})
        for url in external_urls:
            other = site_of(url)
            if other and other != site:
                targets.setdefault(other, url)

    def site_graph(self) -> dict[str, list[str]]:
        return {site: list(targets) for site, targets in self.external.items()}


@dataclass(frozen=True)
class RoundPairs:
    """The pairs of a round and what was left out, with the credibility tables."""

    pairs: tuple[UrlPair, ...]
    rejected: Mapping[str, int]
    """Pairs dropped by reason: ``same_language``, ``copied``, ``undetermined``,
    ``not_as_marked``, ``not_as_named``, ``not_as_declared``, ``no_shared_links``,
    ``copy_of_canonical``, ``copy_of_ancestor``,
    ``not_translation``."""
    credibility: Credibility
    declarations: Mapping[str, DeclarationTally] = field(default_factory=dict)
    """Each site's declared pairs: judged, verified, rescued, overruled (:mod:`.declarations`)."""
    linked: tuple[tuple[str, str, str], ...] = ()
    """``(url, language, signal)`` of the pages whose language the links naming them decided
    (:func:`linked_language_pages`), for the round's groups (:func:`relabelled`); a mixed
    page's blocks so read are not kept: in a group it is read as fetched."""


LanguageKnown = Callable[[str], bool]
"""Whether the identifier has a label for a language (``LanguageIdentifier.knows``)."""


def page_declaration(
    url: str, page: PageRecord, named: Mapping[str, set[str]], declaring: Collection[str]
) -> tuple[str | None, bool]:
    """The language the site declares for a page, and whether the links naming it declared it:
    its URL's, else the one every link naming it declares (``named``,
    :func:`.alternates.linked_languages`), or naming the closest directory above it that links
    name (:func:`named_above`), else its own ``<html lang>`` on a site whose pages declare
    several (``declaring``, :func:`sites_declaring_several`); None when none does."""
    declared = url_language(url, page.html_lang)
    if declared is not None:
        return in_declared_script(declared, page.html_lang), False
    languages = named.get(url) or named_above(url, named)
    if len({base_language(lang) for lang in languages}) == 1:
        return min(languages), True
    if page.html_lang and site_of(url) in declaring:
        return page.html_lang, False
    return None, False


def named_above(url: str, named: Mapping[str, set[str]]) -> set[str]:
    """The languages the links naming the closest directory above ``url`` declare (``named``),
    the site's root apart: a language's section whose URL names no language (``/gag/``, which
    only the home's switcher names, "Gagauz"; ``/francais/``) is in that language, each page
    below it too, however few links name them.

    >>> named_above("http://x.md/gag/kultura/miras/a.html", {"http://x.md/gag/": {"gag"}})
    {'gag'}
    >>> named_above("http://x.md/a/b.html", {"http://x.md/": {"ro"}})
    set()
    """
    parts = urlsplit(url)
    directories = parts.path.split("/")[1:-1]
    for depth in range(len(directories), 0, -1):
        above = f"{parts.scheme}://{parts.netloc}/{'/'.join(directories[:depth])}/"
        if above != url and above in named:
            return named[above]
    return set()


def languages_of_sites(
    pages: Mapping[str, PageRecord], named: Mapping[str, set[str]], declaring: Collection[str]
) -> dict[str, set[str]]:
    """Site -> the languages it has pages in: each page's declared language
    (:func:`page_declaration`), else the one it is read in; and every language the links to
    its pages name, fetched or not (a switcher's ``pt-br`` before any Portuguese page is)."""
    found: dict[str, set[str]] = {}
    for url, page in pages.items():
        declared, _ = page_declaration(url, page, named, declaring)
        language = declared or page.language
        if language is not None:
            found.setdefault(site_of(url), set()).add(base_language(language))
    for url, languages in named.items():
        found.setdefault(site_of(url), set()).update(base_language(lang) for lang in languages)
    return found


def linked_language_pages(
    pages: Mapping[str, PageRecord], knows: LanguageKnown | None = None
) -> dict[str, PageRecord]:
    """The pages whose language their site decides (issue 49), relabelled.

    A site that marks a page's language nowhere on the page (an opaque URL, a template's
    ``<html lang="en">`` on every page) still names it in the links to it: their ``hreflang``, a
    switcher's label (``Norsk bokmål``, ``རྫོང་ཁ``), a sitemap (:func:`.alternates.linked_languages`).
    When every link naming a page declares one language, that language is weighed against the
    page's as :func:`~bilingual_spider.language.declared_language.resolve_language` weighs a
    page's own declaration: it wins when it is a close neighbour of the page's language, or one
    the identifier does not know (``knows``; None: every language is known) whose script the
    prose is written in. The page's own word comes first: a page whose URL names its language
    (or whose ``<html lang>`` does, on a site whose pages declare several) is weighed again
    only where the identifier's guess is a language the site has no page in
    (:func:`languages_of_sites`): a stand-in, however sure of itself (Faroese read as
    Icelandic, Corsican as Italian), since a copy's language is one of the site's. A mixed
    page (each pair decides its language) has its blocks read so; when one language then has
    ``MIN_LANGUAGE_SHARE`` of them, it was mixed only as the identifier read it (Oromo read as
    Finnish, Dutch and Spanish stand-ins, block by block) and is a page of that language. The
    signal says what decided (``linked_close``, ``linked_unknown``, ``linked_on_site`` for the
    links; ``declared_unknown``, ``declared_on_site`` for the page's own word)."""
    known = knows or (lambda _: True)
    named = linked_languages(pages.values())
    declaring = sites_declaring_several(pages.values())
    offered = languages_of_sites(pages, named, declaring)
    declarations = {url: page_declaration(url, p, named, declaring) for url, p in pages.items()}
    varieties: dict[str, set[str]] = {}  # site -> the codes its pages declare (pt-PT, pt-BR)
    for url, (declared, _) in declarations.items():
        if declared is not None:
            varieties.setdefault(site_of(url), set()).add(declared)
    relabelled: dict[str, PageRecord] = {}
    for url, page in pages.items():
        declared, by_links = declarations[url]
        if declared is None:
            continue
        on_site = offered.get(site_of(url), set())
        if page.mixed and not by_links and known(declared):  # read so when fetched
            continue
        if page.mixed:  # its blocks, as a page its URL names is read (each pair decides)
            blocks = [
                block if block == before or not by_links
                else replace(block, signal=BY_LINKS[block.signal])
                for block, before in zip(
                    resolved_blocks(page.mixed_blocks, declared, known, on_site),
                    page.mixed_blocks,
                    strict=True,
                )
            ]  # fmt: skip
            if blocks == list(page.mixed_blocks):
                continue
            read = language_of_blocks(blocks)
            if not read.undetermined and read.score >= MIN_LANGUAGE_SHARE:
                # mixed only as the identifier read it: stand-ins for a language it lacks
                relabelled[url] = replace(
                    page, language=read.lang, mixed_blocks=(), language_share=read.score,
                    language_signal=str(read.signal),
                )  # fmt: skip
            else:
                relabelled[url] = replace(page, mixed_blocks=tuple(blocks))
            continue
        if page.language is not None and names_the_variety(
            page.language, declared, page.copy_text, varieties[site_of(url)]
        ):  # pt, declared pt-PT on a site whose pages declare pt-PT and pt-BR
            signal = Signal.LINKED_CLOSE if by_links else Signal.DECLARED_CLOSE
            relabelled[url] = replace(page, language=declared, language_signal=str(signal))
            continue
        if page.language is None or (not by_links and base_language(page.language) in on_site):
            continue
        resolved = resolve_language(page.language, page.copy_text, declared, known, None, on_site)
        if resolved is None or resolved.signal is Signal.IDENTIFIER:
            continue
        signal = BY_LINKS[resolved.signal] if by_links else resolved.signal
        relabelled[url] = replace(page, language=resolved.lang, language_signal=str(signal))
    return relabelled


def versions_apart(
    pages: Mapping[str, PageRecord], config: PairingConfig | None = None
) -> dict[str, PageRecord]:
    """The pages a version of their document shows to be in the language their site declares
    for them, though read in another, relabelled (signal ``declared_apart``).

    A regional language is read as its national neighbour (Walloon as French, Scots as
    English) on a site that has the neighbour too, so the site's languages cannot tell it from
    an untranslated fallback (:func:`linked_language_pages`). Its document's other version
    can: a page the site declares in L (:func:`page_declaration`) and that is read in X, in
    L's script, is mined as L; where a pattern or a declaration pairs it with a page read in X
    (and not declared otherwise) whose prose it copies next to nothing of
    (:data:`MAX_APART_COPIED_SHARE`), the two are one document in two languages, and it is L.
    A fallback copies its X version: it stays X, as does a page that copies more of any
    version, or that no version of X confirms. The copy check sees a page's first
    :data:`MAX_TEXT_CHARS` characters only: a longer page, or a version longer, confirms
    nothing (lilypond's big pages, translated in their first part, read as English)."""
    named = linked_languages(pages.values())
    declaring = sites_declaring_several(pages.values())
    declared: dict[str, str] = {}
    for url, page in pages.items():
        if page.language is None or page.mixed:
            continue
        language, _ = page_declaration(url, page, named, declaring)
        if (
            language is not None
            and not same_language(language, page.language)
            and len(page.copy_text) < MAX_TEXT_CHARS
            and script_of(page.copy_text) == language_script(language)
        ):
            declared[url] = language
    if not declared:
        return {}
    as_declared_pages = ChainMap(
        {url: replace(pages[url], language=language) for url, language in declared.items()},
        pages,
    )
    languages = {url: page.language for url, page in as_declared_pages.items() if page.language}
    candidates = [
        *mine_url_list(pages, languages, config).pairs,
        *alternate_pairs(as_declared_pages),
    ]
    confirmed: set[str] = set()
    copying: set[str] = set()
    for pair in candidates:
        for url, other_url in ((pair.source, pair.target), (pair.target, pair.source)):
            page, other = pages[url], pages[other_url]
            if url not in declared or other_url in declared or other.language is None:
                continue
            if not same_language(page.language, other.language):
                continue
            if len(other.copy_text) >= MAX_TEXT_CHARS:  # what it copies may be past the kept
                continue
            copied = mutual_copied_share(
                prose_blocks(page.copy_text), prose_blocks(other.copy_text)
            )
            (copying if copied > MAX_APART_COPIED_SHARE else confirmed).add(url)
    return {
        url: replace(pages[url], language=declared[url], language_signal=DECLARED_APART)
        for url in sorted(confirmed - copying)
    }


def relabelled(page: PageRecord | None, linked: Mapping[str, tuple[str, str]]) -> PageRecord | None:
    """``page`` with the language and signal ``linked`` gives its URL (url -> (language,
    signal), :attr:`RoundPairs.linked`), if any."""
    if page is None or page.url not in linked:
        return page
    language, signal = linked[page.url]
    return replace(page, language=language, language_signal=signal)


def judge_pair(
    pair: UrlPair,
    source: PageRecord,
    target: PageRecord,
    weights: Mapping[PairingPattern, float],
    verifier: PairVerifier | None = None,
    threshold: float | None = None,
    declared: Mapping[str, Collection[str]] | None = None,
    named_languages: Mapping[str, Collection[str]] | None = None,
) -> tuple[UrlPair | None, str]:
    """The pair with its languages and similarity, or ``None`` and why it was dropped.
    ``weights``: C(k) of the patterns Sim_Pattern counts (eq. 9), besides the pair's own. With
    a ``verifier``, a pair whose two pages both have their content kept must also be a
    translation by content (:mod:`.verification`), its probability at least ``threshold`` (the
    verifier's own by default); its signals go on the pair, and two pages that link nothing
    are judged on it alone, without the link filter. ``declared``: the versions pages
    name of each URL, whose link pairs count in the similarity as a pattern's
    (:func:`.alternates.declared_versions`). ``named_languages``: the languages the links naming
    each URL declare (:func:`.alternates.linked_languages`); a page they name in its language
    is marked so, whatever its URL's units say (``uk.example.com``, a British site its
    switcher names English, is not Ukrainian)."""
    check = check_pair_language(
        None if source.mixed else source.language,
        None if target.mixed else target.language,
        source.copy_text,
        target.copy_text,
        source_blocks=source.mixed_blocks,
        target_blocks=target.mixed_blocks,
        declared=(declared_language(source.url), declared_language(target.url)),
    )
    if not check.accepted:
        return None, check.verdict.value
    named = named_languages or {}
    if not all(
        as_marked(page.url, pair.pattern, language, page.html_lang)
        or any(same_language(language, said) for said in named.get(page.url, ()))
        for page, language in ((source, check.source_language), (target, check.target_language))
    ):
        return None, NOT_AS_MARKED
    # the pair's own pattern counts too: a site in 19 languages has 171 language-pair
    # patterns, and the top global ones cannot hold them all; so does the unit its two URLs
    # differ in, where a declared pair's pattern is its languages' (``<de,es>`` for
    # ``guide.de.html/`` and ``guide.es.html/``, whose chapters its links name)
    own = dict.fromkeys(filter(None, (pair.pattern, url_difference(source.url, target.url))), 1.0)
    similarity = bilingual_similarity(
        target.links, source.links, {**weights, **own}, declared=declared
    )
    by_content = verifier is not None and source.content is not None and target.content is not None
    # two pages that link nothing (a report's page, a print version) give the links no say:
    # their content alone is judged
    if not keep_pair(similarity) and not (by_content and not source.links and not target.links):
        return None, NO_SHARED_LINKS
    verification = None
    if by_content:
        signals = content_signals(source.content, target.content)
        probability = verifier.probability(signals)
        if probability < (verifier.threshold if threshold is None else threshold):
            return None, NOT_TRANSLATION
        verification = {"probability": round(probability, 4), **signals.as_dict()}
    return (
        replace(
            pair,
            source_language=check.source_language,
            target_language=check.target_language,
            similarity=round(similarity, 4),
            verification=verification,
            language_signals=(source.language_signal, target.language_signal),
        ),
        KEPT,
    )


def copy_side(first: PageRecord, second: PageRecord) -> str | None:
    """The URL of the page of a pair judged ``copied`` that is the copy: the page with a fifth
    of its text or more in other languages (:data:`COPY_LANGUAGE_SHARE`), when the other is
    written in one language (:data:`PURE_LANGUAGE_SHARE`). A translation left half in English
    has English text beside its own; the English page has no other. When both are written in
    one language, the copy is the page whose language its text did not decide (its
    declaration or the links naming it did: a fallback, the English page at a ``.pl`` URL that a
    switcher names Polish), next to a page whose text did. Two translations that share
    untranslated paragraphs of a third page are neither's copy (``None``)."""
    low, high = sorted((first, second), key=lambda page: page.language_share)
    if high.language_share >= PURE_LANGUAGE_SHARE and low.language_share <= COPY_LANGUAGE_SHARE:
        return low.url
    told = [page for page in (first, second) if page.language_signal != Signal.IDENTIFIER]
    if len(told) == 1 and low.language_share >= PURE_LANGUAGE_SHARE:
        return told[0].url
    return None


def as_marked(
    url: str, pattern: PairingPattern, language: str, html_lang: str | None = None
) -> bool:
    """Whether the page's language is the one its side of the pattern names, if it names one
    (as :func:`unit_language` reads it, the page's ``<html lang>`` first).

    A ``/de/`` page whose text is English is an untranslated fallback (the Apache manual's
    ``/de/x.html`` is a link to ``/en/x.html``): pairing it would duplicate the real pair of the
    English page under a URL that says German."""
    values = {unit.value for unit in marking_units(url)}
    for unit in (pattern.first, pattern.second):
        if unit and unit in values:
            marked = unit_language(unit, html_lang)
            return marked is None or same_language(marked, language)
    return True


def declared_language(url: str, html_lang: str | None = None) -> str | None:
    """The language a site declares for a page: the one its URL names (a ``dz`` directory, a
    ``.nn.html`` suffix, ``lang=gl``), else its ``<html lang>``; None when the URL names two
    languages or none and the page declares none. A claim, weighed against the text by
    :func:`~bilingual_spider.language.declared_language.resolve_language`."""
    named = url_language(url, html_lang)
    if named is not None:
        return in_declared_script(named, html_lang)
    if html_lang and not any(
        language_of_unit(unit.value)
        for unit in marking_units(url)
        if not (unit.kind == HOST and country_host(unit.value, html_lang))
    ):
        return normalize_language_code(html_lang)
    return None


def in_declared_script(language: str, html_lang: str | None) -> str:
    """The language a URL names, in the script the page's ``<html lang>`` names for it
    (``/serbian/lat/``, ``lang="sr-Latn"``: ``sr-Latn``)."""
    own = normalize_language_code(html_lang) if html_lang else None
    if own is not None and script_subtag(own) is not None and base_language(own) == language:
        return own
    return language


@lru_cache(maxsize=65536)
def url_language(url: str, html_lang: str | None = None) -> str | None:
    """The language ``url`` names (:func:`declared_language`'s first; a slug's words name none:
    :func:`marking_units`), None when it names none or two; remembered, as each crawl stage
    asks it of every page (:func:`linked_language_pages`). A host's first label names any
    language's two-letter code (``ch.example.org``, :func:`~.units.host_language`), unless it
    is the country the page's ``<html lang>`` names (:func:`country_host`)."""
    named = {
        host_language(unit.value) if unit.kind == HOST else unit_language(unit.value, html_lang)
        for unit in marking_units(url)
        if not (unit.kind == HOST and country_host(unit.value, html_lang))
    } - {None}
    return named.pop() if len(named) == 1 else None


def unit_language(unit: str, html_lang: str | None = None) -> str | None:
    """The language a URL unit names: the page's own ``<html lang>``'s where the unit is its
    code (Sardinian's ``/sc/``, ``lang="sc"``; Hong Kong's ``/sc/`` is Simplified Chinese),
    else the marker's (:func:`~.markers.language_of_unit`)."""
    if html_lang and unit.lower() == html_lang.strip().lower():
        return normalize_language_code(html_lang) or language_of_unit(unit)
    return language_of_unit(unit)


def marking_units(url: str) -> list[Unit]:
    """The units of ``url`` that may name a language: every unit but a slug's words. In a file
    name of more than :data:`MAX_MARKED_FILE_UNITS` words, a word marks when a dot or an
    underscore joins it (``getting-started.fr.html``, ``report_2020_en.pdf``,
    ``en_rep_04.htm``); a hyphen's words are words (French ``tenu-en-esclavage``, Swedish
    ``envar-har-ratt-till-en-social``: ``en`` a word; ``no-one-shall-be``)."""
    split = split_url(url)
    units = split.units()
    if len(split.tokens) <= MAX_MARKED_FILE_UNITS:
        return units
    around = ("", *split.separators, "")  # the separators before and after each word
    return [
        unit
        for unit in units
        if unit.kind != FILE
        or around[unit.position] in (".", "_")
        or around[unit.position + 1] == "_"
    ]


def marked_otherwise(page: PageRecord, site_languages: Collection[str] | None = None) -> bool:
    """Whether the page's URL names another language than the page's: an untranslated fallback
    (German text at a ``/RM/`` URL), or a page of no language. A file name's words mark a
    language only as :func:`marking_units` says and when the language is one of
    ``site_languages`` (the base languages its site's pages are read in or the links to them
    name; None: any; a Finnish ``kaikki-ovat-ja``, "and", names no Japanese the site has)."""
    if page.language is None:
        return True
    marked = set()
    for unit in marking_units(page.url):
        if unit.kind == HOST:
            if not country_host(unit.value, page.html_lang):
                marked.add(host_language(unit.value))
        elif (language := unit_language(unit.value, page.html_lang)) is not None and (
            unit.kind != FILE or site_languages is None or base_language(language) in site_languages
        ):
            marked.add(language)
    marked.discard(None)
    return len(marked) == 1 and not same_language(marked.pop(), page.language)


def as_named(page: PageRecord, named: Mapping[str, set[str]]) -> bool:
    """Whether a page may be in a pattern pair as the links naming it declare (``named``,
    :func:`.alternates.linked_languages`): a mixed page (each pair decides) and a page whose URL
    names its language (its own word first: ``?hl=nr`` linked as ``isiNdebele``, North
    Ndebele's own name too; a flag's country) may; another must be in a language they declare
    (:func:`.alternates.as_declared`, as a declared pair's pages are judged)."""
    return (
        page.mixed or url_language(page.url, page.html_lang) is not None or as_declared(page, named)
    )


def sites_declaring_several(pages: Iterable[PageRecord]) -> set[str]:
    """The sites whose pages' ``<html lang>`` declare two languages or more (a template's
    ``lang="en"`` on every page declares one)."""
    declared: dict[str, set[str]] = {}
    for page in pages:
        if page.html_lang:
            declared.setdefault(site_of(page.url), set()).add(base_language(page.html_lang))
    return {site for site, languages in declared.items() if len(languages) > 1}


def own_word_overruled(page: PageRecord, declaring: Collection[str]) -> bool:
    """Whether the page is an untranslated fallback by its own word: its ``<html lang>``
    declares a language, on a site whose pages declare several (``declaring``:
    :func:`sites_declaring_several`), that the identifier overruled, reading it surely as
    another (a close neighbour or a language it lacks would have been taken at its word:
    :func:`~bilingual_spider.language.declared_language.resolve_language`); a page whose URL
    names another language is judged by that (``not_as_marked``), one whose URL names its
    ``<html lang>``'s code (``article-1-lua.html``, ``lang="lua"``) by its own word too."""
    if not page.html_lang or page.language is None or page.mixed:
        return False
    if page.language_signal != "identifier" or same_language(page.html_lang, page.language):
        return False
    named = url_language(page.url, page.html_lang)
    return site_of(page.url) in declaring and (
        named is None or same_language(named, page.html_lang)
    )


def marked_language(url: str, shares: Mapping[str, float]) -> str | None:
    """The language a mixed page is mined in: of the languages of its text (``shares``), the
    one its URL names (a ``de`` directory, a ``.fr.html`` suffix, ``lang=ja``), the largest
    share first; ``None`` when its URL names none of them."""
    named = {language_of_unit(unit.value) for unit in split_url(url).units()} - {None}
    for language in sorted(shares, key=lambda lang: -shares[lang]):
        if any(same_language(language, marked) for marked in named if marked):
            return language
    return None


Rejection = Callable[[UrlPair, str], None]
"""Told of each pair a check rejected, and why (the spider logs it: the recall audit reads it)."""


def pair_round(
    crawled: CrawledSites,
    config: PairingConfig | None = None,
    verifier: PairVerifier | None = None,
    rejected_pair: Rejection | None = None,
    knows: LanguageKnown | None = None,
) -> RoundPairs:
    """Mine every page seen so far, discover pairs (4.1, 4.2) and the pairs pages name
    themselves (:mod:`.alternates`), and judge them all alike (languages, URL markers, shared
    links, content). A declared pair the verifier finds borderline is kept on a site whose
    declarations mostly verify (:mod:`.declarations`). Where one page has two candidate
    partners in a language, the better attested pair wins (:func:`.declarations.evidence`), the
    other is dropped (``superseded``); a pair found both ways is kept once, as the pattern's.
    A page judged the copy of another (:func:`copy_side`) is in no pair of the round
    (``copy_of_another``): half left untranslated, it is no translation of a third page
    either; nor is a page in none of the languages the links naming it declare
    (``not_as_named``), nor one whose own ``<html lang>`` the identifier overruled on a site
    whose pages declare several languages (``not_as_declared``). ``knows``: whether the
    identifier has a label for a language; pages whose language the links naming them decide
    are relabelled first (:func:`linked_language_pages`)."""
    linked = linked_language_pages(crawled.pages, knows)
    if linked:
        crawled = replace(crawled, pages=ChainMap(linked, crawled.pages))
    apart = versions_apart(crawled.pages, config)
    if apart:
        linked = {**linked, **apart}
        crawled = replace(crawled, pages=ChainMap(apart, crawled.pages))
    languages = {url: page.language for url, page in crawled.pages.items() if page.language}
    result = mine_url_list(crawled.pages, languages, config)
    weights = unit_weights(result.top_patterns(SIMILARITY_PATTERNS))
    rejected: Counter[str] = Counter()
    copies: set[str] = set()

    def reject(pair: UrlPair, why: str) -> None:
        rejected[why] += 1
        if rejected_pair is not None:
            rejected_pair(pair, why)

    named_languages = linked_languages(crawled.pages.values())
    declaring = sites_declaring_several(crawled.pages.values())
    copying_above: dict[str, bool] = {}

    def copies_above(page: PageRecord) -> bool:
        if page.url not in copying_above:
            copying_above[page.url] = copies_ancestor(page, crawled.pages)
        return copying_above[page.url]

    def judge(pair: UrlPair, threshold: float | None = None) -> tuple[UrlPair | None, str]:
        source, target = crawled.pages[pair.source], crawled.pages[pair.target]
        if any(copies_canonical(page, crawled.pages) for page in (source, target)):
            return None, COPY_OF_CANONICAL
        if copies_above(source) != copies_above(target):  # one is its home again: a soft 404
            return None, COPY_OF_ANCESTOR
        if not all(as_named(page, named_languages) for page in (source, target)):
            return None, NOT_AS_NAMED
        if any(own_word_overruled(page, declaring) for page in (source, target)):
            return None, NOT_AS_DECLARED
        # a declared pair has no pattern to match its pages' links: their declared versions do
        named = versions if is_declared(pair) else None
        found, why = judge_pair(
            pair, source, target, weights, verifier, threshold, named, named_languages
        )
        if why == PairLanguageVerdict.COPIED and (copy := copy_side(source, target)):
            copies.add(copy)
        return found, why

    declared = alternate_pairs(crawled.pages)
    versions = declared_versions(crawled.pages.values())
    verdicts = [(pair, *judge(pair)) for pair in [*declared, *result.pairs]]
    site_languages: dict[str, set[str]] = {}  # read in its pages, or named by links to them
    for url, page in crawled.pages.items():
        said = {page.language} if page.language else set()
        for language in said | named_languages.get(url, set()):
            site_languages.setdefault(site_of(url), set()).add(base_language(language))
    unmarked = {
        url: page
        for url, page in crawled.pages.items()
        if not marked_otherwise(page, site_languages.get(site_of(url), set()))
    }

    def more_pairs(find: Callable[[list[UrlPair]], list[UrlPair]]) -> bool:
        """Judge the pairs ``find`` makes of the pairs judged so far; whether it kept one."""
        judged = {frozenset((pair.source, pair.target)) for pair, _, _ in verdicts}
        paired = [found for _, found, _ in verdicts if found is not None]
        paired += [  # where a URL pattern placed its translation: another edition's chapter
            replace(
                pair,
                source_language=unmarked[pair.source].language,
                target_language=unmarked[pair.target].language,
            )
            for pair, found, why in verdicts
            if found is None
            and why == NOT_TRANSLATION  # by content; a language misread places nothing
            and pair.method == LOCAL  # a pattern credible on the site; a weak one, a CMS
            # mixing declarations up place nothing
            and pair.source in unmarked
            and pair.target in unmarked
        ]
        found_now = [
            (pair, *judge(pair))
            for pair in find(paired)
            if frozenset((pair.source, pair.target)) not in judged
        ]
        verdicts.extend(found_now)
        return any(found is not None for _, found, _ in found_now)

    # for the pages no pair before joins with a page of the other's language: their URLs'
    # numbers, then their places in paired lists, level by level (a home's sections, theirs)
    more_pairs(lambda paired: numbered_pairs(unmarked, paired))
    shift = MAX_SHIFT if verifier is not None else 0
    for _ in range(MAX_LEVELS):
        if not more_pairs(lambda paired: listed_pairs(unmarked, paired, shift)):
            break
    pattern_pairs = {frozenset((pair.source, pair.target)) for pair in result.pairs}
    tallies = tally_declarations(((pair, why) for pair, _, why in verdicts), pattern_pairs)
    candidates: list[UrlPair] = []
    for pair, found, why in verdicts:
        site = site_of(pair.source)
        borderline = found is None and why == NOT_TRANSLATION and is_declared(pair)
        if borderline and tallies[site].credible:  # kept at a lower threshold
            found, why = judge(pair, BORDERLINE_PROBABILITY)
            if found is not None:
                tallies[site] = tallies[site].plus(verified=1, failed=-1, rescued=1)
        if found is None:
            reject(pair, why)
        elif found.source in copies or found.target in copies:
            reject(found, COPY_OF_ANOTHER)
            if is_declared(found):
                tallies[site] = tallies[site].plus(verified=-1, failed=1)
        else:
            candidates.append(found)
    candidates = [with_site_credibility(pair, tallies) for pair in candidates]
    kept = []
    for pair, best in _best_attested(candidates):
        if best:
            kept.append(pair)
            continue
        reject(pair, SUPERSEDED)
        if is_declared(pair):
            site = site_of(pair.source)
            tallies[site] = tallies[site].plus(outweighed=1)
    linked_pages = tuple(
        (p.url, p.language, p.language_signal) for p in linked.values() if p.language
    )
    return RoundPairs(tuple(kept), dict(rejected), result.credibility, tallies, linked_pages)


def copies_canonical(page: PageRecord, pages: Mapping[str, PageRecord]) -> bool:
    """Whether ``page`` names as its canonical page another of ``pages`` in its language, half
    or more of whose prose it copies (a print version, a mobile copy). A translation whose
    canonical is its original's and a document whose canonical is its language's home page,
    two common mistakes, are no copies."""
    original = pages.get(page.canonical) if page.canonical else None
    return (
        original is not None
        and original.url != page.url
        and page.language is not None
        and original.language is not None
        and same_language(page.language, original.language)
        and mutual_copied_share(prose_blocks(page.copy_text), prose_blocks(original.copy_text))
        >= MAX_COPIED_SHARE
    )


def directories_above(url: str) -> list[str]:
    """The URLs of the directories above ``url``'s page, nearest first; not its own directory
    when the page is that directory's index (``index.html``, ``index.fr.html``: one page).

    >>> directories_above("http://x.org/ta/events/1207.html")
    ['http://x.org/ta/events/', 'http://x.org/ta/', 'http://x.org/']
    >>> directories_above("http://x.org/ta/index.ta.html"), directories_above("http://x.org/")
    (['http://x.org/'], [])
    """
    parts = urlsplit(url)
    *directories, name = parts.path.split("/")[1:] or [""]
    root = f"{parts.scheme}://{parts.netloc}/"
    above = [
        root + "".join(f"{d}/" for d in directories[:i]) for i in range(len(directories), -1, -1)
    ]
    is_directory = not name or name.startswith("index.")
    return above[1:] if is_directory else above


def copies_ancestor(page: PageRecord, pages: Mapping[str, PageRecord]) -> bool:
    """Whether ``page`` is a page of ``pages`` above it in its language again
    (:func:`directories_above`: the language's home, the section's index; one page by
    :func:`.deep_pages.is_same_page`, as PupSniffer's soft-404 check of deep pages says):
    what a missing translation's URL serves instead of saying so (a soft 404). A document whose
    home quotes it, or shares a paragraph of its chrome with it, is no copy of its home; nor is
    a page whose URL or ``<html lang>`` declares its own language that is the site's root
    again: the root is often that language's home or index under another URL (``/`` and
    ``/en/93210352e4/``, one page), while the English root at ``/tet/`` is a missing
    translation's fallback."""
    if page.language is None or not page.copy_text:
        return False
    above = directories_above(page.url)
    declared = declared_language(page.url, page.html_lang)
    if declared is not None and same_language(declared, page.language):
        above = above[:-1]  # the root: its language's home again
    for url in above:
        ancestor = pages.get(url)
        if ancestor is None or ancestor.language is None or not ancestor.copy_text:
            continue
        if not same_language(page.language, ancestor.language):
            continue
        if is_same_page(page.copy_text, ancestor.copy_text):
            return True
    return False


def _best_attested(pairs: list[UrlPair]) -> list[tuple[UrlPair, bool]]:
    """Each pair, in the order given (of a pair found both ways, by a pattern and by a
    declaration, the pattern's, which the declaration corroborates), with whether it holds
    against the other candidate partners of its pages in each other's languages: the better
    attested first (:func:`.declarations.evidence`, ties to the first given) takes its pages'
    places, and a declared, corroborated, numbered or listed pair (one number, one place in a
    list, is one document's: :mod:`.numbered`, :mod:`.listed`) that comes later to one of
    them, or any pair that comes to such a pair's, is outweighed. Two pattern pairs of one page
    that no page declares both hold (two URLs of one translation)."""
    unique: dict[frozenset[str], UrlPair] = {}
    declared = {frozenset((p.source, p.target)) for p in pairs if is_declared(p)}
    sole = declared | {
        frozenset((p.source, p.target)) for p in pairs if p.method in (NUMBERED, LISTED)
    }
    for pair in sorted(pairs, key=is_declared):  # the patterns' first
        unique.setdefault(frozenset((pair.source, pair.target)), pair)

    def named(pair: UrlPair) -> bool:
        return frozenset((pair.source, pair.target)) in declared

    def attested(pair: UrlPair) -> float:
        return evidence(pair, corroborated=named(pair) and not is_declared(pair))

    places: dict[tuple[str, str], bool] = {}  # (page, partner's language) -> held by a named
    holds: set[frozenset[str]] = set()
    for pair in sorted(unique.values(), key=lambda p: -attested(p)):
        ends = [(pair.source, pair.target_language), (pair.target, pair.source_language)]
        key = frozenset((pair.source, pair.target))
        if any(end in places and (key in sole or places[end]) for end in ends):
            continue
        for end in ends:
            places[end] = places.get(end, False) or key in sole
        holds.add(frozenset((pair.source, pair.target)))
    return [
        (pair, frozenset((pair.source, pair.target)) in holds)
        for pair in pairs
        if unique[frozenset((pair.source, pair.target))] is pair
    ]


@dataclass(frozen=True)
class GroupVerdict:
    """A translation group and its implied pairs, judged."""

    group: TranslationGroup
    direct: int
    """Pairs of its members found directly (by a pattern, a deep page, a named translation)."""
    implied: tuple[UrlPair, ...]
    """The pairs it implies that were judged translations (method ``group``)."""
    rejected: Mapping[str, int]
    """The pairs it implies that were not, by reason."""


@dataclass(frozen=True)
class GroupPairs:
    """Every translation group of the pairs found, and the conflicts left out of them."""

    verdicts: tuple[GroupVerdict, ...]
    conflicts: int
    """Pairs that would have put two pages of one language in one group."""


def judge_group_pairs(
    found: Iterable[UrlPair],
    page: Callable[[str], PageRecord | None],
    weights: Mapping[PairingPattern, float],
    verifier: PairVerifier | None = None,
    rejected_pair: Rejection | None = None,
) -> GroupPairs:
    """The translation groups of the pairs ``found`` (:mod:`.groups`) and the pairs they imply,
    judged as every pair is (:func:`judge_pair`: languages, URL markers, shared links, content;
    a member found to be another's copy, :func:`copy_side`, in none of them).
    Every member of a group is a fetched page (it came with a pair), so nothing more is fetched;
    ``page`` gives its record."""
    groups = build_groups(found)
    direct = groups.found()
    verdicts = []
    for group in groups.groups():
        kept: list[UrlPair] = []
        rejected: Counter[str] = Counter()
        copies: set[str] = set()
        implied = group.implied(tuple(pair) for pair in direct)
        for a, b in implied:
            pair = implied_pair(a, b)
            source, target = page(pair.source), page(pair.target)
            if source is None or target is None:
                rejected[PAGE_NOT_KEPT] += 1
                continue
            judged, why = judge_pair(pair, source, target, weights, verifier)
            if judged is None:
                rejected[why] += 1
                if rejected_pair is not None:
                    rejected_pair(pair, why)
                if why == PairLanguageVerdict.COPIED and (copy := copy_side(source, target)):
                    copies.add(copy)
            else:
                kept.append(judged)
        for pair in [p for p in kept if p.source in copies or p.target in copies]:
            kept.remove(pair)
            rejected[COPY_OF_ANOTHER] += 1
            if rejected_pair is not None:
                rejected_pair(pair, COPY_OF_ANOTHER)
        n = len(group.members)
        verdicts.append(GroupVerdict(group, n * (n - 1) // 2 - len(implied), tuple(kept), rejected))
    return GroupPairs(tuple(verdicts), groups.conflicts)


def deep_page_candidates(
    crawled: CrawledSites,
    round_pairs: RoundPairs,
    per_site: int,
    checked: Iterable[str] = (),
    top: int = DEEP_TOP_PATTERNS,
) -> list[DeepCandidate]:
    """4.3: URLs the top global patterns make from pages left unpaired, at most ``per_site``
    per site, never a page already fetched or a URL already ``checked``."""
    patterns = round_pairs.credibility.top_patterns(top)
    if not patterns:
        return []
    paired = {url for pair in round_pairs.pairs for url in (pair.source, pair.target)}
    seen = set(checked)
    candidates: list[DeepCandidate] = []
    for urls in crawled.site_pages.values():
        budget = per_site
        for url in urls:
            if url in paired or crawled.pages[url].language is None:
                continue
            for candidate in deep_candidates(url, patterns, top):
                if budget == 0:
                    break
                made = candidate.candidate
                if made in crawled.pages or made in seen or site_of(made) != site_of(url):
                    continue
                seen.add(made)
                candidates.append(candidate)
                budget -= 1
            if budget == 0:
                break
    return candidates


def next_round_sites(
    crawled: CrawledSites, round_pairs: RoundPairs, top: int, by: str = "wpr"
) -> list[tuple[ExternalSite, str]]:
    """4.4: the ``top`` external sites not crawled yet, best first by ``by`` (WPR by default:
    the paper's best), each with the first URL of it seen."""
    crawled_sites = set(crawled.site_pages)
    ranked = rank_external_sites(
        crawled.site_graph(), crawled_sites, round_pairs.credibility.site, by=by
    )
    picked = []
    for external in ranked:
        if external.site in crawled_sites:
            continue
        url = next(
            (links[external.site] for links in crawled.external.values() if external.site in links),
            None,
        )
        if url is not None:
            picked.append((external, url))
        if len(picked) == top:
            break
    return picked


def site_languages(pairs: Iterable[UrlPair]) -> dict[str, list[str]]:
    """The languages each site's pairs join, sorted."""
    found: dict[str, set[str]] = {}
    for pair in pairs:
        languages = found.setdefault(site_of(pair.source), set())
        languages.update(lang for lang in (pair.source_language, pair.target_language) if lang)
    return {site: sorted(languages) for site, languages in found.items()}
