"""What a crawl leaves for the tools after it: WARC files of its pages, document pairs."""
