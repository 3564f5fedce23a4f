"""A worker dies between writing a site's detection to Redis and queueing what follows it: the
request it was processing comes back to another worker marked as redelivered, which redoes what
the dead worker left undone (and nothing when another worker wrote the site's detection last)."""

from __future__ import annotations

import scrapy
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

from bilingual_spider.adapters.site_detection import SiteDetection
from bilingual_spider.detection.detector import BilingualSiteDetector, DetectorConfig
from bilingual_spider.distributed.site_store import RedisSiteStore
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.state.request_meta import REDELIVERED_META
from tests.adapters.test_site_detection import Stats, callback, errback, response
from tests.spiders.fake_scorer import FakeLinkScorer
from tests.spiders.pages import ENGLISH, SPANISH, page

HOME = "http://www.museo.example/"
FIRST_PAGE = page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About"))


MIXED_PAGE = page("en", "Welcome", ("/en/", "English"), ("/es/", "Español"))


def worker(
    redis, base: str, name: str, config: DetectorConfig | None = None
) -> tuple[SiteDetection, Stats]:
    stats = Stats()
    detection = SiteDetection(
        BilingualSiteDetector(config or DetectorConfig(langs=("en", "es"))),
        FakeLinkScorer(),
        store=RedisSiteStore(redis, base, claim_seconds=30, worker=name),
        stats=stats,  # type: ignore[arg-type]
        identifier=default_identifier(),
        probe_callback=callback,
        probe_errback=errback,
    )
    return detection, stats


def redelivered(request: scrapy.Request, dead: str) -> scrapy.Request:
    return request.replace(meta={**request.meta, REDELIVERED_META: dead})


def test_probes_saved_but_not_queued_are_asked_again(redis, redis_prefix):
    dead, _ = worker(redis, redis_prefix, "dead")
    live, stats = worker(redis, redis_prefix, "live")
    first = scrapy.Request(HOME)
    [lost_probe] = list(dead.examine(response(HOME, FIRST_PAGE, first)))  # then it died
    assert list(live.examine(response(HOME, FIRST_PAGE, first))) == []  # not redelivered
    assert stats.values["detector/sites_already_judged"] == 1
    again = redelivered(first, "dead")
    [probe] = list(live.examine(response(HOME, FIRST_PAGE, again)))
    assert probe.url == lost_probe.url and probe.meta["detector_site"] == "www.museo.example"
    assert stats.values["detector/probes_reissued"] == 1
    [verdict] = list(live.probe_answered(response(probe.url, page("es", SPANISH), probe)))
    assert isinstance(verdict, SiteVerdictItem) and verdict.bilingual


def test_a_verdict_recorded_but_not_emitted_is_emitted_again(redis, redis_prefix):
    dead, _ = worker(redis, redis_prefix, "dead")
    live, stats = worker(redis, redis_prefix, "live")
    [probe] = list(dead.examine(response(HOME, FIRST_PAGE)))
    answer = page("es", SPANISH)
    [lost] = list(dead.probe_answered(response(probe.url, answer, probe)))  # then it died
    assert list(live.probe_answered(response(probe.url, answer, probe))) == []
    assert stats.values["detector/probes_late"] == 1
    again = redelivered(probe, "dead")
    [verdict] = list(live.probe_answered(response(probe.url, answer, again)))
    assert verdict == lost and stats.values["detector/verdicts_replayed"] == 1


def test_a_redelivered_request_redoes_nothing_another_worker_wrote(redis, redis_prefix):
    """The dead worker held a second page of a site a live worker judged: nothing is redone."""
    judge, _ = worker(redis, redis_prefix, "judge")
    live, stats = worker(redis, redis_prefix, "live")
    [probe] = list(judge.examine(response(HOME, FIRST_PAGE)))
    list(judge.probe_answered(response(probe.url, page("es", SPANISH), probe)))
    second = redelivered(scrapy.Request(HOME + "about.html"), "dead")
    assert list(live.examine(response(second.url, FIRST_PAGE, second))) == []
    assert stats.values["detector/sites_already_judged"] == 1
    assert "detector/verdicts_replayed" not in stats.values


def test_a_site_its_dead_worker_claimed_and_saved_nothing_of_is_begun_by_the_redelivered_page(
    redis, redis_prefix
):
    """The dead worker claimed the site and died before saving its state: the claim outlives the
    lease that brings the page back, so the redelivered page takes the claim over (CI13 of
    issue 38: such a site was never judged)."""
    dead, _ = worker(redis, redis_prefix, "dead")
    live, stats = worker(redis, redis_prefix, "live")
    assert dead.store.claim("www.museo.example")  # then it died, mid-way through the page
    first = scrapy.Request(HOME)
    assert list(live.examine(response(HOME, FIRST_PAGE, first))) == []  # not redelivered
    [probe] = list(live.examine(response(HOME, FIRST_PAGE, redelivered(first, "dead"))))
    assert probe.meta["detector_site"] == "www.museo.example"
    assert stats.values["detector/claims_taken_over"] == 1
    [verdict] = list(live.probe_answered(response(probe.url, page("es", SPANISH), probe)))
    assert isinstance(verdict, SiteVerdictItem) and verdict.bilingual
    assert list(live.examine(response(HOME, FIRST_PAGE, redelivered(first, "dead")))) == []


