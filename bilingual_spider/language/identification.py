"""Language identification with fastText's lid.176 model, loaded offline.

The model file (``models/lid.176.ftz``, see ``models/lid.176.md``) ships with the project; nothing
is ever downloaded. fastText says only ``zh`` for Chinese: Simplified and Traditional are told apart
by script (characters that exist in one form only).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from bilingual_spider.language.close_languages import (
    CloseLanguageClassifier,
    combine,
    default_close_language_classifier,
)
from bilingual_spider.language.codes import base_language, normalize_language_code, script_subtag

DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "lid.176.ftz"
MODEL_ENV_VAR = "BILINGUAL_LID_MODEL"

KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")


class LanguageGuess(NamedTuple):
    """A language (project code) with the model's probability for it. (A named tuple: made for
    every text identified, and ten times cheaper to build than a frozen dataclass.)"""

    lang: str
    score: float


@lru_cache(maxsize=1)
def _converters() -> tuple[Any, Any]:
    import opencc  # OpenCC's character and phrase tables, the reference for Chinese scripts

    # tw2sp: Traditional (Taiwan) -> Simplified *with phrases*, so Taiwan-only vocabulary written
    # in characters both scripts share (位址 for 地址, 支援 for 支持, 光碟 for 光盘) counts as
    # Traditional evidence too.
    return opencc.OpenCC("tw2sp"), opencc.OpenCC("s2t")


def chinese_script(text: str) -> str:
    """``zh-Hans`` or ``zh-Hant``: count the characters OpenCC changes when converting
    Traditional (Taiwan phrases included) -> Simplified (Traditional evidence) and Simplified ->
    Traditional (Simplified evidence). No distinguishing character: ``zh-Hans``, the more common
    script."""
    to_simplified, to_traditional = _converters()
    traditional = changed_characters(text, to_simplified.convert)
    simplified = changed_characters(text, to_traditional.convert)
    return "zh-Hant" if traditional > simplified else "zh-Hans"


def changed_characters(text: str, convert: Callable[[str], str]) -> int:
    """How many characters of ``text`` a conversion changes.

    A phrase conversion may change a phrase's length (Taiwan's 使用者 is Simplified 用户), so
    the converted text is compared with the original run of Han characters by run: a length
    change shifts nothing beyond its own run, where the changed characters are counted by
    alignment."""
    converted = convert(text)
    if len(converted) == len(text):  # the common case: character for character
        return sum(a != b for a, b in zip(text, converted, strict=True))
    changed = 0
    for run in _HAN_RUN.findall(text):
        new = convert(run)
        if len(new) == len(run):
            changed += sum(a != b for a, b in zip(run, new, strict=True))
        else:
            matcher = SequenceMatcher(None, run, new, autojunk=False)
            changed += len(run) - sum(block.size for block in matcher.get_matching_blocks())
    return changed


def script_correction(lang: str, text: str) -> str:
    """Fix what lid.176 gets wrong by script: Han-only text called Japanese is Chinese (Japanese
    prose has kana), text with kana called Chinese is Japanese, Hangul is Korean."""
    if lang == "ja" and not KANA.search(text) and len(HAN.findall(text)) >= 2:
        return chinese_script(text)
    if lang.startswith("zh") and len(KANA.findall(text)) >= 2:
        return "ja"
    if lang in ("ja", "zh-Hans", "zh-Hant") and len(_HANGUL.findall(text)) > len(HAN.findall(text)):
        return "ko"
    return lang


class LanguageIdentifier:
    """fastText lid.176 wrapped to the project's language codes.

    Parameters
    ----------
    model_path:
        Path of the ``.ftz``/``.bin`` model; default ``$BILINGUAL_LID_MODEL`` or the shipped file.
    """

    def __init__(self, model_path: str | os.PathLike[str] | None = None) -> None:
        path = Path(model_path or os.environ.get(MODEL_ENV_VAR) or DEFAULT_MODEL_PATH)
        if not path.is_file():
            raise FileNotFoundError(
                f"language-ID model not found at {path}; set {MODEL_ENV_VAR} to a lid.176 file"
            )
        import fasttext  # imported here: loading the module is slow and prints nothing useful

        self.model_path = path
        self._model = fasttext.load_model(str(path))
        self._languages: frozenset[str] | None = None

    @property
    def languages(self) -> frozenset[str]:
        """The languages the model has a label for (project codes, without region or script:
        ``zh``, not ``zh-Hans``)."""
        if self._languages is None:
            labels = {base_language(_label_code(label)) for label in self._model.get_labels()}
            covered = {
                lang for label, langs in LABEL_COVERS.items() if label in labels for lang in langs
            }
            self._languages = frozenset(labels | covered)
        return self._languages

    def knows(self, lang: str) -> bool:
        """Whether the model has a label for ``lang`` (its base language: ``pt-BR`` is ``pt``).
        lid.176 has none for Dzongkha or Oromo; its ``no`` is Bokmål (:data:`LABEL_COVERS`).
        A language in another script than its usual one (``uz-Cyrl``, ``sr-Latn``) it does not
        know: its Wikipedia training text is in the usual one (it reads Cyrillic Uzbek as Tajik,
        Latin Serbian as Croatian); Chinese's two scripts it knows."""
        code = normalize_language_code(lang) or lang
        if script_subtag(code) is not None and base_language(code) != "zh":
            return False
        return base_language(code) in self.languages

    def identify(self, text: str, k: int = 1) -> list[LanguageGuess]:
        """The ``k`` most likely languages of ``text`` (empty list for text with no letters)."""
        return self.identify_many([text], k=k)[0]

    def identify_many(self, texts: list[str], k: int = 1) -> list[list[LanguageGuess]]:
        """Batch version of :meth:`identify`: one call into fastText for all texts. A text is
        identified on its first :data:`MAX_TEXT_CHARS` characters (:meth:`decide_many` says when
        it cut one)."""
        return self._identify_flat([_flatten(t) for t in texts], k)

    def decide_many(
        self, texts: list[str], calibration: Calibration | None = None
    ) -> list[LanguageDecision]:
        """Languages of ``texts``, ``und`` where the model is not sure enough (see
        :class:`Calibration`): for short strings such as anchors, titles and alt texts."""
        calibration = calibration or default_calibration()
        flat = [_flatten(t) for t in texts]
        decisions = [
            decide(guesses, text, calibration)
            for guesses, text in zip(self._identify_flat(flat, 1), flat, strict=True)
        ]
        return [
            replace(decision, truncated=True) if len(text) > MAX_TEXT_CHARS else decision
            for decision, text in zip(decisions, texts, strict=True)
        ]

    def _identify_flat(self, flat: list[str], k: int) -> list[list[LanguageGuess]]:
        """Texts whose whitespace is already collapsed to single spaces."""
        todo = [i for i, t in enumerate(flat) if _LETTER.search(t)]
        results: list[list[LanguageGuess]] = [[] for _ in flat]
        if not todo:
            return results
        labels, probs = self._model.predict([flat[i] for i in todo], k=k)
        for i, lab, pr in zip(todo, labels, probs, strict=True):
            results[i] = self._guesses(flat[i], lab, pr)
        close = default_close_language_classifier()
        if close:
            self._separate_close_languages(close, flat, results, k)
        return results

    @staticmethod
    def _guesses(text: str, labels: Any, probs: Any) -> list[LanguageGuess]:
        return [
            LanguageGuess(_project_code(label, text), min(1.0, float(p)))
            for label, p in zip(labels, probs, strict=True)
        ]

    def _separate_close_languages(
        self,
        close: CloseLanguageClassifier,
        flat: list[str],
        results: list[list[LanguageGuess]],
        k: int,
    ) -> None:
        """Where the best guess is in a group of close languages and lid.176 gives a rival of the
        same group some probability, let the group's n-gram model re-weigh its languages (see
        :mod:`bilingual_spider.language.close_languages`)."""
        candidates = [
            i
            for i, guesses in enumerate(results)
            if guesses
            and guesses[0].score < 1 - MIN_RIVAL_SCORE  # else no rival can reach MIN_RIVAL_SCORE
            and close.group_of(guesses[0].lang) is not None
        ]
        if not candidates:
            return
        labels, probs = self._model.predict([flat[i] for i in candidates], k=max(k, 3))
        by_group: dict[int, list[int]] = {}
        for i, lab, pr in zip(candidates, labels, probs, strict=True):
            guesses = self._guesses(flat[i], lab, pr)
            group = close.group_of(guesses[0].lang)
            if group is not None and any(
                close.group_of(g.lang) == group and g.score >= MIN_RIVAL_SCORE for g in guesses[1:]
            ):
                results[i] = guesses
                by_group.setdefault(group, []).append(i)
        for group, rows in by_group.items():
            texts = [flat[i][:NGRAM_MAX_CHARS] for i in rows]
            langs, probabilities = close.predict_proba(texts, group)
            for i, row in zip(rows, probabilities, strict=True):
                in_group = {g.lang: g.score for g in results[i] if g.lang in langs}
                best, score = combine(in_group, dict(zip(langs, row.tolist(), strict=True)))
                others = [g for g in results[i] if g.lang not in langs]
                results[i] = [LanguageGuess(best, score), *others][:k]


