"""The sandbox web: an offline Internet on which every crawl test and benchmark runs."""
