"""The real site with translated slugs (digital.canada.ca / numerique.canada.ca): its pages and
gold, what its URLs can and cannot tell, the pairs its pages name themselves, and a PupSniffer
crawl of it through the sandbox."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.patterns.alternates import alternate_pairs, page_alternates
from bilingual_spider.patterns.crawl_round import PageRecord
from bilingual_spider.patterns.url_list import mine_url_list
from bilingual_spider.sandbox.slug_sites import HOSTS, SlugSites, prepare
from tests.sandbox.slug_crawl import crawl_slug_pairs


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> SlugSites:
    return prepare(tmp_path_factory.mktemp("slug_cache"))


@pytest.fixture(scope="module")
def pages(sites: SlugSites) -> dict[str, tuple[str, Path]]:
    return {quote(url, safe="/:"): found for url, found in sites.page_files().items()}


def test_every_gold_page_is_served_and_the_gold_pairs_differ_in_their_path(sites, pages):
    gold = sites.gold_pairs()
    assert len(gold) == 215 and len(pages) == 578
    assert all(english in pages and french in pages for english, french in gold)
    assert all(pages[en][0] == "en" and pages[fr][0] == "fr" for en, fr in gold)
    assert sum(urlsplit(en).path != urlsplit(fr).path for en, fr in gold) == 205
    assert prepare(sites.root.parent) == sites  # a second prepare unpacks nothing new
    config = sites.config.read_text()
    assert all(f'host = "{host}"' in config for host in HOSTS.values())


def test_urls_cannot_tell_these_pairs_but_the_pages_name_them(sites, pages):
    gold = set(sites.gold_pairs())
    languages = {url: language for url, (language, _) in pages.items()}
    by_url = {frozenset((p.source, p.target)) for p in mine_url_list(pages, languages).pairs}
    assert len(by_url & {frozenset(pair) for pair in gold}) <= 0.1 * len(gold)
    records = {}
    for url, (language, path) in pages.items():
        contexts = extract_link_contexts(path.read_bytes(), url)
        links = [c.url for c in contexts]
        records[url] = PageRecord.of(url, language, "", links, alternates=page_alternates(contexts))
    named = {(p.source, p.target) for p in alternate_pairs(records)}
    right = named & gold
    assert len(right) >= 0.97 * len(named)  # one of the few wrong ones names a French page
    assert len(right) >= 0.95 * len(gold)  # as English: pair judging drops it (same language)


def test_a_pupsniffer_crawl_pairs_the_translated_slugs(sites, tmp_path):
    pairs, right = crawl_slug_pairs(sites, tmp_path)
    assert len(right) >= 40, [(p["source_url"], p["method"]) for p in pairs][:20]
    assert len(right) >= 0.95 * len(pairs)
    # the switchers pair them; a page whose switcher pair failed is in its index's list
    methods = {p["method"] for p in right}
    assert "switcher" in methods and methods <= {"switcher", "listed"}
    assert all(p["verification"] for p in right)  # verified by content like every pair
