"""The content database: airports and their gates, flights, official announcements, guidance.

How the three languages are stored: every user-facing text is a group of per-language columns
on the row of the fact it belongs to (``advice_en``, ``advice_prs``, ``advice_ps``), not rows
in a separate translations table. Why:

* One row is one whole fact in all three languages, so a revision (later issue) is a snapshot
  of one row, and rolling back restores every language together. Editors publish a fact once,
  atomically, never half-translated.
* ``NOT NULL`` lets the database itself refuse a fact that lacks a language.
* Answers need no joins or pivots to read a text, and an editor API can map each group to one
  ``{"en": …, "prs": …, "ps": …}`` object (see :func:`localised`).
* Adding a fourth language is a migration — acceptable, because every response in the domain
  must gain a variation then too.

Organisations (sources, operators, issuers, help lines) are rows of their own so that editors
pick them from a list and their names are translated once. Identity (an airport, a gate) is kept
apart from volatile facts about it (status, state) so the later revision history can version
facts. Guidance (documents, who may board, contacts) is one row per topic for the same reason.
All times are timezone-aware UTC (:class:`UTCDateTime`).
"""

from __future__ import annotations

import enum
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    DateTime,
    Dialect,
    Enum,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column, relationship

from bot.lang.codes import LANGUAGES

#: Stable constraint names, so that migrations (and SQLite batch migrations) can refer to them.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

NAME = String(200)
SLUG = String(64)
#: Phone and WhatsApp numbers as people dial them, with the country code: "+93 700 000 101".
PHONE = String(32)
EMAIL = String(254)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC in and out, on SQLite (no time zones) as on PostgreSQL.

    Naive datetimes are refused: guessing their zone is how Kabul (UTC+04:30) times go wrong.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: content times must be timezone-aware")
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


class AirportState(str, enum.Enum):
    OPEN = "open"
    RESTRICTED = "restricted"
    CLOSED = "closed"


