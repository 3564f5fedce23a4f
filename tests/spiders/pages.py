"""Small HTML pages in English and Spanish for detector tests (enough text to identify)."""

from __future__ import annotations

ENGLISH = (
    "The museum opens every day from nine in the morning until six in the evening. Guided tours "
    "of the old town leave from the main square at ten o'clock and last about two hours. "
    "Tickets can be bought at the entrance or booked online a week in advance."
)
SPANISH = (
    "El museo abre todos los días desde las nueve de la mañana hasta las seis de la tarde. Las "
    "visitas guiadas por el casco antiguo salen de la plaza mayor a las diez y duran unas dos "
    "horas. Las entradas se compran en la taquilla o se reservan en línea con una semana de "
    "antelación."
)


def page(lang: str, text: str, *links: tuple[str, str], refresh: str = "") -> str:
    """A page in ``lang`` with ``text`` and links given as (href, anchor)."""
    head = f'<meta http-equiv="refresh" content="0; url={refresh}">' if refresh else ""
    anchors = " | ".join(f'<a href="{href}">{anchor}</a>' for href, anchor in links)
    return (
        f'<html lang="{lang}"><head><meta charset="utf-8"><title>{lang}</title>{head}</head>'
        f"<body><div class=languages>{anchors}</div><p>{text}</p></body></html>"
    )
