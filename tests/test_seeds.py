from pathlib import Path

import pytest

from bilingual_spider.seeds import SeedError, normalize_seed, parse_seeds


def test_comma_list_normalised_and_deduplicated() -> None:
    assert parse_seeds("example.org, http://example.org/,https://b.example/x") == [
        "http://example.org/",
        "https://b.example/x",
    ]


def test_file_with_comments_and_blank_lines(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# my seeds\nhttp://a.example/\n\nb.example  # partner\n")
    assert parse_seeds(str(seeds)) == ["http://a.example/", "http://b.example/"]


def test_all_bad_lines_reported_with_numbers(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://ok.example/\nhttp://\nnot a url\nhttp://..bad/\n")
    with pytest.raises(SeedError) as error:
        parse_seeds(str(seeds))
    message = str(error.value)
    assert f"{seeds}:2" in message and f"{seeds}:3" in message and f"{seeds}:4" in message
    assert ":1:" not in message


def test_empty_seed_list_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(SeedError, match="no seeds"):
        parse_seeds(str(empty))


def test_other_schemes_are_left_to_the_safety_middleware() -> None:
    assert normalize_seed("ftp://ftp.example.org/pub") == "ftp://ftp.example.org/pub"
