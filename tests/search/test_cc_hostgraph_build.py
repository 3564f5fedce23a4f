"""The out-of-core build of the host graph index against a plain in-memory reading of the same
files, and lookups on a mapped index reading a host's slice, not whole arrays."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from bilingual_spider.search.cc_hostgraph import HostGraphIndex, reverse_host
from bilingual_spider.search.cc_hostgraph_build import FILES


def write_files(directory: Path, names: list[str], edges: list[tuple[int, int]]) -> None:
    """Common Crawl's two files, the edges as given (any order, repeats, self-loops)."""
    with gzip.open(directory / "vertices.txt.gz", "wt") as f:
        f.writelines(f"{i}\t{name}\n" for i, name in enumerate(names))
    with gzip.open(directory / "edges.txt.gz", "wt") as f:
        f.writelines(f"{a}\t{b}\n" for a, b in edges)


def reference_arrays(names: list[str], edges: list[tuple[int, int]]) -> dict[str, np.ndarray]:
    """The index's arrays computed the obvious way, everything in memory."""
    count = len(names)
    kept = [(a, b) for a, b in edges if a != b]
    out_degree = [0] * count
    in_degree = [0] * count
    for a, b in kept:
        out_degree[a] += 1
        in_degree[b] += 1
    ordered = sorted(kept, key=lambda edge: (edge[1], -out_degree[edge[0]], edge[0]))
    return {
        "names.bin": np.frombuffer("".join(names).encode(), dtype=np.uint8),
        "name_offsets.npy": np.cumsum([0] + [len(n) for n in names]),
        "in_sources.npy": np.array([a for a, _ in ordered], dtype=np.int32),
        "in_offsets.npy": np.cumsum([0, *in_degree]),
        "out_degree.npy": np.array(out_degree, dtype=np.int32),
    }


def random_graph(seed: int) -> tuple[list[str], list[tuple[int, int]]]:
    """60 hosts, 10 of them without edges; a hub with more in-links than a chunk; self-loops,
    a repeated pair, many ties in out-degree; edges in no particular order."""
    rng = np.random.default_rng(seed)
    names = sorted(f"org.example{i % 7}.host{i:03d}" for i in range(60))
    edges = [tuple(pair) for pair in rng.integers(0, 50, size=(300, 2)).tolist()]
    edges += [(int(a), 0) for a in rng.integers(1, 50, size=40)]  # the hub
    edges += [(3, 3), (7, 7), edges[0]]
    order = rng.permutation(len(edges))
    return names, [edges[i] for i in order]


@pytest.mark.parametrize("chunk_edges", [1, 7, 1000])
def test_chunked_build_equals_the_in_memory_reference(tmp_path: Path, chunk_edges: int) -> None:
    names, edges = random_graph(seed=chunk_edges)
    write_files(tmp_path, names, edges)
    HostGraphIndex.build(
        tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz", tmp_path / "index", chunk_edges
    )
    expected = reference_arrays(names, edges)
    assert sorted(p.name for p in (tmp_path / "index").iterdir()) == sorted([*FILES, "index.json"])
    for name in FILES:
        path = tmp_path / "index" / name
        found = np.fromfile(path, dtype=np.uint8) if name == "names.bin" else np.load(path)
        np.testing.assert_array_equal(found, expected[name], err_msg=name)
        assert found.dtype == expected[name].dtype, name
    in_memory = HostGraphIndex.from_files(
        tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz", chunk_edges
    )
    np.testing.assert_array_equal(in_memory.in_sources, expected["in_sources.npy"])


def test_names_out_of_order_across_chunks_are_refused(tmp_path: Path) -> None:
    names = ["org.example.bbbbbbbbbbbbbbbbbbbbbbbbbbbb", "org.example.aaaaaaaaaaaaaaaaaaaaaaaaaaaa"]
    write_files(tmp_path, names, [(0, 1)])
    with pytest.raises(ValueError, match="not sorted"):  # one line a chunk: only across chunks
        HostGraphIndex.build(
            tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz", tmp_path / "index", 1
        )
    assert not (tmp_path / "index").exists() or not list((tmp_path / "index").iterdir())


def test_a_failed_build_leaves_no_index_and_no_bucket_files(tmp_path: Path) -> None:
    write_files(tmp_path, ["org.a", "org.b", "org.c"], [(0, 1), (1, 2), (2, 9)])
    with pytest.raises(ValueError, match="not in the vertex file"):
        HostGraphIndex.build(
            tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz", tmp_path / "index", 1
        )
    assert not HostGraphIndex.exists(tmp_path / "index")
    assert list((tmp_path / "index").iterdir()) == []


class CountingArray:
    """An array that counts the elements read through it and offers nothing else: a lookup that
    reads a whole array, or calls an array method on it, is seen."""

    def __init__(self, array: np.ndarray) -> None:
        self.array, self.read = array, 0

    def __len__(self) -> int:
        return len(self.array)

    def __getitem__(self, key: int | slice) -> np.ndarray:
        found = self.array[key]
        self.read += np.size(found)
        return found


def test_a_lookup_reads_the_hosts_slice_not_whole_arrays(tmp_path: Path) -> None:
    hosts = 4096
    rng = np.random.default_rng(0)
    names = sorted(f"com.site{i:05d}" for i in range(hosts))
    targets = np.minimum(rng.zipf(1.5, size=40_000) - 1, hosts - 1)
    sources = rng.integers(0, hosts, size=targets.size)
    edges = list(zip(sources.tolist(), targets.tolist(), strict=True))
    write_files(tmp_path, names, edges)
    index = HostGraphIndex.build(
        tmp_path / "vertices.txt.gz", tmp_path / "edges.txt.gz", tmp_path / "index"
    )
    arrays = ("_names", "name_offsets", "in_sources", "in_offsets", "out_degree")
    assert all(isinstance(getattr(index, a), np.memmap) for a in arrays)  # mapped, not read
    counters = {a: CountingArray(getattr(index, a)) for a in arrays}
    for name, counter in counters.items():
        setattr(index, name, counter)
    hub = reverse_host(names[0])  # rank 1 of the Zipf law: the most linked host
    found = index.referring_hosts(hub)
    degree = int(np.sum(targets == 0)) - sum(1 for a, b in edges if a == b == 0)
    assert len(found) == degree > 1000
    steps = 2 * (int(np.log2(hosts)) + 2)  # the binary search, for the host and its www. twin
    longest = max(map(len, names))
    assert counters["in_sources"].read == degree
    assert counters["in_offsets"].read == 2
    assert counters["name_offsets"].read <= 2 * (steps + degree)
    assert counters["_names"].read <= longest * (steps + degree)
    assert counters["out_degree"].read == 0
