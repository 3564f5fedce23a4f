"""Rules the test suite keeps so that it passes on a busy machine: no test judges how fast the
machine is. Checked by reading the tests' own source (``ast``)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"monotonic", "perf_counter", "time", "process_time", "monotonic_ns", "perf_counter_ns"}
TIME_NAMES = {"elapsed", "took", "duration", "seconds_taken"}
UPPER = (ast.Lt, ast.LtE)
LOWER = (ast.Gt, ast.GtE)


def reads_a_clock(node: ast.AST) -> bool:
    """The expression calls ``time.monotonic()`` (or another clock), or names an elapsed time."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute):
            owner = child.func.value
            if child.func.attr in CLOCKS and isinstance(owner, ast.Name) and owner.id == "time":
                return True
        if isinstance(child, ast.Name) and (child.id in TIME_NAMES or child.id.endswith("_time")):
            return True
    return False


def upper_bounds_on_time(tree: ast.AST) -> list[int]:
    """Lines of ``assert`` statements that bound a measured time from above (``elapsed < 2``,
    ``3 > time.monotonic() - started``); lower bounds (``elapsed >= 3``) are fine: a busy
    machine only makes things slower."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for compare in (n for n in ast.walk(node.test) if isinstance(n, ast.Compare)):
            operands = [compare.left, *compare.comparators]
            for i, op in enumerate(compare.ops):
                left, right = operands[i], operands[i + 1]
                if (isinstance(op, UPPER) and reads_a_clock(left)) or (
                    isinstance(op, LOWER) and reads_a_clock(right)
                ):
                    lines.append(node.lineno)
    return lines


def test_the_rule_finds_upper_bounds_and_leaves_lower_bounds_alone() -> None:
    source = (
        "assert time.monotonic() - started < 2.0\n"
        "assert 0.3 <= elapsed < 2.0\n"
        "assert 5 > time.perf_counter() - t\n"
        "assert large_time < 12 * small_time\n"
        "assert elapsed >= 3.0\n"
        "assert time.monotonic() < deadline and ok\n"  # a limit on a wait loop: see below
        "assert count < 3\n"
    )
    assert upper_bounds_on_time(ast.parse(source)) == [1, 2, 3, 4, 6]


def test_no_test_bounds_elapsed_wall_clock_time_from_above() -> None:
    """A wait loop that fails past a deadline is written with ``tests.waiting`` (its limit is
    only for a hang), not with an assert on the clock."""
    found = {
        f"{path.relative_to(TESTS)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != Path(__file__).name
        for line in upper_bounds_on_time(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert not found, f"upper bounds on elapsed time: {sorted(found)}"


def test_no_hypothesis_example_is_judged_by_its_time() -> None:
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    for path in sorted(TESTS.rglob("*.py")):
        if path.name == Path(__file__).name:
            continue
        assert "deadline=" not in path.read_text(encoding="utf-8").replace("deadline=None", ""), (
            f"{path.relative_to(TESTS)} sets a hypothesis deadline"
        )
