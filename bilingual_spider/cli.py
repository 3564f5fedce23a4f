"""The ``bilingual-spider`` command: the sandbox web, the demo crawl, and offline tools."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

from bilingual_spider import __version__
from bilingual_spider import settings as project_settings

if TYPE_CHECKING:
    from pathlib import Path

    from bilingual_spider.patterns.url_list import UrlListResult
    from bilingual_spider.sandbox.webgraph_params import WorldParams

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s: %(message)s"
    )
    try:
        return int(args.run(args) or 0)
    except (ValueError, FileNotFoundError, RuntimeError) as exc:
        print(f"bilingual-spider: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into `head`: not an error
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (silence the flush at exit)
        return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bilingual-spider", description=__doc__)
    parser.add_argument("--version", action="version", version=f"bilingual-spider {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    sandbox = commands.add_parser("sandbox", help="the offline sandbox web")
    sandbox_commands = sandbox.add_subparsers(dest="sandbox_command", required=True)

    serve = sandbox_commands.add_parser("serve", help="run the sandbox proxy server")
    serve.add_argument("--bind", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8399, help="port (0: any free port)")
    serve.add_argument("--config", action="append", default=[], help="TOML config (repeatable)")
    serve.add_argument(
        "--mount", action="append", default=[], metavar="HOST[/PREFIX]=DIR",
        help="serve DIR at http://HOST/PREFIX/ (repeatable)",
    )  # fmt: skip
    serve.add_argument(
        "--real-sites", action="store_true", help="mount the fetched Debian documentation sites"
    )
    serve.add_argument("--cache", help="real-sites cache (default $BILINGUAL_SANDBOX_CACHE)")
    serve.add_argument("--access-log", help="append one TSV line per request to this file")
    serve.add_argument("--seed", type=int, help="seed of the fault generator")
    serve.set_defaults(run=run_serve)

    fetch = sandbox_commands.add_parser(
        "fetch", help="download the real sites (Debian docs) and derive their gold pairs"
    )
    fetch.add_argument("--cache", help="where to put them (default $BILINGUAL_SANDBOX_CACHE)")
    fetch.add_argument("--sites", help="site list (TOML; default: the shipped real_sites.toml)")
    fetch.set_defaults(run=run_fetch)

    generate = sandbox_commands.add_parser(
        "generate", help="generate a web graph with ground truth (serve it with its sandbox.toml)"
    )
    generate.add_argument("--out", default="out/world", help="directory to write (replaced)")
    generate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    generate.add_argument("--sites", type=int, default=1000, help="number of sites (default 1000)")
    generate.add_argument(
        "--param", action="append", default=[], metavar="NAME=JSON",
        help="override a world parameter, e.g. share_bilingual=0.3 (see `sandbox params`)",
    )  # fmt: skip
    generate.add_argument("--locale-dir", default=None, help="gettext catalogs (/usr/share/locale)")
    generate.set_defaults(run=run_generate)

    params = sandbox_commands.add_parser(
        "params", help="list the generator's parameters, defaults and where each comes from"
    )
    params.set_defaults(run=run_params)

    stats = sandbox_commands.add_parser("stats", help="print the figures of a generated world")
    stats.add_argument("dir", help="a directory written by `sandbox generate`")
    stats.add_argument("--json", action="store_true", help="print JSON instead of a table")
    stats.set_defaults(run=run_stats)

    langid = commands.add_parser(
        "langid",
        help="language of each input line (JSON lines), or of HTML pages with --html",
    )
    langid.add_argument(
        "inputs", nargs="*", default=["-"],
        help="a text file with one text a line, or - for standard input (default); with --html: "
        "HTML files or http(s) URLs",
    )  # fmt: skip
    langid.add_argument("--html", action="store_true", help="judge whole pages")
    langid.set_defaults(run=run_langid)

    patterns = commands.add_parser(
        "patterns",
        help="mine pairing patterns and translated page pairs from a list of URLs (offline)",
        description="PupSniffer (Zhang et al. 2018) on a list of URLs, grouped by site: the top "
        "pairing patterns with their global credibility and each site's local credibility, then "
        "the pairs of URLs they match. Without page languages only language patterns "
        "(en/fr, lang=en/lang=fr, /fr/ added) are mined.",
    )
    patterns.add_argument(
        "urls_file", metavar="URLS_FILE",
        help="one URL a line (# comments), optionally TAB and the page's language; - for stdin",
    )  # fmt: skip
    patterns.add_argument("--langs-file", metavar="TSV", help="page languages: url TAB lang")
    patterns.add_argument(
        "--format", choices=("jsonl", "tsv"), default="jsonl",
        help="jsonl: one object a line (default); tsv: url1 url2 lang1 lang2 score (Bitextor), "
        "the patterns as # comments",
    )  # fmt: skip
    patterns.add_argument(
        "--patterns", type=int, default=10, metavar="N", help="top patterns to print (10; 0: none)"
    )
    patterns.add_argument(
        "--min-local", type=float, default=0.1, metavar="C",
        help="local credibility a pattern needs in its site (0.1, as in the paper)",
    )  # fmt: skip
    patterns.set_defaults(run=run_patterns)

    report = commands.add_parser(
        "report", help="an HTML crawl report (and PNG figures) of one or several run directories"
    )
    report.add_argument(
        "runs", nargs="+", help="run directories: stats.json (+ stats.history.jsonl, *.jsonl items)"
    )
    report.add_argument("--out", "-o", default="out/report", help="where report.html goes")
    report.add_argument(
        "--watch",
        type=float,
        nargs="?",
        const=5.0,
        metavar="SECONDS",
        help="rewrite the report every SECONDS (5) until every crawl has ended",
    )
    report.set_defaults(run=run_report)

    demo = commands.add_parser(
        "demo", help="start the sandbox web, crawl it, and print what was found"
    )
    demo.add_argument("--pages", type=int, default=2000, help="page budget of the crawl (2000)")
    demo.add_argument(
        "--strategy", default="cobfc", choices=["fc", "focc", "obfc", "cobfc"], help="(cobfc)"
    )
    demo.add_argument("--out", default="out/demo", help="directory for the crawl's outputs")
    demo.set_defaults(run=run_demo)

    detect = commands.add_parser(
        "detect",
        help="judge sites with the bilingual-site detector; one JSON verdict per site",
        description="Fetch each site's first page, score its links with the Link Predictor, "
        "probe the best ones and identify languages (Barbosa et al. 2011, sec. 2.1). Goes through "
        "the sandbox web when $BILINGUAL_SANDBOX_PROXY is set or --real-sites/--sandbox-config "
        "start one.",
    )
    detect.add_argument("urls", nargs="+", metavar="URL", help="a page of each site (its home)")
    detect.add_argument("--langs", help="languages of interest, e.g. en,es; any: any two (default)")
    detect.add_argument("--min-likelihood", type=float, help="probe links scoring >= this (0.8)")
    detect.add_argument(
        "--max-probes", type=max_probes_value, default=argparse.SUPPRESS,
        help="probe pages per site at most (default 5; all: no limit)",
    )  # fmt: skip
    detect.add_argument("--mode", choices=("detector", "link_predictor"), help="default detector")
    detect.add_argument(
        "--site-key", choices=("host", "url"), help="one verdict per host (default) or per URL"
    )
    detect.add_argument("--model", help="a saved Link Predictor (.npz) instead of the shipped one")
    detect.add_argument(
        "--single-page", action="store_true",
        help="the paper's detector: no fallback ladder when the first page says nothing",
    )  # fmt: skip
    detect.add_argument(
        "--real-sites",
        action="store_true",
        help="start a sandbox web of the real sites for this run",
    )
    detect.add_argument(
        "--sandbox-config", action="append", default=[], metavar="TOML",
        help="start a sandbox web with this config for this run (repeatable)",
    )  # fmt: skip
    detect.add_argument(
        "-s", "--set", action="append", default=[], metavar="NAME=VALUE",
        help="any Scrapy or BILINGUAL_* setting (repeatable)",
    )  # fmt: skip
    detect.add_argument("--log-level", default="WARNING", help="of the crawl (default WARNING)")
    detect.set_defaults(run=run_detect)

    seed = commands.add_parser(
        "seed", help="push seed URLs to the Redis frontier of a distributed crawl"
    )
    seed.add_argument("redis_url", metavar="REDIS_URL", help="redis://host:port/db")
    seed.add_argument("file", metavar="FILE", help="seed URLs, one a line (# comments)")
    seed.add_argument(
        "--prefix",
        default=project_settings.BILINGUAL_REDIS_KEY_PREFIX,
        help="BILINGUAL_REDIS_KEY_PREFIX of the crawl",
    )
    seed.set_defaults(run=run_seed)

    train = commands.add_parser("train", help="train a shipped model")
    train_commands = train.add_subparsers(dest="train_command", required=True)
    predictor = train_commands.add_parser(
        "link-predictor",
        help="train the Link Predictor on generated worlds and the real sites; write its card",
    )
    predictor.add_argument(
        "--seeds", default="101,102,103", help="seeds of the generated worlds (not 0-9)"
    )
    predictor.add_argument("--sites", type=int, default=1000, help="sites per world (1000)")
    predictor.add_argument(
        "--no-real-sites", action="store_true", help="leave the real sites out of the data"
    )
    predictor.add_argument(
        "--real-sites",
        help="the real sites to train on, comma-separated names (default: every site not held "
        "out by `holdout = true` in real_sites.toml)",
    )
    predictor.add_argument(
        "--label",
        choices=("language", "pairs"),
        default="language",
        help="language: a link to a page of the site in another language (the paper's); pairs: "
        "a link between two versions of one page (the first model's)",
    )
    predictor.add_argument("--cache", help="real-sites cache (default $BILINGUAL_SANDBOX_CACHE)")
    predictor.add_argument(
        "--worlds-dir", default="out/train_worlds", help="where the worlds are generated (reused)"
    )
    predictor.add_argument("--folds", type=int, default=5, help="grouped CV folds (0: none)")
    predictor.add_argument(
        "--detector-results",
        default="benchmarks/results/site_detector.json",
        help="benchmarks/site_detector.py's results, whose label comparison goes in the card",
    )
    predictor.add_argument(
        "--out", default="models/link_predictor.npz", help="the model; its card goes beside it"
    )
    predictor.set_defaults(run=run_train_link_predictor)
    verifier = train_commands.add_parser(
        "pair-verifier",
        help="fit the pair verifier (STRAND alignment, length ratio, shared tokens, copy share) "
        "on the real sites' gold pairs against their misaligned and untranslated pairs",
    )
    verifier.add_argument("--cache", help="real-sites cache (default $BILINGUAL_SANDBOX_CACHE)")
    verifier.add_argument(
        "--max-pairs-per-site", type=int, default=200, help="translations sampled per site"
    )
    verifier.add_argument(
        "--threshold", type=float, default=0.7, help="probability a pair needs to be kept"
    )
    verifier.add_argument("--out", default="models/pair_verifier.json", help="the model")
    verifier.set_defaults(run=run_train_pair_verifier)
    topic = train_commands.add_parser(
        "topic-classifier",
        help="train the focused crawler's page classifier on a generated world's topics",
    )
    topic.add_argument("--topic", default="travel", help="the topic (travel)")
    topic.add_argument("--seed", type=int, default=104, help="seed of the world (not 0-9)")
    topic.add_argument("--sites", type=int, default=1000, help="sites in the world (1000)")
    topic.add_argument(
        "--worlds-dir", default="out/train_worlds", help="where the world is generated (reused)"
    )
    topic.add_argument("--out", help="the model (default models/topic_<topic>.npz)")
    topic.set_defaults(run=run_train_topic_classifier)
    return parser


def run_seed(args: argparse.Namespace) -> int:
    from bilingual_spider import settings
    from bilingual_spider.distributed.connection import PatientRedis, cluster_client, unreachable
    from bilingual_spider.distributed.frontier import push_seeds, seeds_key
    from bilingual_spider.seeds import SeedError, parse_seeds

    try:
        urls = parse_seeds(args.file)
    except SeedError as exc:
        raise ValueError(str(exc)) from None
    problem = unreachable(args.redis_url, settings.BILINGUAL_REDIS_STARTUP_TIMEOUT)
    if problem:
        raise RuntimeError(problem)
    # a Redis Cluster (BILINGUAL_REDIS_CLUSTER=1 in the environment): the seeds key's master
    client = cluster_client(args.redis_url) if settings.BILINGUAL_REDIS_CLUSTER else None
    redis = PatientRedis(args.redis_url, client=client)
    try:
        push_seeds(redis, seeds_key(args.prefix), urls)
    finally:
        redis.close()
    print(f"{len(urls)} seed URL(s) pushed to {seeds_key(args.prefix)}; workers take them")
    return 0


def run_serve(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox.config import Mount, SandboxConfig
    from bilingual_spider.sandbox.server import serve

    config = SandboxConfig()
    if args.real_sites:
        from bilingual_spider.sandbox.realsites import sandbox_config_path

        config.add_file(sandbox_config_path(args.cache))
    for path in args.config:
        config.add_file(path)
    for spec in args.mount:
        config.mounts.append(Mount.parse(spec))
    if args.seed is not None:
        config.seed = args.seed
    if not (config.mounts or config.faults or config.packs or config.api):
        raise ValueError("nothing to serve: give --real-sites, --config or --mount")
    asyncio.run(serve(config, args.bind, args.port, args.access_log))
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox import published_sites
    from bilingual_spider.sandbox.debian_packages import AptUnavailable
    from bilingual_spider.sandbox.realsites import prepare

    try:
        sites = prepare(args.cache, args.sites)
        published = published_sites.prepare(args.cache)  # from the same packages' cache
    except AptUnavailable as exc:
        print(f"bilingual-spider: real sites skipped: {exc}", file=sys.stderr)
        return 3
    width = max(len(s["name"]) for s in sites)
    print(
        f"{'site':<{width}}  {'set':<8} {'kind':<12} {'bilingual':<9} {'pages':>6} "
        f"{'gold pairs':>10}  languages"
    )
    for site in sites:
        held_out = "holdout" if site["holdout"] else site["set"]
        print(
            f"{site['name']:<{width}}  {held_out:<8} {site['kind']:<12} "
            f"{'yes' if site['bilingual'] else 'no':<9} {site['pages']:>6} "
            f"{site['gold_pairs']:>10}  {','.join(site['languages'])}"
        )
    for site in published.summaries:
        print(
            f"published {site['name']} ({site['publish']}): {site['pages']} pages, "
            f"{site['gold_pairs']} gold pairs, {site['sitemap_pairs']} sitemap pairs"
        )
    return 0


def world_params(seed: int, sites: int, overrides: Sequence[str]) -> WorldParams:
    """Parameters from the command line: ``--param name=JSON`` overrides one default."""
    import json

    from bilingual_spider.sandbox.webgraph_params import WorldParams

    values: dict[str, object] = {"seed": seed, "sites": sites}
    for override in overrides:
        name, sep, raw = override.partition("=")
        if not sep:
            raise ValueError(f"--param {override!r}: expected NAME=JSON")
        try:
            values[name.strip()] = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--param {override!r}: the value is not JSON ({exc})") from None
    return WorldParams.from_dict(values)


def run_generate(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox.textsource import DEFAULT_LOCALE_DIR, TextSource
    from bilingual_spider.sandbox.webgraph_write import CONFIG_FILE, generate

    params = world_params(args.seed, args.sites, args.param)
    print("reading the gettext catalogs ...", flush=True)
    text = TextSource.from_catalogs(
        ["en", *params.language_weights], args.locale_dir or DEFAULT_LOCALE_DIR
    )
    summary = generate(args.out, params, text, progress=lambda m: print(m, flush=True))
    print(
        f"wrote {summary['sites']} sites ({summary['hosts']} hosts, {summary['pages']} pages, "
        f"{summary['links']} links, {summary['gold_pairs']} gold pairs) to {args.out} "
        f"in {summary['seconds']} s\nserve it: bilingual-spider sandbox serve --config "
        f"{os.path.join(args.out, CONFIG_FILE)}"
    )
    return 0


def run_params(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox.webgraph_params import parameter_table

    for name, value, source in parameter_table():
        print(f"{name} = {value}\n    {source}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    import json

    from bilingual_spider.sandbox.webgraph_stats import format_stats, world_stats

    stats = world_stats(args.dir)
    print(json.dumps(stats, indent=1) if args.json else format_stats(stats))
    return 0


def run_langid(args: argparse.Namespace) -> int:
    import json

    from bilingual_spider.language.identification import default_identifier

    identifier = default_identifier()
    if args.html:
        from dataclasses import asdict

        from bilingual_spider.language.page_language import page_language

        failed = 0
        for source in args.inputs:
            try:
                page = read_page(source)
            except (ValueError, OSError, RuntimeError) as exc:  # costs this source only
                print(f"bilingual-spider: error: {exc}", file=sys.stderr)
                failed += 1
                continue
            result = asdict(page_language(page, identifier))
            print(json.dumps({"source": source, **result}, ensure_ascii=False), flush=True)
        return 2 if failed else 0
    for source in args.inputs:
        stream = _text_input(source)
        with stream:
            batch: list[str] = []
            for line in stream:
                batch.append(line.rstrip("\n"))
                if len(batch) >= 10_000:
                    print_decisions(identifier, batch)
                    batch = []
            print_decisions(identifier, batch)
    return 0


def _text_input(source: str) -> TextIO:
    """A file (``-``: standard input) read as UTF-8, a byte that is none read as U+FFFD: every
    line gets its answer."""
    if source == "-":
        if isinstance(sys.stdin, io.TextIOWrapper):
            sys.stdin.reconfigure(encoding="utf-8", errors="replace")
        return sys.stdin
    return open(source, encoding="utf-8", errors="replace")  # noqa: SIM115


def print_decisions(identifier: object, texts: list[str]) -> None:
    import json

    for decision in identifier.decide_many(texts):
        line = {
            "lang": decision.lang,
            "score": round(decision.score, 4),
            "undetermined": decision.undetermined,
        }
        if decision.truncated:
            line["truncated"] = True
        print(json.dumps(line))
    sys.stdout.flush()


def read_page(source: str) -> bytes:
    """An HTML file, or a URL fetched as a crawl would fetch it (:func:`fetch_page`)."""
    if source.startswith(("http://", "https://")):
        return fetch_page(source)
    with open(source, "rb") as f:
        return f.read()


def fetch_page(url: str, timeout: float = 30) -> bytes:
    """The first ``MAX_HTML_CHARS + 1`` bytes of a page (enough to say it was cut), through the
    crawl's network-safety checks: the URL and every redirect are refused as a crawl refuses
    them (private, loopback and link-local addresses, other schemes; a name that does not
    resolve). From the sandbox web when ``$BILINGUAL_SANDBOX_PROXY`` is set (as a crawl would:
    the sandbox serves every site over plain http), else with the environment's proxy
    settings. A refusal or a failed fetch is a ValueError / RuntimeError naming the URL."""
    import urllib.error
    import urllib.request

    from bilingual_spider import settings
    from bilingual_spider.html_page import MAX_HTML_CHARS
    from bilingual_spider.middlewares.network_safety import check_url

    proxy = os.environ.get("BILINGUAL_SANDBOX_PROXY")

    def refuse_unsafe(target: str) -> None:
        why = check_url(
            target,
            sandbox=bool(proxy),
            allowed_networks=settings.BILINGUAL_ALLOWED_NETWORKS,
            allowed_hosts=settings.BILINGUAL_ALLOWED_HOSTS,
        )
        if why:
            raise ValueError(f"{target}: refused by network safety ({why})")

    class SafeRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
            refuse_unsafe(newurl)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    handlers: list[urllib.request.BaseHandler] = [SafeRedirects()]
    if proxy:
        handlers.append(urllib.request.ProxyHandler({"http": proxy}))
        url = "http://" + url.split("://", 1)[1]
    refuse_unsafe(url)
    try:
        with urllib.request.build_opener(*handlers).open(url, timeout=timeout) as answer:
            return answer.read(MAX_HTML_CHARS + 1)
    except (urllib.error.URLError, OSError) as exc:
        raise RuntimeError(f"{url}: {getattr(exc, 'reason', exc)}") from None


def run_patterns(args: argparse.Namespace) -> int:
    from bilingual_spider.patterns.pairing import PairingConfig
    from bilingual_spider.patterns.url_list import mine_url_list

    if args.patterns < 0:
        raise ValueError("--patterns must be >= 0")
    if not 0 <= args.min_local <= 1:
        raise ValueError("--min-local must be between 0 and 1")
    urls, languages = read_url_list(args.urls_file)
    if args.langs_file:
        languages = {**read_languages(args.langs_file), **(languages or {})}
    config = PairingConfig(local_threshold=args.min_local)
    result = mine_url_list(urls, languages or None, config)
    write = print_patterns_tsv if args.format == "tsv" else print_patterns_jsonl
    write(result, args.patterns)
    return 0


def read_url_list(source: str) -> tuple[list[str], dict[str, str]]:
    """URLs of a ``patterns`` input (``-``: stdin), and the languages of its second column."""
    urls: list[str] = []
    languages: dict[str, str] = {}
    for _where, url, lang in _tsv_lines(source):
        urls.append(url)
        if lang:
            languages[url] = lang
    return urls, languages


def read_languages(source: str) -> dict[str, str]:
    """A ``--langs-file``: url TAB lang on every line."""
    languages = {}
    for where, url, lang in _tsv_lines(source):
        if not lang:
            raise ValueError(f"{where}: expected URL<TAB>language")
        languages[url] = lang
    return languages


def _tsv_lines(source: str) -> Iterator[tuple[str, str, str]]:
    """(``file:line``, URL, language or "") of every line that is not blank or a # comment; a
    line whose URL is not an http(s) URL is skipped with a one-line warning naming it."""
    if source != "-" and not os.path.isfile(source):
        raise FileNotFoundError(f"{source}: no such file")
    stream = sys.stdin if source == "-" else open(source, encoding="utf-8", errors="replace")  # noqa: SIM115
    with stream:
        for number, line in enumerate(stream, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            url, _, lang = (field.strip() for field in text.partition("\t"))
            where = f"{'<stdin>' if source == '-' else source}:{number}"
            if not _is_http_url(url):  # costs this line, not the run
                print(
                    f"bilingual-spider: warning: {where}: not an http(s) URL, skipped: {url!r}",
                    file=sys.stderr,
                )
                continue
            yield where, url, lang


def _is_http_url(url: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        return parts.scheme in ("http", "https") and bool(parts.hostname) and " " not in url
    except ValueError:  # "Invalid IPv6 URL", a port that is no number
        return False


def print_patterns_jsonl(result: UrlListResult, top: int) -> None:
    """Pattern records (``type: pattern``), then pair records (``type: pair``)."""
    import json
    from dataclasses import asdict

    for record in pattern_records(result, top):
        print(json.dumps({"type": "pattern", **record}, ensure_ascii=False))
    for pair in result.pairs:
        record = {**asdict(pair), "pattern": str(pair.pattern)}
        print(json.dumps({"type": "pair", **record}, ensure_ascii=False))


def print_patterns_tsv(result: UrlListResult, top: int) -> None:
    """Patterns as ``#`` comment lines, then url1 url2 lang1 lang2 score (local credibility)."""
    for record in pattern_records(result, top):
        sites = " ".join(f"{s}={c}" for s, c in list(record["local_credibility"].items())[:5])
        more = len(record["local_credibility"]) - 5
        print(
            f"# {record['pattern']}\tglobal {record['global_credibility']}\t{sites}"
            + (f" (+{more} sites)" if more > 0 else "")
        )
    for p in result.pairs:
        langs = (p.source_language or "", p.target_language or "")
        print("\t".join((p.source, p.target, *langs, f"{p.local_credibility:.4f}")))


