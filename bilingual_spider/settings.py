"""Scrapy settings of bilingual_spider: the embedded default (one process, no Redis).

Our own settings are named ``BILINGUAL_*`` and documented here with their defaults. Scrapy's are
set only where our default differs from Scrapy's, with the reason.
"""

import os

from bilingual_spider import __version__

# tldextract fetches the Public Suffix List on first use, with no timeout (it hangs offline).
# Scrapy's cookie middleware builds such an extractor; the bundled snapshot must be used instead.
# (Effective only if set before tldextract builds an extractor; .ci/run and the CLI export it too.)
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

BOT_NAME = "bilingual_spider"
# `scrapy crawl` refuses bad -a/-s values in one line before crawling (commands/crawl.py).
COMMANDS_MODULE = "bilingual_spider.commands"
SPIDER_MODULES = ["bilingual_spider.spiders"]
NEWSPIDER_MODULE = "bilingual_spider.spiders"

USER_AGENT = f"bilingual_spider/{__version__} (parallel-corpus research crawler)"

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
# Scrapy re-parses a callback's source (ast) on most responses to warn about generators that
# return a value: 2.7 % of a back-and-forth crawl's CPU here. Our callbacks are tested instead.
WARN_ON_GENERATOR_RETURN_VALUE = False
COOKIES_ENABLED = False  # a corpus crawler needs no sessions, and this avoids tldextract's fetch
DOWNLOAD_TIMEOUT = 30
DOWNLOAD_MAXSIZE = 8 * 1024 * 1024  # larger pages are no documents we can align
DOWNLOAD_WARNSIZE = 2 * 1024 * 1024
REDIRECT_MAX_TIMES = 5
RETRY_TIMES = 2
LOGSTATS_INTERVAL = 30.0  # the progress line
FEED_EXPORT_ENCODING = "utf-8"
BILINGUAL_RUN_DIR = None
"""Write the crawl's feeds (one per item type) and stats file in this directory (``-a out=DIR``;
``scrapy crawl`` picks ``out/SPIDER/DATE-TIME`` when no feed is given)."""
FEED_STORAGES = {
    "": "bilingual_spider.output.flushed_feed.FlushedFileFeedStorage",
    "file": "bilingual_spider.output.flushed_feed.FlushedFileFeedStorage",
}
"""Local feeds (``-O``, the run directory's) are flushed after every item: a killed crawl loses
none it exported (``output/flushed_feed.py``)."""
# CSV feeds write nested fields (a pair's verification, a verdict's evidence) as JSON.
FEED_EXPORTERS = {"csv": "bilingual_spider.output.csv_feed.JsonFieldsCsvItemExporter"}

