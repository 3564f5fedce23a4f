"""Build the Badness profiles (``badness_profiles.json``) from human-written text found offline.

    python -m bilingual_spider.language.build_badness_profiles [--out PATH] [--langs en,fr,...]

Sources, both translated by people and installed on any Debian system:

* **man pages**: ``/usr/share/man/<locale>/`` for each language (English: a fixed sample of
  sections 1, 5, 7 and 8 of ``/usr/share/man/``), rendered to text with ``groff``, which every
  system with man pages has (man-db depends on it);
* **gettext catalogs**: the translations (msgstr) of ``/usr/share/locale/<locale>/LC_MESSAGES/
  *.mo``; for English their source strings (msgid), one catalog per domain.

Not used: HTML documentation. The benchmark (``benchmarks/badness.py``) evaluates on the Debian
documentation HTML of the sandbox's real sites, so the profiles never see its text.

What is kept of a source: its paragraphs (a man page's blank-line separated blocks; a catalog's
messages) without markup remnants (option names, paths, URLs, printf placeholders, menu
accelerators), that have at least :data:`MIN_UNIT_LETTERS` letters and that fastText's lid.176
(:mod:`bilingual_spider.language.identification`) puts in the target language: untranslated
English paragraphs of a translated man page stay out. The kept paragraphs of one source are its
documents, cut into pieces of at most :data:`MAX_DOCUMENT_TOKENS` tokens (the size of a web page's
text, so that the spread of the frequencies is that of a web page); pieces under
:data:`MIN_DOCUMENT_TOKENS` tokens are dropped. ``badness.fit_profile`` then picks the words
(:func:`function_word_filter`) and estimates their means and spreads.

The output is deterministic for a given set of installed files (sorted inputs, rounded numbers,
no dates); ``input_digest`` in the file identifies that set.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import logging
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bilingual_spider.language.badness import (
    BADNESS_THRESHOLD,
    DEFAULT_PROFILES_PATH,
    PROFILE_WORDS,
    WORD_LIMIT,
    LanguageProfile,
    ProfileSource,
    TokenCounts,
    fit_profile,
    profile_to_dict,
    token_counts,
    tokens,
)
from bilingual_spider.language.boilerplate import stoplist_setting
from bilingual_spider.language.codes import base_language, normalize_language_code

logger = logging.getLogger(__name__)

MAN_ROOT = Path("/usr/share/man")
LOCALE_ROOT = Path("/usr/share/locale")
ENGLISH_MAN_SECTIONS = ("man1", "man5", "man7", "man8")
ENGLISH_MAN_PAGES = 600
"""English has ~20,000 man pages; a fixed sample of this many (by a hash of the path) is enough."""
PAGES_PER_FAMILY = 5
"""16,000 of the English pages are ``gcloud-*``: the sample takes at most this many of a family."""
MIN_UNIT_LETTERS = 20
MIN_MESSAGE_LETTERS = 60
"""Catalog messages must be longer: short ones are mostly error messages ("cannot open file"),
whose words (not, cannot, failed, file) would crowd out the function words of prose."""
MAX_DOCUMENT_TOKENS = 2000
MIN_DOCUMENT_TOKENS = 100
MIN_DOCUMENTS = 30
"""A language with fewer documents than this gets no profile (its estimates would be noise)."""
DEFAULT_LANGUAGES = (
    # the languages of the project's targets
    "en", "es", "fr", "de", "it", "pt", "nl", "ru", "zh-Hans", "zh-Hant", "ja", "ko",
    # and those of the real sites' other translations, so that the lowest badness has rivals
    "ca", "cs", "da", "el", "fi", "hu", "id", "pl", "ro", "sv", "tr", "uk", "vi",
)  # fmt: skip
CHARACTER_LANGUAGES = frozenset({"zh-Hans", "zh-Hant", "ja", "ko"})
MAX_SPREAD = 0.3
GROFF = ("groff", "-t", "-k", "-Tutf8", "-mandoc", "-rLL=2000n", "-rHY=0", "-P-cbou")

# Spans of technical markup that are not prose in any language.
_NOT_PROSE = re.compile(
    r"""
    \b\w+://\S+                          # URLs
    | \S+@\S+                            # e-mail addresses
    | \S*/\S+                            # paths
    | \S*(?:_|::|\$|=)\S*                # identifiers, variables, assignments
    | (?<![\w-])--?\w[\w-]*              # command-line options
    | %(?:\([^)]*\))?[-+ #0]*\d*(?:\.\d+)?[hlLqjzt]*[a-zA-Z%]   # printf placeholders
    | \{[^}\s]*\}                        # {name} placeholders
    | <[^>]*>                            # markup
    | \(&?_?[A-Za-z]\)                   # menu accelerators in CJK catalogs: 打开(_O)
    """,
    re.VERBOSE,
)
_ACCELERATOR = re.compile(r"[&_](?=\w)")
_HIRAGANA = re.compile(r"[\u3041-\u309f]")
_LETTER = re.compile(r"[^\W\d_]")
_BLANK_LINES = re.compile(r"\n\s*\n")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Source:
    """One file of text (a man page, a catalog) and the language it is in."""

    kind: str  # "man" or "gettext"
    path: Path
    lang: str


# --- finding the sources ----------------------------------------------------------------------


def locale_language(name: str) -> str | None:
    """The project code of a locale directory (``pt_BR`` -> ``pt-BR``, ``zh_TW`` -> ``zh-Hant``);
    None for variants that are not a language of their own (``sr@latin``, ``en@quot``)."""
    if "@" in name:
        return None
    return normalize_language_code(name)


def profile_language(code: str) -> str:
    """The profile a locale feeds: Chinese keeps its script, other languages lose the region."""
    return code if code.startswith("zh-") else base_language(code)


def _locale_dirs(root: Path, lang: str) -> list[Path]:
    if not root.is_dir():
        return []
    return sorted(
        d
        for d in root.iterdir()
        if d.is_dir() and (code := locale_language(d.name)) and profile_language(code) == lang
    )


def _stable_rank(path: Path) -> str:
    return hashlib.sha256(str(path).encode()).hexdigest()


def _few_per_family(pages: Iterable[Path], keep: int = PAGES_PER_FAMILY) -> list[Path]:
    """At most ``keep`` pages of each family (``gcloud-compute-...``: the name before the first
    ``-``, ``_`` or ``.``), so that one tool's thousands of pages cannot be the sample."""
    seen: Counter[str] = Counter()
    kept = []
    for page in sorted(pages, key=_stable_rank):
        family = re.split(r"[-_.]", page.name, maxsplit=1)[0]
        seen[family] += 1
        if seen[family] <= keep:
            kept.append(page)
    return kept


