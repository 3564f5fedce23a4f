"""A text's language from every signal: the identifier's guess, the code the site declares, the
script the text is written in.

The identifier (lid.176) names one of its labels. Two cases make its answer the wrong one for a
page whose site declares its language (a URL marker, ``hreflang``, ``<html lang>``):

- the declared language is *not in its label set* (Dzongkha ``dz``, Oromo ``om``, Bokmål ``nb``
  which it calls ``no``): it names a stand-in (``bo`` for Tibetan-script Dzongkha, ``fi`` or
  ``en`` for Oromo). The declared code wins when the text is written in the declared language's
  script (:data:`DECLARED_SCRIPTS`) and does not read as the identified language by its function
  words (:func:`~.badness.badness`: an English page served under ``/om/`` reads as English and
  stays English; a Latin-script English copy under ``/dz/`` fails the script test);
- the guess and the declared language are *close neighbours* (:data:`CLOSE_GROUPS`: Galician
  read as Spanish, Nynorsk as Norwegian): the declared member of the group wins.

Anywhere else the identifier decides: an English licence block on a Galician page stays English.
The answer says which signal decided (:class:`Signal`).
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from bilingual_spider.language.badness import badness, default_profiles, profile_code
from bilingual_spider.language.codes import base_language, normalize_language_code, same_language

CLOSE_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"gl", "es", "pt"}),  # Ibero-Romance
    frozenset({"nn", "nb", "no", "da"}),  # Norwegian (lid.176's "no" is Bokmål) and Danish
    frozenset({"sl", "hr", "bs", "sr", "sh"}),  # South Slavic
    frozenset({"et", "fi"}),  # Finnic
    frozenset({"ms", "id"}),  # Malayic
    frozenset({"cs", "sk"}),  # Czech-Slovak
    frozenset({"uk", "ru", "be"}),  # East Slavic
    frozenset({"nl", "af"}),  # Dutch and Afrikaans
)
"""Languages an identifier mistakes for one another: where its guess and the declared language
are in one group, the declared member wins (the identifier cannot be trusted inside a group, the
site can). ``close_languages.CLOSE_LANGUAGE_GROUPS`` are the groups its n-gram model separates;
these add the languages lid.176 knows no n-gram model for (Nynorsk, Bokmål, South Slavic,
Finnic)."""

DECLARED_SCRIPTS: dict[str, str] = {
    "dz": "TIBETAN",
    "bo": "TIBETAN",
    "om": "LATIN",
    "gaz": "LATIN",
    "ti": "ETHIOPIC",
    "byn": "ETHIOPIC",
    "tig": "ETHIOPIC",
    "ff": "LATIN",
    "ha": "LATIN",
    "ak": "LATIN",
    "ee": "LATIN",
    "ig": "LATIN",
    "zu": "LATIN",
    "xh": "LATIN",
    "wo": "LATIN",
}
"""The script (first word of a letter's Unicode name) of languages lid.176 has no label for, as
their gettext catalogs in Debian write them. A declared language outside lid.176 and outside
this table is never taken over the identifier: without its script, an English copy could not be
told from it."""
MIN_SCRIPT_SHARE = 0.5
"""A text is in a script when that script has this share of its letters, or more."""
READS_AS_BADNESS_SHARE = 0.7
"""A text reads as a language when its badness for it is at most this share of the maximum.
English UI strings (gettext msgids of the nb catalogs, 15 to a text) score 0.15-0.65 of the
English maximum and 0.9-1.0 of the Finnish one; prose scores below 0.2 (``badness.is_good``)."""
SCRIPT_SAMPLE_CHARS = 2_000
"""The script is read on the text's first this many characters (plenty for a block's script)."""


class Signal(StrEnum):
    """Which signal decided a text's language."""

    IDENTIFIER = "identifier"
    DECLARED_CLOSE = "declared_close"
    """The declared language, a close neighbour of the identifier's guess."""
    DECLARED_UNKNOWN = "declared_unknown"
    """The declared language, which the identifier has no label for; the script fits."""
    LINKED_CLOSE = "linked_close"
    """As ``declared_close``, the language declared by the links naming the page (their
    ``hreflang``, a switcher's label), where the page itself declares none that decided."""
    LINKED_UNKNOWN = "linked_unknown"
    """As ``declared_unknown``, the language declared by the links naming the page."""


BY_LINKS = {
    Signal.DECLARED_CLOSE: Signal.LINKED_CLOSE,
    Signal.DECLARED_UNKNOWN: Signal.LINKED_UNKNOWN,
}
"""The signal of a language the links naming a page declared, by the rule that took it."""


class ResolvedLanguage(NamedTuple):
    lang: str
    signal: Signal


def script_of(text: str) -> str | None:
    """The script of most of ``text``'s letters (``LATIN``, ``TIBETAN``, ``CJK``...), None when
    no script has :data:`MIN_SCRIPT_SHARE` of them or there are none."""
    scripts: Counter[str] = Counter()
    for char in text[:SCRIPT_SAMPLE_CHARS]:
        if char.isalpha():
            scripts[unicodedata.name(char, "UNKNOWN ").split(" ", 1)[0]] += 1
    if not scripts:
        return None
    script, count = scripts.most_common(1)[0]
    return script if count / sum(scripts.values()) >= MIN_SCRIPT_SHARE else None


def close_group(lang: str) -> frozenset[str] | None:
    """The group of :data:`CLOSE_GROUPS` ``lang`` (its base language) is in, or None."""
    base = base_language(lang)
    return next((group for group in CLOSE_GROUPS if base in group), None)


def are_close(a: str, b: str) -> bool:
    """Whether two languages are one or close neighbours (one of :data:`CLOSE_GROUPS`)."""
    group = close_group(a)
    return same_language(a, b) or (group is not None and base_language(b) in group)


def reads_as(text: str, lang: str) -> bool:
    """Whether ``text`` reads as ``lang`` by its function words: its badness for ``lang`` is
    at most :data:`READS_AS_BADNESS_SHARE` of the badness of a text with none of them; False
    when there is no profile for ``lang``."""
    profiles = default_profiles()
    code = profile_code(lang, profiles)
    if code is None:
        return False
    profile = profiles[code]
    return badness(text, profile) <= READS_AS_BADNESS_SHARE * profile.max_badness


def resolve_language(
    identified: str | None,
    text: str,
    declared: str | None,
    knows: Callable[[str], bool],
) -> ResolvedLanguage | None:
    """The language of ``text``: the identifier's guess ``identified`` (None: it found none),
    unless the site's ``declared`` language (its project code) is a close neighbour of the
    guess or a language the identifier does not know (``knows``) whose script the text is
    written in and which the text does not read as the guess (see the module's docstring).
    None when neither names a language."""
    if identified is None:
        return None
    declared = normalize_language_code(declared) if declared else None
    if declared is None or same_language(identified, declared):
        return ResolvedLanguage(identified, Signal.IDENTIFIER)
    if are_close(declared, identified):
        return ResolvedLanguage(declared, Signal.DECLARED_CLOSE)
    script = DECLARED_SCRIPTS.get(base_language(declared))
    if (
        script is not None
        and not knows(declared)
        and script_of(text) == script
        and not reads_as(text, identified)
    ):
        return ResolvedLanguage(declared, Signal.DECLARED_UNKNOWN)
    return ResolvedLanguage(identified, Signal.IDENTIFIER)
