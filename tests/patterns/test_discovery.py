import pytest

from bilingual_spider.patterns.discovery import (
    linkout,
    pagerank,
    rank_external_sites,
    weighted_pagerank,
)


def test_pagerank_sums_to_one_and_ranks_the_hub_targets() -> None:
    graph = {"hub": ["a", "b", "c"], "a": ["b"], "c": ["b"], "d": []}
    ranks = pagerank(graph)
    assert sum(ranks.values()) == pytest.approx(1.0)
    assert max(ranks, key=ranks.get) == "b"  # linked from the hub and from a and c
    assert ranks["a"] == pytest.approx(ranks["c"])
    assert ranks["a"] > ranks["hub"] and ranks["a"] > ranks["d"]


def test_pagerank_of_a_cycle_is_uniform() -> None:
    ranks = pagerank({"a": ["b"], "b": ["c"], "c": ["a"]})
    assert all(r == pytest.approx(1 / 3) for r in ranks.values())
    assert pagerank({}) == {}


def test_wpr_is_credibility_times_pagerank() -> None:
    ranks = {"a": 0.5, "b": 0.3, "c": 0.2}
    wpr = weighted_pagerank(ranks, {"a": 0.4, "b": 1.0})
    assert wpr == pytest.approx({"a": 0.2, "b": 0.3, "c": 0.0})


def test_external_sites_ranked_by_linkout_pagerank_and_wpr() -> None:
    seeds = ["s1", "s2", "s3"]
    graph = {
        "s1": ["s2", "s3", "x", "y"],
        "s2": ["s3", "x"],
        "s3": ["s1", "z"],
        "x": ["s1"],  # external sites' own links are not used
    }
    credible = {"s1": 0.9, "s2": 0.1, "s3": 0.05}
    assert linkout(graph, seeds) == {"s1": 2, "s2": 1, "s3": 1}
    by_links = rank_external_sites(graph, seeds, credible, by="in_links")
    assert [(s.site, s.in_links) for s in by_links] == [("x", 2), ("y", 1), ("z", 1)]
    assert by_links[0].linkout == 3  # Linkout(s1) + Linkout(s2)
    ranks = pagerank({"s1": ["s2", "s3"], "s2": ["s3"], "s3": ["s1"]})
    by_wpr = rank_external_sites(graph, seeds, credible, by="wpr", top=2)
    assert [s.site for s in by_wpr] == ["x", "y"]
    assert by_wpr[0].wpr == pytest.approx(0.9 * ranks["s1"] + 0.1 * ranks["s2"])
    by_pr = rank_external_sites(graph, seeds, credible, by="pagerank")
    assert by_pr[0].site == "x" and by_pr[1].site == "z"  # PR(s3) > PR(s1) in the seed graph
    assert ranks["s3"] > ranks["s1"]
