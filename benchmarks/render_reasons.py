"""Which pages of the sandbox's real sites would ask for a browser (issue 37, render).

    .venv/bin/python benchmarks/render_reasons.py

Reads every HTML file of the real sites ``bilingual-spider sandbox fetch`` unpacked (the Debian
documentation packages) with :func:`~bilingual_spider.links.script_links.render_reason` and counts
the reasons, per package folder (``usr/share/doc/PACKAGE``), with one example page each. A crawl
with rendering on switches a site when one of its first ``BILINGUAL_RENDER_CHECK_PAGES`` pages
gives a reason, so this is an upper bound on the real sites a crawl would render. Also the CPU
time of ``render_reason`` per page (what reading a site's first pages costs). JSON in
``benchmarks/results/render_reasons.json``.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from bilingual_spider.links.script_links import render_reason
from bilingual_spider.sandbox.realsites import resolve_cache_dir

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HTML_SUFFIXES = (".html", ".htm", ".xhtml")


def main() -> int:
    root = resolve_cache_dir() / "root"
    if not root.is_dir():
        raise SystemExit(f"no real sites at {root}: run bilingual-spider sandbox fetch")
    reasons: Counter[str] = Counter()
    folders: Counter[tuple[str, str]] = Counter()
    examples: dict[str, str] = {}
    pages = 0
    seconds = 0.0
    for path in sorted(root.rglob("*")):
        if path.suffix.lower() not in HTML_SUFFIXES or not path.is_file():
            continue
        pages += 1
        body = path.read_bytes()
        started = time.process_time()
        reason = render_reason(body)
        seconds += time.process_time() - started
        reasons[str(reason)] += 1
        if reason:
            folder = "/".join(path.relative_to(root).parts[:4])
            folders[(folder, reason)] += 1
            examples.setdefault(f"{folder} {reason}", str(path.relative_to(root)))
    ms_per_page = 1000 * seconds / max(pages, 1)
    print(f"{pages} pages; reasons: {dict(reasons)}; render_reason {ms_per_page:.2f} CPU ms/page")
    for (folder, reason), count in folders.most_common():
        print(f"{count:6} {reason:16} {folder}  e.g. {examples[f'{folder} {reason}']}")
    result = {
        "pages": pages,
        "reasons": dict(reasons),
        "render_reason_cpu_ms_per_page": ms_per_page,
        "folders": [
            {"folder": f, "reason": r, "pages": n, "example": examples[f"{f} {r}"]}
            for (f, r), n in folders.most_common()
        ],
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "render_reasons.json").write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
