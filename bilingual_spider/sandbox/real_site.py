"""The real sites of the sandbox web as ``real_sites.toml`` lists them (:class:`RealSite`), and
their served files: which HTML files a mount serves, and the language and page of each
(:class:`PageFile`) by the site's ``page_pattern``."""

from __future__ import annotations

import os
import re
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

from bilingual_spider.language.codes import normalize_language_code

DEFAULT_SITES_FILE = Path(__file__).with_name("real_sites.toml")
KINDS = ("multilingual", "monolingual")
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
"""How a real site's entry page offers its languages
(:func:`~bilingual_spider.sandbox.entry_pages.render_entry_page`): a language chooser of native
names (with codes, ``hreflang``), of English names, of ISO codes, of flag images only, of the
languages' own page titles told apart by ``hreflang`` only, a ``<select>`` menu; or the source
language's start page with a switcher in its header, or an "Other languages:" footer. Every real
site is also served behind every style, at ``STYLE.entry.HOST``
(:data:`~bilingual_spider.sandbox.realsites.ENTRY_STYLES_FILE`)."""


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
