"""Debian packages fetched at set-up time: ``apt-get download`` into a cache and ``dpkg -x``
into an unpacked tree, never installing anything (the real sites of
:mod:`~bilingual_spider.sandbox.realsites` are Debian's translated documentation)."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bilingual_spider.sandbox.real_site import RealSite

logger = logging.getLogger(__name__)


class AptUnavailable(RuntimeError):
    """``apt-get`` or ``dpkg`` is not available, so the real sites cannot be fetched here."""


class FetchError(RuntimeError):
    """A package could not be downloaded or unpacked."""


APT_TIMEOUT = 3600.0


def fetch(
    cache_dir: str | os.PathLike[str],
    sites: Sequence[RealSite],
    apt_get: str = "apt-get",
    dpkg: str = "dpkg",
) -> Path:
    """Download the sites' packages into ``cache_dir/debs`` and unpack them into
    ``cache_dir/root``; return the root. Packages already there are neither downloaded nor
    unpacked again (a stamp file per .deb records a finished unpacking).

    Raises
    ------
    AptUnavailable
        ``apt_get`` (or ``dpkg``) is not on PATH and something is missing from the cache.
    FetchError
        A download or an unpacking failed; the message names the package.
    """
    cache = Path(cache_dir)
    debs, root, stamps = cache / "debs", cache / "root", cache / "stamps"
    for directory in (debs, root, stamps):
        directory.mkdir(parents=True, exist_ok=True)
    packages = list(dict.fromkeys(p for site in sites for p in site.packages))
    missing = [p for p in packages if deb_file(debs, p) is None]
    if missing:
        download(missing, debs, apt_get)
    for package in packages:
        deb = deb_file(debs, package)
        if deb is None:  # apt-get said it downloaded it, yet it is not there
            raise FetchError(f"apt-get download {package}: no {package}_*.deb in {debs}")
        stamp = stamps / f"{deb.name}.unpacked"
        if not stamp.exists():
            unpack(deb, root, dpkg)
            stamp.write_text(f"{deb.name}\n", encoding="utf-8")
    return root


def deb_file(debs: Path, package: str) -> Path | None:
    """The downloaded .deb of ``package`` (the last in name order if there are several)."""
    found = sorted(debs.glob(f"{package}_*.deb"))
    return found[-1] if found else None


def download(packages: Sequence[str], debs: Path, apt_get: str = "apt-get") -> None:
    """``apt-get download`` the packages into ``debs`` (through a scratch directory, so an
    interrupted download never leaves a partial .deb behind)."""
    executable = shutil.which(apt_get)
    if executable is None:
        raise AptUnavailable(
            f"{apt_get!r} is not on PATH: the real sites are Debian packages fetched with "
            f"`apt-get download` (missing: {', '.join(packages)})"
        )
    logger.info("downloading %d Debian package(s): %s", len(packages), " ".join(packages))
    with tempfile.TemporaryDirectory(dir=debs, prefix=".download-") as scratch:
        os.chmod(scratch, 0o755)  # apt drops privileges to _apt for downloads when it can
        result = _run([executable, "download", *packages], cwd=scratch)
        if result.returncode != 0:
            named = [p for p in packages if _mentions(result.output, p)]
            raise FetchError(
                f"apt-get download failed for {', '.join(named or packages)}: "
                f"{_tail(result.output)}\nIf the package lists are empty (a new machine or "
                "container), run `apt-get update` once and retry."
            )
        for deb in Path(scratch).glob("*.deb"):
            os.replace(deb, debs / deb.name)


def _mentions(output: str, package: str) -> bool:
    return re.search(rf"(?<![\w.+-]){re.escape(package)}(?![\w.+-])", output) is not None


def unpack(deb: Path, root: Path, dpkg: str = "dpkg") -> None:
    """``dpkg -x deb root``: unpack the files of a package without installing it."""
    executable = shutil.which(dpkg)
    if executable is None:
        raise AptUnavailable(f"{dpkg!r} is not on PATH: it is needed to unpack {deb.name}")
    logger.info("unpacking %s", deb.name)
    result = _run([executable, "-x", str(deb), str(root)])
    if result.returncode != 0:
        raise FetchError(f"dpkg -x {deb.name} failed: {_tail(result.output)}")


@dataclass(frozen=True)
class _Result:
    returncode: int
    output: str


def _run(command: list[str], cwd: str | Path | None = None) -> _Result:
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=APT_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return _Result(-1, f"timed out after {APT_TIMEOUT:.0f} s")
    return _Result(done.returncode, done.stdout)


def _tail(output: str, lines: int = 8) -> str:
    return "\n".join(output.strip().splitlines()[-lines:]) or "(no output)"