# --- the frontier. Embedded default: Scrapy's scheduler and priority queue (resume with JOBDIR).
# Setting REDIS_URL (here, by -s or in the environment) switches to the leased Redis frontier
# shared by every worker (bilingual_spider/scheduler/leased_scheduler.py), and the shared state.
REDIS_URL = os.environ.get("REDIS_URL") or None
REDIS_PARAMS = {"socket_timeout": 10, "socket_connect_timeout": 3}
"""Client parameters, read by scrapy-redis's ``get_redis_from_settings`` over its own defaults
(``retry_on_timeout``, ``encoding``); a ``password`` or ``ssl`` for a remote Redis goes here."""
SCHEDULER_SERIALIZER = "bilingual_spider.scheduler.compact_serializer"
"""Module (``dumps``/``loads``) serializing the requests in the Redis frontier (scrapy-redis's
setting). Ours stores a crawl's request in about a third of the bytes of scrapy-redis's default,
``scrapy_redis.picklecompat`` (whose blobs it also reads)."""
BILINGUAL_CRASH_SAFE_FRONTIER = False
"""With JOBDIR (and no REDIS_URL): keep the frontier, the duplicate filter and the page count in
``JOBDIR/frontier.sqlite3``, committed as they change, so that the same command resumes a crawl
killed with ``kill -9`` (scheduler/leased_scheduler.py): no page written twice or lost from
its JSON-lines feeds, CLOSESPIDER_PAGECOUNT counted over every run. ``forward`` sets it, and so
do ``backforth``, ``detect`` and ``pupsniffer``, whose crawl state's stores (sites, verdicts,
budget, classifiers, round store) are kept in the same file, committed with it
(bilingual_spider/state/). Off, a killed JOBDIR is refused."""
BILINGUAL_FRONTIER_PAGE_LIMIT = 0
"""Set by the scheduler add-on, not by hand: ``CLOSESPIDER_PAGECOUNT`` when the frontier counts it
(the leased one of ``JOBDIR``: every run; Redis: every worker). Scrapy's own count is then
off: it counts this process's responses, robots.txt's among them, and ended a resumed run or a
restarted worker before the crawl's budget was spent."""
BILINGUAL_REDIS_KEY_PREFIX = "bilingual_spider"
"""Prefix of every Redis key (frontier ``PREFIX:SPIDER:queue``, ``...:leases``, ``...:seen``;
seeds ``PREFIX:seeds``; see bilingual_spider/distributed/frontier.py for the layout)."""
BILINGUAL_REDIS_CLUSTER = os.environ.get("BILINGUAL_REDIS_CLUSTER", "").lower() in ("1", "true")
"""REDIS_URL names a node of a Redis Cluster (redis-py's ``RedisCluster``: the other nodes are
found from it). The frontier is then split into BILINGUAL_REDIS_PARTITIONS partitions by host,
each in keys of one hash tag (one master), and crawl-wide state in keys of its own tag
(bilingual_spider/distributed/partitions.py). Also from the environment (``1`` or ``true``)."""
BILINGUAL_REDIS_PARTITIONS = 0
"""Partitions of the Redis frontier, by host (a host's queue, leases, duplicate filter,
politeness and robots.txt in one, so every Lua script stays on one server). 0: 1 on one Redis
(the keys of before), 16 on a cluster (spread evenly over its masters). Fixed for a crawl: every
worker must use the same (a worker with another number refuses to start). More than 1 on one
Redis works too (the same code as on a cluster)."""
BILINGUAL_REDIS_LEASE_SECONDS = 60.0
"""A request taken by a worker stays leased this long without renewal (renewed every third of it
while in flight); a dead worker's requests go back to the queue after it. Also how long a worker
may hold the lock to retrain COBFC's shared classifiers (distributed/model_store.py)."""
BILINGUAL_REDIS_WORKER_NAME = None
"""This worker's name in the crawl's Redis keys (unset: ``host:pid:random``, new at each start).
Give each worker a name of its own (``-s BILINGUAL_REDIS_WORKER_NAME=w1``) and the same command,
run again after a kill, takes back the requests it had in flight at once: those in its output
are done, the others queued again (scheduler/leased_scheduler.py), and the per-host politeness
slots it held are freed (distributed/host_slots.py). Two live workers must never share a name."""
BILINGUAL_REDIS_IDLE_MAX_WAIT = 5.0
"""An idle worker asks Redis for work again after 0.1 s, doubling up to this many seconds."""
BILINGUAL_REDIS_RETRY_MAX_WAIT = 5.0
"""Redis unavailable: a worker tries again after 0.5 s, doubling up to this many seconds (a stop
signal still stops it)."""
BILINGUAL_REDIS_STARTUP_TIMEOUT = 3.0
"""``scrapy crawl`` with REDIS_URL: a Redis that does not answer a PING within this many seconds
(a closed port, a typo) stops the command before the crawl starts, in one line (exit status 1)."""
BILINGUAL_REDIS_SHARED_END = ["budget"]
"""Close reasons of one worker that end the crawl for every worker. The page budget
(``-a budget=``) is counted by all the workers together (``PREFIX:SPIDER:counters``)."""
BILINGUAL_REDIS_DUPEFILTER = "set"
"""How the workers filter requests queued before: ``set``, an exact Redis set of fingerprints (no
request is ever dropped wrongly; memory grows with every URL), or ``bloom``, a Redis bitmap of
a fixed size (``PREFIX:SPIDER:bloom``, k bits tested and set atomically in the push script).
The Bloom filter's trade-off: a false positive means a URL never queued is taken for one seen,
so it is never crawled (lost, counted in ``dupefilter/filtered`` like a true duplicate), with
probability BILINGUAL_REDIS_BLOOM_ERROR_RATE once BILINGUAL_REDIS_BLOOM_CAPACITY URLs were
queued, and more past it. Memory per million URLs at p = 0.001: the Bloom filter 1.8 MB (14.4
Mbit, 10 hashes; MEMORY USAGE 1.84 MB), the set 80.4 MB (MEMORY USAGE of a set of 1,000,000
40-character fingerprints, measured on Redis 7.0), about 44 times more. Every worker of one
crawl must use the same three settings (a worker with others refuses to start)."""
BILINGUAL_REDIS_BLOOM_CAPACITY = 10_000_000
"""With ``bloom``: the URLs the filter is sized for (10 million at 0.001: 18.0 MB)."""
BILINGUAL_REDIS_BLOOM_ERROR_RATE = 0.001
"""With ``bloom``: the false-positive rate at capacity (the share of new URLs lost)."""
BILINGUAL_SHARED_POLITENESS = True
"""With REDIS_URL: DOWNLOAD_DELAY and CONCURRENT_REQUESTS_PER_DOMAIN hold per host across all
workers (keys ``PREFIX:host:HOST:*``), not per worker."""
BILINGUAL_ROBOTSTXT_TTL = 86400.0
"""With REDIS_URL: a host's robots.txt is fetched by one worker and kept in Redis this many
seconds for all (``PREFIX:robots:HOST``; RFC 9309 lets a crawler cache it 24 hours)."""
BILINGUAL_SITEMAPS = False
"""Read each host's sitemaps (``robots.txt`` ``Sitemap:`` lines, else ``/sitemap.xml``; index
files, gzip) before its first page: ``pupsniffer`` asks the pages of their translation groups
first and pairs their hreflang alternates (method ``sitemap``), judged as any pair; the detector
probes the translations they name for a site's first page. Off by default: it costs ``1 + files``
requests a host, outside the page budgets (``docs/sitemaps.md``)."""
BILINGUAL_SITEMAPS_MAX_FILES = 50
"""Most sitemap files read of one host (an index and the files it lists, breadth-first). A
multilingual site often lists one urlset a language (the Apache manual: an index and 11); the
host's pages listed stop at 50,000 whatever the count of files."""
BILINGUAL_SITEMAPS_MAX_BYTES = 10 * 1024 * 1024
"""Largest sitemap file downloaded, and read once decompressed (the protocol allows 50 MB)."""
BILINGUAL_RENDER_JS = False
"""Render with a headless browser (scrapy-playwright, Debian's chromium) the pages of the sites
whose raw HTML shows no link or a language menu a script builds
(:func:`~bilingual_spider.links.script_links.render_reason`); every other site is downloaded
plainly. Off by default: a rendered page costs many times a download (``docs/rendering.md``).
Needs the ``render`` extra (``pip install 'bilingual-spider[render]'``). Stats ``render/*``."""
BILINGUAL_RENDER_BROWSER = "chromium"
"""The browser rendering launches: a name on ``PATH`` or a path (Playwright's own download is
never used)."""
BILINGUAL_RENDER_CHECK_PAGES = 10
"""Pages of a site whose raw HTML is read for signs of script-built links; a site none of them
shows a sign on is never rendered."""
BILINGUAL_RENDER_TIMEOUT = 30.0
"""Seconds the browser waits for a page to load (``PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT``)."""
ADDONS = {
    "bilingual_spider.scheduler.backend.SchedulerBackend": 0,
    # a run directory (-a out=DIR): a feed per item type and the stats file, in one folder
    "bilingual_spider.output.run_directory.RunDirectory": 10,
    # BILINGUAL_RENDER_JS: scrapy-playwright's download handler and Debian's browser
    "bilingual_spider.middlewares.rendering.RenderingAddon": 20,
}

