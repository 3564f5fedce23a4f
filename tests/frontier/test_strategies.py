import pytest

from bilingual_spider.frontier.strategies import (
    RULES,
    Strategy,
    follows_links_of,
    out_of_site,
    parse_strategy,
)


def test_strategies_parse_by_name_with_a_clear_error():
    assert parse_strategy("COBFC") is Strategy.COBFC and parse_strategy(" fc ") is Strategy.FC
    with pytest.raises(ValueError, match="fc, focc, obfc, cobfc"):
        parse_strategy("bfs")


def test_the_bipartite_rules_never_follow_forward_pages_or_probes():
    for strategy in (Strategy.OBFC, Strategy.COBFC):
        rules = RULES[strategy]
        assert follows_links_of("backlink", rules) and follows_links_of("seed", rules)
        assert not follows_links_of("forward", rules) and not follows_links_of("probe", rules)
    assert follows_links_of("forward", RULES[Strategy.FC])
    assert not follows_links_of("probe", RULES[Strategy.FC])


def test_the_focused_crawler_follows_on_topic_pages_only():
    rules = RULES[Strategy.FOCC]
    assert follows_links_of("forward", rules, on_topic=True)
    assert not follows_links_of("forward", rules, on_topic=False)


def test_only_out_of_site_links_each_once_in_page_order():
    def site_of(url: str) -> str:
        parts = url.split("/")
        return parts[2].removeprefix("www.") if len(parts) > 2 else ""

    links = [
        "http://a.com/x",
        "http://b.com/",
        "http://www.a.com/y",
        "http://c.org/",
        "http://b.com/",
        "mailto:",
    ]
    assert out_of_site(links, "a.com", site_of) == ["http://b.com/", "http://c.org/"]
