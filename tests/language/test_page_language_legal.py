"""Licences and legal notices do not say a page's language (issue 49): a long untranslated
licence in a page's main text is left out of the prose its language is read from."""

from __future__ import annotations

from bilingual_spider.language.page_language import (
    is_legal_notice,
    language_prose,
    main_text_blocks,
)
from bilingual_spider.sandbox.language_sites import LICENCE

GPL = (
    "This program is free software: you can redistribute it and/or modify it under the terms of "
    "the GNU General Public License as published by the Free Software Foundation. It comes "
    "WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY."
)


def test_licences_are_legal_notices_and_prose_that_names_a_licence_is_not():
    assert is_legal_notice(LICENCE) and is_legal_notice(GPL)
    assert is_legal_notice("Copyright 2024 The Authors. All rights reserved. Licensed under MIT.")
    assert not is_legal_notice("This package is distributed under a free licence; see below.")
    assert not is_legal_notice("Install the package with apt and restart the service.")


def test_a_licence_in_the_prose_does_not_say_its_language():
    html = f"<html><body><p>Install the package and restart it.</p><p>{LICENCE}</p></body></html>"
    prose = main_text_blocks(html, navigation=False)[0]
    assert prose == ["Install the package and restart it.", LICENCE]  # the copy check's
    assert language_prose(prose) == ["Install the package and restart it."]
