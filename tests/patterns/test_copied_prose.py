from bilingual_spider.patterns.copied_prose import (
    SourceProse,
    copied_prose_share,
    mutual_copied_share,
    words,
)

ENGLISH = [
    "4.2.1. Where to Find Installation Files",
    "Various installation files can be found on each Debian mirror in the directory "
    "debian/dists/bookworm/main/installer-amd64/current/images/ — the MANIFEST lists each image "
    "and its purpose.",
]
CHINESE = [  # the installation guide's zh_CN/ch04s02.html: translated, the path kept
    "4.2.1. 在哪里能找到安装文件",
    "各种安装文件可以在每个 Debian 镜像的 debian/dists/bookworm/main/installer-amd64/current/"
    "images/ 中找到；MANIFEST 文件列出了每一个映像及其用途。",
]


def test_each_character_of_a_script_without_spaces_is_a_word() -> None:
    assert words("8.2.1. Debian パッケージ") == [
        "8",
        "2",
        "1",
        "debian",
        "パ",
        "ッ",
        "ケ",
        "ー",
        "ジ",
    ]
    assert words("Hello, wörld_2") == ["hello", "wörld_2"]
    assert words("한국어 문서") == ["한국어", "문서"]  # Korean is written with spaces


def test_a_chinese_translation_that_keeps_a_path_is_not_copied() -> None:
    # With runs of letters as words the Chinese block had 14 words, 8 of whose 3-grams were the
    # path's: "copied"; with each character a word it is 50-odd 3-grams, 8 shared.
    source = SourceProse(ENGLISH)
    assert not any(source.copies(block) for block in CHINESE)
    assert copied_prose_share(CHINESE, source) == 0.0
    heading = "8.2.1. Debian パッケージングシステム"  # three words shared with the source
    assert not SourceProse(["8.2.1. The Debian Packaging System"]).copies(heading)


def test_an_untranslated_paragraph_with_a_translated_cross_reference_is_copied() -> None:
    english = (
        "The installer images are built for every architecture the release supports; see "
        "Section 4.1, Official Debian GNU/Linux Installation Images for where to get them."
    )
    kept = english.replace(
        "Official Debian GNU/Linux Installation Images", "„Oficiální instalační obrazy Debian“"
    )
    assert SourceProse([english]).copies(kept)
    assert SourceProse([english]).copies(english)  # verbatim


def test_the_pair_share_is_the_larger_of_the_two_pages() -> None:
    translated = "Les fichiers d'installation se trouvent sur chaque miroir de Debian, triés."
    half = [ENGLISH[1], translated]  # a translation left half in English
    share = mutual_copied_share(ENGLISH, half)
    assert share == max(copied_prose_share(half, ENGLISH), copied_prose_share(ENGLISH, half))
    assert 0.5 <= copied_prose_share(half, ENGLISH) < 1.0
    assert mutual_copied_share(ENGLISH, CHINESE) == 0.0
