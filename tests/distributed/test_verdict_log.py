"""With Redis, a site is judged by whichever worker takes its last probe: the verdict log lets the
worker that followed a link to the site, or fetched a backlink page linking to it, learn the
verdict and label those links (issue 35: with 8 workers most forward links went unlabelled)."""

from __future__ import annotations

import pytest

from bilingual_spider import settings as project_settings
from bilingual_spider.adapters.site_origins import FOUND_BY_META
from bilingual_spider.detection.detector import SiteVerdict
from bilingual_spider.distributed.found_by import SharedFoundBy
from bilingual_spider.distributed.model_store import SharedLinkModels
from bilingual_spider.distributed.site_store import RedisSiteStore
from bilingual_spider.frontier.bipartite import BACKLINK, FORWARD
from bilingual_spider.items import SiteVerdictItem
from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.spiders.backforth import VERDICT_READING_PAGES, BackForthSpider
from tests.conftest import REDIS_URL
from tests.crawlers import get_crawler
from tests.spiders.pages import ENGLISH, page
from tests.waiting import wait_until

HOTEL = "www.hotel.example"
SHOP = "www.shop.example"
HUB = "http://www.hub.example/links.html"


def verdict(site: str, bilingual: bool) -> SiteVerdict:
    return SiteVerdict(
        site=site,
        url=f"http://{site}/",
        bilingual=bilingual,
        languages=("en", "es") if bilingual else ("en",),
        reason="",
        pages_downloaded=2,
        rule="scored links",
        evidence=(),
        best_score=0.9,
        links=3,
        candidates=1,
        mode="language_id",
        min_likelihood=0.5,
        langs=(),
    )


def test_every_worker_reads_each_verdict_once_in_the_order_recorded(redis, redis_prefix):
    base = f"{redis_prefix}:backforth"
    one, two = (RedisSiteStore(redis, base, worker=name) for name in ("w1", "w2"))
    assert one.verdicts_since(0) == ([], 0)
    assert one.finish(verdict(HOTEL, True))
    assert two.finish(verdict(SHOP, False))
    assert not two.finish(verdict(HOTEL, False))  # the first verdict stays, logged once
    assert two.verdicts_since(0) == ([(HOTEL, True), (SHOP, False)], 2)
    assert one.verdicts_since(1) == ([(SHOP, False)], 2)
    assert one.verdicts_since(2) == ([], 2)


def test_the_log_is_trimmed_once_every_worker_has_read_past_its_head(redis, redis_prefix):
    """The log keeps what some worker has still to read, and its last ``log_keep`` entries;
    cursors count from the crawl's first verdict whatever was trimmed; a worker that stopped
    reading holds nothing back once it is stale."""
    base = f"{redis_prefix}:backforth"
    small = {"log_keep": 2, "log_trim": 3}
    one, two = (RedisSiteStore(redis, base, worker=name, **small) for name in ("w1", "w2"))
    log, start = one.verdict_log_key, one.verdict_log_start_key
    raw = redis.client
    sites = [f"www.site{i}.example" for i in range(8)]
    assert one.verdicts_since(0) == ([], 0) and two.verdicts_since(0) == ([], 0)
    for site in sites[:6]:
        assert one.finish(verdict(site, True))
    assert one.verdicts_since(0) == ([(site, True) for site in sites[:6]], 6)
    assert raw.llen(log) == 6  # two has read none of them yet
    assert two.verdicts_since(0)[1] == 6
    assert raw.llen(log) == 2 and int(raw.get(start)) == 4  # the last 2 kept
    for site in sites[6:]:
        assert two.finish(verdict(site, False))
    assert two.verdicts_since(6) == ([(site, False) for site in sites[6:]], 8)
    # a cursor before the log's head reads from the head
    assert one.verdicts_since(0) == (
        [(sites[4], True), (sites[5], True)] + [(site, False) for site in sites[6:]],
        8,
    )
    # a worker that read once long ago holds nothing back
    late = RedisSiteStore(redis, base, worker="w3", **small)
    assert late.verdicts_since(8) == ([], 8)
    for n in range(8, 14):
        assert one.finish(verdict(f"www.site{n}.example", True))
    assert one.verdicts_since(8)[1] == two.verdicts_since(8)[1] == 14
    assert int(raw.get(start)) == 8 and raw.llen(log) == 6  # w3 is at 8: nothing beyond it
    impatient = RedisSiteStore(redis, base, worker="w1", reader_stale_seconds=0.001, **small)
    wait_until(lambda: impatient.verdicts_since(14) and raw.llen(log) == 2)
    assert int(raw.get(start)) == 12
    assert raw.hget(one.verdict_readers_key, "w3") is None


