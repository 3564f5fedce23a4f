"""URL-index lookups and ``site:``/``inurl:`` searches in Common Crawl's columnar URL index.

Common Crawl publishes each crawl's URL index a second time as Parquet files (schema:
``commoncrawl/cc-index-table``, ``cc-index-schema-flat.json``)::

    https://data.commoncrawl.org/crawl-data/CC-MAIN-YYYY-WW/cc-index-table.paths.gz
    https://data.commoncrawl.org/cc-index/table/cc-main/warc/crawl=CC-MAIN-YYYY-WW/
        subset=warc/part-00000-<uuid>.c000.gz.parquet       (about 300 files, some 200 GB)

The listing names the files of every subset (``warc``: successful captures;
``crawldiagnostics``: redirects, 404s...; ``robotstxt``); this adapter reads ``subset=warc``
only. A file's rows are sorted by ``url_surtkey`` (the files together only approximately), and
its footer holds each row group's min/max ``url_surtkey``. So a query with a SURT prefix reads
(:mod:`~bilingual_spider.search.parquet_ranges`):

1. once per crawl, the listing and every file's footer (one 64 KiB suffix Range request each,
   a second one for a larger footer), kept on disk under the search cache directory;
2. per answer page, the row groups whose url_surtkey range overlaps the query's, in key order,
   and of those only the column chunks it needs (``url_surtkey``, ``url``, ``fetch_status``,
   ``content_mime_detected``, ``content_languages``: 5 of 30 columns), each one Range request
   (adjacent chunks merged), decoded by pyarrow from the fetched bytes alone.

Every request goes through the search service as a Scrapy request (pacing, Retry-After on 429
and 5xx, retries, stats, the sandbox proxy); the adapter only plans and decodes. DuckDB's
``httpfs`` would do the same reads, but it downloads an extension at run time, which an offline
crawl cannot, and its requests would bypass the crawl's pacing and stats.

**Queries.** ``url_index`` queries (``exact``, ``prefix``, ``host``, ``domain``, as the CDX
server; ``pages_only`` keeps status 200 ``text/html``) and ``search`` text made of ``site:``
(a host and its subdomains, a domain, a TLD, or a host and path prefix), ``inurl:`` (a
substring of the URL without its scheme, as Google's fake), ``filetype:``/``ext:`` and
``language:`` (ISO 639-1 or 639-3; a capture whose ``content_languages`` has it, primary or
not). Results come in SURT order, ``page_size`` to a page; the continuation names the row
group and row to go on from.

**What it cannot do.** A search without ``site:`` (``inurl:en`` over the whole crawl) has no
SURT prefix: it would read every row group of every file, the work of Athena or Spark over the
table; it is refused (:class:`QueryRefused`), as are words (the index holds no page text) and
negated operators. Redirects and 404s (``crawldiagnostics``) are not searched. Stats:
``search/cc_columnar/bytes`` fetched against ``bytes_indexed`` (the total size of the files a
query's row groups were chosen from), ``row_groups_read`` and ``row_groups_skipped``.
"""

from __future__ import annotations

import asyncio
import gzip
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.parquet as pq

from bilingual_spider.language.codes import iso_639_3
from bilingual_spider.search.adapter import (
    SANDBOX_API,
    Fetch,
    FetchingAdapter,
    HttpAnswer,
    load_json,
)
from bilingual_spider.search.cc_index import parse_collinfo
from bilingual_spider.search.parquet_ranges import (
    TAIL_BYTES,
    byte_range,
    column_chunk_range,
    footer_length,
    merge_ranges,
    metadata_from_footer,
    parse_content_range,
    read_row_group,
    suffix_range,
)
from bilingual_spider.search.surt import after, surt, surt_host
from bilingual_spider.search.values import (
    SEARCH,
    URL_INDEX,
    AnswerError,
    FoundLink,
    HttpCall,
    QueryRefused,
    SearchPage,
    SearchQuery,
)

