"""A search or backlink API that hangs, answers garbage, refuses its key or throttles for ever:
real crawls (``search_spider.py``) against the sandbox API in fault mode
(:mod:`bilingual_spider.sandbox.search_api_faults`), one endpoint family at a time. Every query
is answered (with an error naming the query and why), the calls spent follow the failure's kind,
the adapter goes down and comes back, and the crawl ends by itself."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bilingual_spider.sandbox.process import SandboxServer
from tests.sandbox.test_search_api import small_engine
from tests.search.test_adapter_crawls import (
    api_config,
    api_statuses,
    by_label,
    crawl,
    delta,
    query,
)

FAST = {  # short pauses, so that a test takes seconds
    "BILINGUAL_SEARCH_TIMEOUT": 1.0,
    "BILINGUAL_SEARCH_BACKOFF": 0.1,
    "BILINGUAL_SEARCH_LATER_DELAY": 0.2,
    "BILINGUAL_SEARCH_LATER_ROUNDS": 1,
    "BILINGUAL_SEARCH_BREAKER_PAUSE": 0.5,
    "BILINGUAL_SEARCH_GIVE_UP_AFTER": 3.0,
}
TARGETS = [f"http://www.linker{i}.org/" for i in range(6)]


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxServer]:
    """The API of the small engine; each test sets its fault mode (and turns it off after)."""
    engine = small_engine(tmp_path_factory.mktemp("fault-engine"))
    config = api_config(tmp_path_factory.mktemp("fault-api"), engine)
    with SandboxServer(["--config", str(config)]) as server:
        yield server


@pytest.fixture
def api(faulty: SandboxServer) -> Iterator[SandboxServer]:
    yield faulty
    faulty.set_api_fault("")


def backlink_rounds(targets: list[str] = TARGETS) -> list[list[dict]]:
    return [[query("backlinks", t, "page", t, max_pages=1) for t in targets]]


@pytest.mark.parametrize("mode", ["html", "huge", "cut", "hang"])
def test_moz_every_call_bad_every_query_answered_with_its_reason(
    api: SandboxServer, tmp_path: Path, mode: str
) -> None:
    api.set_api_fault(mode, families=["moz"])
    before = sum(api_statuses(api).values())
    answers, stats, log = crawl(
        api, tmp_path, backlink_rounds(), BILINGUAL_SEARCH_BACKLINKS="moz", **FAST
    )
    assert sorted(a["label"] for a in answers) == TARGETS  # nothing lost, nothing held for ever
    assert all(a["links"] == [] and a["error"] for a in answers)
    assert stats["search/moz/down"] >= 1  # the breaker took it down ...
    assert stats["search/moz/unanswered"] >= 1  # ... and the crawl gave its queries up
    calls = stats["search/moz/requests"]
    if mode in ("html", "huge"):  # unreadable: asked once more, never again
        assert stats.get("search/moz/retried", 0) <= len(TARGETS)
    assert calls <= 5 + 2 * len(TARGETS)  # 5 in a row took it down; probes after that
    if mode != "hang":
        assert sum(api_statuses(api).values()) - before == calls  # the server saw them all
    # every failure names the query and why: the answer pages, and the log's messages
    assert all(readable(a["error"]) for a in answers)
    said = failure_messages(log)
    assert said["again in"] and len(said["is down"]) == stats["search/moz/down"]
    assert len(said["never answered"]) == 1


QUERY = r"moz: backlinks\(page\) '(?P<target>[^']+)'"
FAILURE_MESSAGES = {  # what the service says of a failed call, and whose failure it is
    "again in": rf"search call {QUERY}: (?P<reason>.+); again in [\d.]+ s$",
    "is down": rf"search API moz is down after \d+ failed calls in a row \(last: "
    rf"(?P<reason>.+), for {QUERY}\): its queries wait",
    "still down": rf"search API moz still down \(probe {QUERY}: (?P<reason>.+)\): next probe",
    "asked again": rf"search {QUERY} failed \((?P<reason>.+)\): asked again in",
    "given up": rf"search {QUERY} given up: (?P<reason>.+)$",
    "goes on without it": r"search API moz down for \d+ s \(last: (?P<reason>.+)\): the crawl "
    r"goes on without it",
    "never answered": r"search API moz: \d+ queries never answered \((?P<reason>.+)\)$",
}


def readable(reason: str) -> bool:
    """A reason that says something: not empty, no exception class with an empty message."""
    return bool(reason.strip()) and not re.search(r"Error: ?\)|: ?$", reason)


def failure_messages(log: str) -> dict[str, list[str]]:
    """The search service's messages of failure in ``log``, by kind (their reasons). Each names
    the query it failed for (one of TARGETS) or is the adapter's own (down, never answered),
    and carries a readable reason; a message of failure of another shape fails the test."""
    said: dict[str, list[str]] = {kind: [] for kind in FAILURE_MESSAGES}
    for line in log.splitlines():
        if "[bilingual_spider.search.service]" not in line:
            continue
        message = line.split("] ", 1)[1].split(": ", 1)[1]
        kinds = [k for k, r in FAILURE_MESSAGES.items() if re.search(r, message)]
        if not kinds:
            assert not re.search(r"fail|down|given up|refused|error", message), message
            continue
        found = re.search(FAILURE_MESSAGES[kinds[0]], message)
        assert found is not None and readable(found["reason"]), message
        assert found.groupdict().get("target") in (None, *TARGETS), message
        said[kinds[0]].append(found["reason"])
    return said


def test_moz_key_refused_stops_the_adapter_at_once(api: SandboxServer, tmp_path: Path) -> None:
    api.set_api_fault("401", families=["moz"])
    before = api_statuses(api)
    answers, stats, log = crawl(
        api, tmp_path, backlink_rounds(), BILINGUAL_SEARCH_BACKLINKS="moz", **FAST
    )
    assert sorted(a["label"] for a in answers) == TARGETS
    assert all("refused its key" in a["error"] or "HTTP 401" in a["error"] for a in answers)
    seen = delta(before, api_statuses(api))
    assert seen == {401: stats["search/moz/requests"]}
    assert seen[401] <= 2  # two calls out at once; none after the first refusal came back
    assert stats["search/moz/key_refused"] == 1 and "search/moz/retried" not in stats
    assert log.count("refused its key") >= 1 and log.count("] ERROR:") == 1


def test_brave_huge_answers_are_asked_once_more_then_given_up(
    api: SandboxServer, tmp_path: Path
) -> None:
    """A 9 MB answer is over the download limit: cancelled, asked once more, given up."""
    api.set_api_fault("huge", families=["brave"])
    words = ("hotel", "guide")
    rounds = [[query("search", w, label=w, max_pages=1) for w in words]]
    answers, stats, _ = crawl(
        api, tmp_path, rounds, **{**FAST, "BILINGUAL_SEARCH_BREAKER_FAILURES": 10}
    )
    assert sorted(a["label"] for a in answers) == sorted(words)
    assert all("DownloadCancelledError" in a["error"] for a in answers)
    assert stats["search/brave/requests"] == 4  # each query: one call, and one more
    assert stats["search/brave/gave_up"] == 2 and "search/brave/later" not in stats


def test_google_429_storm_takes_it_down_and_the_crawl_ends(
    api: SandboxServer, tmp_path: Path
) -> None:
    api.set_api_fault("429", families=["google"])
    words = ("hotel", "guide", "directory", "linker")
    rounds = [[query("search", w, label=w, max_pages=1) for w in words]]
    answers, stats, _ = crawl(api, tmp_path, rounds, BILINGUAL_SEARCH_WEB="google_cse", **FAST)
    assert sorted(a["label"] for a in answers) == sorted(words)
    assert all(a["error"] for a in answers)
    assert stats["search/google_cse/down"] >= 1 and stats["search/google_cse/throttled"] >= 5
    assert stats["search/google_cse/unanswered"] >= 1


def test_cdx_a_third_of_bad_calls_answers_every_query_and_warns_once(
    api: SandboxServer, tmp_path: Path
) -> None:
    api.set_api_fault("html", rate=0.35, families=["cdx"])
    hosts = [f"www.linker{i}.org" for i in range(60)]
    rounds = [[query("url_index", h, "host", h, limit=5) for h in hosts]]
    answers, stats, log = crawl(
        api,
        tmp_path,
        rounds,
        BILINGUAL_CC_INDEX_COLLECTION="CC-MAIN-2024-33",
        BILINGUAL_SEARCH_ERROR_WINDOW=20,
        **FAST,
    )
    assert sorted(a["label"] for a in answers) == sorted(hosts)
    good = [a for a in answers if a["error"] is None]
    assert len(good) >= len(hosts) // 2  # an unreadable answer is asked once more
    assert all(a["links"] for a in good)
    assert stats["search/cc_index/retried"] >= 1
    warnings = stats["search/cc_index/error_rate_warnings"]  # one, unless the failures stopped
    assert warnings >= 1 and warnings == log.count("calls failed (commonest: unreadable answer")
    if warnings == 1:  # after it, a query given up is no news: an INFO
        after = log.split("calls failed (commonest: unreadable answer", 1)[1]
        assert "[bilingual_spider.search.service] WARNING" not in after


def test_moz_down_then_back(api: SandboxServer, tmp_path: Path) -> None:
    """The API answers 503 to its first 7 calls, then recovers: 5 in a row take the adapter
    down, and a probe (not the calls already out) brings it back; every query is answered."""
    api.set_api_fault("503", families=["moz"], calls=7)
    before = api_statuses(api)
    answers, stats, _ = crawl(
        api,
        tmp_path,
        backlink_rounds(),
        BILINGUAL_SEARCH_BACKLINKS="moz",
        **{**FAST, "BILINGUAL_SEARCH_GIVE_UP_AFTER": 600.0, "BILINGUAL_SEARCH_RETRY_TIMES": 10},
    )
    assert sorted(a["label"] for a in answers) == TARGETS
    assert all(a["error"] is None for a in answers)
    assert by_label(answers, TARGETS[0])[0]["links"]  # linker0 has backlinks in the engine
    assert delta(before, api_statuses(api)) == {503: 7, 200: len(TARGETS)}
    assert stats["search/moz/down"] == 1 and stats["search/moz/back"] == 1
    assert 1 <= stats["search/moz/probes"] <= 2  # 5 in a row, one more already out, probes


@pytest.mark.parametrize(
    ("adapter", "family", "mode", "rounds"),
    [
        ("cc_hostgraph", "hostgraph", "hang",
         [[query("backlinks", "www.target.com", "host", "target", adapter="cc_hostgraph")]]),
        ("cc_columnar", "columnar", "503",
         [[query("url_index", "target.com", "domain", "target", adapter="cc_columnar")]]),
    ],
)  # fmt: skip
def test_an_adapter_that_cannot_get_ready_holds_its_queries_no_longer_than_give_up_after(
    api: SandboxServer, tmp_path: Path, adapter: str, family: str, mode: str, rounds: list
) -> None:
    """The host graph's files hang, the columnar index's footers answer 503: its first attempt
    to get ready fails and the next is 10 minutes away; the crawl does not wait for it, and
    answers its queries with why once the adapter has not been ready for GIVE_UP_AFTER."""
    api.set_api_fault(mode, families=[family])
    answers, stats, log = crawl(
        api,
        tmp_path,
        rounds,
        **{**FAST, "BILINGUAL_SEARCH_LATER_DELAY": 600.0, "BILINGUAL_SEARCH_GIVE_UP_AFTER": 2.0},
        DOWNLOAD_TIMEOUT=1,
    )
    (page,) = answers
    assert page["links"] == [] and page["error"].startswith(f"{adapter} not ready for ")
    assert readable(page["error"].split("(", 1)[1])
    assert stats[f"search/{adapter}/unanswered"] == 1  # the query was not held for it ...
    # ... whether its first attempt had ended (its next one 600 s away) or was still under way
    assert stats.get(f"search/{adapter}/later", 0) == log.count(f"search adapter {adapter} not ")


def test_a_query_held_for_a_later_round_does_not_hold_an_idle_crawl(
    api: SandboxServer, tmp_path: Path
) -> None:
    """Moz answers 503 to its first 4 calls, all for one query, which is then held for a later
    round an hour away; the API is up (5 in a row would take it down), and the crawl has nothing
    else to do: the query is asked again within the breaker's pause, and answered."""
    api.set_api_fault("503", families=["moz"], calls=4)
    before = api_statuses(api)
    answers, stats, log = crawl(
        api,
        tmp_path,
        backlink_rounds(TARGETS[:1]),
        BILINGUAL_SEARCH_BACKLINKS="moz",
        **{**FAST, "BILINGUAL_SEARCH_LATER_DELAY": 3600.0, "BILINGUAL_SEARCH_GIVE_UP_AFTER": 600},
    )
    (page,) = answers
    assert page["error"] is None and page["links"]  # linker0 has backlinks in the engine
    assert delta(before, api_statuses(api)) == {503: 4, 200: 1}
    assert stats["search/moz/later"] == 1 and stats["search/moz/asked_early"] == 1
    assert "search/moz/down" not in stats
    # the API's health is said once, at the close (no WARNING said it down or failing often)
    warnings = re.findall(r"\[bilingual_spider\.search\.service\] WARNING: (.*)", log)
    assert warnings == [
        "search API moz: 1 queries failed for good or for a round (commonest reason of its "
        "last calls: HTTP 503; last: HTTP 503)"
    ]
