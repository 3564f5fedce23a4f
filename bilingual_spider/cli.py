"""The ``bilingual-spider`` command: the sandbox web, the demo crawl, and offline tools."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

    demo = commands.add_parser(
        "demo", help="start the sandbox web, crawl it, and print what was found"
    )
    demo.add_argument("--pages", type=int, default=400, help="page budget of the crawl")
    demo.add_argument("--out", default="out/demo", help="directory for the crawl's outputs")
    demo.set_defaults(run=run_demo)
    return parser


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
    from bilingual_spider.sandbox.realsites import AptUnavailable, prepare

    try:
        sites = prepare(args.cache, args.sites)
    except AptUnavailable as exc:
        print(f"bilingual-spider: real sites skipped: {exc}", file=sys.stderr)
        return 3
    width = max(len(s["name"]) for s in sites)
    print(f"{'site':<{width}}  {'kind':<12} {'pages':>6} {'gold pairs':>10}  languages")
    for site in sites:
        print(
            f"{site['name']:<{width}}  {site['kind']:<12} {site['pages']:>6} "
            f"{site['gold_pairs']:>10}  {','.join(site['languages'])}"
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

        for source in args.inputs:
            result = asdict(page_language(read_page(source), identifier))
            print(json.dumps({"source": source, **result}, ensure_ascii=False), flush=True)
        return 0
    for source in args.inputs:
        stream = sys.stdin if source == "-" else open(source, encoding="utf-8", errors="replace")  # noqa: SIM115
        with stream:
            batch: list[str] = []
            for line in stream:
                batch.append(line.rstrip("\n"))
                if len(batch) >= 10_000:
                    print_decisions(identifier, batch)
                    batch = []
            print_decisions(identifier, batch)
    return 0


def print_decisions(identifier: object, texts: list[str]) -> None:
    import json

    for decision in identifier.decide_many(texts):  # type: ignore[attr-defined]
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
    """An HTML file, or a URL fetched with the environment's proxy settings."""
    if source.startswith(("http://", "https://")):
        import urllib.request

        with urllib.request.urlopen(source, timeout=30) as answer:  # noqa: S310
            return answer.read()
    with open(source, "rb") as f:
        return f.read()


def run_demo(args: argparse.Namespace) -> int:
    from bilingual_spider.sandbox.demo import run_demo as demo

    return demo(pages=args.pages, out_dir=args.out)


if __name__ == "__main__":
    sys.exit(main())
