"""A bounded fuzz of every function that reads untrusted input (issue 32): page bytes and
headers, charsets, URLs and URL lists, seed arguments and files, link contexts, language-ID
input, search API answers. Each target (``tests/fuzz/targets.py``) must hold its contract on any
input; hypothesis shrinks a failure to a small example. ``benchmarks/fuzz.py`` runs the same
targets on 100,000 random inputs each.

``FUZZ_EXAMPLES`` (environment) sets the examples per target (default 300: the whole suite
then adds about a minute to CI).
"""

from __future__ import annotations

import logging
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.targets import TARGETS, Target

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))


@pytest.fixture(autouse=True)
def quiet() -> Any:
    """A malformed URL or a bad seed is logged, once per input: not what is tested here."""
    logging.disable(logging.WARNING)
    yield
    logging.disable(logging.NOTSET)


@pytest.mark.parametrize("target", TARGETS, ids=lambda target: target.name)
def test_any_input_holds_the_contract(target: Target) -> None:
    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def run(data: st.DataObject) -> None:
        target.check(data.draw(target.strategy, label="input"))

    run()


def test_the_targets_cover_every_kind_of_untrusted_input() -> None:
    names = {target.name for target in TARGETS}
    for kind in ("choose_encoding", "response_text", "charset_name", "url_units", "url_list"):
        assert kind in names
    for kind in ("seed_argument", "seed_file", "link_contexts", "language_id", "page_language"):
        assert kind in names
    assert sum(name.startswith("answer_") for name in names) == 6
