"""Defaults live in one place: ``settings.py``. No component reads a setting that ``settings.py``
holds with a fallback of its own (``settings.getint("BILINGUAL_X", 5)``): the fallback would be a
second default, free to drift from the first (issue 34)."""

from __future__ import annotations

import ast
from pathlib import Path

from scrapy.settings import Settings

from bilingual_spider import settings as project_settings
from bilingual_spider.distributed.partitions import redis_key_prefix

PACKAGE = Path(project_settings.__file__).parent
GETTERS = {"get", "getint", "getfloat", "getbool", "getlist", "getdict", "getwithbase"}
HELD = {name for name in dir(project_settings) if name.isupper()}


def repeated_defaults(source: str) -> list[tuple[int, str]]:
    """(line, setting) of every ``<...settings...>.get*("NAME", fallback)`` whose NAME
    ``settings.py`` holds."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in GETTERS or len(node.args) + len(node.keywords) < 2:
            continue
        if "settings" not in ast.unparse(node.func.value).lower():
            continue
        name = node.args[0] if node.args else None
        if isinstance(name, ast.Constant) and name.value in HELD:
            found.append((node.lineno, name.value))
    return found


def settings_read(node: ast.AST) -> str | None:
    """The setting ``<...settings...>.get*("NAME")`` reads, possibly inside ``int(...)``,
    ``str(...)`` or ``float(...)``."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        if node.func.id not in {"int", "str", "float", "bool"}:
            return None
        node = node.args[0]
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr not in GETTERS or "settings" not in ast.unparse(node.func.value).lower():
        return None
    name = node.args[0] if node.args else None
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


def defaults_behind_or(source: str) -> list[tuple[int, str]]:
    """(line, setting) of every ``settings.get("NAME") or fallback`` whose NAME ``settings.py``
    holds with a value of its own (not None, not empty): the fallback is a second default."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            name = settings_read(node.values[0])
            if name in HELD and name.startswith("BILINGUAL_") and getattr(project_settings, name):
                found.append((node.lineno, name))
    return found


def unheld_settings(source: str) -> list[tuple[int, str]]:
    """(line, setting) of every ``BILINGUAL_*`` setting read that ``settings.py`` does not hold."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = settings_read(node) if isinstance(node, ast.Call) else None
        if name and name.startswith("BILINGUAL_") and name not in HELD:
            found.append((node.lineno, name))
    return found


def test_the_check_finds_a_repeated_default():
    source = (
        'x = crawler.settings.getint("BILINGUAL_BACKFORTH_SEED", 0)\ny = settings.get("ELSE", 1)'
    )
    assert repeated_defaults(source) == [(1, "BILINGUAL_BACKFORTH_SEED")]
    source = (
        'a = str(settings.get("BILINGUAL_FOCUS_YIELD") or "none")\n'
        'b = settings.get("BILINGUAL_DOCS_PATH") or spider.docs\n'  # None in settings.py
        'c = int(self.settings.get("BILINGUAL_NO_SUCH_THING") or 3)\n'
    )
    assert defaults_behind_or(source) == [(1, "BILINGUAL_FOCUS_YIELD")]
    assert unheld_settings(source) == [(3, "BILINGUAL_NO_SUCH_THING")]


def test_no_component_repeats_a_default_of_settings_py():
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line} {name}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != Path(project_settings.__file__)
        for check in (repeated_defaults, defaults_behind_or, unheld_settings)
        for line, name in check(path.read_text(encoding="utf-8"))
        if (path.name, name) != ("partitions.py", "BILINGUAL_REDIS_KEY_PREFIX")  # the one helper
    ]
    assert offenders == []


def test_the_redis_key_prefix_has_one_default():
    assert redis_key_prefix(Settings()) == project_settings.BILINGUAL_REDIS_KEY_PREFIX
    assert redis_key_prefix(Settings({"BILINGUAL_REDIS_KEY_PREFIX": "t1"})) == "t1"
    sources = [p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py")]
    written = f'"{project_settings.BILINGUAL_REDIS_KEY_PREFIX}"'
    assert sum(s.count(f"BILINGUAL_REDIS_KEY_PREFIX = {written}") for s in sources) == 1
    assert not any(f"or {written}" in s or f"or '{written[1:-1]}'" in s for s in sources)
