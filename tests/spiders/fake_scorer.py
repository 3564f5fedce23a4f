"""A stand-in for the Link Predictor in crawl tests: a link scores high when it names a language
(hreflang, a language's name or code in its anchor, alt text or URL) or shows a flag image.

    -s BILINGUAL_DETECTOR_LINK_SCORER=tests.spiders.fake_scorer.FakeLinkScorer
"""

from __future__ import annotations

from urllib.parse import urljoin

from lxml import html as lxml_html

from bilingual_spider.detection.detector import LinkScore, link_language_hint

LANGUAGE_SCORE = 0.93
FLAG_SCORE = 0.86
OTHER_SCORE = 0.04


class FakeLinkScorer:
    def score(self, html: str, page_url: str) -> list[LinkScore]:
        if not html.strip():
            return []
        root = lxml_html.document_fromstring(html.encode("utf-8"))
        scores = []
        for a in root.iter("a", "option"):  # a <select> menu's options lead to their value
            href = a.get("href") if a.tag == "a" else a.get("value")
            if not href:
                continue
            url = urljoin(page_url, href.strip())
            images = a.findall(".//img")
            alt = " ".join(img.get("alt", "") for img in images)
            hint = link_language_hint(url, a.get("hreflang", ""), a.text_content().strip(), alt)
            flag = any("flag" in img.get("src", "") for img in images)
            score = LANGUAGE_SCORE if hint else FLAG_SCORE if flag else OTHER_SCORE
            scores.append(LinkScore(url, score, hint))
        return scores
