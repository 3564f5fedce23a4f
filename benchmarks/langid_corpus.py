"""Labelled text for language ID, from real human translations available offline.

- Sentences, two-word strings and single words: the translations (``msgstr``) of the gettext
  catalogs under /usr/share/locale, 20 languages common on the web. Catalogs are split in two
  halves by a hash of their name: ``calibration`` (to set the undetermined thresholds) and
  ``evaluation`` (to report), so no figure is measured on the text it was tuned on.
- Pages: the translated Debian documentation of the real sites (``sandbox fetch``), main text
  only, labelled by their gold pairs; for languages without such pages, page-length texts of 15
  evaluation sentences.
"""

from __future__ import annotations

import random
import re
import zlib
from collections import defaultdict
from pathlib import Path

import polib

from bilingual_spider.language.codes import normalize_language_code

LOCALE_DIR = Path("/usr/share/locale")
# 20 languages common on the web (W3Techs' content-language ranking, roughly), by gettext locale.
LANGUAGES: dict[str, str] = {
    "en": "en",  # the msgids
    "ru": "ru",
    "es": "es",
    "de": "de",
    "fr": "fr",
    "ja": "ja",
    "pt": "pt",
    "it": "it",
    "tr": "tr",
    "nl": "nl",
    "pl": "pl",
    "zh-Hans": "zh_CN",
    "zh-Hant": "zh_TW",
    "vi": "vi",
    "id": "id",
    "ar": "ar",
    "fa": "fa",
    "ko": "ko",
    "cs": "cs",
    "uk": "uk",
    "sv": "sv",
}
# Close relatives of those languages, for the close-language model (close_languages.py) only.
CLOSE_RELATIVES: dict[str, str] = {
    "ms": "ms",
    "gl": "gl",
    "be": "be",
    "sk": "sk",
    "da": "da",
    "no": "nb",  # lid.176 says "no" for Norwegian Bokmål
    "af": "af",
}
_NOT_PROSE = re.compile(r"%|--|[<>{}$\\@=|#*/\[\]_&]|https?:|\.\.\.")
_SPACELESS = {"ja", "zh-Hans", "zh-Hant"}


def _half(catalog: str) -> str:
    return "calibration" if zlib.crc32(catalog.encode()) % 2 == 0 else "evaluation"


def catalog_sentences(
    half: str,
    per_language: int = 2000,
    seed: int = 0,
    languages: dict[str, str] = LANGUAGES,
) -> dict[str, list[str]]:
    """Up to ``per_language`` distinct prose strings of >= 4 words (>= 8 characters for
    Chinese/Japanese) per language (project code -> gettext locale), from the catalogs of one
    half. English comes from the msgids."""
    found: dict[str, set[str]] = defaultdict(set)
    for lang, locale in languages.items():
        if lang == "en":
            continue
        for path in sorted((LOCALE_DIR / locale / "LC_MESSAGES").glob("*.mo")):
            if _half(path.stem) != half:
                continue
            try:
                catalog = polib.mofile(str(path))
            except (OSError, ValueError, UnicodeDecodeError):
                continue
            for entry in catalog:
                if entry.msgid_plural or "fuzzy" in entry.flags:
                    continue
                english, translation = " ".join(entry.msgid.split()), " ".join(entry.msgstr.split())
                if _is_sentence(english, "en"):
                    found["en"].add(english)
                if translation != english and _is_sentence(translation, lang):
                    found[lang].add(translation)
    rng = random.Random(seed)
    out = {}
    for lang in languages:
        texts = sorted(found[lang])
        rng.shuffle(texts)
        out[lang] = texts[:per_language]
    return out


def _is_sentence(text: str, lang: str) -> bool:
    if not text or _NOT_PROSE.search(text):
        return False
    if lang in _SPACELESS:
        return len(text) >= 8
    return len(text.split()) >= 4


def short_strings(sentences: dict[str, list[str]], words: int) -> dict[str, list[str]]:
    """The first ``words`` words of each sentence (Chinese/Japanese: 2 characters a word)."""
    out = {}
    for lang, texts in sentences.items():
        if lang in _SPACELESS:
            cut = [t[: 2 * words] for t in texts]
        else:
            cut = [" ".join(t.split()[:words]).strip(".,:;!?()\"'") for t in texts]
        out[lang] = sorted({c for c in cut if c and any(ch.isalpha() for ch in c)})
    return out


def page_texts(sentences: dict[str, list[str]], per_page: int = 15) -> dict[str, list[str]]:
    """Page-length texts: consecutive groups of ``per_page`` sentences."""
    return {
        lang: [" ".join(texts[i : i + per_page]) for i in range(0, len(texts), per_page)]
        for lang, texts in sentences.items()
    }


def real_pages(limit_per_language: int = 200) -> dict[str, list[bytes]]:
    """HTML of the real sites' gold-pair pages, by language (empty if not fetched)."""
    from bilingual_spider.sandbox.config import SandboxConfig
    from bilingual_spider.sandbox.realsites import gold_pairs_path, sandbox_config_path
    from bilingual_spider.sandbox.server import Sandbox

    try:
        config = SandboxConfig()
        config.add_file(sandbox_config_path())
        lines = gold_pairs_path().read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, ValueError):
        return {}
    sandbox = Sandbox(config)
    pages: dict[str, list[bytes]] = defaultdict(list)
    seen: set[str] = set()
    for line in lines:
        source, target, source_lang, target_lang, _ = line.split("\t")
        for url, lang in ((source, source_lang), (target, target_lang)):
            lang = normalize_language_code(lang) or lang
            if url in seen or len(pages[lang]) >= limit_per_language:
                continue
            seen.add(url)
            answer = sandbox.handle("GET", url, "")
            if answer.status == 200:
                pages[lang].append(answer.body)
    return dict(pages)
