"""A response's parsed page and language, made once per response and shared (the Scrapy side of
:mod:`bilingual_spider.html_page`).

Language identification (the focus middleware, the detector, PupSniffer), the link contexts (the
Link Predictor, the switcher and hreflang readers, PupSniffer's links and alternates), the pair
verifier's shape and main text and the WARC writer's language all read the page through
:func:`response_page`, so a page is decoded and parsed once, whichever of them asks first.

The text parsed is ``response.text``: Scrapy decodes it once and keeps it, with the encoding the
charset middleware chose (``response.replace(encoding=...)``, see
``middlewares/charset.py``), which is :func:`~bilingual_spider.html_page.decode_page` of the body
with ``response.encoding``. So every reader sees the text the charset middleware decided on, and
the decode is shared with everything else that reads ``response.text``.

Where the tree is kept: a :class:`weakref.WeakKeyDictionary` keyed by the response object, not
``response.meta``. ``response.meta`` is the request's meta: it outlives the response (the tree
and its text would stay in memory as long as anything holds the request), a spider that passes
``response.meta`` on to a new request would carry the tree into it (and a Redis or disk queue
cannot serialise an lxml tree), and a response replaced after parsing (another encoding) would
share its predecessor's stale tree. Keyed by the response, the tree lives exactly as long as the
response, a replaced response gets its own, and a response made by hand (no request, no meta)
is cached too. The page's language (:func:`response_language`) is a small frozen value and stays
in ``response.meta`` (:data:`PAGE_LANGUAGE_META`), where spiders already look for it.
"""

from __future__ import annotations

import weakref

from scrapy.http import Response, TextResponse

from bilingual_spider.html_page import EMPTY_PAGE, ParsedPage, html_lang, parse_html
from bilingual_spider.language.codes import same_language
from bilingual_spider.language.identification import LanguageIdentifier
from bilingual_spider.language.page_language import PageLanguage, page_language
from bilingual_spider.patterns.crawl_round import declared_language

PAGE_LANGUAGE_META = "page_language"
"""``Response.meta`` key where the page's :class:`PageLanguage` is kept once identified, so the
middlewares and the spider identify a page once."""
LINKED_LANGUAGE_META = "linked_language"
"""``Request.meta`` key: the language the link a request follows names for its page (its
``hreflang``, a switcher's label: the detector's probes), weighed as the page's declared
language where its URL names none (:func:`page_declared_language`)."""
SITE_LANGUAGES_META = "site_languages"
"""``Request.meta`` key: the languages the page's site is known to have (the detector's probes:
those its first page shows), against which a sure guess of the identifier may be a stand-in
(:func:`~bilingual_spider.language.declared_language.resolve_language`'s ``offered``)."""

_parsed: weakref.WeakKeyDictionary[Response, ParsedPage] = weakref.WeakKeyDictionary()


def response_page(response: Response) -> ParsedPage:
    """A response's HTML tree, parsed once per response object (link contexts, main text,
    language, the verifier's shape); an empty page for a response that is not text."""
    page = _parsed.get(response)
    if page is None:
        page = parse_html(response.text) if isinstance(response, TextResponse) else EMPTY_PAGE
        _parsed[response] = page
    return page


def response_language(response: Response, identifier: LanguageIdentifier) -> PageLanguage:
    """The language of a page's main text, identified once per response."""
    cached = response.meta.get(PAGE_LANGUAGE_META) if _has_meta(response) else None
    if isinstance(cached, PageLanguage):
        return cached
    page = response_page(response)
    offered = response.meta.get(SITE_LANGUAGES_META) if _has_meta(response) else None
    language = page_language(page, identifier, page_declared_language(response, page), offered)
    if _has_meta(response):
        response.meta[PAGE_LANGUAGE_META] = language
    return language


def page_declared_language(response: Response, page: ParsedPage) -> str | None:
    """The language the site declares for a response's page: its URL's marker, else the one
    the link it was reached by names (:data:`LINKED_LANGUAGE_META`: a template's ``<html
    lang="en">`` on every page says less; its ``<html lang>`` when that is the same language
    said more closely: ``pt-BR`` for a link's "Português"), else its ``<html lang>``
    (:func:`~bilingual_spider.patterns.crawl_round.declared_language`)."""
    linked = response.meta.get(LINKED_LANGUAGE_META) if _has_meta(response) else None
    own = html_lang(page)
    if linked and not (own and same_language(linked, own)):
        return declared_language(response.url, linked)
    return declared_language(response.url, own)


def _has_meta(response: Response) -> bool:
    """A response made by hand is tied to no request and has no meta."""
    return response.request is not None
