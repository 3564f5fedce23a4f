"""Are two pages translations of each other? Content verification of a candidate pair.

A URL pair can join two pages that are not translations: a manual whose chapters are numbered
differently in two languages (``cs/ch02s03.html`` is not ``en/ch02s03.html``), a page left
untranslated in a language's folder, a stale translation of another version. The link-similarity
filter (eq. 7-9, :mod:`.similarity`) and the language check (:mod:`.pair_language`) let such
pairs through; the cheap content signals real systems use do not:

- **STRAND's structural alignment** (Resnik & Smith 2003, "The Web as a Parallel Corpus",
  section 2.2): each page is linearised into its markup (``<p``, ``</p``) and its text chunks
  (their lengths), the two sequences are aligned by a minimal diff, and the alignment gives
  ``difference`` (dp: the share of tokens left unaligned), ``aligned_chunks`` (n: text chunks
  aligned with a chunk) and ``length_correlation`` (r: Pearson's correlation of the aligned
  chunks' lengths). Translations share a template and their paragraphs' lengths follow each
  other; two chapters of one manual share the template only.
- **Length ratio** of the two main texts, against the ratio translations of that script pair
  have (Chinese says in 100 characters what English says in about 300): ``length_deviation``,
  the absolute log of the observed over the expected ratio.
- **Shared untranslatable tokens**: numbers, dates, URLs, code identifiers, options, proper
  names written in Latin capitals survive translation: ``shared_tokens`` (Dice of the two sets).
- **Copied share**: how much of one text is the other verbatim (:func:`.pair_language.
  copied_share`); an untranslated page scores near 1.
- **Shared references**: the names a page's own content gives its parts and what it points to
  (``id`` and ``name`` attributes, link fragments, the file names of links and images, language
  codes left out) survive translation, which rewrites words, not anchors: ``shared_references``
  (Dice of the two sets). Two chapters of one manual share their template, not their anchors
  (on the real sites, leave-sites-out, median Dice 0.05-0.43 for such pairs against 0.5-1.0 for
  translations).

:class:`PairVerifier` (scikit-learn's estimator API) turns the signals into the probability that
the pair is a translation: a logistic regression fitted on real sites' gold pairs against their
misaligned and untranslated pairs (``bilingual-spider train pair-verifier``; the shipped
model is ``models/pair_verifier.json``). Nothing here fetches or reads files.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from lxml import etree

from bilingual_spider.html_page import ParsedPage, as_parsed
from bilingual_spider.language.page_language import CONTENT_TAGS, SKIPPED_TAGS
from bilingual_spider.patterns.pair_language import copied_share
from bilingual_spider.patterns.sequence_matcher import ArraySequenceMatcher

MAX_SHAPE_TOKENS = 3000
"""Tokens kept per page shape: bounded alignment time (the diff is quadratic at worst)."""
CHUNK = "#"
"""The symbol of a text chunk in an aligned sequence (chunks align with any chunk)."""
TEMPLATE = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|navigation|toc|tocframe|menu|sidebar|footer|header|breadcrumbs?"
    r"|related|copyright)(?:$|[\s_-])",
    re.IGNORECASE,
)
"""An ``id`` or ``class`` that marks a site's template (menus, tables of contents, footers):
left out of the shape and the text, which are the page's own content. Two chapters of one
manual share their template, and LilyPond's 500-entry table of contents would otherwise
outweigh a page's own three paragraphs."""

PageShape = tuple[str | int, ...]
"""A linearised page: tag tokens (``<p``, ``</p``) and text chunk lengths (ints)."""


@dataclass(frozen=True)
class PageContent:
    """What verification keeps of a page: its shape, the text of its own content and the
    references in it (:func:`content_references`)."""

    shape: PageShape
    text: str
    references: frozenset[str] = frozenset()


MAX_REFERENCES = 1000
"""References kept per page (a bounded set: a page of 100,000 anchors costs no more)."""
_LANGUAGE_PART = re.compile(r"^[a-z]{2}(?:[-_][a-z]{2,4})?$", re.IGNORECASE)
_FILE_SUFFIXES = frozenset(
    {"html", "htm", "php", "asp", "aspx", "png", "gif", "jpg", "jpeg", "svg"}
)