class GateState(str, enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class FlightStatus(str, enum.Enum):
    SCHEDULED = "scheduled"
    BOARDING = "boarding"
    DEPARTED = "departed"
    DELAYED = "delayed"
    CANCELLED = "cancelled"


class AnnouncementKind(str, enum.Enum):
    AMNESTY = "amnesty"
    GOVERNMENT = "government"
    EVACUATION = "evacuation"
    SAFETY = "safety"


class Verification(str, enum.Enum):
    """Whether what an announcement says is independently confirmed.

    ``unverified``: the issuer's own claim; that it is carried out is unconfirmed.
    ``disputed``: other credible sources contradict it.
    """

    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    DISPUTED = "disputed"


class GuidanceKind(str, enum.Enum):
    """Which question it answers: ``ask_documents`` (documents, eligibility), ``ask_help``."""

    DOCUMENTS = "documents"
    ELIGIBILITY = "eligibility"
    CONTACTS = "contacts"


def _choice(enum_class: type[enum.Enum], name: str) -> Enum:
    """A portable enum: VARCHAR + CHECK, so adding a value later is a plain migration."""
    return Enum(
        enum_class,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=16,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


def localised(row: Base, field: str, language: str) -> str:
    """The text of ``field`` in ``language`` (e.g. ``advice`` + ``prs`` → ``advice_prs``)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    value: str = getattr(row, f"{field}_{language}")
    return value


class Organisation(Base):
    """Who said or runs something: sources of facts, flight operators, issuers, help lines."""

    __tablename__ = "organisations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    name_en: Mapped[str] = mapped_column(NAME)
    name_prs: Mapped[str] = mapped_column(NAME)
    name_ps: Mapped[str] = mapped_column(NAME)


class Provenance:
    """Where a fact comes from and when an editor last checked it."""

    source_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"))
    verified_at: Mapped[datetime] = mapped_column(UTCDateTime)

    @declared_attr
    def source(cls: type[Provenance]) -> Mapped[Organisation]:
        # Named by string: flights point at organisations twice (operator and source).
        return relationship(Organisation, foreign_keys=f"[{cls.__name__}.source_id]")


class VolatileFact(Provenance):
    """A fact that goes stale: after ``valid_until`` it must not be presented as current."""

    valid_until: Mapped[datetime] = mapped_column(UTCDateTime)

    def is_current(self, now: datetime) -> bool:
        return now < self.valid_until


class Airport(Base):
    """An airport flights leave from or go to; ``place`` is the canonical `destination` value."""

    __tablename__ = "airports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    iata: Mapped[str] = mapped_column(String(3), unique=True)
    place: Mapped[str] = mapped_column(String(64), index=True)
    name_en: Mapped[str] = mapped_column(NAME)
    name_prs: Mapped[str] = mapped_column(NAME)
    name_ps: Mapped[str] = mapped_column(NAME)
    city_en: Mapped[str] = mapped_column(NAME)
    city_prs: Mapped[str] = mapped_column(NAME)
    city_ps: Mapped[str] = mapped_column(NAME)

    status: Mapped[AirportStatus | None] = relationship(back_populates="airport")
    gates: Mapped[list[Gate]] = relationship(back_populates="airport", order_by="Gate.position")


class AirportStatus(VolatileFact, Base):
    """Whether an airport is open, with crowd and safety advice; one current row per airport."""

    __tablename__ = "airport_statuses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    airport_id: Mapped[int] = mapped_column(ForeignKey("airports.id"), unique=True)
    state: Mapped[AirportState] = mapped_column(_choice(AirportState, "state"))
    advice_en: Mapped[str] = mapped_column(Text)
    advice_prs: Mapped[str] = mapped_column(Text)
    advice_ps: Mapped[str] = mapped_column(Text)

    airport: Mapped[Airport] = relationship(back_populates="status")


class Gate(VolatileFact, Base):
    """An airport gate and its current state; each gate is verified on its own."""

    __tablename__ = "gates"
    __table_args__ = (UniqueConstraint("airport_id", "slug"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    airport_id: Mapped[int] = mapped_column(ForeignKey("airports.id"))
    slug: Mapped[str] = mapped_column(SLUG)
    position: Mapped[int] = mapped_column(Integer)
    name_en: Mapped[str] = mapped_column(NAME)
    name_prs: Mapped[str] = mapped_column(NAME)
    name_ps: Mapped[str] = mapped_column(NAME)
    state: Mapped[GateState] = mapped_column(_choice(GateState, "state"))
    note_en: Mapped[str] = mapped_column(Text)
    note_prs: Mapped[str] = mapped_column(Text)
    note_ps: Mapped[str] = mapped_column(Text)

    airport: Mapped[Airport] = relationship(back_populates="gates")


class Flight(VolatileFact, Base):
    """An evacuation flight; origin and destination give IATA codes and the canonical place."""

    __tablename__ = "flights"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    flight_number: Mapped[str] = mapped_column(String(16), index=True)
    operator_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"))
    origin_id: Mapped[int] = mapped_column(ForeignKey("airports.id"))
    destination_id: Mapped[int] = mapped_column(ForeignKey("airports.id"))
    departs_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    status: Mapped[FlightStatus] = mapped_column(_choice(FlightStatus, "status"))
    eligibility_en: Mapped[str] = mapped_column(Text)
    eligibility_prs: Mapped[str] = mapped_column(Text)
    eligibility_ps: Mapped[str] = mapped_column(Text)
    assembly_point_en: Mapped[str] = mapped_column(Text)
    assembly_point_prs: Mapped[str] = mapped_column(Text)
    assembly_point_ps: Mapped[str] = mapped_column(Text)

    operator: Mapped[Organisation] = relationship(foreign_keys=[operator_id])
    origin: Mapped[Airport] = relationship(foreign_keys=[origin_id])
    destination: Mapped[Airport] = relationship(foreign_keys=[destination_id])


class Announcement(Provenance, Base):
    """An official announcement; ``valid_until`` is set only when it lapses (e.g. a warning)."""

    __tablename__ = "announcements"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    issuer_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"))
    kind: Mapped[AnnouncementKind] = mapped_column(_choice(AnnouncementKind, "kind"))
    published_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    verification: Mapped[Verification] = mapped_column(_choice(Verification, "verification"))
    valid_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    title_en: Mapped[str] = mapped_column(NAME)
    title_prs: Mapped[str] = mapped_column(NAME)
    title_ps: Mapped[str] = mapped_column(NAME)
    text_en: Mapped[str] = mapped_column(Text)
    text_prs: Mapped[str] = mapped_column(Text)
    text_ps: Mapped[str] = mapped_column(Text)

    issuer: Mapped[Organisation] = relationship(foreign_keys=[issuer_id])

    def is_current(self, now: datetime) -> bool:
        return self.valid_until is None or now < self.valid_until


#: A contact must say who answers, when, and how to reach them: never a blank entry.
CONTACT_COMPLETE = (
    "kind <> 'contacts' OR (organisation_id IS NOT NULL"
    " AND hours_en IS NOT NULL AND hours_prs IS NOT NULL AND hours_ps IS NOT NULL"
    " AND (phone IS NOT NULL OR whatsapp IS NOT NULL OR email IS NOT NULL))"
)
#: Documents and eligibility advice carry no numbers: a phone number there would escape the
#: checks (and the display) that contacts get.
DETAILS_ONLY_ON_CONTACTS = (
    "kind = 'contacts' OR (organisation_id IS NULL AND phone IS NULL AND whatsapp IS NULL"
    " AND email IS NULL AND hours_en IS NULL AND hours_prs IS NULL AND hours_ps IS NULL)"
)


class GuidanceTopic(Provenance, Base):
    """Standing advice aid workers publish: documents to bring, who may board, who can help.

    One row per topic ("Keep your documents hidden", "Family members", "UNHCR protection line"),
    shown in ``position`` order within its kind. A contact is guidance too: the same title, body
    and provenance, plus the organisation that answers, how to reach it and its opening hours;
    CHECK constraints keep those details complete on contacts and absent elsewhere, so a
    revision stays a snapshot of one row. ``valid_until`` is set only for advice that lapses
    (an eligibility rule for one airlift, a temporary hotline).
    """

    __tablename__ = "guidance_topics"
    __table_args__ = (
        CheckConstraint(CONTACT_COMPLETE, name="contact_complete"),
        CheckConstraint(DETAILS_ONLY_ON_CONTACTS, name="details_only_on_contacts"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    kind: Mapped[GuidanceKind] = mapped_column(_choice(GuidanceKind, "kind"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    valid_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    title_en: Mapped[str] = mapped_column(NAME)
    title_prs: Mapped[str] = mapped_column(NAME)
    title_ps: Mapped[str] = mapped_column(NAME)
    body_en: Mapped[str] = mapped_column(Text)
    body_prs: Mapped[str] = mapped_column(Text)
    body_ps: Mapped[str] = mapped_column(Text)
    # Contacts only.
    organisation_id: Mapped[int | None] = mapped_column(ForeignKey("organisations.id"))
    phone: Mapped[str | None] = mapped_column(PHONE)
    whatsapp: Mapped[str | None] = mapped_column(PHONE)
    email: Mapped[str | None] = mapped_column(EMAIL)
    hours_en: Mapped[str | None] = mapped_column(NAME)
    hours_prs: Mapped[str | None] = mapped_column(NAME)
    hours_ps: Mapped[str | None] = mapped_column(NAME)

    organisation: Mapped[Organisation | None] = relationship(foreign_keys=[organisation_id])

    def is_current(self, now: datetime) -> bool:
        return self.valid_until is None or now < self.valid_until
