"""A request serializer for the Redis frontier that stores a request in about a third of the
bytes of ``scrapy_redis.picklecompat``: the same pickle, without the fields a request leaves at
their defaults, deflated with a preset dictionary.

A serializer in scrapy-redis's sense (``SCHEDULER_SERIALIZER``: a module with ``dumps`` and
``loads`` of the dict ``Request.to_dict`` makes): ``loads(dumps(d)) == d``. A request of a crawl's
frontier (a link with its frontier tag and callbacks) pickles to about 500-600 bytes, of which
about 100 are fields at Scrapy's defaults (no headers, no body, no cookies, ``GET``, ...) and
most of the rest repeats itself (the URL's words again in its ``url:`` tokens) or every other
request (the dict's keys, the callback names, the tokens' ``around:``, ``host:`` prefixes).
Deflate (RFC 1951) with a preset dictionary of those shared strings (RFC 1950's FDICT) finds
both; each blob starts with a format byte. Blobs of ``picklecompat`` (which start with pickle's
PROTO opcode) are still read, so a crawl queued before keeps going.

:data:`DICTIONARY` is part of the format: blobs written with one dictionary cannot be read with
another, so a change of it needs a new :data:`FORMAT` byte.
"""

from __future__ import annotations

import pickle
import zlib
from typing import Any

FORMAT = b"\x01"
"""First byte of a blob: pickle without defaults, raw deflate with :data:`DICTIONARY`."""
PICKLE_PROTOCOL = 5
_WINDOW_BITS = -15  # raw deflate: no zlib header or checksum (6 bytes a blob)


def _defaults() -> dict[str, Any]:
    """``Request.to_dict`` values of a request built with Scrapy's defaults (fresh objects)."""
    return {
        "headers": {},
        "body": b"",
        "cookies": {},
        "encoding": "utf-8",
        "flags": [],
        "cb_kwargs": {},
        "dont_filter": False,
        "method": "GET",
        "priority": 0,
        "callback": None,
        "errback": None,
        "meta": {},
    }


_SHAPE = {
    "url": "https://www.example.com/en/index.html",
    "callback": "parse",
    "errback": "first_page_failed",
    "meta": {
        "role": "forward",
        "frontier": {
            "role": "forward",
            "tokens": [
                "url:~lang=same", "url:~lang=other", "url:html", "url:php", "url:index",
                "host:www", "host:com", "host:org", "host:net", "site:other", "diff:",
                "anchor:~lang=other", "around:~langs=", "around:", "anchor:", "title:", "alt:",
                "src:", "hreflang:",
            ],
            "version": 0,
        },
        "depth": 1,
        "link_text": "",
        "site": "",
    },
    "priority": 500,
    "dont_filter": True,
}  # fmt: skip
DICTIONARY = pickle.dumps(_SHAPE, protocol=PICKLE_PROTOCOL)
"""Strings most requests share: the pickle of a request's usual shape (keys, callbacks, the
frontier tag's token prefixes). Deflate starts each blob with this as its history."""


def dumps(request: dict[str, Any]) -> bytes:
    """The blob of a request dict (``Request.to_dict``)."""
    defaults = _defaults()
    kept = {k: v for k, v in request.items() if k not in defaults or v != defaults[k]}
    deflate = zlib.compressobj(6, zlib.DEFLATED, _WINDOW_BITS, zdict=DICTIONARY)
    data = pickle.dumps(kept, protocol=PICKLE_PROTOCOL)
    return FORMAT + deflate.compress(data) + deflate.flush()


def loads(blob: bytes) -> dict[str, Any]:
    """The request dict of a blob of :func:`dumps` (or of ``scrapy_redis.picklecompat``)."""
    if blob[:1] != FORMAT:
        return dict(pickle.loads(blob))  # picklecompat: written before (or by scrapy-redis)
    inflate = zlib.decompressobj(_WINDOW_BITS, zdict=DICTIONARY)
    data = inflate.decompress(blob[1:]) + inflate.flush()
    return {**_defaults(), **pickle.loads(data)}
