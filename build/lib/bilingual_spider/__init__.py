"""bilingual_spider: find bilingual web sites and the pages on them that translate each other."""

__version__ = "0.1.0"
