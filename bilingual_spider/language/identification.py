"""Language identification with fastText's lid.176 model, loaded offline.

The model file (``models/lid.176.ftz``, see ``models/lid.176.md``) ships with the project; nothing
is ever downloaded. fastText says only ``zh`` for Chinese: Simplified and Traditional are told apart
by script (characters that exist in one form only).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bilingual_spider.language.codes import normalize_language_code

DEFAULT_MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "lid.176.ftz"
MODEL_ENV_VAR = "BILINGUAL_LID_MODEL"

_WHITESPACE = re.compile(r"\s+")
# Frequent characters whose Simplified and Traditional forms differ (same order in both sets).
_SIMPLIFIED_ONLY = set("这个们来时为说国过对发经后会学动么还进样长开现见关问间实与从东车门马书应题")
_TRADITIONAL_ONLY = set(
    "這個們來時為說國過對發經後會學動麼還進樣長開現見關問間實與從東車門馬書應題"
)


@dataclass(frozen=True)
class LanguageGuess:
    """A language (project code) with the model's probability for it."""

    lang: str
    score: float


def chinese_script(text: str) -> str:
    """``zh-Hans`` or ``zh-Hant`` by counting characters that exist in one script only."""
    simplified = sum(1 for ch in text if ch in _SIMPLIFIED_ONLY)
    traditional = sum(1 for ch in text if ch in _TRADITIONAL_ONLY)
    return "zh-Hant" if traditional > simplified else "zh-Hans"


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

    def identify(self, text: str, k: int = 1) -> list[LanguageGuess]:
        """The ``k`` most likely languages of ``text`` (empty list for text with no letters)."""
        return self.identify_many([text], k=k)[0]

    def identify_many(self, texts: list[str], k: int = 1) -> list[list[LanguageGuess]]:
        """Batch version of :meth:`identify`: one call into fastText for all texts."""
        flat = [_WHITESPACE.sub(" ", t).strip() for t in texts]
        todo = [i for i, t in enumerate(flat) if any(ch.isalpha() for ch in t)]
        results: list[list[LanguageGuess]] = [[] for _ in texts]
        if not todo:
            return results
        labels, probs = self._model.predict([flat[i] for i in todo], k=k)
        for i, lab, pr in zip(todo, labels, probs, strict=True):
            results[i] = [
                LanguageGuess(self._project_code(label, flat[i]), min(1.0, float(p)))
                for label, p in zip(lab, pr, strict=True)
            ]
        return results

    @staticmethod
    def _project_code(label: str, text: str) -> str:
        raw = label.removeprefix("__label__")
        if raw == "zh":
            return chinese_script(text)
        return normalize_language_code(raw) or raw


@lru_cache(maxsize=1)
def default_identifier() -> LanguageIdentifier:
    """One shared identifier per process (the model takes ~0.1 s and 1 MB to load)."""
    return LanguageIdentifier()
