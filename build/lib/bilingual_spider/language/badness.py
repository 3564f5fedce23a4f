"""Badness: does a text use the most frequent function words of a language as often as prose does?

Schäfer, Barbey and Bildhauer (2014), *Focused Web Corpus Crawling*, WaC-9, Section 2: "A document
receives a low Badness score if the most frequent function words of the target language have a
high enough frequency in the document"; Section 3 keeps links from documents with "a Badness score
of 10 or lower". The method is texrex's (Schäfer, Barbey and Bildhauer 2013), published as
``TTrTextAssessment`` in texrex's ``trtextassessment.pas`` with profiles ``data/<lang>.prof``
(``word|mean|stdev|limit``, ten words, limit 5); this module follows that code:

* a **profile** holds, for the n most frequent function words of a language, the mean and the
  standard deviation of their log10 relative frequency across the documents of a corpus;
* a document's **badness** for that language is the sum over the profile words of its
  standardised shortfall, each term clamped to the word's limit (:func:`word_badness`)::

      0                                   if log10 f(w) >= mean(w)
      min(limit, (mean(w) - log10 f(w)) / stdev(w))   if it is below the mean
      limit                               if w does not occur in the document

  where f(w) is the count of w over the number of tokens of the document. More frequent than
  expected costs nothing. An empty document has the highest badness, ``n * limit``.

Low badness means prose in that language; a word list, a menu, or text in another language misses
the function words and scores high. Section 3 selected links from documents with a badness of 10
or lower (:data:`BADNESS_THRESHOLD`; with ten words and a limit of 5, two missing function words
reach it); texrex's manual recommends 35 for discarding documents (Schäfer et al. 2013). The
threshold is meant for documents: a paragraph of 70 words can easily miss two function words.
Like the paper (Section 5), we use the score to prioritise, never to discard.

Tokens (:func:`tokens`) are lower-cased runs of letters, except that every Han, kana and Hangul
character is a token of its own. Chinese and Japanese are written without spaces, and their
function morphemes are single characters (的 了 是 在, の に は を が); Korean separates words
by spaces, but its particles and endings (은/는 이/가 을/를 의 에, -다) are syllables bound to the
word before them, so there too the frequent *syllables* are the function items. Character
bigrams would mostly be content words. Letter runs of other scripts in the same text (a Latin
product name in Japanese prose) stay one token, so one tokenisation serves every profile and
:func:`badness_scores` scores all languages in a single pass.

Profiles ship in ``badness_profiles.json``, built by
``python -m bilingual_spider.language.build_badness_profiles`` (its header says from what).
"""

from __future__ import annotations

import json
import math
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bilingual_spider.language.codes import base_language

DEFAULT_PROFILES_PATH = Path(__file__).with_name("badness_profiles.json")
BADNESS_THRESHOLD = 10.0
"""Section 3: documents with a badness of 10 or lower fit the expected distribution "very well"."""
WORD_LIMIT = 5.0
"""texrex's limit per profile word (the last field of every line of its ``.prof`` files)."""
PROFILE_WORDS = 10
"""texrex's profiles hold the ten most frequent words of the language."""