logger = logging.getLogger(__name__)

NAME = "cc_columnar"
REAL_URL = "https://data.commoncrawl.org"
SANDBOX_URL = f"{SANDBOX_API}/cc-data"
SUBSET = "warc"
KEY_COLUMN = "url_surtkey"
COLUMNS = (KEY_COLUMN, "url", "fetch_status", "content_mime_detected", "content_languages")
HTML_TYPES = ("text/html", "application/xhtml+xml")
MERGE_GAP = 16 * 1024
"""Column chunks at most this far apart are fetched in one request."""
_OPERATOR = re.compile(r"^(-?)(site|inurl|filetype|ext|language):(.+)$", re.IGNORECASE)


def listing_url(base_url: str, crawl: str) -> str:
    return f"{base_url.rstrip('/')}/crawl-data/{crawl}/cc-index-table.paths.gz"


def parse_listing(body: bytes, crawl: str) -> list[str]:
    """The paths of the crawl's ``subset=warc`` Parquet files in a ``cc-index-table.paths.gz``."""
    try:
        text = gzip.decompress(body).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise AnswerError(f"the index listing is not gzipped text: {exc}") from None
    marker = f"/crawl={crawl}/subset={SUBSET}/"
    paths = [p.strip() for p in text.splitlines() if marker in p and p.strip().endswith(".parquet")]
    if not paths:
        raise AnswerError(f"the index listing names no {SUBSET} Parquet file of {crawl}")
    return sorted(paths)


# --- queries -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KeyRange:
    """The SURT keys ``[low, high)`` a query may match."""

    low: str
    high: str

    @classmethod
    def prefix(cls, prefix: str) -> KeyRange:
        return cls(prefix, after(prefix))

    def holds(self, key: str) -> bool:
        return self.low <= key < self.high

    def overlaps(self, smallest: str, largest: str) -> bool:
        """Whether a row group with these min/max keys may hold a key of the range."""
        return largest >= self.low and smallest < self.high


@dataclass(frozen=True, slots=True)
class ColumnarQuery:
    """What rows a query keeps: its key range, then filters on each row."""

    keys: KeyRange
    host: str = ""
    """Keep URLs of this host or its subdomains (a SURT key drops ``www``, a ``site:`` not)."""
    inurl: tuple[str, ...] = ()
    filetypes: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    pages_only: bool = False

    def keeps(self, url: str, status: int | None, mime: str, languages: tuple[str, ...]) -> bool:
        bare = url.partition("://")[2].lower()
        host = (urlsplit(url).hostname or "").lower()
        if self.host and host != self.host and not host.endswith("." + self.host):
            return False
        if not all(term in bare for term in self.inurl):
            return False
        if self.filetypes and file_type(url, mime) not in self.filetypes:
            return False
        if self.languages and not set(self.languages) & set(languages):
            return False
        return not self.pages_only or (status == 200 and mime in HTML_TYPES)


def file_type(url: str, mime: str) -> str:
    """What ``filetype:`` sees: the extension of the URL's file name; ``html`` for ``.htm``
    and for an extension-less HTML page."""
    name = urlsplit(url).path.rsplit("/", 1)[-1].lower()
    extension = name.rsplit(".", 1)[1] if "." in name else ""
    if extension in ("htm", "html") or (not extension and mime in HTML_TYPES):
        return "html"
    return extension


