"""Settling what a killed crawl had in flight from what its feeds hold."""

from __future__ import annotations

import json
from pathlib import Path

from bilingual_spider.output.feed_recovery import settle_in_flight


def test_requests_whose_page_was_written_are_done_the_others_queued_again(tmp_path: Path) -> None:
    feed = tmp_path / "pages.jsonl"
    lines = [json.dumps({"url": f"http://a.example/{n}"}) for n in (1, 2)]
    feed.write_bytes(("\n".join(lines) + '\n{"url": "http://a.exa').encode())  # a cut last line
    leased = [(10, b"http://a.example/1"), (11, b"http://a.example/3"), (12, b"not a request")]

    def url_of(blob: bytes) -> str | None:
        return blob.decode() if blob.startswith(b"http") else None

    done, again, cut = settle_in_flight(leased, [feed], url_of)
    assert done == [10]
    assert again == [11, 12]  # not written, or unreadable: fetched again rather than lost
    assert cut == len('{"url": "http://a.exa')
    assert feed.read_text().splitlines() == lines
