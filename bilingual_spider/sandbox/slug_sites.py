"""Real sites whose translations have other URLs (translated slugs), for the pairs URLs cannot
tell: ``/2019/11/26/introducing-notify/`` on one host is ``/2019/11/26/on-vous-présente-
notification/`` on another.

The one site so far is the Canadian Digital Service's: ``digital.canada.ca`` in English and
``numerique.canada.ca`` in French, rendered from ``cds-snc/digital-canada-ca`` (commit
20c68d81434e653ccdf02ff4876a74f3eaa4e6f4, 2023-11-10, MIT licence: ``LICENSE`` in the archive)
with Debian's Hugo 0.111.3 (``HUGO_MARKUP_GOLDMARK_RENDERER_UNSAFE=true``: the posts are HTML
inside Markdown, which Hugo's default renderer would omit). ``data/digital_canada.tar.xz``
holds its 578 rendered HTML pages (each language's ``index.html`` files, links to the two hosts
rewritten from ``https`` to ``http``, as the sandbox serves them; styles, scripts and images
left out) and its gold pairs, made from the source as Hugo pairs translations: the pages that
share a ``translationKey`` in their front matter (171), else the content files at the same
path under ``content/en`` and ``content/fr`` (23 pages, 14 section indexes), each joined to its
permalink (``hugo list all``, a section's ``url`` or directory), and the section and taxonomy
lists Hugo makes in both languages (7): 215 pairs whose two pages were rendered. The gold does
not come from the pages' links: a page names its translation only by a switcher (``<a
id="langSwitch" lang="fr">Français``), never by ``hreflang``; 205 of the pairs differ in their
path.

:func:`prepare` unpacks the archive into the real-sites cache (``slug_sites/``, once per archive)
and writes the sandbox server's config there (``sandbox.toml``: each host's pages at ``/``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bilingual_spider.sandbox.atomic_files import write_atomically
from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.realsites import resolve_cache_dir

ARCHIVE = Path(__file__).resolve().parent / "data" / "digital_canada.tar.xz"
SITE_DIR = "digital_canada"
HOSTS = {"en": "digital.canada.ca", "fr": "numerique.canada.ca"}
"""The host of each language version."""
GOLD_FILE = "gold_pairs.tsv"
"""``english_url<TAB>french_url`` per line."""
CACHE_SUBDIR = "slug_sites"


@dataclass(frozen=True)
class SlugSites:
    """The unpacked sites: where they are and what a crawl of them needs."""

    root: Path
    config: Path
    """The sandbox server's ``[[mount]]`` config."""

    @property
    def gold_path(self) -> Path:
        return self.root / SITE_DIR / GOLD_FILE

    def gold_pairs(self) -> list[tuple[str, str]]:
        rows = self.gold_path.read_text(encoding="utf-8").splitlines()
        return [(row.split("\t")[0], row.split("\t")[1]) for row in rows if row.strip()]

    def seed_urls(self) -> list[str]:
        """Each language's home page."""
        return [f"http://{host}/" for host in HOSTS.values()]

    def page_files(self) -> dict[str, tuple[str, Path]]:
        """URL -> (the language of its host, its file), for every served page."""
        found = {}
        for language, host in HOSTS.items():
            top = self.root / SITE_DIR / host
            for path in sorted(top.rglob("*.html")):
                relative = path.relative_to(top).as_posix()
                if relative.endswith("index.html"):
                    relative = relative[: -len("index.html")]
                found[f"http://{host}/{relative}"] = (language, path)
        return found


def prepare(cache_dir: str | os.PathLike[str] | None = None) -> SlugSites:
    """Unpack the archive into the cache unless the same archive is there, and write the
    sandbox config; idempotent."""
    root = resolve_cache_dir(cache_dir) / CACHE_SUBDIR
    digest = hashlib.sha256(ARCHIVE.read_bytes()).hexdigest()
    stamp = root / ".archive"
    if not stamp.is_file() or stamp.read_text().strip() != digest:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=root) as unpacking:
            with tarfile.open(ARCHIVE) as archive:
                archive.extractall(unpacking, filter="data")
            shutil.rmtree(root / SITE_DIR, ignore_errors=True)
            os.replace(Path(unpacking) / SITE_DIR, root / SITE_DIR)
        write_atomically(stamp, digest + "\n")
    mounts = [(host, "/", [root / SITE_DIR / host]) for host in HOSTS.values()]
    config = root / "sandbox.toml"
    write_atomically(config, render_sandbox_toml(mounts))
    return SlugSites(root, config)
