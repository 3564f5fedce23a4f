"""``bilingual-spider demo``: fetch the real sites if needed, serve the sandbox web, crawl it, and
print what the crawl found next to the sandbox's ground truth."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from bilingual_spider.sandbox.realsites import AptUnavailable, gold_pairs_path, prepare


def run_demo(pages: int = 400, out_dir: str | Path = "out/demo") -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    try:
        sites = prepare()
    except AptUnavailable as exc:
        print(f"demo: the real sites cannot be fetched here: {exc}")
        return 3
    print(f"sandbox web: {len(sites)} real sites; crawling {pages} pages ...", flush=True)
    pages_file, stats_file = out / "pages.jsonl", out / "stats.json"
    with SandboxServer(["--real-sites"]) as sandbox:
        crawl = run_spider(
            "forward",
            settings={
                "BILINGUAL_SANDBOX_PROXY": sandbox.proxy_url,
                "DOWNLOAD_DELAY": 0,
                "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
                "CLOSESPIDER_PAGECOUNT": pages,
                "BILINGUAL_STATS_FILE": stats_file,
                "LOG_LEVEL": "WARNING",
            },
            output=pages_file,
        )
    if crawl.returncode != 0:
        print(crawl.stderr[-3000:])
        return crawl.returncode
    records = [json.loads(line) for line in pages_file.read_text().splitlines() if line]
    print(summary(records, gold_pairs_path()))
    stats = json.loads(stats_file.read_text())
    print(
        f"\n{stats.get('item_scraped_count', 0)} pages recorded in {pages_file}; "
        f"finish reason: {stats.get('finish_reason')}; stats in {stats_file}"
    )
    return 0


def summary(records: list[dict], gold_file: Path) -> str:
    """A table per host: pages, declared languages, translation links seen, gold pairs covered."""
    fetched = {r["url"] for r in records if r["status"] == 200}
    by_host: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        by_host[record["host"]].append(record)
    gold_by_host: Counter[str] = Counter()
    covered: Counter[str] = Counter()
    for line in gold_file.read_text().splitlines():
        source, target = line.split("\t")[:2]
        host = source.split("/")[2]
        gold_by_host[host] += 1
        covered[host] += source in fetched and target in fetched
    lines = [
        f"{'host':<22} {'pages':>5}  {'hreflang links':>14}  {'gold pairs fetched':>18}  languages"
    ]
    for host in sorted(by_host, key=lambda h: -len(by_host[h])):
        host_records = by_host[host]
        langs = Counter(r["declared_lang"] for r in host_records if r["declared_lang"])
        alternates = sum(len(r["alternates"]) for r in host_records)
        gold = f"{covered[host]}/{gold_by_host[host]}" if gold_by_host[host] else "-"
        top = " ".join(f"{lang}:{n}" for lang, n in langs.most_common(6)) or "(none declared)"
        lines.append(f"{host:<22} {len(host_records):>5}  {alternates:>14}  {gold:>18}  {top}")
    return "\n".join(lines)