def element_references(element: etree._Element) -> list[str]:
    """What an element of a page's own content names or points to: ``id:`` its ``id`` or
    ``name``, ``#`` the fragment of its ``href``/``src``, and ``href:``/``src:`` the target's
    file name with its dot-separated language codes left out (``index.fr.html`` ->
    ``index.html``, ``flag-de.png`` kept whole: only whole parts between dots are codes)."""
    found = []
    for attribute in ("id", "name"):
        value = element.get(attribute)
        if value and len(value) <= 100:
            found.append(f"id:{value}")
    for attribute in ("href", "src"):
        value = (element.get(attribute) or "").strip()
        if not value or value.startswith(("mailto:", "javascript:", "data:")):
            continue
        path, _, fragment = value.partition("#")
        if fragment:
            found.append(f"#{fragment[:100]}")
        name = path.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        parts = [
            part
            for part in name.split(".")
            if part.lower() in _FILE_SUFFIXES or not _LANGUAGE_PART.match(part)
        ]
        if parts:
            found.append(f"{attribute}:{'.'.join(parts)[:100]}")
    return found


def page_content(page: str | bytes | ParsedPage) -> PageContent:
    """STRAND's linearisation of a page's own content (Resnik & Smith 2003): start and end tags
    and the length of each text chunk (whitespace collapsed) between them, in document order, at
    most :data:`MAX_SHAPE_TOKENS`, with the text of those chunks and the references of those
    elements (:func:`element_references`, at most about :data:`MAX_REFERENCES`). Scripts, styles,
    the head and
    the site's template (``<nav>``, ``<header>``, ``<footer>``, an ``id`` or ``class`` of
    :data:`TEMPLATE`) are left out.

    ``page``: the tree every other reader of the page reads (in a crawl, the response's one
    parse, decoded with the charset middleware's choice), else HTML parsed here by
    :func:`~bilingual_spider.html_page.parse_html`. The tree is not changed."""
    root = as_parsed(page).root
    if root is None:
        return PageContent((), "")
    tokens: list[str | int] = []
    texts: list[str] = []
    references: set[str] = set()
    skipping: list[etree._Element] = []

    def chunk(text: str | None) -> None:
        if text and not skipping:
            flat = " ".join(text.split())
            if flat:
                tokens.append(len(flat))
                texts.append(flat)

    for event, element in etree.iterwalk(root, events=("start", "end")):
        if len(tokens) >= MAX_SHAPE_TOKENS:
            break
        if not isinstance(element.tag, str):
            if event == "end":
                chunk(element.tail)
            continue
        tag = element.tag.lower()
        if event == "start":
            if skipping or tag in SKIPPED_TAGS or _is_template(element):
                skipping.append(element)
            else:
                tokens.append(f"<{tag}")
                chunk(element.text)
                if len(references) < MAX_REFERENCES:
                    references.update(element_references(element))
        else:
            if skipping and skipping[-1] is element:
                skipping.pop()
            elif not skipping:
                tokens.append(f"</{tag}")
            chunk(element.tail)
    return PageContent(tuple(tokens[:MAX_SHAPE_TOKENS]), " ".join(texts), frozenset(references))


def _is_template(element: etree._Element) -> bool:
    """Whether an element is the site's template (:data:`TEMPLATE`); the page's body or main
    content never is, whatever its class (the Apache manual's ``<body class="no-sidebar">``)."""
    if element.tag in CONTENT_TAGS:
        return False
    marks = f"{element.get('id') or ''} {element.get('class') or ''}".strip()
    return bool(marks) and TEMPLATE.search(marks) is not None


def page_shape(page: str | bytes | ParsedPage) -> PageShape:
    """The shape of :func:`page_content`."""
    return page_content(page).shape


@dataclass(frozen=True)
class ShapeAlignment:
    """STRAND's figures for two aligned page shapes."""

    difference: float
    """dp: tokens of either page left unaligned, over all tokens (0: the same shape)."""
    aligned_chunks: int
    """n: text chunks aligned with a text chunk of the other page."""
    length_correlation: float
    """r: Pearson's correlation of the aligned chunks' lengths (0 when fewer than 3)."""
    chunk_ratio_spread: float
    """Standard deviation of log(length b / length a) over aligned chunks of at least
    :data:`MIN_SPREAD_CHARS` characters each (a translation keeps each paragraph's ratio close
    to the text's; :data:`NO_SPREAD` when fewer than 3 such chunks)."""

    content_agreement: float
    """The share of the two pages' long chunks (at least :data:`CONTENT_CHARS` characters: text,
    not a template's menu items) that are aligned with a chunk whose length agrees, within a
    factor of e^:data:`AGREEMENT_LOG`, with the pair's median ratio: 1 when every paragraph has
    its counterpart, low for two pages that share only a template."""


