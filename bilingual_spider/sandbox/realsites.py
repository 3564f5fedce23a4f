"""The real multilingual sites of the sandbox web: Debian's translated documentation, mounted at
the host names of its real-world counterparts, with gold parallel page pairs derived from the files.

The sites are listed in ``real_sites.toml`` (see its header for the fields). :func:`prepare` runs
every step and is idempotent. :func:`fetch` runs apt-get and dpkg; :func:`build` reads the
unpacked tree and writes the outputs; what decides (page patterns, text blocks, language and
copied share, start pages, the rendered index and config) is pure and tested on its own::

    load_sites      real_sites.toml -> RealSite values
    fetch           apt-get download + dpkg -x into the cache (never installs anything)
    page_files      the served .html files of a site, with the page and language of each
    entry pages     every site's entry page in every real style (:data:`ENTRY_STYLES`): its
                    root is one of them (``entry_style``) or its own, and the site is also
                    served behind each at ``STYLE.entry.HOST``
    derive_gold     English page x translation of the same page, unless the translation is a
                    symlink to the English file, half or more of its prose is the English
                    page's, or its own prose (not copied) is not in its language

The cache (``$BILINGUAL_SANDBOX_CACHE``, default ``~/.cache/bilingual_spider/realsites``) holds::

    debs/*.deb  root/ (the unpacked tree)  stamps/  overlays/<site>/<style>/index.html
    sandbox.toml      the sandbox server's [[mount]] config for these sites
    gold_pairs.tsv    src_url, tgt_url, src_lang, tgt_lang, site (tab-separated, no header)
    sites.json        one summary per site: set, whether bilingual, pages, languages, gold
                      pairs, drops by reason
    entry_styles.tsv  url, bilingual (1/0), site, style: each site behind each entry style
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from html import escape
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import lxml.html
from lxml import etree

from bilingual_spider.language.codes import normalize_language_code
from bilingual_spider.language.codes import same_language as codes_same_language
from bilingual_spider.language.page_language import is_navigation
from bilingual_spider.patterns.copied_prose import SourceProse, as_source, copied_prose_share

if TYPE_CHECKING:
    from bilingual_spider.language.identification import LanguageIdentifier

logger = logging.getLogger(__name__)

CACHE_ENV_VAR = "BILINGUAL_SANDBOX_CACHE"
DEFAULT_CACHE_DIR = Path("~/.cache/bilingual_spider/realsites")
DEFAULT_SITES_FILE = Path(__file__).with_name("real_sites.toml")
SANDBOX_CONFIG_FILE = "sandbox.toml"
GOLD_PAIRS_FILE = "gold_pairs.tsv"
GOLD_UNJUDGED_FILE = "gold_unjudged.tsv"
"""One line per page whose source page is not in the source language (``source_not_english``)
or not served at its URL (``source_not_served``: an entry page in front of it),
and per page of which two files or more hold other sections (``other_sections``): the URLs of
those files, tab-separated. The gold pairs only the source page with each translation, so it
can say nothing of pairs among these."""
SITES_FILE = "sites.json"
BUILD_KEY_FILE = "build.key"

KINDS = ("multilingual", "monolingual")
DROP_REASONS = (
    "untranslated_symlink",  # (a) a symlink to, or the same file as, the English page
    "copied",  # (b) half or more of its prose is the English page's (copied_prose_share)
    "wrong_language",  # (c) language ID of its own (not copied) prose is not the file's language
    "source_not_english",  # the English page itself is not identified as English
    "source_not_served",  # the site's entry page is served at the English page's URL
    "no_source_page",  # a translated page with no English page of the same name
    "other_section",  # it holds another section than the English page of its name (by hand)
)
APT_TIMEOUT = 3600.0

_HTML_SUFFIXES = (".html", ".htm")
_SITE_FIELDS = {
    "name", "kind", "host", "prefix", "packages", "dirs", "page_pattern", "source_lang",
    "entry_style", "home", "set", "holdout", "other_sections",
}  # fmt: skip
_OPTIONAL_FIELDS = {"source_lang", "entry_style", "home", "set", "holdout", "other_sections"}
SETS = ("original", "new", "deep")
"""The real sites come in two sets (``set`` in real_sites.toml): the seven the project started
with and those added later; a Link Predictor scored on one set is trained without it."""
ENTRY_STYLES = (
    "native_list", "english_names", "codes", "flags", "hreflang", "select", "header", "footer",
)  # fmt: skip
"""How a real site's entry page offers its languages (:func:`render_entry_page`): a language
chooser of native names (with codes, ``hreflang``), of English names, of ISO codes, of flag
images only, of the languages' own page titles told apart by ``hreflang`` only, a ``<select>``
menu; or the source language's start page with a switcher in its header, or an "Other
languages:" footer. Every real site is also served behind every style, at
``STYLE.entry.HOST`` (:data:`ENTRY_STYLES_FILE`)."""
ENTRY_STYLES_FILE = "entry_styles.tsv"
"""One line per real site and entry style: URL, bilingual (1/0), site, style."""
MIN_TRANSLATED_SHARE = 0.5
"""A language counts as one the site is written in when at least this share of its own (not
symlinked) files are translations (pass :func:`judge_translation`); a site is *bilingual* when
one language besides the source counts (debian-policy's Japanese, mostly English, does not)."""
# Not part of a page's prose: code samples and commands are the same in every language.
_NON_TEXT_TAGS = ("script", "style", "noscript", "template", "pre", "code", "tt", "kbd", "samp")
_BLOCK_TAGS = (
    "address", "article", "aside", "blockquote", "br", "caption", "dd", "div", "dl", "dt",
    "fieldset", "figcaption", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "option", "p", "section", "table", "td", "th", "title", "tr",
    "ul",
)  # fmt: skip
_XML_ENCODING = re.compile(rb"""<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)""")
_META_CHARSET = re.compile(rb"""<meta[^>]*\bcharset\s*=\s*["']?([A-Za-z0-9._:-]+)""", re.I)
_BLOCK_BREAK = "\u2029"  # PARAGRAPH SEPARATOR: line breaks in the source are mere spaces
_PARSER = lxml.html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)

