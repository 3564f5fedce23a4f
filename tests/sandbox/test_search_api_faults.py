"""The sandbox API's fault mode: which calls go wrong, and how (no sockets; the crawls against
it are in tests/search/test_search_faults.py)."""

from __future__ import annotations

import json

import pytest

from bilingual_spider.sandbox.search_api_faults import CUT, FAULT_MODES, HANG, HUGE_BYTES, ApiFaults


def test_each_mode_answers_its_fault() -> None:
    answers = {mode: ApiFaults(mode).answer("moz") for mode in FAULT_MODES}
    assert all(answer is not None for answer in answers.values())
    assert answers["hang"].transport == HANG and answers["cut"].transport == CUT
    assert answers["html"].status == 200 and answers["html"].body.startswith(b"<!DOCTYPE html>")
    assert answers["huge"].status == 200 and len(answers["huge"].body) > HUGE_BYTES
    assert answers["401"].status == 401 and json.loads(answers["401"].body)["error"]
    for status in ("429", "503"):
        assert answers[status].status == int(status)
        assert answers[status].headers["Retry-After"] == "1"


def test_share_families_and_a_number_of_calls() -> None:
    faults = ApiFaults("html", rate=0.25, families=["moz"], seed=3)
    spoiled = sum(faults.answer("moz") is not None for _ in range(4000))
    assert 800 <= spoiled <= 1200  # a quarter, drawn with a seeded RNG
    assert all(faults.answer("brave") is None for _ in range(100))  # another family
    faults.set("503", families=["moz"], calls=3)
    assert [faults.answer("moz") is not None for _ in range(5)] == [True] * 3 + [False] * 2
    faults.set("")
    assert faults.answer("moz") is None
    with pytest.raises(ValueError):
        faults.set("teapot")
    with pytest.raises(ValueError):
        faults.set("html", rate=1.5)
