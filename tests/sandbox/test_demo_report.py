from bilingual_spider.sandbox.demo import found_sites_report

TRUTH = {
    "sites": [
        {"name": "sol", "bilingual": True, "kind": "bilingual",
         "hosts": {"en": "www.sol.com", "es": "www.sol.es"}},
        {"name": "lie", "bilingual": False, "kind": "decoy", "hosts": {"en": "www.lie.com"}},
        {"name": "far", "bilingual": True, "kind": "bilingual", "hosts": {"en": "www.far.com"}},
    ]
}  # fmt: skip
REAL = [
    {"host": "httpd.apache.org", "kind": "multilingual", "bilingual": True},
    {"host": "docs.python.org", "kind": "monolingual", "bilingual": False},
    {"host": "www.debian.org", "kind": "multilingual", "bilingual": True},
    # a second site of the host whose other language is mostly English (debian-policy)
    {"host": "www.debian.org", "kind": "multilingual", "bilingual": False},
]


def test_the_report_counts_sites_not_hosts_and_checks_real_sites_by_their_kind():
    found = [
        {"site": host, "languages": ["en", "es"], "found_by": "seed"}
        for host in ("www.sol.com", "www.sol.es", "www.lie.com", "httpd.apache.org",
                     "docs.python.org", "www.debian.org")
    ]  # fmt: skip
    judged = [{"site": "www.far.com", "bilingual": False}]
    report = found_sites_report(found + judged, TRUTH, {"backforth/pages": 40}, REAL)
    assert report.startswith("6 hosts reported bilingual (4 right by the ground truth) of 1 judged")
    assert "1 of the generated world's 2 bilingual sites" in report
    assert "and 2 multilingual real sites" in report
    assert "real monolingual" in report and "decoy" in report
