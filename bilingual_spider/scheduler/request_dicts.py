"""``Request.to_dict(spider=...)`` at the cost of the request, not of the spider.

Scrapy finds the names of a request's callback and errback by going through every member of the
spider (``scrapy.http.request._find_method``: ``inspect.getmembers``), which reads each of its
attributes and evaluates each of its properties, for every request queued: on a ``backforth``
worker, 14 % of the CPU a response costs (``benchmarks/distributed.py --profile``: 4.5 of 32 ms
a response under the profiler, one worker; more as workers push more requests a response).
:func:`request_to_dict` gives ``to_dict`` a stand-in holding only the request's own callbacks,
each found on the spider under its function's own name; Scrapy then finds them there as it
would on the spider (a method bound under another name too is named by its function's name,
which reads back to the same method). A callback that is not the spider's own method (a
function, another object's method) goes Scrapy's way (its search, and its error).
"""

from __future__ import annotations

from typing import Any

from scrapy import Request, Spider


class _Callbacks:
    """Stands for the spider in ``Request.to_dict``: one request's callbacks, under their names."""


def request_to_dict(request: Request, spider: Spider | None) -> dict[str, Any]:
    """``request.to_dict(spider=spider)``: the same dict (the scheduler's queues store it)."""
    stand_in = _Callbacks()
    for method in (request.callback, request.errback):
        if not callable(method):
            continue  # None, or a name already
        name = getattr(method, "__name__", "")
        own = getattr(type(spider), name, None) if name else None
        if getattr(method, "__self__", None) is not spider or own is None:
            return request.to_dict(spider=spider)
        if own is not getattr(method, "__func__", None):
            return request.to_dict(spider=spider)
        setattr(stand_in, name, method)
    return request.to_dict(spider=stand_in)
