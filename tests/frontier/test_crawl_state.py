"""A crawl state's format: parts back as they were saved; another spider's, a newer format's or
a damaged one refused in one line (issue 32)."""

from __future__ import annotations

import json
import pickle

import pytest

from bilingual_spider.frontier.bipartite import BipartiteGraph
from bilingual_spider.frontier.crawl_state import (
    CRAWL_STATE_FORMAT,
    CrawlStateError,
    decode_state,
    digest,
    encode_parts,
    header,
)


def test_parts_come_back_as_they_were_saved_and_unchanged_parts_give_the_same_bytes() -> None:
    graph = BipartiteGraph()
    graph.reach("a.example", ("url:hotel",))
    graph.add_backlink_page("http://hub.example/links", ("path:links",), ["a.example"])
    parts = {"pages": 12, "graph": graph}
    blobs = encode_parts(parts)
    back = decode_state(header("backforth", list(blobs)), blobs.get, "backforth", "f")
    assert back["pages"] == 12
    assert back["graph"].judge("a.example", True) == graph.judge("a.example", True)
    assert digest(encode_parts({"pages": 12})["pages"]) == digest(blobs["pages"])


def refusal(head: str, blobs: dict[str, bytes], spider: str = "backforth") -> str:
    with pytest.raises(CrawlStateError) as refused:
        decode_state(head, blobs.get, spider, "job/frontier.sqlite3")
    message = str(refused.value)
    assert "\n" not in message and message.startswith("job/frontier.sqlite3: ")
    return message


def test_another_spider_a_newer_format_or_damage_is_refused_in_one_line() -> None:
    blobs = encode_parts({"pages": 3})
    assert "of the backforth spider, not of pupsniffer" in refusal(
        header("backforth", ["pages"]), blobs, "pupsniffer"
    )
    newer = json.dumps({"format": CRAWL_STATE_FORMAT + 1, "spider": "backforth", "parts": []})
    assert "newer than this version" in refusal(newer, blobs)
    older = json.dumps({"format": 0, "spider": "backforth", "parts": []})
    assert "older format" in refusal(older, blobs)
    assert "damaged" in refusal("{not json", blobs)
    garbled = {"pages": pickle.dumps(3)[:-2]}
    assert "pages cannot be read" in refusal(header("backforth", ["pages"]), garbled)
    assert "graph is missing" in refusal(header("backforth", ["pages", "graph"]), blobs)
