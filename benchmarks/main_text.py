"""Which library gives a document pair its text: trafilatura or jusText, on the real sites' pages.

No real page comes with its main text marked, so each extractor is judged by what a site's own
pages say about it. A line of a page's visible text (lxml, whitespace collapsed, at least 20
characters) that recurs on at least 30 % of the sampled pages of its site is *template* (menus,
footers, the table of contents); the page's other lines of at least 40 characters are its
*content*. For each page and extractor:

- ``leak``: the share of the extracted characters that are template lines;
- ``coverage``: the share of the content lines' characters found in the extracted text;
- ``score``: the harmonic mean of ``1 - leak`` and ``coverage``;

averaged over the pages of each site, then over sites; and the milliseconds per page. jusText is
run with the project's stop-list setting for the page's language, as the quality focus runs
it; trafilatura with its defaults (``favor_recall`` off, no comments, tables kept), and with
``fast=True`` (its own extractor only, none of its fallbacks).

    python benchmarks/main_text.py [--pages-per-site 60]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import justext
import trafilatura
from lxml import etree

from bilingual_spider.html_page import parse_html
from bilingual_spider.language.boilerplate import stoplist_setting

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TEMPLATE_SHARE = 0.3
MIN_LINE = 20
MIN_CONTENT_LINE = 40
_SPACE = re.compile(r"\s+")


def visible_lines(html: bytes) -> list[str]:
    root = parse_html(html).root
    if root is None:
        return []
    for bad in root.iter("script", "style", "noscript", "template", etree.Comment):
        bad.text = ""
    text = "\n".join(root.itertext())
    lines = (_SPACE.sub(" ", line).strip() for line in text.split("\n"))
    return [line for line in lines if len(line) >= MIN_LINE]


def extract_justext(html: bytes, language: str) -> str:
    """jusText's good paragraphs, with the project's stop-list setting for the language
    (``language.boilerplate.stoplist_setting``: unspaced scripts, the union of all lists)."""
    setting = stoplist_setting(language)
    paragraphs = justext.justext(html, setting.stoplist, **setting.options())
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


def extract_trafilatura(html: bytes, language: str) -> str:
    return trafilatura.extract(html.decode("utf-8", "replace"), include_comments=False) or ""


def extract_trafilatura_fast(html: bytes, language: str) -> str:
    """trafilatura without its fallback extractors (readability, jusText): ``fast=True``."""
    text = trafilatura.extract(html.decode("utf-8", "replace"), include_comments=False, fast=True)
    return text or ""


EXTRACTORS = {
    "trafilatura": extract_trafilatura,
    "trafilatura_fast": extract_trafilatura_fast,
    "justext": extract_justext,
}


def judge(extracted: str, template: set[str], content: list[str]) -> tuple[float, float]:
    out = [_SPACE.sub(" ", line).strip() for line in extracted.split("\n")]
    total = sum(len(line) for line in out) or 1
    leaked = sum(len(line) for line in out if line in template)
    flat = _SPACE.sub(" ", extracted)
    wanted = sum(len(line) for line in content) or 1
    found = sum(len(line) for line in content if line in flat)
    return leaked / total, found / wanted


def site_pages(per_site: int, rng: random.Random) -> dict[str, list[tuple[bytes, str]]]:
    """Sampled pages of every real multilingual site and of the translated-slug site."""
    from bilingual_spider.sandbox import entry_pages, real_site, realsites, slug_sites

    cache = realsites.resolve_cache_dir()
    sites: dict[str, list[tuple[bytes, str]]] = {}
    for site in real_site.load_sites():
        if site.kind != "multilingual":
            continue
        served = real_site.served_html(entry_pages.site_dirs(cache, site))
        files = real_site.page_files(site, served)
        chosen = rng.sample(files, min(per_site, len(files)))
        sites[site.name] = [(served[f.relative].read_bytes(), f.lang) for f in chosen]
    slugs = slug_sites.prepare()
    pages = sorted(slugs.page_files().items())
    chosen = rng.sample(pages, min(per_site, len(pages)))
    sites["digital-canada"] = [(path.read_bytes(), lang) for _, (lang, path) in chosen]
    return sites


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages-per-site", type=int, default=60)
    args = parser.parse_args(argv)
    rng = random.Random(20)
    per_site: dict[str, dict[str, dict[str, float]]] = {}
    for name, pages in site_pages(args.pages_per_site, rng).items():
        lines = [visible_lines(html) for html, _ in pages]
        counts = Counter(line for page in lines for line in set(page))
        template = {line for line, n in counts.items() if n >= TEMPLATE_SHARE * len(pages)}
        per_site[name] = {}
        for extractor, extract in EXTRACTORS.items():
            leaks, coverages, scores, seconds = [], [], [], 0.0
            for (html, language), page_lines in zip(pages, lines, strict=True):
                content = [
                    line for line in page_lines
                    if line not in template and len(line) >= MIN_CONTENT_LINE
                ]  # fmt: skip
                started = time.process_time()
                text = extract(html, language)
                seconds += time.process_time() - started
                if not content:
                    continue
                leak, coverage = judge(text, template, content)
                leaks.append(leak)
                coverages.append(coverage)
                kept = 1 - leak
                scores.append(2 * kept * coverage / (kept + coverage) if kept + coverage else 0)
            per_site[name][extractor] = {
                "pages": len(scores),
                "leak": round(statistics.fmean(leaks), 4) if leaks else None,
                "coverage": round(statistics.fmean(coverages), 4) if coverages else None,
                "score": round(statistics.fmean(scores), 4) if scores else None,
                "ms_per_page": round(1000 * seconds / len(pages), 2),
            }
            s = per_site[name][extractor]
            print(f"{name:<22} {extractor:<12} leak {s['leak']} coverage {s['coverage']} "
                  f"score {s['score']} {s['ms_per_page']} ms/page", flush=True)  # fmt: skip
    overall = {
        extractor: {
            key: round(
                statistics.fmean(
                    s[extractor][key] for s in per_site.values() if s[extractor][key] is not None
                ),
                4,
            )
            for key in ("leak", "coverage", "score", "ms_per_page")
        }  # fmt: skip
        for extractor in EXTRACTORS
    }
    best = max(overall, key=lambda e: overall[e]["score"])
    result = {
        "benchmark": "main_text",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "how": __doc__.split("\n\n")[1].replace("\n", " "),
        "pages_per_site": args.pages_per_site,
        "sites": per_site,
        "overall": overall,
        "best": best,
    }
    for extractor, s in overall.items():
        print(f"overall {extractor:<12} leak {s['leak']} coverage {s['coverage']} "
              f"score {s['score']} {s['ms_per_page']} ms/page")  # fmt: skip
    print(f"best: {best}")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / "main_text.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