def man_sources(lang: str, root: Path = MAN_ROOT) -> list[Source]:
    """The man pages of ``lang``; for English a fixed sample of the untranslated sections."""
    if lang == "en":
        pages = [p for s in ENGLISH_MAN_SECTIONS for p in sorted((root / s).glob("*.gz"))]
        pages = sorted(sorted(_few_per_family(pages), key=_stable_rank)[:ENGLISH_MAN_PAGES])
    else:
        pages = [p for d in _locale_dirs(root, lang) for p in sorted(d.glob("man*/*.gz"))]
    return [Source("man", p, lang) for p in pages if p.is_file()]


def catalog_sources(lang: str, root: Path = LOCALE_ROOT) -> list[Source]:
    """The gettext catalogs translated into ``lang``. For English, every domain once: the
    largest catalog of that domain (its msgids are the English text)."""
    if lang != "en":
        return [
            Source("gettext", p, lang)
            for d in _locale_dirs(root, lang)
            for p in sorted((d / "LC_MESSAGES").glob("*.mo"))
        ]
    largest: dict[str, Path] = {}
    for path in sorted(root.glob("*/LC_MESSAGES/*.mo")):
        if locale_language(path.parent.parent.name) is None:
            continue
        best = largest.get(path.name)
        if best is None or path.stat().st_size > best.stat().st_size:
            largest[path.name] = path
    return [Source("gettext", largest[name], "en") for name in sorted(largest)]


# --- reading them -----------------------------------------------------------------------------


def is_redirect(roff: str) -> bool:
    """A man page that only says ``.so other-page`` (an alias)."""
    lines = [ln for ln in roff.splitlines() if ln.strip() and not ln.startswith(('.\\"', "'\\\""))]
    return bool(lines) and lines[0].startswith(".so ") and len(lines) <= 2


def render_man_page(path: Path) -> str:
    """The text of a gzipped man page, rendered by groff without any emphasis."""
    roff = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    if is_redirect(roff):
        return ""
    done = subprocess.run(
        GROFF, input=roff.encode("utf-8"), capture_output=True, timeout=60, check=False
    )
    return done.stdout.decode("utf-8", errors="replace")


