"""The generated web: determinism, and a ground truth that matches what is served."""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html

from bilingual_spider.language.identification import default_identifier
from bilingual_spider.sandbox.engine_files import read_links, read_pages
from bilingual_spider.sandbox.page_pack import PagePack, url_key
from bilingual_spider.sandbox.textsource import TextSource, is_prose, is_translation
from bilingual_spider.sandbox.webgraph import plan_world
from bilingual_spider.sandbox.webgraph_params import (
    LANGUAGES,
    SWITCHER_PLACEMENTS,
    WorldParams,
    parameter_table,
)
from bilingual_spider.sandbox.webgraph_render import (
    display_name,
    has_splash,
    page_url,
    render_site,
    render_splash,
    root_url,
    sentence,
    switcher_languages,
    switcher_link,
)
from bilingual_spider.sandbox.webgraph_stats import power_law_exponent, world_stats
from bilingual_spider.sandbox.webgraph_write import (
    ENGINE_DIR,
    PACK_DIR,
    generate,
    gold_pairs,
    load_gold_pairs,
    load_ground_truth,
)
from tests.conftest import catalog_text

WORLD_LANGUAGES = ["en", "es", "fr", "de", "ja", "zh-Hans", "zh-Hant"]


@pytest.fixture(scope="session")
def text_source() -> TextSource:
    text = catalog_text(WORLD_LANGUAGES)
    text.require(WORLD_LANGUAGES)
    return text


@pytest.fixture(scope="session")
def world_dir(tmp_path_factory: pytest.TempPathFactory, text_source: TextSource) -> Path:
    out = tmp_path_factory.mktemp("world") / "w"
    generate(out, WorldParams(seed=11, sites=400), text_source)
    return out


@pytest.fixture(scope="session")
def pack(world_dir: Path) -> PagePack:
    return PagePack(world_dir / PACK_DIR)


def _digest(directory: Path) -> dict[str, str]:
    return {
        str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and p.name != "sandbox.toml"  # the config names its own directory
    }


def test_same_seed_same_world_other_seed_other_world(tmp_path: Path, text_source: TextSource):
    generate(tmp_path / "a", WorldParams(seed=5, sites=60), text_source)
    generate(tmp_path / "b", WorldParams(seed=5, sites=60), text_source)
    generate(tmp_path / "c", WorldParams(seed=6, sites=60), text_source)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    differing = [k for k, v in _digest(tmp_path / "a").items() if _digest(tmp_path / "c")[k] != v]
    assert "gold_pairs.tsv" in differing and "pages/pages.pack" in differing


def test_regenerating_replaces_the_world_and_never_a_foreign_directory(
    tmp_path: Path, text_source: TextSource
):
    generate(tmp_path / "w", WorldParams(seed=1, sites=20), text_source)
    generate(tmp_path / "w", WorldParams(seed=2, sites=30), text_source)
    assert len(load_ground_truth(tmp_path / "w")["sites"]) == 30
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(ValueError, match="refusing"):
        generate(foreign, WorldParams(sites=20), text_source)
    assert (foreign / "notes.txt").read_text() == "keep me"


def test_every_gold_pair_is_served_in_the_languages_it_claims(world_dir: Path, pack: PagePack):
    pairs = load_gold_pairs(world_dir)
    assert len(pairs) > 300
    identifier = default_identifier()
    for source, target, source_lang, target_lang, _site in random.Random(0).sample(pairs, 120):
        for url, lang in ((source, source_lang), (target, target_lang)):
            found = pack.get(url_key(url))
            assert found is not None, url
            text = lxml_html.fromstring(found[0]).xpath("string(//div[@id='content'])")
            assert identifier.identify(text)[0].lang == lang, (url, text[:80])


def test_sites_kinds_languages_and_pairs_agree_with_ground_truth(world_dir: Path, pack: PagePack):
    truth = load_ground_truth(world_dir)
    pairs_by_site = Counter(pair[4] for pair in load_gold_pairs(world_dir))
    for site in truth["sites"]:
        if site["bilingual"]:
            assert pairs_by_site[site["name"]] >= len(site["languages"]) - 1, site["name"]
            assert site["languages"][0] == "en" and len(site["languages"]) >= 2
        else:
            assert pairs_by_site[site["name"]] == 0, site["name"]
        root = pack.get(url_key(site["root_url"]))
        assert root is not None and root[1].startswith("text/html"), site["root_url"]


