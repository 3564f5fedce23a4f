"""Does ``TextResponse.text`` give back the page's text? Scrapy alone against Scrapy with our
CharsetMiddleware, and the charset detectors against each other, on pages in the legacy charsets
of our languages.

Pages are real: the Apache httpd manual's Korean pages (EUC-KR, from the real-sites cache) with
their ``<meta>`` charset removed, and pages written from the translations of the gettext catalogs
under /usr/share/locale, 1 to 30 sentences long, encoded into each charset and declared in the
header only, in ``<meta>`` only, nowhere, or wrongly. A page counts as right when the decoded text
equals the original Unicode text.

    python benchmarks/charset_detection.py [--pages 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import cchardet
from charset_normalizer import from_bytes
from scrapy.http import HtmlResponse
from w3lib.encoding import resolve_encoding, to_unicode

from bilingual_spider.middlewares.charset import choose_encoding, detect_encoding, page_language
from bilingual_spider.sandbox.realsites import default_cache_dir
from bilingual_spider.sandbox.textsource import catalog_messages

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
LOCALES = Path("/usr/share/locale")
CATALOGS = ("coreutils", "apt", "dpkg", "glib20", "gtk20", "tar", "grep", "wget", "systemd")
# (language, gettext locale, Python codec of the body, the label a page declares)
CHARSETS = [
    ("ko", "ko", "euc_kr", "EUC-KR"),
    ("zh-Hant", "zh_TW", "big5", "Big5"),
    ("zh-Hans", "zh_CN", "gbk", "GBK"),
    ("zh-Hans", "zh_CN", "gb18030", "GB18030"),
    ("ja", "ja", "shift_jis", "Shift_JIS"),
    ("ja", "ja", "euc_jp", "EUC-JP"),
    ("fr", "fr", "latin_1", "ISO-8859-1"),
    ("de", "de", "cp1252", "ISO-8859-1"),  # windows-1252 text labelled latin-1
    ("ru", "ru", "cp1251", "windows-1251"),
]
CASES = {  # name -> (Content-Type header, <meta> label, keep <html lang>)
    "header": ("text/html; charset={label}", None, True),
    "meta": ("text/html", "{label}", True),
    "none": ("text/html", None, True),
    "none, no lang": ("text/html", None, False),
    "header latin-1": ("text/html; charset=ISO-8859-1", None, True),
    "header utf-8": ("text/html; charset=utf-8", None, True),
}
SIZES = (1, 2, 3, 8, 30)
PAGE = """<!DOCTYPE html>
<html{lang}><head>{meta}<title>{title}</title>
<link rel="stylesheet" href="/style/site.css"><script src="/js/menu.js"></script></head>
<body><div id="nav"><a href="/">Home</a> | <a href="/docs/">Docs</a></div>
<h1>{title}</h1>
{paragraphs}
<div id="footer">Copyright 2024 Example. <a href="/license.html">License</a></div>
</body></html>"""
CP1252_MARKS = "“Prix : 5 €” – l’été"  # bytes 0x80-0x9F: what latin-1 lacks
_META = re.compile(rb"<meta[^>]+charset[^>]*>", re.IGNORECASE)


def sentences(locale: str, language: str, codec: str, label: str) -> list[str]:
    """Translations from a few gettext catalogs that the charset writes and its label reads back
    (Python's euc_kr writes syllables outside KS X 1001 as jamo sequences no browser composes)."""
    found = []
    reader = resolve_encoding(label) or codec
    for catalog in CATALOGS:
        path = LOCALES / locale / "LC_MESSAGES" / f"{catalog}.mo"
        if path.exists():
            for _, translation in catalog_messages(path, language):
                try:
                    if translation.encode(codec).decode(reader) == translation:
                        found.append(translation)
                except UnicodeError:
                    continue
    return found


def page(language: str, texts: list[str], meta: str | None, with_lang: bool) -> str:
    title, *rest = texts
    return PAGE.format(
        lang=f' lang="{language}"' if with_lang else "",
        meta=f'<meta http-equiv="Content-Type" content="text/html; charset={meta}">'
        if meta
        else "",
        title=title,
        paragraphs="\n".join(f"<p>{t}</p>" for t in rest),
    )


def generated(pages: int, seed: int) -> Iterator[tuple[str, str, int, str, bytes, str]]:
    """(charset label, case, size, Content-Type, body, original text) of the generated pages."""
    rng = random.Random(seed)
    for language, locale, codec, label in CHARSETS:
        pool = sentences(locale, language, codec, label)
        name = f"{label} ({codec})" if codec == "cp1252" else label
        for case, (header, meta, with_lang) in CASES.items():
            for size in SIZES:
                for _ in range(pages):
                    texts = rng.sample(pool, size)
                    if codec == "cp1252":
                        texts[0] = f"{CP1252_MARKS} {texts[0]}"
                    meta_label = meta.format(label=label) if meta else None
                    text = page(language, texts, meta_label, with_lang)
                    yield name, case, size, header.format(label=label), text.encode(codec), text


def apache_korean(cache: Path) -> Iterator[tuple[str, str, int, str, bytes, str]]:
    """The EUC-KR pages of the Apache manual, their meta charset removed, with no header charset
    and with a server's default ISO-8859-1."""
    manual = cache / "root/usr/share/doc/apache2-doc/manual/ko"
    for path in sorted(manual.rglob("*.html")):
        raw = path.read_bytes()
        if path.is_symlink() or b"charset=EUC-KR" not in raw[:400]:
            continue
        body = _META.sub(b"", raw)
        text = body.decode("cp949")
        yield "Apache ko (EUC-KR)", "none", 0, "text/html", body, text
        yield "Apache ko (EUC-KR)", "header latin-1", 0, "text/html; charset=ISO-8859-1", body, text


def decoded(body: bytes, content_type: str, middleware: bool) -> str:
    response = HtmlResponse(
        "http://example.org/", headers={"Content-Type": content_type}, body=body
    )
    if middleware:
        choice = choose_encoding(body, content_type)
        if choice is not None:
            response = response.replace(encoding=choice.encoding)
    return response.text


def detectors() -> dict[str, Callable[[bytes], str | None]]:
    def normalizer(body: bytes) -> str | None:
        match = from_bytes(body).best()
        return match.encoding if match else None

    return {
        "charset-normalizer (Scrapy's)": normalizer,
        "faust-cchardet": lambda body: cchardet.detect(body)["encoding"],
        "ours (cchardet + checks + <html lang>)": lambda body: detect_encoding(
            body, page_language(body)
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=20, help="pages per charset, case and size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    samples = list(generated(args.pages, args.seed))
    cache = default_cache_dir()
    if (cache / "root/usr/share/doc/apache2-doc").is_dir():
        samples += list(apache_korean(cache))
    right: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for name, case, _, content_type, body, text in samples:
        counts = right[(name, case)]
        counts[0] += decoded(body, content_type, middleware=False) == text
        counts[1] += decoded(body, content_type, middleware=True) == text
        counts[2] += 1
    print(f"{'charset':<28} {'declared':<16} {'Scrapy':>8} {'+ ours':>8} {'pages':>6}")
    for (name, case), (scrapy, ours, n) in right.items():
        print(f"{name:<28} {case:<16} {scrapy / n:>8.1%} {ours / n:>8.1%} {n:>6}")

    undeclared = [s for s in samples if s[1] in ("none", "none, no lang")]
    detection = {}
    print(f"\n{'detector (undeclared pages)':<40} {'right':>7} {'short CJK':>10} {'ms/page':>8}")
    for label, detect in detectors().items():
        ok, ok_short, n_short, seconds = 0, 0, 0, []
        for name, _, size, _, body, text in undeclared:
            start = time.perf_counter()
            encoding = detect(body)
            seconds.append(time.perf_counter() - start)
            resolved = resolve_encoding(encoding) if encoding else None
            good = resolved is not None and to_unicode(body, resolved) == text
            ok += good
            if 1 <= size <= 3 and not name.startswith(("ISO", "windows")):
                ok_short, n_short = ok_short + good, n_short + 1
        ms = 1000 * statistics.mean(seconds)
        detection[label] = {
            "right": ok / len(undeclared),
            "short_cjk_right": ok_short / n_short,
            "ms_per_page": ms,
        }
        print(f"{label:<40} {ok / len(undeclared):>7.1%} {ok_short / n_short:>10.1%} {ms:>8.2f}")

    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / "charset_detection.json"
    out.write_text(
        json.dumps(
            {
                "date": datetime.now().isoformat(timespec="seconds"),
                "pages_per_cell": args.pages,
                "seed": args.seed,
                "decoding_right": {
                    f"{name} / {case}": {"scrapy": s / n, "with_middleware": o / n, "pages": n}
                    for (name, case), (s, o, n) in right.items()
                },
                "detectors": detection,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"\nwritten {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
