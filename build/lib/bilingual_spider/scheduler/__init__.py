"""The crawl frontier: Scrapy's scheduler by default, the leased Redis frontier when REDIS_URL is
set."""