def cobfc_worker(redis_prefix: str, name: str) -> BackForthSpider:
    every = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}
    settings = {
        **every,
        "REDIS_URL": REDIS_URL,
        "BILINGUAL_REDIS_KEY_PREFIX": redis_prefix,
        "BILINGUAL_REDIS_WORKER_NAME": name,
    }
    crawler = get_crawler(BackForthSpider, settings)
    return BackForthSpider.from_crawler(
        crawler, seeds="http://www.museo.example/", langs="", strategy="cobfc"
    )


def link_to(url: str) -> LinkContext:
    return LinkContext(
        url=url,
        page_url=HUB,
        anchor="Hotel Sol: English, Español",
        around="rooms and prices in two languages",
        img_alt="",
        img_src="",
        title="",
        hreflang="",
        block_text="",
        page_lang="en",
    )


@pytest.mark.parametrize("bilingual", [True, False])
def test_a_verdict_given_by_another_worker_labels_the_links_this_worker_followed(
    redis_prefix, bilingual
):
    """Worker a follows a hub's link to the hotel site and keeps the hub (a backlink page) waiting
    for the verdicts of the sites it links to; worker b judges the hotel site. Once a has read the
    verdicts, the forward link and the backlink page are labelled in a (their tokens are a's
    only), once, and a does not request the judged site again."""
    a, b = cobfc_worker(redis_prefix, "a"), cobfc_worker(redis_prefix, "b")
    assert len(list(a._forward_request(link_to(f"http://{HOTEL}/"), found_by=f"link of {HUB}")))
    assert not a.graph.add_backlink_page(HUB, ("hub", "links"), [HOTEL, SHOP])
    assert b.detection.store.finish(verdict(HOTEL, bilingual))
    item = SiteVerdictItem(
        site=HOTEL, url=f"http://{HOTEL}/", bilingual=bilingual, languages=["en", "es"],
        reason="", pages_downloaded=2,
    )  # fmt: skip
    list(b._on_verdict(item))
    for _ in range(VERDICT_READING_PAGES):  # a's pages (the verdicts are read every so many)
        a._count_page("forward", {})
    assert isinstance(a.learning.models, SharedLinkModels)
    a.learning.models.step(a.classifiers, a.pages, 0)  # sends the examples added
    labelled = {FORWARD: 1, BACKLINK: 1 if bilingual else 0}  # the hub waits for the shop if not
    assert a.learning.models.sent == labelled
    assert a.crawler.stats.get_value("backforth/verdicts_of_other_workers") == 1
    assert not list(a._forward_request(link_to(f"http://{HOTEL}/en/"), found_by="again"))
    assert a.origins._noted == {}
    assert isinstance(b.learning.models, SharedLinkModels)
    assert b.learning.models.sent == {FORWARD: 0, BACKLINK: 0}
    b.detection.store.finish(verdict(SHOP, False))
    a._read_other_workers_verdicts()  # read again: the hotel's verdict is not read twice
    a.learning.models.step(a.classifiers, a.pages, 0)
    assert a.learning.models.sent == {FORWARD: 1, BACKLINK: 1}
    assert a.crawler.stats.get_value("backforth/verdicts_of_other_workers") == 2


def test_a_forward_link_dropped_as_another_workers_duplicate_is_labelled_by_that_worker_only(
    redis_prefix,
):
    """Workers a and b both follow a link to the hotel site; the shared duplicate filter drops
    b's request (Scrapy's ``request_dropped``). The verdict labels a's link, not b's: one
    forward example a site, as with one worker."""
    from scrapy import signals

    a, b = cobfc_worker(redis_prefix, "a"), cobfc_worker(redis_prefix, "b")
    assert len(list(a._forward_request(link_to(f"http://{HOTEL}/"), found_by="a's link")))
    (dropped,) = b._forward_request(link_to(f"http://{HOTEL}/es/"), found_by="b's link")
    b.crawler.signals.send_catch_log(signals.request_dropped, request=dropped, spider=b)
    assert a.detection.store.finish(verdict(HOTEL, True))
    for spider in (a, b):
        spider._read_other_workers_verdicts()
        assert isinstance(spider.learning.models, SharedLinkModels)
        spider.learning.models.step(spider.classifiers, 1, 0)
    assert a.learning.models.sent == {FORWARD: 1, BACKLINK: 0}
    assert b.learning.models.sent == {FORWARD: 0, BACKLINK: 0}
    assert not list(b._forward_request(link_to(f"http://{HOTEL}/de/"), found_by="again"))


