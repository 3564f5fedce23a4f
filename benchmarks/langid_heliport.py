"""A wider identifier? HeLI-OTS (the ``heliport`` wheel, ~220 languages) against lid.176 (ours:
lid.176 + the close-language model) on languages lid.176 lacks or confuses (issue 49).

Data (``langid_corpus.catalog_sentences``): the *evaluation* half of the gettext catalogs
installed here, in Dzongkha (no lid.176 label), Bokmål, Nynorsk, Danish, Swedish, Galician,
Spanish, Portuguese and English: sentences and page-length texts of 15 sentences. Per kind:
accuracy per language (an answer is right when it names the language: lid.176's ``no`` is
right for Bokmål, heliport's ISO 639-3 codes are mapped to the project's), and texts a second.
Also the same with the declared language (:func:`~bilingual_spider.language.declared_language.
resolve_language`, the site's code given): what a crawl does with a page whose URL says ``nb``.

    .venv/bin/python benchmarks/langid_heliport.py [--per-language 400]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from langid_corpus import catalog_sentences, page_texts  # noqa: E402

from bilingual_spider.language.codes import normalize_language_code  # noqa: E402
from bilingual_spider.language.declared_language import resolve_language  # noqa: E402
from bilingual_spider.language.identification import default_identifier  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
LANGUAGES = {
    "en": "en", "dz": "dz", "nb": "nb", "nn": "nn", "da": "da", "sv": "sv", "gl": "gl",
    "es": "es", "pt": "pt",
}  # fmt: skip
"""Project code -> gettext locale."""
HELIPORT_CODES = {
    "eng": "en", "bod": "bo", "nob": "nb", "nno": "nn", "dan": "da", "swe": "sv", "glg": "gl",
    "spa": "es", "por": "pt", "gaz": "om",
}  # fmt: skip
"""heliport's ISO 639-3 codes of the languages here -> project codes (the rest as they are)."""
SAME = {("nb", "no")}
"""(truth, answer) counted right: lid.176's ``no`` was trained on Bokmål."""

System = Callable[[list[str], str], list[str]]


def lid176(texts: list[str], declared: str | None = None) -> list[str]:
    identifier = default_identifier()
    found = []
    for text, guesses in zip(texts, identifier.identify_many(texts), strict=True):
        guess = guesses[0].lang if guesses else "und"
        if declared:
            resolved = resolve_language(guess, text, declared, identifier.knows)
            guess = resolved.lang if resolved else guess
        found.append(guess)
    return found


def heliport_system() -> Callable[[list[str]], list[str]]:
    import heliport

    model = heliport.Identifier()

    def run(texts: list[str]) -> list[str]:
        # ignore_confidence: always a language (lid.176 is scored on its top answer too); one
        # text at a time in this thread, as a crawl's page is (par_identify uses every core)
        return [
            HELIPORT_CODES.get(code, code)
            for code in (model.identify(t, ignore_confidence=True) for t in texts)
        ]

    return run


def accuracy(truth: str, answers: list[str]) -> float:
    right = sum((normalize_language_code(a) or a) == truth or (truth, a) in SAME for a in answers)
    return round(right / len(answers), 4) if answers else 0.0


def measure(
    name: str, run: Callable[[list[str], str], list[str]], data: dict[str, list[str]]
) -> dict[str, object]:
    per_language, texts, seconds = {}, 0, 0.0
    run(next(iter(data.values()))[:5], "en")  # models loaded before the clock starts
    for lang, items in data.items():
        started = time.perf_counter()
        answers = run(items, lang)
        seconds += time.perf_counter() - started
        texts += len(items)
        per_language[lang] = accuracy(lang, answers)
    macro = round(sum(per_language.values()) / len(per_language), 4)
    return {
        "accuracy": per_language,
        "macro": macro,
        "texts_per_second": round(texts / seconds, 1),
        "texts": texts,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-language", type=int, default=400)
    parser.add_argument("--out", type=Path, default=RESULTS / "langid_heliport.json")
    args = parser.parse_args(argv)
    sentences = catalog_sentences("evaluation", args.per_language, languages=LANGUAGES)
    sentences = {lang: texts for lang, texts in sentences.items() if len(texts) >= 20}
    kinds = {"sentences": sentences, "pages": page_texts(sentences)}
    helio = heliport_system()
    systems: dict[str, System] = {
        "lid176": lambda texts, lang: lid176(texts),
        "lid176+declared": lambda texts, lang: lid176(texts, lang),
        "heliport": lambda texts, lang: helio(texts),
    }
    result: dict[str, object] = {
        "date": datetime.now().isoformat(timespec="seconds"),
        "per_language": args.per_language,
        "texts": {kind: {k: len(v) for k, v in data.items()} for kind, data in kinds.items()},
        "systems": {},
    }
    table = result["systems"]
    assert isinstance(table, dict)
    for kind, data in kinds.items():
        print(f"\n{kind}: accuracy by language, macro, texts a second")
        print(f"  {'system':16} " + " ".join(f"{lang:>6}" for lang in data) + "  macro  per s")
        for name, run in systems.items():
            scored = measure(name, run, data)
            table.setdefault(kind, {})[name] = scored
            accuracies = scored["accuracy"]
            assert isinstance(accuracies, dict)
            print(
                f"  {name:16} " + " ".join(f"{accuracies[lang]:6.3f}" for lang in data)
                + f"  {scored['macro']:.3f} {scored['texts_per_second']:7.1f}"
            )  # fmt: skip
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"\nresults in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
