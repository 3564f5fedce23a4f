"""How each site was first reached (``seed``, ``forward link of URL``, ...), crawl-wide: a
``backforth`` record of a bilingual site says it (``found_by``), and with several workers the
worker that judges a site is most often not the one that reached it (a site is judged by
whichever worker takes its last probe): before this, 334 of 495 records of an 8-worker crawl said
nothing.

Keys (``BASE`` is ``PREFIX:SPIDER``)::

    BASE:found_by  HASH  site -> how it was reached, noted by the worker that fetched its first
                         page (the request carries it) and read by the one that judges it;
                         forgotten then, unless the site is bilingual: a worker killed between
                         the verdict and writing the site's record leaves the verdict to be
                         emitted again by another (a redelivered request), whose record says
                         it too (one entry a bilingual site, as ``BASE:written`` holds)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bilingual_spider.distributed.connection import PatientRedis

if TYPE_CHECKING:
    pass

# KEYS: found_by; ARGV: site, keep ('1': the note stays). Its note, forgotten unless kept.
_TAKE = """
local how = redis.call('HGET', KEYS[1], ARGV[1])
if how and ARGV[2] ~= '1' then redis.call('HDEL', KEYS[1], ARGV[1]) end
return how or ''
"""


class SharedFoundBy:
    """How the sites of a crawl were reached, in Redis under ``base``."""

    def __init__(self, redis: PatientRedis, base: str) -> None:
        self.redis = redis
        self.key = f"{base}:found_by"
        self._take = redis.script(_TAKE)

    def note(self, site: str, how: str) -> None:
        """The first page of ``site`` was fetched, reached so (the first note stays)."""
        self.redis.call(self.redis.client.hsetnx, self.key, site, how)

    def take(self, site: str, keep: bool = False) -> str:
        """How ``site`` was reached ("" when not noted), forgotten (it has its verdict) unless
        ``keep`` (a bilingual site: its record may be written again, see the module)."""
        how = self._take([self.key], [site, "1" if keep else "0"])
        return how.decode() if isinstance(how, bytes) else str(how)
