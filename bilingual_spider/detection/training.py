"""Training data of the Link Predictor, labelled from ground truth instead of by hand.

Barbosa et al. (2011), sec. 2.1: "we built the training data from non-bilingual and bilingual
sites in English/Spanish. It was compiled by manually labeling 560 URLs (236 relevant and 324
non-relevant)." We label every link of two sources automatically, in many language pairs:

- generated worlds (``bilingual-spider sandbox generate``): every page of the page pack, with
  the world's ``gold_pairs.tsv``;
- the real sites of the sandbox (``bilingual-spider sandbox fetch``): every page file of the
  mounts, with the gold pairs derived from the files (:mod:`bilingual_spider.sandbox.realsites`).

**Label** (``label_rule``). Barbosa et al. give the Link Predictor the role "to identify links
that point to parallel text in a Web site": links to a page of the site in another language.

- ``language`` (the default, the paper's): a link is *positive* when it leads, within the same
  site (:func:`~bilingual_spider.detection.detector.same_site`), to a page whose language is
  known and differs from the linking page's: its translation, or that language's entry or
  section page (a switcher falling back to the home page, a chooser's link to a language's
  index). A target's language is known only when the gold pairs vouch for it (its text was
  checked to be in that language: decoys' fake translations and pages left untranslated are
  in no gold pair); the linking page's language is its nominal one (the world's page language,
  the real site's file name), and a page with none (a splash chooser, a language index) is
  in no language, so each of its links to a known page is positive. Navigation within one
  language, links to other sites, and links to pages of unknown language are negative.
- ``pairs`` (the first model's): the gold pairs (English page, translation) make translation
  groups: a page and all its translations. A link is positive when the page it is on and its
  target are two members of one group (either direction, and between two translations); a
  language chooser (a splash page at ``/``, a language index) belongs to no group but links two
  or more members of one: it is taken as one more, language-neutral, member of that group. A
  chooser's link to another page in another language (a language's index from a page that is
  not its translation) is negative under this rule.

URLs are compared with ``/`` read as ``/index.html``.

**Imbalance.** Most links are negative (about 1 in 20 is positive). All links are kept, so the
calibrated probability reflects what a crawler meets; the SVM weighs the classes inversely to
their frequency (``class_weight="balanced"``). Real sites have far more pages than generated ones,
so at most ``max_pages_per_site`` pages of each real site are read (a seeded sample), and pages
with more than ``max_links_per_page`` links (generated indexes) give a seeded sample of their
negatives and all their positives.

Reading files is the only I/O here; nothing is fetched.
"""

from __future__ import annotations

import gzip
import json
import mmap
import random
import time
import tomllib
import zlib
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import numpy as np

from bilingual_spider.detection.detector import same_site
from bilingual_spider.detection.link_predictor import AROUND_WORDS, LinkPredictor
from bilingual_spider.language.codes import same_language
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts

MAX_PAGES_PER_SITE = 300
MAX_LINKS_PER_PAGE = 150
# Layout of a generated world directory (bilingual_spider/sandbox/webgraph_write.py, page_pack.py).
WORLD_FILE = "world.json"
GROUND_TRUTH_FILE = "ground_truth.json"
GOLD_PAIRS_FILE = "gold_pairs.tsv"
PACK_DIR = "pages"
PACK_FILE = "pages.pack"
PACK_INDEX_FILE = "pages.index.tsv.gz"
ENGINE_DIR = "engine"
# Layout of the real-sites cache (bilingual_spider/sandbox/realsites.py).
REAL_SITES_CONFIG = "sandbox.toml"
REAL_SITES_SUMMARY = "sites.json"
REAL_SITES_GOLD = "gold_pairs.tsv"


