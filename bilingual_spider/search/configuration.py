"""The adapters a crawl uses, read from its settings (``BILINGUAL_SEARCH_*``, ``BILINGUAL_MOZ_*``,
``BILINGUAL_BRAVE_*``, ``BILINGUAL_GOOGLE_CSE_*``, ``BILINGUAL_CC_INDEX_*``,
``BILINGUAL_CC_COLUMNAR_*``, ``BILINGUAL_HOSTGRAPH_*``; see ``bilingual_spider/settings.py``) and,
for the secrets, the environment.

When the sandbox web is configured (``BILINGUAL_SANDBOX_PROXY``), every remote adapter speaks to
the sandbox's fake of its service by default, with no rate limit of our own (the fake limits
only when its config says ``rate_limit = true``, and then answers 429 like the real service).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bilingual_spider.search import brave, cc_columnar, cc_hostgraph, cc_index, google_cse, moz
from bilingual_spider.search.adapter import SANDBOX_API, LocalAdapter, RemoteAdapter
from bilingual_spider.search.crawl_graph import CrawlLinkGraph
from bilingual_spider.search.embedded import EmbeddedBacklinks
from bilingual_spider.search.values import BACKLINKS, SEARCH, URL_INDEX

DEFAULT_CACHE_DIR = Path("~/.cache/bilingual_spider/search")
_ENVIRONMENT = {
    "BILINGUAL_MOZ_TOKEN": "MOZ_TOKEN",
    "BILINGUAL_MOZ_ACCESS_ID": "MOZ_ACCESS_ID",
    "BILINGUAL_MOZ_SECRET_KEY": "MOZ_SECRET_KEY",
    "BILINGUAL_GOOGLE_CSE_KEY": "GOOGLE_CSE_KEY",
    "BILINGUAL_GOOGLE_CSE_CX": "GOOGLE_CSE_CX",
    "BILINGUAL_BRAVE_KEY": "BRAVE_API_KEY",
}


class SettingsLike(Protocol):
    def get(self, name: str, default: Any = None) -> Any: ...


@dataclass
class SearchSetup:
    """Everything the service is built from."""

    remote: dict[str, RemoteAdapter]
    local: dict[str, LocalAdapter]
    crawl_graph: CrawlLinkGraph
    defaults: dict[str, str]
    """Query kind -> the adapter that answers it when a query names none."""
    rates: dict[str, float | None]
    hostgraph_pages: dict[str, str] = field(default_factory=dict)
    """Local adapter -> how its host-level backlinks become pages (``index`` or ``home``)."""


def secret(settings: SettingsLike, name: str, environ: Mapping[str, str]) -> str:
    """A secret from the settings, else from its environment variable (``MOZ_TOKEN``...)."""
    value = settings.get(name) or environ.get(_ENVIRONMENT.get(name, ""), "")
    return str(value or "").strip()


def build_setup(settings: SettingsLike, environ: Mapping[str, str] | None = None) -> SearchSetup:
    environ = os.environ if environ is None else environ
    sandbox = bool(settings.get("BILINGUAL_SANDBOX_PROXY"))

    def url(name: str, real: str, fake: str) -> str:
        return str(settings.get(name) or (fake if sandbox else real))

    moz_adapter = moz.MozLinks(
        url("BILINGUAL_MOZ_URL", moz.REAL_URL, moz.SANDBOX_URL),
        int(settings.get("BILINGUAL_MOZ_PAGE_SIZE")),
        secret(settings, "BILINGUAL_MOZ_ACCESS_ID", environ),
        secret(settings, "BILINGUAL_MOZ_SECRET_KEY", environ),
        secret(settings, "BILINGUAL_MOZ_TOKEN", environ),
    )
    google_url = url("BILINGUAL_GOOGLE_CSE_URL", google_cse.REAL_URL, google_cse.SANDBOX_URL)
    key, cx = (secret(settings, f"BILINGUAL_GOOGLE_CSE_{n}", environ) for n in ("KEY", "CX"))
    if google_url.startswith(google_cse.SANDBOX_URL):  # the fake wants some key and engine id
        key, cx = key or "sandbox-key", cx or "sandbox"
    google_adapter = google_cse.GoogleCse(google_url, google_cse.MAX_NUM, key, cx)
    brave_url = url("BILINGUAL_BRAVE_URL", brave.REAL_URL, brave.SANDBOX_URL)
    brave_key = secret(settings, "BILINGUAL_BRAVE_KEY", environ)
    if brave_url.startswith(brave.SANDBOX_URL):  # the fake wants some key
        brave_key = brave_key or "sandbox-key"
    brave_adapter = brave.BraveSearch(brave_url, brave.MAX_COUNT, brave_key)
    index_adapter = cc_index.CcIndex(
        url("BILINGUAL_CC_INDEX_URL", cc_index.REAL_URL, cc_index.SANDBOX_URL),
        settings.get("BILINGUAL_CC_INDEX_COLLECTION") or None,
    )
    cache_dir = Path(settings.get("BILINGUAL_SEARCH_CACHE_DIR") or DEFAULT_CACHE_DIR).expanduser()
    hostgraph_url = url("BILINGUAL_HOSTGRAPH_URL", cc_hostgraph.REAL_URL, cc_hostgraph.SANDBOX_URL)
    hostgraph_adapter = cc_hostgraph.HostGraphBacklinks(
        cache_dir
        / (
            "hostgraph-sandbox"
            if hostgraph_url.startswith(cc_hostgraph.SANDBOX_URL)
            else "hostgraph"
        ),
        hostgraph_url,
        str(settings.get("BILINGUAL_HOSTGRAPH_NAME")),
        int(settings.get("BILINGUAL_HOSTGRAPH_PAGE_SIZE")),
    )
    columnar_url = url("BILINGUAL_CC_COLUMNAR_URL", cc_columnar.REAL_URL, cc_columnar.SANDBOX_URL)
    columnar_adapter = cc_columnar.CcColumnar(
        cache_dir / ("columnar-sandbox" if columnar_url.startswith(SANDBOX_API) else "columnar"),
        columnar_url,
        settings.get("BILINGUAL_CC_COLUMNAR_CRAWL") or index_adapter.collection,
        f"{index_adapter.base_url}/collinfo.json",
        int(settings.get("BILINGUAL_CC_COLUMNAR_PAGE_SIZE")),
        int(settings.get("BILINGUAL_CC_COLUMNAR_MAX_ROW_GROUPS")),
    )
    graph = CrawlLinkGraph(
        int(settings.get("BILINGUAL_CRAWL_GRAPH_MAX_HOSTS")),
        int(settings.get("BILINGUAL_CRAWL_GRAPH_MAX_SOURCES")),
    )
    hostgraph_dir = settings.get("BILINGUAL_HOSTGRAPH_DIR") or None
    embedded = EmbeddedBacklinks(graph, Path(hostgraph_dir).expanduser() if hostgraph_dir else None)
    remote: dict[str, RemoteAdapter] = {
        a.name: a for a in (moz_adapter, brave_adapter, google_adapter, index_adapter)
    }
    local: dict[str, LocalAdapter] = {
        a.name: a for a in (hostgraph_adapter, embedded, columnar_adapter)
    }
    backlinks = settings.get("BILINGUAL_SEARCH_BACKLINKS") or (
        moz.NAME if (sandbox or moz_adapter.missing_configuration() is None) else embedded.name
    )
    defaults = {
        BACKLINKS: str(backlinks),
        SEARCH: str(settings.get("BILINGUAL_SEARCH_WEB")),
        URL_INDEX: str(settings.get("BILINGUAL_SEARCH_URL_INDEX")),
    }
    for kind, name in defaults.items():
        adapter = remote.get(name) or local.get(name)
        if adapter is None or kind not in adapter.kinds:
            raise ValueError(f"{name!r} is no adapter for {kind} queries")
    explicit = settings.get("BILINGUAL_SEARCH_RATES") or {}
    if isinstance(explicit, str):  # -s BILINGUAL_SEARCH_RATES='{"moz": 1}'
        explicit = json.loads(explicit)
    explicit = dict(explicit)
    unknown = sorted(set(explicit) - set(remote) - set(local))
    if unknown:
        raise ValueError(f"BILINGUAL_SEARCH_RATES: unknown adapter(s) {', '.join(unknown)}")
    rates: dict[str, float | None] = {}
    every: dict[str, RemoteAdapter | LocalAdapter] = {**remote, **local}
    for name, adapter in every.items():
        real_rate = getattr(adapter, "default_rate", None)
        value = explicit.get(name, None if getattr(adapter, "sandbox", False) else real_rate)
        rates[name] = float(value) if value else None
    pages = settings.get("BILINGUAL_HOSTGRAPH_PAGES") or None
    if pages not in (None, "index", "home"):
        raise ValueError("BILINGUAL_HOSTGRAPH_PAGES must be index or home")
    hostgraph_pages = {hostgraph_adapter.name: pages or "index", embedded.name: pages or "home"}
    return SearchSetup(remote, local, graph, defaults, rates, hostgraph_pages)
