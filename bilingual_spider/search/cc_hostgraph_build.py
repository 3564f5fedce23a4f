"""Writing the host graph index from Common Crawl's two files, in memory bounded by the hosts.

A host graph release is too big to hold (Mar-May 2026: 262M hosts, 8.1B edges; the edge ids
alone are 130 GB as int64), so the index is written out of core, in chunks of about
``chunk_edges`` edges:

1. The vertex file is streamed: names go to ``names.bin`` and their end offsets to a raw file
   as they come; ids (0, 1, 2 ...) and the sorted order of the names are checked chunk by chunk.
2. The edge file is read once to count each host's out- and in-degree (self-loops dropped):
   the in-degrees' running sum is ``in_offsets``, the CSR slots of each target's sources.
3. The edge file is read again and each edge ``(source, target)`` appended to one of at most
   ``MAX_BUCKETS`` bucket files, a bucket per range of targets holding about ``chunk_edges``
   edges (a host with more in-links than that is a bucket of its own).
4. Bucket by bucket, in target order, the edges are sorted (by target, then sources by
   out-degree, highest first, ties by id) and their sources appended to ``in_sources.npy``;
   each bucket file is deleted once read.

Peak memory is ``out_degree`` (4 bytes a host) and ``in_offsets`` (8 bytes a host), plus one
chunk (about 100 bytes an edge, mostly the text and its parsed ids) or one bucket (about 40),
plus the edges of the most linked host. The bucket files need 8 bytes an edge of disk (16 past
2**31 hosts) until step 4 has read them.

Common Crawl's edges are distinct pairs without self-loops (cc-pyspark's
``hostlinks_to_graph.py`` joins distinct host links to their ids and filters ``s != t``).
A file that repeats a pair is indexed as it is: the referring host is listed twice for that
target and its out-degree counts the pair twice.
"""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import BinaryIO, Protocol

import numpy as np

FILES = ("names.bin", "name_offsets.npy", "in_sources.npy", "in_offsets.npy", "out_degree.npy")
CHUNK_EDGES = 2**20
"""Edges a chunk holds by default (about 1M: some 100 MB of working memory)."""
MAX_BUCKETS = 256
"""Bucket files open at once at most; past ``MAX_BUCKETS * chunk_edges`` edges the buckets grow."""
_LINE_BYTES = 20
"""Bytes of an edge line with two 9-digit ids: chunks are read as ``chunk_edges`` lines."""
_NAME_OBJECT_BYTES = 4
"""A vertex line (~25 bytes) is read as two Python bytes objects (~100): vertex chunks are
this many times smaller, for the same memory."""


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...

    def readline(self, size: int = -1, /) -> bytes: ...


def line_chunks(stream: _Readable, size: int) -> Iterator[bytes]:
    """Whole lines, in chunks of about ``size`` bytes (one copy of a chunk at a time)."""
    while chunk := stream.read(size):
        if not chunk.endswith(b"\n"):
            chunk += stream.readline()
        yield chunk


def id_dtype(hosts: int) -> type[np.signedinteger]:
    """The smallest signed integer type that holds every vertex id."""
    return np.int32 if hosts < 2**31 else np.int64


