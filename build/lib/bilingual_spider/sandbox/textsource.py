"""Real parallel text available offline: the gettext translation catalogs under /usr/share/locale.

Every installed program that speaks several languages ships ``.mo`` catalogs: an English message
(``msgid``) and its human translation (``msgstr``) into one language. Merged by (catalog, msgid),
they give a parallel corpus of real sentences in every language we target, which is what the
generated web's pages are made of: a page and its translation use the same messages, one in each
language, so they are truly parallel; a monolingual page uses the messages of its own language.

Messages are filtered to read like prose: whole sentences or titles, no format directives, no
command-line option tables, no markup, and a translation that differs from the English.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import polib

DEFAULT_LOCALE_DIR = Path("/usr/share/locale")

# The project's language code -> gettext locale directories that hold its catalogs.
CATALOG_LOCALES: dict[str, tuple[str, ...]] = {
    "es": ("es",),
    "fr": ("fr",),
    "de": ("de",),
    "ja": ("ja",),
    "zh-Hans": ("zh_CN",),
    "zh-Hant": ("zh_TW", "zh_HK"),
    "it": ("it",),
    "pt-BR": ("pt_BR",),
    "ru": ("ru",),
    "ko": ("ko",),
}
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_NON_LATIN_LANGUAGES = {"ja", "zh-Hans", "zh-Hant", "ko", "ru"}
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Format directives, option tables, markup, paths, variables, escapes: not prose.
_NOT_PROSE = re.compile(r"%|--|[<>{}$\\@=|#*/\[\]]|\b[a-z]+_[a-z]+\b|\t|https?:|\.\.\.")
_MNEMONIC = re.compile(r"(?<=\w)_(?=\w)|^_|&(?=\w)")
MIN_SENTENCE_WORDS, MAX_SENTENCE_WORDS = 5, 40
MIN_TITLE_WORDS, MAX_TITLE_WORDS = 2, 5


@dataclass(frozen=True, slots=True)
class Message:
    """One English message of a catalog and its translations, by project language code."""

    catalog: str
    english: str
    translations: dict[str, str]

    @property
    def is_title(self) -> bool:
        words = len(self.english.split())
        return MIN_TITLE_WORDS <= words <= MAX_TITLE_WORDS and not self.english.endswith(".")

    def text(self, language: str) -> str:
        return self.english if language == "en" else self.translations[language]


@dataclass
class TextSource:
    """Parallel messages, with per-language pools of sentences and titles."""

    messages: list[Message]
    sentences: dict[str, list[int]] = field(default_factory=dict)
    titles: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        languages = {"en"} | {lang for m in self.messages for lang in m.translations}
        for lang in sorted(languages):
            have = [
                i for i, m in enumerate(self.messages) if lang == "en" or lang in m.translations
            ]
            self.titles[lang] = [i for i in have if self.messages[i].is_title]
            self.sentences[lang] = [i for i in have if not self.messages[i].is_title]

    @property
    def languages(self) -> list[str]:
        return sorted(self.sentences)

    def fingerprint(self) -> str:
        """A short hash of the corpus: a world is reproducible from (seed, fingerprint)."""
        digest = hashlib.sha256()
        for m in self.messages:
            digest.update(m.catalog.encode() + b"\0" + m.english.encode() + b"\0")
            for lang in sorted(m.translations):
                digest.update(lang.encode() + b"\0" + m.translations[lang].encode() + b"\0")
        return digest.hexdigest()[:16]

    def require(self, languages: Iterable[str], min_sentences: int = 200) -> None:
        """Fail clearly when a language has too little text to write pages in."""
        short = {
            lang: len(self.sentences.get(lang, ()))
            for lang in languages
            if len(self.sentences.get(lang, ())) < min_sentences
        }
        if short:
            have = ", ".join(f"{lang}: {n} sentences" for lang, n in sorted(short.items()))
            raise RuntimeError(
                f"not enough translated text in the gettext catalogs for {have} "
                f"(need {min_sentences}); install more localised packages or choose other languages"
            )

    @classmethod
    def from_catalogs(
        cls, languages: Iterable[str], locale_dir: str | Path = DEFAULT_LOCALE_DIR
    ) -> TextSource:
        """Read the ``.mo`` catalogs of ``languages`` (project codes) under ``locale_dir``."""
        locale_dir = Path(locale_dir)
        merged: dict[tuple[str, str], dict[str, str]] = {}
        for lang in sorted(set(languages) - {"en"}):
            if lang not in CATALOG_LOCALES:
                raise ValueError(f"no gettext locale known for language {lang!r}")
            for locale in CATALOG_LOCALES[lang]:
                for path in sorted((locale_dir / locale / "LC_MESSAGES").glob("*.mo")):
                    for english, translation in catalog_messages(path, lang):
                        merged.setdefault((path.stem, english), {}).setdefault(lang, translation)
        messages = [
            Message(catalog, english, translations)
            for (catalog, english), translations in sorted(merged.items())
        ]
        return cls(messages)


def clean(text: str) -> str:
    return " ".join(_MNEMONIC.sub("", text).split())


def is_prose(english: str) -> bool:
    words = english.split()
    if not MIN_TITLE_WORDS <= len(words) <= MAX_SENTENCE_WORDS:
        return False
    if _NOT_PROSE.search(english) or not english[0].isupper():
        return False
    if len(words) > MAX_TITLE_WORDS and len(words) < MIN_SENTENCE_WORDS:
        return False
    return sum(c.isalpha() for c in english) >= 0.75 * len(english.replace(" ", ""))


def is_translation(english: str, translation: str, language: str) -> bool:
    if not translation or translation == english or _NOT_PROSE.search(translation):
        return False
    if language in {"ja", "zh-Hans", "zh-Hant", "ko"}:
        return len(_CJK.findall(translation)) >= max(2, len(translation) // 4)
    if language == "ru":
        return len(_CYRILLIC.findall(translation)) >= len(translation) // 3
    return language not in _NON_LATIN_LANGUAGES


def catalog_messages(path: Path, language: str) -> Iterable[tuple[str, str]]:
    """The (English, translation) prose messages of one ``.mo`` catalog."""
    try:
        catalog = polib.mofile(str(path))
    except (OSError, ValueError, UnicodeDecodeError):
        return  # an unreadable catalog is skipped, not fatal
    for entry in catalog:
        if entry.msgid_plural or entry.obsolete or "fuzzy" in entry.flags:
            continue
        english, translation = clean(entry.msgid), clean(entry.msgstr)
        if english and is_prose(english) and is_translation(english, translation, language):
            yield english, translation
