"""Language signals: identification, code normalisation (pure, no Scrapy)."""