# --- the sandbox web and network safety
BILINGUAL_SANDBOX_PROXY = os.environ.get("BILINGUAL_SANDBOX_PROXY") or None
"""``http://127.0.0.1:PORT`` of a running sandbox server: every http request goes through it."""
BILINGUAL_SANDBOX_WAIT = 120.0
"""Seconds a crawl waits, before its first request, for the sandbox web to answer (it may still
be loading its sites); then the crawl stops with an error naming it."""
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
    # Scrapy's robots.txt middleware; REDIS_URL set: each host's robots.txt fetched once for all
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "bilingual_spider.middlewares.shared_robotstxt.SharedRobotsTxtMiddleware": 100,
    # BILINGUAL_SITEMAPS: a host's sitemaps read before its first page (after its robots.txt)
    "bilingual_spider.middlewares.sitemaps.SitemapMiddleware": 150,
    # BILINGUAL_RENDER_JS: the pages of sites whose links a script builds asked again through
    # the browser (sees responses after redirects and charset decoding)
    "bilingual_spider.middlewares.rendering.RenderingMiddleware": 160,
    # after HttpCompressionMiddleware (590) has decompressed, before MetaRefreshMiddleware (580)
    "bilingual_spider.middlewares.charset.CharsetMiddleware": 585,
    # REDIS_URL set: a host's delay and concurrency hold across all workers (after robots.txt)
    "bilingual_spider.middlewares.shared_politeness.SharedPolitenessMiddleware": 720,
    "bilingual_spider.middlewares.sandbox_proxy.SandboxProxyMiddleware": 740,
}

