"""Language ID on real labelled text it was not tuned on, next to the comparators, in one run.

Systems: ours (lid.176 + script rules + calibrated "undetermined"), the bare lid.176 model (the
anchor; it says only ``zh``, counted right for either Chinese script), py3langid and pycld2.
Data (langid_corpus.py): the *evaluation* half of the gettext catalogs in 20 languages
(sentences, texts of <= 40 characters, two-word strings, single words, page-length texts of 15
sentences) and the real sites' translated pages (main text). Per kind of text: accuracy among
determined answers per language, macro-averaged, the undetermined share, and throughput.

    python benchmarks/langid.py [--per-language 1500]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from langid_corpus import (  # noqa: E402
    catalog_sentences,
    page_texts,
    real_pages,
    short_strings,
)

from bilingual_spider.language.codes import normalize_language_code  # noqa: E402
from bilingual_spider.language.identification import default_identifier  # noqa: E402
from bilingual_spider.language.page_language import main_text_blocks, page_language  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
Answer = str | None  # a language code, or None for "undetermined"


def ours() -> Callable[[list[str]], list[Answer]]:
    identifier = default_identifier()
    return lambda texts: [None if d.undetermined else d.lang for d in identifier.decide_many(texts)]


def bare_lid() -> Callable[[list[str]], list[Answer]]:
    model = default_identifier()._model

    def run(texts: list[str]) -> list[Answer]:
        labels, _ = model.predict([" ".join(t.split()) for t in texts], k=1)
        return [label[0].removeprefix("__label__") if label else None for label in labels]

    return run


def py3langid() -> Callable[[list[str]], list[Answer]]:
    import py3langid as langid

    return lambda texts: [langid.classify(t)[0] for t in texts]


def pycld2() -> Callable[[list[str]], list[Answer]]:
    import pycld2 as cld2

    def one(text: str) -> Answer:
        try:
            reliable, _, details = cld2.detect(text)
        except cld2.error:
            return None
        code = details[0][1]
        return None if code == "un" else {"zh": "zh-Hans", "zh-Hant": "zh-Hant"}.get(code, code)

    return lambda texts: [one(t) for t in texts]


def correct(answer: Answer, truth: str, system: str) -> bool:
    if answer is None:
        return False
    code = normalize_language_code(answer) or answer
    if code == "zh" and system in ("lid.176 (bare)", "py3langid"):
        return truth.startswith("zh")  # these cannot tell the scripts apart
    if truth in ("pt-BR", "pt-PT", "en-GB", "en-US"):
        return code.split("-")[0] == truth.split("-")[0]  # no system tells these by text
    return code == truth


def evaluate(
    name: str, run: Callable[[list[str]], list[Answer]], data: dict[str, list[str]]
) -> dict:
    per_language, undetermined, total = {}, 0, 0
    started = time.perf_counter()
    answers = {lang: run(texts) for lang, texts in data.items() if texts}
    seconds = time.perf_counter() - started
    for lang, lang_answers in answers.items():
        determined = [a for a in lang_answers if a is not None]
        right = sum(correct(a, lang, name) for a in determined)
        if determined:  # a language with no determined answer counts in undetermined only
            per_language[lang] = round(right / len(determined), 4)
        undetermined += len(lang_answers) - len(determined)
        total += len(lang_answers)
    return {
        "macro_accuracy_determined": round(sum(per_language.values()) / len(per_language), 4),
        "undetermined_share": round(undetermined / total, 4),
        "texts": total,
        "texts_per_s": round(total / seconds, 1),
        "per_language": per_language,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-language", type=int, default=1500)
    parser.add_argument("--out", type=Path, default=RESULTS / "langid.json")
    parser.add_argument(
        "--pages-only", action="store_true", help="only page_language() on the real pages"
    )
    args = parser.parse_args(argv)
    sentences = catalog_sentences("evaluation", args.per_language)
    short = {
        lang: [t for t in texts if len(t) <= 40]
        for lang, texts in (
            (lang, sentences[lang] + short_strings(sentences, 2)[lang]) for lang in sentences
        )
    }
    html_pages = real_pages()
    page_main_texts = {
        lang: [" ".join(main_text_blocks(page)[0]) for page in pages]
        for lang, pages in html_pages.items()
    }
    kinds = {
        "real pages (main text)": page_main_texts,
        "page-length texts": page_texts(sentences),
        "sentences": sentences,
        "short texts (<= 40 chars)": short,
        "two-word strings": short_strings(sentences, 2),
        "single words": short_strings(sentences, 1),
    }
    systems = {
        "ours": ours(),
        "lid.176 (bare)": bare_lid(),
        "py3langid": py3langid(),
        "pycld2": pycld2(),
    }
    results: dict = defaultdict(dict)
    for kind, data in kinds.items():
        if args.pages_only or not any(data.values()):
            continue
        print(f"\n{kind}: {sum(map(len, data.values()))} texts, {len(data)} languages")
        print(f"  {'system':<16} {'macro acc':>9} {'undet.':>7} {'texts/s':>10}")
        for name, run in systems.items():
            row = evaluate(name, run, data)
            results[kind][name] = row
            print(
                f"  {name:<16} {row['macro_accuracy_determined']:>9.4f} "
                f"{row['undetermined_share']:>7.1%} {row['texts_per_s']:>10.0f}"
            )
    identifier = default_identifier()
    started = time.perf_counter()
    page_results = [
        (page_language(page, identifier).lang, lang)
        for lang, pages in html_pages.items()
        for page in pages
    ]
    seconds = time.perf_counter() - started
    if page_results:
        accuracy = sum(a == b for a, b in page_results) / len(page_results)
        pages_per_s = round(len(page_results) / seconds, 1)
        results["real pages (page_language on HTML)"] = {
            "accuracy": round(accuracy, 4),
            "pages_per_s": pages_per_s,  # parse + main text + language ID, one process
        }
        print(
            f"\npage_language() on {len(page_results)} real HTML pages: accuracy {accuracy:.4f}, "
            f"{pages_per_s} pages/s"
        )
    out = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().isoformat(timespec="seconds")
    out.write_text(json.dumps({"benchmark": "langid", "date": stamp, **results}, indent=1) + "\n")
    print(f"\nresults in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