LABEL_COVERS = {"no": ("nb",)}
"""Languages a model label stands for under another code: lid.176's ``no`` was trained on
Bokmål (``nb``)."""

NGRAM_MAX_CHARS = 1_000
"""The close-language model reads at most this many characters: plenty to tell close languages
apart, and it keeps long pages fast."""
MIN_RIVAL_SCORE = 0.02
"""The close-language model is asked only when lid.176 gives another language of the group at
least this probability: when lid.176 sees no rival, there is nothing to separate."""


MAX_TEXT_CHARS = 100_000
"""Language ID reads at most this many characters of a text: far more than it needs (page-length
texts are right 99.9 % of the time at ~2,000 characters), and it keeps a 100 MB string to a fraction
of a second and of the memory a full pass would take."""


def _flatten(text: str) -> str:
    """The first :data:`MAX_TEXT_CHARS` characters, whitespace collapsed to single spaces, and
    what fastText cannot take (a lone surrogate: bytes read with ``surrogateescape``, half of a
    broken pair) made U+FFFD."""
    text = " ".join(text[:MAX_TEXT_CHARS].split())
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _project_code(label: str, text: str) -> str:
    """The project code of a fastText label, corrected by script for Chinese/Japanese/Korean."""
    lang = _label_code(label)
    if lang == "zh":
        lang = chinese_script(text)
    if lang in _CJK:
        return script_correction(lang, text)
    return lang