def pattern_records(result: UrlListResult, top: int) -> list[dict[str, object]]:
    """The ``top`` patterns: global credibility (eq. 4) and local credibility (eq. 3) per site."""
    table = result.credibility
    records = []
    for k in result.top_patterns(top) if top else ():
        local = {site: c for site, by_k in table.local.items() if (c := by_k.get(k))}
        records.append(
            {
                "pattern": str(k),
                "units": [k.first, k.second],
                "global_credibility": round(table.global_credibility(k), 6),
                "local_credibility": {
                    s: round(c, 4) for s, c in sorted(local.items(), key=lambda i: (-i[1], i[0]))
                },
            }
        )
    return records


def run_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from bilingual_spider.output.report import STATS_FILE, load_run, write_report

    if args.watch:  # a crawl just started has not written its stats yet: wait for them
        for run in args.runs:
            stats = Path(run) / STATS_FILE
            if not stats.is_file():
                print(f"report: waiting for {stats} (a crawl writes it in its first 30 s)")
            while not stats.is_file():
                time.sleep(args.watch)
    page = write_report([load_run(run) for run in args.runs], args.out)
    print(f"report: {page}")
    while args.watch and any(load_run(run).running for run in args.runs):
        time.sleep(args.watch)
        write_report([load_run(run) for run in args.runs], args.out)
    if args.watch:
        write_report([load_run(run) for run in args.runs], args.out)  # the final figures
    return 0


