"""The kinds of record editors change, each with its stable key and its editable fields.

Keys are what an editor types and what history is filed under:

==============  ======================  ==========================================
kind            key                     example
==============  ======================  ==========================================
organisation    slug                    ``us-embassy-kabul``
airport-name    IATA code               ``KBL`` (names, city, canonical place)
airport         IATA code               ``KBL`` (the status: open, restricted, …)
gate            IATA/slug               ``KBL/abbey-gate``
flight          number@Kabul date       ``QR8010@2021-08-24`` (date of departure)
announcement    slug                    ``taliban-amnesty-2021-08-17``
guidance        slug                    ``keep-documents-hidden``
claim           slug                    ``abbey-gate-open-to-all``
answer          slug                    ``torkham-border``
==============  ======================  ==========================================

A flight's key follows its departure day (a flight moved past midnight gets a new key); its
revisions are filed under its row, so its history stays whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from actions.content import fields as f
from actions.content import keys
from actions.content import kinds as k
from actions.content import validation as check
from actions.content.fields import Field, FieldType
from actions.content.kinds import Alert, Asked, Freshness, Preview, TitleReads
from actions.content.models import (
    Airport,
    AirportState,
    AirportStatus,
    Announcement,
    AnnouncementKind,
    Answer,
    Claim,
    ClaimAbout,
    ClaimVerdict,
    Flight,
    FlightStatus,
    Gate,
    GateState,
    GuidanceKind,
    GuidanceTopic,
    Organisation,
    RecordKind,
    Verification,
)
from actions.settings import FreshnessLimits

#: A claim is read as the name of what people heard: a few words.
CLAIM_MAX = 80
#: A question is offered as one of a few choices ("which question is yours?"): a few words.
QUESTION_MAX = 80


@dataclass(frozen=True)
class KindSpec:
    kind: RecordKind
    model: type[Any]
    fields: tuple[Field, ...]
    key_example: str
    #: The key as stored (upper-case codes), or ContentError.
    normalise: Callable[[str], str]
    find: Callable[[Session, str], Any | None]
    create: Callable[[Session, str], Any]
    key_of: Callable[[Any], str]
    ordered: Callable[[], Select[Any]]
    # What the readers above content ask of a kind (kinds.py). Every kind states each of them,
    # even as "none", so that a new kind cannot leave one out by accident.
    #: Its freshness limits (none: it has no provenance to go stale).
    freshness: tuple[Freshness, ...]
    #: Whether its facts lapse at ``valid_until`` (the needs page lists those that did).
    volatile: bool
    #: The record as an editor recognises it in a list, and the columns that title reads.
    title: Callable[[Any, str], str]
    title_reads: TitleReads
    #: Its place in the console's menu: what changes by the hour first.
    menu: int
    preview: Preview
    #: Whom a published change is news for (None: nobody).
    alert: Alert | None
    #: What an SMS check line calls one of its facts (None: it has no provenance).
    sms_label: Callable[[Any, str], str] | None

    def field(self, name: str) -> Field:
        return next(field for field in self.fields if field.name == name)

    def has(self, name: str) -> bool:
        return any(field.name == name for field in self.fields)

    @property
    def a_kind(self) -> str:
        """ "an airport", "a gate": the kind with its article, for help and error texts."""
        article = "an" if self.kind.value[0] in "aeiou" else "a"
        return f"{article} {self.kind.value}"

    def limit(self, limits: FreshnessLimits, row: Any) -> timedelta:
        """How long after its last check ``row`` is shown without a warning."""
        return k.freshness_limit(self.freshness, row, limits)

    def asked(self, key: str, row: Any) -> tuple[Asked, ...]:
        """The questions the record answers, the first one first."""
        return self.preview.asks(key, row)


SPECS: dict[RecordKind, KindSpec] = {
    spec.kind: spec
    for spec in (
        KindSpec(
            RecordKind.ORGANISATION,
            Organisation,
            (
                f.text("name", "the organisation's name", long=False),
                Field(
                    "case_hours",
                    FieldType.STRING,
                    "caseworkers answer people daily in these hours, Kabul time",
                    required=False,
                    max_length=11,
                    pattern=check.CASE_HOURS,
                    example="08:00-20:00",
                ),
                Field(
                    "case_wait_minutes",
                    FieldType.NUMBER,
                    "the usual wait for a caseworker, in minutes",
                    required=False,
                ),
            ),
            "us-embassy-kabul",
            keys.slug_key("organisation", "us-embassy-kabul"),
            keys.by(Organisation, "slug"),
            lambda _session, key: Organisation(slug=key),
            lambda row: str(row.slug),
            lambda: select(Organisation).order_by(Organisation.slug),
            freshness=(),
            volatile=False,
            title=k.named,
            title_reads=TitleReads(("slug", "name")),
            menu=8,
            preview=Preview(k.asked_inside_others, k.no_question),
            alert=None,
            sms_label=None,
        ),
        KindSpec(
            RecordKind.AIRPORT_NAME,
            Airport,
            (
                Field("place", FieldType.STRING, "canonical English name: Doha", max_length=64),
                f.text("name", "the airport's name", long=False),
                f.text("city", "the place as users read it", long=False),
                f.country("country", "optional: the country it is in, ISO code: DE"),
                *f.PLACE,
            ),
            "KBL",
            keys.iata_key,
            keys.by(Airport, "iata"),
            lambda _session, key: Airport(iata=key),
            lambda row: str(row.iata),
            lambda: select(Airport).order_by(Airport.iata),
            freshness=(),
            volatile=False,
            title=k.named,
            title_reads=TitleReads(("iata", "name")),
            menu=9,
            preview=Preview(k.airport_asked, k.no_question),
            alert=None,
            sms_label=None,
        ),
        KindSpec(
            RecordKind.AIRPORT,
            AirportStatus,
            (
                f.choice("state", AirportState, "is the airport open", aliases=("status",)),
                f.text("advice", "crowd and safety advice"),
                *f.PROVENANCE,
                f.VALID_UNTIL,
            ),
            "KBL",
            keys.iata_key,
            keys.find_status,
            lambda session, key: AirportStatus(
                airport_id=f.find_airport(session, "airport", key).id
            ),
            lambda row: str(row.airport.iata),
            lambda: select(AirportStatus).join(AirportStatus.airport).order_by(Airport.iata),
            freshness=(Freshness("airport"),),
            volatile=True,
            title=k.airport_status_title,
            title_reads=TitleReads(("airport_id",), "airport", ("iata", "name")),
            menu=1,
            preview=Preview(k.airport_asked, k.no_question),
            alert=Alert("airport", frozenset({"state", "advice"}), k.airport_about),
            sms_label=k.airport_label,
        ),
        KindSpec(
            RecordKind.GATE,
            Gate,
            (
                f.text("name", "the gate's name", long=False),
                f.choice("state", GateState, "is the gate open"),
                f.text("note", "who may use it, what to do"),
                Field("position", FieldType.NUMBER, "order in the list (default: last)"),
                *f.PLACE,
                *f.PROVENANCE,
                f.VALID_UNTIL,
            ),
            "KBL/abbey-gate",
            keys.gate_key,
            keys.find_gate,
            keys.new_gate,
            lambda row: f"{row.airport.iata}/{row.slug}",
            lambda: select(Gate).join(Gate.airport).order_by(Airport.iata, Gate.position),
            freshness=(Freshness("airport"),),
            volatile=True,
            title=k.gate_title,
            title_reads=TitleReads(("slug", "airport_id", "name"), "airport", ("iata",)),
            menu=2,
            preview=Preview(k.gate_asked, k.gate_question),
            alert=Alert("airport", frozenset({"state", "note"}), k.gate_about),
            sms_label=k.gate_label,
        ),
        KindSpec(
            RecordKind.FLIGHT,
            Flight,
            (
                f.organisation("operator", "slug of who flies it, e.g. us-air-force"),
                Field("origin", FieldType.AIRPORT, "IATA code it leaves from", option="from"),
                Field("destination", FieldType.AIRPORT, "IATA code it flies to", option="to"),
                f.moment("departs_at", "scheduled departure"),
                f.choice("status", FlightStatus, "where the flight stands"),
                f.text("eligibility", "who may board"),
                f.text("assembly_point", "where to gather"),
                f.country(
                    "evacuates_for",
                    "optional: the country it evacuates people for, ISO code: DE",
                ),
                *f.PROVENANCE,
                f.VALID_UNTIL,
            ),
            "QR8010@2021-08-24",
            keys.flight_key_from,
            keys.find_flight,
            lambda _session, key: Flight(flight_number=key.split("@")[0]),
            lambda row: keys.flight_key(row.flight_number, row.departs_at),
            lambda: select(Flight).order_by(Flight.departs_at, Flight.flight_number),
            freshness=(Freshness("flights"),),
            volatile=True,
            title=k.flight_title,
            title_reads=TitleReads(
                ("flight_number", "departs_at", "destination_id"), "destination", ("iata", "city")
            ),
            menu=3,
            preview=Preview(k.flight_asked, k.no_question),
            alert=Alert(
                "flights",
                frozenset({"status", "departs_at", "eligibility", "assembly_point"}),
                k.flight_about,
            ),
            sms_label=k.flight_label,
        ),
        KindSpec(
            RecordKind.ANNOUNCEMENT,
            Announcement,
            (
                f.organisation("issuer", "slug of who announced it"),
                f.choice("kind", AnnouncementKind, "what it is about"),
                f.moment("published_at", "when it was announced"),
                f.choice("verification", Verification, "is it independently confirmed"),
                f.text("title", "a few words", long=False),
                f.text("text", "what was announced"),
                *f.PROVENANCE,
                f.OPTIONAL_VALID_UNTIL,
            ),
            "taliban-amnesty-2021-08-17",
            keys.slug_key("announcement", "taliban-amnesty-2021-08-17"),
            keys.by(Announcement, "slug"),
            lambda _session, key: Announcement(slug=key),
            lambda row: str(row.slug),
            lambda: select(Announcement).order_by(
                Announcement.published_at.desc(), Announcement.id.desc()
            ),
            freshness=(Freshness("announcements"),),
            volatile=False,
            title=k.titled,
            title_reads=TitleReads(("slug", "title")),
            menu=4,
            preview=Preview(k.announcement_asked, k.no_question),
            alert=Alert("announcements", frozenset({"title", "text", "verification"}), k.everyone),
            sms_label=k.announcement_label,
        ),
        KindSpec(
            RecordKind.GUIDANCE,
            GuidanceTopic,
            (
                f.choice("kind", GuidanceKind, "which question it answers"),
                Field("position", FieldType.NUMBER, "order within its kind (default: last)"),
                f.text("title", "a few words", long=False),
                f.text("body", "the advice itself"),
                f.organisation("organisation", "contacts: slug of who answers", required=False),
                f.contact("phone", check.PHONE, "+93 700 000 101", "contacts: phone number"),
                f.contact("whatsapp", check.PHONE, "+93 700 000 101", "contacts: WhatsApp"),
                f.contact("email", check.EMAIL, "help@example.org", "contacts: e-mail"),
                f.text("hours", "contacts: opening hours", required=False, long=False),
                Field(
                    "open_hours",
                    FieldType.STRING,
                    "contacts: when it answers, daily, Kabul time (00:00-00:00: day and night)",
                    required=False,
                    pattern=check.CASE_HOURS,
                    example="08:00-16:00",
                ),
                Field(
                    "dangers",
                    FieldType.STRING,
                    "contacts: the dangers it answers: missing, medical, threat",
                    required=False,
                    pattern=check.DANGERS,
                    example="missing,medical",
                ),
                *f.PLACE,
                *f.PROVENANCE,
                f.OPTIONAL_VALID_UNTIL,
            ),
            "keep-documents-hidden",
            keys.slug_key("guidance", "keep-documents-hidden"),
            keys.by(GuidanceTopic, "slug"),
            keys.new_guidance,
            lambda row: str(row.slug),
            lambda: select(GuidanceTopic).order_by(
                GuidanceTopic.kind, GuidanceTopic.position, GuidanceTopic.id
            ),
            freshness=(
                Freshness("contacts", ("kind", GuidanceKind.CONTACTS)),
                Freshness("guidance"),
            ),
            volatile=False,
            title=k.titled,
            title_reads=TitleReads(("slug", "title")),
            menu=7,
            preview=Preview(k.guidance_asked, k.no_question),
            alert=None,
            sms_label=k.titled,
        ),
        KindSpec(
            RecordKind.CLAIM,
            Claim,
            (
                f.choice("verdict", ClaimVerdict, "what editors found the rumour to be"),
                Field(
                    "claim",
                    FieldType.TEXT,
                    "the rumour as people tell it, in a few words",
                    max_length=CLAIM_MAX,
                ),
                f.text("explanation", "why that verdict, and what to do instead"),
                f.lines(
                    "phrasings", "another way people say it, any language or script", "phrasing"
                ),
                f.choice(
                    "about_kind",
                    ClaimAbout,
                    "optional: what kind of record it is about",
                    required=False,
                ),
                Field(
                    "about_key",
                    FieldType.STRING,
                    "optional: which one: KBL (all its gates), KBL/abbey-gate, RCH871, a slug",
                    required=False,
                    max_length=keys.RECORD_KEY_MAX,
                ),
                *f.PROVENANCE,
                f.OPTIONAL_VALID_UNTIL,
            ),
            "abbey-gate-open-to-all",
            keys.slug_key("claim", "abbey-gate-open-to-all"),
            keys.by(Claim, "slug"),
            lambda _session, key: Claim(slug=key, phrasings=[]),
            lambda row: str(row.slug),
            lambda: select(Claim).order_by(Claim.slug),
            freshness=(Freshness("claims"),),
            volatile=False,
            title=k.claim_title,
            title_reads=TitleReads(("slug", "claim", "verdict")),
            menu=5,
            preview=Preview(k.claim_asked, k.no_question),
            # Not news for subscribers of a topic: those who asked about a claim are told
            # of its new verdict on a path of their own.
            alert=None,
            sms_label=k.claim_label,
        ),
        KindSpec(
            RecordKind.ANSWER,
            Answer,
            (
                Field(
                    "question",
                    FieldType.TEXT,
                    "the question it answers, in a few words",
                    max_length=QUESTION_MAX,
                ),
                f.text("answer", "what is known, and what to do"),
                f.lines(
                    "phrasings", "another way people ask it, any language or script", "phrasing"
                ),
                *f.PROVENANCE,
                f.OPTIONAL_VALID_UNTIL,
            ),
            "torkham-border",
            keys.slug_key("answer", "torkham-border"),
            keys.by(Answer, "slug"),
            lambda _session, key: Answer(slug=key, phrasings=[]),
            lambda row: str(row.slug),
            lambda: select(Answer).order_by(Answer.slug),
            freshness=(Freshness("answers"),),
            volatile=False,
            title=k.answer_question,
            title_reads=TitleReads(("slug", "question")),
            menu=6,
            preview=Preview(k.answer_asked, k.answer_question),
            # Not news for subscribers of a topic: those who asked the question when it had no
            # answer are told on a path of their own (``actions/claims/askers.py``).
            alert=None,
            sms_label=k.question_label,
        ),
    )
}


def spec_for(kind: RecordKind | str) -> KindSpec:
    try:
        return SPECS[RecordKind(kind)]
    except ValueError:
        known = ", ".join(kind.value for kind in RecordKind)
        raise check.ContentError(None, f"unknown kind {kind!r}; one of {known}") from None


def spec_of(row: Any) -> KindSpec | None:
    """The kind a row is a record of (None: not a record editors change)."""
    return next((spec for spec in SPECS.values() if isinstance(row, spec.model)), None)


def in_menu() -> list[KindSpec]:
    """Every kind, in the order of the console's menu."""
    return sorted(SPECS.values(), key=lambda spec: spec.menu)