# --- the bilingual-site detector (Barbosa et al. 2011, sec. 2.1): bilingual_spider/detection/ and
# adapters/site_detection.py. Stats ``detector/*``; one INFO line per verdict.
BILINGUAL_DETECTOR_LANGS = "any"
"""Languages of interest, comma-separated (``en,es``): a site is bilingual when two of them each
have a page of their own. ``any``: any two languages."""
BILINGUAL_DETECTOR_MIN_LIKELIHOOD = 0.8
"""Links whose Link Predictor score reaches this are probed (the paper's crawl used 0.8)."""
BILINGUAL_DETECTOR_MAX_PROBES = 5
"""At most this many probe pages per site (None: every candidate link)."""
BILINGUAL_DETECTOR_PROBE_BATCH = 2
"""At most this many probes of one site in flight at once; a round asks only as many as languages
are still missing, and detection stops at the first bilingual evidence."""
BILINGUAL_DETECTOR_MIN_TEXT_CHARS = 100
"""A page counts for its language only with this many characters of main text in it (a Chinese
character counts as 2.5, a Japanese or Korean one as 2: see detection/detector.py)."""
BILINGUAL_DETECTOR_MIN_SHARE = 0.6
"""... and when that language is at least this share of the page's main text (mixed pages and
mostly-untranslated stubs count for no language)."""
BILINGUAL_DETECTOR_HOSTS = "related"
"""Links that may be probed: ``host`` (same host), ``domain`` (same registered domain) or
``related`` (also the same name under another suffix: example.com -> example.es)."""
BILINGUAL_DETECTOR_LANGUAGE_HINTS = True
"""When the links scoring >= the minimum likelihood are used up (or none does), probe the links
that name another language (hreflang, a language's name or code, a flag image), best score first,
within the probe budget: one low score cannot starve the detector."""
BILINGUAL_DETECTOR_CHOOSER_LABELS = True
"""A first page with little text that counts for no language is a language chooser, judged by
the pages its links lead to; with this, once a probe behind a link naming a language other than
English shows that very language, the chooser's link naming another language is believed (two
pages instead of three)."""
BILINGUAL_DETECTOR_CHOOSER_MAX_CHARS = 400
"""A first page with fewer characters of main text than this (and no language) is a chooser."""
BILINGUAL_DETECTOR_LADDER = True
"""When the first page says nothing (no link to probe, or no probe counted for a language), climb
the fallback ladder within the probe budget (detection/ladder.py): the page's URL with its
language unit substituted in the site's own code form (``/fr/`` -> ``/en/``, ``/sv-SE/`` ->
``/en-US/``), then the pages above it (the neutral root above a language directory, the site's
home page whatever the depth, the language root, the other parents; those the page links first,
one that fails skipped), each judged as a first page. False: the paper's single-page detector."""
BILINGUAL_DETECTOR_LADDER_SIBLINGS = 1
"""At most this many URL siblings (the page's URL in another language) per site: a marker swapped
(/fr/ -> /en/), as a directory, a file-name marker or a query parameter separate 36.9 %, up to
26.8 % and 15.4 % of WMT16's gold pairs; a marker on one side only (the default language
unmarked: dropped) separates 4.2 % (shared/data/README.md), so it is tried only as a second."""
BILINGUAL_DETECTOR_LADDER_ANCESTORS = 2
"""At most this many ancestor pages (choosers, home pages) that answered per site; one that
failed (HTTP 404) is skipped and counts against the probe budget only."""
BILINGUAL_DETECTOR_SECOND_LOOK = True
"""When the page behind a link naming a language X shows another language (a translated index
page whose untranslated licence outweighs its table of contents, an English copy under X's path),
probe one more page of X within the probe budget before calling X absent: another link naming X,
else a link of that page naming X. Issue 49."""
BILINGUAL_DETECTOR_OTHER_SITES = True
"""When nothing else is left to probe, probe the first page's links naming another language of
interest on another site (a toggle from ``www.parks-NAME.ca`` to ``www.parcs-NAME.ca``), each
counting only when its page links back to the first page's site naming the first page's
language. Only with ``BILINGUAL_DETECTOR_HOSTS = "related"``."""
BILINGUAL_DETECTOR_MODE = "detector"
"""``detector`` (Link Predictor + language identification) or ``link_predictor`` (the Link
Predictor alone: bilingual when a link scores >= the minimum likelihood; one page per site)."""
BILINGUAL_DETECTOR_SITE_KEY = "host"
"""What one verdict is about: ``host``, or ``url`` (every first URL is a site of its own)."""
BILINGUAL_DETECTOR_START = "page"
"""Which page a site is judged from: ``page``, the first of its pages the crawl reaches (the
paper's crawler), or ``home``, its home page (one more request when another page came first; with
host sites only). With ``home`` a verdict does not depend on the order pages arrive in, so several
workers find the sites one process finds."""
BILINGUAL_DETECTOR_PROBE_PRIORITY = 10_000
"""Priority of probe requests: above anything else the crawl schedules."""
BILINGUAL_DETECTOR_PROBE_TIMEOUT = 15.0
"""Download timeout of a probe, seconds (a verdict should not wait for a slow page)."""
BILINGUAL_DETECTOR_PROBE_RETRIES = 1
"""Retries of a probe that failed with a retryable error."""
BILINGUAL_DETECTOR_LINK_SCORER = "bilingual_spider.adapters.site_detection.PredictorLinkScorer"
"""Class that scores a page's links (``from_settings(settings)``, ``score(html, url)``)."""
BILINGUAL_DETECTOR_MODEL = None
"""A Link Predictor saved by ``LinkPredictor.save`` (``.npz``) to use instead of the shipped
``models/link_predictor.npz``."""
BILINGUAL_DETECTOR_AROUND_WORDS = 10
"""Words each side of a link that make its "around" context."""