def run_demo(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox.demo import run_demo as demo

    return demo(pages=args.pages, out_dir=args.out, strategy=args.strategy)


def max_probes_value(text: str) -> int | None:
    if text.strip().lower() in ("all", "none"):
        return None
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0 (or 'all')")
    return value


def detect_settings(args: argparse.Namespace) -> dict[str, object]:
    """The crawl settings the ``detect`` options ask for (checked here, so errors are early)."""
    from bilingual_spider.detection.detector import parse_langs

    settings: dict[str, object] = {"LOG_LEVEL": args.log_level.upper()}
    if args.langs is not None:
        parse_langs(args.langs)  # ValueError: a clear message
        settings["BILINGUAL_DETECTOR_LANGS"] = args.langs
    if args.min_likelihood is not None:
        if not 0 <= args.min_likelihood <= 1:
            raise ValueError("--min-likelihood must be between 0 and 1")
        settings["BILINGUAL_DETECTOR_MIN_LIKELIHOOD"] = args.min_likelihood
    if "max_probes" in args:  # given (None: "all")
        settings["BILINGUAL_DETECTOR_MAX_PROBES"] = args.max_probes
    for option, name in (
        ("mode", "BILINGUAL_DETECTOR_MODE"),
        ("site_key", "BILINGUAL_DETECTOR_SITE_KEY"),
        ("model", "BILINGUAL_DETECTOR_MODEL"),
    ):
        if getattr(args, option) is not None:
            settings[name] = getattr(args, option)
    if getattr(args, "single_page", False):
        settings["BILINGUAL_DETECTOR_LADDER"] = False
    if args.model is not None and not os.path.isfile(args.model):
        raise FileNotFoundError(f"--model {args.model}: no such file")
    for item in args.set:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"--set {item!r}: expected NAME=VALUE")
        settings[name.strip()] = value
    return settings


