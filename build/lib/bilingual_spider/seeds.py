"""Seed lists: ``-a seeds=FILE`` (one URL a line, ``#`` comments) or ``-a seeds=url,url``.

Bad seeds are reported all at once, with their line numbers, instead of failing one by one
in the middle of a crawl.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit


class SeedError(ValueError):
    """The seed list has entries that are no crawlable URL."""


def normalize_seed(text: str) -> str:
    """``example.org`` -> ``http://example.org/``; raise ValueError for what is no URL at all.

    Other schemes (``ftp:``, ``file:``) are kept: the network-safety middleware refuses them with a
    counted reason, like any other target it refuses.
    """
    url = text.strip()
    if "://" not in url:
        url = "http://" + url
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError as exc:
        raise ValueError(f"malformed URL ({exc})") from None
    if parts.scheme in ("http", "https") and (
        not host or " " in url or host.startswith(".") or ".." in host
    ):
        raise ValueError("no valid host name")
    return url if parts.path or parts.scheme not in ("http", "https") else url + "/"


def parse_seeds(argument: str) -> list[str]:
    """Seeds from a file path or a comma-separated list; duplicates removed, order kept."""
    path = Path(argument)
    if path.is_file():
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        source = str(path)
    else:
        lines = argument.split(",")
        source = "seeds argument"
    seeds: list[str] = []
    errors: list[str] = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip() if path.is_file() else line.strip()
        if not text:
            continue
        try:
            seed = normalize_seed(text)
        except ValueError as exc:
            errors.append(f"{source}:{number}: {text!r}: {exc}")
            continue
        if seed not in seeds:
            seeds.append(seed)
    if errors:
        raise SeedError("bad seed(s):\n  " + "\n  ".join(errors))
    if not seeds:
        raise SeedError(f"no seeds in {source}")
    return seeds
