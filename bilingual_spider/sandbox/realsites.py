"""The real multilingual sites of the sandbox web: Debian's translated documentation, mounted at
the host names of its real-world counterparts, with gold parallel page pairs derived from the files.

The sites are listed in ``real_sites.toml`` (see its header for the fields). :func:`prepare` runs
every step and is idempotent; :func:`build` reads the unpacked tree and writes the outputs. Each
step has a module of its own; what decides (page patterns, text blocks, language and copied
share, start pages, the rendered index and config) is pure and tested on its own::

    real_site.py        real_sites.toml -> RealSite values (load_sites); the served .html files
                        of a site, with the page and language of each (page_files)
    debian_packages.py  apt-get download + dpkg -x into the cache (never installs anything)
    entry_pages.py      every site's entry page in every real style (ENTRY_STYLES): its root is
                        one of them (``entry_style``) or its own, and the site is also served
                        behind each at ``STYLE.entry.HOST``
    page_text.py        a file's declared encoding, text blocks and prose
    real_site_gold.py   derive_gold: English page x translation of the same page, unless the
                        translation is a symlink to the English file, half or more of its prose
                        is the English page's, or its own prose (not copied) is not in its
                        language
    realsites.py        (here) the cache, its paths and outputs, prepare, build and the build key

The cache (``$BILINGUAL_SANDBOX_CACHE``, default ``~/.cache/bilingual_spider/realsites``) holds::

    debs/*.deb  root/ (the unpacked tree)  stamps/  overlays/<site>/<style>/index.html
    sandbox.toml      the sandbox server's [[mount]] config for these sites
    gold_pairs.tsv    src_url, tgt_url, src_lang, tgt_lang, site (tab-separated, no header)
    sites.json        one summary per site: set, whether bilingual, pages, languages, gold
                      pairs, drops by reason
    entry_styles.tsv  url, bilingual (1/0), site, style: each site behind each entry style
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bilingual_spider.sandbox.atomic_files import exclusive_lock, write_atomically
from bilingual_spider.sandbox.config import render_sandbox_toml
from bilingual_spider.sandbox.debian_packages import FetchError, fetch
from bilingual_spider.sandbox.entry_pages import site_dirs, write_entry_pages
from bilingual_spider.sandbox.real_site import (
    DEFAULT_SITES_FILE,
    RealSite,
    load_sites,
    page_files,
    served_html,
)
from bilingual_spider.sandbox.real_site_gold import SiteGold, derive_gold, is_bilingual

if TYPE_CHECKING:
    from bilingual_spider.language.identification import LanguageIdentifier

logger = logging.getLogger(__name__)

CACHE_ENV_VAR = "BILINGUAL_SANDBOX_CACHE"
DEFAULT_CACHE_DIR = Path("~/.cache/bilingual_spider/realsites")
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


ENTRY_STYLES_FILE = "entry_styles.tsv"
"""One line per real site and entry style: URL, bilingual (1/0), site, style."""


@dataclass(frozen=True)
class EntryStyleURL:
    """A real site behind an entry page of one style (:data:`ENTRY_STYLES_FILE`)."""

    url: str
    bilingual: bool
    site: str
    style: str

    def tsv(self) -> str:
        return "\t".join((self.url, "1" if self.bilingual else "0", self.site, self.style))


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


def entry_style_urls(cache_dir: str | os.PathLike[str] | None = None) -> list[EntryStyleURL]:
    """Every real site behind every entry style (FileNotFoundError before a fetch)."""
    rows = []
    for line in _prepared_file(cache_dir, ENTRY_STYLES_FILE).read_text("utf-8").splitlines():
        if line.strip():
            url, bilingual, site, style = line.split("\t")
            rows.append(EntryStyleURL(url, bilingual == "1", site, style))
    return rows


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
    with exclusive_lock(cache / ".lock"):
        root = fetch(cache, sites)
        key = build_key(cache, config)
        summaries = _built_summaries(cache, key)
        if summaries is None:
            summaries = build(cache, root, sites)
            write_atomically(cache / BUILD_KEY_FILE, key + "\n")
        return summaries


def build_key(cache: Path, config: Path) -> str:
    """A digest of everything the outputs depend on: the cache's place, the site list, the
    unpacked packages, the language-ID model's bytes, and the code that derives the outputs (this
    module and the site, entry-page, page-text, gold and server-config modules it builds with;
    the judging rule's constants and measure, :mod:`~bilingual_spider.patterns.pair_language`,
    :mod:`~bilingual_spider.patterns.copied_prose`, and what is prose,
    :mod:`~bilingual_spider.language.page_language`)."""
    from bilingual_spider.language import codes, identification, page_language
    from bilingual_spider.patterns import copied_prose, pair_language
    from bilingual_spider.sandbox import config as server_config
    from bilingual_spider.sandbox import entry_pages, page_text, real_site, real_site_gold

    digest = hashlib.sha256(str(cache).encode())
    digest.update(config.read_bytes())
    for stamp in sorted((cache / "stamps").glob("*.unpacked")):
        digest.update(stamp.name.encode())
    model = Path(os.environ.get(identification.MODEL_ENV_VAR) or identification.DEFAULT_MODEL_PATH)
    # the model's bytes, not its place: a clone of the project elsewhere (CI's) reuses the build
    digest.update(model.read_bytes() if model.is_file() else b"no model")
    builders = (real_site, entry_pages, page_text, real_site_gold, server_config)
    modules = (*builders, codes, identification, page_language, pair_language, copied_prose)
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