def man_paragraphs(rendered: str) -> list[str]:
    """The blank-line separated blocks of a rendered man page, each on one line; hyphenated
    line ends are joined (groff ran without hyphenation, but the source may break words)."""
    text = re.sub(r"(\w)-\n\s*(\w)", r"\1\2", rendered)
    return [_SPACES.sub(" ", block).strip() for block in _BLANK_LINES.split(text) if block.strip()]


def catalog_messages(path: Path, lang: str) -> list[str]:
    """The translated messages of a ``.mo`` catalog (for English: the source messages)."""
    import polib

    messages = []
    for entry in polib.mofile(str(path)):
        source = entry.msgid
        translated = entry.msgstr or (entry.msgstr_plural or {}).get(0, "")
        text = source if lang == "en" else translated
        if source and text and (lang == "en" or translated != source):
            messages.append(text)
    return messages


def prose(unit: str) -> str:
    """``unit`` without markup remnants (options, paths, placeholders, accelerators)."""
    return _SPACES.sub(" ", _ACCELERATOR.sub("", _NOT_PROSE.sub(" ", unit))).strip()


def source_units(source: Source) -> list[str]:
    """The cleaned paragraphs of a source that have enough letters to be prose."""
    if source.kind == "man":
        units = man_paragraphs(render_man_page(source.path))
    else:
        units = catalog_messages(source.path, source.lang)
    minimum = MIN_UNIT_LETTERS if source.kind == "man" else MIN_MESSAGE_LETTERS
    cleaned = (prose(u) for u in units)
    return [u for u in cleaned if len(_LETTER.findall(u)) >= minimum]


def in_language(
    units: Sequence[str], lang: str, identify: Callable[[list[str]], list[str]]
) -> list[str]:
    """The units that language ID puts in ``lang`` (compared without region or script)."""
    found = identify(list(units)) if units else []
    return [
        u
        for u, code in zip(units, found, strict=True)
        if base_language(code) == base_language(lang)
    ]


def documents(units: Iterable[str], max_tokens: int = MAX_DOCUMENT_TOKENS) -> Iterator[str]:
    """Consecutive units joined into documents of at most ``max_tokens`` tokens (a longer unit
    is a document of its own), leaving out documents under :data:`MIN_DOCUMENT_TOKENS`."""
    current: list[str] = []
    size = 0
    for unit in units:
        n = len(tokens(unit))
        if current and size + n > max_tokens:
            if size >= MIN_DOCUMENT_TOKENS:
                yield "\n".join(current)
            current, size = [], 0
        current.append(unit)
        size += n
    if current and size >= MIN_DOCUMENT_TOKENS:
        yield "\n".join(current)


# --- building ---------------------------------------------------------------------------------


def lid_identify() -> Callable[[list[str]], list[str]]:
    from bilingual_spider.language.identification import default_identifier

    identifier = default_identifier()

    def identify(texts: list[str]) -> list[str]:
        return [g[0].lang if g else "und" for g in identifier.identify_many(texts)]

    return identify


def language_documents(
    lang: str, identify: Callable[[list[str]], list[str]], workers: int = 2
) -> dict[str, list[TokenCounts]]:
    """The token counts of the documents of ``lang``, by kind of source."""
    sources = man_sources(lang) + catalog_sources(lang)
    by_kind: dict[str, list[TokenCounts]] = {"man": [], "gettext": []}
    with ThreadPoolExecutor(max_workers=workers) as pool:  # groff runs in its own process
        for source, units in zip(sources, pool.map(source_units, sources), strict=True):
            for doc in documents(in_language(units, lang, identify)):
                by_kind[source.kind].append(token_counts(doc))
    return by_kind


def function_word_filter(lang: str) -> tuple[Callable[[str], bool] | None, float | None]:
    """How :func:`~bilingual_spider.language.badness.select_words` tells the function words of
    ``lang`` from the technical vocabulary of man pages and catalogs (file, Datei, fichier):

    * a language with spaces: the word must be in jusText's stop list for it (the frequent
      words of that language's Wikipedia, the same lists the boilerplate score uses);
    * Chinese and Korean, whose units are characters (no list of those): the character's
      frequency must be evenly spread, stdev of its log10 at most :data:`MAX_SPREAD`
      (function characters measure 0.13-0.30, topical ones such as 件 file, 数 number
      0.36-0.45);
    * Japanese: the same, and only hiragana, the script of its particles and endings (katakana
      is for loanwords, ファイル, frequent in technical text only).
    """
    if lang in CHARACTER_LANGUAGES:
        if lang == "ja":
            return (lambda w: _HIRAGANA.fullmatch(w) is not None), MAX_SPREAD
        return None, MAX_SPREAD
    setting = stoplist_setting(lang)
    return setting.stoplist.__contains__, None