def test_a_bilingual_site_record_says_how_the_site_was_reached_whichever_worker_judges_it(
    redis_prefix,
):
    """Worker a follows a hub's link to the hotel site, b fetches the hotel's first page (its
    request came to b through the shared queue), c gives the verdict (it took the last probe):
    c's record of the bilingual site says how a reached it; so does the record of the same
    verdict emitted again (c killed before its record was written, the verdict replayed by d)."""
    from scrapy.http import HtmlResponse

    a, b, c = (cobfc_worker(redis_prefix, name) for name in "abc")
    how = f"forward link of {HUB}"
    (request,) = a._forward_request(link_to(f"http://{HOTEL}/"), found_by=how)
    assert request.meta[FOUND_BY_META] == how
    body = page("en", ENGLISH, ("/es/", "Español"), ("/about.html", "About")).encode()
    probes = list(b.parse(HtmlResponse(request.url, body=body, request=request)))
    assert probes and all(p.meta["role"] == "probe" for p in probes)  # no verdict at b
    assert c.detection.store.finish(verdict(HOTEL, True))
    item = SiteVerdictItem(
        site=HOTEL, url=f"http://{HOTEL}/", bilingual=True, languages=["en", "es"],
        reason="", pages_downloaded=2,
    )  # fmt: skip
    (record,) = c._on_verdict(item)
    assert record.found_by == how
    (replayed,) = cobfc_worker(redis_prefix, "d")._on_verdict(item)
    assert replayed.found_by == how


def test_how_a_site_was_reached_is_forgotten_at_its_verdict_unless_it_is_bilingual(
    redis, redis_prefix
):
    found_by = SharedFoundBy(redis, f"{redis_prefix}:backforth")
    found_by.note(HOTEL, "seed")
    found_by.note(SHOP, "seed")
    assert found_by.take(HOTEL, keep=True) == "seed" and found_by.take(HOTEL) == "seed"
    assert found_by.take(HOTEL) == ""  # forgotten once taken without keep
    assert found_by.take(SHOP) == "seed" and found_by.take(SHOP, keep=True) == ""


def test_a_site_reached_as_a_backlink_pages_own_site_says_so_whichever_worker_judges_it(
    redis_prefix,
):
    """A backlink page's own site is judged from that page: its probes may go to any worker."""
    a, c = cobfc_worker(redis_prefix, "a"), cobfc_worker(redis_prefix, "c")
    record = hub_fetched_as_a_backlink_page_and_judged_elsewhere(a, c)
    assert record.found_by == f"backlink page of {HOTEL}"


def hub_fetched_as_a_backlink_page_and_judged_elsewhere(
    fetching: BackForthSpider, judging: BackForthSpider
):
    """``fetching`` fetches the hub as a backlink page of the hotel site; ``judging`` judges
    the hub's site bilingual (it took the last probe): its record of the site."""
    from scrapy.http import HtmlResponse

    from bilingual_spider.middlewares.backlink_expansion import BACKLINK_OF_META

    request = fetching._request(HUB, BACKLINK)
    request.meta[BACKLINK_OF_META] = HOTEL
    body = page("en", ENGLISH, ("/es/", "Español"), (f"http://{SHOP}/", "Shop")).encode()
    list(fetching.parse(HtmlResponse(HUB, body=body, request=request)))
    hub_site = fetching.detection.site_of(HUB)
    assert judging.detection.store.finish(verdict(hub_site, True))
    item = SiteVerdictItem(
        site=hub_site, url=HUB, bilingual=True, languages=["en", "es"], reason="",
        pages_downloaded=2,
    )  # fmt: skip
    (record,) = judging._on_verdict(item)
    return record


def test_a_site_whose_link_was_dropped_and_then_judged_from_a_backlink_page_says_how(
    redis_prefix,
):
    """Worker a follows a link to the hub's site and the shared duplicate filter drops it (b
    queued the site first, and b's request is not fetched yet); then a fetches a page of that
    site as a backlink page, and c judges the site (it took the last probe). c's record says how
    a reached the site: before, a noted nothing (its graph had reached the site), and the record
    of such a site was empty (0-4 records a crawl of 4-8 workers, issue 35)."""
    from scrapy import signals

    a, b, c = (cobfc_worker(redis_prefix, name) for name in "abc")
    hub_root = HUB.rsplit("/", 1)[0] + "/"
    assert len(list(b._forward_request(link_to(hub_root), found_by="b's link")))
    how = "forward link of http://www.museo.example/"
    (dropped,) = a._forward_request(link_to(hub_root + "about.html"), found_by=how)
    a.crawler.signals.send_catch_log(signals.request_dropped, request=dropped, spider=a)
    record = hub_fetched_as_a_backlink_page_and_judged_elsewhere(a, c)
    assert record.found_by == how
