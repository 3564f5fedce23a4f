from bilingual_spider.frontier.bipartite import BACKLINK, FORWARD, BipartiteGraph, LinkExample


def test_each_site_is_reached_once_and_judged_once():
    graph = BipartiteGraph()
    assert graph.reach("a.com", ["url:a"]) and not graph.reach("a.com", ["url:b"])
    assert graph.judge("a.com", True) == [LinkExample(FORWARD, ("url:a",), True)]
    assert graph.judge("a.com", False) == [] and graph.verdicts == {"a.com": True}
    assert not graph.reach("a.com")


def test_a_backlink_page_is_relevant_once_one_of_its_sites_is_bilingual():
    graph = BipartiteGraph()
    for site in ("a.com", "b.com", "c.com"):
        graph.reach(site, [f"url:{site}"])
    assert graph.add_backlink_page("http://hub/links", ["url:links"], ["a.com", "b.com"]) == []
    assert graph.judge("a.com", False) == [LinkExample(FORWARD, ("url:a.com",), False)]
    examples = graph.judge("b.com", True)
    assert LinkExample(BACKLINK, ("url:links",), True) in examples
    assert graph.backlink_pages_waiting == 0


def test_a_backlink_page_is_non_relevant_when_all_its_sites_are_monolingual():
    graph = BipartiteGraph()
    graph.add_backlink_page("http://dir/news", ["url:news"], ["x.com", "y.com"])
    assert [e for e in graph.judge("x.com", False) if e.role == BACKLINK] == []
    assert graph.judge("y.com", False) == [LinkExample(BACKLINK, ("url:news",), False)]
    assert graph.judge("z.com", True) == []  # never linked from it: nothing to label


def test_labels_come_at_once_for_sites_judged_before_the_page_was_read():
    graph = BipartiteGraph()
    graph.judge("a.com", True)
    graph.judge("b.com", False)
    assert graph.add_backlink_page("p", ["url:p"], ["a.com"]) == [
        LinkExample(BACKLINK, ("url:p",), True)
    ]
    assert graph.add_backlink_page("q", ["url:q"], ["b.com"]) == [
        LinkExample(BACKLINK, ("url:q",), False)
    ]
    assert graph.add_backlink_page("r", ["url:r"], []) == []


def test_a_hub_is_fetched_once_as_a_backlink_page_whatever_number_of_sites_it_links_to():
    graph = BipartiteGraph()
    assert graph.claim_backlink_page("http://hub/links")
    assert not graph.claim_backlink_page("http://hub/links")
    assert graph.claim_backlink_page("http://hub/links?page=2")


def test_links_followed_leave_their_page_site_for_another_web_site():
    from bilingual_spider.frontier.bipartite import leaves_site

    assert leaves_site("http://b.example/x", "b.example", "a.example")
    assert leaves_site("https://b.example/", "b.example", "a.example")
    assert not leaves_site("http://a.example/y", "a.example", "a.example")  # in the page's site
    assert not leaves_site("mailto:x@b.example", "b.example", "a.example")
    assert not leaves_site("http://10.0.0.1/", "", "a.example")  # no site to judge


def test_a_link_not_followed_keeps_its_site_reached_and_labels_nothing():
    graph = BipartiteGraph()
    assert graph.reach("a.example", ("a", "link"))
    graph.not_followed("a.example")
    graph.not_followed("never.example")  # nothing kept of it
    assert graph.reached("a.example") and not graph.reached("never.example")
    assert not graph.reach("a.example", ("another", "link"))
    assert graph.judge("a.example", True) == []
