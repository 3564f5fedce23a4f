"""Focused crawling's research core: which links lead to target-language, good-quality pages."""
