from bilingual_spider.frontier.rescoring import (
    ROLE_PRIORITY,
    DiscountedBacklinkModel,
    FrontierScorer,
    FrontierTag,
    keeps_head,
    link_priority,
)


class FakeModel:
    def __init__(self) -> None:
        self.version = 0
        self.scores: dict[str, float] = {}

    def score(self, tokens):
        return max((self.scores.get(t, 0.5) for t in tokens), default=0.5)


def test_probes_go_first_then_api_calls_then_seeds_then_scored_links():
    scorer = FrontierScorer({"forward": FakeModel()})
    priorities = [scorer.tag(role)[0] for role in ("probe", "api", "seed")]
    assert priorities == sorted(priorities, reverse=True)
    assert ROLE_PRIORITY["seed"] > link_priority(1.0) == scorer.tag("forward", ["url:x"])[0] * 2


def test_a_tag_made_by_an_old_model_is_rescored_and_a_current_one_is_not():
    model = FakeModel()
    scorer = FrontierScorer({"forward": model})
    priority, tag = scorer.tag("forward", ["url:links"])
    assert (priority, tag.version) == (500, 0)
    assert scorer.rescore(tag) is None
    model.version, model.scores = 1, {"url:links": 0.9}
    new_priority, new_tag = scorer.rescore(tag)
    assert (new_priority, new_tag.version, new_tag.tokens) == (900, 1, ("url:links",))
    assert scorer.rescore(new_tag) is None
    assert scorer.rescore(FrontierTag("probe")) is None  # fixed roles never go stale


def test_tags_survive_a_round_trip_through_request_meta():
    tag = FrontierTag("backlink", ("url:links", "host:es"), 3)
    assert FrontierTag.from_meta(tag.to_meta()) == tag
    assert FrontierTag.from_meta(None) is None and FrontierTag.from_meta({}) is None


def test_a_rescored_request_keeps_the_head_unless_the_next_one_beats_it():
    assert keeps_head(700, None) and keeps_head(700, 700) and keeps_head(700, 300)
    assert not keeps_head(200, 300)
    assert link_priority(1.7) == 1000 and link_priority(-1) == 0


def test_a_backlink_ranks_at_the_harvest_rate_once_trained():
    backlink, forward = FakeModel(), FakeModel()
    discounted = DiscountedBacklinkModel(backlink)
    scorer = FrontierScorer({"backlink": discounted, "forward": forward})
    assert scorer.tag("backlink", ["url:links"])[0] == scorer.tag("forward", ["url:x"])[0] == 500
    backlink.version, backlink.scores = 1, {"url:links": 0.9}
    forward.version, forward.scores = 1, {"url:hotel": 0.6, "url:news": 0.1}
    discounted.harvest_rate = 0.2  # one bilingual site every five pages so far
    hub = scorer.tag("backlink", ["url:links"])
    assert hub == (180, FrontierTag("backlink", ("url:links",), 1))
    # the promising forward link goes before the hub, the unpromising one after it
    assert scorer.tag("forward", ["url:hotel"])[0] > hub[0] > scorer.tag("forward", ["url:news"])[0]


def test_a_focus_bonus_survives_re_scoring_and_the_meta_round_trip():
    model = FakeModel()
    scorer = FrontierScorer({"forward": model})
    _, tag = scorer.tag("forward", ["url:links"])
    boosted = FrontierTag.from_meta({**tag.to_meta(), "bonus": 400})
    assert boosted.bonus == 400
    assert FrontierTag.from_meta(boosted.to_meta()) == boosted
    assert "bonus" not in tag.to_meta()  # tags without a bonus stay as they were
    model.version, model.scores = 1, {"url:links": 0.9}
    priority, new_tag = scorer.rescore(boosted)
    assert (priority, new_tag.bonus, new_tag.version) == (900 + 400, 400, 1)
