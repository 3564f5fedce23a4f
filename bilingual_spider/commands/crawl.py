"""``scrapy crawl``, refusing bad input in one line before anything is crawled.

Scrapy's own ``crawl`` reads every ``-s`` and ``-a`` as given and finds a bad one only where a
component reads it, mid-start-up, with a traceback (``ValueError: could not convert string to
float``, inside "Task exception was never retrieved"), or never (an unknown ``-a`` is set on the
spider and ignored). This one checks, before Scrapy starts: that the spider exists; each ``-s``
value against the type of its default (:mod:`bilingual_spider.settings`' and Scrapy's); each
``BILINGUAL_*`` name against the settings that exist; each ``-a`` name against the spider's
arguments, and their values as the spider reads them. A problem found later, while the crawler
starts (a bad seed, a value out of range), is one line too. Each line names what was wrong and
what is accepted; the exit status is 2 for bad input, 1 for another failure to start. The
traceback is logged only when the command line asks for DEBUG (``-L DEBUG``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

# Scrapy's HTTP handler before our modules: at its import, Scrapy's TLS module calls
# inspect.stack() three times (its deprecated classes), whose cost grows with the modules loaded;
# after scikit-learn's and SciPy's it took 0.13 s, before them 0.05 s (python -X importtime)
import scrapy.core.downloader.handlers.http11  # noqa: F401
from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError
from scrapy.settings import default_settings as scrapy_defaults
from scrapy.spiderloader import get_spider_loader

from bilingual_spider import settings as our_defaults
from bilingual_spider.commands.arguments import (
    argument_problems,
    feed_problems,
    resumed_feed_problems,
    setting_problems,
    setting_warnings,
    spider_arguments,
)
from bilingual_spider.extensions.fetch_outcomes import NOTHING_KEY, PAGES_KEY, nothing_fetched
from bilingual_spider.extensions.jobdir_guard import jobdir_problem
from bilingual_spider.seeds import seeds_problem

logger = logging.getLogger(__name__)

BAD_INPUT = 2
"""Exit status of a crawl refused for its input (Scrapy's for a usage error)."""
NOT_STARTED = 1
"""Exit status of a crawl that failed to start for another reason."""
NOTHING_FETCHED = 3
"""Exit status of a crawl that ran and fetched no page (``extensions/fetch_outcomes.py``): a
script can tell a dead network from a web with nothing to find."""


def skip_the_collection_at_exit() -> None:
    """The process ends with the crawl: ``gc.freeze()``, so that the interpreter's last cyclic
    collection, as it exits, does not walk the whole heap again (every module, model and object
    the crawl left). Measured: 0.45-0.5 s of the 2.3 s of a ``scrapy crawl detect`` of four
    pages. What it would have collected is freed by the process's end; every file the crawl
    writes is closed by then (feeds and stats at the spider's close, the log at exit)."""
    gc.freeze()


def defaults() -> dict[str, object]:
    """Every setting Scrapy or the project gives a default, with that default."""
    values = {k: v for k, v in vars(scrapy_defaults).items() if k.isupper()}
    values.update({k: v for k, v in vars(our_defaults).items() if k.isupper()})
    return values


def input_problems(spidercls: type, spargs: dict[str, str], given: dict[str, str]) -> list[str]:
    """Every problem of the command line's settings and spider arguments, one line each."""
    annotations = getattr(our_defaults, "__annotations__", {})
    problems = setting_problems(given, defaults(), annotations)
    redis_url = given.get("REDIS_URL")
    if redis_url:
        from bilingual_spider.distributed.connection import redis_url_problem

        problems += [problem] if (problem := redis_url_problem(redis_url)) else []
    name = getattr(spidercls, "name", spidercls.__name__)
    problems += argument_problems(name, spargs, spider_arguments(spidercls))
    if not problems and spidercls.__module__.startswith("bilingual_spider."):
        try:  # the spider reads its arguments in __init__ (nothing is loaded there)
            spidercls(**spargs)
        except (UsageError, ValueError) as error:
            problems.append(reason(error, name))
        seeds = spargs.get("seeds")  # read when the crawler starts: checked before, once
        problem = seeds_problem(seeds) if seeds else None
        if problem:
            problems.append(problem)
    return problems


def redis_problem(settings: Any) -> str | None:
    """Why the crawl cannot start on the Redis ``REDIS_URL`` names (it does not answer within
    ``BILINGUAL_REDIS_STARTUP_TIMEOUT`` seconds), or None (answers, or no ``REDIS_URL``). Once
    started, a worker waits for a Redis that goes away (``distributed/connection.py``)."""
    url = settings.get("REDIS_URL")
    if not url:
        return None
    from bilingual_spider.distributed.connection import unreachable

    problem = unreachable(url, settings.getfloat("BILINGUAL_REDIS_STARTUP_TIMEOUT"))
    if problem and problem.startswith("Redis at"):  # a URL that names no Redis says so itself
        return f"{problem}; start it, or fix REDIS_URL"
    return problem


def sandbox_seeds(settings: Any) -> str | None:
    """The seeds of a crawl of the sandbox web (``BILINGUAL_SANDBOX_PROXY``) given none: the
    mount root of every real site the sandbox serves (``bilingual-spider sandbox fetch``),
    comma-separated. None when the crawl is not of the sandbox, or its seeds come from Redis.
    The command line's job: the spiders never import the sandbox (the test world)."""
    if not settings.get("BILINGUAL_SANDBOX_PROXY") or settings.get("REDIS_URL"):
        return None
    from bilingual_spider.sandbox.realsites import sandbox_seed_urls

    return ",".join(sandbox_seed_urls(settings.get("BILINGUAL_SANDBOX_CACHE"))) or None


def item_type(item_class: type) -> str:
    """The ``type`` an item class writes on each of its lines (``site_verdict``)."""
    return str(getattr(item_class, "type", item_class.__name__))


def default_run_directory(spider: str) -> str:
    """Where a crawl given no feed and no ``out`` writes: ``out/SPIDER/YYYYmmdd-HHMMSS``."""
    return str(Path("out") / spider / time.strftime("%Y%m%d-%H%M%S"))


def run_summary(directory: Path) -> str:
    """What a crawl left in its run directory: each file, and its lines for a feed."""
    found = []
    for path in sorted(directory.glob("*")):
        if path.suffix == ".jsonl" and path.is_file():
            with path.open("rb") as feed:
                found.append(f"{path.name} ({sum(1 for _ in feed)} lines)")
        elif path.is_file() or path.is_dir():
            found.append(path.name + ("/" if path.is_dir() else ""))
    return f"results in {directory}: {', '.join(found) or 'nothing'}"


def counts_summary(stats: dict[str, Any]) -> str:
    """What the crawl did, in its stats' counts: pages fetched (``fetch/pages``), and the sites
    the detector judged, those it could not judge apart (a site whose first page failed)."""
    line = f"{stats.get(PAGES_KEY, 0)} pages fetched"
    if "detector/sites" in stats:
        not_judged = stats.get("detector/sites_not_judged", 0)
        line += f", {stats['detector/sites'] - not_judged} sites judged"
        line += f" ({not_judged} could not be)" if not_judged else ""
    return line


def reason(error: BaseException, spider: str = "") -> str:
    """One line for an error: its message, without a repeated ``spider:`` prefix."""
    text = " ".join(str(error).split()) or type(error).__name__
    if spider and text.startswith(f"{spider}: "):
        text = text[len(spider) + 2 :]
    if isinstance(error, UsageError | ValueError):
        return text
    return f"{type(error).__name__}: {text}"


class Command(ScrapyCrawl):
    def short_desc(self) -> str:
        return "Run a spider of the project, by name (bad -a/-s values refused in one line)"

    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        super().process_options(args, opts)
        if len(args) != 1:
            return  # run() says how to call it
        assert self.settings is not None
        loader = get_spider_loader(self.settings)
        spiders = sorted(loader.list())
        if args[0] not in spiders:
            self._refuse([f"no spider {args[0]!r} (the spiders: {', '.join(spiders)})"])
        given = dict(pair.split("=", 1) for pair in opts.set)
        spidercls = loader.load(args[0])
        problems = input_problems(spidercls, opts.spargs, given)
        types = [item_type(cls) for cls in getattr(spidercls, "item_types", ())]
        problems += feed_problems("-o", opts.output or [], args[0], types)
        problems += feed_problems("-O", opts.overwrite_output or [], args[0], types)
        resumed_by = self._resumed_by(spidercls)
        warnings = setting_warnings(given, defaults())
        if resumed_by:
            refused, warned = resumed_feed_problems(self.settings.getdict("FEEDS"), resumed_by)
            problems += refused
            warnings += warned
        if problems:
            self._refuse(problems, args[0])
        self._say([f"warning: {line}" for line in warnings], args[0])
        if "seeds" not in opts.spargs and "seeds" in spider_arguments(spidercls):
            try:
                seeds = sandbox_seeds(self.settings)
            except FileNotFoundError as error:
                self._refuse([f"no seeds: {error}"], args[0])
            if seeds:
                opts.spargs["seeds"] = seeds
        problem = redis_problem(self.settings) or jobdir_problem(
            self.settings.get("JOBDIR"), args[0]
        )
        if problem:
            self._say([problem], args[0])
            sys.exit(NOT_STARTED)
        no_feed = not (opts.output or opts.overwrite_output or self.settings.get("FEEDS"))
        if no_feed and "out" not in opts.spargs and not self.settings.get("BILINGUAL_RUN_DIR"):
            opts.spargs["out"] = default_run_directory(args[0])

    def _resumed_by(self, spidercls: Any) -> str | None:
        """What resumes this crawl after a kill (``JOBDIR`` with the spider's crash-safe
        frontier, a Redis worker with a name), or None."""
        assert self.settings is not None
        settings = self.settings.copy()
        spidercls.update_settings(settings)  # its custom_settings, below what -s gave
        if settings.get("REDIS_URL"):
            name = settings.get("BILINGUAL_REDIS_WORKER_NAME")
            return f"Redis worker {name}" if name else None
        if settings.get("JOBDIR") and settings.getbool("BILINGUAL_CRASH_SAFE_FRONTIER"):
            return "JOBDIR"
        return None

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one spider: scrapy crawl NAME")
        assert self.crawler_process is not None and self.settings is not None
        crawler = self._create_crawler(args[0])
        task: Any = self.crawler_process.crawl(crawler, **opts.spargs)
        failures: list[BaseException] = []
        if isinstance(task, asyncio.Future):
            task.add_done_callback(lambda done: self._note_failure(done, failures))
        else:  # a Twisted Deferred (a classic CrawlerProcess)
            task.addErrback(lambda failure: failures.append(failure.value))
        self.crawler_process.start()
        if failures:
            error = failures[0]
            if self._debug():
                logger.debug("the crawl failed to start", exc_info=error)
            bad_input = isinstance(error, UsageError | ValueError | FileNotFoundError)
            self._say([reason(error, args[0])], args[0])
            self.exitcode = BAD_INPUT if bad_input else NOT_STARTED
        elif self.crawler_process.bootstrap_failed:
            self.exitcode = NOT_STARTED
        else:
            stats = crawler.stats.get_stats() if crawler.stats is not None else {}
            directory = opts.spargs.get("out") or self.settings.get("BILINGUAL_RUN_DIR")
            if directory:
                print(run_summary(Path(directory)))
            print(counts_summary(stats))
            if stats.get(NOTHING_KEY):
                self._say([nothing_fetched(stats) or "fetched nothing"], args[0])
                self.exitcode = NOTHING_FETCHED
        skip_the_collection_at_exit()

    def _debug(self) -> bool:
        assert self.settings is not None
        cmdline = self.settings.getpriority("LOG_LEVEL") or 0
        return cmdline >= 40 and self.settings.get("LOG_LEVEL") == "DEBUG"  # 40: cmdline

    @staticmethod
    def _note_failure(task: asyncio.Future, failures: list[BaseException]) -> None:
        if not task.cancelled() and task.exception() is not None:  # retrieved: not printed
            failures.append(task.exception())  # type: ignore[arg-type]

    @staticmethod
    def _say(problems: list[str], spider: str = "") -> None:
        where = f"scrapy crawl {spider}".rstrip()
        for problem in problems:
            print(f"{where}: {problem}", file=sys.stderr)

    def _refuse(self, problems: list[str], spider: str = "") -> NoReturn:
        self._say(problems, spider)
        sys.exit(BAD_INPUT)