def plan(query: SearchQuery) -> ColumnarQuery:
    """The key range and filters of a query; :class:`QueryRefused` when it has no key range."""
    if query.kind == URL_INDEX:
        return ColumnarQuery(index_range(query.target, query.scope), pages_only=query.pages_only)
    if query.kind != SEARCH:
        raise QueryRefused(f"{NAME} answers url_index and search queries, not {query.kind}")
    sites: list[str] = []
    values: dict[str, list[str]] = {"inurl": [], "filetype": [], "language": []}
    for term in query.target.split():
        match = _OPERATOR.match(term)
        if match is None or match[1]:
            raise QueryRefused(
                f"{NAME} answers only site:, inurl:, filetype: and language: (not {term!r}): "
                "the URL index holds no page text"
            )
        operator, value = match[2].lower(), match[3].lower()
        if operator == "site":
            sites.append(value)
        else:
            values["filetype" if operator == "ext" else operator].append(value)
    if len(sites) != 1:
        raise QueryRefused(
            f"{NAME} needs exactly one site: (a host, domain or URL prefix): without one the "
            "query reads the whole crawl's index, a job for Athena or Spark over the table"
        )
    host, keys = site_range(sites[0])
    languages = []
    for code in values["language"]:
        language = iso_639_3(code)
        if language is None:
            raise QueryRefused(f"language:{code}: no ISO 639-3 code known")
        languages.append(language)
    return ColumnarQuery(
        keys,
        host,
        tuple(values["inurl"]),
        tuple(f.lstrip(".") for f in values["filetype"]),
        tuple(languages),
    )


def index_range(target: str, scope: str) -> KeyRange:
    """The keys of a CDX-style lookup (``matchType`` ``exact``, ``prefix``, ``host``,
    ``domain``; the domain's own keys and its subdomains')."""
    if scope in ("", "exact"):
        key = surt(target)
        return KeyRange(key, key + "\0")
    if scope == "prefix":
        return KeyRange.prefix(surt(target))
    host = urlsplit(target if "://" in target else f"http://{target}").hostname or ""
    if scope == "host":
        return KeyRange.prefix(surt_host(host) + ")/")
    return KeyRange(surt_host(host) + ")", surt_host(host) + "-")


def site_range(site: str) -> tuple[str, KeyRange]:
    """(host to keep, key range) of ``site:`` a host, domain, TLD or host and path prefix."""
    site = site.split("://", 1)[-1].strip(".")
    host, slash, path = site.partition("/")
    if slash:
        return host, KeyRange.prefix(surt(f"{host}/{path}"))
    return host, KeyRange(surt_host(host) + ")", surt_host(host) + "-")


# --- the adapter -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndexFile:
    """One Parquet file of the index, known by its footer."""

    path: str
    size: int
    metadata: pq.FileMetaData

    def key_bounds(self, row_group: int) -> tuple[str, str] | None:
        """min/max url_surtkey of a row group, None when the footer has no statistics."""
        group = self.metadata.row_group(row_group)
        for column in range(group.num_columns):
            chunk = group.column(column)
            if chunk.path_in_schema == KEY_COLUMN:
                stats = chunk.statistics
                if stats is None or not stats.has_min_max:
                    return None
                return _text(stats.min), _text(stats.max)
        raise AnswerError(f"{self.path} has no {KEY_COLUMN} column")

    def ranges(self, row_group: int) -> list[tuple[int, int]]:
        group = self.metadata.row_group(row_group)
        chunks = (group.column(c) for c in range(group.num_columns))
        return [column_chunk_range(c) for c in chunks if c.path_in_schema in COLUMNS]


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


