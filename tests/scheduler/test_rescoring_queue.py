from scrapy import Request, Spider
from scrapy.squeues import FifoMemoryQueue

from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierScorer
from bilingual_spider.scheduler.rescoring_queue import RescoringPriorityQueue
from tests.crawlers import get_crawler


class FakeModel:
    def __init__(self) -> None:
        self.version = 0
        self.scores: dict[str, float] = {}

    def score(self, tokens):
        return self.scores.get(tokens[0], 0.5)


class ScoredSpider(Spider):
    name = "scored"


def make_queue(scorer):
    crawler = get_crawler(ScoredSpider)
    crawler.spider = crawler._create_spider()
    crawler.spider.frontier_scorer = scorer
    return crawler, RescoringPriorityQueue.from_crawler(crawler, FifoMemoryQueue, "")


def scored_request(scorer, name, role="forward"):
    priority, tag = scorer.tag(role, [name])
    return Request(
        f"http://{name}.example/", priority=priority, meta={FRONTIER_META: tag.to_meta()}
    )


def test_requests_scored_by_an_old_model_are_reranked_lazily_at_the_head():
    model = FakeModel()
    scorer = FrontierScorer({"forward": model})
    crawler, queue = make_queue(scorer)
    for name in ("a", "b", "c"):
        queue.push(scored_request(scorer, name))  # all 500 under the untrained model
    model.version, model.scores = 1, {"a": 0.1, "b": 0.2, "c": 0.9}
    queue.push(scored_request(scorer, "d"))  # scored by the new model: 500
    popped = [queue.pop() for _ in range(4)]
    assert [r.url[7] for r in popped] == ["c", "d", "b", "a"]
    assert popped[0].priority == 900 and popped[0].meta[FRONTIER_META]["version"] == 1
    assert queue.pop() is None and len(queue) == 0
    assert crawler.stats.get_value("frontier/rescored") == 3
    assert crawler.stats.get_value("frontier/requeued") == 2


def test_probes_are_never_rescored_and_come_first():
    model = FakeModel()
    scorer = FrontierScorer({"forward": model})
    _, queue = make_queue(scorer)
    queue.push(scored_request(scorer, "link"))
    queue.push(scored_request(scorer, "probe", role="probe"))
    model.version = 5
    assert queue.pop().url == "http://probe.example/"
    assert queue.pop().meta[FRONTIER_META]["version"] == 5


def test_a_spider_without_a_scorer_gets_a_plain_priority_queue():
    _, queue = make_queue(None)
    queue.push(Request("http://low.example/", priority=1))
    queue.push(Request("http://high.example/", priority=9))
    assert [queue.pop().url, queue.pop().url] == ["http://high.example/", "http://low.example/"]


def test_with_no_rescoring_it_pops_in_the_order_of_scrapys_own_queue():
    """The heap of priorities finds the next priority as Scrapy's scan over all of them does,
    start requests (their own queues) included."""
    import random

    from scrapy.pqueues import ScrapyPriorityQueue

    crawler = get_crawler(ScoredSpider)
    crawler.spider = crawler._create_spider()
    ours = RescoringPriorityQueue.from_crawler(
        crawler, FifoMemoryQueue, "", start_queue_cls=FifoMemoryQueue
    )
    scrapys = ScrapyPriorityQueue.from_crawler(
        crawler, FifoMemoryQueue, "", start_queue_cls=FifoMemoryQueue
    )
    rng = random.Random(7)
    popped: tuple[list[str], list[str]] = ([], [])
    for step in range(3000):
        if rng.random() < 0.55:
            priority = rng.randrange(-20, 20)
            start = rng.random() < 0.2
            for queue in (ours, scrapys):
                meta = {"is_start_request": True} if start else {}
                queue.push(Request(f"http://x/{step}", priority=priority, meta=meta))
        else:
            for queue, urls in zip((ours, scrapys), popped, strict=True):
                request = queue.pop()
                urls.append(request.url if request else "-")
    while len(scrapys):
        popped[0].append(ours.pop().url)
        popped[1].append(scrapys.pop().url)
    assert popped[0] == popped[1] and len(popped[0]) > 1500
    assert ours.pop() is None and len(ours) == 0