MIN_SPREAD_CHARS = 20
NO_SPREAD = 2.0
CONTENT_CHARS = 40
AGREEMENT_LOG = 0.4


def align_shapes(a: PageShape, b: PageShape) -> ShapeAlignment:
    """Align two shapes by a minimal diff in which a tag matches the same tag and a text chunk
    matches any text chunk; the lengths of aligned chunks give the correlation."""
    total = len(a) + len(b)
    if not total:
        return ShapeAlignment(1.0, 0, 0.0, NO_SPREAD, 0.0)
    symbols_a = [CHUNK if isinstance(t, int) else t for t in a]
    symbols_b = [CHUNK if isinstance(t, int) else t for t in b]
    matcher = ArraySequenceMatcher(symbols_a, symbols_b)  # difflib's blocks, sooner
    matched = 0
    lengths: list[tuple[int, int]] = []
    for i, j, size in matcher.get_matching_blocks():
        matched += size
        for k in range(size):
            x, y = a[i + k], b[j + k]
            if isinstance(x, int) and isinstance(y, int):
                lengths.append((x, y))
    return ShapeAlignment(
        1 - 2 * matched / total,
        len(lengths),
        _correlation(lengths),
        _ratio_spread(lengths),
        _content_agreement(lengths, a, b),
    )


def _content_agreement(pairs: Sequence[tuple[int, int]], a: PageShape, b: PageShape) -> float:
    content = sum(t for t in (*a, *b) if isinstance(t, int) and t >= CONTENT_CHARS)
    long_pairs = [(x, y) for x, y in pairs if max(x, y) >= CONTENT_CHARS]
    if not content or not long_pairs:
        return 0.0
    median = float(np.median([math.log(y / x) for x, y in long_pairs]))
    agreeing = sum(
        (x if x >= CONTENT_CHARS else 0) + (y if y >= CONTENT_CHARS else 0)
        for x, y in long_pairs
        if abs(math.log(y / x) - median) <= AGREEMENT_LOG
    )
    return agreeing / content


def _ratio_spread(pairs: Sequence[tuple[int, int]]) -> float:
    logs = [math.log(y / x) for x, y in pairs if min(x, y) >= MIN_SPREAD_CHARS]
    return float(np.std(logs)) if len(logs) >= 3 else NO_SPREAD


def _correlation(pairs: Sequence[tuple[int, int]]) -> float:
    if len(pairs) < 3:
        return 0.0
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    if x.std() == 0 or y.std() == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_TOKEN = re.compile(
    r"https?://\S+"  # URLs
    r"|[\w.+-]+@[\w-]+\.[\w.]+"  # addresses
    r"|--?[A-Za-z][\w-]*"  # options
    r"|\b\d[\d.,:/-]*\d\b|\b\d\b"  # numbers, dates, versions
    r"|\b[A-Za-z_]\w*(?:[._/][A-Za-z_]\w*)+\b"  # dotted names, paths
    r"|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*\b"  # snake_case, camelCase
    r"|\b[A-Z][A-Z0-9]{1,}\b"  # acronyms and constants
)


