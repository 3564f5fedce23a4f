"""Generate ``tld_table.py``: the languages of every country-code TLD, from CLDR.

    python -m bilingual_spider.language.build_tld_languages   # needs babel (a dev dependency)

Sources
-------
- The ccTLDs: every two-letter label of the ICANN section of the Public Suffix List snapshot that
  tldextract bundles (the PSL tracks the IANA root zone: 248 ccTLDs, .ac to .zw).
- Their languages: CLDR's territory-language data (``territoryInfo``: each language's share of the
  territory's population and its official status), as the babel package ships it.

The rule (:func:`territory_languages`): a ccTLD's languages are its territory's languages that are

1. official nationwide, de jure or de facto (any population share: ``pt`` in Macao, ``ga`` in
   Ireland), or
2. official in a region and spoken by at least ``REGIONAL_MIN_SHARE`` = 1 % of the population
   (``ca``, ``gl``, ``eu`` in Spain; ``cy`` in the UK; India's scheduled languages), or
3. spoken by at least ``MAJORITY_SHARE`` = 50 % of the population, whatever their status.

Languages are ordered by population share, largest first, and written in the project's codes
(:func:`~bilingual_spider.language.codes.normalize_language_code`), with the script CLDR's
likely-subtags data gives Chinese in that territory (``zh`` in CN and SG -> ``zh-Hans``) and the
regions the project keeps (``pt-BR``, ``en-GB``). CLDR counts second-language speakers, so the
majority rule gives ``en`` to most EU countries, and it names spoken varieties where they are the
majority (``yue`` in Hong Kong, ``gsw`` in Switzerland, ``arz`` in Egypt); both are kept as CLDR
says.

Decisions where CLDR has no answer, or the ccTLD is not used for its country
-----------------------------------------------------------------------------
- ``.uk`` and ``.gb``: the United Kingdom's languages (CLDR's territory is GB).
- ``.eu``: the 24 official languages of the European Union (Regulation No 1/1958 as amended).
  Registration is limited to residents of the EU/EEA, so a .eu host is European, and European
  sites are often in several of these languages: many, not none.
- ``.su``: ``ru``. The Soviet Union's ccTLD is still delegated and used by Russian-language sites.
- Generic use: ``.ad .ai .as .bz .cc .cd .co .dj .fm .io .la .me .ms .nu .sc .sr .tk .tv .ws``,
  the ccTLDs Google Search treats as generic (its list, less .su) because they are registered
  worldwide for their look (.io, .ai, .tv, .fm, .me, .co). They map to no language, like .com,
  except below one of their country's own second-level suffixes (``empresa.com.co``), which only
  their country uses: there the country's languages apply (see ``tld.languages_of_host``).
- Linguistic-community gTLDs, whose registry charter is a language community: ``.cat`` ca,
  ``.eus`` eu, ``.gal`` gl, ``.bzh`` br fr, ``.cymru`` and ``.wales`` cy en.
- Every other generic TLD (.com .org .net .info .biz, the new gTLDs) maps to no language, and so
  do the IDN ccTLDs (.рф, .中国), which the table leaves out: their script says more about a
  site's language than their country does.
"""

from __future__ import annotations

import pkgutil
import re
from collections.abc import Mapping
from pathlib import Path

from bilingual_spider.language.codes import normalize_language_code

OUTPUT = Path(__file__).with_name("tld_table.py")
REGIONAL_MIN_SHARE = 1.0
MAJORITY_SHARE = 50.0
OFFICIAL = {"official", "de_facto_official"}
TERRITORY_OF = {"uk": "GB"}
EU_LANGUAGES = (
    "bg cs da de el en es et fi fr ga hr hu it lt lv mt nl pl pt ro sk sl sv"  # Reg. 1/1958
)
SPECIAL = {"eu": EU_LANGUAGES, "su": "ru"}
GENERIC_USE = "ad ai as bz cc cd co dj fm io la me ms nu sc sr tk tv ws"
COMMUNITY = {
    "cat": "ca",
    "eus": "eu",
    "gal": "gl",
    "bzh": "br fr",
    "cymru": "cy en",
    "wales": "cy en",
}
_ICANN = re.compile(r"===BEGIN ICANN DOMAINS===(.*)===END ICANN DOMAINS===", re.DOTALL)


