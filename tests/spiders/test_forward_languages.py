"""The forward spider's hreflang reader sees custom elements like ``<a>`` and ``<link>``."""

from __future__ import annotations

from scrapy.http import HtmlResponse

from bilingual_spider.spiders.forward import declared_languages


def test_hreflang_alternates_of_links_anchors_and_custom_elements():
    body = (
        "<html lang='en-CA'><head><link rel='alternate' hreflang='de' href='/de/'></head><body>"
        "<a hreflang='es' href='/es/'>Español</a>"
        "<acme-lang-toggle hreflang='fr' href='/fr/'>Français</acme-lang-toggle>"
        "<acme-note hreflang='it'>no link</acme-note></body></html>"
    )
    response = HtmlResponse("https://acme.example/en/", body=body, encoding="utf-8")
    assert declared_languages(response) == (
        "en",
        {
            "de": "https://acme.example/de/",
            "es": "https://acme.example/es/",
            "fr": "https://acme.example/fr/",
        },
    )
