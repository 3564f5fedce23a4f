"""SURT keys (Sort-friendly URI Reordering Transform), the sort order of Common Crawl's indexes.

``http://www.Example.com/A?b=1&a=2`` -> ``com,example)/a?a=2&b=1``: the host reversed with
commas and without a leading ``www``, ``)``, the path in lower case with its query arguments
sorted (the form of the ``urlkey`` of the CDX index and ``url_surtkey`` of the columnar index).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_WWW = re.compile(r"^www\d*\.")


def surt_host(host: str) -> str:
    """``www.example.com`` -> ``com,example`` (a leading ``www``, ``www2`` ... is dropped)."""
    host = _WWW.sub("", host.lower().rstrip("."))
    return ",".join(reversed(host.split(".")))


def surt_path(path: str) -> str:
    """``/A?b=1&a=2`` -> ``/a?a=2&b=1``."""
    path, _, query = path.lower().partition("?")
    return f"{path}?{'&'.join(sorted(query.split('&')))}" if query else path


def surt(url: str) -> str:
    """The SURT key of an absolute URL (or of ``host/path`` without a scheme)."""
    parts = urlsplit(url if "://" in url else f"http://{url}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return f"{surt_host(parts.hostname or '')}){surt_path(path)}"


def after(prefix: str) -> str:
    """The smallest string greater than every string that starts with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)