_ROMAN = re.compile(r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")
_ROMAN_VALUES = {"M": 1000, "D": 500, "C": 100, "L": 50, "X": 10, "V": 5, "I": 1}


def number_value(token: str) -> str:
    """A number as ASCII digits, however the page writes it: a Roman numeral (a Brazilian
    ``Artigo VII`` translates ``Article 7``) by its value, other scripts' digits (``٣``,
    ``३``, ``３``) by theirs; any other token as it is. A token read as a numeral that is an
    acronym (``CD``) reads so on both pages of a pair, so the two still share it."""
    if _ROMAN.fullmatch(token) and len(token) > 1:
        values = [_ROMAN_VALUES[c] for c in token]
        following = [*values[1:], 0]
        return str(sum(-v if v < after else v for v, after in zip(values, following, strict=True)))
    if token.isascii():
        return token
    return "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in token)


def untranslatable_tokens(text: str) -> frozenset[str]:
    """Tokens a translation keeps as they are: URLs, e-mail addresses, options, numbers and
    dates (:func:`number_value`), dotted names and paths, code identifiers, acronyms."""
    return frozenset(number_value(token) for token in _TOKEN.findall(text))


def script_class(text: str) -> str:
    """``cjk`` when most of the text's letters are Chinese, Japanese or Korean, else
    ``alphabetic``: what sets how many characters a text needs."""
    letters = sum(1 for c in text[:5000] if c.isalpha())
    cjk = len(_CJK.findall(text[:5000]))
    return "cjk" if letters and cjk / letters > 0.3 else "alphabetic"


@dataclass(frozen=True)
class PairSignals:
    """The content signals of a candidate pair (kept on the pair item as ``verification``)."""

    difference: float
    aligned_chunks: int
    length_correlation: float
    chunk_ratio_spread: float
    content_agreement: float
    length_ratio: float
    """Characters of the target's main text over the source's."""
    length_deviation: float
    """|log(length_ratio / the expected ratio of the two texts' scripts)|."""
    shared_tokens: float
    """Dice coefficient of the two texts' untranslatable tokens (0.5, no evidence, when either
    has fewer than :data:`MIN_TOKENS`: a short page's one number says little)."""
    copied_share: float
    source_script: str
    target_script: str
    shared_references: float = 0.5
    """Dice coefficient of the two pages' references (:func:`element_references`; 0.5, no
    evidence, when either has fewer than :data:`MIN_TOKENS`)."""

    def as_dict(self) -> dict[str, Any]:
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}


MIN_TOKENS = 3
EXPECTED_LOG_RATIO = {
    ("alphabetic", "alphabetic"): 0.0,
    ("alphabetic", "cjk"): math.log(0.35),
    ("cjk", "alphabetic"): -math.log(0.35),
    ("cjk", "cjk"): 0.0,
}
"""Default expected log(target chars / source chars) by script pair, before a model is fitted
(a fitted :class:`PairVerifier` measures its own on its gold pairs)."""


def pair_signals(
    source_shape: PageShape,
    target_shape: PageShape,
    source_text: str,
    target_text: str,
    expected_log_ratio: dict[tuple[str, str], float] | None = None,
    source_references: frozenset[str] = frozenset(),
    target_references: frozenset[str] = frozenset(),
) -> PairSignals:
    """Every signal of a pair from the two pages' shapes (:func:`page_shape`), main texts and
    references."""
    alignment = align_shapes(source_shape, target_shape)
    scripts = (script_class(source_text), script_class(target_text))
    source_chars, target_chars = len(source_text) or 1, len(target_text) or 1
    ratio = target_chars / source_chars
    expected = (expected_log_ratio or EXPECTED_LOG_RATIO).get(scripts, 0.0)
    a, b = untranslatable_tokens(source_text), untranslatable_tokens(target_text)
    shared = _dice(a, b)
    return PairSignals(
        difference=alignment.difference,
        aligned_chunks=alignment.aligned_chunks,
        length_correlation=alignment.length_correlation,
        chunk_ratio_spread=alignment.chunk_ratio_spread,
        content_agreement=alignment.content_agreement,
        length_ratio=ratio,
        length_deviation=abs(math.log(ratio) - expected),
        shared_tokens=shared,
        copied_share=copied_share(source_text, target_text),
        source_script=scripts[0],
        target_script=scripts[1],
        shared_references=_dice(source_references, target_references),
    )


def content_signals(
    source: PageContent,
    target: PageContent,
    expected_log_ratio: dict[tuple[str, str], float] | None = None,
) -> PairSignals:
    """:func:`pair_signals` of two pages' :class:`PageContent`."""
    return pair_signals(source.shape, target.shape, source.text, target.text,
                        expected_log_ratio, source.references, target.references)  # fmt: skip


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    """Dice coefficient of two sets; 0.5 (no evidence) when either has fewer than
    :data:`MIN_TOKENS` members."""
    if min(len(a), len(b)) < MIN_TOKENS:
        return 0.5
    return 2 * len(a & b) / (len(a) + len(b))


FEATURES = (
    "difference",
    "length_correlation",
    "chunk_ratio_spread",
    "content_agreement",
    "log_aligned_chunks",
    "length_deviation",
    "shared_tokens",
    "copied_share",
    "shared_references",
)


def feature_row(signals: PairSignals) -> list[float]:
    """The classifier's inputs, in :data:`FEATURES` order."""
    return [
        signals.difference,
        signals.length_correlation,
        min(signals.chunk_ratio_spread, NO_SPREAD),
        signals.content_agreement,
        math.log1p(signals.aligned_chunks),
        min(signals.length_deviation, 5.0),
        signals.shared_tokens,
        signals.copied_share,
        signals.shared_references,
    ]


