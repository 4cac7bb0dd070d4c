"""Read access to content, one function per question the actions ask; each takes a Session.

"Current" means ``now < valid_until``: whatever has passed its ``valid_until`` is only ever
fetched to say that it is out of date. A withdrawn record (``withdrawn_at`` set) is never
fetched at all, not even as out of date: its editor took it back.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Select, exists, func, or_, select
from sqlalchemy.orm import Session, joinedload, selectinload, with_loader_criteria

from actions.common.clock import utc_now
from actions.common.kabul_time import asked_day_bounds
from actions.content.models import (
    Airport,
    AirportStatus,
    Announcement,
    Answer,
    Claim,
    ClaimVerdict,
    Country,
    Flight,
    FlightStatus,
    Gate,
    GuidanceKind,
    GuidanceTopic,
    Withdrawable,
)
from kernel.lang.codes import LANGUAGES

W = TypeVar("W", Claim, Answer)

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
    flight_number: str | None = None  # upper case, no spaces; or digits only ("871")
    #: The airports serving ``destination``, once looked up (:func:`airports_at`). Known ids
    #: let the database plan for them (none: nothing to search); unknown, a subquery is used.
    destination_ids: tuple[int, ...] | None = None
    #: A country asked for instead of a place: the flights to its airports and the flights
    #: that evacuate people for it (``Flight.evacuates_for``).
    country: Country | None = None

    @property
    def by_digits(self) -> bool:
        """A number typed without its letters ("۸۷۱", "871" for RCH871): matched on its end.

        People copy the digits from a call-up message, or cannot type Latin letters on their
        phone; an exact match would tell them their flight does not exist.
        """
        number = self.flight_number or ""
        return number.isascii() and number.isdigit()

    def number_condition(self) -> ColumnElement[bool]:
        """Exactly the number asked for, or every number ending in the digits asked for."""
        if self.by_digits:
            # The suffix test runs once over the flight-number index (which holds every number
            # it needs), not on each upcoming flight in departure order (scripts/bench_content.py:
            # 2 ms instead of 12 with 10 000 flights on SQLite).
            ending = Flight.flight_number.endswith(self.flight_number, autoescape=True)
            return Flight.flight_number.in_(select(Flight.flight_number).where(ending))
        return Flight.flight_number == self.flight_number

    @property
    def matches_nothing(self) -> bool:
        """Asked for a place no airport serves: no flight can match, no need to search."""
        return bool(self.destination) and self.destination_ids == ()

    def conditions(self) -> list[ColumnElement[bool]]:
        conditions: list[ColumnElement[bool]] = []
        if self.destination and self.destination_ids is not None:
            conditions.append(Flight.destination_id.in_(self.destination_ids))
        elif self.destination:
            conditions.append(Flight.destination_id.in_(_at_place(self.destination, Airport.id)))
        if self.country is not None:
            conditions.append(for_country(self.country))
        if self.day is not None:
            start, end = asked_day_bounds(self.day)
            conditions += [Flight.departs_at >= start, Flight.departs_at < end]
        if self.flight_number:
            conditions.append(self.number_condition())
        return conditions


def for_country(country: Country) -> ColumnElement[bool]:
    """Flights to an airport in ``country``, or evacuating people for it."""
    airports = select(Airport.id).where(Airport.country == country, Airport.withdrawn_at.is_(None))
    return or_(Flight.destination_id.in_(airports), Flight.evacuates_for == country)


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
    """Flights still to leave, with current information, soonest first.

    A place with several airports (Doha: XJD, DOH) is searched airport by airport and merged:
    each search walks the (destination, departure) index in order and stops after ``limit``
    flights, where one search for both would sort every upcoming flight to the place.
    """
    if query.matches_nothing:
        return []
    if query.destination_ids is not None and len(query.destination_ids) > 1:
        found = [
            flight
            for airport_id in query.destination_ids
            for flight in upcoming_flights(
                session, now, replace(query, destination_ids=(airport_id,)), limit
            )
        ]
        return sorted(found, key=lambda flight: (flight.departs_at, flight.flight_number))[:limit]
    statement = (
        _flights()
        .where(*_upcoming(now), Flight.valid_until > now, *query.conditions())
        .order_by(Flight.departs_at, Flight.flight_number)
        .limit(limit)
    )
    return session.scalars(statement).all()


def outdated_flights(session: Session, now: datetime, query: FlightQuery) -> Sequence[Flight]:
    """Flights that would match but whose information has expired: we must not vouch for them."""
    if query.matches_nothing:
        return []
    statement = (
        _flights()
        .where(*_upcoming(now), Flight.valid_until <= now, *query.conditions())
        .order_by(Flight.departs_at)
    )
    return session.scalars(statement).all()


def finished_flights(session: Session, now: datetime, query: FlightQuery) -> Sequence[Flight]:
    """A flight someone asks for by number that has recently left or was cancelled."""
    statement = (
        _flights()
        .where(
            query.number_condition(),
            Flight.status.in_(FINISHED),
            Flight.departs_at >= now - RECENT,
            Flight.valid_until > now,
        )
        .order_by(Flight.departs_at)
    )
    return session.scalars(statement).all()


def destinations_with_upcoming_flights(session: Session, now: datetime) -> Sequence[Airport]:
    """Where current, upcoming flights go, alphabetically by canonical name.

    One probe per airport into the (destination, departure) index that stops at its first
    upcoming flight, rather than a pass over every upcoming flight.
    """
    has_upcoming = exists().where(
        Flight.destination_id == Airport.id,
        *_upcoming(now),
        Flight.valid_until > now,
        Flight.withdrawn_at.is_(None),
    )
    statement = (
        select(Airport)
        .where(has_upcoming, Airport.withdrawn_at.is_(None))
        .order_by(Airport.place, Airport.iata)
    )
    return session.scalars(statement).all()


def airports_at(session: Session, place: str) -> Sequence[Airport]:
    """The airports serving a canonical place name ("Doha": XJD, DOH), by IATA code."""
    return session.scalars(_at_place(place, Airport).order_by(Airport.iata)).all()


def _at_place(place: str, *what: Any) -> Select[Any]:
    return select(*what).where(
        func.lower(Airport.place) == place.lower(), Airport.withdrawn_at.is_(None)
    )


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


def official_contact(session: Session, claim: Claim, now: datetime) -> GuidanceTopic | None:
    """How the organisation behind a false or misleading verdict really reaches people: its
    first contacts record in force (a fake list or letter borrows a real organisation's name;
    the answer says how that organisation does write). None for other verdicts, or when the
    source has no contacts record."""
    if claim.verdict not in (ClaimVerdict.FALSE, ClaimVerdict.MISLEADING):
        return None
    contacts = current_guidance(session, now, (GuidanceKind.CONTACTS,))
    return next((c for c in contacts if c.organisation_id == claim.source_id), None)


def _live(model: type[W], now: datetime) -> Select[tuple[W]]:
    return select(model).where(
        model.withdrawn_at.is_(None), (model.valid_until.is_(None)) | (model.valid_until > now)
    )


def _live_claims(now: datetime) -> Select[tuple[Claim]]:
    return _live(Claim, now)


def for_matching(
    session: Session, model: type[W], said: str, now: datetime | None = None
) -> list[tuple[str, list[str]]]:
    """Every live record of ``model`` by slug, with all the ways it is said: its ``said`` text
    in each language it has, then its phrasings. Withdrawn and lapsed ones are left out.

    One query for all of them: whoever recognises them in what people write reads this once
    and matches against it, rather than asking the database per message.
    """
    statement = _live(model, now or utc_now()).order_by(model.slug)
    found: list[tuple[str, list[str]]] = []
    rows: Sequence[Claim | Answer] = session.scalars(statement).all()
    for row in rows:
        told: list[str] = [getattr(row, f"{said}_{lang}") for lang in LANGUAGES]
        phrasings: list[str] = row.phrasings
        texts = dict.fromkeys(text for text in [*told, *phrasings] if text)
        found.append((str(row.slug), list(texts)))
    return found


def claims_for_matching(
    session: Session, now: datetime | None = None
) -> list[tuple[str, list[str]]]:
    """Every claim people may be told about, by slug, with all the ways it is said."""
    return for_matching(session, Claim, "claim", now)


def claim_by_slug(session: Session, slug: str, now: datetime | None = None) -> Claim | None:
    """A claim people may be told about, with its source; None if withdrawn or lapsed."""
    statement = (
        _live_claims(now or utc_now()).where(Claim.slug == slug).options(joinedload(Claim.source))
    )
    return session.scalars(statement).first()


def answer_by_slug(session: Session, slug: str, now: datetime | None = None) -> Answer | None:
    """An editor's answer people may be told, with its source; None if withdrawn or lapsed."""
    statement = (
        _live(Answer, now or utc_now())
        .where(Answer.slug == slug)
        .options(joinedload(Answer.source))
    )
    return session.scalars(statement).first()