@dataclass
class TrainingSet:
    """Labelled links: ``contexts[i]`` is positive when ``labels[i] == 1``; ``groups[i]`` names
    its site (for grouped cross-validation), ``sources[i]`` where it comes from."""

    contexts: list[LinkContext] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    choosers: int = 0
    """Language-chooser pages taken as members of a translation group."""

    def extend(self, other: TrainingSet) -> None:
        self.contexts.extend(other.contexts)
        self.labels.extend(other.labels)
        self.groups.extend(other.groups)
        self.sources.extend(other.sources)
        self.choosers += other.choosers

    @property
    def y(self) -> np.ndarray:
        return np.asarray(self.labels, dtype=np.int8)

    def describe(self) -> dict[str, Any]:
        """Sizes by source: sites, pages, links, positives."""
        by_source: dict[str, dict[str, Any]] = {}
        pages: dict[str, set[str]] = defaultdict(set)
        sites: dict[str, set[str]] = defaultdict(set)
        counts: Counter[tuple[str, int]] = Counter()
        for context, label, group, source in zip(
            self.contexts, self.labels, self.groups, self.sources, strict=True
        ):
            pages[source].add(context.page_url)
            sites[source].add(group)
            counts[source, label] += 1
        for source in sorted(sites):
            by_source[source] = {
                "sites": len(sites[source]),
                "pages": len(pages[source]),
                "links": counts[source, 0] + counts[source, 1],
                "positives": counts[source, 1],
            }
        return {
            "sites": len(set(self.groups)),
            "pages": sum(len(urls) for urls in pages.values()),
            "links": len(self.labels),
            "positives": int(sum(self.labels)),
            "language_choosers": self.choosers,
            "by_source": by_source,
        }


LABEL_RULES = ("language", "pairs")


def build_training_set(
    worlds: Sequence[str | Path] = (),
    real_sites: bool | Collection[str] = True,
    real_sites_cache: str | Path | None = None,
    max_pages_per_site: int = MAX_PAGES_PER_SITE,
    max_links_per_page: int = MAX_LINKS_PER_PAGE,
    seed: int = 0,
    label_rule: str = "language",
) -> TrainingSet:
    """Labelled links of generated ``worlds`` (directories written by ``sandbox generate``) and
    of the fetched real sites (``real_sites_cache``: default cache): ``real_sites`` True takes
    every real site not held out (``holdout`` in ``real_sites.toml``), a collection names the
    sites to take, False none."""
    if label_rule not in LABEL_RULES:
        raise ValueError(f"label_rule must be one of {', '.join(LABEL_RULES)}, not {label_rule!r}")
    data = TrainingSet()
    for world in worlds:
        data.extend(world_training_set(world, max_links_per_page, seed, label_rule))
    if real_sites is not False:
        names = None if real_sites is True else set(real_sites)
        data.extend(
            real_sites_training_set(real_sites_cache, max_pages_per_site, seed, label_rule, names)
        )
    return data


# -- labels --------------------------------------------------------------------------------


