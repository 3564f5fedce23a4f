"""Scrapy commands of the project (``COMMANDS_MODULE``): ``scrapy crawl`` with bad input refused
in one line before anything is crawled."""
