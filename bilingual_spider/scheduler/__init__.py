"""The crawl frontier: Scrapy's scheduler by default, scrapy-redis when REDIS_URL is set."""
