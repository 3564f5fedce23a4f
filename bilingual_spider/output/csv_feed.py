"""CSV feeds whose nested fields are JSON (``-O pairs.csv``).

Scrapy's CSV exporter writes a dict or list field with ``str()``: ``verification`` became
``{'checks': ['langid', ...]}``, which no CSV reader can take apart. Here a field that is a dict,
or a list holding anything but plain strings, is written as JSON; a list of strings stays
Scrapy's comma-joined text (``languages``: ``en,fr``).
"""

from __future__ import annotations

import json
from typing import Any

from scrapy.exporters import CsvItemExporter


class JsonFieldsCsvItemExporter(CsvItemExporter):
    def serialize_field(self, field: Any, name: str, value: Any) -> Any:
        if isinstance(value, dict) or (
            isinstance(value, list | tuple) and not all(isinstance(v, str) for v in value)
        ):
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return super().serialize_field(field, name, value)
