"""Record keys: how editors name a record, and how a key finds or starts its row.

See ``records.py`` for the keys of each kind. A key, and each part of it, must fit the column
that stores it (the slug, the flight number, a revision's ``record_key``): the lengths are read
from the models, so a key too long is refused here on SQLite (which would store it) and on
PostgreSQL (which would fail) alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from sqlalchemy import String, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from actions.common.kabul_time import KABUL, kabul_day_bounds
from actions.content import fields as f
from actions.content import validation as check
from actions.content.models import (
    Airport,
    AirportStatus,
    Announcement,
    Claim,
    Flight,
    Gate,
    GuidanceTopic,
    Organisation,
    Revision,
)

_FLIGHT_KEY = re.compile(r"(?P<number>[A-Z0-9]+)@(?P<day>\d{4}-\d{2}-\d{2})")


def column_length(column: InstrumentedAttribute[str]) -> int:
    """The most characters a string column holds, as the model declares it."""
    column_type = column.type
    assert isinstance(column_type, String) and column_type.length is not None, column
    return column_type.length


#: Slug keys are checked by one function: the shortest slug column decides.
SLUG_MAX = min(
    column_length(column)
    for column in (
        Organisation.slug,
        Gate.slug,
        Announcement.slug,
        GuidanceTopic.slug,
        Claim.slug,
    )
)
FLIGHT_NUMBER_MAX = column_length(Flight.flight_number)
RECORD_KEY_MAX = column_length(Revision.record_key)


def within(what: str, value: str, limit: int) -> str:
    """``value`` unchanged, or ContentError naming it and the limit if it is longer."""
    if len(value) > limit:
        raise check.ContentError(
            None, f"{what} {value!r} is {len(value)} characters long; at most {limit}"
        )
    return value


def slug_key(kind: str, example: str) -> Callable[[str], str]:
    def normalise(key: str) -> str:
        key = key.strip()
        if not check.SLUG.fullmatch(key):
            raise check.ContentError(
                None, f"{kind} key {key!r} is not a slug: lower case, digits and -, e.g. {example}"
            )
        within(f"{kind} key", key, SLUG_MAX)
        return within(f"{kind} key", key, RECORD_KEY_MAX)

    return normalise


def iata_key(key: str) -> str:
    code = key.strip().upper()
    if not check.IATA.fullmatch(code):
        raise check.ContentError(None, f"airport key {key!r} is not an IATA code like KBL")
    return code


def gate_key(key: str) -> str:
    airport, _, slug = key.strip().partition("/")
    if not slug:
        raise check.ContentError(None, f"gate key {key!r}: write it as airport/gate, KBL/east-gate")
    gate = f"{iata_key(airport)}/{slug_key('gate', 'east-gate')(slug)}"
    return within("gate key", gate, RECORD_KEY_MAX)


def flight_key_from(key: str) -> str:
    match = _FLIGHT_KEY.fullmatch(key.strip().upper())
    if match is None:
        raise check.ContentError(
            None,
            f"flight key {key!r}: write it as number@Kabul date of departure, e.g. "
            "QR8010@2021-08-24",
        )
    try:
        date.fromisoformat(match["day"])
    except ValueError:
        raise check.ContentError(None, f"flight key {key!r}: {match['day']} is no date") from None
    within(f"flight key {key.strip()!r}: flight number", match["number"], FLIGHT_NUMBER_MAX)
    return within("flight key", match.group(0), RECORD_KEY_MAX)


def flight_key(number: str, departs_at: datetime) -> str:
    """``QR8010@2021-08-24``: the number and the Kabul day of departure."""
    return f"{number}@{departs_at.astimezone(KABUL).date().isoformat()}"


def find_flight(session: Session, key: str) -> Flight | None:
    number, day = key.split("@")
    start, end = kabul_day_bounds(date.fromisoformat(day))
    found = session.scalars(
        select(Flight).where(
            Flight.flight_number == number, Flight.departs_at >= start, Flight.departs_at < end
        )
    ).all()
    if len(found) > 1:
        raise check.ContentError(None, f"{len(found)} flights have the key {key}; fix by hand")
    return found[0] if found else None


def find_gate(session: Session, key: str) -> Gate | None:
    iata, slug = key.split("/")
    statement = select(Gate).join(Gate.airport).where(Airport.iata == iata, Gate.slug == slug)
    return session.scalars(statement).first()


def new_gate(session: Session, key: str) -> Gate:
    iata, slug = key.split("/")
    airport = f.find_airport(session, "airport", iata)
    last = session.scalar(select(func.max(Gate.position)).where(Gate.airport_id == airport.id))
    # By id, not relationship: a gate that fails validation must not ride into the session.
    return Gate(airport_id=airport.id, slug=slug, position=0 if last is None else last + 1)


def find_status(session: Session, key: str) -> AirportStatus | None:
    statement = select(AirportStatus).join(AirportStatus.airport).where(Airport.iata == key)
    return session.scalars(statement).first()


def by(model: type[Any], column: str) -> Callable[[Session, str], Any | None]:
    def find(session: Session, key: str) -> Any | None:
        return session.scalars(select(model).where(getattr(model, column) == key)).first()

    return find


def new_guidance(session: Session, key: str) -> GuidanceTopic:
    """New topics go last; ``position`` orders topics within their kind, gaps do no harm."""
    last = session.scalar(select(func.max(GuidanceTopic.position)))
    return GuidanceTopic(slug=key, position=0 if last is None else last + 1)


def same_key(slug: str) -> str:
    """A slug as it comes back in a payload: the NLU's normaliser lowercases it and folds a
    hyphen ("taliban-amnesty" → "talibanamnesty", as it folds an ezafe), so compare letters and
    digits only."""
    return "".join(ch for ch in slug.lower() if ch.isalnum())
