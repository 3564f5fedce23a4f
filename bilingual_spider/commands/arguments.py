"""What a user typed on ``scrapy crawl``'s command line, checked before a crawl starts: the value
of each ``-s NAME=VALUE`` against the type of its default, the name of each ``-a NAME=VALUE``
against the spider's arguments. Each problem is one line that names what was wrong and what is
accepted. No Scrapy in here: the command (:mod:`.crawl`) hands over plain values.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from bilingual_spider.output.feed_recovery import local_jsonl_path

TRUE_FALSE = ("1", "0", "true", "false", "True", "False")
"""What Scrapy's ``Settings.getbool`` reads as a boolean."""
OUR_PREFIX = "BILINGUAL_"
NONE = ("None", "none", "")
"""Values that say "no value" to a number setting (``-s BILINGUAL_DETECTOR_MAX_PROBES=None``)."""


def value_problem(name: str, value: str, default: Any, annotation: Any = None) -> str | None:
    """Why ``-s name=value`` cannot be read as the setting's type (that of its ``default``, or of
    its annotation when the default is None), or None when it can."""
    kind = _kind(default, annotation)
    if kind in (int, float) and value in NONE:
        return None  # "none of it" (no limit, the default): the setting's reader decides
    if kind is bool and value not in TRUE_FALSE:
        return f"-s {name}={value}: not true or false (give one of {', '.join(TRUE_FALSE)})"
    if kind is int:
        try:
            int(value)
        except ValueError:
            return f"-s {name}={value}: not a whole number"
    if kind is float:
        try:
            float(value)
        except ValueError:
            return f"-s {name}={value}: not a number"
    return None


def _kind(default: Any, annotation: Any) -> type | None:
    if isinstance(default, bool):
        return bool
    if isinstance(default, int):
        return int
    if isinstance(default, float):
        return float
    if default is None and annotation is not None:
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
        for kind in (bool, int, float):  # "int | None", "float | None", ...
            if text.split("|")[0].strip() == kind.__name__:
                return kind
    return None


def setting_problems(
    given: Mapping[str, str],
    defaults: Mapping[str, Any],
    annotations: Mapping[str, Any] | None = None,
) -> list[str]:
    """A line for each ``-s`` value that its setting cannot take, and for each ``BILINGUAL_*``
    name that no setting has (a typo would otherwise be ignored)."""
    annotations = annotations or {}
    problems = []
    for name, value in given.items():
        if name not in defaults:
            if name.startswith(OUR_PREFIX):
                problems.append(f"-s {name}: no such setting{_close(name, defaults)}")
            continue
        problem = value_problem(name, value, defaults[name], annotations.get(name))
        if problem:
            problems.append(problem)
    return problems


def setting_warnings(given: Mapping[str, str], defaults: Mapping[str, Any]) -> list[str]:
    """A line for each ``-s`` name, not ours, that no setting has but one is like (``REDIS_ULR``:
    "did you mean REDIS_URL?"): a warning, not a refusal, as another add-on may read it."""
    warnings = []
    for name in given:
        if name in defaults or name.startswith(OUR_PREFIX):
            continue
        close = _close(name, defaults)
        if close:
            warnings.append(f"-s {name}: no such setting of Scrapy or the project{close}")
    return warnings


ONE_TYPE_FORMATS = ("csv",)
"""Feed formats with one header for every line: one item type a file."""


def feed_problems(option: str, feeds: Iterable[str], spider: str, types: list[str]) -> list[str]:
    """A line for each ``-o``/``-O`` feed in a format of one header (CSV) when the spider makes
    items of several types (their fields differ: one header cannot hold them)."""
    if len(types) < 2:
        return []
    problems = []
    for feed in feeds:
        path, _, named = feed.rpartition(":") if ":" in feed.split("/")[-1] else (feed, "", "")
        kind = named or path.rpartition(".")[2]
        if kind.lower() in ONE_TYPE_FORMATS:
            problems.append(
                f"{option} {feed}: {spider} makes {len(types)} item types ({', '.join(types)}), "
                f"which one {kind.upper()} header cannot hold; give -a out=DIR (a file per type) "
                "or a .jsonl feed"
            )
    return problems


