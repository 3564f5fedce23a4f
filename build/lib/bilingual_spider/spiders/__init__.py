"""Spiders: thin Scrapy adapters that wire the research modules together."""
