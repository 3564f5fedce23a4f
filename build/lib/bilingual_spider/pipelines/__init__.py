"""Item pipelines: de-duplication and the output writers that Scrapy's feeds do not cover."""