def write_index(
    vertices_path: Path, edges_path: Path, directory: Path, chunk_edges: int = CHUNK_EDGES
) -> tuple[int, int]:
    """Write the index files (:data:`FILES`) into ``directory``; return (hosts, edges kept)."""
    chunk_bytes = max(1, chunk_edges) * _LINE_BYTES
    hosts = write_vertices(vertices_path, directory, chunk_bytes // _NAME_OBJECT_BYTES)
    out_degree, in_offsets = count_degrees(edges_path, hosts, chunk_bytes)
    np.save(directory / "out_degree.npy", out_degree)
    np.save(directory / "in_offsets.npy", in_offsets)
    edges = int(in_offsets[-1])
    starts = bucket_starts(in_offsets, max(chunk_edges, -(-edges // MAX_BUCKETS)))
    buckets = directory / "buckets"
    buckets.mkdir(exist_ok=True)
    split_into_buckets(edges_path, hosts, starts, buckets, chunk_bytes)
    write_sources(buckets, starts, out_degree, in_offsets, directory / "in_sources.npy")
    buckets.rmdir()
    return hosts, edges


# --- step 1: names ------------------------------------------------------------------------------


def write_vertices(path: Path, directory: Path, chunk_bytes: int) -> int:
    """Stream ``id<TAB>name`` lines into ``names.bin`` and ``name_offsets.npy``; return the
    number of hosts. Ids must be 0, 1, 2 ... and names sorted (as Common Crawl writes them)."""
    raw_offsets = directory / "name_offsets.raw"
    hosts, end, last = 0, 0, b""
    with (
        gzip.open(path, "rb") as stream,
        open(directory / "names.bin", "wb") as names_file,
        open(raw_offsets, "wb") as offsets_file,
    ):
        offsets_file.write(np.zeros(1, dtype=np.int64).tobytes())
        for chunk in line_chunks(stream, chunk_bytes):
            fields = chunk.split()
            if not fields:
                continue
            ids, names = fields[0::2], fields[1::2]
            _check_ids(path, ids, hosts, len(fields) % 2 == 1)
            if (last and last > names[0]) or names != sorted(names):
                raise ValueError(f"{path}: vertex names are not sorted")
            lengths = np.fromiter(map(len, names), dtype=np.int64, count=len(names))
            offsets_file.write((end + np.cumsum(lengths)).tobytes())
            names_file.write(b"".join(names))
            hosts, end, last = hosts + len(names), end + int(lengths.sum()), names[-1]
    with (
        open(raw_offsets, "rb") as offsets_file,
        _npy_writer(directory / "name_offsets.npy", np.int64, hosts + 1) as npy,
    ):
        shutil.copyfileobj(offsets_file, npy, 2**24)
    raw_offsets.unlink()
    return hosts


def _check_ids(path: Path, ids: list[bytes], first: int, odd: bool) -> None:
    """Raise unless ``ids`` are ``first, first + 1 ...`` (and every line has a name)."""
    try:
        numbers = np.array(ids, dtype=np.int64)
    except ValueError:
        numbers = np.full(len(ids), -1)
    wrong = np.flatnonzero(numbers != np.arange(first, first + len(ids)))
    if wrong.size:
        raise ValueError(f"{path}: vertex ids are not 0, 1, 2 ... at {ids[wrong[0]]!r}")
    if odd:
        raise ValueError(f"{path}: a vertex line without a name at id {first + len(ids) - 1}")


def _npy_writer(path: Path, dtype: type[np.generic], length: int) -> BinaryIO:
    """``path`` opened for writing a 1-d ``.npy`` array's data, its header written."""
    npy = open(path, "wb")  # noqa: SIM115 (returned, closed by the caller)
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype))}
    np.lib.format.write_array_header_1_0(npy, header | {"fortran_order": False, "shape": (length,)})
    return npy


# --- steps 2 and 3: edges -----------------------------------------------------------------------


def read_edges(path: Path, hosts: int, chunk_bytes: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(from ids, to ids) of the edge file, chunk by chunk, self-loops dropped."""
    dtype = id_dtype(hosts)
    with gzip.open(path, "rb") as stream:
        for chunk in line_chunks(stream, chunk_bytes):
            pairs = parse_edges(chunk, path)
            if pairs.size and (pairs.min() < 0 or pairs.max() >= hosts):
                raise ValueError(f"{path}: an edge names a vertex that is not in the vertex file")
            keep = pairs[:, 0] != pairs[:, 1]
            yield pairs[keep, 0].astype(dtype), pairs[keep, 1].astype(dtype)


def parse_edges(chunk: bytes, path: Path) -> np.ndarray:
    """The ``from<TAB>to`` lines of a chunk as an (n, 2) int64 array."""
    try:
        numbers = np.fromstring(chunk, dtype=np.int64, sep=" ")  # C speed, any whitespace
    except ValueError:
        numbers = np.array(chunk.split(), dtype=np.int64)  # the error names the bad field
    if numbers.size % 2:
        raise ValueError(f"{path}: an edge line without two ids")
    return numbers.reshape(-1, 2)


def count_degrees(path: Path, hosts: int, chunk_bytes: int) -> tuple[np.ndarray, np.ndarray]:
    """(out-degree of each host as int32, ``in_offsets``: the running sum of in-degrees)."""
    out_degree = np.zeros(hosts, dtype=np.int32)
    in_offsets = np.zeros(hosts + 1, dtype=np.int64)
    for sources, targets in read_edges(path, hosts, chunk_bytes):
        np.add.at(out_degree, np.sort(sources), 1)  # sorted: add.at is 40x faster
        np.add.at(in_offsets[1:], np.sort(targets), 1)
    np.cumsum(in_offsets, out=in_offsets)
    return out_degree, in_offsets


def bucket_starts(in_offsets: np.ndarray, size: int) -> np.ndarray:
    """The first target of each bucket (and, last, the number of hosts): consecutive targets
    holding about ``size`` edges each, a host with more in-links alone in its bucket."""
    hosts, starts = len(in_offsets) - 1, [0]
    while starts[-1] < hosts:
        start = starts[-1]
        end = int(np.searchsorted(in_offsets, in_offsets[start] + size, side="right")) - 1
        starts.append(min(hosts, max(end, start + 1)))
    return np.array(starts, dtype=np.int64)


def _bucket_path(buckets: Path, number: int) -> Path:
    return buckets / f"{number:05d}.bin"


def split_into_buckets(
    path: Path, hosts: int, starts: np.ndarray, buckets: Path, chunk_bytes: int
) -> None:
    """Append each edge, as a (source, target) pair, to the file of its target's bucket."""
    count = len(starts) - 1
    with ExitStack() as files:
        outputs = [files.enter_context(open(_bucket_path(buckets, b), "wb")) for b in range(count)]
        for sources, targets in read_edges(path, hosts, chunk_bytes):
            bucket = np.searchsorted(starts, targets, side="right") - 1
            order = np.argsort(bucket, kind="stable")
            pairs = np.stack([sources[order], targets[order]], axis=1)
            ends = np.cumsum(np.bincount(bucket, minlength=count))
            for number in np.flatnonzero(np.diff(ends, prepend=0)):
                outputs[number].write(pairs[ends[number - 1] if number else 0 : ends[number]])


# --- step 4: the sources of each target, hubs first ---------------------------------------------


def write_sources(
    buckets: Path,
    starts: np.ndarray,
    out_degree: np.ndarray,
    in_offsets: np.ndarray,
    path: Path,
) -> None:
    """Sort each bucket's edges (by target, then by the source's out-degree, highest first,
    then by source) and append the sources to ``in_sources.npy``, deleting the bucket."""
    dtype = id_dtype(len(out_degree))
    with _npy_writer(path, dtype, int(in_offsets[-1])) as npy:
        for number in range(len(starts) - 1):
            bucket = _bucket_path(buckets, number)
            pairs = np.fromfile(bucket, dtype=dtype).reshape(-1, 2)
            bucket.unlink()
            sources, targets = pairs[:, 0], pairs[:, 1]
            expected = in_offsets[starts[number + 1]] - in_offsets[starts[number]]
            if len(sources) != expected:
                raise RuntimeError(f"{path}: the edge file changed while it was indexed")
            npy.write(sources[np.lexsort((sources, -out_degree[sources], targets))])