# --- the back-and-forth crawl (Barbosa et al. 2011, sec. 2.2-3): spiders/backforth.py over
# bilingual_spider/frontier/. Spider arguments (-a) override these.
BILINGUAL_BACKFORTH_BUDGET: int | None = None
"""Pages to download (first pages, probes, backlink and forward pages; API answers do not count)
before the crawl ends. None: until the frontier is empty."""
BILINGUAL_BACKFORTH_LEARNING_INTERVAL = 500
"""COBFC retrains its Backlink and Forward-Link classifiers every this many pages (the paper
waited 20,000 pages of a 100,000-page crawl; sandbox worlds are smaller)."""
BILINGUAL_BACKFORTH_MAX_EXAMPLES = 20_000
"""Training examples kept per classifier and class (uniform reservoir: memory stays flat)."""
BILINGUAL_BACKFORTH_SEED = 0
"""Seed of FC's random order and of the reservoirs: a crawl of the sandbox is reproducible."""
BILINGUAL_BACKFORTH_BACKLINK_SCOPE = "page"
"""Whose backlinks a bilingual site's expansion asks: ``page``, the links to the page the detector
judged (the paper: "the backlinks to this page"), or ``host``, the links to any page of its host.
With ``page`` what a crawl finds depends on which page of a site it judged first, so on the order
of responses (several workers see another order than one process); ``host`` does not."""
BILINGUAL_BACKLINK_EXPANSION = False
"""Backlink expansion (``middlewares/backlink_expansion.py``, for any spider): each bilingual
site's backlinks are asked, their pages fetched, and their out-of-site links followed. True makes
``scrapy crawl forward`` a back-and-forth crawl (OBFC); ``backforth`` sets it for OBFC and COBFC."""
BILINGUAL_FOCC_TOPIC = "travel"
"""Topic of the focused-crawler baseline FocC (its page classifier: models/topic_<topic>.npz,
made by ``bilingual-spider train topic-classifier --topic T``)."""
# --- scrapy crawl pupsniffer (Zhang et al. 2018) ---
BILINGUAL_PUPSNIFFER_SITE_BUDGET = 500
"""Pages crawled per site (``-a site_budget=``): the paper crawled whole sites; patterns need
enough pages of each language to be credible."""
BILINGUAL_PUPSNIFFER_DEEP_PER_SITE = 50
"""Deep-page candidates (4.3) checked per site and round, most credible patterns first."""
BILINGUAL_PUPSNIFFER_NEXT_SITES = 20
"""External sites crawled in each further round (``-a next_sites=``), best WPR first (4.4)."""
BILINGUAL_PUPSNIFFER_VERIFIER = "default"
"""Content verification of every pair (``patterns/verification.py``: STRAND's alignment of the
two pages' markup, length ratio, shared untranslatable tokens, copy share): ``default`` (the
shipped ``models/pair_verifier.json``), a model file of ``bilingual-spider train pair-verifier``,
or ``""`` for none (pairs checked by language and links only)."""
BILINGUAL_PUPSNIFFER_VERSION_SITES = 20
"""Other sites a page names as holding its versions in a language (hreflang, a switcher) that the
crawl takes up in the same round, per page (0: none): a site's translations may live on other
hosts (ccTLD siblings ``NAME.com`` and ``NAME.de``, ``parks-NAME.ca`` and ``parcs-NAME.ca``,
``NAME-fr.org``). Each is a site of its own budget, found by ``versions of SITE``; its pages pair
with the site's by what they declare (``patterns/pair_first.py``)."""
BILINGUAL_PUPSNIFFER_PAIR_FIRST = True
"""Pair-first crawling (``patterns/crawl_order.py``; on: at 500 pages per site on the real sites
it fetched 703 true pairs in 1,522 pages against 728 in 2,608 breadth-first, 1.65x the pairs per
page, ``benchmarks/pupsniffer.py --pair-first``). New pages are asked for a few at a time; the
translations a page names (hreflang, switcher) and, once a site has patterns of its own, each
fetched page's counterparts are asked for first (they may take the whole site budget, new pages
60 % of it), a pattern whose counterparts are mostly missing stops making them, and a site
monolingual so far stops. False: breadth-first, as the paper. In a distributed crawl each worker
mines the pages it fetched itself."""
BILINGUAL_PATTERN_SCORING = False
"""URL-pattern credibility scoring (``middlewares/pattern_scoring.py``, for any spider but
``pupsniffer``, which pairs its pages itself): the pages of the crawl are mined for pairing
patterns whenever its frontier runs dry and every ``BILINGUAL_PATTERN_SCORING_EVERY`` pages;
verified pairs become items and unpaired pages' counterparts requests. True makes ``scrapy crawl
forward`` yield URL pairs. It reads ``BILINGUAL_PUPSNIFFER_VERIFIER`` and
``BILINGUAL_PUPSNIFFER_DEEP_PER_SITE``."""
BILINGUAL_PATTERN_SCORING_EVERY = 1000
"""Pattern scoring mines the pages seen after this many new pages, not only when the frontier
runs dry: a crawl that ends on a page budget (``CLOSESPIDER_PAGECOUNT``) or is stopped still
gets the pairs of all but its last pages (0: only when the frontier runs dry). Each mining reads
every page seen (the patterns' global credibility is across sites)."""
BILINGUAL_PUPSNIFFER_MONOLINGUAL_AFTER = 50
"""With pair-first crawling, a site stops taking its budget after this many pages when 95 % are
in one language and no other is named in the URLs of 5 % of its in-site links (0: never)."""
BILINGUAL_PUPSNIFFER_STAGE_LOCK_SECONDS = 300.0
"""Distributed crawls: how long one worker may hold the lock to move the crawl to its next stage
(mine every page seen, emit the pairs, queue the deep pages or the next round's sites). A worker
killed while holding it holds up the others this long; one that outlives it loses the move, which
the next idle worker redoes."""