def values_of(spec: KindSpec, row: Any) -> dict[str, Any]:
    """The row's editable fields as Python values (organisations and airports as rows)."""
    return {field.name: f.read(field, row) for field in spec.fields}


def snapshot(spec: KindSpec, row: Any) -> dict[str, Any]:
    """The row as a revision stores it: JSON, readable on its own (slugs, IATA codes, UTC)."""
    stored = {field.name: f.to_json(field, f.read(field, row)) for field in spec.fields}
    stored["withdrawn_at"] = check.in_json(row.withdrawn_at)
    return stored


def users(session: Session, row: Any) -> list[str]:
    """The current records that cite an organisation or an airport, as "kind key"."""
    citing: list[str] = []
    for spec in SPECS.values():
        columns = [
            getattr(spec.model, f"{field.name}_id")
            for field in spec.fields
            if (field.form is FieldType.ORGANISATION and isinstance(row, Organisation))
            or (field.form is FieldType.AIRPORT and isinstance(row, Airport))
        ]
        if isinstance(row, Airport) and spec.model in (AirportStatus, Gate):
            columns.append(spec.model.airport_id)
        for column in columns:
            current = spec.model.withdrawn_at.is_(None)
            statement = select(spec.model).where(column == row.id, current)
            citing += [f"{spec.kind.value} {spec.key_of(r)}" for r in session.scalars(statement)]
    return sorted(set(citing))