# Native and English names of the languages of the sites, for the generated language index.
LANGUAGE_NAMES: dict[str, tuple[str, str]] = {
    "ca": ("català", "Catalan"),
    "cs": ("čeština", "Czech"),
    "da": ("dansk", "Danish"),
    "de": ("Deutsch", "German"),
    "el": ("Ελληνικά", "Greek"),
    "en": ("English", "English"),
    "es": ("español", "Spanish"),
    "fi": ("suomi", "Finnish"),
    "fr": ("français", "French"),
    "hu": ("magyar", "Hungarian"),
    "id": ("Indonesia", "Indonesian"),
    "it": ("Italiano", "Italian"),
    "ja": ("日本語", "Japanese"),
    "ko": ("한국어", "Korean"),
    "nl": ("Nederlands", "Dutch"),
    "pl": ("polski", "Polish"),
    "pt": ("Português", "Portuguese"),
    "pt-BR": ("Português (Brasil)", "Portuguese (Brazil)"),
    "ro": ("română", "Romanian"),
    "ru": ("Русский", "Russian"),
    "sv": ("svenska", "Swedish"),
    "tr": ("Türkçe", "Turkish"),
    "uk": ("українська", "Ukrainian"),
    "vi": ("Tiếng Việt", "Vietnamese"),
    "zh-Hans": ("中文(简)", "Chinese (Simplified)"),
    "zh-Hant": ("中文(繁)", "Chinese (Traditional)"),
}


class AptUnavailable(RuntimeError):
    """``apt-get`` or ``dpkg`` is not available, so the real sites cannot be fetched here."""


class FetchError(RuntimeError):
    """A package could not be downloaded or unpacked."""


@dataclass(frozen=True)
class RealSite:
    """One site of ``real_sites.toml``: Debian packages served at ``http://host/prefix``."""

    name: str
    kind: str
    host: str
    prefix: str
    packages: tuple[str, ...]
    dirs: tuple[str, ...]
    page_pattern: str
    source_lang: str = "en"
    entry_style: str = "none"
    """The entry page at the mount root (one of :data:`ENTRY_STYLES`), or ``none``: the site's
    own root (or ``home``) is its entry page."""
    home: str = ""
    """The site's home page below the mount: every language's start page is its version of it;
    with entry_style ``none``, the site's entry page (the mount root when empty)."""
    set: str = "original"
    holdout: bool = False
    """Never trained or tuned on: reported on its own."""
    other_sections: tuple[str, ...] = ()
    """Translated files (paths below the mount) that hold another section than the source
    page of the same name: a translation of an older edition numbered otherwise. Read by a
    person from the pages' section titles; no pair of the gold (``other_section``), and the
    pairs among those of one name are unjudged (they may or may not hold one section)."""

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> RealSite:
        """Validate one ``[[site]]`` table and normalise its language code."""
        name = values.get("name", "?")
        unknown = sorted(set(values) - _SITE_FIELDS)
        if unknown:
            raise ValueError(f"site {name}: unknown field(s) {', '.join(unknown)}")
        missing = sorted(_SITE_FIELDS - _OPTIONAL_FIELDS - set(values))
        if missing:
            raise ValueError(f"site {name}: missing field(s) {', '.join(missing)}")
        source_lang = normalize_language_code(values.get("source_lang", "en"))
        site = cls(
            name=str(values["name"]),
            kind=str(values["kind"]),
            host=str(values["host"]).lower(),
            prefix=str(values["prefix"]),
            packages=tuple(values["packages"]),
            dirs=tuple(values["dirs"]),
            page_pattern=str(values["page_pattern"]),
            source_lang=source_lang or "",
            entry_style=str(values.get("entry_style", "none")),
            home=str(values.get("home", "")),
            set=str(values.get("set", "original")),
            holdout=bool(values.get("holdout", False)),
            other_sections=tuple(values.get("other_sections", ())),
        )
        site.validate()
        return site

    def validate(self) -> None:
        """Raise ValueError when a field cannot work (bad kind, prefix, pattern or directory)."""
        problems = []
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]*", self.name):
            problems.append("name must be lower-case letters, digits, '.', '_' or '-'")
        if self.kind not in KINDS:
            problems.append(f"kind must be one of {', '.join(KINDS)}")
        if not (self.prefix.startswith("/") and self.prefix.endswith("/")):
            problems.append("prefix must start and end with '/'")
        if not self.source_lang:
            problems.append("source_lang is not a language code")
        if self.entry_style not in ("none", *ENTRY_STYLES):
            problems.append(f"entry_style must be none or one of {', '.join(ENTRY_STYLES)}")
        if self.set not in SETS:
            problems.append(f"set must be one of {', '.join(SETS)}")
        if self.home and (self.home.startswith("/") or ".." in PurePosixPath(self.home).parts):
            problems.append("home must be a path below the mount")
        if not self.packages or not self.dirs:
            problems.append("packages and dirs must not be empty")
        for directory in self.dirs:
            path = PurePosixPath(directory)
            if path.is_absolute() or ".." in path.parts:
                problems.append(f"dir {directory!r} must be relative to the unpacked tree")
        try:
            if "page" not in re.compile(self.page_pattern).groupindex:
                problems.append("page_pattern needs a named group 'page'")
        except re.error as exc:
            problems.append(f"page_pattern: {exc}")
        if problems:
            raise ValueError(f"site {self.name}: " + "; ".join(problems))

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(self.page_pattern)

    @property
    def seed_url(self) -> str:
        """The URL of the mount root."""
        return f"http://{self.host}{self.prefix}"

    @property
    def home_url(self) -> str:
        """The URL of the site's entry page: the mount root, or its ``home`` when the site keeps
        its own entry page."""
        return self.url(self.home) if self.home and self.entry_style == "none" else self.seed_url

    def style_url(self, style: str) -> str:
        """The URL of the site behind the entry page of ``style`` (its own host)."""
        return f"http://{style}.entry.{self.host}{self.prefix}"

    def url(self, relative: str) -> str:
        """The URL at which the file served at ``relative`` (below the mount) is found."""
        return self.seed_url + quote(relative, safe="/")

    def match(self, relative: str) -> tuple[str, str] | None:
        """``(language, page id)`` of a file by ``page_pattern``, or None if it is not a page."""
        found = self.pattern.fullmatch(relative)
        if found is None:
            return None
        groups = found.groupdict()
        lang = normalize_language_code(groups["lang"]) if groups.get("lang") else self.source_lang
        return (lang, groups["page"]) if lang else None


