"""Read access to content, one function per question the actions ask; each takes a Session.

"Current" means ``now < valid_until``: whatever has passed its ``valid_until`` is only ever
fetched to say that it is out of date. A withdrawn record (``withdrawn_at`` set) is never
fetched at all, not even as out of date: its editor took it back.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.orm import Session, joinedload, selectinload, with_loader_criteria

from actions.content.format import kabul_day_bounds
from actions.content.models import (
    Airport,
    AirportStatus,
    Announcement,
    Flight,
    FlightStatus,
    Gate,
    GuidanceKind,
    GuidanceTopic,
    Withdrawable,
)

FINISHED = (FlightStatus.DEPARTED, FlightStatus.CANCELLED)
#: Keeps withdrawn rows out of relationships loaded along with a query (an airport's gates).
NOT_WITHDRAWN = with_loader_criteria(
    Withdrawable, lambda cls: cls.withdrawn_at.is_(None), include_aliases=True
)
#: How far back a departed or cancelled flight is still worth telling someone who asks for it.
RECENT = timedelta(hours=24)


@dataclass(frozen=True)
class FlightQuery:
    """What a user asked about flights; every field is optional and they combine with AND."""

    destination: str | None = None  # canonical English place name, e.g. "Doha"
    day: date | None = None  # a Kabul calendar day
    flight_number: str | None = None  # upper case, no spaces

    def conditions(self) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if self.destination:
            destinations = select(Airport.id).where(
                func.lower(Airport.place) == self.destination.lower(),
                Airport.withdrawn_at.is_(None),
            )
            conditions.append(Flight.destination_id.in_(destinations))
        if self.day is not None:
            start, end = kabul_day_bounds(self.day)
            conditions += [Flight.departs_at >= start, Flight.departs_at < end]
        if self.flight_number:
            conditions.append(Flight.flight_number == self.flight_number)
        return conditions


def _flights() -> Select[tuple[Flight]]:
    return (
        select(Flight)
        .where(Flight.withdrawn_at.is_(None))
        .options(
            joinedload(Flight.destination),
            joinedload(Flight.operator),
            joinedload(Flight.source),
        )
    )


def _upcoming(now: datetime) -> list[ColumnElement[bool]]:
    return [Flight.status.not_in(FINISHED), Flight.departs_at >= now]


def upcoming_flights(
    session: Session, now: datetime, query: FlightQuery, limit: int = 5
) -> Sequence[Flight]:
    """Flights still to leave, with current information, soonest first."""
    statement = (
        _flights()
        .where(*_upcoming(now), Flight.valid_until > now, *query.conditions())
        .order_by(Flight.departs_at, Flight.flight_number)
        .limit(limit)
    )
    return session.scalars(statement).all()


def outdated_flights(session: Session, now: datetime, query: FlightQuery) -> Sequence[Flight]:
    """Flights that would match but whose information has expired: we must not vouch for them."""
    statement = (
        _flights()
        .where(*_upcoming(now), Flight.valid_until <= now, *query.conditions())
        .order_by(Flight.departs_at)
    )
    return session.scalars(statement).all()


def finished_flights(session: Session, now: datetime, flight_number: str) -> Sequence[Flight]:
    """A flight someone asks for by number that has recently left or was cancelled."""
    statement = (
        _flights()
        .where(
            Flight.flight_number == flight_number,
            Flight.status.in_(FINISHED),
            Flight.departs_at >= now - RECENT,
            Flight.valid_until > now,
        )
        .order_by(Flight.departs_at)
    )
    return session.scalars(statement).all()


def destinations_with_upcoming_flights(session: Session, now: datetime) -> Sequence[Airport]:
    """Where current, upcoming flights go, alphabetically by canonical name."""
    statement = (
        select(Airport)
        .where(
            Airport.id.in_(
                select(Flight.destination_id).where(
                    *_upcoming(now), Flight.valid_until > now, Flight.withdrawn_at.is_(None)
                )
            ),
            Airport.withdrawn_at.is_(None),
        )
        .order_by(Airport.place, Airport.iata)
    )
    return session.scalars(statement).all()


def airport_by_place(session: Session, place: str) -> Airport | None:
    """The first airport serving a canonical place name ("Doha"), for naming it in answers."""
    statement = (
        select(Airport)
        .where(func.lower(Airport.place) == place.lower(), Airport.withdrawn_at.is_(None))
        .order_by(Airport.iata)
    )
    return session.scalars(statement).first()


def airport_with_status(session: Session, iata: str) -> Airport | None:
    """An airport (upper-case IATA code) with its status, gates and their sources, in one go.

    A withdrawn status reads as no status (None), withdrawn gates are left out.
    """
    statement = (
        select(Airport)
        .where(Airport.iata == iata, Airport.withdrawn_at.is_(None))
        .options(
            joinedload(Airport.status).joinedload(AirportStatus.source),
            selectinload(Airport.gates).joinedload(Gate.source),
            NOT_WITHDRAWN,
        )
    )
    return session.scalars(statement).first()


def latest_announcements(session: Session, now: datetime, limit: int = 3) -> Sequence[Announcement]:
    """The newest announcements still in force, newest first."""
    statement = (
        select(Announcement)
        .where(
            (Announcement.valid_until.is_(None)) | (Announcement.valid_until > now),
            Announcement.withdrawn_at.is_(None),
        )
        .options(joinedload(Announcement.issuer), joinedload(Announcement.source))
        .order_by(Announcement.published_at.desc(), Announcement.id.desc())
        .limit(limit)
    )
    return session.scalars(statement).all()


def current_guidance(
    session: Session, now: datetime, kinds: Collection[GuidanceKind]
) -> Sequence[GuidanceTopic]:
    """Guidance of these kinds still in force, in the order editors gave it."""
    statement = (
        select(GuidanceTopic)
        .where(
            GuidanceTopic.kind.in_(kinds),
            (GuidanceTopic.valid_until.is_(None)) | (GuidanceTopic.valid_until > now),
            GuidanceTopic.withdrawn_at.is_(None),
        )
        .options(joinedload(GuidanceTopic.source), joinedload(GuidanceTopic.organisation))
        .order_by(GuidanceTopic.position, GuidanceTopic.id)
    )
    return session.scalars(statement).all()