def canonical_url(url: str) -> str:
    """The URL as the labels compare it: lower-case scheme and host, ``/`` as ``/index.html``,
    no fragment."""
    parts = urlsplit(url)
    path = parts.path or "/"
    if path.endswith("/"):
        path += "index.html"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def translation_groups(pairs: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Canonical URL -> group number; the two URLs of a pair are in one group."""
    parent: dict[str, str] = {}

    def find(url: str) -> str:
        parent.setdefault(url, url)
        while parent[url] != url:
            parent[url] = parent[parent[url]]
            url = parent[url]
        return url

    for first, second in pairs:
        a, b = find(canonical_url(first)), find(canonical_url(second))
        if a != b:
            parent[b] = a
    roots: dict[str, int] = {}
    return {url: roots.setdefault(find(url), len(roots)) for url in list(parent)}


def add_language_choosers(
    groups: dict[str, int],
    pages: dict[str, list[LinkContext]],
    min_members: int = 2,
    min_share: float = 0.8,
) -> int:
    """Add to ``groups`` every language chooser: a page outside all groups whose links go
    almost only (``min_share`` of its distinct targets) to ``min_members`` or more members of one
    group (a splash page, a language index). An ordinary page that is translated nowhere, whose
    switcher falls back to the home pages, links many other pages too, and is no chooser.
    Return how many pages were added."""
    added = 0
    for page_url, contexts in pages.items():
        page = canonical_url(page_url)
        if page in groups:
            continue
        targets = {canonical_url(c.url) for c in contexts} - {page}
        members: dict[int, set[str]] = defaultdict(set)
        for target in targets:
            if target in groups:
                members[groups[target]].add(target)
        best = max(members.items(), key=lambda item: len(item[1]), default=None)
        if best and len(best[1]) >= max(min_members, min_share * len(targets)):
            groups[page] = best[0]
            added += 1
    return added


def label(context: LinkContext, groups: dict[str, int]) -> int:
    """The ``pairs`` label: 1 when the link joins two versions of one page (see the module
    docstring), else 0."""
    page, target = canonical_url(context.page_url), canonical_url(context.url)
    if page == target:
        return 0
    group = groups.get(page)
    return int(group is not None and groups.get(target) == group)


def language_label(
    context: LinkContext,
    page_language: str,
    known: dict[str, str],
    served: Collection[str] | None = None,
) -> int | None:
    """The ``language`` label: 1 when the link leads, within the same site, to a page whose
    language ``known`` vouches for and that differs from ``page_language`` ("" for a page in no
    language: a chooser), else 0; None (no label) for a link within the site to a page the site
    does not have, when ``served`` (the canonical URLs of every page it has) is given: what such
    a link would lead to cannot be told (LilyPond's "Other languages:" footers name twelve
    languages, Debian ships three)."""
    page, target = canonical_url(context.page_url), canonical_url(context.url)
    if page == target or not same_site(page, target):
        return 0
    if served is not None and target not in served:
        return None
    target_language = known.get(target)
    if not target_language:
        return 0
    return int(not page_language or not same_language(page_language, target_language))


@dataclass(frozen=True)
class PageLanguages:
    """What the ``language`` label reads: the nominal language of every page (canonical URL ->
    code, "" for none) and the languages the gold pairs vouch for."""

    nominal: dict[str, str]
    known: dict[str, str]
    served: frozenset[str] | None = None
    """The canonical URLs of every page of the sites, when links to others are to be left out
    (:func:`language_label`)."""

    @classmethod
    def from_gold(
        cls,
        nominal: dict[str, str],
        rows: Iterable[Sequence[str]],
        served: Iterable[str] | None = None,
    ) -> PageLanguages:
        """``rows``: gold pairs ``src_url, tgt_url, src_lang, tgt_lang, ...``."""
        known: dict[str, str] = {}
        for row in rows:
            known[canonical_url(row[0])] = row[2]
            known[canonical_url(row[1])] = row[3]
        return cls(nominal, known, None if served is None else frozenset(served))


def _labelled(
    pages: dict[str, list[LinkContext]],
    groups: dict[str, int],
    site_of: dict[str, str],
    source: str,
    max_links_per_page: int,
    seed: int,
    languages: PageLanguages | None = None,
) -> TrainingSet:
    """Label every link of ``pages``: by ``languages`` (the ``language`` rule) when given, else
    by the translation ``groups`` (the ``pairs`` rule)."""
    data = TrainingSet(choosers=add_language_choosers(groups, pages))
    for page_url in sorted(pages):
        contexts = pages[page_url]
        if languages is None:
            labels = [label(c, groups) for c in contexts]
        else:
            own = languages.nominal.get(canonical_url(page_url), "")
            judged = [language_label(c, own, languages.known, languages.served) for c in contexts]
            contexts = [c for c, y in zip(contexts, judged, strict=True) if y is not None]
            labels = [y for y in judged if y is not None]
        keep = _kept_links(labels, max_links_per_page, _seed_of(seed, page_url))
        site = site_of[page_url]
        for i in keep:
            data.contexts.append(contexts[i])
            data.labels.append(labels[i])
            data.groups.append(site)
            data.sources.append(source)
    return data


def _kept_links(labels: list[int], limit: int, seed: int) -> list[int]:
    if len(labels) <= limit:
        return list(range(len(labels)))
    positives = [i for i, y in enumerate(labels) if y]
    negatives = [i for i, y in enumerate(labels) if not y]
    room = max(0, limit - len(positives))
    sample = random.Random(seed).sample(negatives, min(room, len(negatives)))
    return sorted(positives + sample)


def _seed_of(seed: int, text: str) -> int:
    return seed * 1_000_003 + zlib.crc32(text.encode("utf-8"))


# -- generated worlds ----------------------------------------------------------------------


def world_training_set(
    world_dir: str | Path,
    max_links_per_page: int = MAX_LINKS_PER_PAGE,
    seed: int = 0,
    label_rule: str = "language",
) -> TrainingSet:
    """Labelled links of every page of a generated world (page languages from the engine's
    ``pages.tsv.gz``)."""
    world_dir = Path(world_dir)
    truth = json.loads((world_dir / GROUND_TRUTH_FILE).read_text(encoding="utf-8"))
    world_seed = truth["params"]["seed"]
    site_of_host = {
        host: f"world{world_seed}:{site['name']}"
        for site in truth["sites"]
        for host in site["hosts"].values()
    }
    rows = [line.split("\t") for line in _lines(world_dir / GOLD_PAIRS_FILE)]
    groups = translation_groups(tuple(row[:2]) for row in rows)  # type: ignore[misc]
    languages = None
    if label_rule == "language":
        from bilingual_spider.sandbox.engine_files import read_pages

        nominal = {canonical_url(p.url): p.lang for p in read_pages(world_dir / ENGINE_DIR)}
        languages = PageLanguages.from_gold(nominal, rows)
    pages: dict[str, list[LinkContext]] = {}
    site_of: dict[str, str] = {}
    for url, body in read_page_pack(world_dir / PACK_DIR):
        host = urlsplit(url).hostname or ""
        if host not in site_of_host:
            continue
        pages[url] = extract_link_contexts(body, url, AROUND_WORDS)
        site_of[url] = site_of_host[host]
    source = f"world{world_seed}"
    return _labelled(pages, groups, site_of, source, max_links_per_page, seed, languages)


def read_page_pack(pack_dir: str | Path) -> Iterator[tuple[str, bytes]]:
    """``(url, body)`` of every HTML page of a page pack (format: sandbox/page_pack.py)."""
    pack_dir = Path(pack_dir)
    with gzip.open(pack_dir / PACK_INDEX_FILE, "rt", encoding="utf-8") as index:
        entries = [line.rstrip("\n").split("\t") for line in index][1:]
    with (pack_dir / PACK_FILE).open("rb") as f:
        if f.seek(0, 2) == 0:
            return
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        try:
            for url, offset, length, content_type in entries:
                if content_type.startswith("text/html"):
                    yield url, bytes(data[int(offset) : int(offset) + int(length)])
        finally:
            data.close()


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


# -- real sites ----------------------------------------------------------------------------


def real_sites_training_set(
    cache_dir: str | Path | None = None,
    max_pages_per_site: int = MAX_PAGES_PER_SITE,
    seed: int = 0,
    label_rule: str = "language",
    names: Collection[str] | None = None,
) -> TrainingSet:
    """Labelled links of the fetched real sites (``sandbox fetch``): those named in ``names``,
    or (None) every site not held out. FileNotFoundError when they were not fetched; ValueError
    for a name no fetched site has."""
    from bilingual_spider.sandbox.real_site import load_sites, served_html
    from bilingual_spider.sandbox.realsites import resolve_cache_dir

    cache = resolve_cache_dir(cache_dir)
    summary_path = cache / REAL_SITES_SUMMARY
    if not summary_path.is_file():
        raise FileNotFoundError(
            f"{summary_path}: the real sites are not fetched (bilingual-spider sandbox fetch)"
        )
    sites = json.loads(summary_path.read_text(encoding="utf-8"))
    if names is None:
        sites = [site for site in sites if not site.get("holdout")]
    else:
        unknown = set(names) - {site["name"] for site in sites}
        if unknown:
            raise ValueError(f"no fetched real site is named {', '.join(sorted(unknown))}")
        sites = [site for site in sites if site["name"] in names]
    patterns = {site.name: site for site in load_sites()}
    mounts = tomllib.loads((cache / REAL_SITES_CONFIG).read_text(encoding="utf-8"))["mount"]
    rows = [line.split("\t") for line in _lines(cache / REAL_SITES_GOLD)]
    groups = translation_groups(tuple(row[:2]) for row in rows)  # type: ignore[misc]
    pages: dict[str, list[LinkContext]] = {}
    site_of: dict[str, str] = {}
    nominal: dict[str, str] = {}
    served: set[str] = set()
    for site in sites:
        mount = next(
            m for m in mounts if m["host"] == site["host"] and m["prefix"] == site["prefix"]
        )
        dirs = [Path(d) for d in mount["dirs"]]
        served.update(
            canonical_url(f"http://{mount['host']}{mount['prefix']}{quote(relative, safe='/')}")
            for relative in served_html(dirs)
        )
        files = mount_pages(mount["host"], mount["prefix"], dirs)
        pattern = patterns.get(site["name"])
        for url, path in _sample(files, max_pages_per_site, _seed_of(seed, site["name"])):
            pages[url] = extract_link_contexts(path.read_bytes(), url, AROUND_WORDS)
            site_of[url] = f"real:{site['name']}"
            matched = pattern.match(url[len(pattern.seed_url) :]) if pattern else None
            nominal[canonical_url(url)] = matched[0] if matched else ""
    languages = PageLanguages.from_gold(nominal, rows, served) if label_rule == "language" else None
    return _labelled(pages, groups, site_of, "real", MAX_LINKS_PER_PAGE * 10, seed, languages)


def mount_pages(host: str, prefix: str, dirs: Sequence[Path]) -> dict[str, Path]:
    """URL -> file of every HTML page a mount serves (the first directory holding a path wins,
    as the sandbox server does); symbolic links (untranslated copies) are left out."""
    files: dict[str, Path] = {}
    for directory in dirs:
        for path in sorted(directory.rglob("*.htm*")):
            if not path.name.endswith((".html", ".htm")) or not path.is_file():
                continue
            url = f"http://{host}{prefix}{path.relative_to(directory).as_posix()}"
            if url not in files:
                files[url] = path
    return {url: path for url, path in files.items() if not path.is_symlink()}


def _sample(files: dict[str, Path], limit: int, seed: int) -> list[tuple[str, Path]]:
    """All pages, or a seeded sample of ``limit``; the index pages are always in."""
    items = sorted(files.items())
    if len(items) <= limit:
        return items
    index = [item for item in items if item[0].endswith("/index.html")]
    rest = [item for item in items if not item[0].endswith("/index.html")]
    room = max(0, limit - len(index))
    return sorted(index[:limit] + random.Random(seed).sample(rest, min(room, len(rest))))


# -- evaluation ----------------------------------------------------------------------------


def _out_of_fold(
    features: Any,
    learned: Any,
    labels: np.ndarray,
    groups: np.ndarray,
    folds: int,
    params: dict | None,
) -> np.ndarray:
    """Scores of ``features`` by models fitted on the other folds' ``learned`` features."""
    from sklearn.model_selection import GroupKFold

    scores = np.zeros(len(labels))
    for train, test in GroupKFold(folds).split(labels, labels, groups):
        model = LinkPredictor(**(params or {}))
        model.fit_features(learned[train], labels[train], groups[train].tolist())
        scores[test] = model.predict_proba_features(features[test])[:, 1]
    return scores


def scores_of(labels: np.ndarray, scores: np.ndarray) -> dict[str, Any]:
    """ROC AUC, average precision, and precision/recall at the paper's minimum likelihoods."""
    from sklearn.metrics import average_precision_score, roc_auc_score

    labels = np.asarray(labels)
    result: dict[str, Any] = {"links": int(len(labels)), "positives": int(labels.sum())}
    if 0 < labels.sum() < len(labels):
        result["roc_auc"] = round(float(roc_auc_score(labels, scores)), 4)
        result["average_precision"] = round(float(average_precision_score(labels, scores)), 4)
    for threshold in (0.5, 0.8):
        chosen = scores >= threshold
        hits = int((chosen & (labels == 1)).sum())
        result[f"precision@{threshold}"] = round(hits / chosen.sum(), 4) if chosen.any() else None
        result[f"recall@{threshold}"] = round(hits / labels.sum(), 4) if labels.any() else None
    return result


def scores_by_source(data: TrainingSet, scores: np.ndarray) -> dict[str, Any]:
    """:func:`scores_of` over all links and over each source's."""
    labels = data.y
    sources = np.asarray(data.sources)
    result = {"all": scores_of(labels, scores)}
    for source in sorted(set(data.sources)):
        mask = sources == source
        result[source] = scores_of(labels[mask], scores[mask])
    return result


# -- training ------------------------------------------------------------------------------


def train_link_predictor(
    data: TrainingSet,
    params: dict[str, Any] | None = None,
    folds: int = 5,
    label_rule: str = "language",
) -> tuple[LinkPredictor, dict[str, Any]]:
    """Fit a :class:`LinkPredictor` on all of ``data`` and describe it: the data's sizes, the
    scores of a cross-validation grouped by site (``folds`` = 0: none) and, when ``data`` has
    both generated and real sites, the scores on the real sites of a model trained without them.
    """
    started = time.monotonic()
    labels, groups = data.y, np.asarray(data.groups)
    features = LinkPredictor(**(params or {})).transform(data.contexts)
    learned = LinkPredictor(**(params or {})).training_features(data.contexts, features)
    training: dict[str, Any] = {
        "data": data.describe(),
        "label_rule": label_rule,
        "label": LABEL_TEXT[label_rule],
    }
    seconds: dict[str, float] = {"features": round(time.monotonic() - started, 1)}
    if folds:
        started = time.monotonic()
        scores = _out_of_fold(features, learned, labels, groups, folds, params)
        training["cross_validation"] = {
            "folds": folds,
            "grouped_by": "site",
            "scores": scores_by_source(data, scores),
        }
        seconds["cross_validation"] = round(time.monotonic() - started, 1)
    real = np.asarray(data.sources) == "real"
    if real.any() and not real.all():
        started = time.monotonic()
        model = LinkPredictor(**(params or {}))
        model.fit_features(learned[~real], labels[~real], groups[~real].tolist())
        scores = model.predict_proba_features(features[real])[:, 1]
        training["real_sites_held_out"] = scores_of(labels[real], scores)
        seconds["real_sites_held_out"] = round(time.monotonic() - started, 1)
    started = time.monotonic()
    model = LinkPredictor(**(params or {})).fit_features(learned, labels, groups.tolist())
    seconds["fit"] = round(time.monotonic() - started, 1)
    training["seconds"] = seconds
    return model, training


LABEL_TEXT = {
    "language": "`language` (the paper's): positive: the link leads, within the same site, to a "
    "page in another language than the linking page (its translation, or that language's entry "
    "or section page; a target's language counts only where a gold pair vouches for it); "
    "negative: any other link",
    "pairs": "`pairs`: positive: the link joins two versions of one page (a gold pair in either "
    "direction, two translations of one page, or a language chooser and a version); negative: "
    "any other link",
}


def model_card(
    path: str | Path, meta: dict[str, Any], detector_results: dict[str, Any] | None = None
) -> str:
    """The Markdown card of a saved model (``meta``: :attr:`LinkPredictor.meta_`), with the
    label rules compared by ``benchmarks/site_detector.py`` when its ``detector_results`` are
    given."""
    training = meta["training"]
    data = training["data"]
    lines = [
        f"# {Path(path).name} — the Link Predictor",
        "",
        (
            "P(a link leads to a page of its site in another language), from the link's context: a"
            if training.get("label_rule", "pairs") == "language"
            else "P(a link leads to the same content in another language), from the link's "
            "context: a"
        ),
        "probabilistic SVM (Barbosa et al. 2011, sec. 2.1; Platt 1999) over the link's words by",
        "context. Code: `bilingual_spider/detection/link_predictor.py`; features:",
        "`bilingual_spider/links/features.py`; data: `bilingual_spider/detection/training.py`.",
        "",
        "## Rebuild",
        "",
        f"    {training['command']}",
        "",
        f"Training took {training['total_seconds']} s on this machine, world generation "
        f"included ({_format_seconds(training['seconds'])}). Saved {meta['saved']} with "
        f"scikit-learn {meta['scikit_learn']}; file {_kib(training.get('file_bytes'))}.",
        "",
        "## Data",
        "",
        "Every link of every page, labelled automatically from ground truth. "
        f"Label: {training['label']}.",
        "",
        "| source | sites | pages | links | positives |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for source, sizes in data["by_source"].items():
        lines.append(
            f"| {source} | {sizes['sites']} | {sizes['pages']} | {sizes['links']} | "
            f"{sizes['positives']} |"
        )
    lines += [
        f"| **all** | {data['sites']} | {data.get('pages', '')} | {data['links']} | "
        f"{data['positives']} |",
        "",
        f"Sources: {training.get('sources', '')}.",
        f"Language choosers (splash pages, language indexes) taken as group members: "
        f"{data['language_choosers']}.",
        "",
        "Imbalance: all links are kept (the calibrated probability is that of the links a "
        "crawler meets); the SVM weighs classes inversely to their frequency "
        '(`class_weight="balanced"`); Platt\'s sigmoid is fitted unweighted on held-out '
        "decisions (folds grouped by site).",
        "",
        "## Features",
        "",
        "Words by context, lower-cased, stop words out, stemmed (Snowball English), CJK as runs "
        "and character bigrams: `url:` (path and query; language codes such as `zh-tw` kept "
        "whole), `host:` labels and `tld:`, `anchor:`, `around:` (10 words each side), `alt:` "
        "and `src:` of images in the link, `title:`, `hreflang:`; `site:` (same host, same "
        "registered domain, same name under another suffix, other); `diff:` (URL words the "
        "target adds to and drops from the page's URL, `diff:~swap` when one language code "
        "replaces another); markers `~lang` (a word names a language: 162 languages' names in "
        "44 languages from CLDR; or a URL unit is a language code; or an image name is a "
        "flag's country), with `~lang=same`/`~lang=other` against the page's language.",
        "",
        "Half of the training links (`hide_languages=0.5`) are seen without the words that "
        "name a language or are its code, markers kept, so that a switcher to a language the "
        "data lacks scores like one to a language it has.",
        "",
        "## Model",
        "",
        f"- Parameters: `{json.dumps(meta['params'])}`",
        f"- Features: `{json.dumps(meta['features'], ensure_ascii=False)}`",
        f"- Non-zero weights: {meta.get('nonzero_weights', '?')}; Platt's (A, B): "
        f"{meta.get('platt', '?')}",
        "",
        "## Scores",
        "",
    ]
    cv = training.get("cross_validation")
    if cv:
        lines += [
            f"Out-of-fold predictions of a {cv['folds']}-fold cross-validation grouped by site "
            "(GroupKFold: the links of one site are never in both the training and the test "
            "part).",
            "",
            *_score_table(cv["scores"]),
            "",
        ]
    held_out = training.get("real_sites_held_out")
    if held_out:
        lines += [
            "Trained on the generated worlds only, tested on the real sites: sites of a kind it "
            "never saw (real documentation sites), in languages the worlds lack "
            "(ko, ru, tr, da, pt-BR, ...):",
            "",
            *_score_table({"real (held out)": held_out}),
            "",
        ]
    lines += _label_comparison(training.get("label_rule", "pairs"), detector_results)
    lines += [
        "## Limits",
        "",
        "The precision is that of a link filter, as in the paper (its Link Predictor: 0.75 at "
        "0.5): a language switcher's link to a version the gold pairs reject (a page left "
        "untranslated, a translation judged mostly English, a decoy's fake translation) looks "
        "like any other switcher link and is labelled negative. The detector's second step, "
        "language identification of the pages behind the links, is what tells them apart.",
        "",
    ]
    return "\n".join(lines)


def _label_comparison(shipped: str, results: dict[str, Any] | None) -> list[str]:
    """The card's section on the label rules: the detector at 0.8 on real sites, leave-sites-out,
    with a Link Predictor trained under each rule (``benchmarks/site_detector.py``)."""
    real = (results or {}).get("real")
    if not real:
        return []
    lines = [
        "## Label rule",
        "",
        f"This model uses the `{shipped}` rule. The site detector (Link Predictor + language "
        "identification, minimum likelihood 0.8, defaults otherwise) on real sites, with Link "
        "Predictors trained under each rule on the generated worlds and the real sites of the "
        "*other* set only (leave-sites-out; `benchmarks/site_detector.py`, "
        f"{results.get('date', '?')}): precision / recall / pages per site (share of the "
        "verdicts decided by the Link Predictor's scored links, the rest by the language-hint "
        "and chooser rules).",
        "",
        "| entries | " + " | ".join(f"`{label}`" for label in real["by_label"]) + " |",
        "| --- |" + " ---: |" * len(real["by_label"]),
    ]
    at_08 = {
        label: {
            row["group"]: row
            for row in data["rows"]
            if row["config"] == "detector" and row["min_likelihood"] == 0.8
        }
        for label, data in real["by_label"].items()
    }
    groups = sorted({g for rows in at_08.values() for g in rows if ":" in g or g == "holdout"})
    for group in groups:
        if group.startswith("style_by_set:"):
            continue
        cells = []
        for rows in at_08.values():
            row = rows.get(group)
            recall = row and row.get("recall_where_linked", row["recall"])
            cells.append(
                "–"
                if row is None
                else f"{_cell(row['precision'])} / {_cell(recall)} / {row['pages_per_site']} "
                f"({_scored_share(row)})"
            )
        lines.append(f"| {group} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Why `language`: it is the paper's definition of a relevant link (\"links that point to "
        'parallel text in a Web site": to a page of the site in another language). Under '
        "`pairs`, a language chooser's link to another language's index, a header switcher "
        "falling back to a language's home page and a footer's \"Other languages\" links are "
        "taught as negatives, though they are the links that show a site is bilingual. With the "
        "detector's language-hint and chooser rules both rules reach the goals on these sites, "
        "but under `pairs` the model's own scores decide fewer verdicts (the shares above): a "
        "site whose switcher names no language, which those rules cannot see, rests on the model.",
        "",
    ]
    return lines


def _scored_share(row: dict[str, Any]) -> str:
    rules = row.get("rules") or {}
    total = sum(rules.values())
    return f"{rules.get('scored links', 0) / total:.0%} scored" if total else "–"


def _score_table(rows: dict[str, dict[str, Any]]) -> list[str]:
    columns = ("roc_auc", "average_precision", "precision@0.5", "recall@0.5", "precision@0.8",
               "recall@0.8")  # fmt: skip
    lines = [
        "| links of | links | positives | ROC AUC | avg. precision | P@0.5 | R@0.5 | P@0.8 | "
        "R@0.8 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, row in rows.items():
        values = " | ".join(_cell(row.get(column)) for column in columns)
        lines.append(f"| {name} | {row['links']} | {row['positives']} | {values} |")
    return lines


def _cell(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _kib(size: int | None) -> str:
    return f"{size / 1024:.0f} KiB" if size else "?"


def _format_seconds(seconds: dict[str, float]) -> str:
    return ", ".join(f"{name.replace('_', ' ')} {value} s" for name, value in seconds.items())
