"""Scrapy extensions of bilingual_spider."""
