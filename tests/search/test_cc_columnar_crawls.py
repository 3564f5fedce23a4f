"""The columnar-index adapter in real Scrapy crawls (``search_spider.py``): its Range requests
go through the search service (paced, 503 with Retry-After honoured and retried, counted),
URL-index and search queries are answered, and a refused query ends in an error page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer
from tests.sandbox.test_search_api import TARGET, small_engine
from tests.search.test_adapter_crawls import api_config, by_label, crawl, query, urls

TARGET_PAGES = {
    "http://www.target.com/",
    TARGET,
    "http://www.target.com/fr/a.html",
    "http://www.target.com/list.php?lang=fr",
    "http://www.target.com/doc.pdf",
    "https://blog.target.com/x.html",
}


@pytest.fixture(scope="module")
def throttled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """Small row groups; data.commoncrawl.org's files at 4 a second, answering 503 beyond."""
    engine = small_engine(tmp_path_factory.mktemp("engine"))
    extra = """
        columnar_files = 4
        columnar_row_group_rows = 10
        rate_limit = true
        columnar_burst = 2
        columnar_per_second = 4.0
        commoncrawl_throttle_status = 503
        """
    config = api_config(tmp_path_factory.mktemp("columnar"), engine, extra)
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def test_ranges_through_scrapy_paced_retried_and_answered(throttled, tmp_path: Path) -> None:
    rounds = [
        [
            query("url_index", "target.com", "domain", "target", max_pages=5),
            query("search", "inurl:fr site:target.com", label="fr"),
            query("search", "inurl:en", label="refused"),
        ]
    ]
    answers, stats, log = crawl(
        throttled,
        tmp_path,
        rounds,
        BILINGUAL_SEARCH_URL_INDEX="cc_columnar",
        BILINGUAL_SEARCH_WEB="cc_columnar",
        BILINGUAL_CC_COLUMNAR_PAGE_SIZE=4,
    )
    target = by_label(answers, "target")  # the status-200 captures of target.com, 4 a page
    assert [len(p["links"]) for p in target] == [4, 2]
    assert sorted(urls(target)) == sorted(TARGET_PAGES)
    assert sorted(urls(by_label(answers, "fr"))) == [
        "http://www.target.com/fr/a.html",
        "http://www.target.com/list.php?lang=fr",
    ]
    (refused,) = by_label(answers, "refused")
    assert refused["links"] == [] and "needs exactly one site:" in refused["error"]
    # collinfo.json + the listing + 4 footers, then one range per row group read
    read = stats["search/cc_columnar/row_groups_read"]
    assert stats["search/cc_columnar/requests"] == 2 + 4 + read + stats.get(
        "search/cc_columnar/retried", 0
    )
    assert stats["search/cc_columnar/throttled"] >= 1  # 503 with Retry-After ...
    assert stats["search/cc_columnar/retried"] == stats["search/cc_columnar/throttled"]
    assert stats["search/cc_columnar/failed"] == 1
    assert stats["search/cc_columnar/gave_up"] == 1  # ... and only the refused query failed
    assert stats["search/cc_columnar/row_groups_skipped"] > read
    assert stats["search/cc_columnar/footers_fetched"] == 4
    assert "HTTP 503; again in" in log
