"""``bilingual-spider --version`` says the installed package's version."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

from bilingual_spider.sandbox.process import crawl_env


def test_version_is_the_installed_packages() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bilingual_spider.cli", "--version"],
        capture_output=True,
        text=True,
        env=crawl_env(),
        check=True,
    )
    assert done.stdout.strip() == f"bilingual-spider {version('bilingual-spider')}"