def detect_urls(texts: Sequence[str]) -> list[str]:
    """The sites' URLs, normalised; every bad one reported at once."""
    from bilingual_spider.seeds import normalize_seed

    urls, errors = [], []
    for text in texts:
        try:
            url = normalize_seed(text)
        except ValueError as exc:
            errors.append(f"{text!r}: {exc}")
            continue
        if not url.startswith(("http://", "https://")):
            errors.append(f"{text!r}: not an http(s) URL")
        elif url not in urls:
            urls.append(url)
    if errors:
        raise ValueError("bad URL(s):\n  " + "\n  ".join(errors))
    return urls


def run_detect(args: argparse.Namespace) -> int:
    import json
    from dataclasses import asdict

    from bilingual_spider.adapters.site_detection import site_key_of
    from bilingual_spider.commands.crawl import NOTHING_FETCHED
    from bilingual_spider.extensions.fetch_outcomes import NOTHING_KEY, nothing_fetched
    from bilingual_spider.items import SiteVerdictItem
    from bilingual_spider.spiders.detect import detect_sites

    urls = detect_urls(args.urls)
    settings = detect_settings(args)
    if (
        "BILINGUAL_DETECTOR_MODEL" not in settings
        and "BILINGUAL_DETECTOR_LINK_SCORER" not in settings
    ):
        from bilingual_spider.detection.link_predictor import DEFAULT_MODEL_PATH

        if not DEFAULT_MODEL_PATH.is_file():
            raise FileNotFoundError(
                f"{DEFAULT_MODEL_PATH} is missing: bilingual-spider train link-predictor"
            )
    for handler in list(logging.root.handlers):  # Scrapy installs its own, at --log-level
        logging.root.removeHandler(handler)
    seen: set[str] = set()

    def show(item: SiteVerdictItem) -> None:
        seen.add(item.site)
        print(json.dumps(asdict(item), ensure_ascii=False), flush=True)

    with contextlib.ExitStack() as stack:
        if args.real_sites or args.sandbox_config:
            proxy = stack.enter_context(detect_sandbox(args.real_sites, args.sandbox_config))
            settings.update({"BILINGUAL_SANDBOX_PROXY": proxy, "DOWNLOAD_DELAY": 0})
        stats = detect_sites(urls, settings, show)
    if stats.get(NOTHING_KEY):  # no network, or no URL that could be fetched: say so, not "done"
        print(f"bilingual-spider detect: {nothing_fetched(stats)}", file=sys.stderr)
        return NOTHING_FETCHED
    key = str(settings.get("BILINGUAL_DETECTOR_SITE_KEY"))
    missing = sorted({site_key_of(url, key) for url in urls} - seen)
    if missing:
        print(f"bilingual-spider: no verdict for {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


@contextlib.contextmanager
def detect_sandbox(real_sites: bool, configs: Sequence[str]) -> Iterator[str]:
    """A sandbox web for one ``detect`` run: yields its proxy URL."""
    from bilingual_spider.sandbox.process import SandboxServer

    arguments: list[str] = []
    if real_sites:
        from bilingual_spider.sandbox.debian_packages import AptUnavailable
        from bilingual_spider.sandbox.realsites import prepare

        try:
            prepare()
        except AptUnavailable as exc:
            raise RuntimeError(f"the real sites cannot be fetched here: {exc}") from None
        arguments.append("--real-sites")
    for config in configs:
        if not os.path.isfile(config):
            raise FileNotFoundError(f"--sandbox-config {config}: no such file")
        arguments += ["--config", config]
    with SandboxServer(arguments) as server:
        yield server.proxy_url


BENCHMARK_SEEDS = range(10)
"""World seeds of the benchmarks and of the default world: never training data."""


def run_train_link_predictor(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    from bilingual_spider.detection.link_predictor import LinkPredictor
    from bilingual_spider.detection.training import (
        build_training_set,
        model_card,
        train_link_predictor,
    )

    started = time.monotonic()
    seeds = [int(seed) for seed in args.seeds.split(",") if seed.strip()]
    if any(seed in BENCHMARK_SEEDS for seed in seeds):
        raise ValueError("seeds 0-9 are the benchmarks' worlds: train on others (101,102,103)")
    worlds = [training_world(seed, args.sites, Path(args.worlds_dir)) for seed in seeds]
    print("reading and labelling the links ...", flush=True)
    real: bool | list[str] = not args.no_real_sites
    if real and args.real_sites:
        real = [name.strip() for name in args.real_sites.split(",") if name.strip()]
    data = build_training_set(
        worlds, real_sites=real, real_sites_cache=args.cache, label_rule=args.label
    )
    print(json.dumps(data.describe()), flush=True)
    model, training = train_link_predictor(data, folds=args.folds, label_rule=args.label)
    command = f"bilingual-spider train link-predictor --seeds {','.join(map(str, seeds))} "
    command += f"--sites {args.sites}{' --no-real-sites' if args.no_real_sites else ''} "
    if isinstance(real, list):
        command += f"--real-sites {','.join(real)} "
    command += f"--label {args.label} "
    training["command"] = command + f"--folds {args.folds} --out {args.out}"
    real_sources = "; the real sites of `bilingual-spider sandbox fetch`" + (
        f" ({', '.join(real)})" if isinstance(real, list) else " not held out"
    )
    training["sources"] = (
        f"generated worlds of {args.sites} sites, seeds {', '.join(map(str, seeds))}"
        + ("" if args.no_real_sites else real_sources)
    )
    training["total_seconds"] = round(time.monotonic() - started, 1)
    out = model.save(args.out, training)
    training["file_bytes"] = out.stat().st_size
    model.save(out, training)
    card = out.with_suffix(".md")
    results_path = Path(args.detector_results)
    results = json.loads(results_path.read_text()) if results_path.is_file() else None
    card.write_text(model_card(out, LinkPredictor.load(out).meta_, results), encoding="utf-8")
    print(json.dumps(training.get("cross_validation", {}).get("scores", {}), indent=1))
    print(f"wrote {out} and {card} in {training['total_seconds']} s")
    return 0


def run_train_pair_verifier(args: argparse.Namespace) -> int:
    import json
    import time
    from collections import Counter
    from datetime import UTC, datetime

    from bilingual_spider.patterns.verifier_training import (
        fitted_verifier,
        leave_sites_out,
        real_site_pair_examples,
    )
    from bilingual_spider.sandbox.real_site import load_sites

    started = time.monotonic()
    examples = real_site_pair_examples(args.cache, max_pairs_per_site=args.max_pairs_per_site)
    holdout = sorted(site.name for site in load_sites() if site.holdout)
    evaluation = leave_sites_out(examples, holdout, threshold=args.threshold)
    trained_on = [e for e in examples if e.site not in holdout]
    model = fitted_verifier(trained_on, threshold=args.threshold)
    meta = {
        "command": f"bilingual-spider train pair-verifier --max-pairs-per-site "
        f"{args.max_pairs_per_site} --threshold {args.threshold} --out {args.out}",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "trained_on": sorted({e.site for e in trained_on}),
        "held_out": holdout,
        "pairs": dict(Counter(e.kind for e in trained_on)),
        "fitted_on": "the pairs that pass the copy check (copied share <= 0.5), as a crawl gives "
        "them to the verifier",
        "leave_sites_out": evaluation,
        "seconds": round(time.monotonic() - started, 1),
    }
    model.save(args.out, meta)
    print(json.dumps(meta, indent=1))
    return 0


def run_train_topic_classifier(args: argparse.Namespace) -> int:
    import json
    import time
    from pathlib import Path

    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import GroupKFold

    from bilingual_spider.frontier.topic import (
        TopicPageClassifier,
        topic_model_path,
        topic_training_set,
    )

    if args.seed in BENCHMARK_SEEDS:
        raise ValueError("seeds 0-9 are the benchmarks' worlds: train on another (104)")
    started = time.monotonic()
    world = training_world(args.seed, args.sites, Path(args.worlds_dir))
    documents, labels, groups = topic_training_set(world, args.topic)
    scores = [0.0] * len(documents)
    for train, test in GroupKFold(n_splits=5).split(documents, labels, groups):
        fold = TopicPageClassifier(args.topic).fit(
            [documents[i] for i in train], [labels[i] for i in train]
        )
        for i, p in zip(test, fold.predict_proba([documents[i] for i in test]), strict=True):
            scores[i] = float(p)
    right = sum((p >= 0.5) == y for p, y in zip(scores, labels, strict=True)) / len(labels)
    out = Path(args.out) if args.out else topic_model_path(args.topic)
    TopicPageClassifier(args.topic).fit(documents, labels).save(out)
    report = {
        "topic": args.topic,
        "world": f"seed {args.seed}, {args.sites} sites",
        "pages": len(documents),
        "on_topic_pages": sum(labels),
        "cv_grouped_by_site": {
            "roc_auc": round(roc_auc_score(labels, scores), 4),
            "accuracy_at_0.5": round(right, 4),
        },
        "seconds": round(time.monotonic() - started, 1),
        "file_bytes": out.stat().st_size,
    }
    print(json.dumps(report, indent=1))
    out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


def training_world(seed: int, sites: int, directory: Path) -> Path:
    """The generated world of ``seed`` under ``directory``, generated unless already there."""
    import json

    from bilingual_spider.sandbox.textsource import TextSource
    from bilingual_spider.sandbox.webgraph_write import WORLD_FILE, generate

    params = world_params(seed, sites, [])
    out = directory / f"seed-{seed}-sites-{sites}"
    summary = out / WORLD_FILE
    wanted = json.loads(json.dumps(params.to_dict()))  # as world.json has it (lists, not tuples)
    if summary.is_file() and json.loads(summary.read_text())["params"] == wanted:
        return out
    print(f"generating world {seed} ({sites} sites) in {out} ...", flush=True)
    text = TextSource.from_catalogs(["en", *params.language_weights])
    generate(out, params, text)
    return out


if __name__ == "__main__":
    sys.exit(main())
