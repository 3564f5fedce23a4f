"""CSV feeds: nested fields as JSON, lists of strings as Scrapy joins them."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from bilingual_spider.items import UrlPairItem
from bilingual_spider.output.csv_feed import JsonFieldsCsvItemExporter


def exported(item: Any) -> dict[str, str]:
    out = io.BytesIO()
    exporter = JsonFieldsCsvItemExporter(out)
    exporter.start_exporting()
    exporter.export_item(item)
    exporter.finish_exporting()
    (row,) = csv.DictReader(io.StringIO(out.getvalue().decode("utf-8")))
    return row


def test_nested_fields_are_json_that_reads_back() -> None:
    verification = {"checks": ["langid", "similarity"], "probability": 0.97}
    row = exported(
        UrlPairItem(
            source_url="http://a.example/en/x.html",
            target_url="http://a.example/fr/x.html",
            source_lang="en",
            target_lang="fr",
            method="local",
            verification=verification,
        )
    )
    assert json.loads(row["verification"]) == verification
    assert row["method"] == "local"
    row = exported({"site": "a.example", "languages": ["en", "fr"], "evidence": [{"k": 1}]})
    assert row["languages"] == "en,fr" and json.loads(row["evidence"]) == [{"k": 1}]
