"""Training data of the Link Predictor: labels from ground truth, language choosers, reading a
generated world and the real sites' mounts, and the model card."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bilingual_spider.detection import training
from bilingual_spider.detection.training import (
    PageLanguages,
    TrainingSet,
    add_language_choosers,
    build_training_set,
    canonical_url,
    label,
    language_label,
    model_card,
    mount_pages,
    scores_of,
    translation_groups,
)
from bilingual_spider.links.contexts import LinkContext, extract_link_contexts

SITE = "http://www.example.com"


def link(page: str, target: str) -> LinkContext:
    (context,) = extract_link_contexts(f'<a href="{target}">x</a>', page)
    return context


def test_canonical_urls_read_a_directory_as_its_index():
    assert canonical_url("HTTP://Www.Example.com/es/") == "http://www.example.com/es/index.html"
    assert canonical_url("http://www.example.com") == "http://www.example.com/index.html"
    assert canonical_url("http://x.example/a.php?lang=es#top") == "http://x.example/a.php?lang=es"


def test_links_between_any_two_versions_of_a_page_are_positive():
    groups = translation_groups(
        [(f"{SITE}/en/a.html", f"{SITE}/es/a.html"), (f"{SITE}/en/a.html", f"{SITE}/fr/a.html")]
    )
    assert label(link(f"{SITE}/en/a.html", "/es/a.html"), groups) == 1
    assert label(link(f"{SITE}/es/a.html", "/en/a.html"), groups) == 1  # other direction
    assert label(link(f"{SITE}/es/a.html", "/fr/a.html"), groups) == 1  # two translations
    assert label(link(f"{SITE}/en/a.html", "/en/b.html"), groups) == 0  # navigation
    assert label(link(f"{SITE}/en/b.html", "/es/a.html"), groups) == 0  # not its translation
    assert label(link(f"{SITE}/en/a.html", "/en/a.html"), groups) == 0  # itself


def test_a_language_chooser_joins_the_group_but_a_page_translated_nowhere_does_not():
    groups = translation_groups(
        [(f"{SITE}/en/", f"{SITE}/es/"), (f"{SITE}/en/", f"{SITE}/fr/")]
        + [(f"{SITE}/en/p{i}.html", f"{SITE}/es/p{i}.html") for i in range(3)]
    )
    splash = f"{SITE}/"
    untranslated = f"{SITE}/en/lonely.html"
    pages = {
        splash: [link(splash, f"/{lang}/") for lang in ("en", "es", "fr")],
        untranslated: [link(untranslated, href) for href in ("/en/", "/es/", "/fr/")]
        + [link(untranslated, f"/en/p{i}.html") for i in range(3)],
    }
    assert add_language_choosers(groups, pages) == 1
    assert label(pages[splash][1], groups) == 1
    assert label(pages[untranslated][1], groups) == 0


def test_the_language_label_takes_any_page_of_the_site_in_another_language():
    gold = [
        (f"{SITE}/en/a.html", f"{SITE}/es/a.html", "en", "es"),
        (f"{SITE}/en/", f"{SITE}/es/", "en", "es"),
        (f"{SITE}/en/b.html", f"{SITE}/fr/b.html", "en", "fr"),
    ]
    nominal = {canonical_url(row[0]): "en" for row in gold}
    nominal |= {canonical_url(f"{SITE}/fr/fake.html"): "fr", canonical_url(f"{SITE}/"): ""}
    languages = PageLanguages.from_gold(nominal, gold)

    def y(page: str, target: str) -> int:
        own = languages.nominal.get(canonical_url(page), "")
        return language_label(link(page, target), own, languages.known)

    assert y(f"{SITE}/en/a.html", "/es/a.html") == 1  # its translation
    assert y(f"{SITE}/en/lonely.html", "/es/") == 1  # another language's entry page
    assert y(f"{SITE}/", "/fr/b.html") == 1  # a chooser (no language) to a page in one
    assert y(f"{SITE}/en/a.html", "/en/b.html") == 0  # navigation in one language
    assert y(f"{SITE}/en/a.html", "/fr/fake.html") == 0  # a page no gold pair vouches for
    assert y(f"{SITE}/en/a.html", "http://other.example/es/a.html") == 0  # another site
    assert y(f"{SITE}/es/a.html", "/es/a.html") == 0  # itself
    # the pairs label sees a chooser's link to another page in another language as negative
    groups = translation_groups(row[:2] for row in gold)
    assert label(link(f"{SITE}/en/lonely.html", "/es/"), groups) == 0


def test_a_link_to_a_page_the_site_does_not_have_is_left_unlabelled():
    gold = [(f"{SITE}/a.html", f"{SITE}/a.fr.html", "en", "fr")]
    served = [canonical_url(f"{SITE}/{page}") for page in ("a.html", "a.fr.html", "b.html")]
    languages = PageLanguages.from_gold({canonical_url(f"{SITE}/a.html"): "en"}, gold, served)

    def y(target: str) -> int | None:
        return language_label(link(f"{SITE}/a.html", target), "en", languages.known, served)

    assert y("a.fr.html") == 1
    assert y("b.html") == 0
    assert y("a.ca.html") is None  # "Other languages: Català" on a mirror without it: unknown
    assert y("http://other.example/a.ca.html") == 0  # another site: a negative as before
    assert language_label(link(f"{SITE}/a.html", "a.ca.html"), "en", languages.known) == 0


def test_training_set_of_a_generated_world(generated_world: Path):
    data = build_training_set([generated_world], real_sites=False, label_rule="pairs")
    described = data.describe()
    source = described["by_source"]["world201"]
    assert described["links"] == len(data.contexts) == len(data.labels) == len(data.groups)
    assert 0 < described["positives"] < described["links"] / 2
    assert source["sites"] == 60 and source["pages"] > 60
    assert all(group.startswith("world201:") for group in data.groups)
    gold = {
        tuple(line.split("\t")[:2])
        for line in (generated_world / "gold_pairs.tsv").read_text().splitlines()
    }
    for context, y in zip(data.contexts, data.labels, strict=True):
        pair = (context.page_url, context.url)
        if pair in gold or pair[::-1] in gold:
            assert y == 1, pair


def test_language_labels_of_a_generated_world_include_every_gold_pair(generated_world: Path):
    pairs = build_training_set([generated_world], real_sites=False, label_rule="pairs")
    data = build_training_set([generated_world], real_sites=False)
    assert data.describe()["positives"] > pairs.describe()["positives"]
    positive = {(c.page_url, c.url) for c, y in zip(data.contexts, data.labels, strict=True) if y}
    for context, y in zip(pairs.contexts, pairs.labels, strict=True):
        if y:
            assert (context.page_url, context.url) in positive, context.url
    with pytest.raises(ValueError):
        build_training_set([generated_world], real_sites=False, label_rule="manual")


@pytest.fixture(scope="module")
def generated_world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from bilingual_spider.sandbox.webgraph_params import WorldParams
    from bilingual_spider.sandbox.webgraph_write import generate
    from tests.conftest import catalog_text

    params = WorldParams(seed=201, sites=60)
    out = tmp_path_factory.mktemp("world") / "w"
    generate(out, params, catalog_text(["en", *params.language_weights]))
    return out


def test_mount_pages_first_directory_wins_and_symlinks_are_left_out(tmp_path: Path):
    first, second = tmp_path / "a", tmp_path / "b"
    for directory in (first, second):
        (directory / "en").mkdir(parents=True)
        (directory / "en" / "x.html").write_text(directory.name)
    (second / "en" / "y.html").write_text("y")
    (second / "en" / "copy.html").symlink_to(second / "en" / "y.html")
    (second / "notes.txt").write_text("no page")
    pages = mount_pages("h.example", "/doc/", [first, second])
    assert pages == {
        "http://h.example/doc/en/x.html": first / "en" / "x.html",
        "http://h.example/doc/en/y.html": second / "en" / "y.html",
    }


def test_real_sites_give_positives_when_fetched():
    from bilingual_spider.sandbox.realsites import resolve_cache_dir

    if not (resolve_cache_dir(None) / training.REAL_SITES_SUMMARY).is_file():
        pytest.skip("the real sites are not fetched: bilingual-spider sandbox fetch")
    data = training.real_sites_training_set(max_pages_per_site=40)
    described = data.describe()["by_source"]["real"]
    assert described["sites"] >= 5 and described["positives"] > 0
    assert data.choosers >= 1  # the language indexes


def test_scores_and_card():
    labels = np.array([0, 0, 1, 1, 0])
    scores = scores_of(labels, np.array([0.1, 0.6, 0.9, 0.7, 0.2]))
    assert scores["roc_auc"] == 1.0
    assert (scores["precision@0.5"], scores["recall@0.5"]) == (round(2 / 3, 4), 1.0)
    assert (scores["precision@0.8"], scores["recall@0.8"]) == (1.0, 0.5)
    data = TrainingSet(
        contexts=[link(f"{SITE}/a.html", "/b.html")] * 5,
        labels=labels.tolist(),
        groups=["s1", "s1", "s2", "s2", "s3"],
        sources=["world1"] * 5,
    )
    meta = {
        "saved": "now",
        "scikit_learn": "1",
        "params": {"C": 1},
        "features": {"version": "1"},
        "training": {
            "command": "bilingual-spider train link-predictor",
            "total_seconds": 1.0,
            "seconds": {"fit": 1.0},
            "data": data.describe(),
            "label": training.LABEL_TEXT["language"],
            "cross_validation": {"folds": 2, "scores": {"all": scores}},
        },
    }
    card = model_card("m.npz", meta)
    for needed in ("## Rebuild", "## Data", "## Scores", "ROC AUC", "P@0.8", "world1 | 3 | 1 |"):
        assert needed in card
    assert "## Label rule" not in card  # no benchmark results given

    def row(group: str, precision: float, recall: float, scored: int) -> dict:
        return {"group": group, "config": "detector", "min_likelihood": 0.8,
                "precision": precision, "recall": recall, "pages_per_site": 2.1,
                "rules": {"scored links": scored, "language hints": 4 - scored}}  # fmt: skip

    results = {
        "date": "today",
        "real": {
            "by_label": {
                "language": {"rows": [row("style:flags", 1.0, 0.95, 3)]},
                "pairs": {"rows": [row("style:flags", 1.0, 0.5, 1)]},
            }
        },
    }
    meta["training"]["label_rule"] = "language"
    card = model_card("m.npz", meta, results)
    assert "This model uses the `language` rule" in card
    assert (
        "| style:flags | 1.000 / 0.950 / 2.1 (75% scored) | 1.000 / 0.500 / 2.1 (25% scored) |"
        in card
    )
