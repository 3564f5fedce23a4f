"""Seed lists: ``-a seeds=FILE`` (one URL a line, ``#`` comments) or ``-a seeds=url,url``.

A bad seed costs its line: a one-line warning names it (``seeds.txt:3: 'http://..x/': no valid
host name``) and the other seeds are crawled. Only a seed list with no good seed at all, or an
argument that names a file that is not there (``sites.txt``), is an error, before any request.

Whether the argument is a file is asked of the file system only when it can be a file name: a
comma list (``a.example,b.example``) or a string longer than a file name may be
(:data:`MAX_NAME_BYTES`) is a list of URLs.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

logger = logging.getLogger(__name__)

MAX_NAME_BYTES = 255
"""The longest file name (one path component) Linux file systems take."""
LIST_FILE_EXTENSIONS = frozenset(
    {"txt", "text", "csv", "tsv", "lst", "list", "urls", "seeds", "json", "jsonl", "dat"}
    | {"gz", "bz2", "xz", "zst"}
)
"""Endings that name a file, not a top-level domain (none of them is one): ``sites.txt``."""
SEED_PROGRESS_EVERY = 10_000
"""A long seed list says how far it is every this many seeds handed to the crawl."""
_PATH_LIKE = re.compile(r"^(?:~|\.{1,2})?/|\\")


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
    """Seeds from a file path or a comma-separated list; duplicates removed, order kept.

    A line (or a list entry) that is no URL is left out with a warning that names it; a list
    with no good seed is a :class:`SeedError`, and so is an argument that looks like a file name
    (:func:`looks_like_a_file`) when there is no such file.
    """
    seeds, bad = read_seeds(argument)
    for line in bad:
        logger.warning("bad seed skipped: %s", line)
    return seeds


def read_seeds(argument: str) -> tuple[list[str], list[str]]:
    """The seeds of ``argument`` and a line for each bad one (``FILE:LINE: 'text': why``), or a
    :class:`SeedError` when it names no file or holds no good seed."""
    seeds: list[str] = []
    bad: list[str] = []
    for seed, problem in iter_seeds(argument):
        if seed is not None:
            seeds.append(seed)
        else:
            bad.append(problem)
    if not seeds:
        raise SeedError(_no_seeds(argument, bad))
    return seeds, bad


def iter_seeds(argument: str) -> Iterator[tuple[str | None, str]]:
    """``(seed, "")`` for each new good seed of ``argument`` and ``(None, "FILE:LINE: 'text':
    why")`` for each bad line, in order, the file read as it goes (a long list is not read
    whole first); a seed seen before is left out (a set: linear in the lines). A
    :class:`SeedError` when ``argument`` looks like a file name that is not there."""
    path = _seed_file(argument)
    seen: set[str] = set()
    with _lines(argument, path) as lines:
        source = str(path) if path is not None else "seeds argument"
        for number, line in enumerate(lines, start=1):
            text = line.split("#", 1)[0].strip() if path is not None else line.strip()
            if not text:
                continue
            try:
                seed = normalize_seed(text)
            except ValueError as exc:
                yield None, f"{source}:{number}: {text[:200]!r}: {exc}"
                continue
            if seed not in seen:
                seen.add(seed)
                yield seed, ""


@contextmanager
def _lines(argument: str, path: Path | None) -> Iterator[Iterable[str]]:
    """The lines of the seed file, read as they are asked for, or the entries of a comma list."""
    if path is None:
        yield argument.split(",")
        return
    with path.open(encoding="utf-8", errors="replace", newline=None) as lines:
        yield (line.rstrip("\n") for line in lines)


def _no_seeds(argument: str, bad: list[str]) -> str:
    path = _seed_file(argument)
    source = str(path) if path is not None else "seeds argument"
    why = f" ({len(bad)} bad line(s): {'; '.join(bad[:3])}{'; ...' if len(bad) > 3 else ''})"
    return f"no seeds in {source}{why if bad else ''}"


def seeds_problem(argument: str) -> str | None:
    """Why ``-a seeds=argument`` cannot start a crawl (no such file, no good seed), in one line;
    None when it can (bad lines are then warned about by :func:`parse_seeds`). It reads up to
    the first good seed: the crawl reads the list (once) as it starts."""
    bad: list[str] = []
    try:
        for seed, problem in iter_seeds(argument):
            if seed is not None:
                return None
            bad.append(problem)
    except SeedError as exc:
        return str(exc)
    return _no_seeds(argument, bad)


def announced(seeds: Sequence[str]) -> Iterator[str]:
    """The seeds, in order, with an INFO line every :data:`SEED_PROGRESS_EVERY` of them handed
    to the crawl and one when all are (a list that long is not silent for minutes)."""
    for number, seed in enumerate(seeds, start=1):
        yield seed
        if number % SEED_PROGRESS_EVERY == 0 and number < len(seeds):
            logger.info("seeds: %s of %s handed to the crawl", f"{number:,}", f"{len(seeds):,}")
    if len(seeds) >= SEED_PROGRESS_EVERY:
        logger.info("seeds: all %s handed to the crawl", f"{len(seeds):,}")


def _seed_file(argument: str) -> Path | None:
    """The seed file ``argument`` names, None when it is a list of URLs; a :class:`SeedError`
    when it looks like a file name but no such file exists."""
    if "," in argument or "\x00" in argument or "://" in argument or not _name_fits(argument):
        return None  # not a file name: the file system is not asked
    path = Path(os.path.expanduser(argument))  # "~nobody-here/x" stays as it is
    try:
        if path.is_file():
            return path
        directory = path.is_dir()
    except OSError:  # a name the file system refuses: not a file
        return None
    if directory:
        raise SeedError(f"seeds={argument}: a directory, not a seed file")
    if looks_like_a_file(argument):
        raise SeedError(f"seeds={argument}: no such file")
    return None


def _name_fits(argument: str) -> bool:
    """Whether ``argument`` can be a path: the file system's encoding writes it (a lone
    surrogate from the command line's undecodable bytes can be, another cannot), and every
    component fits in a file name."""
    try:
        raw = os.fsencode(argument)
    except UnicodeEncodeError:
        return False
    return all(len(part) <= MAX_NAME_BYTES for part in raw.replace(b"\\", b"/").split(b"/"))


def looks_like_a_file(argument: str) -> bool:
    """Whether a seeds argument that is not a URL list names a file: a path (``./seeds``,
    ``~/x``, ``data/seeds``, ...) without a host name in front, or a name ending in a list file's
    extension (``sites.txt``, ``urls.csv``). ``example.org``, ``example.org/fr/`` are seeds."""
    text = argument.strip()
    if _PATH_LIKE.match(text):
        return True
    first, slash, _ = text.partition("/")
    if slash and "." not in first:  # data/seeds: no host has no dot (but localhost)
        return first != "localhost"
    return text.rpartition(".")[2].lower() in LIST_FILE_EXTENSIONS
