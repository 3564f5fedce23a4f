"""The request meta keys a crawl's frontier reads and writes, in every store (issue 53): spiders,
middlewares and the search service set or read them without knowing which frontier runs."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.utils.request import RequestFingerprinterProtocol

WORKER_LOCAL_META = "keep_on_worker"
"""Request meta key: the request is taken by the worker that queued it (still leased in Redis)."""
HELD_META = "frontier_held_id"
"""Request meta key: the id the scheduler's ``hold`` gave the request (it is in the frontier,
leased to this process, before it reaches the engine)."""
REDELIVERED_META = "frontier_redelivered"
"""Request meta key: the worker whose lease on the request expired (its work may be half done:
see :mod:`bilingual_spider.scheduler.leased_scheduler`)."""
FRONTIER_ID_META = "frontier_id"
"""Request meta key: the request's id in the frontier (Redis, or ``JOBDIR``'s), set when it is
taken (a page budget counts each id once:
:class:`~bilingual_spider.distributed.page_budget.SharedPageBudget`)."""
DUPLICATE_KEY_META = "duplicate_key"
"""Request meta key, ``(url, key)``: the request for ``url`` is a duplicate of any other with the
same key, whatever its URL (``backforth``'s forward and seed requests carry their site: one
request per site crawl-wide, as one process's bipartite graph keeps it). Bound to ``url``: a
request made from it for another URL with the same meta (a redirect) is filtered by its own
fingerprint. Filtered in the partition of the request's host: keys should not span hosts (a
backforth site is a host or a URL)."""


def duplicate_fingerprint(request: Request, fingerprinter: RequestFingerprinterProtocol) -> bytes:
    """What a frontier's duplicate filter compares: the request's fingerprint, or the digest of
    its :data:`DUPLICATE_KEY_META` key."""
    url, key = request.meta.get(DUPLICATE_KEY_META, (None, None))
    if url != request.url:  # none, or the key of the request this one was made from
        return fingerprinter.fingerprint(request)
    return hashlib.sha1(f"duplicate key {key}".encode()).digest()
