"""How right are PupSniffer's URL pairs? Precision, recall and F1 against gold, per method.

Zhang et al. (2018) report 94.72% precision on 348,058 pairs. Here PupSniffer mines the list of
all page URLs of each set (:func:`mine_url_list`, what ``bilingual-spider patterns`` runs) and
its pairs are scored per method (``local``: 4.1, ``rescue``: 4.2, and ``all`` together), next to
the comparator that strips language markers from both URLs and matches equal remainders
(``patterns/stripping.py``). Sets:

- ``wmt16``: the URLs of ``shared/data/wmt16/train.pairs`` (gold en-fr pairs), pooled by domain;
  URL-only (every URL there is in a gold pair, so precision is flattered: no unpaired pages).
- ``real_sites``: every served HTML page of the real sites (``bilingual-spider sandbox fetch``),
  URL-only and with each page's language (the language its file name or directory declares, as
  ``real_sites.toml``'s ``page_pattern`` reads it, except that an untranslated symlink is in the
  language of the file it points to, as language ID would find); gold ``gold_pairs.tsv``.
- ``slug_sites``: the real site whose translations have other URLs (``digital.canada.ca`` and
  ``numerique.canada.ca``, :mod:`bilingual_spider.sandbox.slug_sites`): URLs cannot tell its
  pairs (the URL-only figures say how little they do); its pages name them (a crawl finds them
  as ``switcher`` pairs). Never trained or tuned on.
- ``generated``: every page of a generated world (seed 5, 1,000 sites by default), URL-only and
  with each page's language; gold its ``gold_pairs.tsv``.

A predicted pair is correct when it is a gold pair in either order. Both golds pair only the
English page with each of its translations. A predicted pair of two non-English pages that are
both gold translations of one English page (fr-de of one page) is arguably right, but the gold
cannot say: it is counted as ``implied``, reported apart and left out of precision (neither right
nor wrong); ``precision_strict`` counts it as wrong. Likewise ``unjudged``: a pair of two
translations of a real-site page whose English page is not English (the Apache manual's
``en/bind.html`` is Portuguese in Debian's package), which the gold drops with all its pairs
(``gold_unjudged.tsv``). Every other pair is wrong, including a pair
with a page the gold dropped as untranslated (an Apache symlink to the English page, a page half
or more of whose prose is the English page's, a page whose own prose is not in its language): a
URL cannot tell, and the paper counts such pairs as errors too.

``--crawl``: also crawls the real sites and the generated world with ``scrapy crawl pupsniffer``
through the sandbox web and scores its items (:func:`score_pairs`). ``--verifier-folds``: the
real sites leave-sites-out (the shipped pair verifier was trained on some of them): crawled in
folds by host, each with a verifier trained without its sites (:func:`verifier_folds`).

Goals: on the real sites precision >= 0.98 and recall >= 0.90; PupSniffer's F1 above the
stripping matcher's on every set.

    python benchmarks/pupsniffer.py [--sets wmt16 real_sites generated] [--wmt16 PATH]
        [--world DIR] [--world-seed 5] [--world-sites 1000] [--crawl] [--site-budget N]
        [--verifier-folds]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from itertools import combinations
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from url_difference import CLASSES, url_difference

from bilingual_spider.patterns.stripping import stripping_pairs
from bilingual_spider.patterns.url_list import UrlListResult, mine_url_list

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DEFAULT_WMT16 = Path("/work/shared/data/wmt16/train.pairs")
METHODS = ("local", "rescue", "all")
GOALS = {"real_sites_precision": 0.98, "real_sites_recall": 0.90, "f1_above_stripping": True}
PAPER = {"pairs": 348_058, "precision": 0.9472}
CRAWL = {
    "DOWNLOAD_DELAY": 0,
    "ROBOTSTXT_OBEY": False,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "INFO",
}


@dataclass
class Gold:
    """Gold pairs (sorted within a pair), and the non-English pairs they imply."""

    pairs: set[tuple[str, str]]
    implied: set[tuple[str, str]] = field(default_factory=set)
    """Two translations of one source page (both gold targets of it)."""
    urls: set[str] = field(default_factory=set)
    unjudged: set[tuple[str, str]] = field(default_factory=set)
    """Two translations of one page whose source page the gold dropped as not English."""

    @classmethod
    def from_rows(
        cls, rows: Iterable[Iterable[str]], unjudged_groups: Iterable[Iterable[str]] = ()
    ) -> Gold:
        """From (source_url, target_url, ...) rows: the source is the English page."""
        pairs, targets = set(), defaultdict(set)
        for row in rows:
            source, target = list(row)[:2]
            pairs.add(ordered(source, target))
            targets[source].add(target)
        implied = {
            ordered(a, b) for group in targets.values() for a, b in combinations(sorted(group), 2)
        }
        unjudged = {
            ordered(a, b) for group in unjudged_groups for a, b in combinations(sorted(group), 2)
        }
        return cls(pairs, implied - pairs, {u for p in pairs for u in p}, unjudged - pairs)

    def judge(self, pair: tuple[str, str]) -> str:
        """``correct``, ``implied``, ``unjudged`` or ``false``."""
        if pair in self.pairs:
            return "correct"
        if pair in self.implied:
            return "implied"
        return "unjudged" if pair in self.unjudged else "false"


def ordered(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def score_pairs(predicted: Iterable[tuple[str, str, str]], gold: Gold) -> dict[str, dict]:
    """Scores of (source_url, target_url, method) triples, per method and for all together.

    A pair found by several methods counts once in ``all`` (and in each of its methods).
    """
    by_method: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for source, target, method in predicted:
        pair = ordered(source, target)
        by_method[method].add(pair)
        by_method["all"].add(pair)
    methods = sorted(set(by_method) - {"all"}, key=lambda m: (m not in METHODS, m))
    return {m: scores(by_method[m], gold) for m in (*methods, "all")}


def scores(found: set[tuple[str, str]], gold: Gold) -> dict[str, Any]:
    verdicts = Counter(gold.judge(p) for p in found)
    correct, implied, false = verdicts["correct"], verdicts["implied"], verdicts["false"]
    unjudged = verdicts["unjudged"]
    judged = correct + false
    precision = correct / judged if judged else 0.0
    recall = correct / len(gold.pairs) if gold.pairs else 0.0
    f1 = 2 * precision * recall / (precision + recall) if correct else 0.0
    return {
        "pairs": len(found),
        "correct": correct,
        "implied": implied,
        "unjudged": unjudged,
        "false": false,
        "precision": round(precision, 4),
        "precision_strict": round(correct / len(found), 4) if found else 0.0,
        "recall": round(recall, 4),
        "f1": round(f1, 4),
    }


def evaluate(
    urls: list[str],
    gold: Gold,
    languages: Mapping[str, str] | None = None,
    classes: Mapping[tuple[str, str], str] | None = None,
) -> dict[str, Any]:
    """PupSniffer's scores per method, the stripping matcher's, and what went wrong; with
    ``classes`` (each gold pair's :func:`url_difference.url_difference`), recall per class."""
    started = time.process_time()
    result = mine_url_list(urls, languages)
    seconds = time.process_time() - started
    predicted = [(p.source, p.target, p.method) for p in result.pairs]
    stripped = {ordered(a, b) for a, b in stripping_pairs(urls)}
    run = {
        "urls": len(set(urls)),
        "gold_pairs": len(gold.pairs),
        "mining_s": round(seconds, 2),
        "pupsniffer": score_pairs(predicted, gold),
        "stripping": scores(stripped, gold),
        "top_patterns": [str(k) for k in result.top_patterns(10)],
        "errors": errors(result, gold),
    }
    if classes is not None:
        found = {ordered(p.source, p.target) for p in result.pairs}
        run["recall_by_class"] = {
            "pupsniffer": recall_by_class(found, classes),
            "stripping": recall_by_class(stripped, classes),
        }
        run["missed_by_class"] = missed_by_class(found, classes)
    return run


def recall_by_class(found: set[tuple[str, str]], classes: Mapping[tuple[str, str], str]) -> dict:
    """Per class of gold pair: how many, how many found, recall."""
    out = {}
    for name in CLASSES:
        pairs = [pair for pair, of in classes.items() if of == name]
        hit = sum(pair in found for pair in pairs)
        out[name] = {
            "gold": len(pairs),
            "found": hit,
            "recall": round(hit / len(pairs), 4) if pairs else None,
        }
    return out


def missed_by_class(
    found: set[tuple[str, str]], classes: Mapping[tuple[str, str], str], examples: int = 3
) -> dict[str, list[dict]]:
    """The gold pairs of each class that were not found, counted by host, a few of each."""
    by_host: dict[str, Counter] = defaultdict(Counter)
    shown: dict[tuple[str, str], list] = defaultdict(list)
    for pair, name in sorted(classes.items()):
        if pair not in found:
            by_host[name][host_of(pair[0])] += 1
            if len(shown[name, host_of(pair[0])]) < examples:
                shown[name, host_of(pair[0])].append(pair)
    return {
        name: [{"host": h, "pairs": c, "examples": shown[name, h]} for h, c in hosts.most_common()]
        for name, hosts in by_host.items()
    }


def errors(result: UrlListResult, gold: Gold, examples: int = 3) -> dict[str, Any]:
    """Missed gold pairs and false pairs, grouped by the kind of difference."""
    found = {ordered(p.source, p.target): p for p in result.pairs}
    candidates = {
        ordered(c.first_url, c.second_url): (site, c.pattern)
        for site, mined in result.mined.items()
        for c in mined.pairs
    }
    missed: dict[str, Counter] = defaultdict(Counter)
    missed_examples: dict[str, list] = defaultdict(list)
    for pair in sorted(gold.pairs - set(found)):
        if pair in candidates:
            site, k = candidates[pair]
            local = result.credibility.local_of(site, k)
            kind = f"candidate, not credible enough: {k} C(k,w)={local:.3f} in {site}"
            if local >= 0.1:
                kind = f"candidate, lost to another partner: {k} in {site}"
        else:
            kind = f"no one-unit pattern (not a candidate) in {host_of(pair[0])}"
        missed["by_kind"][kind] += 1
        if len(missed_examples[kind]) < examples:
            missed_examples[kind].append(pair)
    false: Counter = Counter()
    false_examples: dict[str, list] = defaultdict(list)
    for pair, p in sorted(found.items()):
        if gold.judge(pair) != "false":
            continue
        in_gold = sum(u in gold.urls for u in pair)
        kind = f"{p.method} {p.pattern} in {host_of(pair[0])}: {in_gold} of 2 URLs in gold pairs"
        false[kind] += 1
        if len(false_examples[kind]) < examples:
            false_examples[kind].append(pair)
    return {
        "missed": top_kinds(missed["by_kind"], missed_examples),
        "false": top_kinds(false, false_examples),
    }


def top_kinds(counts: Counter, examples: Mapping[str, list], n: int = 12) -> list[dict]:
    return [{"kind": k, "pairs": c, "examples": examples[k]} for k, c in counts.most_common(n)]


def host_of(url: str) -> str:
    return url.split("/")[2]


# ---------------------------------------------------------------------------------------------
# The sets


def wmt16_set(path: Path) -> tuple[list[str], Gold]:
    """The URLs of the WMT16 gold pairs (pooled: all domains in one list) and the gold."""
    rows = [line.split("\t") for line in path.read_text().splitlines() if line.strip()]
    gold = Gold.from_rows((a.strip(), b.strip()) for a, b, *_ in rows)
    return sorted(gold.urls), gold


def real_sites_set() -> tuple[list[str], dict[str, str], Gold]:
    """Every served HTML page of the real sites, the declared language of each page file, gold."""
    from bilingual_spider.sandbox import entry_pages, real_site, realsites

    cache = realsites.resolve_cache_dir()
    gold_path = realsites.gold_pairs_path()
    urls, languages = [], {}
    for site in real_site.load_sites():
        dirs = entry_pages.site_dirs(cache, site)
        served = real_site.served_html(dirs)
        urls += [site.url(relative) for relative in served]
        languages.update(page_languages(site, real_site.page_files(site, served)))
    rows = (line.split("\t") for line in gold_path.read_text().splitlines() if line.strip())
    unjudged_text = realsites.gold_unjudged_path().read_text()
    groups = [line.split("\t") for line in unjudged_text.splitlines() if line.strip()]
    return urls, languages, Gold.from_rows(rows, groups)


def page_languages(site: Any, files: list[Any]) -> dict[str, str]:
    """URL -> language of each page file: the language its path declares, except that a symlink
    (an untranslated page: Apache's ``da/bind.html`` -> ``en/bind.html``) is in the language of
    the file it points to, as language ID of its text would say."""
    real = {f.file_id: f.lang for f in sorted(files, key=lambda f: f.relative) if not f.symlink}
    return {site.url(f.relative): real.get(f.file_id, f.lang) for f in files}


def slug_sites_set() -> tuple[list[str], dict[str, str], Gold]:
    """The pages of the real site with translated slugs, the language of each (its host's), and
    its gold (:mod:`bilingual_spider.sandbox.slug_sites`)."""
    from urllib.parse import quote

    from bilingual_spider.sandbox import slug_sites

    sites = slug_sites.prepare()
    languages = {quote(url, safe="/:"): lang for url, (lang, _) in sites.page_files().items()}
    return sorted(languages), languages, Gold.from_rows(sites.gold_pairs())


def generated_set(world: Path) -> tuple[list[str], dict[str, str], Gold]:
    """Every page (status 200) of a generated world, its language, and the world's gold."""
    from bilingual_spider.sandbox.engine_files import read_pages
    from bilingual_spider.sandbox.webgraph_write import ENGINE_DIR, load_gold_pairs

    pages = [p for p in read_pages(world / ENGINE_DIR) if p.status == 200]
    languages = {p.url: p.lang for p in pages if p.lang}
    return [p.url for p in pages], languages, Gold.from_rows(load_gold_pairs(world))


def prepare_generated(world: Path, seed: int, sites: int) -> dict[str, Any]:
    from strategies import prepare_world

    from bilingual_spider.sandbox.webgraph_params import WorldParams

    return prepare_world(world, WorldParams(seed=seed, sites=sites))


# ---------------------------------------------------------------------------------------------
# The crawl (``scrapy crawl pupsniffer``)


def spider_available(name: str = "pupsniffer") -> bool:
    from bilingual_spider.sandbox.process import crawl_env

    listed = subprocess.run(
        [sys.executable, "-m", "scrapy", "list"], capture_output=True, text=True,
        env=crawl_env(), check=False, timeout=300,
    )  # fmt: skip
    if listed.returncode != 0:
        raise RuntimeError(f"`scrapy list` failed ({listed.returncode}):\n{listed.stderr[-2000:]}")
    return name in listed.stdout.split()


@dataclass
class Crawl:
    """A crawl's items and the URLs of the pages it fetched (HTTP 200)."""

    items: list[dict]
    fetched: set[str]
    rejected: dict[tuple[str, str], str] = field(default_factory=dict)
    """Pairs a check rejected (the spider's DEBUG lines): the first reason, the method that
    proposed the pair, then those that proposed it again and had it rejected for the same reason
    (``rejected copied (local, group)``)."""
    languages: dict[str, str] = field(default_factory=dict)
    """The language the crawl identified for each page (the spider's DEBUG lines)."""


_CRAWLED = re.compile(r"Crawled \(200\) <GET (https?://\S+)>")  # not the spider's own data: URL
_REJECTED = re.compile(r"pupsniffer rejected (\S+) (\S+) (\S+) (\S+)")
_LANGUAGE = re.compile(r"pupsniffer page language (\S+) (\S+)")


def run_crawl(
    server_args: list[str],
    seeds: list[str],
    work: Path,
    settings: Mapping[str, object] | None = None,
    reuse: bool = False,
    **arguments: object,
) -> Crawl:
    """``scrapy crawl pupsniffer -a KEY=VALUE...`` through a sandbox web, as strategies.run_crawl
    runs backforth; its items and the pages it fetched (from Scrapy's DEBUG log), read back.
    ``reuse``: the crawl left in ``work`` before, read again (scored anew, not crawled)."""
    from bilingual_spider.sandbox.process import SandboxServer, crawl_env

    work = work.resolve()  # the crawl runs in it: its paths must not be relative to here
    work.mkdir(parents=True, exist_ok=True)
    seeds_file, items = work / "seeds.txt", work / "items.jsonl"
    if reuse and items.exists() and (work / "crawl.log").exists():
        return read_crawl(work)
    seeds_file.write_text("".join(url + "\n" for url in seeds))
    with SandboxServer(server_args) as server:
        given = {**CRAWL, "LOG_LEVEL": "DEBUG", **(settings or {})}
        given["BILINGUAL_SANDBOX_PROXY"] = server.proxy_url
        command = [sys.executable, "-m", "scrapy", "crawl", "pupsniffer"]
        for key, value in given.items():
            command += ["-s", f"{key}={value}"]
        for key, value in {"seeds": seeds_file, "langs": "any", **arguments}.items():
            command += ["-a", f"{key}={value}"]
        command += ["-O", str(items)]
        with (work / "crawl.log").open("w") as log:
            result = subprocess.run(
                command, stdout=log, stderr=subprocess.STDOUT, text=True, timeout=3600,
                env=crawl_env(), check=False, cwd=work,
            )  # fmt: skip
    if result.returncode != 0 or not items.exists():
        tail = (work / "crawl.log").read_text()[-3000:]
        raise RuntimeError(f"pupsniffer crawl failed ({result.returncode}):\n{tail}")
    return read_crawl(work)


def read_crawl(work: Path) -> Crawl:
    """The items and fetched pages of the crawl left in ``work``."""
    items = work / "items.jsonl"
    fetched = set()
    rejected, languages = {}, {}
    with (work / "crawl.log").open(encoding="utf-8", errors="replace") as log_lines:
        for line in log_lines:
            if match := _CRAWLED.search(line):
                fetched.add(match.group(1))
            elif match := _REJECTED.search(line):
                why, method, source, target = match.groups()
                first = rejected.setdefault(ordered(source, target), f"rejected {why} ({method})")
                methods = first.partition("(")[2][:-1].split(", ")
                if first.startswith(f"rejected {why} (") and method not in methods:
                    rejected[ordered(source, target)] = f"{first[:-1]}, {method})"
            elif match := _LANGUAGE.search(line):
                languages[match.group(2)] = match.group(1)
    items_read = [json.loads(line) for line in items.read_text().splitlines() if line.strip()]
    return Crawl(items_read, fetched, rejected, languages)


def crawl_scores(
    crawl: Crawl,
    gold: Gold,
    languages: Mapping[str, str] | None = None,
    sites: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The pairs' scores, with recall over the gold pairs whose two pages the crawl fetched
    and the true pairs per 1,000 pages fetched (what a page budget buys); with the pages'
    ``languages``, that recall for every language pair too (:func:`language_pair_recall`)."""
    pairs = [
        (i["source_url"], i["target_url"], i.get("method") or "?")
        for i in crawl.items
        if "source_url" in i and "target_url" in i
    ]
    scored = score_pairs(pairs, gold)
    reachable = [p for p in gold.pairs if p[0] in crawl.fetched and p[1] in crawl.fetched]
    found = {ordered(a, b) for a, b, _ in pairs}
    correct = scored["all"]["correct"]
    pages = len(crawl.fetched)
    return {
        "items": len(crawl.items),
        "pages_fetched": pages,
        "gold_pairs_fetched": len(reachable),
        "recall_of_fetched": round(sum(1 for p in reachable if p in found) / len(reachable), 4)
        if reachable
        else None,
        "true_pairs_per_1000_pages": round(1000 * correct / pages, 1) if pages else None,
        **language_pair_recall(crawl, gold, found, languages or {}),
        "pupsniffer": scored,
        "audit": recall_audit(crawl, gold, found, sites or {}, languages or {}),
    }


def recall_audit(
    crawl: Crawl,
    gold: Gold,
    found: set[tuple[str, str]],
    names: Mapping[str, str],
    languages: Mapping[str, str],
) -> dict[str, Any]:
    """Per site, the gold pairs (every language pair) whose two pages were fetched and that were
    not reported, by reason: rejected by a check (the spider's DEBUG line names it and the
    method that proposed the pair), or never compared (neither page, one page, or both pages
    paired, but never with each other; a page the crawl identified in no language, or in
    another one than the gold's ``languages``); and the gold pairs left out by the budget (a
    page not fetched). A site is named by ``names`` (URL prefix -> name; the longest prefix of a
    URL), else by its host. ``top_reasons``: over all sites. Each site lists every such pair
    with its reason (``pairs``: ``[url, url, reason]``)."""
    prefixes = sorted(names, key=len, reverse=True)

    def site_of(url: str) -> str:
        return next((names[p] for p in prefixes if url.startswith(p)), host_of(url))

    paired = {url for pair in found for url in pair}
    sites: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"missed": 0, "reasons": Counter(), "examples": {}, "budget": 0, "pairs": []}
    )
    for pair in sorted(gold.pairs | gold.implied):
        site = sites[site_of(pair[0])]
        if not (pair[0] in crawl.fetched and pair[1] in crawl.fetched):
            site["budget"] += 1
            continue
        if pair in found:
            continue
        reason = crawl.rejected.get(pair) or never_compared(pair, paired, crawl, languages)
        site["missed"] += 1
        site["reasons"][reason] += 1
        site["examples"].setdefault(reason, list(pair))
        site["pairs"].append([*pair, reason])
    top: Counter = Counter()
    for site in sites.values():
        top.update(site["reasons"])
        site["reasons"] = dict(site["reasons"].most_common())
    return {"top_reasons": dict(top.most_common(12)), "sites": dict(sorted(sites.items()))}


def never_compared(
    pair: tuple[str, str], paired: set[str], crawl: Crawl, languages: Mapping[str, str]
) -> str:
    """Why a pair no check rejected was never reported: a page's language as the crawl
    identified it, or how many of its pages were paired with another page."""
    from bilingual_spider.language.codes import same_language

    for url in pair:
        identified = crawl.languages.get(url)
        if identified == "und":
            return "never compared: a page's language undetermined"
        if identified and url in languages and not same_language(identified, languages[url]):
            return f"never compared: a {languages[url]} page identified as {identified}"
    count = ("neither page", "one page", "both pages")[sum(url in paired for url in pair)]
    return f"never compared: {count} paired"


def language_pair_recall(
    crawl: Crawl, gold: Gold, found: set[tuple[str, str]], languages: Mapping[str, str]
) -> dict[str, Any]:
    """Recall of the gold pairs whose two pages were fetched, in every language pair: the gold's
    en x other pairs and the pairs of two translations of one English page (``implied``: true
    translations the gold does not list), by language pair; and the precision that counts those
    as correct (``precision_all_pairs``)."""
    every = gold.pairs | gold.implied
    reachable = [p for p in every if p[0] in crawl.fetched and p[1] in crawl.fetched]
    by_pair: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for pair in reachable:
        key = "/".join(sorted(languages.get(url, "?") for url in pair))
        by_pair[key][0] += 1
        by_pair[key][1] += pair in found
    verdicts = Counter(gold.judge(p) for p in found)
    right = verdicts["correct"] + verdicts["implied"]
    judged = right + verdicts["false"]
    reached = sum(found_ for _, found_ in by_pair.values())
    return {
        "all_pairs_fetched": len(reachable),
        "recall_of_fetched_all_pairs": round(reached / len(reachable), 4) if reachable else None,
        "precision_all_pairs": round(right / judged, 4) if judged else None,
        "true_pairs_all_per_1000_pages": round(1000 * right / len(crawl.fetched), 1)
        if crawl.fetched
        else None,
        "recall_of_fetched_by_language_pair": {
            key: {"fetched": n, "reported": k, "recall": round(k / n, 4)}
            for key, (n, k) in sorted(by_pair.items())
        },
    }


# ---------------------------------------------------------------------------------------------


def goals(sets: Mapping[str, Mapping[str, Any]]) -> dict[str, bool]:
    """Each goal, met or not, on every run that has it."""
    met = {}
    for name, run in sets.items():
        ours, theirs = run["pupsniffer"]["all"], run["stripping"]
        compared = ours["pairs"] or theirs["pairs"]  # URLs that tell nothing compare nothing
        if compared and not name.endswith("search"):  # search mode: what the engine returns
            met[f"{name}: f1 above stripping"] = ours["f1"] > theirs["f1"]
        if name in ("real_sites crawl", "slug_sites crawl"):  # the spider on real sites
            met[f"{name}: precision >= 0.98"] = ours["precision"] >= GOALS["real_sites_precision"]
            met[f"{name}: recall >= 0.90"] = ours["recall"] >= GOALS["real_sites_recall"]
            reached = run.get("recall_of_fetched") or 0.0
            met[f"{name}: recall of fetched pairs >= 0.90"] = reached >= GOALS["real_sites_recall"]
    return met


def print_audit(audit: Mapping[str, Any], examples: int = 5) -> None:
    """Per site, the gold pairs fetched and not reported by reason, the first few of each (every
    one is in the JSON), and the pairs the budget left out (a page not fetched)."""
    for name, site in audit["sites"].items():
        if not site["missed"] and not site["budget"]:
            continue
        print(f"  {name}: {site['missed']} fetched and not reported, {site['budget']} not fetched")
        shown: Counter = Counter()
        for first, second, reason in site.get("pairs", []):
            if shown[reason] < examples:
                print(f"    {reason}: {first} {second}")
            shown[reason] += 1
        for reason, count in shown.items():
            if count > examples:
                print(f"    {reason}: ... {count - examples} more")


def print_table(sets: Mapping[str, Mapping[str, Any]]) -> None:
    head = f"{'set':<22} {'method':<10} {'pairs':>7} {'correct':>7} {'implied':>7} {'unjudg':>6}"
    head += f" {'false':>7}"
    print(f"{head} {'P':>7} {'P strict':>8} {'R':>7} {'F1':>7}")
    for name, run in sets.items():
        if "pages_fetched" in run:
            print(
                f"{name}: {run['pages_fetched']} pages fetched, {run['gold_pairs_fetched']} gold "
                f"pairs with both pages fetched, recall of those {run['recall_of_fetched']}, "
                f"{run['true_pairs_per_1000_pages']} true pairs per 1,000 pages"
            )
            if run.get("all_pairs_fetched"):
                by_pair = run["recall_of_fetched_by_language_pair"]
                worst = sorted(by_pair.items(), key=lambda kv: (kv[1]["recall"], -kv[1]["fetched"]))
                print(
                    f"  every language pair: {run['all_pairs_fetched']} gold pairs fetched "
                    f"(en x other and two translations of one page), recall "
                    f"{run['recall_of_fetched_all_pairs']}, precision counting the latter right "
                    f"{run['precision_all_pairs']}, true pairs per 1,000 pages "
                    f"{run['true_pairs_all_per_1000_pages']}; {len(by_pair)} language pairs, "
                    "lowest: "
                    + ", ".join(f"{k} {v['reported']}/{v['fetched']}" for k, v in worst[:8])
                )
            if "audit" in run:
                print(
                    "  fetched, not reported, by reason: " + json.dumps(run["audit"]["top_reasons"])
                )
                print_audit(run["audit"])
        for method, by_class in run.get("recall_by_class", {}).items():
            print(
                f"{name}: {method} recall by class of gold pair: "
                + ", ".join(f"{c} {v['found']}/{v['gold']}" for c, v in by_class.items())
            )
        rows = [(f"pup {m}", s) for m, s in run["pupsniffer"].items()]
        for label, s in [*rows, ("stripping", run["stripping"])]:
            print(
                f"{name:<22} {label:<10} {s['pairs']:>7} {s['correct']:>7} {s['implied']:>7} "
                f"{s['unjudged']:>6} "
                f"{s['false']:>7} {s['precision']:>7.4f} {s['precision_strict']:>8.4f} "
                f"{s['recall']:>7.4f} {s['f1']:>7.4f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sets", nargs="+", default=["wmt16", "real_sites", "slug_sites", "generated"],
        choices=["wmt16", "real_sites", "slug_sites", "generated"],
    )  # fmt: skip
    parser.add_argument("--wmt16", type=Path, default=DEFAULT_WMT16, help="wmt16/train.pairs")
    parser.add_argument("--world", type=Path, help="generated world dir (made or reused)")
    parser.add_argument("--world-seed", type=int, default=5)
    parser.add_argument("--world-sites", type=int, default=1000)
    parser.add_argument("--crawl", action="store_true", help="also score scrapy crawl pupsniffer")
    parser.add_argument("--site-budget", type=int, default=500, help="pages per site (crawl)")
    parser.add_argument(
        "--pair-first", action="store_true", help="BILINGUAL_PUPSNIFFER_PAIR_FIRST (experimental)"
    )
    parser.add_argument(
        "--verifier",
        default="default",
        help="BILINGUAL_PUPSNIFFER_VERIFIER of the crawls: default, a model file, or '' (none)",
    )
    parser.add_argument(
        "--verifier-folds",
        action="store_true",
        help="real sites crawled leave-sites-out: each fold with a pair verifier trained "
        "without its sites",
    )
    parser.add_argument("--work", type=Path, help="crawl outputs (default: a temporary dir)")
    parser.add_argument(
        "--reuse", action="store_true", help="score the crawls left in --work, not crawl again"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "pupsniffer.json")
    args = parser.parse_args(argv)
    if args.crawl and not spider_available():
        print(
            "--crawl: `scrapy list` does not show the pupsniffer spider (not on this branch?)",
            file=sys.stderr,
        )
        return 2
    with tempfile.TemporaryDirectory(prefix="pupsniffer-") as scratch:
        world = args.world or Path(scratch) / "world"
        result = run(args, world, args.work or Path(scratch) / "crawl")
    print_table(result["sets"])
    for goal, met in result["goals"].items():
        print(f"goal {goal}: {'met' if met else 'MISSED'}")
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    print(f"\nresults in {args.out}")
    return 0


def run(args: argparse.Namespace, world: Path, work: Path) -> dict[str, Any]:
    sets: dict[str, dict[str, Any]] = {}
    parameters: dict[str, Any] = {"methods": list(METHODS), "sets": args.sets}
    golds: dict[str, Gold] = {}
    if "wmt16" in args.sets:
        urls, gold = wmt16_set(args.wmt16)
        classes = {pair: url_difference(*pair) for pair in gold.pairs}
        sets["wmt16 url_only"] = evaluate(urls, gold, classes=classes)
        sets["wmt16 url_only"]["gold_classes"] = dict(Counter(classes.values()).most_common())
        parameters["wmt16"] = str(args.wmt16)
    if "real_sites" in args.sets:
        urls, languages, golds["real_sites"] = real_sites_set()
        sets["real_sites url_only"] = evaluate(urls, golds["real_sites"])
        sets["real_sites languages"] = evaluate(urls, golds["real_sites"], languages)
    if "slug_sites" in args.sets:
        urls, languages, golds["slug_sites"] = slug_sites_set()
        sets["slug_sites url_only"] = evaluate(urls, golds["slug_sites"])
        sets["slug_sites languages"] = evaluate(urls, golds["slug_sites"], languages)
    if "generated" in args.sets:
        parameters["world"] = prepare_generated(world, args.world_seed, args.world_sites)
        parameters["world"].pop("dir", None)  # a temporary dir by default: not a parameter
        urls, languages, golds["generated"] = generated_set(world)
        sets["generated url_only"] = evaluate(urls, golds["generated"])
        sets["generated languages"] = evaluate(urls, golds["generated"], languages)
    if args.crawl:  # the spider's own pairs, next to the comparator on the same set's URLs
        parameters["site_budget"] = args.site_budget
        parameters["verifier"] = args.verifier or "none"
        if args.verifier_folds:
            parameters["verifier"] = "leave-sites-out folds (verifier_folds)"
        parameters["pair_first"] = args.pair_first
        for name, crawled in crawls(args, world, work, golds).items():
            label = name if " " in name else f"{name} crawl"
            comparator = sets[f"{name.split()[0]} url_only"]["stripping"]
            sets[label] = {**crawled, "stripping": comparator}
    result: dict[str, Any] = {
        "benchmark": "pupsniffer",
        "date": datetime.now().isoformat(timespec="seconds"),
        "parameters": parameters,
        "gold_treatment": GOLD_TREATMENT,
        "goals": goals(sets),
        "goal_values": GOALS,
        "paper": PAPER,
        "sets": sets,
    }
    return result


def crawls(args: argparse.Namespace, world: Path, work: Path, golds: Mapping[str, Gold]) -> dict:
    """``scrapy crawl pupsniffer`` over the real sites and the generated world, scored."""
    from bilingual_spider.sandbox import real_site, realsites, slug_sites
    from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE

    scored = {}
    settings = {
        "BILINGUAL_PUPSNIFFER_VERIFIER": args.verifier,
        "BILINGUAL_PUPSNIFFER_PAIR_FIRST": args.pair_first,
    }
    if "real_sites" in golds:
        seeds = realsites.sandbox_seed_urls()
        budget = args.site_budget
        if args.verifier_folds:
            crawl = leave_sites_out_crawl(work / "real_sites_folds", settings, args)
        else:
            crawl = run_crawl(
                ["--real-sites"], seeds, work / "real_sites", settings, args.reuse,
                site_budget=budget,
            )  # fmt: skip
        languages = real_sites_set()[1]
        names = {site.seed_url: site.name for site in real_site.load_sites()}
        scored["real_sites"] = crawl_scores(crawl, golds["real_sites"], languages, names)
    if "slug_sites" in golds:
        sites = slug_sites.prepare()
        server = ["--config", str(sites.config)]
        crawl = run_crawl(
            server,
            sites.seed_urls(),
            work / "slug_sites",
            settings,
            args.reuse,
            site_budget=args.site_budget,
        )
        scored["slug_sites"] = crawl_scores(crawl, golds["slug_sites"], slug_sites_set()[1])
    if "generated" in golds:
        seeds = world_roots(world)
        server = ["--config", str(world / CONFIG_FILE)]
        crawl = run_crawl(
            server, seeds, work / "generated", settings, args.reuse, site_budget=args.site_budget
        )
        scored["generated"] = crawl_scores(crawl, golds["generated"], generated_set(world)[1])
        seeds, langs = english_hosts_of_bilingual_sites(world)
        crawl = run_crawl(
            server,
            seeds,
            work / "search",
            settings,
            args.reuse,
            mode="search",
            langs=",".join(langs),
        )
        scored["generated search"] = crawl_scores(crawl, golds["generated"])
    return scored


def verifier_folds() -> list[tuple[list[dict[str, Any]], list[str] | None]]:
    """The real sites in folds for a leave-sites-out crawl, each with the sites its pair
    verifier is trained on (``None``: the shipped model, trained on none of them). The sites a
    verifier may be trained on (what ``bilingual-spider train pair-verifier`` uses: every
    multilingual site not held out) are split by host, for a crawl takes a host for one site:
    the manuals of www.debian.org, and the others; each fold's verifier is trained on the other
    fold's. The held-out and monolingual sites of other hosts are crawled with the shipped
    model, whose training sites are all in the first two folds."""
    from bilingual_spider.sandbox import realsites

    sites = json.loads(realsites.sites_json_path().read_text())
    pool = [s for s in sites if s["kind"] == "multilingual" and not s["holdout"]]
    debian = {s["host"] for s in pool if s["host"] == "www.debian.org"}
    pool_hosts = {s["host"] for s in pool}
    first = [s for s in sites if s["host"] in debian]
    second = [s for s in sites if s["host"] in pool_hosts - debian]
    rest = [s for s in sites if s["host"] not in pool_hosts]
    names = [[s["name"] for s in pool if s["host"] not in fold_hosts] for fold_hosts in (
        debian, pool_hosts - debian)]  # fmt: skip
    return [(first, names[0]), (second, names[1]), (rest, None)]


def leave_sites_out_crawl(work: Path, settings: Mapping[str, object], args: Any) -> Crawl:
    """``--verifier-folds``: the real sites crawled fold by fold (:func:`verifier_folds`), each
    with a pair verifier trained without its sites; the pages and pairs of each crawl on its own
    fold's hosts only, merged into one crawl to score."""
    from bilingual_spider.patterns.verifier_training import (
        fitted_verifier,
        real_site_pair_examples,
    )

    merged = Crawl([], set())
    examples = None
    for k, (fold, trained_on) in enumerate(verifier_folds()):
        model = "default"
        if trained_on is not None:
            model_file = work / f"verifier_fold{k}.json"
            if not (args.reuse and model_file.exists()):
                examples = examples if examples is not None else real_site_pair_examples()
                chosen = [e for e in examples if e.site in trained_on]
                work.mkdir(parents=True, exist_ok=True)
                fitted_verifier(chosen, threshold=0.7).save(
                    model_file, {"trained_on": trained_on, "fold": [s["name"] for s in fold]}
                )
            model = str(model_file)
        hosts = {s["host"] for s in fold}
        crawl = run_crawl(
            ["--real-sites"], [s["seed_url"] for s in fold], work / f"fold{k}",
            {**settings, "BILINGUAL_PUPSNIFFER_VERIFIER": model}, args.reuse,
            site_budget=args.site_budget,
        )  # fmt: skip
        add_on_hosts(merged, crawl, hosts)
    return merged


def add_on_hosts(merged: Crawl, crawl: Crawl, hosts: set[str]) -> None:
    """Add to ``merged`` what ``crawl`` fetched and found on ``hosts``: its pages, the pairs
    whose source page is there, and the rejections and languages of those pages."""

    def there(url: str) -> bool:
        return urlsplit(url).netloc in hosts

    merged.items += [i for i in crawl.items if there(i.get("source_url", ""))]
    merged.fetched |= {u for u in crawl.fetched if there(u)}
    merged.rejected.update({p: r for p, r in crawl.rejected.items() if there(p[0])})
    merged.languages.update({u: x for u, x in crawl.languages.items() if there(u)})


def english_hosts_of_bilingual_sites(world: Path) -> tuple[list[str], list[str]]:
    """Search mode's seeds: the English host of every bilingual or multilingual site with
    English (what a user who knows nothing but a domain list would give), and the languages:
    English first, then every other language of those sites."""
    from bilingual_spider.sandbox.webgraph_write import load_ground_truth

    sites = [
        s for s in load_ground_truth(world)["sites"] if s["bilingual"] and "en" in s["languages"]
    ]
    seeds = sorted({f"http://{s['hosts']['en']}/" for s in sites})
    others = sorted({lang for s in sites for lang in s["languages"]} - {"en"})
    return seeds, ["en", *others]


def world_roots(world: Path) -> list[str]:
    """The home page of every host of every site of a generated world: the crawl covers the
    same sites as the URL-only sets, so the stripping matcher's figures compare."""
    from bilingual_spider.sandbox.webgraph_write import load_ground_truth

    truth = load_ground_truth(world)
    return sorted({f"http://{host}/" for site in truth["sites"] for host in site["hosts"].values()})


GOLD_TREATMENT = (
    "A predicted pair is correct when it is a gold pair in either order. The golds pair only "
    "the English page with each translation (en x other). A pair of two non-English pages that "
    "are both gold translations of one English page is 'implied': reported apart and left out "
    "of precision (precision_strict counts it as wrong); recall is over the en x other gold "
    "pairs only. Every other predicted pair is false, including pairs with a page the real "
    "sites' gold dropped as untranslated (symlink to the English page, half or more of its "
    "prose copied from the English page, its own prose in another language): a URL cannot "
    "tell, but the pair is no translation."
    " A pair of two translations of a real-site page whose English page is not English (so "
    "the gold dropped all its pairs) is 'unjudged', treated like an implied pair."
)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))  # strategies.prepare_world
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")
    sys.exit(main())
