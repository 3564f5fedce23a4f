"""The outlinks of a response among what its callback returned: what the focus middlewares judge.

A spider middleware built on :class:`OutlinkMiddleware` sees every callback's output at once (so
it can judge a page's links in one batch), and is asked only about the requests that follow a
link of the page: a request whose URL is a link of the response, or that carries the link's text
in ``meta["link_text"]`` (Scrapy's ``CrawlSpider`` convention). Seeds, detector probes and API
calls (the roles with fixed priorities, :data:`~bilingual_spider.frontier.rescoring.ROLE_PRIORITY`)
and requests that are no link of the page (a backlink API's answers, PupSniffer's generated deep
pages) pass untouched, so the middlewares work with every spider.

A middleware changes a request's priority only by adding a bonus (:func:`with_bonus`); the bonus
is written into the request's frontier tag too, so a request re-scored by a newer link classifier
keeps it (:meth:`~bilingual_spider.frontier.rescoring.FrontierScorer.rescore`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import replace
from typing import Any

from scrapy import Request
from scrapy.http import Response, TextResponse

from bilingual_spider.frontier.rescoring import FRONTIER_META, ROLE_PRIORITY, FrontierTag
from bilingual_spider.language.identification import (
    KANA,
    LanguageIdentifier,
    default_identifier,
)
from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.response_page import (  # noqa: F401 - spiders import them from here too
    PAGE_LANGUAGE_META,
    response_language,
    response_page,
)

LINK_TEXT_META = "link_text"
"""``Request.meta`` key of the text of the link a request follows (as Scrapy's CrawlSpider)."""
KANA_SCAN_CHARS = 200_000
"""A page is said to write kana when they occur in its first this many characters."""


class PageLinks:
    """The links of one response: their anchors, read from the requests' ``link_text`` or, for
    spiders that do not set it, from the page itself (parsed once, on first need)."""

    def __init__(self, response: Response) -> None:
        self.response = response
        self._anchors: dict[str, str] | None = None

    def _page_anchors(self) -> dict[str, str]:
        if self._anchors is None:
            self._anchors = {}
            if isinstance(self.response, TextResponse):
                page = response_page(self.response)
                for context in extract_link_contexts(page, self.response.url):
                    text = context.anchor or context.img_alt or context.title
                    if text or context.url not in self._anchors:
                        self._anchors.setdefault(context.url, text)
        return self._anchors

    def follows_link(self, request: Request) -> bool:
        """Whether ``request`` follows a link of the page and its role has no fixed priority."""
        if request.meta.get("role") in ROLE_PRIORITY:
            return False
        return LINK_TEXT_META in request.meta or request.url in self._page_anchors()

    def anchor(self, request: Request) -> str:
        """The text of the link ``request`` follows (``""`` when it has none)."""
        text = request.meta.get(LINK_TEXT_META)
        if text is None:
            text = self._page_anchors().get(request.url, "")
        return " ".join(str(text).split())

    def has_kana(self) -> bool:
        """Whether the page writes kana (hiragana, katakana): Japanese, whatever its kanji."""
        if not isinstance(self.response, TextResponse):
            return False
        return KANA.search(self.response.text[:KANA_SCAN_CHARS]) is not None


def with_bonus(request: Request, bonus: int) -> Request:
    """``request`` with ``bonus`` added to its priority (and to its frontier tag's bonus)."""
    if not bonus:
        return request
    meta = request.meta
    tag = FrontierTag.from_meta(meta.get(FRONTIER_META))
    if tag is not None:
        meta = {**meta, FRONTIER_META: replace(tag, bonus=tag.bonus + bonus).to_meta()}
    return request.replace(priority=request.priority + bonus, meta=meta)


class OutlinkMiddleware:
    """Base of spider middlewares that judge a page's outlinks together.

    Subclasses implement :meth:`judge`: given the response and the requests that follow its
    links, return for each the request to schedule (maybe with a bonus) or None to drop it.
    """

    _identifier: LanguageIdentifier | None = None

    @property
    def identifier(self) -> LanguageIdentifier:
        """The language identifier (given to the constructor, else the shared one, loaded on
        first use)."""
        if self._identifier is None:
            self._identifier = default_identifier()
        return self._identifier

    def judge(
        self, response: Response, links: PageLinks, requests: list[Request]
    ) -> list[Request | None]:
        raise NotImplementedError

    def process_spider_output(self, response: Response, result: Iterable[Any]) -> Iterator[Any]:
        yield from self._judged(response, list(result))

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any]
    ) -> AsyncIterator[Any]:
        for output in self._judged(response, [output async for output in result]):
            yield output

    def _judged(self, response: Response, outputs: list[Any]) -> Iterator[Any]:
        links = PageLinks(response)
        positions = [
            i for i, output in enumerate(outputs)
            if isinstance(output, Request) and links.follows_link(output)
        ]  # fmt: skip
        judged = self.judge(response, links, [outputs[i] for i in positions])
        verdicts = dict(zip(positions, judged, strict=True))
        for i, output in enumerate(outputs):
            if i not in verdicts:
                yield output
            elif verdicts[i] is not None:
                yield verdicts[i]
