"""The real detector (the shipped Link Predictor, language identification, the language-hint
and chooser rules) on sites whose entry page is a language chooser of each style real sites
use, and on two sites that must stay monolingual: an English-only site with a "Language:
English" menu, and a chooser whose "French" pages are English."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer, run_spider
from tests.spiders.pages import ENGLISH, SPANISH
from tests.waiting import CRAWL_SECONDS

FRENCH = (
    "Le musée ouvre tous les jours de neuf heures du matin à six heures du soir. Les visites "
    "guidées de la vieille ville partent de la place principale à dix heures et durent environ "
    "deux heures. Les billets s'achètent à l'entrée ou se réservent en ligne une semaine à "
    "l'avance."
)
GERMAN = (
    "Das Museum ist jeden Tag von neun Uhr morgens bis sechs Uhr abends geöffnet. Führungen "
    "durch die Altstadt beginnen um zehn Uhr auf dem Hauptplatz und dauern etwa zwei Stunden. "
    "Eintrittskarten gibt es an der Kasse oder eine Woche im Voraus online."
)
TEXTS = {"en": ENGLISH, "fr": FRENCH, "de": GERMAN, "es": SPANISH}
NAMES = {  # code: (native name, English name, flag file)
    "en": ("English", "English", "gb"),
    "fr": ("Français", "French", "fr"),
    "de": ("Deutsch", "German", "de"),
    "es": ("Español", "Spanish", "es"),
}


def document(body: str, head: str = "", lang: str = "") -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    return (
        f'<!DOCTYPE html><html{lang_attr}><head><meta charset="utf-8"><title>Museum</title>'
        f"{head}</head><body>{body}</body></html>"
    )


def links(langs: list[str], label: Callable[[str], str], sep: str = " | ") -> str:
    return sep.join(f'<a href="/{code}/index.html">{label(code)}</a>' for code in langs)


CHOOSERS: dict[str, Callable[[list[str]], str]] = {
    "native names": lambda langs: document(links(langs, lambda c: NAMES[c][0])),
    "English names": lambda langs: document(links(langs, lambda c: NAMES[c][1])),
    "codes": lambda langs: document(links(langs, lambda c: c.upper(), " ")),
    "flags": lambda langs: document(
        links(langs, lambda c: f'<img src="/images/flags/{NAMES[c][2]}.png" alt="">', " ")
    ),
    "hreflang": lambda langs: document(
        links(langs, lambda c: NAMES[c][0]),
        "".join(f'<link rel="alternate" hreflang="{c}" href="/{c}/index.html">' for c in langs),
    ),
    "select menu": lambda langs: document(
        '<form><select onchange="location = this.value"><option value="">Language</option>'
        + "".join(f'<option value="/{c}/index.html">{NAMES[c][0]}</option>' for c in langs)
        + "</select></form>"
    ),
    "header switcher": lambda langs: document(
        f'<div id="header">{links(langs, lambda c: NAMES[c][0])}</div>'
        "<h1>Welcome</h1><p>Choose the language of the guide.</p>"
    ),
    "Other languages footer": lambda langs: document(
        "<h1>Museum</h1><p>Welcome.</p>"
        f'<div id="footer">Other languages: {links(langs, lambda c: NAMES[c][0], ", ")}</div>'
    ),
}


def language_page(code: str, langs: list[str], text: str | None = None) -> str:
    switcher = links([c for c in langs if c != code], lambda c: NAMES[c][0])
    return document(f"<div>{switcher}</div><h1>Museum</h1><p>{text or TEXTS[code]}</p>", lang=code)


def site_files(langs: list[str], chooser: str, fake: tuple[str, ...] = ()) -> dict[str, str]:
    files = {"index.html": CHOOSERS[chooser](langs)}
    for code in langs:
        files[f"{code}/index.html"] = language_page(code, langs, ENGLISH if code in fake else None)
    return files


LANGUAGE_SETS = (["en", "fr"], ["de", "en", "es"])
SITES: dict[str, tuple[bool, dict[str, str]]] = {}  # host: (bilingual, files)
for number, style in enumerate(CHOOSERS):
    for i, langs in enumerate(LANGUAGE_SETS):
        SITES[f"style{number}-{i}.example"] = (True, site_files(langs, style))
SITES["english-only.example"] = (  # an English site whose language menu names English alone
    False,
    {
        "index.html": document(
            '<div id="header">Language: <select onchange="location = this.value">'
            '<option value="/en/index.html">English</option></select></div>'
            f"<h1>Museum</h1><p>{ENGLISH}</p>",
            lang="en",
        ),
        "en/index.html": language_page("en", ["en"]),
    },
)
SITES["fake-french.example"] = (False, site_files(["en", "fr"], "native names", ("fr",)))


@pytest.fixture(scope="module")
def chooser_web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    root = tmp_path_factory.mktemp("choosers")
    mounts = []
    for host, (_, files) in SITES.items():
        for path, html in files.items():
            target = root / host / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
        mounts.append(f'[[mount]]\nhost = "{host}"\ndirs = ["{root / host}"]\n')
    config = root / "sandbox.toml"
    config.write_text("seed = 3\n" + "\n".join(mounts))
    with SandboxServer(["--config", str(config)]) as server:
        yield server


def test_choosers_of_every_style_are_bilingual_within_two_and_a_half_pages(
    chooser_web: SandboxServer, tmp_path: Path
) -> None:
    output = tmp_path / "verdicts.jsonl"
    result = run_spider(
        "detect",
        settings={
            "BILINGUAL_SANDBOX_PROXY": chooser_web.proxy_url,
            "DOWNLOAD_DELAY": 0,
            "CONCURRENT_REQUESTS": 32,
        },
        arguments={"seeds": ",".join(f"http://{host}/" for host in SITES)},
        output=output,
        timeout=CRAWL_SECONDS,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    verdicts = {v["site"]: v for v in map(json.loads, output.read_text().splitlines())}
    assert set(verdicts) == set(SITES)
    for host, (bilingual, _) in SITES.items():
        assert verdicts[host]["bilingual"] == bilingual, (host, verdicts[host]["reason"])
    for number, style in enumerate(CHOOSERS):
        pages = [verdicts[f"style{number}-{i}.example"]["pages_downloaded"] for i in range(2)]
        assert sum(pages) / len(pages) <= 2.5, (style, pages)
    assert "English" not in verdicts["fake-french.example"]["languages"]
    assert verdicts["fake-french.example"]["languages"] == ["en"]
