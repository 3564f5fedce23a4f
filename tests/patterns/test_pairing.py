import pytest

from bilingual_spider.patterns.credibility import credibility
from bilingual_spider.patterns.markers import is_language_pattern, is_language_unit
from bilingual_spider.patterns.mining import PairingPattern
from bilingual_spider.patterns.mining import mine_sites as mine_all_patterns
from bilingual_spider.patterns.pairing import (
    LOCAL,
    RESCUE,
    PairingConfig,
    discover_pairs,
    domain_credibility,
    local_threshold,
    rescued_patterns,
)

EN_FR = PairingPattern("en", "fr")


def mine_sites(urls: list[str]) -> dict:
    """URL-only mining: language patterns only."""
    return mine_all_patterns(urls, keep=is_language_unit, accept=is_language_pattern)


def _site(host: str, paired: int, alone: int) -> list[str]:
    pairs = [f"http://{host}/{lang}/p{i}.html" for lang in ("en", "fr") for i in range(paired)]
    return pairs + [f"http://{host}/misc/q{i}.html" for i in range(alone)]


def test_local_threshold_keeps_credible_patterns() -> None:
    # strong.com: 2*5/10 = 1.0; weak.com: 2*1/(2+30) = 0.0625 < 0.1
    mined = mine_sites(_site("strong.com", 5, 0) + _site("weak.com", 1, 30))
    table = credibility(mined)
    no_rescue = PairingConfig(rescue_theta=None, rescue_top=0)
    pairs = discover_pairs(mined, table, no_rescue)
    assert {(p.source, p.target) for p in pairs} == {
        (f"http://strong.com/en/p{i}.html", f"http://strong.com/fr/p{i}.html") for i in range(5)
    }
    assert all(p.method == LOCAL and p.local_credibility == 1.0 for p in pairs)
    assert pairs[0].source_language == "en" and pairs[0].target_language == "fr"


def test_weak_pattern_rescued_by_global_credibility() -> None:
    mined = mine_sites(_site("strong.com", 5, 0) + _site("weak.com", 1, 30))
    table = credibility(mined)
    # <en,fr> is the top global pattern: sum N*C = 10*1.0 + 2*0.0625 = 10.125
    assert table.global_score[EN_FR] == pytest.approx(10.125)
    by_rank = PairingConfig(rescue_theta=None, rescue_top=1)
    assert EN_FR in rescued_patterns(table, by_rank)
    weak = [p for p in discover_pairs(mined, table, by_rank) if "weak" in p.source]
    assert [p.method for p in weak] == [RESCUE]
    by_theta = PairingConfig(rescue_theta=10.0, rescue_top=0)
    assert len(discover_pairs(mined, table, by_theta)) == 6
    assert len(discover_pairs(mined, table, PairingConfig(rescue_theta=11.0, rescue_top=0))) == 5


def test_credible_domain_lowers_the_local_threshold() -> None:
    urls = _site("a.gov.hk", 4, 0) + _site("b.gov.hk", 4, 0) + _site("c.gov.hk", 1, 20)
    urls += _site("d.example.com", 1, 20)
    mined = mine_sites(urls)
    table = credibility(mined)
    config = PairingConfig(rescue_theta=None, rescue_top=0, domain_min_sites=3)
    # gov.hk: mean C(w) = (1.0 + 1.0 + 2/22) / 3 = 0.697 >= 0.5
    assert domain_credibility(table, 3)["gov.hk"] == pytest.approx((2 + 2 / 22) / 3)
    assert local_threshold("c.gov.hk", domain_credibility(table, 3), config) == 0.05
    found = {p.source for p in discover_pairs(mined, table, config)}
    assert "http://c.gov.hk/en/p0.html" in found
    assert "http://d.example.com/en/p0.html" not in found  # 2/22 = 0.09 < 0.1, .com not credible


def test_one_partner_per_url_and_pattern() -> None:
    urls = ["http://x.com/p", "http://x.com/fr/p", "http://x.com/p?lang=fr", "http://x.com/en/p"]
    pairs = discover_pairs(mine_sites(urls), credibility(mine_sites(urls)))
    ends = [(p.source, p.pattern) for p in pairs] + [(p.target, p.pattern) for p in pairs]
    assert len(ends) == len(set(ends))
