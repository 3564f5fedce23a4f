"""Feed files whose every item is on disk as soon as it is exported (issue 32).

Scrapy's local feed storage writes through an 8 KB buffer that reaches the file when it fills or
when the crawl closes: a crawl killed (``kill -9``, out of memory, a power cut at the wrong time)
loses the last few dozen items it had already exported (about 60 of 909 pages in the issue's
test). This storage flushes after every write, and the JSON-lines exporter writes one item per
write: an item exported is in the file (the operating system's cache) even if the process dies
the next instant, and a line is never cut by the death of the process. It costs one ``write``
system call per item.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, Any

from scrapy.extensions.feedexport import FileFeedStorage
from scrapy.spiders import Spider


class FlushingWriter(io.BufferedWriter):
    """A binary file that flushes after each write."""

    def write(self, data: Any) -> int:
        written = super().write(data)
        self.flush()
        return written


class FlushedFileFeedStorage(FileFeedStorage):
    """``FEED_STORAGES`` for local files (``""`` and ``file``): Scrapy's, flushed per write."""

    def open(self, spider: Spider) -> IO[bytes]:
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return FlushingWriter(io.FileIO(path, self.write_mode))
