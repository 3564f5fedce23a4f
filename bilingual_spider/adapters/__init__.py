"""Scrapy adapters of the research core that are neither spiders nor middlewares: each wraps a
pure component (:mod:`bilingual_spider.detection`, :mod:`bilingual_spider.patterns`) in the
requests, callbacks, items and stats of the spiders that use it."""
