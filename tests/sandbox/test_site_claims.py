"""Sites that say wrong things of their translations, or say them by a toggle only (issue 51,
``sandbox/site_claims.py``): the faults drawn, the hreflang written, the toggle as design systems
write it, and the links led to the translated slugs."""

from __future__ import annotations

from pathlib import Path

from bilingual_spider.links.contexts import extract_link_contexts
from bilingual_spider.patterns.alternates import TOGGLE, Alternate, page_alternates
from bilingual_spider.sandbox.published_sites import PublishedSite, publish_toggle
from bilingual_spider.sandbox.real_site import RealSite, page_files, served_html
from bilingual_spider.sandbox.site_claims import (
    claimed_alternates,
    claims_html,
    fault_of,
    renamed_links,
    toggle_html,
)

SITE = {
    "name": "tiny", "kind": "multilingual", "host": "x.org", "prefix": "/docs/",
    "packages": ["p"], "dirs": ["d"], "page_pattern": r"^(?P<lang>[a-z]{2})/(?P<page>.+\.html)$",
    "home": "en/p0.html",
}  # fmt: skip


def _site(tmp_path: Path, pages: int = 40) -> tuple[RealSite, dict[str, Path]]:
    for i in range(pages):
        for lang, text in (("en", "Hello"), ("fr", "Bonjour")):
            path = tmp_path / lang / f"p{i}.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            links = f'<a href="p{(i + 1) % pages}.html#top">next</a>'
            path.write_text(f"<html><head></head><body><p>{text} {i}</p>{links}</body></html>")
    site = PublishedSite.from_dict({**SITE, "publish": "hreflang_sitemap"}).site
    return site, served_html([tmp_path])


def test_faults_are_drawn_by_share_and_the_same_every_time():
    shares = {"mixed": 0.25, "home": 0.05}
    drawn = [fault_of(f"page{i}", shares, ("mixed", "home")) for i in range(2000)]
    assert 0.2 < drawn.count("mixed") / 2000 < 0.3 and 0.02 < drawn.count("home") / 2000 < 0.08
    assert drawn == [fault_of(f"page{i}", shares, ("mixed", "home")) for i in range(2000)]
    assert fault_of("page1", {}, ("mixed",)) is None


def test_claims_name_each_version_and_mix_documents_up_both_ways(tmp_path):
    site, served = _site(tmp_path)
    files = page_files(site, served)
    right, counts = claimed_alternates(site, files, {})
    assert counts == {"mixed": 0, "home": 0, "one_way": 0, "stale": 0}
    assert right["en/p3.html"] == [("en", site.url("en/p3.html")), ("fr", site.url("fr/p3.html"))]
    wrong, counts = claimed_alternates(site, files, {"mixed": 0.25, "stale": 0.05, "home": 0.05})
    assert counts["mixed"] >= 10 and counts["mixed"] % 4 == 0  # two pages of two documents
    for relative, alternates in wrong.items():
        lang, page = relative.split("/")
        named = dict(alternates)
        other = "fr" if lang == "en" else "en"
        if named[other] != site.url(f"{other}/{page}"):
            target = named[other].removeprefix(site.url(""))
            if target.startswith(f"{other}/old-"):
                continue  # stale: not served
            if target == f"{other}/p0.html":
                continue  # the other language's home
            # mixed both ways: the page it names names its own document back
            assert dict(wrong[target])[lang] == site.url(relative)


def test_claims_go_at_the_top_of_the_head():
    html = claims_html("<html><head><title>t</title></head></html>", [("fr", "http://x/fr/")])
    assert html.startswith('<html><head>\n<link rel="alternate" hreflang="fr" href="http://x/fr/">')


def test_the_toggle_is_written_across_lines_in_single_quotes_and_read_as_a_toggle():
    page = toggle_html("<html><body><p>Buttons</p></body></html>", "ds", "en", "../../fr/ab12/")
    assert "<ds-header\n  lang=\"en\"\n  lang-href='../../fr/ab12/'" in page
    contexts = extract_link_contexts(page, "http://x.org/en/cd34/")
    assert page_alternates(contexts) == (Alternate("http://x.org/fr/ab12/", "", TOGGLE),)


def test_links_are_led_to_the_pages_new_slugs():
    slugs = {"en/p1.html": "en/1a2b/index.html", "en/p0.html": "en/9f8e/index.html"}
    html = '<a href="p1.html#x">next</a> <a href="http://o.org/">out</a> <a href="img.png">i</a>'
    renamed = renamed_links(html, "en/p0.html", "en/9f8e/index.html", slugs)
    assert renamed == (
        '<a href="../1a2b/#x">next</a> <a href="http://o.org/">out</a> <a href="img.png">i</a>'
    )


def test_a_toggle_site_has_two_languages_at_slugs_each_page_toggling_to_its_translation(
    tmp_path,
):
    site, served = _site(tmp_path / "src", pages=3)
    published = PublishedSite.from_dict(
        {**SITE, "publish": "toggle_only", "tag": "ds", "toggle_lang": "fr"}
    )
    slugs = publish_toggle(published, served, tmp_path / "out")
    assert set(slugs) == {f"{lang}/p{i}.html" for lang in ("en", "fr") for i in range(3)}
    english = (tmp_path / "out" / slugs["en/p1.html"]).read_text()
    french_dir = slugs["fr/p1.html"].removesuffix("index.html")
    assert f"lang-href='../../{french_dir}'" in english
    assert "<a " not in english and "<ds-link" in english  # every link a component
    home = (tmp_path / "out" / "index.html").read_text()
    assert f"lang-href='{slugs['fr/p0.html'].removesuffix('index.html')}'" in home