# --- focused crawling, for every spider (bilingual_spider/focus/, middlewares/language_focus.py
# and middlewares/quality_priority.py): they judge the links of each page a callback returns.
SPIDER_MIDDLEWARES = {  # a callback's output meets the higher number first: drop, then rank
    "bilingual_spider.middlewares.backlink_expansion.BacklinkExpansionMiddleware": 950,
    "bilingual_spider.middlewares.pattern_scoring.PatternScoringMiddleware": 940,
    "bilingual_spider.middlewares.language_focus.LanguageFocusMiddleware": 810,
    "bilingual_spider.middlewares.quality_priority.QualityPriorityMiddleware": 800,
}
BILINGUAL_FOCUS_LANGS = ""
"""Target languages, comma-separated (``ja``, ``zh,ko``; ``zh`` is both scripts). Set, it turns
the language focus on (stats ``focus/*``); empty: no language focus."""
BILINGUAL_FOCUS_MODE = "hard"
"""``hard`` (Chan and Yamana: keep a link with a target TLD, else a target-language anchor; drop
the rest) or ``soft`` (Tamura et al.: keep every link, higher priority for links from
target-language pages or with a target TLD or anchor)."""
BILINGUAL_FOCUS_EVIDENCE = ["url", "site", "tld", "anchor"]
"""The link evidence the rules read: ``url``, ``site``, ``tld``, ``anchor`` (tried in that order),
or some of them; Chan and Yamana's rules are ``tld,anchor``. ``url`` is ours: a link whose URL names
a language (``/en/``, ``en.``, ``_en.html``, ``lang=en``) is judged by it, so the TLD rule no longer
keeps the other-language half of a bilingual site under a target ccTLD, and a ``/ja/`` link on a
``.com`` is kept. ``site`` is ours too: once a site (host without its subdomain unit) is seen to
mark its target-language pages in their URLs (a link or a fetched page with ``/ja/``, ``ja.``,
``_ja``, ``lang=ja``), its unmarked URLs (most often its primary English version) are no longer kept
by the TLD rule and fall to the anchor rule; stat ``focus/dropped_unmarked_on_marked_site``. Both on
by default because they raised the hard focus's target share at the same pages per second
(benchmarks/language_focus.py, 2 rounds, focus world, 100 seeds per target language as in the
paper: TLD + anchor ja 0.838, ko 0.802, zh 0.788; with url 0.913, 0.879, 0.875; with url and site
0.964, 0.959, 0.971; from 100 seeds common to all targets: TLD + anchor 0.785, 0.700, 0.538, with
url and site 0.927, 0.910, 0.815); the URL markers matched the language of all 2,568 marked pages
of the real sites' gold pairs."""
BILINGUAL_FOCUS_YIELD = "none"
"""Tamura et al.'s variants: ``server`` or ``directory`` adds a preference for links into the
servers (directories) that have yielded target-language pages; ``none``: off."""
BILINGUAL_FOCUS_YIELD_WEIGHT = 0.5
"""Share of a link's relevance that comes from its server's or directory's yield."""
BILINGUAL_QUALITY_ENABLED = False
"""Schäfer et al. 2014: assess every page (language, text outside boilerplate, Badness) and count
the crawl's document yield (stats ``quality/*``); with BILINGUAL_QUALITY_PRIORITY, prioritise."""
BILINGUAL_QUALITY_LANGS = ""
"""Languages the quality yield keeps and Badness is measured in; empty: BILINGUAL_FOCUS_LANGS,
and when that is empty too, any language (Badness in the page's own)."""
BILINGUAL_QUALITY_PRIORITY = True
"""Add to each link's priority its context's quality (off: count the yield only, as a baseline)."""
BILINGUAL_QUALITY_BADNESS_WEIGHT = 0.5
"""Weight of the page's Badness in a link's quality priority ..."""
BILINGUAL_QUALITY_BOILERPLATE_WEIGHT = 0.5
"""... and of the boilerplate score of the link's block (only their ratio matters)."""
BILINGUAL_QUALITY_MIN_CHARS = 1000
"""A page is kept only with this many characters of text outside boilerplate (the paper's 1,000)."""
BILINGUAL_QUALITY_MAX_BADNESS = 10.0
"""... and a Badness of at most this (the paper's threshold for good documents)."""

BILINGUAL_PROGRESS_INTERVAL = 30.0
"""Seconds between progress lines (pages, bilingual sites, harvest rate); 0: none."""

# Scrapy's collector checks every stats call for a deprecated argument, 16x the call's own cost.
STATS_CLASS = "bilingual_spider.stats_collector.PlainStatsCollector"

# --- outputs. JSONL through Scrapy feeds (-O found.jsonl); the TSV is for Bitextor.
ITEM_PIPELINES = {
    "bilingual_spider.pipelines.duplicates.DuplicatesPipeline": 100,
    "bilingual_spider.pipelines.bitextor_tsv.BitextorTsvPipeline": 800,
}
BILINGUAL_TSV_PATH = None
"""Write URL pairs as ``url1<TAB>url2<TAB>lang1<TAB>lang2<TAB>score`` here (off when unset)."""

EXTENSIONS = {
    "bilingual_spider.extensions.log_level.ScrapyDebugGate": 0,
    "bilingual_spider.extensions.run_info.RunInfo": 2,
    "bilingual_spider.extensions.gc_tuning.GcTuning": 1,
    # before the stats file (500): its last line's stats (backlinks unavailable) are in stats.json
    "bilingual_spider.extensions.progress_line.ProgressLine": 440,
    # before the stats file (500): a crawl that fetched nothing is marked so in stats.json
    "bilingual_spider.extensions.fetch_outcomes.FetchOutcomes": 450,
    "bilingual_spider.extensions.stats_file.StatsFile": 500,
    # JOBDIR set: marks it in use; a JOBDIR a killed crawl left is refused, not resumed empty
    "bilingual_spider.extensions.jobdir_guard.JobdirGuard": 3,
    "bilingual_spider.extensions.warc.WarcExtension": 510,
    "bilingual_spider.extensions.documents.DocumentPairs": 520,
}
BILINGUAL_GATE_SCRAPY_DEBUG = True
"""Give Scrapy's per-response DEBUG loggers the crawl's LOG_LEVEL when it is above DEBUG, so their
records are never made (``extensions/log_level.py``)."""
BILINGUAL_GC_FREEZE = True
"""Move what the crawl loaded at start-up (models, tables, Scrapy) out of the garbage collector's
sight while the engine runs (``gc.freeze()``, ``extensions/gc_tuning.py``): full collections then
walk only what the crawl made since."""
BILINGUAL_GC_THRESHOLD = [10000, 10, 10]
"""``gc.set_threshold(...)`` while the engine runs: a young collection every 10,000 net
allocations instead of Python's 700 (``extensions/gc_tuning.py``: a COBFC crawl of 4,000 pages
spent 0.8-0.9 s in the collector with Python's thresholds, 0.2 s with these, at the same peak
memory). Empty: Python's own."""
BILINGUAL_WARC_PATH = None
"""Write every fetched HTML page (2xx) and its request into gzip WARC files in this directory
(off when unset; or ``-a warc=DIR``)."""
BILINGUAL_WARC_MAX_BYTES = 1_000_000_000
"""A WARC file is closed and the next begun once it holds this many bytes."""
BILINGUAL_DOCS_PATH = None
"""Write a document pair (both pages' main text, trafilatura's) for every reported URL pair
here: JSONL, or Bitextor's ``url1 url2 base64(text1) base64(text2)`` for a ``.tsv`` (off when
unset; or ``-a docs=FILE``)."""
BILINGUAL_STATS_FILE = None
"""Write the crawl stats as JSON here (off when unset): rewritten atomically while the crawl runs,
``finish_reason`` null until its end."""
BILINGUAL_STATS_FILE_INTERVAL: float | None = None
"""Seconds between rewrites of the stats file while the crawl runs (unset: the progress line's
BILINGUAL_PROGRESS_INTERVAL; 0: only at the end)."""
BILINGUAL_STATS_FILE_EVERY_RESPONSES = 0
"""Also rewrite the stats file after every this many responses (0: never): a short crawl's
report then has its curves however fast the machine ran it (the demo: 25)."""

