"""Scrapy middlewares: thin adapters over the pure modules."""