class CcColumnar(FetchingAdapter):
    """Common Crawl's columnar URL index, read by ranges (see the module docstring)."""

    name: ClassVar[str] = NAME
    kinds: ClassVar[tuple[str, ...]] = (URL_INDEX, SEARCH)
    default_rate: ClassVar[float] = 1.0
    """data.commoncrawl.org publishes no limit (its S3 answers ``SlowDown``): one a second,
    as the host graph's downloads."""

    def __init__(
        self,
        cache_dir: Path,
        base_url: str = REAL_URL,
        crawl: str | None = None,
        collinfo_url: str | None = None,
        page_size: int = 100,
        max_row_groups: int = 20,
        decoded_row_groups: int = 8,
    ) -> None:
        super().__init__()
        self.base_url, self.crawl = base_url.rstrip("/"), crawl
        self.cache_dir = Path(cache_dir)
        self.collinfo_url = collinfo_url
        self.page_size, self.max_row_groups = page_size, max_row_groups
        self.files: list[IndexFile] | None = None
        self._decoded: OrderedDict[tuple[int, int], pa.Table] = OrderedDict()
        self._decoded_size = decoded_row_groups

    @property
    def sandbox(self) -> bool:
        return self.base_url.startswith(SANDBOX_API)

    @property
    def ready(self) -> bool:
        return self.files is not None

    def missing_configuration(self) -> str | None:
        if self.crawl is None and self.collinfo_url is None:
            return f"{NAME}: name a crawl (BILINGUAL_CC_COLUMNAR_CRAWL=CC-MAIN-YYYY-WW)"
        return None

    # --- preparing: the listing and every file's footer ------------------------------------

    async def prepare_fetching(self, fetch: Fetch) -> None:
        if self.crawl is None:
            assert self.collinfo_url is not None
            self.crawl = parse_collinfo(load_json((await fetch(HttpCall(self.collinfo_url))).body))
        directory = self.cache_dir / self.crawl
        listing = await fetch(HttpCall(listing_url(self.base_url, self.crawl)))
        paths = parse_listing(listing.body, self.crawl)
        files = await asyncio.gather(*(self._index_file(directory, p, fetch) for p in paths))
        self.files = list(files)
        logger.info(
            "%s: %d index files of %s, %.1f GB, %d row groups",
            NAME,
            len(files),
            self.crawl,
            sum(f.size for f in files) / 1e9,
            sum(f.metadata.num_row_groups for f in files),
        )

    async def _index_file(self, directory: Path, path: str, fetch: Fetch) -> IndexFile:
        """A file's footer, from the disk cache or by one or two Range requests."""
        stored = directory / (path.rsplit("/", 1)[-1] + ".footer")
        if stored.is_file():
            size_text, _, footer = stored.read_bytes().partition(b"\n")
            try:
                return IndexFile(path, int(size_text), metadata_from_footer(footer))
            except (ValueError, AnswerError):
                logger.warning("%s: footer cached in %s is unreadable, fetched again", NAME, stored)
        url = f"{self.base_url}/{path}"
        start, tail, size = _ranged(await fetch(_range_call(url, suffix_range(TAIL_BYTES))))
        if start + len(tail) != size:
            raise AnswerError(f"{path}: the suffix range did not reach the end of the file")
        needed = footer_length(tail) + 8
        if needed > size:
            raise AnswerError(f"{path}: the footer is longer than the file")
        if needed > len(tail):
            answer = await fetch(_range_call(url, byte_range(size - needed, start)))
            tail = _ranged(answer, size - needed, start)[1] + tail
        footer = tail[-needed:]
        index_file = IndexFile(path, size, metadata_from_footer(footer))
        stored.parent.mkdir(parents=True, exist_ok=True)
        staging = stored.with_name(stored.name + ".part")
        staging.write_bytes(b"%d\n" % size + footer)
        staging.replace(stored)
        self.counts["footers_fetched"] += 1
        return index_file

    # --- answering ------------------------------------------------------------------------

    def candidates(self, query: ColumnarQuery) -> tuple[list[tuple[int, int]], int]:
        """(file, row group) of every row group that may hold the query's keys, in key order,
        and how many row groups were skipped."""
        assert self.files is not None
        chosen: list[tuple[str, int, int]] = []
        total = 0
        for number, index_file in enumerate(self.files):
            for group in range(index_file.metadata.num_row_groups):
                total += 1
                bounds = index_file.key_bounds(group)
                if bounds is None or query.keys.overlaps(*bounds):
                    chosen.append((bounds[0] if bounds else "", number, group))
        return [(number, group) for _, number, group in sorted(chosen)], total - len(chosen)

    async def answer_fetching(
        self, query: SearchQuery, fetch: Fetch, continuation: str | None = None
    ) -> SearchPage:
        if self.files is None:
            raise RuntimeError(f"{NAME} is not prepared yet")
        wanted = plan(query)
        limit = query.limit or self.page_size
        groups, skipped = self.candidates(wanted)
        position, row = _parse_continuation(continuation, groups)
        if continuation is None:  # counted once a query
            self.counts["row_groups_skipped"] += skipped
            files = {number for number, _ in groups}
            self.counts["bytes_indexed"] += sum(self.files[n].size for n in files)
        links: list[FoundLink] = []
        read = 0
        while position < len(groups) and len(links) < limit and read < self.max_row_groups:
            table = await self._row_group(*groups[position], fetch)
            read += 1
            row = _collect(table, row, wanted, limit, links)
            if row >= table.num_rows:
                position, row = position + 1, 0
        following = None
        if position < len(groups) and not (query.kind == URL_INDEX and query.limit):
            following = "{}/{}/{}".format(*groups[position], row)
        return SearchPage(query, self.name, tuple(links), following)

    async def _row_group(self, number: int, group: int, fetch: Fetch) -> pa.Table:
        """The needed columns of a row group (fetched, or decoded before)."""
        key = (number, group)
        if key in self._decoded:
            self._decoded.move_to_end(key)
            return self._decoded[key]
        assert self.files is not None
        index_file = self.files[number]
        url = f"{self.base_url}/{index_file.path}"
        parts: dict[int, bytes] = {}
        for start, end in merge_ranges(index_file.ranges(group), MERGE_GAP):
            answer = await fetch(_range_call(url, byte_range(start, end)))
            parts[start] = _ranged(answer, start, end)[1]
        self.counts["row_groups_read"] += 1
        table = read_row_group(index_file.metadata, index_file.size, parts, group, COLUMNS)
        self._decoded[key] = table
        if len(self._decoded) > self._decoded_size:
            self._decoded.popitem(last=False)
        return table