def test_the_world_has_every_pair_layout_switcher_and_decoy_the_issue_asks_for(
    text_source: TextSource,
):
    truth_sites = plan_world(WorldParams(seed=3, sites=1500), text_source).sites
    targets = [s for s in truth_sites if s.is_target]
    pairs = {f"en-{lang}" for s in targets for lang in s.languages[1:]}
    assert {"en-es", "en-fr", "en-de", "en-ja", "en-zh-Hans", "en-zh-Hant"} <= pairs
    assert {"directory", "parameter", "subdomain", "suffix", "filename", "cctld"} <= {
        s.layout for s in targets
    }
    assert {"native", "code", "word", "flag"} <= {s.switcher for s in targets}
    assert {"switcher_without_translation", "mostly_untranslated", "mixed_language"} <= {
        s.decoy for s in truth_sites
    }
    assert any(s.domain.endswith((".ca", ".hk", ".ch")) for s in truth_sites if s.decoy)
    tlds = Counter(s.domain.rsplit(".", 1)[1] for s in truth_sites)
    assert tlds["com"] and tlds["es"] and tlds["jp"] and (tlds["cn"] or tlds["tw"])
    assert {"hk_style", "name", "code"} <= {s.url_tokens for s in targets}


LAYOUT_URL = {
    "directory": re.compile(r"^http://[^/]+/([\w-]+/)?([\w-]+\.html)?$"),
    "filename": re.compile(r"^http://[^/]+/[\w-]+_[\w-]+\.html$"),
    "parameter": re.compile(r"^http://[^/]+/[\w-]+\.php\?lang=[\w-]+$"),
    "suffix": re.compile(r"^http://[^/]+/[\w-]+\.html\.[\w-]+$"),
}


MARKER_SHAPE_URL = {
    "one_sided": re.compile(r"^http://[^/]+/[\w-]+_(f|[a-z]{2}|zh-[a-z]+)\.asp$"),
    "glued_initial": re.compile(r"^http://[^/]+/[\w-]+\d{3}f\.html$"),
    "initial_directory": re.compile(r"^http://[^/]+/docs-f/\d+\.htm$"),
    "numeric": re.compile(r"^http://[^/]+/[\w-]+\.php\?Lang=[2-9]$"),
    "numeric_one_sided": re.compile(r"^http://[^/]+/article\.php\?id=\d+&lang=[2-9]$"),
}


def test_sites_mark_languages_in_every_shape_of_issue_31(text_source: TextSource):
    """The shapes WMT16's sites mark languages in (one side only, initials glued to a number,
    initials in a directory, numbers), each on some site; the English page of a one-sided
    shape is unmarked."""
    world = plan_world(WorldParams(seed=3, sites=1500), text_source)
    shaped = [s for s in world.sites if s.marker_shape]
    assert set(MARKER_SHAPE_URL) == {s.marker_shape for s in shaped}
    assert all(s.is_target for s in shaped)
    for site in shaped:
        english = page_url(site, "en", 1)
        assert not re.search(r"_f\.|_[a-z]{2}\.|&lang", english) or site.marker_shape in (
            "glued_initial",
            "initial_directory",
            "numeric",
        ), english


def test_marker_shapes_change_no_other_draw_of_the_world(text_source: TextSource):
    params = WorldParams(seed=3, sites=300)
    shaped = plan_world(params, text_source).sites
    plain = plan_world(replace(params, marker_shape_share=0.0), text_source).sites
    assert any(s.marker_shape for s in shaped) and not any(s.marker_shape for s in plain)
    for a, b in zip(shaped, plain, strict=True):
        assert (a.layout, a.languages, a.slugs, a.translated, a.external) == (
            b.layout,
            b.languages,
            b.slugs,
            b.translated,
            b.external,
        )