def test_a_redelivered_page_takes_no_claim_over_from_a_live_worker(redis, redis_prefix):
    """The site is claimed by a live worker that has not saved its state yet: the page a dead
    worker held of it begins nothing (the live worker judges the site)."""
    busy, _ = worker(redis, redis_prefix, "busy")
    live, stats = worker(redis, redis_prefix, "live")
    assert busy.store.claim("www.museo.example")
    again = redelivered(scrapy.Request(HOME), "dead")
    assert list(live.examine(response(HOME, FIRST_PAGE, again))) == []
    assert stats.values["detector/sites_already_judged"] == 1
    assert "detector/claims_taken_over" not in stats.values


def test_a_site_its_dead_worker_claimed_is_judged_when_its_redelivered_first_page_failed(
    redis, redis_prefix
):
    dead, _ = worker(redis, redis_prefix, "dead")
    live, stats = worker(redis, redis_prefix, "live")
    assert dead.store.claim("www.museo.example")
    failure = Failure(DNSLookupError("no such host"))
    failure.request = redelivered(scrapy.Request(HOME), "dead")  # type: ignore[attr-defined]
    [verdict] = list(live.first_page_failed(failure))
    assert isinstance(verdict, SiteVerdictItem) and not verdict.bilingual
    assert stats.values["detector/claims_taken_over"] == 1


def test_a_probe_batch_its_dead_worker_queued_half_of_is_asked_whole_again(redis, redis_prefix):
    """The dead worker saved a state with two probes pending, queued one and died; a live worker
    recorded that one's answer (the state's last writer is now the live worker). The redelivered
    first page asks the other again: nothing else ever would, and the site stayed unjudged."""
    config = DetectorConfig(langs=("en", "es"), chooser_labels=False)
    dead, _ = worker(redis, redis_prefix, "dead", config)
    live, stats = worker(redis, redis_prefix, "live", config)
    first = scrapy.Request(HOME)
    queued, lost = dead.examine(response(HOME, MIXED_PAGE, first))  # a batch of two
    answer = page("en", ENGLISH) if queued.url.endswith("/en/") else page("es", SPANISH)
    assert list(live.probe_answered(response(queued.url, answer, queued))) == []
    assert live.store.written_by("www.museo.example") == "live"
    [again] = list(live.examine(response(HOME, MIXED_PAGE, redelivered(first, "dead"))))
    assert again.url == lost.url and stats.values["detector/probes_reissued"] == 1
    answer = page("es", SPANISH) if lost.url.endswith("/es/") else page("en", ENGLISH)
    [verdict] = list(live.probe_answered(response(lost.url, answer, again)))
    assert isinstance(verdict, SiteVerdictItem) and verdict.bilingual


def test_a_probe_answer_recorded_after_another_worker_judged_the_site_is_a_late_probe(
    redis, redis_prefix
):
    """Worker b loaded the site's state (two probes pending); worker a then recorded both
    answers and the verdict: b's answer of the first is late (it raised ValueError out of the
    callback, an error in the log)."""
    config = DetectorConfig(langs=("en", "es"), chooser_labels=False)
    a, _ = worker(redis, redis_prefix, "a", config)
    b, stats = worker(redis, redis_prefix, "b", config)
    probes = list(a.examine(response(HOME, MIXED_PAGE)))
    stale = b.store.load("www.museo.example")
    answers = {p.url: page("en", ENGLISH) if p.url.endswith("/en/") else page("es", SPANISH)
               for p in probes}  # fmt: skip
    assert list(a.probe_answered(response(probes[0].url, answers[probes[0].url], probes[0]))) == []
    [verdict] = a.probe_answered(response(probes[1].url, answers[probes[1].url], probes[1]))
    assert verdict.bilingual
    b.store.load = lambda site: stale  # type: ignore[method-assign]  # loaded before the verdict
    first = response(probes[0].url, answers[probes[0].url], probes[0])
    assert list(b.probe_answered(first)) == []
    assert stats.values["detector/probes_late"] == 1


def test_a_home_page_begun_by_two_workers_at_once_is_begun_by_one(redis, redis_prefix):
    """Both found the site not begun (a home page asked twice after a worker died); a saved
    the site's state first: b begins nothing (it raised ConcurrentUpdate out of the callback)."""
    from bilingual_spider.adapters.site_detection import HOME_META

    a, _ = worker(redis, redis_prefix, "a")
    b, stats = worker(redis, redis_prefix, "b")
    home = scrapy.Request(HOME, meta={HOME_META: "www.museo.example"})
    [probe] = list(a.home_answered(response(HOME, FIRST_PAGE, home)))
    b.store.load = lambda site: None  # type: ignore[method-assign]  # asked before a saved it
    assert list(b.home_answered(response(HOME, FIRST_PAGE, home))) == []
    assert stats.values["detector/sites_already_judged"] == 1