# --- search and backlink adapters (bilingual_spider/search/). Stats ``search/<adapter>/*``.
# With BILINGUAL_SANDBOX_PROXY set, every adapter speaks to the sandbox's fake of its service
# (http://api.sandbox.internal/...) with no rate limit of our own; else to the real service.
# Keys: these settings or the environment (MOZ_TOKEN, MOZ_ACCESS_ID, MOZ_SECRET_KEY,
# BRAVE_API_KEY, GOOGLE_CSE_KEY, GOOGLE_CSE_CX); they are added to a request at the last moment
# and redacted from every log line.
EXTENSIONS["bilingual_spider.search.service.SearchService"] = 100
DOWNLOADER_MIDDLEWARES.update(
    {
        # before network safety (50) and robots.txt (100): cached and local answers never leave
        "bilingual_spider.search.middlewares.SearchMiddleware": 40,
        # after the proxy (750) and stats (850): the key exists only inside the download
        "bilingual_spider.middlewares.search_credentials.SearchCredentialsMiddleware": 990,
        # the last: search calls are sent as tasks cancelled when the crawl stops (Ctrl-C)
        "bilingual_spider.search.middlewares.SearchDownloadMiddleware": 995,
    }
)
BILINGUAL_SEARCH_ENABLED = True
BILINGUAL_SEARCH_BACKLINKS = None
"""Adapter for backlinks: ``moz``, ``cc_hostgraph`` or ``embedded``. None: ``moz`` when Moz keys
are set or the sandbox is configured, else ``embedded`` (the crawl's own link graph)."""
BILINGUAL_SEARCH_WEB = "brave"
"""Adapter for ``site:``/``inurl:``/``filetype:`` searches: ``brave`` (the Brave Search API, which
has no ``inurl:``: the adapter filters the answers' URLs instead), ``cc_columnar`` (Common Crawl's
Parquet index; every query needs a ``site:``) or ``google_cse`` (closed to new customers, ends
2027-01-01; a WARNING says so when it is chosen)."""
BILINGUAL_SEARCH_URL_INDEX = "cc_index"
"""Adapter for URL-index lookups: ``cc_index`` (the CDX server) or ``cc_columnar``."""
BILINGUAL_SEARCH_RATES: dict[str, float] = {}
"""Requests a second per adapter (``{"moz": 1}``; 0: no limit). Unset: the real service's limit
(moz 0.1, brave 1, google_cse 1, cc_index 1, cc_hostgraph 1, cc_columnar 1); the sandbox's fakes:
no limit."""
BILINGUAL_SEARCH_MAX_IN_FLIGHT = 2
"""Calls of one adapter out at once (the others wait in the service, not in the downloader)."""
BILINGUAL_SEARCH_MAX_PAGES = 3
"""Answer pages asked per query (Moz: 50 links a page, Brave: 20, Google: 10, CDX: one index
page)."""
BILINGUAL_SEARCH_PRIORITY = 1000
"""Priority of search requests (below the detector's probes, above pages)."""
BILINGUAL_SEARCH_CACHE_SIZE = 20_000
"""Answer pages kept in memory; the same query is never asked twice while cached."""
BILINGUAL_SEARCH_RETRY_TIMES = 3
"""Calls sent again after a 429, 5xx, timeout or network error: a 429/503 pauses the adapter for
the server's Retry-After, another failure waits for itself (BILINGUAL_SEARCH_BACKOFF seconds,
doubling, at most BILINGUAL_SEARCH_MAX_BACKOFF). An unreadable or too large answer is asked once
more; a refused key (401/403, Brave's 422) stops the adapter (docs/search_failures.md)."""
BILINGUAL_SEARCH_BACKOFF = 2.0
BILINGUAL_SEARCH_MAX_BACKOFF = 600.0
BILINGUAL_SEARCH_LATER_DELAY = 300.0
"""A query whose call still failed is asked again this many seconds later (doubling)...; once the
crawl has nothing else to do, within BILINGUAL_SEARCH_BREAKER_PAUSE (its adapter up)."""
BILINGUAL_SEARCH_LATER_ROUNDS = 2
"""... this many times; then its callback gets a page with ``error`` set (stats ``gave_up``)."""
BILINGUAL_SEARCH_TIMEOUT = 15.0
"""Seconds one search call may take (at most DOWNLOAD_TIMEOUT): a hanging API costs this much a
call. Whole-file downloads (host graphs) have no limit of ours."""
BILINGUAL_SEARCH_MIN_TIMEOUT = 1.0
"""Once an adapter has answered a few calls, a call's timeout is 5 times the 90th percentile of
its answers' durations, at least this, at most BILINGUAL_SEARCH_TIMEOUT (doubled at each retry;
a probe of a down adapter gets BILINGUAL_SEARCH_TIMEOUT). A call out for 3 times the median no
longer holds one of the adapter's BILINGUAL_SEARCH_MAX_IN_FLIGHT places (as many again at most)."""
BILINGUAL_SEARCH_BREAKER_FAILURES = 5
"""Failed calls in a row that take an adapter down: its queries wait, the crawl goes on, and one
probe call tests it after BILINGUAL_SEARCH_BREAKER_PAUSE seconds (doubling at each failed probe,
at most BILINGUAL_SEARCH_MAX_BACKOFF); stats ``search/<adapter>/down``."""
BILINGUAL_SEARCH_BREAKER_PAUSE = 10.0
BILINGUAL_SEARCH_GIVE_UP_AFTER = 180.0
"""Seconds an adapter may stay down (or fail to get ready) before its waiting queries are answered
with an error (``search/<adapter>/unanswered``), so that it no longer holds the crawl's end."""
BILINGUAL_SEARCH_ERROR_SHARE = 0.2
"""One WARNING when more than this share of an adapter's last BILINGUAL_SEARCH_ERROR_WINDOW calls
failed (with the commonest reason)."""
BILINGUAL_SEARCH_ERROR_WINDOW = 40
BILINGUAL_SEARCH_CACHE_DIR = os.environ.get("BILINGUAL_SEARCH_CACHE_DIR") or None
"""Where downloaded host graphs are indexed and the columnar index's footers kept (default
``~/.cache/bilingual_spider/search``)."""
BILINGUAL_MOZ_URL = None
"""Moz Links API v2 ``links`` endpoint (default https://lsapi.seomoz.com/v2/links)."""
BILINGUAL_MOZ_TOKEN = None
"""Moz API token (``x-moz-token``), or BILINGUAL_MOZ_ACCESS_ID + BILINGUAL_MOZ_SECRET_KEY."""
BILINGUAL_MOZ_PAGE_SIZE = 50
"""Links per answer page of ``moz`` (the API's documented maximum ``limit``: 50)."""
BILINGUAL_MOZ_ACCESS_ID = None
BILINGUAL_MOZ_SECRET_KEY = None
BILINGUAL_BRAVE_URL = None
"""Brave Search API web search (default https://api.search.brave.com/res/v1/web/search)."""
BILINGUAL_BRAVE_KEY = None
"""Brave Search API key (sent as ``X-Subscription-Token``), or BRAVE_API_KEY in the environment."""
BILINGUAL_GOOGLE_CSE_URL = None
"""Custom Search JSON API (default https://www.googleapis.com/customsearch/v1)."""
BILINGUAL_GOOGLE_CSE_KEY = None
BILINGUAL_GOOGLE_CSE_CX = None
BILINGUAL_CC_INDEX_URL = None
"""Common Crawl's index server (default https://index.commoncrawl.org)."""
BILINGUAL_CC_INDEX_COLLECTION = None
"""``CC-MAIN-YYYY-WW``; None: the newest one in ``collinfo.json``."""
BILINGUAL_CC_COLUMNAR_URL = None
"""Where Common Crawl's columnar index lives (default https://data.commoncrawl.org)."""
BILINGUAL_CC_COLUMNAR_CRAWL = None
"""The crawl it reads, ``CC-MAIN-YYYY-WW``; None: BILINGUAL_CC_INDEX_COLLECTION, else the newest
in the CDX server's ``collinfo.json``. Its file footers are kept in BILINGUAL_SEARCH_CACHE_DIR."""
BILINGUAL_CC_COLUMNAR_PAGE_SIZE = 100
"""Links per answer page of ``cc_columnar``."""
BILINGUAL_CC_COLUMNAR_MAX_ROW_GROUPS = 20
"""Row groups one answer page may read (a page with fewer links has a continuation)."""
BILINGUAL_HOSTGRAPH_URL = None
"""Common Crawl's host graphs (default https://data.commoncrawl.org/projects/hyperlinkgraph)."""
BILINGUAL_HOSTGRAPH_NAME = "cc-main-2024-aug-sep-oct"
"""The host graph release the ``cc_hostgraph`` adapter downloads (once) and indexes."""
BILINGUAL_HOSTGRAPH_PAGE_SIZE = 10
"""Referring hosts per answer page of ``cc_hostgraph``."""
BILINGUAL_HOSTGRAPH_PAGES = None
"""How a referring host becomes pages: ``index`` (its shallowest pages in the Common Crawl
index; the default for ``cc_hostgraph``) or ``home`` (its home page; the default of
``embedded``)."""
BILINGUAL_HOSTGRAPH_PAGES_PER_HOST = 5
BILINGUAL_HOSTGRAPH_DIR = None
"""A host graph on disk for the embedded backlinks: an index directory, or one holding a
release's ``vertices.txt.gz`` and ``edges.txt.gz`` (indexed there on first use)."""
BILINGUAL_CRAWL_GRAPH_MAX_HOSTS = 200_000
"""The crawl's link graph remembers links into at most this many hosts ..."""
BILINGUAL_CRAWL_GRAPH_MAX_SOURCES = 50
"""... and at most this many linking pages per host."""