def build_profile(lang: str, identify: Callable[[list[str]], list[str]]) -> LanguageProfile | None:
    by_kind = language_documents(lang, identify)
    sources = tuple(
        ProfileSource(
            "man pages" if kind == "man" else "gettext catalogs",
            len(docs),
            sum(d.total for d in docs),
        )
        for kind, docs in by_kind.items()
    )
    docs = [d for kind_docs in by_kind.values() for d in kind_docs]
    if len(docs) < MIN_DOCUMENTS:
        logger.warning("%s: only %d documents, no profile", lang, len(docs))
        return None
    is_candidate, max_spread = function_word_filter(lang)
    return fit_profile(lang, docs, PROFILE_WORDS, WORD_LIMIT, sources, is_candidate, max_spread)


def input_digest(langs: Iterable[str]) -> str:
    """A digest of the paths and sizes of every source file: same digest, same profiles."""
    digest = hashlib.sha256()
    for lang in langs:
        for source in man_sources(lang) + catalog_sources(lang):
            digest.update(f"{source.kind}\t{source.path}\t{source.path.stat().st_size}\n".encode())
    return digest.hexdigest()


def source_directories(lang: str) -> dict[str, list[str]]:
    """The directories a profile's text came from (for the record in the JSON file)."""
    if lang == "en":
        man = [str(MAN_ROOT / s) for s in ENGLISH_MAN_SECTIONS]
        locale = [f"{LOCALE_ROOT}/*/LC_MESSAGES (msgid)"]
    else:
        man = [str(d) for d in _locale_dirs(MAN_ROOT, lang)]
        locale = [str(d / "LC_MESSAGES") for d in _locale_dirs(LOCALE_ROOT, lang)]
    return {"man pages": man, "gettext catalogs": locale}


def render_json(profiles: Sequence[LanguageProfile], digest: str) -> str:
    data = {
        "about": (
            "Badness profiles (Schaefer, Barbey, Bildhauer 2014, Section 2; texrex "
            "TTrTextAssessment): per language, the most frequent function words with mean and "
            "standard deviation of their log10 relative frequency across documents. Built by "
            "python -m bilingual_spider.language.build_badness_profiles from translated man "
            "pages and gettext catalogs (English: man pages and catalog source strings)."
        ),
        "threshold": BADNESS_THRESHOLD,
        "words_per_profile": PROFILE_WORDS,
        "build": {
            "unit_filter": f"man page paragraphs of >= {MIN_UNIT_LETTERS} letters and catalog "
            f"messages of >= {MIN_MESSAGE_LETTERS} letters that lid.176 puts in the language",
            "function_words": "jusText stop list of the language; for zh, ja, ko characters "
            f"whose log10 frequency has stdev <= {MAX_SPREAD} (ja: hiragana only)",
            "document_tokens": [MIN_DOCUMENT_TOKENS, MAX_DOCUMENT_TOKENS],
            "english_man_pages": ENGLISH_MAN_PAGES,
            "english_man_sections": list(ENGLISH_MAN_SECTIONS),
            "input_digest": digest,
        },
        "profiles": {
            p.lang: {**profile_to_dict(p), "directories": source_directories(p.lang)}
            for p in sorted(profiles, key=lambda p: p.lang)
        },
    }
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_PROFILES_PATH)
    parser.add_argument("--langs", default=",".join(DEFAULT_LANGUAGES))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    if shutil.which(GROFF[0]) is None:
        parser.error("groff is needed to render the man pages (apt-get install groff-base)")
    langs = [code.strip() for code in args.langs.split(",") if code.strip()]
    identify = lid_identify()
    profiles = []
    for lang in langs:
        profile = build_profile(lang, identify)
        if profile is None:
            continue
        words = " ".join(w.word for w in profile.words)
        logger.info(
            "%s: %d documents, %d tokens: %s", lang, profile.documents, profile.tokens, words
        )
        profiles.append(profile)
    args.out.write_text(render_json(profiles, input_digest(langs)), encoding="utf-8")
    logger.info("wrote %d profiles to %s", len(profiles), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
