"""Files a running server may be reading: written in one step (a reader sees the old file or the
new one, never half of one), and an exclusive lock for a cache that two processes may prepare at
once."""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step (a server may be reading the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.", delete=False
    ) as f:
        f.write(text)
    os.replace(f.name, path)


def write_if_changed(path: Path, text: str) -> None:
    """Like :func:`write_atomically`, but leave an identical file alone (and its mtime)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    write_atomically(path, text)


@contextmanager
def exclusive_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``, so two processes never prepare one cache at once."""
    with path.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
