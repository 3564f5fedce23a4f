"""PupSniffer's use of a site's sitemaps (``BILINGUAL_SITEMAPS``, ``docs/sitemaps.md``): the
translations a sitemap lists for a page join those the page names itself, and a site's first
page asks for the pages of the sitemap's translation groups first (stat
``pupsniffer/pages_asked/sitemap``)."""

from __future__ import annotations

from collections.abc import Iterator

from scrapy.http import Response

from bilingual_spider.links.sitemaps import SiteSitemap
from bilingual_spider.middlewares.sitemaps import SITEMAP_META
from bilingual_spider.patterns.alternates import Alternate, with_sitemap
from bilingual_spider.patterns.pair_first import PageAsk, PairFirstOrder


class SitemapPages:
    """What the sitemap the middleware attached to a response (``SITEMAP_META``) adds."""

    def __init__(self, order: PairFirstOrder) -> None:
        self.order = order
        self.asked_sites: set[str] = set()  # sites whose sitemap pages were asked for

    def alternates(
        self, response: Response, alternates: tuple[Alternate, ...]
    ) -> tuple[Alternate, ...]:
        """The page's translations, with those its site's sitemap lists for it."""
        sitemap: SiteSitemap | None = response.meta.get(SITEMAP_META)
        if sitemap is None:
            return alternates
        return with_sitemap(alternates, sitemap.alternates_of(response.url), response.url)

    def asks(self, site: str, response: Response) -> Iterator[PageAsk]:
        """Once per site: the pages its sitemap lists, translation groups first."""
        sitemap: SiteSitemap | None = response.meta.get(SITEMAP_META)
        if sitemap is None or site in self.asked_sites:
            return
        self.asked_sites.add(site)
        paired = sitemap.paired_pages(self.order.languages)  # the crawl's: only theirs first
        yield from self.order.sitemap_listed(site, paired, sitemap.pages)
