"""What the sandbox server serves: mounts (host + path prefix -> directories) and per-host faults.

A config is one or more TOML files::

    [[mount]]
    host = "httpd.apache.org"
    prefix = "/docs/2.4/"
    dirs = ["/cache/overlays/apache", "/cache/root/usr/share/doc/apache2-doc/manual"]

    packs = ["pages"]               # page packs (generated worlds), relative to this file

    [hosts."slow.example"]          # faults of one host; [hosts."*"] applies to every other host
    latency_ms = 200
    error_rate = 0.1                # share of requests answered with error_status
    robots_txt = "User-agent: *\\nDisallow: /private/"

Every field of :class:`HostFaults` may appear under a host; the defaults are a well-behaved host.

The search/backlink API (:mod:`bilingual_spider.sandbox.search_api`, served at host
``api.sandbox.internal``) is configured by an ``[api]`` table; every field of :class:`ApiConfig`
may appear in it::

    [api]
    engine_dirs = ["engine"]        # the simulated engine's crawl, relative to this file
    backlink_coverage = 0.7
    rate_limit = true               # token buckets per endpoint family, off by default
    moz_per_second = 0.1

Several files may each have an ``[api]`` table: their engine directories are merged, later values
of the other fields win.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ANY_HOST = "*"


@dataclass(frozen=True)
class Mount:
    """A list of directories served, first match wins, under ``http://host/prefix``."""

    host: str
    prefix: str
    dirs: tuple[Path, ...]

    @classmethod
    def parse(cls, spec: str) -> Mount:
        """Parse the command-line form ``HOST[/PREFIX]=DIR``."""
        target, sep, directory = spec.partition("=")
        if not sep or not target or not directory:
            raise ValueError(f"mount {spec!r}: expected HOST[/PREFIX]=DIR")
        host, _, prefix = target.partition("/")
        return cls.make(host, "/" + prefix, [directory])

    @classmethod
    def make(cls, host: str, prefix: str, dirs: list[str] | list[Path]) -> Mount:
        """Build a mount with a normalised host and a prefix that starts and ends with ``/``."""
        host = host.strip().lower()
        if not host or "/" in host or " " in host:
            raise ValueError(f"mount: bad host name {host!r}")
        prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        paths = tuple(Path(d).expanduser().resolve() for d in dirs)
        missing = [str(p) for p in paths if not p.is_dir()]
        if missing:
            raise ValueError(f"mount {host}{prefix}: not a directory: {', '.join(missing)}")
        return cls(host, prefix, paths)


@dataclass(frozen=True)
class HostFaults:
    """How one host misbehaves. All off by default."""

    latency_ms: float = 0.0
    """Delay before every answer."""
    error_rate: float = 0.0
    """Share of requests answered with ``error_status`` (drawn with the server's seeded RNG)."""
    error_status: int = 503
    reset_rate: float = 0.0
    """Share of requests whose connection is reset without an answer."""
    redirect_loop_prefix: str = ""
    """Paths under this prefix redirect to each other for ever (``/loop/a`` <-> ``/loop/b``)."""
    huge_page_prefix: str = ""
    """Paths under this prefix answer an HTML page of ``huge_page_bytes``."""
    huge_page_bytes: int = 20_000_000
    charset_header: str | None = None
    """Charset named in Content-Type for HTML (``None``: no charset parameter; may be wrong)."""
    strip_meta_charset: bool = False
    """Remove ``<meta charset>`` declarations, so a page carries no charset at all."""
    robots_txt: str | None = None
    """Served at ``/robots.txt`` (else the mounted file, else 404)."""
    calendar_trap_prefix: str = ""
    """An endless calendar under this prefix: every month links to the next and previous one."""
    soft_404: bool = False
    """Answer missing pages with 200 and the not-found page (a soft 404)."""

    @classmethod
    def from_dict(cls, host: str, values: dict[str, Any]) -> HostFaults:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"hosts.{host}: unknown fault(s) {', '.join(unknown)}")
        faults = cls(**values)
        for name in ("error_rate", "reset_rate"):
            if not 0.0 <= getattr(faults, name) <= 1.0:
                raise ValueError(f"hosts.{host}.{name} must be in [0, 1]")
        return faults


RATE_LIMITED_FAMILIES = ("moz", "brave", "google", "cdx", "hostgraph", "columnar")


