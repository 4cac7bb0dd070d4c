"""A record as an editor recognises it in a list: "Abbey Gate (KBL)", "QR8010 → Doha, 24 Aug"."""

from __future__ import annotations

from typing import Any

from actions.content import format as fmt
from actions.content.localise import isolate_latin
from actions.content.models import (
    Airport,
    AirportStatus,
    Announcement,
    Flight,
    Gate,
    GuidanceTopic,
    Organisation,
)


def title(row: Any, language: str) -> str:
    """Plain text (templates escape it); content texts in the interface language if present."""
    if isinstance(row, AirportStatus):
        return fmt.text(row.airport, "name", language)
    if isinstance(row, Gate):
        return f"{fmt.text(row, 'name', language)} ({row.airport.iata})"
    if isinstance(row, Flight):
        city = fmt.text(row.destination, "city", language)
        line = f"{row.flight_number} — {city}, {fmt.departure(row.departs_at, language)}"
        return isolate_latin(line, language)  # keeps "PK6250" whole in a right-to-left line
    if isinstance(row, Announcement | GuidanceTopic):
        return fmt.text(row, "title", language)
    if isinstance(row, Organisation | Airport):
        return fmt.text(row, "name", language)
    return str(row)
