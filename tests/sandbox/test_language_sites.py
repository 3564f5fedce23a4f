"""The issue 49 world crawled: Dzongkha (no lid.176 label) and Bokmål/Nynorsk (close neighbours)
documentation sites with English copies under om/sv paths (:mod:`.language_sites`). Before the
change: no dz or nb pair at all, and the detector called the sites "not bilingual"."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bilingual_spider.sandbox.language_sites import SITES, build_world, site_url
from bilingual_spider.sandbox.process import SandboxServer, crawl_in_sandbox, pupsniffer_pairs
from tests.waiting import CRAWL_SECONDS

CRAWLED = (
    "dz-gtk.example", "nordic-gtk.example", "nordic-switcher.example", "west-africa-udhr.example"
)  # fmt: skip
"""Two sites whose URLs name each page's language, two whose links alone do (``marked=False``),
one of them in six languages lid.176 has no label for (Hausa, Igbo, Wolof, Ewe, Bambara,
Tigrinya: the Universal Declaration of Human Rights)."""


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    try:
        return build_world(tmp_path_factory.mktemp("language_sites"))
    except RuntimeError as exc:  # the catalogs of a language are not installed
        pytest.skip(str(exc))


def _site(host: str):
    return next(site for site in SITES if site.host == host)


@pytest.mark.parametrize("host", CRAWLED)
def test_every_translated_language_is_paired_with_its_code_and_no_copy_is(world, host, tmp_path):
    site = _site(host)
    gold = set(world.gold[host])
    with SandboxServer(["--config", str(world.config)]) as server:
        run = pupsniffer_pairs(
            server.proxy_url, [site_url(site)], tmp_path, {"CONCURRENT_REQUESTS_PER_DOMAIN": 8},
            CRAWL_SECONDS, site_budget=400,
        )  # fmt: skip
    pairs = {(p["source_url"], p["target_url"]): p for p in run.pairs}
    served_as = world.languages
    for lang in site.languages:
        mine = {p for p in gold if served_as[p[1]] == lang}
        found = {p for p in mine if p in pairs or p[::-1] in pairs}
        assert len(found) >= 0.9 * len(mine), (lang, sorted(mine - found)[:3])
    signals = Counter()
    for pair, item in pairs.items():
        assert not any(served_as[url] in site.copies for url in pair), pair
        for url, code in zip(pair, (item["source_lang"], item["target_lang"]), strict=True):
            assert code == served_as[url], (url, code)  # the site's code, never bo/no
        signals.update((item.get("verification") or {}).get("language_signals", ()))
    # what decided: the page's URL, or the links naming it (the page itself says en)
    decided = "declared" if site.marked else "linked"
    lacking = "dz" in site.languages or site.texts == "udhr"  # languages lid.176 has no label for
    assert signals[f"{decided}_{'unknown' if lacking else 'close'}"] > 0


@pytest.mark.parametrize(
    ("host", "lang"),
    [
        ("dz-gtk.example", "dz"), ("nordic-gtk.example", "nb"), ("nordic-switcher.example", "nb"),
        ("pacific-udhr.example", "mi"), ("pacific-udhr.example", "ay"),
    ],
)  # fmt: skip
def test_the_detector_calls_the_site_bilingual_in_the_language_it_declares(
    world, host, lang, tmp_path
):
    """Issue 49; the Pacific site's index pages (opaque URLs, ``hreflang``) have headings and an
    untranslated licence only: the detector reads its first article, and Aymara, an English
    copy there, is no translation."""
    output = tmp_path / "verdicts.jsonl"
    crawl_in_sandbox(
        ["--config", str(world.config)], "detect",
        settings={"BILINGUAL_DETECTOR_LANGS": f"en,{lang}"},
        arguments={"seeds": site_url(_site(host))},
        output=output, timeout=CRAWL_SECONDS,
    )  # fmt: skip
    verdict = json.loads(output.read_text().splitlines()[0])
    if lang in _site(host).copies:
        assert verdict["bilingual"] is False, verdict["reason"]
        return
    assert verdict["bilingual"] is True, verdict["reason"]
    assert set(verdict["languages"]) == {"en", lang}