_SINGLE_CHARACTER_SCRIPTS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3130-\u318f"  # Hangul Compatibility Jamo
    "\u31f0-\u31ff"  # Katakana Phonetic Extensions
    "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul Syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\uff66-\uff9f"  # half-width Katakana
)
_COMBINING = "\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
_TOKEN = re.compile(
    rf"[{_SINGLE_CHARACTER_SCRIPTS}]"
    rf"|[^\W\d_{_SINGLE_CHARACTER_SCRIPTS}][^\W\d_{_SINGLE_CHARACTER_SCRIPTS}{_COMBINING}]*"
)
# Where text can be cut without cutting a token, or a character from the marks that compose with
# it (kana voicing marks, Hangul jamo): white space, and Han, kana and Hangul syllables.
_CUT = re.compile(r"[\s\u3041-\u3096\u30a1-\u30fa\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_CUT_WINDOW = 1024
CHUNK_CHARS = 1 << 18
"""Texts are counted in pieces of about this many characters, so memory stays bounded."""
MAX_CHARS = 1 << 21
"""At most this much of a text (2 Mi characters, 8 pieces) is read (see :func:`token_counts`)."""


@dataclass(frozen=True)
class ProfileWord:
    """One function word of a profile: mean and standard deviation of its log10 relative
    frequency in the documents of the corpus, and the most it can add to a badness."""

    word: str
    mean: float
    stdev: float
    limit: float = WORD_LIMIT


@dataclass(frozen=True)
class ProfileSource:
    """Where a profile's text came from and how much of it there was."""

    name: str
    documents: int
    tokens: int


@dataclass(frozen=True)
class LanguageProfile:
    """The expected frequencies of a language's most frequent function words (Section 2)."""

    lang: str
    words: tuple[ProfileWord, ...]
    sources: tuple[ProfileSource, ...] = ()

    @property
    def max_badness(self) -> float:
        """The badness of a text that has none of the profile's words (an empty one, say)."""
        return sum(w.limit for w in self.words)

    @property
    def documents(self) -> int:
        return sum(s.documents for s in self.sources)

    @property
    def tokens(self) -> int:
        return sum(s.tokens for s in self.sources)


@dataclass(frozen=True)
class TokenCounts:
    """How often each word of interest occurs in a text, and how many tokens the text has."""

    counts: Mapping[str, int]
    total: int

    def relative_frequency(self, word: str) -> float:
        return self.counts.get(word, 0) / self.total if self.total else 0.0


@dataclass(frozen=True)
class LanguageBadness:
    """A language and a text's badness for it."""

    lang: str
    badness: float


def tokens(text: str) -> list[str]:
    """The tokens of ``text``: lower-cased letter runs, one token per Han/kana/Hangul character.

    >>> tokens("L'Homme est là; 日本語の文")
    ['l', 'homme', 'est', 'là', '日', '本', '語', 'の', '文']
    """
    # Turkish dotted capital I lower-cases to i + combining dot; the dot is dropped here.
    return _TOKEN.findall(unicodedata.normalize("NFC", text.replace("\u0130", "I")).lower())


def _cut_at(text: str, position: int) -> int:
    """The first place at or after ``position`` where ``text`` can be cut without cutting a
    token: before white space or a Han, kana or Hangul syllable character. A text with none
    nearby (no spaces for :data:`_CUT_WINDOW` characters: garbage) is cut where it is."""
    if position >= len(text):
        return len(text)
    cut = _CUT.search(text, position, position + _CUT_WINDOW)
    if cut:
        return cut.start()
    return len(text) if position + _CUT_WINDOW >= len(text) else position


def _pieces(text: str, size: int, max_chars: int | None) -> Iterator[str]:
    """``text`` in consecutive pieces of about ``size`` characters; when it is longer than
    ``max_chars``, only ``max_chars // size`` pieces spread evenly over it."""
    if max_chars is not None and len(text) > max_chars:
        count = max(1, max_chars // size)
        stride = len(text) // count
        for i in range(count):
            start = _cut_at(text, i * stride) if i else 0
            yield text[start : _cut_at(text, start + size)]
        return
    start = 0
    while start < len(text):
        end = _cut_at(text, start + size)
        yield text[start:end]
        start = end


def token_counts(
    text: str, vocabulary: Iterable[str] | None = None, max_chars: int | None = MAX_CHARS
) -> TokenCounts:
    """Count the tokens of ``text`` (only those in ``vocabulary`` are kept, when given) in
    pieces of :data:`CHUNK_CHARS`, so memory stays bounded; time is linear in the length, up to
    ``max_chars``: a longer text is read in evenly spread pieces adding up to that (relative
    frequencies need no more; texrex does not read documents over 256 KB at all)."""
    wanted = None if vocabulary is None else frozenset(vocabulary)
    counts: Counter[str] = Counter()
    total = 0
    for piece in _pieces(text, CHUNK_CHARS, max_chars):
        piece_tokens = tokens(piece)
        total += len(piece_tokens)
        piece_counts = Counter(piece_tokens)
        if wanted is None:
            counts.update(piece_counts)
        else:
            counts.update({w: piece_counts[w] for w in wanted if w in piece_counts})
    return TokenCounts(counts=dict(counts), total=total)


def word_badness(relative_frequency: float, word: ProfileWord) -> float:
    """What one profile word adds to a badness (Section 2; texrex ``TTrTextAssessment.Process``):
    the standardised shortfall of its log10 relative frequency below the profile mean, clamped
    to the limit; the limit when the word is absent; nothing when it is at least as frequent."""
    if relative_frequency <= 0.0:
        return word.limit
    shortfall = word.mean - math.log10(relative_frequency)
    if shortfall <= 0.0:
        return 0.0
    return min(word.limit, shortfall / word.stdev)


def badness_of_counts(counts: TokenCounts, profile: LanguageProfile) -> float:
    """The badness of a text, given its token counts, for one language (Section 2)."""
    return sum(word_badness(counts.relative_frequency(w.word), w) for w in profile.words)


def badness(text: str, profile: LanguageProfile) -> float:
    """The badness of ``text`` for the language of ``profile``: 0 (prose in that language) to
    ``profile.max_badness`` (none of its function words); <= :data:`BADNESS_THRESHOLD` is good."""
    return badness_of_counts(token_counts(text, (w.word for w in profile.words)), profile)


def badness_scores(
    text: str, profiles: Mapping[str, LanguageProfile] | None = None
) -> dict[str, float]:
    """The badness of ``text`` for every profiled language (default: the shipped profiles),
    with one pass over the text."""
    return _scores(text, profiles)[0]


def _scores(
    text: str, profiles: Mapping[str, LanguageProfile] | None
) -> tuple[dict[str, float], int]:
    profiles = default_profiles() if profiles is None else profiles
    vocabulary = {w.word for p in profiles.values() for w in p.words}
    counts = token_counts(text, vocabulary)
    return {lang: badness_of_counts(counts, p) for lang, p in profiles.items()}, counts.total


def lowest_badness(
    text: str, profiles: Mapping[str, LanguageProfile] | None = None
) -> LanguageBadness | None:
    """The language whose function words ``text`` fits best, and its badness: a cross-check of
    language ID (texrex's ``TTrTextAssessmentMulti`` keeps the lowest too). None for a text
    with no tokens, which fits no language."""
    scores, total = _scores(text, profiles)
    if not scores or not total:
        return None
    lang = min(sorted(scores), key=scores.__getitem__)
    return LanguageBadness(lang, scores[lang])


def profile_code(lang: str, profiles: Mapping[str, LanguageProfile]) -> str | None:
    """The profile that serves ``lang``: its own (``zh-Hant``), else its base language's
    (``pt-BR`` -> ``pt``); None when there is neither."""
    if lang in profiles:
        return lang
    base = base_language(lang)
    return base if base in profiles else None


def confirms_language(
    text: str, lang: str, profiles: Mapping[str, LanguageProfile] | None = None
) -> bool | None:
    """Does badness agree with language ID that ``text`` is in ``lang``? True when the
    lowest-badness language is ``lang`` (compared without region or script: ``pt-BR`` is
    confirmed by ``pt``, ``zh-Hant`` by ``zh-Hans``, whose function characters mostly coincide);
    None when there is no profile for ``lang`` or the text has no tokens."""
    profiles = default_profiles() if profiles is None else profiles
    wanted = base_language(lang)
    if not any(base_language(code) == wanted for code in profiles):
        return None
    best = lowest_badness(text, profiles)
    return None if best is None else base_language(best.lang) == wanted


def is_good(score: float, threshold: float = BADNESS_THRESHOLD) -> bool:
    """Section 3's selection: a badness of ``threshold`` (10) or lower is good prose."""
    return score <= threshold


# --- estimating a profile ---------------------------------------------------------------------


def select_words(
    documents: Iterable[TokenCounts],
    n_words: int = PROFILE_WORDS,
    is_candidate: Callable[[str], bool] | None = None,
    max_spread: float | None = None,
) -> list[str]:
    """The ``n_words`` most frequent words of a corpus: by their mean relative frequency over
    the documents (each document weighs the same, so one long manual cannot bring in its own
    vocabulary), among the words present in at least half of the documents that pass
    ``is_candidate`` (a function-word list) and, with ``max_spread``, whose log10 frequency
    varies by at most that much (stdev) between the documents that have them. A topical word
    is frequent in the texts on its topic and rare elsewhere; a function word is needed by all."""
    docs = [d for d in documents if d.total]
    if not docs:
        return []
    presence: Counter[str] = Counter()
    mass: dict[str, float] = {}
    for doc in docs:
        presence.update(doc.counts.keys())
        for word, count in doc.counts.items():
            mass[word] = mass.get(word, 0.0) + count / doc.total
    chosen: list[str] = []
    for word in sorted(mass, key=lambda w: (-mass[w], w)):
        if len(chosen) == n_words:
            break
        if presence[word] * 2 < len(docs) or (is_candidate and not is_candidate(word)):
            continue
        if max_spread is None or fit_word(word, docs).stdev <= max_spread:
            chosen.append(word)
    return chosen


def fit_word(word: str, documents: Iterable[TokenCounts], limit: float = WORD_LIMIT) -> ProfileWord:
    """Mean and standard deviation of ``word``'s log10 relative frequency over the documents
    that contain it (its absence is scored apart, with the limit)."""
    logs = [
        math.log10(d.counts[word] / d.total) for d in documents if d.total and d.counts.get(word)
    ]
    if len(logs) < 2:
        raise ValueError(f"{word!r} occurs in fewer than two documents")
    return ProfileWord(word, statistics.fmean(logs), statistics.stdev(logs), limit)


def fit_profile(
    lang: str,
    documents: Iterable[TokenCounts],
    n_words: int = PROFILE_WORDS,
    limit: float = WORD_LIMIT,
    sources: tuple[ProfileSource, ...] = (),
    is_candidate: Callable[[str], bool] | None = None,
    max_spread: float | None = None,
) -> LanguageProfile:
    """A language profile from the token counts of documents in that language (Section 2); see
    :func:`select_words` for ``is_candidate`` and ``max_spread``."""
    docs = [d for d in documents if d.total]
    words = select_words(docs, n_words, is_candidate, max_spread)
    return LanguageProfile(lang, tuple(fit_word(w, docs, limit) for w in words), sources)


# --- the shipped profiles ---------------------------------------------------------------------


def profile_from_dict(lang: str, data: Mapping[str, Any]) -> LanguageProfile:
    """A profile from its entry in ``badness_profiles.json``."""
    words = tuple(
        ProfileWord(str(w["word"]), float(w["mean"]), float(w["stdev"]), float(w["limit"]))
        for w in data["words"]
    )
    sources = tuple(
        ProfileSource(str(name), int(s["documents"]), int(s["tokens"]))
        for name, s in data.get("sources", {}).items()
    )
    return LanguageProfile(lang, words, sources)


def profile_to_dict(profile: LanguageProfile, digits: int = 6) -> dict[str, Any]:
    """The entry of ``profile`` in ``badness_profiles.json`` (numbers rounded: stable output)."""
    return {
        "documents": profile.documents,
        "tokens": profile.tokens,
        "sources": {
            s.name: {"documents": s.documents, "tokens": s.tokens} for s in profile.sources
        },
        "words": [
            {
                "word": w.word,
                "mean": round(w.mean, digits),
                "stdev": round(w.stdev, digits),
                "limit": w.limit,
            }
            for w in profile.words
        ],
    }


def load_profiles(path: str | Path = DEFAULT_PROFILES_PATH) -> dict[str, LanguageProfile]:
    """The profiles of a ``badness_profiles.json`` file, by language code."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {lang: profile_from_dict(lang, p) for lang, p in sorted(data["profiles"].items())}


@lru_cache(maxsize=1)
def default_profiles() -> Mapping[str, LanguageProfile]:
    """The shipped profiles (loaded once per process, read-only)."""
    return MappingProxyType(load_profiles())
