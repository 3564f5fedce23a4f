"""Does Badness tell good prose in a language from other-language prose and from boilerplate?

ROC AUC of -badness(L) on the real sites of the sandbox web (Debian's documentation HTML: the
Apache httpd manual, debian-reference, the installation guide, the FAQ, the maintainers' guide,
the Python docs), whose text the profiles never saw (they are built from man pages and gettext
catalogs, see ``bilingual_spider/language/build_badness_profiles.py``).

For each profiled language L:

* **positives**: the main text (the ``<p>`` outside navigation) of pages in L. Translated pages
  are taken only from the gold pairs, whose language was checked by language ID;
* **negatives**: the main text of pages in every other language (Simplified and Traditional
  Chinese, and pt / pt-BR, are neither for each other), and boilerplate of every language:
  the link texts of each page (what a menu or table of contents reads like), its navigation
  blocks (headers, footers, breadcrumbs, sidebars, tables of contents, language bars), and whole
  index pages (more than half of their text in links).

Also reported: the same at paragraph level (single ``<p>`` of 30 tokens or more whose language
lid.176 confirms: translated pages keep some paragraphs in English), how often the
lowest-badness language is the page's own (the cross-check of language ID), Section 3's threshold
10 as a binary filter, throughput, and the boilerplate score's figures on blocks labelled by
their place in the page (content ``<p>`` vs navigation blocks and link-only items).

Goal (issue "Language and text signals"): ROC AUC >= 0.95 per language and overall.

    python benchmarks/badness.py [--max-pages 150] [--cache DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import lxml.html
from lxml import etree
from sklearn.metrics import roc_auc_score

from bilingual_spider.language.badness import (
    BADNESS_THRESHOLD,
    DEFAULT_PROFILES_PATH,
    LanguageProfile,
    badness_scores,
    load_profiles,
    lowest_badness,
    profile_code,
    tokens,
)
from bilingual_spider.language.boilerplate import NOT_BOILERPLATE, block_scores
from bilingual_spider.language.codes import base_language
from bilingual_spider.sandbox.page_text import declared_encoding
from bilingual_spider.sandbox.real_site import load_sites, page_files, served_html
from bilingual_spider.sandbox.realsites import gold_pairs_path, resolve_cache_dir

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
GOAL = 0.95
MIN_PAGE_TOKENS = 50
MIN_PARAGRAPH_TOKENS = 30
MIN_BOILERPLATE_TOKENS = 10
INDEX_LINK_SHARE = 0.5
BOILERPLATE_PAGES = 40
"""Pages per (site, language) whose blocks are scored by jusText (it is the slow part)."""

_CODE_TAGS = ("script", "style", "noscript", "template", "pre", "code", "tt", "kbd", "samp")
_NAV_TAGS = {"nav", "header", "footer"}
_NAV_NAMES = re.compile(
    r"(^|[\s_-])(nav\w*|toc|menu|sidebar|sphinxsidebar|related|footer|header|page-header|"
    r"quickview|toplang|bottomlang|path|breadcrumbs?|up)($|[\s_-])",
    re.I,
)
_SPACES = re.compile(r"\s+")


@dataclass
class Page:
    url: str
    site: str
    lang: str
    html: bytes
    paragraphs: list[str] = field(default_factory=list)
    nav_blocks: list[str] = field(default_factory=list)
    link_texts: list[str] = field(default_factory=list)
    text: str = ""

    @property
    def link_share(self) -> float:
        linked = sum(len(t) for t in self.link_texts)
        return linked / len(self.text) if self.text else 0.0

    @property
    def is_index(self) -> bool:
        return self.link_share > INDEX_LINK_SHARE


@dataclass(frozen=True)
class Sample:
    kind: str  # page | paragraph | links | navigation | index
    lang: str
    site: str
    text: str


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _in_navigation(element: etree._Element) -> bool:
    for node in element.iterancestors():
        if node.tag in _NAV_TAGS:
            return True
        names = f"{node.get('class', '')} {node.get('id', '')}"
        if _NAV_NAMES.search(names):
            return True
    return False


def _is_navigation(element: etree._Element) -> bool:
    names = f"{element.get('class', '')} {element.get('id', '')}"
    return element.tag in _NAV_TAGS or bool(_NAV_NAMES.search(names))


def read_page(url: str, site: str, lang: str, path: Path) -> Page | None:
    """A page's main text (``<p>`` outside navigation), navigation blocks and link texts;
    code is left out everywhere (identical in every language)."""
    data = path.read_bytes()
    try:
        document = lxml.html.document_fromstring(
            data.decode(declared_encoding(data), errors="replace").encode("utf-8"),
            parser=lxml.html.HTMLParser(encoding="utf-8", remove_comments=True),
        )
    except (etree.ParserError, ValueError):
        return None
    etree.strip_elements(document, *_CODE_TAGS, with_tail=False)
    body = document.find("body")
    if body is None:
        return None
    page = Page(url, site, lang, data, text=_clean(body.text_content()))
    for element in body.iter(etree.Element):
        if element.tag == "p" and not _in_navigation(element):
            text = _clean(element.text_content())
            if text:
                page.paragraphs.append(text)
        elif element.tag == "a" and element.get("href") is not None:
            text = _clean(element.text_content())
            if text:
                page.link_texts.append(text)
        if _is_navigation(element) and not _in_navigation(element):
            text = _clean(element.text_content())
            if text:
                page.nav_blocks.append(text)
    return page


def _stable(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def load_pages(cache: Path, max_pages: int) -> list[Page]:
    """Pages of the real sites: the gold pairs' pages of multilingual sites (their language is
    verified), every page of monolingual ones; at most ``max_pages`` per site and language,
    a fixed sample."""
    gold_urls: set[str] = set()
    path = gold_pairs_path(cache)
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        gold_urls.update(fields[:2])
    root = cache / "root"
    chosen: dict[tuple[str, str], list[tuple[str, str, Path]]] = defaultdict(list)
    for site in load_sites():
        served = served_html([root / d for d in site.dirs])
        for page_file in page_files(site, served):
            url = site.url(page_file.relative)
            if page_file.symlink or (site.kind == "multilingual" and url not in gold_urls):
                continue
            chosen[(site.name, page_file.lang)].append((url, page_file.lang, page_file.path))
    pages = []
    for (site_name, _), files in sorted(chosen.items()):
        for url, lang, file_path in sorted(sorted(files, key=lambda f: _stable(f[0]))[:max_pages]):
            page = read_page(url, site_name, lang, file_path)
            if page is not None:
                pages.append(page)
    return pages


def verified(samples: list[Sample]) -> list[Sample]:
    """Paragraphs whose language lid.176 confirms: translated pages keep some paragraphs in
    English (the installation guide's untranslated ones), which are not in the page's language.
    (Whole pages are confirmed already: the gold pairs leave out mostly-English translations.)"""
    from bilingual_spider.language.identification import default_identifier

    paragraphs = [s for s in samples if s.kind == "paragraph"]
    guesses = default_identifier().identify_many([s.text for s in paragraphs])
    confirmed = {
        id(s)
        for s, g in zip(paragraphs, guesses, strict=True)
        if g and base_language(g[0].lang) == base_language(s.lang)
    }
    return [s for s in samples if s.kind != "paragraph" or id(s) in confirmed]


def samples_of(page: Page) -> list[Sample]:
    def sample(kind: str, text: str, minimum: int) -> list[Sample]:
        return [Sample(kind, page.lang, page.site, text)] if len(tokens(text)) >= minimum else []

    if page.is_index:
        return sample("index", page.text, MIN_BOILERPLATE_TOKENS)
    found = sample("page", "\n".join(page.paragraphs), MIN_PAGE_TOKENS)
    for paragraph in page.paragraphs:
        found += sample("paragraph", paragraph, MIN_PARAGRAPH_TOKENS)
    found += sample("links", "\n".join(page.link_texts), MIN_BOILERPLATE_TOKENS)
    for block in page.nav_blocks:
        found += sample("navigation", block, MIN_BOILERPLATE_TOKENS)
    return found


# --- measuring --------------------------------------------------------------------------------


def binary_figures(labels: Sequence[int], scores: Sequence[float]) -> dict[str, float]:
    """Precision, recall, F1 of ``badness <= 10`` (Section 3) as a filter for the positives."""
    kept = [b <= BADNESS_THRESHOLD for b in scores]
    tp = sum(k and y for k, y in zip(kept, labels, strict=True))
    precision = tp / sum(kept) if any(kept) else 0.0
    recall = tp / sum(labels) if any(labels) else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4)}


def auc(labels: Sequence[int], badness: Sequence[float]) -> float | None:
    if len(set(labels)) < 2:
        return None
    return round(float(roc_auc_score(labels, [-b for b in badness])), 4)


def evaluate(
    samples: Sequence[Sample],
    scores: Sequence[Mapping[str, float]],
    positive_kind: str,
    profiles: Mapping[str, LanguageProfile],
) -> dict[str, Any]:
    """Per-language and overall AUC of ``-badness`` for ``positive_kind`` samples against the
    other languages' samples of that kind and all boilerplate samples."""
    codes = [profile_code(s.lang, profiles) for s in samples]
    table: dict[str, Any] = {}
    pooled_labels: list[int] = []
    pooled_scores: list[float] = []
    for lang in sorted(profiles):
        rows = []  # (label, badness, negative kind)
        for sample, code, score in zip(samples, codes, scores, strict=True):
            same_base = code is not None and base_language(code) == base_language(lang)
            if sample.kind == positive_kind and code == lang:
                rows.append((1, score[lang], "positive"))
            elif sample.kind == positive_kind and not same_base:
                rows.append((0, score[lang], "other_language"))
            elif sample.kind in ("links", "navigation", "index"):
                rows.append((0, score[lang], "boilerplate"))
        positives = sum(r[0] for r in rows)
        if positives < 5:
            continue
        labels = [r[0] for r in rows]
        badness = [r[1] for r in rows]
        entry: dict[str, Any] = {
            "positives": positives,
            "negatives": len(rows) - positives,
            "auc": auc(labels, badness),
        }
        for negative in ("other_language", "boilerplate"):
            subset = [r for r in rows if r[2] in ("positive", negative)]
            entry[f"auc_vs_{negative}"] = auc([r[0] for r in subset], [r[1] for r in subset])
        entry["threshold_10"] = binary_figures(labels, badness)
        entry["median_badness_positive"] = _median(
            [b for y, b in zip(labels, badness, strict=True) if y]
        )
        table[lang] = entry
        pooled_labels += labels
        pooled_scores += badness
    aucs = [e["auc"] for e in table.values() if e["auc"] is not None]
    return {
        "languages": table,
        "overall": {
            "auc_pooled": auc(pooled_labels, pooled_scores),
            "auc_mean": round(sum(aucs) / len(aucs), 4) if aucs else None,
            "auc_min": min(aucs) if aucs else None,
            "threshold_10": binary_figures(pooled_labels, pooled_scores),
        },
    }


def _median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    return round(ordered[len(ordered) // 2], 2) if ordered else None


def cross_check(
    samples: Iterable[Sample], profiles: Mapping[str, LanguageProfile]
) -> dict[str, Any]:
    """How often the lowest-badness language of a page's main text is the page's language."""
    hits: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    confusions: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for sample in samples:
        code = profile_code(sample.lang, profiles)
        if sample.kind != "page" or code is None:
            continue
        best = lowest_badness(sample.text, profiles)
        found = best.lang if best else "none"
        ok = base_language(found) == base_language(code)
        hits[code][0] += ok
        hits[code][1] += 1
        if not ok:
            confusions[code][found] += 1
    total = [sum(h[0] for h in hits.values()), sum(h[1] for h in hits.values())]
    return {
        "accuracy": round(total[0] / total[1], 4) if total[1] else None,
        "pages": total[1],
        "by_language": {
            lang: {
                "accuracy": round(h[0] / h[1], 4),
                "pages": h[1],
                "confused_with": dict(confusions[lang]),
            }
            for lang, h in sorted(hits.items())
        },
    }


def _block_figures(labels: Sequence[int], scores: Sequence[float]) -> dict[str, Any]:
    kept = [s >= NOT_BOILERPLATE for s in scores]
    tp = sum(k and y for k, y in zip(kept, labels, strict=True))
    precision = tp / sum(kept) if any(kept) else 0.0
    recall = tp / sum(labels) if any(labels) else 0.0
    return {
        "blocks": len(labels),
        "content_blocks": sum(labels),
        "auc": round(float(roc_auc_score(labels, scores)), 4) if len(set(labels)) == 2 else None,
        "score_ge_0.5_is_content": {
            "precision": round(precision, 4),
            "recall": round(recall, 4),
            "f1": round(2 * precision * recall / (precision + recall), 4) if tp else 0.0,
        },
    }


def boilerplate_figures(pages: Sequence[Page], per_site_lang: int) -> dict[str, Any]:
    """jusText's scores on blocks labelled by their place: content = a ``<p>`` of the main
    text, boilerplate = a navigation block or a block that is all link text."""
    taken: dict[tuple[str, str], int] = defaultdict(int)
    rows: list[tuple[str, int, float]] = []  # (language, label, score)
    started = time.perf_counter()
    size = 0
    for page in pages:
        key = (page.site, page.lang)
        if taken[key] >= per_site_lang or page.is_index:
            continue
        taken[key] += 1
        content = set(page.paragraphs)
        boilerplate = set(page.nav_blocks) | set(page.link_texts)
        size += len(page.html)
        for block in block_scores(page.html, page.lang):
            text = _clean(block.text)
            if text in content and text not in boilerplate:
                rows.append((base_language(page.lang), 1, block.score))
            elif text in boilerplate and text not in content:
                rows.append((base_language(page.lang), 0, block.score))
    elapsed = time.perf_counter() - started
    by_language = {
        lang: _block_figures(
            [r[1] for r in rows if r[0] == lang], [r[2] for r in rows if r[0] == lang]
        )
        for lang in sorted({r[0] for r in rows})
    }
    return {
        "pages": sum(taken.values()),
        **_block_figures([r[1] for r in rows], [r[2] for r in rows]),
        "pages_per_second": round(sum(taken.values()) / elapsed, 1),
        "mb_per_second": round(size / elapsed / 1e6, 2),
        "by_language": by_language,
    }


# --- report -----------------------------------------------------------------------------------


def print_table(title: str, result: Mapping[str, Any]) -> None:
    print(f"\n{title}")
    print(f"{'lang':8} {'pos':>5} {'neg':>6} {'AUC':>7} {'vs lang':>8} {'vs boil':>8} {'F1@10':>6}")
    for lang, e in result["languages"].items():
        print(
            f"{lang:8} {e['positives']:5d} {e['negatives']:6d} {e['auc']:7.4f} "
            f"{e['auc_vs_other_language'] or 0:8.4f} {e['auc_vs_boilerplate'] or 0:8.4f} "
            f"{e['threshold_10']['f1']:6.3f}"
        )
    overall = result["overall"]
    print(
        f"{'overall':8} pooled AUC {overall['auc_pooled']}, mean {overall['auc_mean']}, "
        f"min {overall['auc_min']}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-pages", type=int, default=150, help="per site and language")
    parser.add_argument("--cache", type=Path, default=None, help="the real sites' cache")
    parser.add_argument("--out", type=Path, default=RESULTS / "badness.json")
    parser.add_argument("--profiles", type=Path, default=DEFAULT_PROFILES_PATH)
    args = parser.parse_args(argv)
    cache = resolve_cache_dir(args.cache)
    if not gold_pairs_path(cache).is_file():
        print(
            f"no real sites in {cache}: run `bilingual-spider sandbox fetch` first", file=sys.stderr
        )
        return 2
    profiles = load_profiles(args.profiles)
    pages = load_pages(cache, args.max_pages)
    samples = verified([s for page in pages for s in samples_of(page)])

    started = time.perf_counter()
    scores = [badness_scores(s.text, profiles) for s in samples]
    elapsed = time.perf_counter() - started
    chars = sum(len(s.text) for s in samples)

    page_result = evaluate(samples, scores, "page", profiles)
    paragraph_result = evaluate(samples, scores, "paragraph", profiles)
    checked = cross_check(samples, profiles)
    boilerplate = boilerplate_figures(pages, BOILERPLATE_PAGES)
    counts: dict[str, int] = defaultdict(int)
    for sample in samples:
        counts[sample.kind] += 1
    result = {
        "goal": f"ROC AUC >= {GOAL}",
        "profiles": {
            "file": args.profiles.name,
            "languages": sorted(profiles),
            "input_digest": json.loads(args.profiles.read_text(encoding="utf-8"))["build"][
                "input_digest"
            ],
        },
        "data": {
            "pages": len(pages),
            "sites": sorted({p.site for p in pages}),
            "samples": dict(sorted(counts.items())),
            "max_pages_per_site_and_language": args.max_pages,
        },
        "pages": page_result,
        "paragraphs": paragraph_result,
        "cross_check": checked,
        "throughput": {
            "samples_per_second": round(len(samples) / elapsed, 1),
            "mb_text_per_second": round(chars / 1e6 / elapsed, 2),
            "note": f"badness for all {len(profiles)} profiles in one pass, one core",
        },
        "boilerplate": boilerplate,
    }
    print(f"{len(pages)} pages, samples: {dict(counts)}")
    print_table("Pages: main text in L vs other languages + boilerplate", page_result)
    print_table("Paragraphs (>= 30 tokens) in L vs other languages + boilerplate", paragraph_result)
    print(f"\nlowest badness = page language: {checked['accuracy']} of {checked['pages']} pages")
    for lang, entry in checked["by_language"].items():
        if entry["accuracy"] < 1:
            print(f"  {lang}: {entry['accuracy']} ({entry['confused_with']})")
    print(f"throughput: {result['throughput']}")
    print(
        f"boilerplate score (jusText) on {boilerplate['blocks']} labelled blocks of "
        f"{boilerplate['pages']} pages: AUC {boilerplate['auc']}, score >= 0.5 as content: "
        f"{boilerplate['score_ge_0.5_is_content']}, {boilerplate['pages_per_second']} pages/s"
    )
    for lang, figures in boilerplate["by_language"].items():
        print(f"  {lang:3} AUC {figures['auc']}  {figures['score_ge_0.5_is_content']}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    ok = page_result["overall"]["auc_min"]
    return 0 if ok is not None and ok >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