def test_urls_follow_each_sites_layout(world_dir: Path, text_source: TextSource):
    world = plan_world(WorldParams(seed=11, sites=400), text_source)
    for site in (s for s in world.sites if s.is_target):
        lang = site.languages[1]
        page = max(site.pages_in(lang))
        url, token = page_url(site, lang, page), LANGUAGES[lang].url_tokens[site.url_tokens]
        if site.marker_shape:
            assert MARKER_SHAPE_URL[site.marker_shape].match(url), (site.marker_shape, url)
        elif site.layout in LAYOUT_URL:
            assert LAYOUT_URL[site.layout].match(url), (site.layout, url)
            assert token in url
        elif site.layout == "subdomain":
            assert url.startswith(f"http://{token}.")
        elif site.layout == "cctld":
            assert url.split("/")[2] != page_url(site, "en", page).split("/")[2]


def test_decoys_offer_no_translation(world_dir: Path, pack: PagePack, text_source: TextSource):
    world = plan_world(WorldParams(seed=11, sites=400), text_source)
    identifier = default_identifier()
    seen: Counter[str] = Counter()
    untranslated: Counter[str] = Counter()  # language ID of "translations" that are not
    mixed: Counter[bool] = Counter()  # sentences of mixed pages in the language expected
    for site in (s for s in world.sites if s.decoy):
        seen[site.decoy] += 1
        if site.decoy == "switcher_without_translation":
            for page in range(min(3, len(site.slugs))):
                link = switcher_link(site, site.second_language, page)
                assert pack.get(url_key(link.url)) is None, link.url
                assert pack.get(url_key(page_url(site, site.primary, page))) is not None
        elif site.decoy == "mostly_untranslated":
            texts = [p.text for p in render_site(world, site) if p.language == site.languages[1]]
            untranslated.update(g[0].lang for g in identifier.identify_many(texts))
        elif site.decoy == "mixed_language":
            # sentences alternate between the two languages
            texts = [sentence(world, site, site.primary, 0, i) for i in range(len(site.text[0]))]
            for i, guess in enumerate(identifier.identify_many(texts)):
                expected = site.second_language if i % 2 else site.primary
                mixed[guess[0].lang.split("-")[0] == expected.split("-")[0]] += 1
    assert len(seen) >= 3
    assert untranslated["en"] >= 0.8 * sum(untranslated.values()), untranslated
    assert mixed[True] >= 0.85 * sum(mixed.values()), mixed


def test_engine_links_are_exactly_the_links_of_the_served_html(world_dir: Path, pack: PagePack):
    by_source: dict[str, set[str]] = {}
    for link in read_links(world_dir / ENGINE_DIR):
        by_source.setdefault(link.source, set()).add(link.target)
    pages = [p for p in read_pages(world_dir / ENGINE_DIR) if p.status == 200]
    assert len(pages) == len(pack)
    for page in random.Random(1).sample(pages, 150):
        body, _ = pack.get(url_key(page.url))
        tree = lxml_html.fromstring(body)
        hrefs = set(tree.xpath("//a/@href")) | set(tree.xpath("//select/option/@value")) - {""}
        assert hrefs == by_source.get(page.url, set()), page.url


def test_hub_pages_list_the_sites_the_ground_truth_says(world_dir: Path, pack: PagePack):
    truth = load_ground_truth(world_dir)
    root_of = {s["name"]: s["root_url"] for s in truth["sites"]}
    assert truth["hubs"]
    for hub in truth["hubs"]:
        body, _ = pack.get(url_key(hub["url"]))
        hrefs = set(lxml_html.fromstring(body).xpath("//ul[@class='directory']//a/@href"))
        assert hrefs == {root_of[name] for name in hub["sites"]}


def test_stats_count_what_was_written(world_dir: Path):
    stats = world_stats(world_dir)
    truth = load_ground_truth(world_dir)
    assert stats["sites"] == 400 == sum(stats["sites_by_kind"].values())
    assert stats["sites_by_kind"]["bilingual"] == sum(
        1 for s in truth["sites"] if s["kind"] == "bilingual"
    )
    assert stats["gold_pairs"] == len(load_gold_pairs(world_dir))
    assert stats["bilingual_sites_by_layout"]
    reach = stats["bilingual_reachable_from_hubs"]
    assert stats["bilingual_listed_by_hubs"]["count"] <= reach["count"] <= reach["of"]
    assert stats["site_in_degree"]["max"] > 4 * stats["site_in_degree"]["median"]