@dataclass(frozen=True)
class ApiConfig:
    """The search/backlink API over the simulated engine's index, and where each default comes from.

    Rate limits are token buckets: ``<family>_burst`` requests at once, refilled at
    ``<family>_per_second``; the families are ``moz`` (backlinks), ``brave`` and ``google``
    (search), ``cdx``
    (the Common Crawl URL index and its ``collinfo.json``) and ``hostgraph`` (graph downloads).
    """

    engine_dirs: tuple[Path, ...] = ()
    """Engine directories (``pages.tsv.gz``, ``links.tsv.gz``), merged in order."""
    seed: int | None = None
    """Seed of the coverage and noise hashes (``None``: the sandbox's top-level ``seed``)."""
    backlink_coverage: float = 0.7
    """Share of the true in-links that are in the backlink index. An assumption: no source gives
    the link coverage of a commercial index for a small web (Lawrence & Giles, Nature 400, 1999,
    found no engine covering more than 16% of the whole web). 0.7 keeps most links while making
    a crawler that trusts backlinks alone miss sites."""
    backlink_noise: float = 0.05
    """Share of backlink answers that are stale: the source does not (or no longer) link to the
    target. An assumption (Moz reports ``deleted`` links separately, but its index lags the web)."""
    backlink_max_results: int = 1000
    """Backlinks reachable per query across all pages (top-k). An assumption of the same order as
    the 1000 results a search engine lets you page through; Moz V1 documented a global cap of
    100,000 links per URL, which a small sandbox web never reaches."""
    collection: str = "CC-MAIN-2024-33"
    """Name of the Common Crawl collection the URL index answers as (``CC-MAIN-YYYY-WW``)."""
    hostgraph_name: str = "cc-main-2024-aug-sep-oct"
    """Name of the host-graph release (``cc-main-<year>-<months>``, as Common Crawl names them)."""
    cdx_block_lines: int = 3000
    """Index lines per ZipNum block, the unit of CDX pagination: 3000, the default of the ZipNum
    indexes Common Crawl serves with pywb (and ``lines_per_page`` in cdx_toolkit)."""
    cdx_page_size: int = 5
    """Blocks per CDX page when a request gives no ``pageSize``: 5, the ``pageSize`` that
    index.commoncrawl.org reports in ``showNumPages`` answers (from memory of its answers, not
    verified here); pywb's own default (``max_blocks``) is 10."""
    columnar_files: int = 4
    """Parquet files of the columnar index's ``subset=warc`` (Common Crawl writes about 300 a
    crawl); the captures, sorted by ``url_surtkey``, are cut into this many key ranges."""
    columnar_row_group_rows: int = 50
    """Rows per row group: small, so that a query's pruning shows on a small web."""
    rate_limit: bool = False
    """Answer over-limit requests with 429 and ``Retry-After``. Off by default."""
    commoncrawl_throttle_status: int = 429
    """Status of an over-limit Common Crawl request. Common Crawl's servers answer 503 ("slow
    down", as cdx_toolkit handles it); 429 by default so every family throttles alike."""
    moz_burst: int = 1
    moz_per_second: float = 0.1
    """Moz's documented free-tier limit: one request every ten seconds (Mozscape API wiki, "Rate
    Limiting", which also gives 10 a second for the paid tier and answered with 503 and
    ``Retry-After``)."""
    brave_burst: int = 1
    brave_per_second: float = 1.0
    """The Brave Search API's free plan: 1 request a second (its API reference's example,
    ``X-RateLimit-Limit: 1, ...``, and its plan page); paid plans allow 20 or 50 a second."""
    google_burst: int = 100
    google_per_second: float = 1.0
    """The Custom Search JSON API's default quota: 100 queries per 100 seconds per user (Google
    Cloud console quota; the 100 free queries a day are not modelled)."""
    cdx_burst: int = 5
    cdx_per_second: float = 1.0
    """An assumption: Common Crawl publishes no number and asks clients to slow down on 503."""
    hostgraph_burst: int = 10
    hostgraph_per_second: float = 1.0
    """An assumption: data.commoncrawl.org publishes no number (S3 answers ``SlowDown``)."""
    fault: str = ""
    """Fault mode (:mod:`bilingual_spider.sandbox.search_api_faults`): ``hang``, ``html``,
    ``huge``, ``cut``, ``401``, ``429`` or ``503``; empty: none."""
    fault_rate: float = 1.0
    """Share of the calls that meet the fault."""
    fault_families: tuple[str, ...] = ()
    """Endpoint families with the fault (``moz``, ``brave``, ...); empty: every one."""
    fault_calls: int | None = None
    """Only this many calls of those families meet the fault, then the API recovers."""
    columnar_burst: int = 10
    columnar_per_second: float = 5.0
    """The columnar index's files (data.commoncrawl.org too): an assumption as above."""

    @classmethod
    def from_dict(cls, values: dict[str, Any], engine_dirs: tuple[Path, ...]) -> ApiConfig:
        """Build from the keys of ``[api]`` tables (``engine_dirs`` already resolved)."""
        known = {f.name for f in fields(cls)} - {"engine_dirs"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"api: unknown key(s) {', '.join(unknown)}")
        if "fault_families" in values:
            values = {**values, "fault_families": tuple(values["fault_families"])}
        config = cls(engine_dirs=engine_dirs, **values)
        config.validate()
        return config

    @staticmethod
    def resolve_dirs(dirs: object, base: Path) -> tuple[Path, ...]:
        """``engine_dirs`` of one file, relative to its directory ``base``."""
        if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs):
            raise ValueError("api.engine_dirs must be a list of directories")
        paths = tuple((base / d).expanduser().resolve() for d in dirs)
        missing = [str(p) for p in paths if not p.is_dir()]
        if missing:
            raise ValueError(f"api.engine_dirs: not a directory: {', '.join(missing)}")
        return paths

    def validate(self) -> None:
        for name in ("backlink_coverage", "backlink_noise"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"api.{name} must be a number in [0, 1]")
        if self.backlink_noise >= 1.0:
            raise ValueError("api.backlink_noise must be below 1")
        for name in (
            "backlink_max_results",
            "cdx_block_lines",
            "cdx_page_size",
            "columnar_files",
            "columnar_row_group_rows",
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"api.{name} must be a positive integer")
        for family in RATE_LIMITED_FAMILIES:
            burst, rate = getattr(self, f"{family}_burst"), getattr(self, f"{family}_per_second")
            if not isinstance(burst, int) or isinstance(burst, bool) or burst < 1:
                raise ValueError(f"api.{family}_burst must be a positive integer")
            if not isinstance(rate, (int, float)) or rate <= 0:
                raise ValueError(f"api.{family}_per_second must be a positive number")
        unknown = sorted(set(self.fault_families) - set(RATE_LIMITED_FAMILIES))
        if unknown:
            raise ValueError(f"api.fault_families: unknown famil(ies) {', '.join(unknown)}")
        if self.commoncrawl_throttle_status not in (429, 503):
            raise ValueError("api.commoncrawl_throttle_status must be 429 or 503")
        if not isinstance(self.rate_limit, bool):
            raise ValueError("api.rate_limit must be true or false")
        seed = self.seed
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError("api.seed must be an integer")
        collection, graph = self.collection, self.hostgraph_name
        if not isinstance(collection, str) or not re.fullmatch(r"CC-MAIN-\d{4}-\d{2}", collection):
            raise ValueError("api.collection must look like CC-MAIN-YYYY-WW")
        if not isinstance(graph, str) or not re.fullmatch(r"[\w.-]+", graph):
            raise ValueError("api.hostgraph_name must be a plain name (letters, digits, - . _)")


