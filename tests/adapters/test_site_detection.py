"""The detector's Scrapy adapter, driven by hand-made responses and failures (no network)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response, TextResponse
from scrapy.settings import Settings
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import DNSLookupError, TimeoutError
from twisted.python.failure import Failure

from bilingual_spider import settings as project_settings
from bilingual_spider.adapters.site_detection import (
    PredictorLinkScorer,
    SiteDetection,
    detector_config,
    failure_reason,
)
from bilingual_spider.detection.detector import BilingualSiteDetector, DetectorConfig
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.language.identification import default_identifier
from bilingual_spider.response_page import SITE_LANGUAGES_META
from tests.spiders.fake_scorer import FakeLinkScorer
from tests.spiders.pages import ENGLISH, SPANISH, page

HOME = "http://www.museo.example/"


class Stats:
    def __init__(self) -> None:
        self.values: Counter[str] = Counter()

    def inc_value(self, key: str, count: int = 1, start: int = 0) -> None:
        self.values[key] += count


def callback(response: Response) -> None: ...


def errback(failure: Failure) -> None: ...


def make_detection(**options: Any) -> tuple[SiteDetection, Stats]:
    stats = Stats()
    site_key = options.pop("site_key", "host")
    start = options.pop("start", "page")
    detection = SiteDetection(
        BilingualSiteDetector(DetectorConfig(**options)),
        FakeLinkScorer(),
        stats=stats,  # type: ignore[arg-type]
        identifier=default_identifier(),
        site_key=site_key,
        probe_callback=callback,
        probe_errback=errback,
        start=start,
        home_callback=home_callback,
        home_errback=errback,
    )
    return detection, stats


def home_callback(response: Response) -> None: ...


def response(url: str, body: str, request: scrapy.Request | None = None, **meta: Any) -> Response:
    request = request or scrapy.Request(url, meta=meta)
    return HtmlResponse(url, body=body.encode(), encoding="utf-8", request=request)


def failure(error: Exception, request: scrapy.Request) -> Failure:
    result = Failure(error)
    result.request = request  # type: ignore[attr-defined]
    return result


def test_probe_then_verdict() -> None:
    detection, stats = make_detection(langs=("en", "es"))
    first = response(HOME, page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About")))
    [probe] = list(detection.examine(first))
    assert isinstance(probe, scrapy.Request)
    assert probe.url == "http://www.museo.example/es/"
    assert probe.priority == 10_000 and probe.dont_filter
    assert probe.callback is callback and probe.errback is errback
    assert probe.meta["role"] == "probe" and probe.meta["detector_site"] == "www.museo.example"
    [item] = list(detection.probe_answered(response(probe.url, page("es", SPANISH), probe)))
    assert isinstance(item, SiteVerdictItem)
    assert item.bilingual and item.languages == ["en", "es"] and item.pages_downloaded == 2
    assert item.site == "www.museo.example" and item.url == HOME
    assert [e["counted"] for e in item.evidence] == ["en", "es"]
    assert stats.values == {
        "detector/sites": 1,
        "detector/links_scored": 2,
        "detector/probes": 1,
        "detector/pages": 2,
        "detector/rule/scored_links": 1,
        "detector/sites_bilingual": 1,
    }


def test_one_verdict_per_site() -> None:
    detection, stats = make_detection()
    english = page("en", ENGLISH, ("/about.html", "About"))
    [item] = list(detection.examine(response(HOME, english)))
    assert not item.bilingual and item.reason.startswith("no link scored >= 0.8")
    assert list(detection.examine(response(HOME + "about.html", english))) == []
    assert stats.values["detector/sites_already_judged"] == 1
    assert stats.values["detector/sites_monolingual"] == 1
    assert stats.values["detector/sites_no_candidates"] == 1


def test_from_home_pages_a_site_is_judged_from_its_home_whichever_page_came_first() -> None:
    verdicts = []
    for first_url in (HOME + "about.html", HOME):
        detection, stats = make_detection(langs=("en", "es"), start="home")
        about = page("en", ENGLISH, ("/about.html", "About"))  # no link to its translation
        home = page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About"))
        outputs = list(detection.examine(response(first_url, about if first_url != HOME else home)))
        if first_url != HOME:
            [asked] = outputs
            assert (asked.url, asked.callback, asked.dont_filter) == (HOME, home_callback, True)
            assert stats.values["detector/home_pages_asked"] == 1
            assert list(detection.examine(response(HOME + "contact.html", about))) == []
            outputs = list(detection.home_answered(response(HOME, home, asked)))
        [probe] = outputs
        [item] = list(detection.probe_answered(response(probe.url, page("es", SPANISH), probe)))
        verdicts.append((item.bilingual, item.url, item.languages))
        assert list(detection.home_answered(response(HOME, home, asked))) == []  # once
    assert verdicts == [(True, HOME, ["en", "es"])] * 2


def test_a_home_page_that_fails_gives_the_sites_verdict() -> None:
    detection, _ = make_detection(start="home")
    [asked] = list(detection.examine(response(HOME + "about.html", page("en", ENGLISH))))
    [item] = list(detection.home_failed(failure(TimeoutError(), asked)))
    assert not item.bilingual and item.reason.endswith("timeout") and item.url == HOME


def test_home_pages_need_host_sites() -> None:
    with pytest.raises(ValueError, match="host sites"):
        make_detection(start="home", site_key="url")


def test_site_key_url_judges_each_first_url() -> None:
    detection, _ = make_detection(site_key="url", ladder=False)  # one page, one verdict
    english = page("en", ENGLISH)
    [first] = list(detection.examine(response(HOME + "a/#x", english)))
    [second] = list(detection.examine(response(HOME + "b/", english)))
    assert (first.site, second.site) == (HOME + "a/", HOME + "b/")


@pytest.mark.parametrize(
    ("error", "reason", "key"),
    [
        ("404", "HTTP 404", "http_404"),
        (TimeoutError(), "timeout", "timeout"),
        (DNSLookupError(), "DNS lookup failed", "dns"),
        (IgnoreRequest("Forbidden by robots.txt"), "Forbidden by robots.txt", "robots"),
    ],
)
def test_failed_probes_give_a_verdict_with_the_reason(error: Any, reason: str, key: str) -> None:
    detection, stats = make_detection()
    first = response(HOME, page("en", ENGLISH, ("/es/", "Español")))
    [probe] = list(detection.examine(first))
    if error == "404":
        error = HttpError(TextResponse(probe.url, status=404, request=probe), "Ignoring")
    [item] = list(detection.probe_failed(failure(error, probe)))
    assert not item.bilingual and item.pages_downloaded == 2
    assert item.evidence[1]["ok"] is False and item.evidence[1]["reason"] == reason
    assert f"1 probe(s) failed ({reason})" in item.reason
    assert stats.values["detector/probes_failed"] == 1
    assert stats.values[f"detector/probes_failed/{key}"] == 1
    assert failure_reason(failure(error, probe)) == (reason, key)


def test_a_probe_redirected_to_another_site_fails() -> None:
    detection, stats = make_detection()
    [probe] = list(detection.examine(response(HOME, page("en", ENGLISH, ("/es/", "Español")))))
    elsewhere = HtmlResponse(
        "http://www.other.example/es/", body=page("es", SPANISH).encode(), request=probe
    )
    [item] = list(detection.probe_answered(elsewhere))
    assert not item.bilingual
    assert item.evidence[1]["reason"] == "redirected off-site to www.other.example"
    assert stats.values["detector/probes_failed/offsite_redirect"] == 1


def test_a_probe_that_is_no_web_page_fails() -> None:
    detection, _ = make_detection()
    [probe] = list(detection.examine(response(HOME, page("en", ENGLISH, ("/es/", "Español")))))
    pdf = Response(probe.url, body=b"%PDF-1.4", request=probe)
    [item] = list(detection.probe_answered(pdf))
    assert item.evidence[1]["reason"] == "not a web page"


def test_a_failed_first_page_gives_a_verdict() -> None:
    detection, stats = make_detection()
    request = scrapy.Request(HOME)
    [item] = list(detection.first_page_failed(failure(TimeoutError(), request)))
    assert not item.bilingual and item.reason == "first page failed: timeout"
    assert item.pages_downloaded == 1 and stats.values["detector/first_page_failed"] == 1
    assert list(detection.first_page_failed(failure(TimeoutError(), request))) == []


def test_a_first_page_redirected_elsewhere_is_no_evidence() -> None:
    detection, _ = make_detection()
    request = scrapy.Request(
        "http://www.elsewhere.example/es/", meta={"redirect_urls": ["http://short.example/x"]}
    )
    [item] = list(detection.examine(response(request.url, page("es", SPANISH), request)))
    assert item.site == "short.example" and item.url == "http://short.example/x"
    assert item.reason == "first page failed: redirected off-site to www.elsewhere.example"


def test_late_probe_answers_are_ignored() -> None:
    detection, stats = make_detection(probe_batch=2, chooser_labels=False)
    first = response(HOME, page("und", "", ("/en/", "English"), ("/es/", "Español")))
    probes = list(detection.examine(first))
    assert [p.url for p in probes] == [HOME + "en/", HOME + "es/"]
    english = response(probes[0].url, page("en", ENGLISH), probes[0])
    assert list(detection.probe_answered(english)) == []  # waits for the Spanish page
    [item] = list(detection.probe_answered(response(probes[1].url, page("es", SPANISH), probes[1])))
    assert item.bilingual and item.pages_downloaded == 3
    assert list(detection.probe_answered(response(probes[1].url, "", probes[1]))) == []
    assert stats.values["detector/probes_late"] == 1


def test_unfinished_sites_are_counted_when_the_crawl_closes() -> None:
    detection, stats = make_detection()
    list(detection.examine(response(HOME, page("en", ENGLISH, ("/es/", "Español")))))
    detection.spider_closed()
    assert stats.values["detector/sites_unfinished"] == 1


def test_settings_make_the_config() -> None:
    settings = Settings()
    settings.setmodule(project_settings)
    assert detector_config(settings) == DetectorConfig()  # documented defaults == the code's
    settings.setdict(
        {
            "BILINGUAL_DETECTOR_LANGS": "en,es",
            "BILINGUAL_DETECTOR_MIN_LIKELIHOOD": "0.5",
            "BILINGUAL_DETECTOR_MAX_PROBES": "None",
            "BILINGUAL_DETECTOR_MODE": "link_predictor",
        }
    )
    config = detector_config(settings)
    assert config.langs == ("en", "es") and config.min_likelihood == 0.5
    assert config.max_probes is None and config.mode == "link_predictor"
    with pytest.raises(ValueError):
        SiteDetection(BilingualSiteDetector(), FakeLinkScorer(), site_key="domain")


def test_a_page_that_cannot_be_read_still_gives_a_verdict() -> None:
    class BrokenScorer:
        def score(self, html: str, page_url: str) -> list:
            raise ValueError("bad markup")

    stats = Stats()
    detection = SiteDetection(
        BilingualSiteDetector(),
        BrokenScorer(),
        stats=stats,  # type: ignore[arg-type]
        identifier=default_identifier(),
    )
    [item] = list(detection.examine(response(HOME, page("en", ENGLISH))))
    assert not item.bilingual and item.reason == "first page failed: unreadable page (ValueError)"
    assert stats.values["detector/pages_unreadable"] == 1


class RecordingPredictor:
    """The shipped Link Predictor, recording which links it was asked to score."""

    def __init__(self) -> None:
        from bilingual_spider.detection.link_predictor import default_link_predictor

        self.predictor = default_link_predictor()
        self.scored: list[str] = []

    def predict_proba(self, contexts: list[Any]) -> Any:
        self.scored += [context.url for context in contexts]
        return self.predictor.predict_proba(contexts)


def predicting_detection() -> tuple[SiteDetection, Stats, RecordingPredictor]:
    """An adapter scoring links with the shipped Link Predictor (recording what it scores)."""
    stats = Stats()
    recording = RecordingPredictor()
    detection = SiteDetection(
        BilingualSiteDetector(DetectorConfig(langs=("en", "es"))),
        PredictorLinkScorer(recording, around_words=10),
        stats=stats,  # type: ignore[arg-type]
        identifier=default_identifier(),
        probe_callback=callback,
        probe_errback=errback,
    )
    return detection, stats, recording


def test_only_links_the_detector_could_probe_are_scored() -> None:
    """A first page's out-of-site links (a hub's entries) can never be probes: not scored."""
    detection, stats, recording = predicting_detection()
    links = (
        ("/es/", "Español"),
        ("http://www.museo.es/", "España"),  # the same name under another suffix: related
        ("http://www.partner.example/es/", "Español"),  # another site
        ("http://www.hotel.example/", "Hotel"),
    )
    [probe] = list(detection.examine(response(HOME, page("en", ENGLISH, *links))))
    assert probe.url == "http://www.museo.example/es/"
    assert sorted(recording.scored) == ["http://www.museo.es/", "http://www.museo.example/es/"]
    assert stats.values["detector/links_scored"] == 2


def test_a_probe_in_another_language_than_its_link_named_leads_to_a_second_page() -> None:
    """Issue 49: the page behind ``Español`` is English (an untranslated index); the detector
    reads its links and probes the Spanish page it links before calling Spanish absent."""
    detection, stats = make_detection(langs=("en", "es"))
    first = response(HOME, page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About")))
    [probe] = list(detection.examine(first))
    english_index = page("en", ENGLISH, ("/es/museo.html", "Museo"), ("/", "Home"))
    [second] = list(detection.probe_answered(response(probe.url, english_index, probe)))
    assert isinstance(second, scrapy.Request)
    assert second.url == "http://www.museo.example/es/museo.html"
    assert second.meta["detector_via"] == "second look"
    assert stats.values["detector/second_looks"] == 1
    assert not any(key.startswith("detector/ladder/") for key in stats.values)
    [item] = list(detection.probe_answered(response(second.url, page("es", SPANISH), second)))
    assert item.bilingual and item.languages == ["en", "es"] and item.pages_downloaded == 3
    assert [e["via"] for e in item.evidence] == ["", "", "second look"]


def test_a_restart_emits_again_the_verdicts_recorded_and_not_in_the_output() -> None:
    """A kill between a verdict's record and its line in the output, then a page budget spent
    before the request that would replay it is taken again: the restart itself emits it (issue
    53's kill family lost one so)."""
    detection, stats = make_detection()
    english = page("en", ENGLISH, ("/about.html", "About"))
    sites = ["http://www.museo.example/", "http://www.hotel.example/", "http://www.bar.example/"]
    for url in sites:
        [item] = list(detection.examine(response(url, english)))
    in_output = {("verdict", "www.museo.example"), ("site", "www.museo.example")}
    replayed = detection.unwritten_verdicts(in_output)
    assert sorted(item.site for item in replayed) == ["www.bar.example", "www.hotel.example"]
    assert all(isinstance(item, SiteVerdictItem) and not item.bilingual for item in replayed)
    assert stats.values["detector/verdicts_replayed_at_restart"] == 2
    written = {
        ("verdict", site) for site in ("www.museo.example", "www.hotel.example", "www.bar.example")
    }
    assert detection.unwritten_verdicts(written) == []


def test_a_restart_without_an_output_to_read_replays_nothing() -> None:
    """No JSON-lines output (``-o`` elsewhere): nothing says which verdicts were written, and
    replaying every one would write them twice."""
    from bilingual_spider.adapters.site_detection import DetectorCallbacks

    detection, _ = make_detection()
    [_] = list(detection.examine(response(HOME, page("en", ENGLISH))))
    spider = DetectorCallbacks()
    spider.detection = detection
    spider.worker_restarted(None)
    assert spider.replayed_verdicts == []
    spider.worker_restarted(set())
    assert [item.site for item in spider.replayed_verdicts] == ["www.museo.example"]


@pytest.mark.parametrize(
    ("icelandic_too", "bilingual"), [(False, True), (True, False)], ids=["stand-in", "copy"]
)
def test_a_sure_stand_in_counts_for_the_language_its_link_named_on_a_site_without_it(
    icelandic_too: bool, bilingual: bool
) -> None:
    """lid.176 reads Faroese as Icelandic, sure of it. Behind ``Føroyskt`` on a site whose home
    names English, Faroese and Sami it is Faroese; on one that names Icelandic too, it may be a
    copy of the Icelandic pages, and counts for Icelandic."""
    from tests.language.test_declared_language import FAROESE

    detection, _ = make_detection(langs=("en", "fo"))
    links = [("/fo/", "Føroyskt"), ("/se/", "Davvisámegiella")]
    if icelandic_too:
        links.append(("/is/", "Íslenska"))
    [probe, *_] = list(detection.examine(response(HOME, page("en", ENGLISH, *links))))
    assert probe.url == "http://www.museo.example/fo/"
    expected = ("en", "fo", "se", "is") if icelandic_too else ("en", "fo", "se")
    assert probe.meta[SITE_LANGUAGES_META] == expected
    faroese_page = page("en", FAROESE)  # a template's lang="en" on every page
    [item] = [
        found
        for found in detection.probe_answered(response(probe.url, faroese_page, probe))
        if isinstance(found, SiteVerdictItem)
    ] or [None]
    if bilingual:
        assert item is not None and item.bilingual and item.languages == ["en", "fo"]
    else:
        assert item is None or not item.bilingual


CONTENTS = "Table of contents: the museum, opening hours and guided tours"
"""A home's headings: English, too little prose to count for it."""


def test_a_home_of_headings_gets_its_own_second_look_when_its_language_is_the_one_missing() -> None:
    """A home that is an index of headings (too little prose to count for English) whose
    switcher names only the translation: after the Spanish page, the detector looks one page
    down from the home, in its own directory first, before calling English absent."""
    detection, stats = make_detection(langs=("en", "es"))
    headings = page("en", CONTENTS, ("/es/", "Español"), ("/docs/museum.html", "The museum"))
    [probe] = list(detection.examine(response(HOME, headings)))
    assert probe.url == "http://www.museo.example/es/"
    [look] = list(detection.probe_answered(response(probe.url, page("es", SPANISH), probe)))
    assert isinstance(look, scrapy.Request)
    assert look.url == "http://www.museo.example/docs/museum.html"
    assert look.meta["detector_via"] == "second look"
    [item] = list(detection.probe_answered(response(look.url, page("en", ENGLISH), look)))
    assert item.bilingual and item.languages == ["es", "en"] and item.pages_downloaded == 3
    assert stats.values["detector/second_looks"] == 1


def test_a_home_of_headings_is_not_looked_below_when_no_other_language_was_found() -> None:
    detection, _ = make_detection(langs=("en", "es"))
    headings = page("en", CONTENTS, ("/es/", "Español"), ("/docs/museum.html", "The museum"))
    [probe] = list(detection.examine(response(HOME, headings)))
    [item] = list(detection.probe_answered(response(probe.url, page("en", ENGLISH), probe)))
    assert isinstance(item, SiteVerdictItem) and not item.bilingual


def test_a_toggle_to_another_site_is_probed_last_and_counts_when_it_links_back() -> None:
    """``www.museo.example``'s only "Español" goes to ``www.museum-espanol.example``, another
    site: not scored, it is asked when nothing else is left (its links naming a language read,
    unscored: the one back), and counts because its "English" links back. A link to another
    site that only its URL says is Spanish is no toggle."""
    detection, stats, recording = predicting_detection()
    toggle = "http://www.museum-espanol.example/"
    wiki = ("http://es.wikipedia.org/wiki/Museo", "Wikipedia")  # its URL names Spanish, no label
    first = response(HOME, page("en", ENGLISH, ("/about.html", "About"), wiki, (toggle, "Español")))
    [probe] = list(detection.examine(first))
    assert (probe.url, probe.meta["detector_via"]) == (toggle, "other site")
    assert recording.scored == [HOME + "about.html"]
    assert stats.values["detector/other_sites"] == 1
    back = page("es", SPANISH, (HOME, "English"), ("/sobre.html", "Sobre"))
    [item] = list(detection.probe_answered(response(toggle, back, probe)))
    assert item.bilingual and item.languages == ["en", "es"]
    assert [e["via"] for e in item.evidence] == ["", "other site"]
