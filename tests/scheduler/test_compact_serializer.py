"""The Redis frontier's request serializer: every field back, in about a third of the bytes."""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st
from scrapy import FormRequest, Request, Spider
from scrapy.utils.request import request_from_dict
from scrapy_redis import picklecompat

from bilingual_spider.frontier.link_classifier import neighbourhood_tokens
from bilingual_spider.frontier.rescoring import FRONTIER_META, FrontierScorer
from bilingual_spider.links.contexts import LinkContext
from bilingual_spider.scheduler import compact_serializer


class Crawl(Spider):
    name = "crawl"

    def parse(self, response):
        return None

    def first_page_failed(self, failure):
        return None


SPIDER = Crawl()


def frontier_request(url: str, anchor: str, around: str) -> Request:
    """A forward link as the backforth spider queues it (tokens, tag, callbacks, depth)."""
    context = LinkContext(
        url, "https://blog.example.org/travel/", anchor, around, "", "", "", "", around, "en",
        around,
    )  # fmt: skip
    priority, tag = FrontierScorer().tag("forward", neighbourhood_tokens(context))
    meta = {"role": "forward", FRONTIER_META: tag.to_meta(), "depth": 3}
    return Request(
        url, SPIDER.parse, errback=SPIDER.first_page_failed, priority=priority, meta=meta
    )


TYPICAL = frontier_request(
    "https://www.hotel-sevilla.es/en/rooms/double-room.html",
    "Hotel Sevilla Centro",
    "we stayed at the lovely Hotel Sevilla Centro which offers rooms in English and Spanish",
)


def test_a_frontier_request_comes_back_whole():
    blob = compact_serializer.dumps(TYPICAL.to_dict(spider=SPIDER))
    back = request_from_dict(compact_serializer.loads(blob), spider=SPIDER)
    assert back.to_dict(spider=SPIDER) == TYPICAL.to_dict(spider=SPIDER)
    assert (back.callback, back.errback) == (SPIDER.parse, SPIDER.first_page_failed)


def test_a_frontier_request_takes_less_than_its_words():
    """Its blob is smaller than the text it carries (URL and tokens, without any framing) and
    than a third of scrapy-redis's pickle: the defaults are left out, the tokens' prefixes and
    the URL's words they repeat are deflated away."""
    request = TYPICAL.to_dict(spider=SPIDER)
    tokens = request["meta"][FRONTIER_META]["tokens"]
    words = len(request["url"]) + sum(len(token) for token in tokens)
    blob = compact_serializer.dumps(request)
    assert len(blob) < words
    assert len(blob) < len(picklecompat.dumps(request)) / 3


def test_the_dictionary_never_changes_under_the_same_format():
    """Blobs in Redis are read with the dictionary they were written with: changing it (or
    pickle's output of it) needs a new FORMAT byte."""
    assert compact_serializer.FORMAT == b"\x01"
    digest = hashlib.sha256(compact_serializer.DICTIONARY).hexdigest()
    assert digest[:16] == "47bf6bc39eaa7d1b"


def test_blobs_of_scrapy_redis_are_still_read():
    request = TYPICAL.to_dict(spider=SPIDER)
    assert compact_serializer.loads(picklecompat.dumps(request)) == request


text = st.text(max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    url_path=st.text(alphabet="abcdefghij/-_.~%", max_size=30),
    method=st.sampled_from(["GET", "POST", "HEAD"]),
    headers=st.dictionaries(st.sampled_from(["Accept", "Referer", "X-Key"]), text, max_size=2),
    body=st.binary(max_size=30),
    cookies=st.dictionaries(text, text, max_size=2),
    meta=st.dictionaries(text, st.one_of(text, st.integers(), st.none()), max_size=3),
    priority=st.integers(-(2**20), 2**20),
    dont_filter=st.booleans(),
    flags=st.lists(text, max_size=2),
    cb_kwargs=st.dictionaries(st.sampled_from(["first", "origin"]), text, max_size=2),
    form=st.booleans(),
)
def test_any_request_comes_back_whole(
    url_path, method, headers, body, cookies, meta, priority, dont_filter, flags, cb_kwargs, form
):
    kind = FormRequest if form else Request
    request = kind(
        f"http://a.example/{url_path}", SPIDER.parse, method, headers, body, cookies, meta,
        "utf-8", priority, dont_filter, flags=flags, cb_kwargs=cb_kwargs,
    )  # fmt: skip
    as_dict = request.to_dict(spider=SPIDER)
    back = compact_serializer.loads(compact_serializer.dumps(as_dict))
    assert back == as_dict
    assert request_from_dict(back, spider=SPIDER).to_dict(spider=SPIDER) == as_dict
