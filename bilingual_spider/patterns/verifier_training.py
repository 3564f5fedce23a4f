"""Labelled pairs of real pages for :class:`~.verification.PairVerifier`: the real sites of
``bilingual-spider sandbox fetch`` (Debian's documentation packages and the like).

For each multilingual site, every page in the source language is paired with each file that
``page_pattern`` gives as the same page in another language (what a URL pattern proposes):

- ``translation`` (1): a gold pair;
- ``untranslated`` (0): a pair the gold dropped as untranslated: a symlink to the source
  page, a "translation" half or more of whose prose is the source's (a file the gold dropped
  for being in another language than its name says is left out: the language check's work);
- ``misaligned`` (0): the source page with the other language's file of the *next* page of the
  same directory (``ch02s03`` with ``ch02s04``): what a manual whose chapters are numbered
  differently in two languages makes a URL pattern propose. Same template, other content.

Pairs of a page whose source is not in its language (``gold_unjudged.tsv``) are left out. At most
``max_pairs_per_site`` translations per site are taken (a random sample), with as many
misaligned pairs and at most as many untranslated ones, so that no site dominates.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bilingual_spider.patterns.pair_language import MAX_COPIED_SHARE
from bilingual_spider.patterns.verification import (
    PageContent,
    PairSignals,
    PairVerifier,
    content_signals,
    page_content,
)

TRANSLATION, UNTRANSLATED, MISALIGNED = "translation", "untranslated", "misaligned"
MAX_PAIRS_PER_SITE = 200


@dataclass(frozen=True)
class PairExample:
    site: str
    kind: str
    """``translation``, ``untranslated`` or ``misaligned``."""
    source_url: str
    target_url: str
    signals: PairSignals

    @property
    def label(self) -> int:
        return int(self.kind == TRANSLATION)


class _Pages:
    """The :class:`~.verification.PageContent` of each file, computed once."""

    def __init__(self) -> None:
        self._seen: dict[Path, PageContent] = {}

    def get(self, path: Path) -> PageContent:
        if path not in self._seen:
            self._seen[path] = page_content(path.read_bytes())
        return self._seen[path]


def real_site_pair_examples(
    cache_dir: str | Path | None = None,
    names: Collection[str] | None = None,
    max_pairs_per_site: int = MAX_PAIRS_PER_SITE,
    seed: int = 0,
) -> list[PairExample]:
    """Labelled pairs of the fetched real sites named in ``names`` (None: every multilingual
    site). FileNotFoundError when the sites were not fetched."""
    from bilingual_spider.sandbox.entry_pages import site_dirs
    from bilingual_spider.sandbox.real_site import (
        group_by_page,
        load_sites,
        page_files,
        served_html,
    )
    from bilingual_spider.sandbox.realsites import (
        gold_pairs_path,
        gold_unjudged_path,
        resolve_cache_dir,
        sites_json_path,
    )

    cache = resolve_cache_dir(cache_dir)
    summaries = {s["name"]: s for s in json.loads(sites_json_path(cache).read_text())}
    gold = {tuple(line.split("\t")[:2]) for line in _lines(gold_pairs_path(cache))}
    unjudged = {url for line in _lines(gold_unjudged_path(cache)) for url in line.split("\t")}
    untranslated = _UntranslatedJudge()
    examples: list[PairExample] = []
    pages = _Pages()
    for site in load_sites():
        summary = summaries.get(site.name)
        if summary is None or site.kind != "multilingual":
            continue
        if names is not None and site.name not in names:
            continue
        overlay = cache / "overlays"
        files = [  # an entry page written over a page of the site is no translation of it
            f
            for f in page_files(site, served_html(site_dirs(cache, site)))
            if not f.path.is_relative_to(overlay)
        ]
        by_page = group_by_page(files)
        order = sorted(by_page)
        following = {page: order[i + 1] for i, page in enumerate(order[:-1])}
        found: dict[str, list[tuple[Any, Any, Any]]] = {
            TRANSLATION: [], UNTRANSLATED: [], MISALIGNED: []
        }  # fmt: skip
        for page, by_lang in by_page.items():
            source = by_lang.get(site.source_lang)
            if source is None:
                continue
            source_url = site.url(source.relative)
            for lang, target in by_lang.items():
                target_url = site.url(target.relative)
                if lang == site.source_lang or target_url in unjudged:
                    continue
                if (source_url, target_url) in gold:
                    found[TRANSLATION].append((source, target, page))
                    other = by_page.get(following.get(page, ""), {}).get(lang)
                    if other is not None and _same_directory(page, following[page]):
                        found[MISALIGNED].append((source, other, page))
                elif untranslated(source, target):
                    found[UNTRANSLATED].append((source, target, page))
        rng = random.Random(f"{seed}:{site.name}")
        for kind, pairs in found.items():
            rng.shuffle(pairs)
            for source, target, _ in pairs[:max_pairs_per_site]:
                signals = content_signals(pages.get(source.path), pages.get(target.path))
                examples.append(
                    PairExample(
                        site.name,
                        kind,
                        site.url(source.relative),
                        site.url(target.relative),
                        signals,
                    )  # fmt: skip
                )
    return examples


class _UntranslatedJudge:
    """Is a pair the gold dropped an untranslated one (a symlink to the source, or a text
    half or more copied from the source)? A file the gold dropped for being in another language
    is left out: telling languages is the language check's work, not the verifier's."""

    def __init__(self) -> None:
        from bilingual_spider.language.identification import default_identifier
        from bilingual_spider.sandbox.real_site_gold import PageTextCache, lid_codes

        self.identify = lid_codes(default_identifier())
        self.texts = PageTextCache()

    def __call__(self, source: Any, target: Any) -> bool:
        from bilingual_spider.sandbox.real_site import is_untranslated
        from bilingual_spider.sandbox.real_site_gold import judge_translation

        if is_untranslated(target, source):
            return True
        reason = judge_translation(
            target.lang,
            self.texts.segments(target),
            set(self.texts.segments(source)),
            self.identify,
            source.lang,
        )
        return reason == "copied"


def _same_directory(a: str, b: str) -> bool:
    return a.rpartition("/")[0] == b.rpartition("/")[0]


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line]


def scores(examples: Sequence[PairExample], kept: Sequence[bool]) -> dict[str, Any]:
    """Precision and recall of the kept pairs, with the pairs counted by kind and verdict."""
    counts = Counter((e.kind, bool(k)) for e, k in zip(examples, kept, strict=True))
    tp, fn = counts[(TRANSLATION, True)], counts[(TRANSLATION, False)]
    fp = sum(n for (kind, k), n in counts.items() if k and kind != TRANSLATION)
    return {
        "pairs": len(examples),
        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "recall": round(tp / (tp + fn), 4) if tp + fn else None,
        "kept": {kind: counts[(kind, True)] for kind in (TRANSLATION, UNTRANSLATED, MISALIGNED)},
        "dropped": {
            kind: counts[(kind, False)] for kind in (TRANSLATION, UNTRANSLATED, MISALIGNED)
        },
    }


def reaches_verifier(example: PairExample) -> bool:
    """Would the pair reach the verifier? The language check before it drops a "translation"
    :data:`~.pair_language.MAX_COPIED_SHARE` or more of which is the source text."""
    return example.signals.copied_share < MAX_COPIED_SHARE


def leave_sites_out(
    examples: Sequence[PairExample], holdout: Collection[str], **params: Any
) -> dict[str, Any]:
    """Each site not held out scored by a model fitted on the others (not held out either), and
    the held-out sites by a model fitted on every site not held out. A pair is kept when it
    passes the copy check and the verifier, as in a crawl; models are fitted on the pairs that
    pass the copy check (those the verifier sees). ``copy_check_only``: the pairs kept without a
    verifier."""
    sites = sorted({e.site for e in examples} - set(holdout))
    by_site: dict[str, Any] = {}
    pooled: list[PairExample] = []
    pooled_kept: list[bool] = []
    for site in sites:
        train = [e for e in examples if e.site != site and e.site not in holdout]
        test = [e for e in examples if e.site == site]
        kept = _kept(_fitted(train, **params), test)
        by_site[site] = scores(test, kept)
        pooled += test
        pooled_kept += kept
    result: dict[str, Any] = {
        "sites": by_site,
        "pooled": scores(pooled, pooled_kept),
        "copy_check_only": scores(pooled, [reaches_verifier(e) for e in pooled]),
    }
    held = [e for e in examples if e.site in holdout]
    if held:
        model = _fitted([e for e in examples if e.site not in holdout], **params)
        result["holdout"] = scores(held, _kept(model, held))
        result["holdout_copy_check_only"] = scores(held, [reaches_verifier(e) for e in held])
    return result


def _kept(model: PairVerifier, examples: Sequence[PairExample]) -> list[bool]:
    verdicts = model.predict([e.signals for e in examples]).astype(bool).tolist()
    return [v and reaches_verifier(e) for v, e in zip(verdicts, examples, strict=True)]


def fitted_verifier(examples: Sequence[PairExample], **params: Any) -> PairVerifier:
    """A verifier fitted on the pairs that reach it (:func:`reaches_verifier`)."""
    return _fitted(examples, **params)


def _fitted(examples: Sequence[PairExample], **params: Any) -> PairVerifier:
    seen = [e for e in examples if reaches_verifier(e)]
    return PairVerifier(**params).fit([e.signals for e in seen], [e.label for e in seen])