@dataclass(frozen=True)
class PageFile:
    """A served HTML file that ``page_pattern`` identifies as one language of one page."""

    relative: str
    """Its path below the mount, as served."""
    path: Path
    """Where it is on disk (not resolved: it may be a symlink)."""
    lang: str
    page: str
    symlink: bool
    file_id: tuple[int, int]
    """``(st_dev, st_ino)`` of the file it resolves to: equal for two paths of one file, whether
    through symlinks (what ``os.path.realpath`` sees) or hard links (what it does not)."""


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


# ---------------------------------------------------------------------------------------------
# Configuration and cache paths


def load_sites(path: str | os.PathLike[str] | None = None) -> list[RealSite]:
    """The sites of a TOML file (default: the shipped ``real_sites.toml``)."""
    path = Path(path) if path else DEFAULT_SITES_FILE
    with path.open("rb") as f:
        data = tomllib.load(f)
    unknown = sorted(set(data) - {"site"})
    if unknown:
        raise ValueError(f"{path}: unknown section(s) {', '.join(unknown)}")
    sites = [RealSite.from_dict(entry) for entry in data.get("site", [])]
    names = Counter(site.name for site in sites)
    duplicates = sorted(name for name, n in names.items() if n > 1)
    if duplicates:
        raise ValueError(f"{path}: duplicate site name(s) {', '.join(duplicates)}")
    return sites


def default_cache_dir() -> Path:
    """``$BILINGUAL_SANDBOX_CACHE`` or ``~/.cache/bilingual_spider/realsites``."""
    return Path(os.environ.get(CACHE_ENV_VAR) or DEFAULT_CACHE_DIR).expanduser()


def resolve_cache_dir(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """``cache_dir`` made absolute, or the default cache directory."""
    return Path(cache_dir or default_cache_dir()).expanduser().resolve()


def _prepared_file(cache_dir: str | os.PathLike[str] | None, name: str) -> Path:
    path = resolve_cache_dir(cache_dir) / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} does not exist: run `bilingual-spider sandbox fetch` to fetch the real sites"
        )
    return path


def sandbox_config_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The sandbox server's config for the real sites (FileNotFoundError before a fetch)."""
    return _prepared_file(cache_dir, SANDBOX_CONFIG_FILE)


def gold_pairs_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The gold pairs TSV (FileNotFoundError before a fetch)."""
    return _prepared_file(cache_dir, GOLD_PAIRS_FILE)


def gold_unjudged_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The pages the gold cannot judge (:data:`GOLD_UNJUDGED_FILE`; FileNotFoundError before a
    fetch)."""
    return _prepared_file(cache_dir, GOLD_UNJUDGED_FILE)


def sites_json_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """The per-site summaries (FileNotFoundError before a fetch)."""
    return _prepared_file(cache_dir, SITES_FILE)