def country_code_tlds() -> list[str]:
    """The two-letter TLDs of the ICANN section of tldextract's bundled Public Suffix List."""
    data = pkgutil.get_data("tldextract", ".tld_set_snapshot")
    if data is None:
        raise RuntimeError("tldextract ships no .tld_set_snapshot")
    found = _ICANN.search(data.decode("utf-8"))
    if found is None:
        raise RuntimeError("no ICANN section in the Public Suffix List snapshot")
    tlds = set()
    for line in found.group(1).splitlines():
        rule = line.strip()
        if rule and not rule.startswith("//"):
            tlds.add(rule.lstrip("!*.").rsplit(".", 1)[-1])
    return sorted(t for t in tlds if len(t) == 2 and t.isascii() and t.isalpha())


def territory_languages(territory: str) -> list[str]:
    """The project codes of a CLDR territory's languages under the rule of the module docstring."""
    from babel.core import get_global

    info = get_global("territory_languages").get(territory, {})
    likely = get_global("likely_subtags")
    chosen = []
    for cldr_code, facts in sorted(info.items(), key=lambda kv: -kv[1]["population_percent"]):
        share, status = facts["population_percent"], facts["official_status"]
        if not (
            status in OFFICIAL
            or (status == "official_regional" and share >= REGIONAL_MIN_SHARE)
            or share >= MAJORITY_SHARE
        ):
            continue
        code = project_code(cldr_code, territory, likely)
        if code and code not in chosen:
            chosen.append(code)
    return chosen


def project_code(cldr_code: str, territory: str, likely: Mapping[str, str]) -> str | None:
    """``zh`` in SG -> ``zh-Hans``, ``pt`` in BR -> ``pt-BR``, ``sr_Latn`` -> ``sr``; None for
    ``und`` (no language: Antarctica)."""
    language = cldr_code.split("_")[0]
    if language == "und":
        return None
    if language == "zh" and "_" not in cldr_code:
        full = likely.get(f"zh_{territory}") or likely["zh"]
        cldr_code = "_".join(full.split("_")[:2])
    if language == "zh":
        return normalize_language_code(cldr_code)
    return normalize_language_code(f"{language}-{territory}")


def build() -> tuple[dict[str, str], dict[str, str]]:
    """(ccTLD -> space-separated languages, ccTLD -> territory name)."""
    from babel import Locale

    names = Locale("en").territories
    languages, comments = {}, {}
    for tld in country_code_tlds():
        territory = TERRITORY_OF.get(tld, tld.upper())
        languages[tld] = SPECIAL.get(tld) or " ".join(territory_languages(territory))
        comments[tld] = {"eu": "the EU", "su": "Soviet Union"}.get(tld) or names.get(
            territory, territory
        )
    return languages, comments


def render(languages: dict[str, str], comments: dict[str, str]) -> str:
    from babel.core import get_cldr_version

    lines = [
        '"""The languages of each country-code TLD: GENERATED by',
        "``python -m bilingual_spider.language.build_tld_languages``; do not edit.",
        "",
        f"Source: CLDR {get_cldr_version()} territory-language data (babel), the ccTLDs of the",
        "Public Suffix List snapshot bundled with tldextract. Rule and special cases: see",
        "build_tld_languages.py.",
        '"""',
        "",
        f"REGIONAL_MIN_SHARE = {REGIONAL_MIN_SHARE}",
        f"MAJORITY_SHARE = {MAJORITY_SHARE}",
        "",
        "# ccTLD -> its country's languages (project codes, most spoken first)",
        "CCTLD_LANGUAGES: dict[str, str] = {",
    ]
    for tld, codes in languages.items():
        entry = f'    "{tld}": "{codes}",'
        if len(entry) > 90:
            raise ValueError(f"{tld}: too many languages for one line: {codes}")
        lines.append(f"{entry}  # {comments[tld]}"[:100].rstrip())
    lines += [
        "}",
        "# ccTLDs registered worldwide for their look: no language, except below their country's",
        "# own second-level suffixes (com.co, gov.tv)",
        f'GENERIC_USE_CCTLDS = "{GENERIC_USE}"',
        "# gTLDs of a linguistic community",
        "COMMUNITY_TLD_LANGUAGES: dict[str, str] = {",
        *(f'    "{tld}": "{codes}",' for tld, codes in COMMUNITY.items()),
        "}",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    languages, comments = build()
    OUTPUT.write_text(render(languages, comments), encoding="utf-8")
    empty = sorted(t for t, codes in languages.items() if not codes)
    print(f"wrote {OUTPUT}: {len(languages)} ccTLDs; no language: {' '.join(empty) or 'none'}")


if __name__ == "__main__":
    main()