def test_power_law_exponent_recovers_a_known_exponent():
    rng = random.Random(0)
    # A discrete power law with exponent 2.5 from x_min = 2 (Clauset et al. 2009, eq. D.6).
    values = [int(1.5 * (1 - rng.random()) ** (-1 / 1.5) + 0.5) for _ in range(20000)]
    assert 2.3 < power_law_exponent(values) < 2.7
    assert power_law_exponent([1, 1, 1]) is None


def test_every_parameter_says_where_its_default_comes_from():
    rows = parameter_table()
    assert len(rows) > 20
    assert all(source for _, _, source in rows)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="unknown world parameter"):
        WorldParams.from_dict({"share_bilinguall": 0.3})
    with pytest.raises(ValueError):
        WorldParams(share_bilingual=0.9, share_decoys=0.5)
    with pytest.raises(ValueError, match="unknown languages"):
        WorldParams(language_weights={"xx": 1.0})


@pytest.mark.parametrize(
    "english, ok",
    [
        ("Display architecture specific information, if any", True),
        ("Print Preview", True),
        ("  --help     display this help and exit", False),
        ("Cannot open %s: %s", False),
        ("usage: tar [OPTION...]", False),
        ("x", False),
    ],
)
def test_prose_filter(english: str, ok: bool):
    assert is_prose(" ".join(english.split())) is ok


def test_a_translation_must_be_in_its_script():
    assert is_translation("Open the file", "ファイルを開く", "ja")
    assert not is_translation("Open the file", "Open the file", "fr")
    assert not is_translation("Open the file", "Open file", "ja")


def test_target_sites_can_crowd_into_topics_and_the_others_stay_uniform(text_source: TextSource):
    params = WorldParams(seed=3, sites=300, target_topic_weights={"travel": 1.0})
    world = plan_world(params, text_source)
    targets = [s for s in world.sites if s.kind in ("bilingual", "multilingual")]
    others = Counter(s.topic for s in world.sites if s.kind == "monolingual")
    assert targets and {s.topic for s in targets} == {"travel"}
    assert len(others) == 6
    with pytest.raises(ValueError, match="unknown topics"):
        WorldParams(target_topic_weights={"sport": 1.0})


def _out_link_languages(world: Any) -> Counter[tuple[str, str]]:
    """(language of the linking site, language of the linked site) of every out-of-site link."""
    return Counter(
        (site.language, world.sites[target].language)
        for site in world.sites
        for _, target in site.external
    )


def test_language_locality_keeps_out_links_among_sites_of_one_language(
    text_source: TextSource,
):
    """Chan and Yamana's web: English pages rarely link to Japanese ones, Japanese pages often
    link to English ones."""
    params = WorldParams(seed=4, sites=600, language_locality={"en": 0.95, "ja": 0.3})
    links = _out_link_languages(plan_world(params, text_source))
    english = sum(n for (source, _), n in links.items() if source == "en")
    japanese = sum(n for (source, _), n in links.items() if source == "ja")
    assert links[("en", "ja")] / english < 0.02
    assert links[("ja", "en")] / japanese > 0.2
    assert links[("ja", "ja")] / japanese > 0.3
    with pytest.raises(ValueError, match="unknown languages"):
        WorldParams(language_locality={"xx": 0.5})


def test_title_anchors_name_the_page_they_lead_to_in_its_language(text_source: TextSource):
    world = plan_world(WorldParams(seed=4, sites=200, title_anchor_share=1.0), text_source)
    names = {display_name(site) for site in world.sites}
    checked = 0
    for site in [s for s in world.sites if s.kind != "hub"][:60]:  # hubs list sites by name
        for page in render_site(world, site):
            for link in page.links:
                target = next((s for s in world.sites if root_url(s) == link.url), None)
                if target is None or target is site or has_splash(target):
                    continue
                title = world.text.messages[target.titles[0]].text(target.primary)
                assert link.anchor in (title, display_name(site))  # the home link: the name
                checked += link.anchor not in names
    assert checked > 20
    with pytest.raises(ValueError, match="title_anchor_share"):
        WorldParams(title_anchor_share=1.5)


