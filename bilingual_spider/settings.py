"""Scrapy settings of bilingual_spider: the embedded default (one process, no Redis).

Our own settings are named ``BILINGUAL_*`` and documented here with their defaults. Scrapy's are
set only where our default differs from Scrapy's, with the reason.
"""

import os

# tldextract fetches the Public Suffix List on first use, with no timeout (it hangs offline).
# Scrapy's cookie middleware builds such an extractor; the bundled snapshot must be used instead.
# (Effective only if set before tldextract builds an extractor; .ci/run and the CLI export it too.)
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

BOT_NAME = "bilingual_spider"
SPIDER_MODULES = ["bilingual_spider.spiders"]
NEWSPIDER_MODULE = "bilingual_spider.spiders"

USER_AGENT = "bilingual_spider/0.1 (parallel-corpus research crawler)"

# --- safety: both of these run Python sent to them over the network; never on in what we ship.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False

# --- politeness (real web). Crawls of the local sandbox pass -s DOWNLOAD_DELAY=0.
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 2
DOWNLOAD_DELAY = 0.5
# Scrapy 2.19 creates CONCURRENT_ITEMS asyncio tasks per response; 100 made crawls slower here.
CONCURRENT_ITEMS = 10
COOKIES_ENABLED = False  # a corpus crawler needs no sessions, and this avoids tldextract's fetch
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 8 * 1024 * 1024  # larger pages are no documents we can align
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
REDIRECT_MAX_TIMES = 5
RETRY_TIMES = 2
LOGSTATS_INTERVAL = 30.0  # the progress line
FEED_EXPORT_ENCODING = "utf-8"

# --- the frontier. Embedded default: Scrapy's scheduler and priority queue (resume with JOBDIR).
# Setting REDIS_URL (here, by -s or in the environment) switches to the scrapy-redis scheduler.
REDIS_URL = os.environ.get("REDIS_URL") or None
BILINGUAL_REDIS_KEY_PREFIX = "bilingual_spider"
"""Prefix of every Redis key (queue ``PREFIX:SPIDER:requests``, ``PREFIX:SPIDER:dupefilter``)."""
ADDONS = {"bilingual_spider.scheduler.backend.SchedulerBackend": 0}

# --- the sandbox web and network safety
BILINGUAL_SANDBOX_PROXY = os.environ.get("BILINGUAL_SANDBOX_PROXY") or None
"""``http://127.0.0.1:PORT`` of a running sandbox server: every http request goes through it."""
BILINGUAL_SANDBOX_CACHE = os.environ.get("BILINGUAL_SANDBOX_CACHE") or None
"""Where ``bilingual-spider sandbox fetch`` put the real sites (default: ~/.cache/...)."""
BILINGUAL_ALLOWED_NETWORKS: list[str] = []
"""CIDR blocks admitted although private/loopback/link-local (e.g. ``["10.1.0.0/16"]``)."""
BILINGUAL_ALLOWED_HOSTS: list[str] = []
"""Host names admitted whatever they resolve to."""

# --- charsets: HTML pages are decoded in the charset their bytes are in (stats ``charset/*``).
BILINGUAL_CHARSET_ENABLED = True
"""Detect the charset of HTML pages that declare none, and replace a declaration the bytes
contradict (see :mod:`bilingual_spider.middlewares.charset`)."""
BILINGUAL_CHARSET_MAX_ERROR_SHARE = 0.2
"""A declared charset is distrusted when more than this share of the non-ASCII characters it reads
are decoding errors (a wrong charset: 54-100 %; a stray bad byte in a UTF-8 page is tolerated)."""

DOWNLOADER_MIDDLEWARES = {
    "bilingual_spider.middlewares.network_safety.NetworkSafetyMiddleware": 50,
    # after HttpCompressionMiddleware (590) has decompressed, before MetaRefreshMiddleware (580)
    "bilingual_spider.middlewares.charset.CharsetMiddleware": 585,
    "bilingual_spider.middlewares.sandbox_proxy.SandboxProxyMiddleware": 740,
}

# --- outputs. JSONL through Scrapy feeds (-O found.jsonl); the TSV is for Bitextor.
ITEM_PIPELINES = {
    "bilingual_spider.pipelines.duplicates.DuplicatesPipeline": 100,
    "bilingual_spider.pipelines.bitextor_tsv.BitextorTsvPipeline": 800,
}
BILINGUAL_TSV_PATH = None
"""Write URL pairs as ``url1<TAB>url2<TAB>lang1<TAB>lang2<TAB>score`` here (off when unset)."""

EXTENSIONS = {"bilingual_spider.extensions.stats_file.StatsFile": 500}
BILINGUAL_STATS_FILE = None
"""Write the final crawl stats as JSON here (off when unset)."""
