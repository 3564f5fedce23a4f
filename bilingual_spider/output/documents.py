"""Document pairs: the two pages of every reported pair with their main text, for sentence
aligners (Bitextor's document-aligned step, bleualign, vecalign).

The main text is trafilatura's (``benchmarks/main_text.py``: on the real sites' pages it keeps
0.82 of the content lines against jusText's 0.60, with 0.4 % template text against 0.1 %).
Two formats:

- ``jsonl``: one object per pair: ``url1``, ``url2``, ``lang1``, ``lang2``, ``text1``,
  ``text2``, and the pair's ``method``, ``pattern``, ``verification``;
- ``tsv``: ``url1 <TAB> url2 <TAB> base64(text1) <TAB> base64(text2)``, the document-aligned
  input of Bitextor's sentence alignment.

:class:`PageBodies` keeps every fetched page's bytes (zlib, in SQLite on disk, not in memory)
until the pair that needs them is reported.
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

import trafilatura

FORMATS = ("jsonl", "tsv")


def main_text(html: bytes) -> str:
    """The page's main text, paragraphs on their own lines ("" when there is none)."""
    text = html.decode("utf-8", "replace") if isinstance(html, bytes) else html
    return trafilatura.extract(text, include_comments=False) or ""


def format_of(path: str | os.PathLike[str]) -> str:
    """``tsv`` for a ``.tsv`` file, else ``jsonl``."""
    return "tsv" if str(path).endswith(".tsv") else "jsonl"


class PageBodies:
    """Page bytes by URL, compressed, in an SQLite file (a temporary one by default), and each
    page's main text once it has been asked for: a page is in as many pairs as its languages
    paired with it (the demo's 898 pairs have 666 pages, d-i.debian.org's 30 languages)."""

    def __init__(self, path: str | os.PathLike[str] = "") -> None:
        self._db = sqlite3.connect(str(path) or "", isolation_level=None)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS page (url TEXT PRIMARY KEY, body BLOB, text TEXT)"
        )

    def add(self, url: str, body: bytes) -> None:
        """Keep ``body`` as ``url``'s (a page fetched again: its text is extracted again)."""
        self._db.execute(
            "INSERT OR REPLACE INTO page VALUES (?, ?, NULL)", (url, zlib.compress(body, 1))
        )

    def get(self, url: str) -> bytes | None:
        row = self._db.execute("SELECT body FROM page WHERE url = ?", (url,)).fetchone()
        return zlib.decompress(row[0]) if row else None

    def main_text(self, url: str) -> str | None:
        """:func:`main_text` of ``url``'s page, extracted the first time it is asked (None: no
        such page kept)."""
        row = self._db.execute("SELECT body, text FROM page WHERE url = ?", (url,)).fetchone()
        if row is None:
            return None
        body, text = row
        if text is None:
            text = main_text(zlib.decompress(body))
            self._db.execute("UPDATE page SET text = ? WHERE url = ?", (text, url))
        return text

    def close(self) -> None:
        self._db.close()


class DocumentPairWriter:
    """Writes document pairs to ``path`` as they come, in its :func:`format_of`."""

    def __init__(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        self.path = Path(path)
        self.format = format or format_of(path)
        if self.format not in FORMATS:
            raise ValueError(f"document pairs: format {self.format!r} is not one of {FORMATS}")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._out: TextIO = self.path.open("w", encoding="utf-8")
        self.written = 0

    def write(self, pair: Mapping[str, Any], text1: str, text2: str) -> None:
        """One pair (a ``UrlPairItem``'s fields) with its two texts."""
        if self.format == "tsv":
            fields = [pair["source_url"], pair["target_url"], _b64(text1), _b64(text2)]
            self._out.write("\t".join(fields) + "\n")
        else:
            line = {
                "type": "document_pair",
                "url1": pair["source_url"],
                "url2": pair["target_url"],
                "lang1": pair.get("source_lang"),
                "lang2": pair.get("target_lang"),
                "text1": text1,
                "text2": text2,
                "method": pair.get("method"),
                "pattern": pair.get("pattern"),
                "verification": pair.get("verification") or {},
            }
            self._out.write(json.dumps(line, ensure_ascii=False) + "\n")
        self._out.flush()
        self.written += 1

    def close(self) -> None:
        self._out.close()


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")
