"""Import every module of the installed bilingual_spider package; list those that fail.

Run by .ci/run from outside the source tree, with the Python of a fresh venv where the project
was installed by that venv's own pip (``pip install .``), as a new user installs it."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bilingual_spider

NEEDS_DEV_EXTRAS = {
    "bilingual_spider.language.build_language_names",
    "bilingual_spider.language.build_tld_languages",
}
"""Maintenance scripts that rebuild shipped tables with the dev extra's pinned babel."""


def main() -> int:
    failed, imported = [], 0
    for module in pkgutil.walk_packages(bilingual_spider.__path__, "bilingual_spider."):
        try:
            importlib.import_module(module.name)
            imported += 1
        except Exception as exc:  # noqa: BLE001 - every failure is listed
            if module.name not in NEEDS_DEV_EXTRAS:
                failed.append(f"{module.name}: {type(exc).__name__}: {exc}")
    print(f"import_all: {imported} modules of {bilingual_spider.__file__} imported")
    for line in failed:
        print(f"import_all: FAILED {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
