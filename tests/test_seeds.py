import logging
import re
from pathlib import Path

import pytest

from bilingual_spider.seeds import SeedError, looks_like_a_file, normalize_seed, parse_seeds


def test_comma_list_normalised_and_deduplicated() -> None:
    assert parse_seeds("example.org, http://example.org/,https://b.example/x") == [
        "http://example.org/",
        "https://b.example/x",
    ]


def test_file_with_comments_and_blank_lines(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("# my seeds\nhttp://a.example/\n\nb.example  # partner\n")
    assert parse_seeds(str(seeds)) == ["http://a.example/", "http://b.example/"]


def test_only_bad_lines_is_an_error_that_says_so(tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://\nnot a url\n")
    with pytest.raises(SeedError, match="no seeds in .*2 bad line.*'not a url'"):
        parse_seeds(str(seeds))


def test_empty_seed_list_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(SeedError, match="no seeds"):
        parse_seeds(str(empty))


def test_other_schemes_are_left_to_the_safety_middleware() -> None:
    assert normalize_seed("ftp://ftp.example.org/pub") == "ftp://ftp.example.org/pub"


def test_a_long_comma_list_of_bare_host_names_is_a_list(monkeypatch) -> None:
    hosts = [f"site{i}.example.org" for i in range(40)]
    argument = ",".join(hosts)
    assert len(argument) > 255
    asked = []
    monkeypatch.setattr(Path, "is_file", lambda self: asked.append(self) or False)
    assert parse_seeds(argument) == [f"http://{host}/" for host in hosts]
    assert asked == []  # a comma list is no file name: the file system is not asked


@pytest.mark.parametrize("argument", ["a" * 300 + ".example.org", "x." * 2100 + "org/" + "y" * 300])
def test_a_string_too_long_for_a_file_name_is_a_seed_not_an_oserror(argument: str) -> None:
    assert parse_seeds(argument) == ["http://" + argument + ("/" if "/" not in argument else "")]


@pytest.mark.parametrize("argument", ["sites.txt", "seeds.csv", "./seeds", "data/seeds", "~/x.txt"])
def test_a_file_name_that_is_no_file_is_an_error_naming_it(tmp_path, monkeypatch, argument) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SeedError, match=f"seeds={re.escape(argument)}: no such file"):
        parse_seeds(argument)


def test_a_directory_is_no_seed_file(tmp_path) -> None:
    with pytest.raises(SeedError, match="a directory"):
        parse_seeds(str(tmp_path))


@pytest.mark.parametrize("argument", ["example.org", "example.org/fr/", "localhost/x", "a.example"])
def test_host_names_and_paths_on_hosts_are_seeds(tmp_path, monkeypatch, argument) -> None:
    monkeypatch.chdir(tmp_path)
    assert looks_like_a_file(argument) is False
    assert parse_seeds(argument) == [normalize_seed(argument)]


def test_a_bad_line_costs_that_line_with_a_warning_naming_it(tmp_path, caplog) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("http://ok.example/\nhttp://\nnot a url\nhttp://[::1/x\nb.example\n")
    with caplog.at_level(logging.WARNING, logger="bilingual_spider.seeds"):
        assert parse_seeds(str(seeds)) == ["http://ok.example/", "http://b.example/"]
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 3
    for number, text in ((2, "http://"), (3, "not a url"), (4, "http://[::1/x")):
        assert any(f"{seeds}:{number}: {text!r}" in w for w in warnings), warnings


def test_a_bad_entry_of_a_comma_list_costs_that_entry(caplog) -> None:
    assert parse_seeds("a.example,http://..bad/,b.example") == [
        "http://a.example/",
        "http://b.example/",
    ]
    assert "seeds argument:2: 'http://..bad/'" in caplog.text


def test_a_home_directory_that_does_not_exist_is_no_error_of_python() -> None:
    """Found by the fuzz suite: ``Path("~0").expanduser()`` raises RuntimeError."""
    assert parse_seeds("~0") == ["http://~0/"]  # no file: a host name (network safety judges it)
    with pytest.raises(SeedError, match="seeds=~no-such-user-here/seeds.txt: no such file"):
        parse_seeds("~no-such-user-here/seeds.txt")


@pytest.mark.parametrize("argument", ["~\ud800x/seeds.txt", "\ud800.txt", "a\udcff.example"])
def test_a_string_the_file_system_cannot_write_is_no_file_name(argument: str) -> None:
    """Found by benchmarks/fuzz.py: ``os.path.expanduser`` and ``stat`` raise
    UnicodeEncodeError on a lone surrogate the file system encoding does not take."""
    assert parse_seeds(argument) == [normalize_seed(argument)]  # a seed (the crawl judges it)


class CountedSeed(str):
    """A seed that counts how often it is compared (the cost of de-duplicating)."""

    comparisons = 0

    def __eq__(self, other: object) -> bool:
        CountedSeed.comparisons += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_seeds_are_deduplicated_in_linear_time(tmp_path, monkeypatch) -> None:
    """Issue 52: a list searched for each seed took 28.8 s for 40,000 lines (n^2/2 comparisons)."""
    import bilingual_spider.seeds as seeds_module

    normalize = seeds_module.normalize_seed
    monkeypatch.setattr(seeds_module, "normalize_seed", lambda text: CountedSeed(normalize(text)))
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("".join(f"site{i}.example\n" for i in range(2000)) + "site7.example\n")
    CountedSeed.comparisons = 0
    assert len(parse_seeds(str(seeds))) == 2000
    assert CountedSeed.comparisons <= 2 * 2001  # a list's search: about 2,000,000


def test_the_commands_check_reads_a_seed_file_up_to_its_first_good_seed(
    tmp_path, monkeypatch
) -> None:
    """Issue 52: the command read and checked the whole list, then the spider read it again."""
    import bilingual_spider.seeds as seeds_module

    read = []
    normalize = seeds_module.normalize_seed
    monkeypatch.setattr(
        seeds_module, "normalize_seed", lambda text: read.append(text) or normalize(text)
    )
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("not a url\n" + "".join(f"site{i}.example\n" for i in range(1000)))
    assert seeds_module.seeds_problem(str(seeds)) is None
    assert read == ["not a url", "site0.example"]
    seeds.write_text("not a url\nhttp://\n")
    assert "2 bad line(s)" in seeds_module.seeds_problem(str(seeds))


def test_a_long_seed_list_says_how_many_seeds_were_handed_out(caplog) -> None:
    from bilingual_spider.seeds import SEED_PROGRESS_EVERY, announced

    urls = [f"http://site{i}.example/" for i in range(2 * SEED_PROGRESS_EVERY + 1)]
    with caplog.at_level(logging.INFO, logger="bilingual_spider.seeds"):
        assert list(announced(urls)) == urls
    said = [r.getMessage() for r in caplog.records]
    assert said == [
        f"seeds: {SEED_PROGRESS_EVERY:,} of {len(urls):,} handed to the crawl",
        f"seeds: {2 * SEED_PROGRESS_EVERY:,} of {len(urls):,} handed to the crawl",
        f"seeds: all {len(urls):,} handed to the crawl",
    ]
