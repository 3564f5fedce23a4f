from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.stripping import stripping_pairs
from bilingual_spider.patterns.url_list import mine_url_list

URLS = [
    "http://bugadacargnel.com/en/pages/artistes.php?name=18492",
    "http://bugadacargnel.com/fr/pages/artistes.php?name=18492",
    "http://bugadacargnel.com/en/pages/expositions.php?name=marcbijl",
    "http://bugadacargnel.com/fr/pages/expositions.php?name=marcbijl",
    "http://golftrotter.com/en_rep_thai_04.htm",
    "http://golftrotter.com/fr_rep_thai_04.htm",
    "http://golftrotter.com/en_rep_thai_05.htm",
    "http://cineuropa.mobi/interview.aspx?documentID=65143",
    "http://cineuropa.mobi/interview.aspx?lang=fr&documentID=65143",
    "http://shop.example.com/list?page=1",
    "http://shop.example.com/list?page=2",
    "http://en.wiki.example.org/Paris",
    "http://fr.wiki.example.org/Paris",
]


def test_url_only_mining_finds_language_pairs_only() -> None:
    result = mine_url_list(URLS)
    found = {(p.source, p.target) for p in result.pairs}
    assert found == {
        (URLS[0], URLS[1]),
        (URLS[2], URLS[3]),
        (URLS[4], URLS[5]),
        (URLS[7], URLS[8]),
        (URLS[11], URLS[12]),
    }
    assert result.top_patterns(1) == (PairingPattern("en", "fr"),)
    assert PairingPattern("page=1", "page=2") not in result.credibility.global_score


def test_language_column_lets_any_unit_pair() -> None:
    urls = ["http://x.com/a/p1.html", "http://x.com/b/p1.html"]
    result = mine_url_list(urls, languages={urls[0]: "en", urls[1]: "de"})
    [pair] = result.pairs
    assert pair.pattern == PairingPattern("a", "b")
    assert (pair.source_language, pair.target_language) == ("en", "de")
    assert mine_url_list(urls).pairs == ()


def test_stripping_comparator() -> None:
    pairs = stripping_pairs(URLS)
    assert (URLS[0], URLS[1]) in pairs and (URLS[4], URLS[5]) in pairs
    assert not any("shop" in a for a, _ in pairs)