@dataclass
class SandboxConfig:
    """Mounts and faults merged from any number of config files and command-line mounts."""

    mounts: list[Mount] = field(default_factory=list)
    faults: dict[str, HostFaults] = field(default_factory=dict)
    seed: int = 0
    packs: list[Path] = field(default_factory=list)
    """Page-pack directories (:mod:`bilingual_spider.sandbox.page_pack`), e.g. generated worlds."""
    api: ApiConfig | None = None
    """The search/backlink API (``None``: not configured, its host answers 404)."""
    _api_table: dict[str, Any] = field(default_factory=dict, repr=False)
    _api_dirs: tuple[Path, ...] = field(default=(), repr=False)

    def add_file(self, path: str | Path) -> None:
        """Merge a TOML config file (see the module docstring)."""
        path = Path(path)
        with path.open("rb") as f:
            data = tomllib.load(f)
        unknown = sorted(set(data) - {"mount", "hosts", "seed", "packs", "api"})
        if unknown:
            raise ValueError(f"{path}: unknown section(s) {', '.join(unknown)}")
        for entry in data.get("mount", []):
            try:
                self.mounts.append(
                    Mount.make(entry["host"], entry.get("prefix", "/"), entry["dirs"])
                )
            except KeyError as exc:
                raise ValueError(f"{path}: a [[mount]] lacks {exc.args[0]!r}") from None
        for host, values in data.get("hosts", {}).items():
            self.faults[host.lower()] = HostFaults.from_dict(host, values)
        self.seed = int(data.get("seed", self.seed))
        for entry in data.get("packs", []):
            pack = (path.parent / entry).resolve()  # relative to the config file
            if not pack.is_dir():
                raise ValueError(f"{path}: packs: not a directory: {pack}")
            self.packs.append(pack)
        if "api" in data:
            self._add_api_table(data["api"], path)

    def _add_api_table(self, table: object, path: Path) -> None:
        """Merge an ``[api]`` table: engine directories add up, later keys win."""
        if not isinstance(table, dict):
            raise ValueError(f"{path}: api must be a table ([api])")
        table = dict(table)
        try:
            dirs = ApiConfig.resolve_dirs(table.pop("engine_dirs", []), path.parent)
            values = {**self._api_table, **table}
            api = ApiConfig.from_dict(values, self._api_dirs + dirs)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{path}: {exc}") from None
        self._api_table, self._api_dirs, self.api = values, self._api_dirs + dirs, api

    def faults_for(self, host: str) -> HostFaults:
        return self.faults.get(host) or self.faults.get(ANY_HOST) or _NO_FAULTS


_NO_FAULTS = HostFaults()


def toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes)."""
    return json.dumps(value, ensure_ascii=False)


def render_sandbox_toml(mounts: Iterable[tuple[str, str, Sequence[Path]]]) -> str:
    """The sandbox server's ``[[mount]]`` config for ``(host, prefix, dirs)`` triples."""
    blocks = []
    for host, prefix, dirs in mounts:
        paths = ", ".join(toml_string(str(d)) for d in dirs)
        blocks.append(
            f"[[mount]]\nhost = {toml_string(host)}\nprefix = {toml_string(prefix)}\n"
            f"dirs = [{paths}]"
        )
    return "\n\n".join(blocks) + "\n"
