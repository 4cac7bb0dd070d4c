"""The content database: airports and their gates, flights, official announcements, guidance.

How the three languages are stored: every user-facing text is a group of per-language columns
on the row of the fact it belongs to (``advice_en``, ``advice_prs``, ``advice_ps``), not rows
in a separate translations table. Why:

* One row is one whole fact in all three languages, so a revision is a snapshot of one row,
  and rolling back restores every language together.
* ``NOT NULL`` lets the database itself refuse a fact that lacks a text. An editor may publish
  before a translation is ready only by saying so (``--allow-missing-translation``): the missing
  language is then stored empty, read in another language (:func:`localised`) and reported.
* Answers need no joins or pivots to read a text, and an editor API can map each group to one
  ``{"en": …, "prs": …, "ps": …}`` object.
* Adding a fourth language is a migration — acceptable, because every response in the domain
  must gain a variation then too.

Organisations (sources, operators, issuers, help lines) are rows of their own so that editors
pick them from a list and their names are translated once. Identity (an airport, a gate) is kept
apart from volatile facts about it (status, state) so that revisions version facts. Guidance
(documents, who may board, contacts) is one row per topic for the same reason. Nothing is
deleted: a record is withdrawn (:class:`Withdrawable`), and every change is a :class:`Revision`.
All times are timezone-aware UTC (:class:`UTCDateTime`).
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import (
    JSON,
    CheckConstraint,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, declared_attr, mapped_column, relationship

from actions.content.columns import (
    EMAIL,
    NAME,
    NAMING_CONVENTION,
    PHONE,
    SLUG,
    Base,
    UTCDateTime,
    choice,
    localised,
)
from actions.content.editors import ConsoleSession, EditorToken, SignInCode
from actions.content.revision import RecordKind, Revision, RevisionAction
from kernel.contentdb import tables
from kernel.lang.codes import LANGUAGES

__all__ = [
    "NAMING_CONVENTION",
    "Base",
    "ConsoleSession",
    "EditorToken",
    "RecordKind",
    "Revision",
    "RevisionAction",
    "SignInCode",
    "UTCDateTime",
    "localised",
]


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


class ClaimVerdict(str, enum.Enum):
    """What editors found a rumour to be.

    ``misleading``: true in part, wrong in what people take from it. ``unverified``: nobody
    could confirm or refute it. ``being_checked``: editors are on it; say so rather than nothing.
    """

    FALSE = "false"
    MISLEADING = "misleading"
    TRUE = "true"
    UNVERIFIED = "unverified"
    BEING_CHECKED = "being_checked"


class ClaimAbout(str, enum.Enum):
    """The kind of record a claim is about (the values are those of :class:`RecordKind`).

    Its key says which: an IATA code (``airport``; ``gate`` for all of an airport's gates),
    ``KBL/abbey-gate`` (one gate), a flight number or a flight's key, a slug.
    """

    AIRPORT = "airport"
    GATE = "gate"
    FLIGHT = "flight"
    ANNOUNCEMENT = "announcement"
    GUIDANCE = "guidance"


class Country(str, enum.Enum):
    """A country by its ISO 3166-1 code: where an airport is, whom a flight evacuates people
    for. The countries people ask about (the senses table, actions/claims/senses.py) and
    Afghanistan; each is named in every language (``content.country.<code>`` of the catalogue).
    """

    AE = "AE"
    AF = "AF"
    AL = "AL"
    AT = "AT"
    AU = "AU"
    BE = "BE"
    BH = "BH"
    BR = "BR"
    CA = "CA"
    CH = "CH"
    CN = "CN"
    DE = "DE"
    DK = "DK"
    ES = "ES"
    FR = "FR"
    GB = "GB"
    IE = "IE"
    IN = "IN"
    IR = "IR"
    IT = "IT"
    JP = "JP"
    KG = "KG"
    KW = "KW"
    KZ = "KZ"
    MX = "MX"
    NL = "NL"
    NO = "NO"
    PK = "PK"
    PL = "PL"
    QA = "QA"
    RU = "RU"
    RW = "RW"
    SA = "SA"
    SE = "SE"
    TJ = "TJ"
    TM = "TM"
    TR = "TR"
    UG = "UG"
    US = "US"
    UZ = "UZ"
    XK = "XK"


def country_code() -> Enum:
    """A country column: two letters, checked by the editing service rather than by a CHECK
    constraint, so that naming one more country needs its names, not a migration."""
    return Enum(
        Country,
        name="country",
        native_enum=False,
        create_constraint=False,
        length=2,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class GuidanceKind(str, enum.Enum):
    """Which question it answers: ``ask_documents`` (documents, eligibility), ``ask_help``."""

    DOCUMENTS = "documents"
    ELIGIBILITY = "eligibility"
    CONTACTS = "contacts"


#: Partial indexes hold current records only: the console never looks for withdrawn ones.
CURRENT = "withdrawn_at IS NULL"


def current_only(name: str, *columns: str, where: str = CURRENT) -> Index:
    """An index over current records (migration 0013), on SQLite and PostgreSQL alike."""
    return Index(name, *columns, sqlite_where=text(where), postgresql_where=text(where))


def untranslated(*texts: str) -> str:
    """Current records with an empty language column, written as ``review.py`` asks for them
    (the same columns in the same order): a database uses a partial index only then."""
    empty = " OR ".join(f"{field}_{lang} = ''" for field in texts for lang in LANGUAGES)
    return f"{CURRENT} AND ({empty})"


class Withdrawable:
    """A record that can be withdrawn: never deleted, so its history and rollback stay whole.

    Answers never show a withdrawn record (queries.py filters on ``withdrawn_at``); publishing
    the same record again brings it back.
    """

    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class Placed:
    """Where a place people can go is on the map, in WGS 84 degrees (both or neither).

    Read only to tell a person who shared their location or named a landmark which gates and
    help points are nearest (actions/content/nearby.py); optional, because most facts are not
    places and a position nobody checked is better left out than guessed.
    """

    latitude: Mapped[float | None] = mapped_column(Float)
    longitude: Mapped[float | None] = mapped_column(Float)


class Organisation(Withdrawable, Base):
    """Who said or runs something: sources of facts, flight operators, issuers, help lines.

    Mapped onto the table both runtimes use (the bot reads caseworkers' hours from it).
    """

    __table__ = tables.organisations

    id: Mapped[int]
    slug: Mapped[str]
    name_en: Mapped[str]
    name_prs: Mapped[str]
    name_ps: Mapped[str]
    # Organisations whose caseworkers answer people (docs/HANDOFF.md): daily hours in Kabul
    # time ("08:00-20:00") and the usual wait in minutes.
    case_hours: Mapped[str | None]
    case_wait_minutes: Mapped[int | None]


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


class Airport(Placed, Withdrawable, Base):
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
    #: The country it is in: "flights to Germany" are those to its airports (migration 0028).
    country: Mapped[Country | None] = mapped_column(country_code())

    status: Mapped[AirportStatus | None] = relationship(back_populates="airport")
    gates: Mapped[list[Gate]] = relationship(back_populates="airport", order_by="Gate.position")


class AirportStatus(VolatileFact, Withdrawable, Base):
    """Whether an airport is open, with crowd and safety advice; one current row per airport."""

    __tablename__ = "airport_statuses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    airport_id: Mapped[int] = mapped_column(ForeignKey("airports.id"), unique=True)
    state: Mapped[AirportState] = mapped_column(choice(AirportState, "state"))
    advice_en: Mapped[str] = mapped_column(Text)
    advice_prs: Mapped[str] = mapped_column(Text)
    advice_ps: Mapped[str] = mapped_column(Text)

    airport: Mapped[Airport] = relationship(back_populates="status")


class Gate(Placed, VolatileFact, Withdrawable, Base):
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
    state: Mapped[GateState] = mapped_column(choice(GateState, "state"))
    note_en: Mapped[str] = mapped_column(Text)
    note_prs: Mapped[str] = mapped_column(Text)
    note_ps: Mapped[str] = mapped_column(Text)

    airport: Mapped[Airport] = relationship(back_populates="gates")


class Flight(VolatileFact, Withdrawable, Base):
    """An evacuation flight; origin and destination give IATA codes and the canonical place."""

    __tablename__ = "flights"
    # "Flights to Doha", "which destinations have flights": one index probe per destination.
    __table_args__ = (
        Index("ix_flights_destination_id_departs_at", "destination_id", "departs_at"),
        # The editors' console lists the flights checked longest ago first, and those that
        # expired last (migration 0007).
        Index("ix_flights_verified_at", "verified_at"),
        Index("ix_flights_valid_until", "valid_until"),
        # What needs an editor now: ranges of current flights only (migration 0013).
        current_only("ix_flights_current_checks", "verified_at", "valid_until", "departs_at"),
        current_only("ix_flights_current_expiry", "valid_until", "departs_at", "verified_at"),
        # The console's records list, in its order; a search by number reads this alone.
        Index("ix_flights_departs_at_flight_number", "departs_at", "flight_number"),
        current_only(
            "ix_flights_untranslated",
            "departs_at",
            "flight_number",
            where=untranslated("eligibility", "assembly_point"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    flight_number: Mapped[str] = mapped_column(String(16), index=True)
    operator_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"))
    origin_id: Mapped[int] = mapped_column(ForeignKey("airports.id"))
    destination_id: Mapped[int] = mapped_column(ForeignKey("airports.id"))
    departs_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    status: Mapped[FlightStatus] = mapped_column(choice(FlightStatus, "status"))
    eligibility_en: Mapped[str] = mapped_column(Text)
    eligibility_prs: Mapped[str] = mapped_column(Text)
    eligibility_ps: Mapped[str] = mapped_column(Text)
    assembly_point_en: Mapped[str] = mapped_column(Text)
    assembly_point_prs: Mapped[str] = mapped_column(Text)
    assembly_point_ps: Mapped[str] = mapped_column(Text)
    #: The country it evacuates people for, as its editor knows it (not guessed from its
    #: operator or its texts): a German flight to Tashkent answers "flights to Germany" too.
    evacuates_for: Mapped[Country | None] = mapped_column(country_code())

    operator: Mapped[Organisation] = relationship(foreign_keys=[operator_id])
    origin: Mapped[Airport] = relationship(foreign_keys=[origin_id])
    destination: Mapped[Airport] = relationship(foreign_keys=[destination_id])


class Announcement(Provenance, Withdrawable, Base):
    """An official announcement; ``valid_until`` is set only when it lapses (e.g. a warning)."""

    __tablename__ = "announcements"
    __table_args__ = (
        current_only("ix_announcements_current_checks", "verified_at", "valid_until"),
        current_only(
            "ix_announcements_untranslated",
            "published_at",
            "id",
            where=untranslated("title", "text"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    issuer_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"))
    kind: Mapped[AnnouncementKind] = mapped_column(choice(AnnouncementKind, "kind"))
    published_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    verification: Mapped[Verification] = mapped_column(choice(Verification, "verification"))
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


class GuidanceTopic(Placed, Provenance, Withdrawable, Base):
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
    kind: Mapped[GuidanceKind] = mapped_column(choice(GuidanceKind, "kind"), index=True)
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
    # Danger first (kernel/danger.py): the dangers a contact's line answers ("missing,medical"),
    # and when it answers, daily in Kabul time ("08:00-16:00"; "00:00-00:00" day and night).
    dangers: Mapped[str | None] = mapped_column(String(64))
    open_hours: Mapped[str | None] = mapped_column(String(11))

    organisation: Mapped[Organisation | None] = relationship(foreign_keys=[organisation_id])

    def is_current(self, now: datetime) -> bool:
        return self.valid_until is None or now < self.valid_until


#: A claim is about a record wholly or not at all: a kind without a key names nothing.
ABOUT_COMPLETE = "(about_kind IS NULL) = (about_key IS NULL)"


class Claim(Provenance, Withdrawable, Base):
    """A rumour as people tell it, and what editors found it to be: "the Abbey Gate is open for
    everyone" — false, and what to do instead.

    ``claim`` is the rumour in a few words (people read it as the name of what they heard),
    ``explanation`` says why the verdict and what to do instead. ``phrasings`` are the other
    ways people say it, in any language or script ("abbey gate baz ast", "ابی گیټ خلاص دی"),
    for recognising it in what they write. They are a JSON list on the claim's row rather
    than rows of a child table: a revision is a snapshot of one row, so it carries them and a
    rollback restores them with the verdict, and whoever matches claims reads every claim
    with its phrasings in one query. ``about_kind`` and ``about_key`` optionally name the
    record the claim is about (checked when it is published). ``valid_until`` is set only for
    a verdict that lapses.
    """

    __tablename__ = "claims"
    __table_args__ = (
        CheckConstraint(ABOUT_COMPLETE, name="about_complete"),
        current_only("ix_claims_current_checks", "verified_at", "valid_until"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    verdict: Mapped[ClaimVerdict] = mapped_column(choice(ClaimVerdict, "verdict"))
    claim_en: Mapped[str] = mapped_column(NAME)
    claim_prs: Mapped[str] = mapped_column(NAME)
    claim_ps: Mapped[str] = mapped_column(NAME)
    explanation_en: Mapped[str] = mapped_column(Text)
    explanation_prs: Mapped[str] = mapped_column(Text)
    explanation_ps: Mapped[str] = mapped_column(Text)
    phrasings: Mapped[list[str]] = mapped_column(JSON, default=list)
    about_kind: Mapped[ClaimAbout | None] = mapped_column(choice(ClaimAbout, "about_kind"))
    about_key: Mapped[str | None] = mapped_column(String(128))
    valid_until: Mapped[datetime | None] = mapped_column(UTCDateTime)

    def is_current(self, now: datetime) -> bool:
        return self.valid_until is None or now < self.valid_until


class Answer(Provenance, Withdrawable, Base):
    """An editor's answer to a question people ask that no fixed topic answers: "Is the Torkham
    border open?" and what is known, with its source.

    ``question`` is the question in a few words (offered as a choice when a message comes close
    to several answers, and named to those told later); ``answer`` is what people are told.
    ``phrasings`` are the other ways people ask it, in any language or script, kept on the row
    as a claim's are (a revision carries them; the matcher reads every answer in one query).
    Published answers are found without a retrain (``actions/chat/written.py``).
    """

    __tablename__ = "answers"
    __table_args__ = (current_only("ix_answers_current_checks", "verified_at", "valid_until"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(SLUG, unique=True)
    question_en: Mapped[str] = mapped_column(NAME)
    question_prs: Mapped[str] = mapped_column(NAME)
    question_ps: Mapped[str] = mapped_column(NAME)
    answer_en: Mapped[str] = mapped_column(Text)
    answer_prs: Mapped[str] = mapped_column(Text)
    answer_ps: Mapped[str] = mapped_column(Text)
    phrasings: Mapped[list[str]] = mapped_column(JSON, default=list)
    valid_until: Mapped[datetime | None] = mapped_column(UTCDateTime)

    def is_current(self, now: datetime) -> bool:
        return self.valid_until is None or now < self.valid_until