def test_korean_sites_are_written_in_korean_under_kr():
    text = TextSource.from_catalogs(["en", "ko"])
    params = WorldParams(seed=2, sites=80, language_weights={"ko": 1.0}, share_decoys=0.0)
    world = plan_world(params, text)
    korean = [s for s in world.sites if s.language == "ko"]
    assert korean and any(s.domain.endswith(("kr", "co.kr")) for s in korean)
    site = next(s for s in korean if s.kind == "monolingual")
    page = render_site(world, site)[0]
    assert default_identifier().identify(page.text)[0].lang == "ko"


def test_prose_sites_write_long_pages_and_link_to_each_other(text_source: TextSource):
    params = WorldParams(seed=4, sites=400, prose_site_share=0.2, prose_locality=0.6)
    world = plan_world(params, text_source)
    prose = [s for s in world.sites if s.prose]
    assert 0.1 < len(prose) / len(world.sites) < 0.3
    assert all(len(text) >= 20 for s in prose for text in s.text)
    to_prose = [world.sites[t].prose for s in prose for _, t in s.external]
    assert sum(to_prose) / len(to_prose) > 0.6
    page = render_site(world, prose[0])[0]
    paragraphs = lxml_html.fromstring(page.html).xpath("//div[@id='content']/p")
    assert len(paragraphs) < len(prose[0].text[0]) / 3  # paragraphs of 4 to 6 sentences


def _english_home(world: Any, site: Any) -> Any:
    return next(p for p in render_site(world, site) if p.url == page_url(site, "en", 0))


def test_switchers_sit_in_a_header_a_footer_a_select_menu_or_a_sidebar_list(
    world_dir: Path, pack: PagePack, text_source: TextSource
):
    world = plan_world(WorldParams(seed=11, sites=400), text_source)
    targets = [s for s in world.sites if s.is_target and "en" in s.languages]
    assert {s.switcher_placement for s in targets} == set(SWITCHER_PLACEMENTS)
    checked: Counter[str] = Counter()
    for site in targets:
        page = _english_home(world, site)
        tree = lxml_html.fromstring(page.html)
        switcher_urls = {switcher_link(site, lang, 0).url for lang in site.languages[1:]}
        assert switcher_urls <= {link.url for link in page.links}
        placement = site.switcher_placement
        if placement == "select":
            values = set(tree.xpath("//div[@id='header']//select/option/@value")) - {""}
            assert values == switcher_urls
            assert tree.xpath("//select/@onchange")
            assert not set(tree.xpath("//a/@href")) & switcher_urls  # URLs in the options only
            for url in values:  # real pages of the site, served
                assert pack.get(url_key(url)) is not None, url
        elif placement == "footer":
            footer = tree.xpath("//div[@id='footer']")[0]
            assert "Other languages:" in footer.text_content()
            assert set(footer.xpath(".//a/@href")) == switcher_urls
        elif placement == "list":
            items = tree.xpath("//div[@id='sidebar']/ul[@class='languages']/li/a/@href")
            assert set(items) == switcher_urls
        else:
            assert set(tree.xpath("//div[@id='header']/div[@class='languages']/a/@href")) == (
                switcher_urls
            )
        checked[placement] += 1
    assert set(checked) == set(SWITCHER_PLACEMENTS)