def sandbox_seed_urls(cache_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """The mount-root URL of every fetched real site."""
    sites = json.loads(sites_json_path(cache_dir).read_text(encoding="utf-8"))
    return [site["seed_url"] for site in sites]


# ---------------------------------------------------------------------------------------------
# Fetching: apt-get download + dpkg -x


def fetch(
    cache_dir: str | os.PathLike[str],
    sites: Sequence[RealSite],
    apt_get: str = "apt-get",
    dpkg: str = "dpkg",
) -> Path:
    """Download the sites' packages into ``cache_dir/debs`` and unpack them into
    ``cache_dir/root``; return the root. Packages already there are neither downloaded nor
    unpacked again (a stamp file per .deb records a finished unpacking).

    Raises
    ------
    AptUnavailable
        ``apt_get`` (or ``dpkg``) is not on PATH and something is missing from the cache.
    FetchError
        A download or an unpacking failed; the message names the package.
    """
    cache = Path(cache_dir)
    debs, root, stamps = cache / "debs", cache / "root", cache / "stamps"
    for directory in (debs, root, stamps):
        directory.mkdir(parents=True, exist_ok=True)
    packages = list(dict.fromkeys(p for site in sites for p in site.packages))
    missing = [p for p in packages if deb_file(debs, p) is None]
    if missing:
        download(missing, debs, apt_get)
    for package in packages:
        deb = deb_file(debs, package)
        if deb is None:  # apt-get said it downloaded it, yet it is not there
            raise FetchError(f"apt-get download {package}: no {package}_*.deb in {debs}")
        stamp = stamps / f"{deb.name}.unpacked"
        if not stamp.exists():
            unpack(deb, root, dpkg)
            stamp.write_text(f"{deb.name}\n", encoding="utf-8")
    return root


def deb_file(debs: Path, package: str) -> Path | None:
    """The downloaded .deb of ``package`` (the last in name order if there are several)."""
    found = sorted(debs.glob(f"{package}_*.deb"))
    return found[-1] if found else None


def download(packages: Sequence[str], debs: Path, apt_get: str = "apt-get") -> None:
    """``apt-get download`` the packages into ``debs`` (through a scratch directory, so an
    interrupted download never leaves a partial .deb behind)."""
    executable = shutil.which(apt_get)
    if executable is None:
        raise AptUnavailable(
            f"{apt_get!r} is not on PATH: the real sites are Debian packages fetched with "
            f"`apt-get download` (missing: {', '.join(packages)})"
        )
    logger.info("downloading %d Debian package(s): %s", len(packages), " ".join(packages))
    with tempfile.TemporaryDirectory(dir=debs, prefix=".download-") as scratch:
        os.chmod(scratch, 0o755)  # apt drops privileges to _apt for downloads when it can
        result = _run([executable, "download", *packages], cwd=scratch)
        if result.returncode != 0:
            named = [p for p in packages if _mentions(result.output, p)]
            raise FetchError(
                f"apt-get download failed for {', '.join(named or packages)}: "
                f"{_tail(result.output)}\nIf the package lists are empty (a new machine or "
                "container), run `apt-get update` once and retry."
            )
        for deb in Path(scratch).glob("*.deb"):
            os.replace(deb, debs / deb.name)


def _mentions(output: str, package: str) -> bool:
    return re.search(rf"(?<![\w.+-]){re.escape(package)}(?![\w.+-])", output) is not None


def unpack(deb: Path, root: Path, dpkg: str = "dpkg") -> None:
    """``dpkg -x deb root``: unpack the files of a package without installing it."""
    executable = shutil.which(dpkg)
    if executable is None:
        raise AptUnavailable(f"{dpkg!r} is not on PATH: it is needed to unpack {deb.name}")
    logger.info("unpacking %s", deb.name)
    result = _run([executable, "-x", str(deb), str(root)])
    if result.returncode != 0:
        raise FetchError(f"dpkg -x {deb.name} failed: {_tail(result.output)}")


@dataclass(frozen=True)
class _Result:
    returncode: int
    output: str


def _run(command: list[str], cwd: str | Path | None = None) -> _Result:
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=APT_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return _Result(-1, f"timed out after {APT_TIMEOUT:.0f} s")
    return _Result(done.returncode, done.stdout)


def _tail(output: str, lines: int = 8) -> str:
    return "\n".join(output.strip().splitlines()[-lines:]) or "(no output)"


# ---------------------------------------------------------------------------------------------
# The files of a site


def served_html(dirs: Sequence[Path]) -> dict[str, Path]:
    """Every HTML file served by a mount of ``dirs``: relative path -> file, first dir wins.
    Dangling symlinks are left out (the server answers 404 for them)."""
    served: dict[str, Path] = {}
    for directory in dirs:
        for parent, _, names in os.walk(directory):
            for name in names:
                if not name.lower().endswith(_HTML_SUFFIXES):
                    continue
                path = Path(parent) / name
                relative = path.relative_to(directory).as_posix()
                if relative not in served and path.is_file():
                    served[relative] = path
    return dict(sorted(served.items()))


def page_files(site: RealSite, served: Mapping[str, Path]) -> list[PageFile]:
    """The served files that ``site.page_pattern`` identifies, with their language and page."""
    files = []
    for relative, path in served.items():
        found = site.match(relative)
        if found is not None:
            lang, page = found
            info = path.stat()
            files.append(
                PageFile(relative, path, lang, page, path.is_symlink(), (info.st_dev, info.st_ino))
            )
    return files


def group_by_page(files: Iterable[PageFile]) -> dict[str, dict[str, PageFile]]:
    """page id -> language -> file (the first file in path order when several claim a slot)."""
    pages: dict[str, dict[str, PageFile]] = defaultdict(dict)
    for page_file in sorted(files, key=lambda f: f.relative):
        pages[page_file.page].setdefault(page_file.lang, page_file)
    return dict(pages)


def is_untranslated(translation: PageFile, source: PageFile) -> bool:
    """A symlink, or the very file of the source page: an untranslated page, not a translation."""
    return translation.symlink or translation.file_id == source.file_id


# ---------------------------------------------------------------------------------------------
# Entry pages


def start_pages(files: Iterable[PageFile], home_page: str | None = None) -> dict[str, str]:
    """language -> relative path of its start page: its version of the home page (page id
    ``home_page``) if it has one, else its index page, else its first page in path order. Only
    languages with a real (non-symlink) file count."""
    best: dict[str, tuple[tuple[int, int, str], str]] = {}
    for page_file in files:
        if page_file.symlink:
            continue
        is_index = PurePosixPath(page_file.page).name in ("index", "index.html")
        rank = 0 if page_file.page == home_page else 1 if is_index else 2
        key = (rank, page_file.relative.count("/"), page_file.relative)
        if page_file.lang not in best or key < best[page_file.lang][0]:
            best[page_file.lang] = (key, page_file.relative)
    return {lang: relative for lang, (_, relative) in sorted(best.items())}


FLAG_COUNTRIES = {
    "en": "gb", "ja": "jp", "zh-Hans": "cn", "zh-Hant": "tw", "pt-BR": "br", "ko": "kr",
    "el": "gr", "cs": "cz", "da": "dk", "sv": "se", "uk": "ua", "vi": "vn", "ca": "es-ct",
}  # fmt: skip
"""The country whose flag stands for a language on a flags-only chooser (else its own code)."""
_HTML_TEMPLATE = (
    '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n{head}'
    "</head>\n<body>\n{body}\n</body>\n</html>\n"
)


@dataclass(frozen=True)
class LanguageStart:
    """A language's start page, as an entry page links to it."""

    lang: str
    href: str
    """Its path from the site's mount root (quoted)."""
    title: str = ""
    """Its own ``<title>``, in its language."""

    @property
    def native(self) -> str:
        return LANGUAGE_NAMES.get(self.lang, (self.lang, self.lang))[0]

    @property
    def english(self) -> str:
        return LANGUAGE_NAMES.get(self.lang, (self.lang, self.lang))[1]


def language_starts(
    files: Iterable[PageFile],
    titles: Callable[[PageFile], str] | None = None,
    home_page: str | None = None,
) -> list[LanguageStart]:
    """Every language's start page (:func:`start_pages`), sorted by code, with its title when
    ``titles`` is given."""
    by_relative = {f.relative: f for f in files}
    return [
        LanguageStart(
            lang, quote(relative, safe="/"), titles(by_relative[relative]) if titles else ""
        )
        for lang, relative in start_pages(by_relative.values(), home_page).items()
    ]


def _chooser(style: str, title: str, starts: Sequence[LanguageStart]) -> tuple[str, str]:
    """The ``(head, body)`` of a language chooser of ``style``."""
    head = ""
    if style == "native_list":  # like the language footers of www.debian.org
        items = "\n".join(
            f'<li><a href="{escape(s.href)}" title="{escape(s.english)}" lang="{escape(s.lang)}" '
            f'hreflang="{escape(s.lang)}" rel="alternate">{escape(s.native)}</a> '
            f"({escape(s.lang)})</li>"
            for s in starts
        )
        links = (
            "<p>This document is available in the following languages:</p>\n"
            f'<ul id="languages">\n{items}\n</ul>'
        )
    elif style == "english_names":
        links = (
            "<p>Choose your language:</p>\n<p>"
            + " | ".join(f'<a href="{escape(s.href)}">{escape(s.english)}</a>' for s in starts)
            + "</p>"
        )
    elif style == "codes":
        links = (
            '<p class="languages">'
            + " | ".join(f'<a href="{escape(s.href)}">{escape(s.lang.upper())}</a>' for s in starts)
            + "</p>"
        )
    elif style == "flags":
        links = (
            '<div class="flags">'
            + " ".join(
                f'<a href="{escape(s.href)}"><img src="images/flags/'
                f'{escape(FLAG_COUNTRIES.get(s.lang, s.lang.lower()))}.png" alt="" width="32" '
                'height="21"></a>'
                for s in starts
            )
            + "</div>"
        )
    elif style == "hreflang":
        head = "".join(
            f'<link rel="alternate" hreflang="{escape(s.lang)}" href="{escape(s.href)}">\n'
            for s in starts
        )
        links = (
            "<ul>\n"
            + "\n".join(
                f'<li><a href="{escape(s.href)}" hreflang="{escape(s.lang)}">'
                f"{escape(s.title or s.href)}</a></li>"
                for s in starts
            )
            + "\n</ul>"
        )
    elif style == "select":
        options = "\n".join(
            f'<option value="{escape(s.href)}">{escape(s.native)}</option>' for s in starts
        )
        links = (
            '<form action="#"><label for="lang">Language</label>\n'
            '<select id="lang" name="lang" onchange="window.location=this.value">\n'
            f"{options}\n</select></form>"
        )
    else:
        raise ValueError(f"not a chooser style: {style!r}")
    return head, f"<h1>{escape(title)}</h1>\n{links}"


def _switcher(style: str, prefix: str, starts: Sequence[LanguageStart], current: str) -> str:
    """A switcher for a page in ``current``: header (native names) or "Other languages:" footer
    (the others' native names, as on lilypond.org); absolute paths, the page has a ``<base>``."""
    if style == "header":
        return (
            '<div id="language-switcher" class="header">'
            + " · ".join(
                f'<a href="{escape(prefix + s.href)}" lang="{escape(s.lang)}">'
                f"{escape(s.native)}</a>"
                for s in starts
            )
            + "</div>"
        )
    others = [s for s in starts if s.lang != current]
    return (
        '<div class="footer"><p>Other languages: '
        + ", ".join(f'<a href="{escape(prefix + s.href)}">{escape(s.native)}</a>' for s in others)
        + ".</p></div>"
    )


def render_entry_page(
    style: str,
    title: str,
    starts: Sequence[LanguageStart],
    prefix: str = "/",
    source: LanguageStart | None = None,
    source_html: str = "",
) -> str:
    """The entry page of a site with the languages ``starts``, in ``style`` (:data:`ENTRY_STYLES`).

    A chooser (native_list ... select) is a short page of its own. ``header`` and ``footer`` are
    the ``source`` language's start page, ``source_html``, with a switcher inserted after its
    ``<body>`` (or before its ``</body>``) and a ``<base>`` that keeps its own relative links
    where they were; the switcher's links are absolute paths below ``prefix``.
    """
    if style in ("header", "footer"):
        if source is None or not source_html:
            raise ValueError(f"{style}: needs the source language's start page")
        switcher = _switcher(style, prefix, starts, source.lang)
        base = f'<base href="{escape(prefix + source.href)}">'
        page = _insert_after(source_html, _HEAD_OPEN, base) or base + source_html
        if style == "header":
            return _insert_after(page, _BODY_OPEN, switcher) or switcher + page
        return _insert_before(page, _BODY_CLOSE, switcher) or page + switcher
    head, body = _chooser(style, title, starts)
    return _HTML_TEMPLATE.format(title=escape(title), head=head, body=body)


_HEAD_OPEN = re.compile(r"<head\b[^>]*>", re.I)
_BODY_OPEN = re.compile(r"<body\b[^>]*>", re.I)
_BODY_CLOSE = re.compile(r"</body\s*>", re.I)


def _insert_after(html: str, tag: re.Pattern[str], text: str) -> str | None:
    found = tag.search(html)
    return None if found is None else html[: found.end()] + "\n" + text + html[found.end() :]


def _insert_before(html: str, tag: re.Pattern[str], text: str) -> str | None:
    found = ([None, *tag.finditer(html)])[-1]
    return None if found is None else html[: found.start()] + text + "\n" + html[found.start() :]


def page_title(data: bytes) -> str:
    """The text of an HTML file's ``<title>`` (whitespace-normalised), or ``""``."""
    text = data.decode(declared_encoding(data), errors="replace")
    found = re.search(r"<title[^>]*>(.*?)</title\s*>", text, re.I | re.S)
    if not found:
        return ""
    return " ".join(lxml.html.fromstring(f"<p>{found.group(1)}</p>").text_content().split())


def write_entry_pages(cache: Path, site: RealSite, files: Sequence[PageFile]) -> dict[str, Path]:
    """Write the site's entry page in every style (``overlays/SITE/STYLE/index.html``); return
    style -> its overlay directory. A monolingual site's pages list its one language."""
    home = site.match(site.home) if site.home else None
    starts = language_starts(
        files, lambda f: page_title(f.path.read_bytes()), home[1] if home else None
    )
    source = next((s for s in starts if s.lang == site.source_lang), starts[0] if starts else None)
    source_html = ""
    if source is not None:
        data = next(
            f for f in files if quote(f.relative, safe="/") == source.href
        ).path.read_bytes()
        source_html = data.decode(declared_encoding(data), errors="replace")
    ordered = sorted(starts, key=lambda s: (s is not source, s.lang))
    entry_dirs = {}
    for style in ENTRY_STYLES:
        directory = cache / "overlays" / site.name / style
        title = source.title if source is not None and source.title else site.name
        page = render_entry_page(style, title, ordered, site.prefix, source, source_html)
        write_if_changed(directory / "index.html", page)
        entry_dirs[style] = directory
    return entry_dirs


def site_dirs(cache: Path, site: RealSite, root: Path | None = None) -> list[Path]:
    """The directories served at the site's own host and prefix, first one first: its entry
    page's overlay (unless it keeps its own root), then its packages' directories (below
    ``root``, default the cache's)."""
    dirs = [(root or cache / "root") / d for d in site.dirs]
    if site.entry_style != "none":
        dirs.insert(0, cache / "overlays" / site.name / site.entry_style)
    return dirs


@dataclass(frozen=True)
class EntryStyleURL:
    """A real site behind an entry page of one style (:data:`ENTRY_STYLES_FILE`)."""

    url: str
    bilingual: bool
    site: str
    style: str

    def tsv(self) -> str:
        return "\t".join((self.url, "1" if self.bilingual else "0", self.site, self.style))


def entry_style_urls(cache_dir: str | os.PathLike[str] | None = None) -> list[EntryStyleURL]:
    """Every real site behind every entry style (FileNotFoundError before a fetch)."""
    rows = []
    for line in _prepared_file(cache_dir, ENTRY_STYLES_FILE).read_text("utf-8").splitlines():
        if line.strip():
            url, bilingual, site, style = line.split("\t")
            rows.append(EntryStyleURL(url, bilingual == "1", site, style))
    return rows


# ---------------------------------------------------------------------------------------------
# Text of a page, and whether a translation is one


def declared_encoding(data: bytes) -> str:
    """The encoding an HTML file declares (XML declaration or meta charset), else UTF-8."""
    head = data[:4096]
    for pattern in (_XML_ENCODING, _META_CHARSET):
        found = pattern.search(head)
        if found:
            name = found.group(1).decode("ascii")
            try:
                "".encode(name)
            except LookupError:
                continue
            return name
    return "utf-8"


def text_segments(data: bytes) -> list[str]:
    """The text of an HTML file as text blocks (one per paragraph, list item, cell, title...),
    whitespace-normalised. Scripts, styles and code (``pre``, ``code``, ``tt``...) are removed:
    commands and code samples are identical in every language and would blur language ID."""
    document = _document(data)
    return [] if document is None else _segments(document)


def prose_segments(data: bytes) -> list[str]:
    """:func:`text_segments` of a page's prose: without its navigation and boilerplate (the
    ``head``, ``nav``, ``header``, ``footer`` and ``aside`` elements, ARIA navigation roles, and
    elements whose class or id names navigation or a legal notice: :func:`~bilingual_spider.
    language.page_language.is_navigation`, which the crawl's prose leaves out too).
    A translated navigation bar or sidebar beside an untranslated body is no translated prose;
    a table of contents in the body (DocBook's ``toc``) is kept: it is the page's content."""
    document = _document(data)
    if document is None:
        return []
    for element in list(document.iter()):
        if element is not document and is_navigation(element):
            element.drop_tree()
    return _segments(document)


def _document(data: bytes) -> Any:
    text = data.decode(declared_encoding(data), errors="replace")
    if not text.strip():
        return None
    try:
        return lxml.html.document_fromstring(text.encode("utf-8"), parser=_PARSER)
    except etree.ParserError:
        return None


def _segments(document: Any) -> list[str]:
    etree.strip_elements(document, *_NON_TEXT_TAGS, with_tail=False)
    for element in document.iter(*_BLOCK_TAGS):
        element.text = _BLOCK_BREAK + (element.text or "")
        element.tail = _BLOCK_BREAK + (element.tail or "")
    blocks = (" ".join(block.split()) for block in document.text_content().split(_BLOCK_BREAK))
    return [block for block in blocks if block]


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
    ``shadowed``: files not served at their URL (the site's entry page is, :func:`site_dirs`);
    a source page among them is judged with its translations (they say whether the site is
    bilingual), but its pairs are dropped (``source_not_served``) and its translations' pairs
    are unjudged: no crawl can fetch that page.

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


# ---------------------------------------------------------------------------------------------
# Outputs


def toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes)."""
    return json.dumps(value, ensure_ascii=False)


def render_sandbox_toml(mounts: Iterable[tuple[str, str, Sequence[Path]]]) -> str:
    """The sandbox server's ``[[mount]]`` config for ``(host, prefix, dirs)`` triples."""
    blocks = []
    for host, prefix, dirs in mounts:
        paths = ", ".join(toml_string(str(d)) for d in dirs)
        blocks.append(
            f"[[mount]]\nhost = {toml_string(host)}\nprefix = {toml_string(prefix)}\n"
            f"dirs = [{paths}]"
        )
    return "\n\n".join(blocks) + "\n"


def site_summary(site: RealSite, pages: int, gold: SiteGold) -> dict[str, Any]:
    """One entry of ``sites.json``."""
    return {
        "name": site.name,
        "kind": site.kind,
        "host": site.host,
        "prefix": site.prefix,
        "seed_url": site.home_url,
        "set": site.set,
        "holdout": site.holdout,
        "entry_style": site.entry_style,
        "bilingual": is_bilingual(site, gold),
        "languages": gold.languages,
        "translated_languages": gold.translated_languages(),
        "pages": pages,
        "gold_pairs": len(gold.pairs),
        "dropped": dict(gold.dropped),
    }


def is_bilingual(site: RealSite, gold: SiteGold) -> bool:
    """A multilingual site with a language besides the source that its files are mostly
    translated into (:meth:`SiteGold.translated_languages`): what a site detector should say."""
    return site.kind == "multilingual" and bool(gold.translated_languages())


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a server may be reading the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as f:
        f.write(text)
    os.replace(f.name, path)


def write_if_changed(path: Path, text: str) -> None:
    """Like :func:`write_atomically`, but leave an identical file alone (and its mtime)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    write_atomically(path, text)


# ---------------------------------------------------------------------------------------------
# Everything together


def prepare(
    cache_dir: str | os.PathLike[str] | None = None,
    config_path: str | os.PathLike[str] | None = None,
) -> list[dict[str, Any]]:
    """Fetch the real sites, write their language indexes, derive their gold pairs, and write
    ``sandbox.toml``, ``gold_pairs.tsv`` and ``sites.json`` into the cache; return the
    ``sites.json`` content.

    Idempotent: a second run downloads and unpacks nothing, and derives nothing again unless the
    site list, the packages, or the code that derives the gold pairs changed.

    Raises
    ------
    AptUnavailable
        when packages are missing from the cache and apt-get/dpkg are not available.
    FetchError
        when a package cannot be downloaded or unpacked.
    """
    cache = resolve_cache_dir(cache_dir)
    config = Path(config_path) if config_path else DEFAULT_SITES_FILE
    sites = load_sites(config)
    cache.mkdir(parents=True, exist_ok=True)
    with _locked(cache / ".lock"):
        root = fetch(cache, sites)
        key = build_key(cache, config)
        summaries = _built_summaries(cache, key)
        if summaries is None:
            summaries = build(cache, root, sites)
            write_atomically(cache / BUILD_KEY_FILE, key + "\n")
        return summaries


def build_key(cache: Path, config: Path) -> str:
    """A digest of everything the outputs depend on: the cache's place, the site list, the
    unpacked packages, the language-ID model, and the code that derives the gold pairs (with
    the judging rule's constants and measure, :mod:`~bilingual_spider.patterns.pair_language`,
    :mod:`~bilingual_spider.patterns.copied_prose`, and what is prose,
    :mod:`~bilingual_spider.language.page_language`)."""
    from bilingual_spider.language import codes, identification, page_language
    from bilingual_spider.patterns import copied_prose, pair_language

    digest = hashlib.sha256(str(cache).encode())
    digest.update(config.read_bytes())
    for stamp in sorted((cache / "stamps").glob("*.unpacked")):
        digest.update(stamp.name.encode())
    model = Path(os.environ.get(identification.MODEL_ENV_VAR) or identification.DEFAULT_MODEL_PATH)
    digest.update(f"{model.resolve()}:{model.stat().st_size if model.is_file() else -1}".encode())
    modules = (codes, identification, page_language, pair_language, copied_prose)
    for module in (__file__, *(m.__file__ for m in modules)):
        digest.update(Path(str(module)).read_bytes())
    return digest.hexdigest()


def _built_summaries(cache: Path, key: str) -> list[dict[str, Any]] | None:
    """The sites.json content of a previous build with the same key, if all its outputs exist."""
    key_file = cache / BUILD_KEY_FILE
    outputs = [
        cache / name
        for name in (
            SANDBOX_CONFIG_FILE, GOLD_PAIRS_FILE, GOLD_UNJUDGED_FILE, SITES_FILE, ENTRY_STYLES_FILE
        )
    ]  # fmt: skip
    if not key_file.is_file() or key_file.read_text(encoding="utf-8").strip() != key:
        return None
    if not all(path.is_file() for path in outputs):
        return None
    try:
        summaries = json.loads((cache / SITES_FILE).read_text(encoding="utf-8"))
        with (cache / SANDBOX_CONFIG_FILE).open("rb") as f:
            mounts = tomllib.load(f).get("mount", [])
    except (ValueError, OSError):
        return None
    if not all(Path(d).is_dir() for mount in mounts for d in mount["dirs"]):
        return None
    return summaries


def build(
    cache: Path, root: Path, sites: Sequence[RealSite], identifier: LanguageIdentifier | None = None
) -> list[dict[str, Any]]:
    """Every step after the fetch, over an unpacked tree at ``root``: write the overlays and the
    output files into ``cache`` and return the sites.json content. ``identifier`` as for
    :func:`derive_gold`."""
    mounts, pairs, unjudged, summaries, styled = [], [], [], [], []
    for site in sites:
        dirs = [root / d for d in site.dirs]
        missing = [str(d) for d in dirs if not d.is_dir()]
        if missing:
            raise FetchError(f"site {site.name}: not in its packages: {', '.join(missing)}")
        served = served_html(dirs)
        files = page_files(site, served)
        entry_dirs = write_entry_pages(cache, site, files)
        shadowed = set()
        if site.entry_style != "none":  # the entry page comes first in the site's mount
            shadowed = {"index.html"} & set(served)
            served["index.html"] = entry_dirs[site.entry_style] / "index.html"
        gold = derive_gold(site, files, identifier, shadowed)
        logger.info(
            "%s: %d pages, %d gold pairs, dropped %s",
            site.name, len(served), len(gold.pairs), dict(+gold.dropped),
        )  # fmt: skip
        mounts.append((site.host, site.prefix, site_dirs(cache, site, root)))
        for style, entry_dir in entry_dirs.items():
            mounts.append((site.style_url(style).split("/")[2], site.prefix, [entry_dir, *dirs]))
            styled.append(
                EntryStyleURL(site.style_url(style), is_bilingual(site, gold), site.name, style)
            )
        pairs.extend(gold.pairs)
        unjudged.extend(gold.unjudged)
        summaries.append(site_summary(site, len(served), gold))
    write_atomically(cache / ENTRY_STYLES_FILE, "".join(row.tsv() + "\n" for row in styled))
    write_atomically(cache / SANDBOX_CONFIG_FILE, render_sandbox_toml(mounts))
    write_atomically(cache / GOLD_PAIRS_FILE, "".join(p.tsv() + "\n" for p in pairs))
    write_atomically(cache / GOLD_UNJUDGED_FILE, "".join("\t".join(g) + "\n" for g in unjudged))
    write_atomically(cache / SITES_FILE, json.dumps(summaries, indent=2, ensure_ascii=False) + "\n")
    return summaries


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``, so two processes never prepare one cache at once."""
    with path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
