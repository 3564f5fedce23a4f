"""Parts of a remote Parquet file read with HTTP Range requests, decoded with pyarrow.

A Parquet file ends with its footer: the Thrift ``FileMetaData`` (schema, row groups, and for
each row group's column chunk its byte offset, compressed size and min/max statistics), the
footer's length (4 bytes, little-endian) and the magic ``PAR1``. So a reader needs:

1. the file's last bytes (a suffix range, ``bytes=-65536``): the footer length, and usually the
   whole footer (:func:`footer_length`; a larger footer takes a second range);
2. the footer, parsed by pyarrow (:func:`metadata_from_footer`);
3. for each row group it wants, the byte ranges of the column chunks it wants
   (:func:`column_chunk_range`, merged by :func:`merge_ranges`);
4. pyarrow's own reader over those ranges: :class:`SparseFile` is a file object of the
   file's full size that holds only the fetched ranges, and refuses any other read (a plan that
   forgot a range fails loudly instead of fetching the whole file).

Plain Python over bytes: who fetches the ranges (the search service, with Scrapy) is not
known here.
"""

from __future__ import annotations

import io
import re
import struct
from bisect import bisect_right
from collections.abc import Iterable, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from bilingual_spider.search.values import AnswerError

MAGIC = b"PAR1"
TAIL_BYTES = 64 * 1024
"""Bytes asked from a file's end: pyarrow reads this much too (its default footer read)."""
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


def suffix_range(size: int) -> str:
    """``Range`` header value for the last ``size`` bytes."""
    return f"bytes=-{size}"


def byte_range(start: int, end: int) -> str:
    """``Range`` header value for bytes ``[start, end)``."""
    return f"bytes={start}-{end - 1}"


def parse_content_range(value: str | None) -> tuple[int, int, int]:
    """``bytes 100-199/1000`` -> (100, 200, 1000): the answer's [start, end) and the file size."""
    match = _CONTENT_RANGE.fullmatch((value or "").strip())
    if match is None or match[3] == "*":
        raise AnswerError(f"a range answer has no usable Content-Range ({value!r})")
    start, last, size = int(match[1]), int(match[2]), int(match[3])
    if not start <= last < size:
        raise AnswerError(f"Content-Range {value!r} is not a range of the file")
    return start, last + 1, size


def footer_length(tail: bytes) -> int:
    """The length of the Thrift footer, from a file's last bytes (at least 8)."""
    if len(tail) < 8 or tail[-4:] != MAGIC:
        raise AnswerError("not a Parquet file: it does not end with PAR1")
    (length,) = struct.unpack("<I", tail[-8:-4])
    return length


def metadata_from_footer(footer: bytes) -> pq.FileMetaData:
    """pyarrow's metadata from the footer bytes (the Thrift footer, its length and ``PAR1``).

    The footer's offsets are those of the whole file: the metadata serves a
    :class:`SparseFile` of the whole file. A damaged footer is an :class:`AnswerError`."""
    footer_length(footer)
    try:
        return pq.read_metadata(pa.BufferReader(MAGIC + footer))
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise AnswerError(f"unreadable Parquet footer: {exc}") from None


def column_chunk_range(chunk: pq.ColumnChunkMetaData) -> tuple[int, int]:
    """[start, end) of a column chunk: from its dictionary page (if any) or first data page."""
    start = chunk.data_page_offset
    if chunk.has_dictionary_page and 0 < chunk.dictionary_page_offset < start:
        start = chunk.dictionary_page_offset
    return start, start + chunk.total_compressed_size


def merge_ranges(ranges: Iterable[tuple[int, int]], gap: int = 0) -> list[tuple[int, int]]:
    """Sorted ranges, those at most ``gap`` bytes apart merged (fewer requests)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if merged and start - merged[-1][1] <= gap:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


class SparseFile(io.RawIOBase):
    """A read-only file of ``size`` bytes of which only some ranges are known.

    >>> f = SparseFile(10, {2: b"cde", 5: b"fg"})
    >>> _ = f.seek(3); f.read(3)
    b'def'
    >>> _ = f.seek(0); f.read(2)
    Traceback (most recent call last):
    OSError: bytes 0-1 of the file were not fetched
    """

    def __init__(self, size: int, ranges: dict[int, bytes]) -> None:
        super().__init__()
        self.size = size
        self._starts: list[int] = []
        self._parts: list[bytes] = []
        for start, part in merge_parts(ranges):
            self._starts.append(start)
            self._parts.append(part)
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self.size}[whence]
        self._position = base + offset
        return self._position

    def read(self, size: int = -1) -> bytes:
        start = self._position
        end = self.size if size < 0 else min(self.size, start + size)
        if end <= start:
            return b""
        index = bisect_right(self._starts, start) - 1
        if index >= 0:
            offset = start - self._starts[index]
            part = self._parts[index]
            if end - self._starts[index] <= len(part):
                self._position = end
                return part[offset : offset + end - start]
        raise OSError(f"bytes {start}-{end - 1} of the file were not fetched")

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def merge_parts(ranges: dict[int, bytes]) -> list[tuple[int, bytes]]:
    """Byte parts keyed by offset, overlapping or touching parts joined."""
    joined: list[tuple[int, bytes]] = []
    for start, part in sorted(ranges.items()):
        if joined and start <= joined[-1][0] + len(joined[-1][1]):
            first, before = joined[-1]
            joined[-1] = (first, before + part[first + len(before) - start :])
        else:
            joined.append((start, part))
    return joined


def read_row_group(
    metadata: pq.FileMetaData,
    size: int,
    ranges: dict[int, bytes],
    row_group: int,
    columns: Sequence[str],
) -> pa.Table:
    """Columns of one row group, decoded from the fetched ranges (an :class:`AnswerError` if
    they cannot be)."""
    reader = pq.ParquetFile(SparseFile(size, ranges), metadata=metadata, pre_buffer=False)
    try:
        return reader.read_row_group(row_group, columns=list(columns))
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise AnswerError(f"row group {row_group} cannot be decoded: {exc}") from None