def test_language_choosers_label_languages_as_the_sites_switcher_does(text_source: TextSource):
    world = plan_world(WorldParams(seed=11, sites=400), text_source)
    choosers = [s for s in world.sites if has_splash(s)]
    assert {s.switcher for s in choosers} == {"native", "code", "word", "flag"}
    assert {s.chooser_hreflang for s in choosers} == {True, False}
    for site in choosers:
        page = render_splash(site)
        tree = lxml_html.fromstring(page.html)
        anchors = tree.xpath("//a")
        assert [a.get("href") for a in anchors] == [link.url for link in page.links]
        languages = switcher_languages(site)
        if site.switcher == "flag":
            assert [a.xpath("string(img/@alt)") for a in anchors] == [
                LANGUAGES[lang].native for lang in languages
            ]
            assert all(a.xpath("img/@src")[0].startswith("/images/flags/") for a in anchors)
        else:
            attribute = {"native": "native", "code": "short", "word": "english_name"}
            expected = [getattr(LANGUAGES[lang], attribute[site.switcher]) for lang in languages]
            assert [a.text_content() for a in anchors] == expected
        hreflangs = [a.get("hreflang") for a in anchors]
        assert hreflangs == (languages if site.chooser_hreflang else [None] * len(languages))


def test_switcher_placements_change_no_other_draw_of_the_world(text_source: TextSource):
    """The placement is drawn from a generator of its own: a world with every switcher in the
    header (as before placements existed) has the same sites, pages, links and gold pairs."""
    params = WorldParams(seed=8, sites=250)
    header_only = WorldParams(
        seed=8, sites=250, switcher_placement_weights={"header": 1.0}, share_chooser_hreflang=0
    )
    drawn, fixed = plan_world(params, text_source), plan_world(header_only, text_source)
    assert {s.switcher_placement for s in fixed.sites if s.switcher} == {"header"}
    assert len({s.switcher_placement for s in drawn.sites if s.switcher}) == 4
    for site, same in zip(drawn.sites, fixed.sites, strict=True):
        assert site.switcher_placement in (SWITCHER_PLACEMENTS if site.switcher else ("",))
        site.switcher_placement, site.chooser_hreflang = same.switcher_placement, False
        assert site == same
    assert list(gold_pairs(drawn)) == list(gold_pairs(fixed))
    drawn, fixed = plan_world(params, text_source), plan_world(header_only, text_source)
    for site, same in zip(drawn.sites[:80], fixed.sites[:80], strict=True):
        pages, same_pages = render_site(drawn, site), render_site(fixed, same)
        assert [(p.url, [link.url for link in p.links]) for p in pages] == [
            (p.url, [link.url for link in p.links]) for p in same_pages
        ]
    with pytest.raises(ValueError, match="switcher_placement_weights"):
        WorldParams(switcher_placement_weights={"sidebar": 1.0})


def test_links_land_below_roots_and_switchers_stay_home_as_asked(text_source: TextSource):
    from urllib.parse import urlsplit

    from bilingual_spider.sandbox.webgraph_render import (
        render_page,
        root_url,
        switcher_languages,
        switcher_link,
    )

    def out_links(params: WorldParams) -> tuple[list[str], set[str], object]:
        world = plan_world(params, text_source)
        roots = {root_url(site) for site in world.sites}
        urls = []
        for site in world.sites:
            if site.kind == "hub":
                continue
            for language in site.languages:
                for page in site.pages_in(language):
                    for link in render_page(world, site, language, page).links:
                        if urlsplit(link.url).hostname not in site.hosts.values():
                            urls.append(link.url)
        return urls, roots, world

    default, roots, _ = out_links(WorldParams(seed=6, sites=150))
    assert default and all(url in roots for url in default)  # the default: every link a root
    deep, roots, world = out_links(
        WorldParams(seed=6, sites=150, deep_link_share=1.0, share_switcher_home_only=1.0)
    )
    assert len(deep) == len(default)  # the same links, landing elsewhere
    assert sum(url not in roots for url in deep) / len(deep) > 0.9
    switched = [s for s in world.sites if s.switcher and len(s.slugs) > 3]
    assert switched
    for site in switched:
        page = site.pages_in(site.primary)[2]
        home = {link.url for link in render_page(world, site, site.primary, 0).links}
        inner_page = render_page(world, site, site.primary, page)
        inner = {link.url for link in inner_page.links}
        others = [lang for lang in switcher_languages(site) if lang != site.primary]
        assert all(switcher_link(site, lang, 0).url in home for lang in others)
        assert not any(switcher_link(site, lang, page).url in inner for lang in others)
        assert 'hreflang="' not in inner_page.html
