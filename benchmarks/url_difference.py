"""How the two URLs of a gold pair differ: the classes of issue 31's URL-only acceptance.

A URL-only method can pair two pages only when their URLs differ by language identifiers. Each
gold pair is put in one class, by a word-level diff of its two URLs (percent-decoded, scheme
left out; words split at non-letters, digits and case changes, as ``arlt15EN`` -> ``arlt``,
``15``, ``EN``), judging each word that differs:

- a **language identifier**: a language code or name (``en``, ``eng``, ``fra``, ``English``,
  ``Francais``, ``en_US``), ``us``/``uk`` (English on some sites), an initial ``e``, ``f`` or
  ``a`` (English, French, *anglais*), a numeric value of a language parameter (``clang=2``,
  TYPO3's ``L=3``: a parameter whose name is ``L`` or holds ``lang``, ``lng``, ``locale``,
  ``sprache``, ``langue`` or ``idioma``), such a parameter's name added on one side
  (``&lang=fr``), or an initial glued to a word (``emjukvara`` / ``fmjukvara``, ``2003wgs`` /
  ``2003wgsf``, ``p98-005e`` / ``p98-005f``: :func:`glued_initial`);
- a number (an id);
- another word, on both sides (a translated slug: ``media/news`` / ``presse/nouvelles``) or on
  one side only (``teeth/`` / ``teeth/index_fr.html``: a default document named on one side).

Classes, the first that fits:

- ``language_ids``: only language identifiers differ (within URL-only reach);
- ``other`` when only the letter case differs besides them (``m07L0040`` / ``m07l0040``);
- ``different_ids``: numbers differ too, no other word (``ModuleId=10005174`` / ``ModuleId=31``,
  ``fma_..._2_testo`` / ``fma_..._4_testo``);
- ``translated_slugs``: words differ on both sides (ids may differ too);
- ``other``: the rest (a word added on one side, another host).

The word lists are this module's own, written from what language identifiers are, not from the
miner's (``patterns/markers.py``), though both read the project's language codes and names.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from bilingual_spider.language.language_names_table import NAMES
from bilingual_spider.language.names import language_of_code, language_of_name

LANGUAGE_IDS, DIFFERENT_IDS, TRANSLATED_SLUGS, OTHER = (
    "language_ids",
    "different_ids",
    "translated_slugs",
    "other",
)
CLASSES = (LANGUAGE_IDS, TRANSLATED_SLUGS, DIFFERENT_IDS, OTHER)
_TOKEN = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\W\d_]+|.", re.DOTALL)
LANGUAGE_PARAMETER = re.compile(r"l|.*(?:lang|lng|locale|sprache|langue|idioma).*", re.I)
INITIALS = {"e": "en", "a": "en", "f": "fr"}
"""English, *anglais*, French."""
REGIONS_AS_LANGUAGES = frozenset({"us", "uk"})


def tokens(url: str) -> list[str]:
    """Words and separators of a URL without its scheme, percent-decoded."""
    return _TOKEN.findall(unquote(url.partition("://")[2] or url))


def is_language_word(word: str) -> bool:
    word = word.lower()
    return bool(
        word in INITIALS
        or word in REGIONS_AS_LANGUAGES
        or language_of_code(word)
        or language_of_name(word)
        or word in _unaccented_names()
    )


@lru_cache(maxsize=1)
def _unaccented_names() -> frozenset[str]:
    """Language names without their accents (``francais``, ``espanol``)."""
    folded = (unicodedata.normalize("NFKD", name) for name in NAMES)
    return frozenset("".join(c for c in f if not unicodedata.combining(c)) for f in folded)


def glued_initial(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by a language initial at one end: ``emjukvara`` / ``fmjukvara``,
    ``s000508a`` / ``s000508f`` (the two initials of two languages: ``antenna`` / ``antenne``
    is no pair of initials), or an ``f`` added at the end (``2003wgs`` / ``2003wgsf``: French
    marked, English left unmarked; an added ``e``, ``general`` / ``generale``, is as often a
    French word)."""
    a, b = a.lower(), b.lower()
    if not a or not b or a == b:
        return False
    for end in (0, -1):
        rest_a = a[1:] if end == 0 else a[:-1]
        rest_b = b[1:] if end == 0 else b[:-1]
        first, second = INITIALS.get(a[end]), INITIALS.get(b[end])
        if rest_a == rest_b and first and second and first != second:
            return True
    return a + "f" == b or b + "f" == a