def _collect(
    table: pa.Table, row: int, wanted: ColumnarQuery, limit: int, links: list[FoundLink]
) -> int:
    """Add the rows of ``table`` from ``row`` on that the query keeps, up to ``limit`` links;
    the row to go on from."""
    columns = [table.column(name).to_pylist() for name in COLUMNS]
    seen = {link.url for link in links}
    for number in range(row, table.num_rows):
        if len(links) >= limit:
            return number
        key, url, status, mime, languages = (column[number] for column in columns)
        found = tuple(x for x in (languages or "").split(",") if x)
        if not wanted.keys.holds(key or "") or url in seen:
            continue
        if wanted.keeps(url, status, mime or "", found):
            links.append(FoundLink(url=url, status=status, mime=mime or "", languages=found))
            seen.add(url)
    return table.num_rows


def _parse_continuation(continuation: str | None, groups: list[tuple[int, int]]) -> tuple[int, int]:
    """(position in ``groups``, row) of a continuation ``file/row_group/row``."""
    if not continuation:
        return 0, 0
    try:
        number, group, row = (int(x) for x in continuation.split("/"))
        return groups.index((number, group)), row
    except ValueError:
        raise ValueError(f"bad {NAME} continuation {continuation!r}") from None


def _range_call(url: str, value: str) -> HttpCall:
    return HttpCall(url, headers=(("Range", value),))


def _ranged(
    answer: HttpAnswer, start: int | None = None, end: int | None = None
) -> tuple[int, bytes, int]:
    """(start, bytes, file size) of a range answer (206; a 200 is the whole file), checked
    against the range asked when given."""
    if answer.status == 200:
        first, body, size = 0, answer.body, len(answer.body)
        if start is not None and end is not None:
            return start, body[start:end], size
        return first, body, size
    first, last, size = parse_content_range(answer.headers.get("content-range"))
    if last - first != len(answer.body):
        raise AnswerError("a range answer's body is not as long as its Content-Range says")
    if start is not None and (first, last) != (start, end):
        raise AnswerError(f"asked bytes {start}-{end}, got {first}-{last}")
    return first, answer.body, size
