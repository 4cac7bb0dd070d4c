"""A record as an editor recognises it in a list: "Abbey Gate (KBL)", "QR8010 → Doha, 24 Aug"."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import joinedload, load_only, raiseload

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
from bot.lang.codes import LANGUAGES


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


#: What :func:`title` and the record's key read: (its own columns, the airport it names, that
#: airport's columns). A text means its three language columns.
_READ: dict[type[Any], tuple[tuple[str, ...], Any, tuple[str, ...]]] = {
    AirportStatus: (("airport_id",), AirportStatus.airport, ("iata", "name")),
    Gate: (("slug", "airport_id", "name"), Gate.airport, ("iata",)),
    Flight: (
        ("flight_number", "departs_at", "destination_id"),
        Flight.destination,
        ("iata", "city"),
    ),
    Announcement: (("slug", "title"), None, ()),
    GuidanceTopic: (("slug", "title"), None, ()),
    Organisation: (("slug", "name"), None, ()),
    Airport: (("iata", "name"), None, ()),
}


def _columns(model: type[Any], names: tuple[str, ...]) -> list[Any]:
    found = []
    for name in names:
        if hasattr(model, name):
            found.append(getattr(model, name))
        else:
            found += [getattr(model, f"{name}_{lang}") for lang in LANGUAGES]
    return found


def shown_with(model: type[Any], *also: str) -> list[Any]:
    """Loader options for records listed by title: only the columns the title and the key read
    (and ``also``), the airport they name joined in the same query, nothing else. Whatever
    else a page would read raises instead of quietly costing a query per row."""
    own, airport, its = _READ[model]
    options = [load_only(*_columns(model, (*own, *also)), raiseload=True)]
    if airport is not None:
        options.append(joinedload(airport).load_only(*_columns(Airport, its), raiseload=True))
    return [*options, raiseload("*")]