@lru_cache(maxsize=512)
def _label_code(label: str) -> str:
    raw = label.removeprefix("__label__")
    return raw if raw == "zh" else normalize_language_code(raw) or raw


_CJK = frozenset({"ja", "zh-Hans", "zh-Hant"})
_LETTER = re.compile(r"[^\W\d_]")


@lru_cache(maxsize=1)
def default_identifier() -> LanguageIdentifier:
    """One shared identifier per process (the model takes ~0.1 s and 1 MB to load), with the
    close-language model loaded now rather than on the first page in one of its languages."""
    default_close_language_classifier()
    return LanguageIdentifier()


UNDETERMINED = "und"
CALIBRATION_PATH = DEFAULT_MODEL_PATH.with_name("lid.176.calibration.json")


@dataclass(frozen=True)
class LanguageDecision:
    """A language, or ``und`` when the text is too ambiguous to say (a two-word anchor)."""

    lang: str
    score: float
    undetermined: bool
    truncated: bool = False
    """The text was longer than :data:`MAX_TEXT_CHARS`; only its beginning was read."""


@dataclass(frozen=True)
class Calibration:
    """Minimum model probability to name a language, by text length in characters.

    ``buckets`` are ``(max_chars, min_score)`` in increasing ``max_chars``; the last applies to
    longer texts too. Made by ``benchmarks/langid_calibrate.py`` on held-out catalog text.
    """

    buckets: tuple[tuple[int, float], ...]

    def min_score(self, length: int) -> float:
        for max_chars, min_score in self.buckets:
            if length <= max_chars:
                return min_score
        return self.buckets[-1][1]

    @classmethod
    def load(cls, path: str | os.PathLike[str] = CALIBRATION_PATH) -> Calibration:
        import json

        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(tuple((int(m), float(s)) for m, s in data["buckets"]))


def decide(guesses: list[LanguageGuess], text: str, calibration: Calibration) -> LanguageDecision:
    """Name the top guess only when its probability clears the calibrated minimum for a text of
    this length, and a short Han-only string (Chinese or Japanese?) is not named at all."""
    if not guesses:
        return LanguageDecision(UNDETERMINED, 0.0, True)
    top = guesses[0]
    length = len(" ".join(text.split()))
    ambiguous_han = (
        top.lang in _CJK and not KANA.search(text) and len(HAN.findall(text)) < MIN_HAN_FOR_CHINESE
    )
    if top.score < calibration.min_score(length) or ambiguous_han:
        return LanguageDecision(UNDETERMINED, top.score, True)
    return LanguageDecision(top.lang, top.score, False)


MIN_HAN_FOR_CHINESE = 3
"""Fewer Han characters and no kana: Chinese or Japanese cannot be told apart."""


@lru_cache(maxsize=1)
def default_calibration() -> Calibration:
    return Calibration.load()
