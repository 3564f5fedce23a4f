"""Calibrate when language ID says "undetermined": the minimum lid.176 probability, by text
length, at which its answers on held-out text are right often enough.

Data: the *calibration* half of the gettext catalogs (see langid_corpus.py; the benchmark reports
on the other half): sentences, their first two words, their first word, in 20 languages. For each
length bucket the smallest threshold whose accuracy among determined answers reaches the
bucket's target is kept. Writes models/lid.176.calibration.json.

    python benchmarks/langid_calibrate.py
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from langid_corpus import (  # noqa: E402
    CLOSE_RELATIVES,
    LANGUAGES,
    catalog_sentences,
    short_strings,
)

from bilingual_spider.language.close_languages import (  # noqa: E402
    CLOSE_LANGUAGE_GROUPS,
    MODEL_PATH,
    CloseLanguageClassifier,
    default_close_language_classifier,
)
from bilingual_spider.language.identification import (  # noqa: E402
    CALIBRATION_PATH,
    Calibration,
    decide,
    default_identifier,
)

# (max characters, accuracy wanted among determined answers, macro-averaged over languages): the
# goals of issue 4 (two-word strings >= 0.92, sentences >= 0.985) plus half a point, as held-out
# catalogs came out that much harder; higher targets for short strings push two-word strings past
# the 35 % undetermined the issue allows.
BUCKETS = ((12, 0.925), (24, 0.93), (40, 0.975), (80, 0.99), (10**9, 0.995))


def build_close_language_model() -> None:
    """Train the close-language model on every calibration-half sentence of its languages."""
    members = {lang for group in CLOSE_LANGUAGE_GROUPS for lang in group}
    locales = {
        lang: loc for lang, loc in {**LANGUAGES, **CLOSE_RELATIVES}.items() if lang in members
    }
    sentences = catalog_sentences("calibration", 10**6, languages={"en": "en", **locales})
    texts = [text for lang in members for text in sentences[lang]]
    langs = [lang for lang in members for _ in sentences[lang]]
    CloseLanguageClassifier().fit(texts, langs).save(MODEL_PATH)
    default_close_language_classifier.cache_clear()
    sizes = ", ".join(f"{lang} {len(sentences[lang])}" for lang in sorted(members))
    size = MODEL_PATH.stat().st_size
    print(f"close-language model: {len(texts)} sentences ({sizes}), {size:,} bytes")


def main() -> int:
    build_close_language_model()
    sentences = catalog_sentences("calibration", 1500)
    examples: list[tuple[str, str]] = []
    for data in (sentences, short_strings(sentences, 2), short_strings(sentences, 1)):
        examples += [(text, lang) for lang, texts in data.items() for text in texts]
    identifier = default_identifier()
    guesses = identifier.identify_many([text for text, _ in examples])
    buckets = []
    low = 0
    for max_chars, target in BUCKETS:
        rows = [
            (g, text, lang)
            for g, (text, lang) in zip(guesses, examples, strict=True)
            if low < len(" ".join(text.split())) <= max_chars
        ]
        threshold, accuracy, determined = choose_threshold(rows, target)
        buckets.append((max_chars, threshold))
        print(
            f"<= {max_chars:>10} chars: {len(rows):>6} texts, threshold {threshold:.2f}, "
            f"accuracy {accuracy:.3f} on {determined:.1%} determined (target {target})"
        )
        low = max_chars
    CALIBRATION_PATH.write_text(
        json.dumps(
            {
                "model": "lid.176.ftz",
                "made_by": "benchmarks/langid_calibrate.py",
                "date": date.today().isoformat(),
                "data": "calibration half of the gettext catalogs, 20 languages: sentences, "
                "first two words, first word",
                "buckets": buckets,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {CALIBRATION_PATH}")
    return 0


def choose_threshold(rows: list, target: float) -> tuple[float, float, float]:
    """The smallest threshold (0.00, 0.01, ...) whose determined answers reach ``target``,
    accuracy macro-averaged over languages as the benchmark reports it."""
    best = (0.99, 0.0, 0.0)
    for step in range(100):
        threshold = step / 100
        calibration = Calibration(((10**9, threshold),))
        right: dict[str, list[int]] = {}
        determined = 0
        for g, text, lang in rows:
            decision = decide(g, text, calibration)
            if not decision.undetermined:
                right.setdefault(lang, []).append(decision.lang == lang)
                determined += 1
        if not determined:
            break
        accuracy = sum(sum(r) / len(r) for r in right.values()) / len(right)
        if accuracy >= target:
            return threshold, accuracy, determined / len(rows)
        best = (threshold, accuracy, determined / len(rows))
    return best


if __name__ == "__main__":
    sys.exit(main())