def _parameter_name(words: list[str], i: int) -> str:
    """The name of the query parameter whose value is ``words[i]``, or ``""``."""
    if i == 0 or words[i - 1] != "=":
        return ""
    k = i - 2
    while k >= 0 and words[k] not in ("?", "&"):
        k -= 1
    return "".join(words[k + 1 : i - 1])


def _is_identifier(words: list[str], i: int) -> bool:
    word = words[i]
    if is_language_word(word):
        return True
    if word.isdigit():
        return bool(LANGUAGE_PARAMETER.fullmatch(_parameter_name(words, i)))
    following = words[i + 1] if i + 1 < len(words) else ""
    return following == "=" and bool(LANGUAGE_PARAMETER.fullmatch(word))


def _kinds(a: list[str], b: list[str], fold_case: bool) -> set[str]:
    """What the differing words are: ``lang``, ``id``, ``word`` (both sides), ``added``."""
    key = str.lower if fold_case else str
    matcher = difflib.SequenceMatcher(None, [key(t) for t in a], [key(t) for t in b], False)
    kinds: set[str] = set()
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        in_a = [i for i in range(i1, i2) if a[i].isalnum()]
        in_b = [j for j in range(j1, j2) if b[j].isalnum()]
        judged: list[tuple[list[str], int]] = [(a, i) for i in in_a] + [(b, j) for j in in_b]
        if len(in_a) == len(in_b):  # word for word: an initial glued to one word of each side
            glued = [(i, j) for i, j in zip(in_a, in_b, strict=True) if glued_initial(a[i], b[j])]
            kinds.update(["lang"] if glued else [])
            skip = {(id(a), i) for i, _ in glued} | {(id(b), j) for _, j in glued}
            judged = [(words, i) for words, i in judged if (id(words), i) not in skip]
        for words, i in judged:
            if _is_identifier(words, i):
                kinds.add("lang")
            elif words[i].isdigit():
                kinds.add("id")
            else:
                kinds.add("word" if in_a and in_b else "added")
    return kinds


def url_difference(a: str, b: str) -> str:
    """The class of the gold pair (``a``, ``b``) (module docstring).

    >>> url_difference("http://x.ca/report.asp", "http://x.ca/report_f.asp")
    'language_ids'
    >>> url_difference("http://x.ca/media/news?id=3", "http://x.ca/presse/nouvelles?id=3")
    'translated_slugs'
    """
    if _other_hosts(a, b):
        return OTHER
    words_a, words_b = tokens(a), tokens(b)
    kinds = _kinds(words_a, words_b, fold_case=False)
    if kinds <= {"lang"}:
        return LANGUAGE_IDS
    if _kinds(words_a, words_b, fold_case=True) <= {"lang"}:
        return OTHER  # the letter case differs
    if kinds <= {"lang", "id"}:
        return DIFFERENT_IDS
    return TRANSLATED_SLUGS if "word" in kinds else OTHER


def _other_hosts(a: str, b: str) -> bool:
    """Two hosts, neither one's first label a language (``fr.x.com``): two sites."""
    hosts = [urlsplit(url).netloc.lower() for url in (a, b)]
    if hosts[0].removeprefix("www.") == hosts[1].removeprefix("www."):
        return False
    return not any(is_language_word(host.split(".")[0]) for host in hosts)
