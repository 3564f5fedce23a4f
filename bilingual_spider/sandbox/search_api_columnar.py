"""Common Crawl's columnar URL index (Parquet), over the same captures the CDX fake serves.

Laid out as on data.commoncrawl.org (``commoncrawl/cc-index-table``, flat schema)::

    /cc-data/crawl-data/<CRAWL>/cc-index-table.paths.gz          the files of every subset
    /cc-data/cc-index/table/cc-main/warc/crawl=<CRAWL>/subset=<SUBSET>/part-<NNNNN>-<uuid>.c000.gz.parquet

``subset=warc`` holds the status-200 captures, ``subset=crawldiagnostics`` the others. Within
a subset the captures are sorted by ``url_surtkey`` and cut into ``columnar_files`` files of
contiguous key ranges, written by pyarrow with gzip and row groups of
``columnar_row_group_rows`` rows, each with min/max statistics (as Spark writes them). The
files are answered as S3 answers objects: ``Range`` (206 with ``Content-Range``, 416 past the
end, the whole file for no or several ranges), ``HEAD``, and with ``rate_limit`` on, 429 or
503 ``SlowDown`` with ``Retry-After``.
"""

from __future__ import annotations

import datetime
import gzip
import io
import uuid
from collections.abc import Mapping

import pyarrow as pa
import pyarrow.parquet as pq

from bilingual_spider.sandbox.engine_index import registered_domain, split_url
from bilingual_spider.sandbox.search_api_commoncrawl import DATA_PREFIX, CdxIndex, s3_error
from bilingual_spider.sandbox.search_api_http import ApiAnswer, ranged_answer

PARQUET = "application/octet-stream"
SCHEMA = pa.schema(
    [
        ("url_surtkey", pa.string()),
        ("url", pa.string()),
        ("url_host_name", pa.string()),
        ("url_host_tld", pa.string()),
        ("url_host_registered_domain", pa.string()),
        ("url_host_name_reversed", pa.string()),
        ("url_protocol", pa.string()),
        ("url_port", pa.int32()),
        ("url_path", pa.string()),
        ("url_query", pa.string()),
        ("fetch_time", pa.timestamp("us", tz="UTC")),
        ("fetch_status", pa.int16()),
        ("content_digest", pa.string()),
        ("content_mime_type", pa.string()),
        ("content_mime_detected", pa.string()),
        ("content_charset", pa.string()),
        ("content_languages", pa.string()),
        ("warc_filename", pa.string()),
        ("warc_record_offset", pa.int32()),
        ("warc_record_length", pa.int32()),
        ("warc_segment", pa.string()),
    ]
)
"""The columns of ``cc-index-schema-flat.json`` the sandbox can fill, with their types."""


class ColumnarIndex:
    """The Parquet files of one crawl, built on the first request."""

    def __init__(self, cdx: CdxIndex, files: int, row_group_rows: int) -> None:
        self.cdx, self.crawl = cdx, cdx.collection
        self.file_count, self.row_group_rows = files, row_group_rows
        self._files: dict[str, bytes] | None = None

    @property
    def listing_path(self) -> str:
        return f"{DATA_PREFIX}crawl-data/{self.crawl}/cc-index-table.paths.gz"

    def files(self) -> dict[str, bytes]:
        """Path below data.commoncrawl.org (as the listing names it) -> the Parquet bytes."""
        if self._files is None:
            rows: dict[str, list[dict]] = {"warc": [], "crawldiagnostics": []}
            for position in range(len(self.cdx.keys)):
                row = _row(self.cdx.record(position))
                rows["warc" if row["fetch_status"] == 200 else "crawldiagnostics"].append(row)
            self._files = {}
            for subset, subset_rows in rows.items():
                self._files.update(self._write(subset, subset_rows))
        return self._files

    def _write(self, subset: str, rows: list[dict]) -> dict[str, bytes]:
        directory = f"cc-index/table/cc-main/warc/crawl={self.crawl}/subset={subset}"
        name = uuid.uuid5(uuid.NAMESPACE_URL, f"{self.crawl}/{subset}")
        count = max(1, min(self.file_count, len(rows)))
        written = {}
        for number in range(count):
            part = rows[number * len(rows) // count : (number + 1) * len(rows) // count]
            table = pa.Table.from_pylist(part, schema=SCHEMA)
            buffer = io.BytesIO()
            pq.write_table(table, buffer, row_group_size=self.row_group_rows, compression="gzip")
            written[f"{directory}/part-{number:05d}-{name}.c000.gz.parquet"] = buffer.getvalue()
        return written

    def answer(self, path: str, headers: Mapping[str, str]) -> ApiAnswer | None:
        """The listing or a file (None: not one of this index's paths)."""
        if path == self.listing_path:
            listing = "".join(f"{p}\n" for p in sorted(self.files())).encode()
            return ApiAnswer(200, gzip.compress(listing, mtime=0), "application/octet-stream")
        body = self.files().get(path[len(DATA_PREFIX) :]) if path.startswith(DATA_PREFIX) else None
        if body is None:
            if path.startswith(f"{DATA_PREFIX}cc-index/"):
                return s3_error(404, "NoSuchKey", "The specified key does not exist.", path)
            return None
        return ranged_answer(body, PARQUET, headers.get("range"))


def _row(record: dict[str, str]) -> dict:
    """A row of the flat schema from a CDX record of the fake."""
    url = record["url"]
    host, path_query = split_url(url)
    path, _, query = path_query.partition("?")
    moment = datetime.datetime.strptime(record["timestamp"], "%Y%m%d%H%M%S")
    scheme = url.partition("://")[0].lower()
    return {
        "url_surtkey": record["urlkey"],
        "url": url,
        "url_host_name": host,
        "url_host_tld": host.rsplit(".", 1)[-1],
        "url_host_registered_domain": registered_domain(host),
        "url_host_name_reversed": ".".join(reversed(host.split("."))),
        "url_protocol": scheme,
        "url_port": None,
        "url_path": path,
        "url_query": query or None,
        "fetch_time": moment.replace(tzinfo=datetime.UTC),
        "fetch_status": int(record["status"]),
        "content_digest": record["digest"],
        "content_mime_type": record["mime"],
        "content_mime_detected": record["mime-detected"],
        "content_charset": record.get("encoding"),
        "content_languages": record.get("languages"),
        "warc_filename": record["filename"],
        "warc_record_offset": int(record["offset"]),
        "warc_record_length": int(record["length"]),
        "warc_segment": record["filename"].split("/segments/")[1].split("/")[0],
    }