class PairVerifier:
    """P(two pages are translations | their content signals): a logistic regression over
    :data:`FEATURES` (scikit-learn's estimator API: ``fit``, ``predict_proba``, ``predict``);
    ``threshold`` is the probability a pair needs to be kept."""

    def __init__(self, C: float = 1.0, threshold: float = 0.5) -> None:
        self.C = C
        self.threshold = threshold

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {"C": self.C, "threshold": self.threshold}

    def set_params(self, **params: Any) -> PairVerifier:
        for key, value in params.items():
            setattr(self, key, value)
        return self

    def fit(self, signals: Sequence[PairSignals], labels: Sequence[int]) -> PairVerifier:
        """Fit on signals and labels (1: a translation); the expected length ratio of each
        script pair is the median of the positives'."""
        from sklearn.linear_model import LogisticRegression

        self.expected_log_ratio_ = dict(EXPECTED_LOG_RATIO)
        by_scripts: dict[tuple[str, str], list[float]] = {}
        for s, y in zip(signals, labels, strict=True):
            if y:
                by_scripts.setdefault((s.source_script, s.target_script), []).append(
                    math.log(s.length_ratio)
                )
        for scripts, logs in by_scripts.items():
            if len(logs) >= 20:
                self.expected_log_ratio_[scripts] = float(np.median(logs))
        rows = np.array([feature_row(self.rescaled(s)) for s in signals])
        model = LogisticRegression(C=self.C, class_weight="balanced", max_iter=1000)
        model.fit(rows, np.asarray(labels))
        self.coef_ = model.coef_[0].astype(float)
        self.intercept_ = float(model.intercept_[0])
        self.classes_ = np.array([0, 1])
        return self

    def rescaled(self, signals: PairSignals) -> PairSignals:
        """``signals`` with the length deviation measured against this model's expected ratio."""
        expected = self.expected_log_ratio_.get((signals.source_script, signals.target_script))
        if expected is None:
            return signals
        deviation = abs(math.log(signals.length_ratio) - expected)
        return PairSignals(**{**asdict(signals), "length_deviation": deviation})

    def predict_proba(self, signals: Sequence[PairSignals]) -> np.ndarray:
        rows = np.array([feature_row(self.rescaled(s)) for s in signals], dtype=float)
        if not len(rows):
            return np.zeros((0, 2))
        p = 1 / (1 + np.exp(-(rows @ self.coef_ + self.intercept_)))
        return np.column_stack([1 - p, p])

    def predict(self, signals: Sequence[PairSignals]) -> np.ndarray:
        return (self.predict_proba(signals)[:, 1] >= self.threshold).astype(int)

    def probability(self, signals: PairSignals) -> float:
        return float(self.predict_proba([signals])[0, 1])

    def save(self, path: str | Path, meta: dict[str, Any] | None = None) -> None:
        data = {
            "features": list(FEATURES),
            "coef": [round(float(c), 6) for c in self.coef_],
            "intercept": round(self.intercept_, 6),
            "threshold": self.threshold,
            "C": self.C,
            "expected_log_ratio": {
                "/".join(k): round(v, 4) for k, v in self.expected_log_ratio_.items()
            },
            "meta": meta or {},
        }
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> PairVerifier:
        data = json.loads(Path(path).read_text())
        if data.get("features") != list(FEATURES):
            raise ValueError(f"{path}: features {data.get('features')} are not {list(FEATURES)}")
        model = cls(C=data["C"], threshold=data["threshold"])
        model.coef_ = np.array(data["coef"], dtype=float)
        model.intercept_ = float(data["intercept"])
        model.expected_log_ratio_ = {
            tuple(k.split("/")): float(v) for k, v in data["expected_log_ratio"].items()
        }
        model.classes_ = np.array([0, 1])
        model.meta_ = data.get("meta", {})
        return model


DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "models" / "pair_verifier.json"


def default_pair_verifier() -> PairVerifier:
    """The shipped model (``models/pair_verifier.json``)."""
    return PairVerifier.load(DEFAULT_MODEL)


def load_verifier(setting: str | None) -> PairVerifier | None:
    """``BILINGUAL_PUPSNIFFER_VERIFIER``: ``default`` (the shipped model), a model file, or
    empty for none."""
    if not setting:
        return None
    return default_pair_verifier() if setting == "default" else PairVerifier.load(setting)
