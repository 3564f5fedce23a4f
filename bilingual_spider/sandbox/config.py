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
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ANY_HOST = "*"
_EXTRA_SECTIONS = {"api"}  # read by the search/backlink API


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


@dataclass
class SandboxConfig:
    """Mounts and faults merged from any number of config files and command-line mounts."""

    mounts: list[Mount] = field(default_factory=list)
    faults: dict[str, HostFaults] = field(default_factory=dict)
    seed: int = 0
    packs: list[Path] = field(default_factory=list)
    """Page-pack directories (:mod:`bilingual_spider.sandbox.page_pack`), e.g. generated worlds."""

    def add_file(self, path: str | Path) -> None:
        """Merge a TOML config file (see the module docstring)."""
        path = Path(path)
        with path.open("rb") as f:
            data = tomllib.load(f)
        unknown = sorted(set(data) - {"mount", "hosts", "seed", "packs", *_EXTRA_SECTIONS})
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

    def faults_for(self, host: str) -> HostFaults:
        return self.faults.get(host) or self.faults.get(ANY_HOST) or _NO_FAULTS


_NO_FAULTS = HostFaults()
