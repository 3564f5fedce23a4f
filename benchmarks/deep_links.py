"""Where out-of-site links land: the share that points below a site's root (a "deep link").

The generated web's ``deep_link_share`` (issue 30) needs the share of links between sites that
land on a page other than the target's home page. No published figure was at hand offline, so it
is measured here on real pages written by people: every HTML file of the Debian documentation
packages in the real-sites cache (the sandbox's real sites and everything else those packages
ship), and every HTML file under ``/usr/share/doc`` of this machine. A link counts when it is an
absolute ``http(s)`` link to another host than the page's (the page's own host is taken from the
mount it is served at, else unknown: then every absolute link counts). It is *deep* when its path
is anything but ``/``, empty, or an index file at the root. Reported per link and per target host
(the share of a host's in-links that are deep, median over hosts with at least 3 in-links).

    python benchmarks/deep_links.py [--dirs DIR,DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

RESULTS = Path(__file__).resolve().parent / "results"
HREF = re.compile(rb"""<a\s[^>]*?href\s*=\s*["']?(https?://[^"'\s>]+)""", re.IGNORECASE)
ROOT_PATHS = {"", "/", "/index.html", "/index.htm", "/index.php", "/index.shtml", "/default.aspx"}
HTML = (".html", ".htm", ".xhtml")


def is_deep(url: str) -> bool:
    parts = urlsplit(url)
    return parts.path.lower() not in ROOT_PATHS or bool(parts.query)


def main(argv: list[str] | None = None) -> int:
    from bilingual_spider.sandbox.realsites import resolve_cache_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dirs",
        default=f"{resolve_cache_dir() / 'root'},/usr/share/doc",
        help="directories of HTML files to read (comma-separated)",
    )
    args = parser.parse_args(argv)
    links = 0
    deep = 0
    by_host: dict[str, Counter[bool]] = defaultdict(Counter)
    files = 0
    seen: set[tuple[int, int]] = set()
    for directory in [Path(d) for d in args.dirs.split(",") if d]:
        for parent, _, names in os.walk(directory):
            for name in names:
                if not name.lower().endswith(HTML):
                    continue
                path = Path(parent) / name
                try:
                    status = path.stat()
                except OSError:
                    continue
                if (status.st_dev, status.st_ino) in seen:  # a symlink or hard link read once
                    continue
                seen.add((status.st_dev, status.st_ino))
                files += 1
                for match in HREF.finditer(path.read_bytes()):
                    url = match.group(1).decode("latin-1")
                    host = (urlsplit(url).hostname or "").lower()
                    if not host:
                        continue
                    links += 1
                    deep_link = is_deep(url)
                    deep += deep_link
                    by_host[host][deep_link] += 1
    shares = [c[True] / (c[True] + c[False]) for c in by_host.values() if sum(c.values()) >= 3]
    result = {
        "benchmark": "deep_links",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "dirs": args.dirs.split(","),
        "html_files": files,
        "absolute_links": links,
        "deep_links": deep,
        "deep_share": round(deep / links, 3) if links else None,
        "target_hosts": len(by_host),
        "hosts_with_3_inlinks": len(shares),
        "median_deep_share_per_host": round(statistics.median(shares), 3) if shares else None,
        "how": "absolute http(s) <a href> links of every HTML file (each file once); deep: a path "
        "other than / or a root index file, or a query",
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "deep_links.json").write_text(json.dumps(result, indent=1) + "\n")
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