def resumed_feed_problems(
    feeds: Mapping[str, Mapping[str, Any]], resumed_by: str
) -> tuple[list[str], list[str]]:
    """The feeds a crawl resumed after a kill (``resumed_by``: ``JOBDIR``, a named Redis worker)
    cannot read back, because they are not local JSON lines: a refusal for each one its start
    overwrites (``-O``: the resumed run would erase what the killed run wrote), a warning for
    each one it appends to (``-o``: what was in flight may be written twice there, and a line
    cut by the kill stays)."""
    refused, warned = [], []
    for uri, options in feeds.items():
        if local_jsonl_path(uri, options) is not None:
            continue
        if options.get("overwrite"):
            refused.append(
                f"-O {uri}: a crawl resumed after a kill ({resumed_by}) reads its output back and "
                "appends to it, which it can do for local JSON lines only: this feed would be "
                "overwritten by the run after a kill; give a .jsonl file, or -a out=DIR"
            )
        else:
            warned.append(
                f"{uri}: not local JSON lines, so a crawl resumed after a kill ({resumed_by}) "
                "cannot read it back: what the kill left in flight may be written there twice"
            )
    return refused, warned


EXTENSION_ARGUMENTS = ("out", "warc", "docs")
"""``-a`` arguments every spider takes, read from it by an add-on or an extension: ``out=DIR``
(the run directory, ``output/run_directory.py``), ``warc=DIR`` (WARC files,
``extensions/warc.py``), ``docs=FILE`` (document pairs, ``extensions/documents.py``)."""


def spider_arguments(spidercls: type) -> list[str]:
    """The ``-a`` arguments a spider class takes: the named parameters of its ``__init__`` and
    of its bases' up to Scrapy's ``Spider``, then :data:`EXTENSION_ARGUMENTS`."""
    names: list[str] = []
    for klass in spidercls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass.__module__.startswith("scrapy"):
            continue
        for parameter in list(inspect.signature(init).parameters.values())[1:]:
            named = parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
            if named and parameter.name not in names:
                names.append(parameter.name)
    return names + [name for name in EXTENSION_ARGUMENTS if name not in names]


def argument_problems(spider: str, given: Iterable[str], known: list[str]) -> list[str]:
    """A line for each ``-a`` name the spider does not take, with the names it takes."""
    accepted = ", ".join(known) or "none"
    return [
        f"-a {name}: {spider} takes no such argument{_close(name, known)} (it takes: {accepted})"
        for name in given
        if name not in known
    ]


def _close(name: str, names: Iterable[str]) -> str:
    """ "; did you mean X?" for the name most like ``name`` (the shared ``BILINGUAL_`` prefix is
    not a likeness), or ""."""
    prefix = OUR_PREFIX if name.startswith(OUR_PREFIX) else ""
    rest = {n[len(prefix) :]: n for n in names if n.startswith(prefix)}
    match = difflib.get_close_matches(name[len(prefix) :], list(rest), n=1, cutoff=0.75)
    return f"; did you mean {rest[match[0]]}?" if match else ""


def whole_number(name: str, value: str | int | None, minimum: int | None = None) -> int | None:
    """A spider argument that is a whole number (None when not given), or a ValueError that names
    the argument: ``-a budget=abc`` -> "budget='abc': not a whole number"."""
    if value is None or value == "":
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r}: not a whole number") from None
    if minimum is not None and number < minimum:
        raise ValueError(f"{name}={value!r}: at least {minimum}")
    return number


def number_between(name: str, value: str | float | None, low: float, high: float) -> float | None:
    """A spider argument that is a number in ``[low, high]`` (None when not given)."""
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r}: not a number") from None
    if not low <= number <= high:
        raise ValueError(f"{name}={value!r}: must be between {low:g} and {high:g}")
    return number
