"""The records a content file describes, each with its key, its values and its line.

Parsing checks the file's shape (keys, languages, enums, durations, references within the file
and to what the database already has) before anything is written; the editing service then
checks each record as it would any change.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from actions.content import validation as check
from actions.content.fields import FieldType
from actions.content.keys import FLIGHT_NUMBER_MAX, flight_key
from actions.content.models import (
    AirportState,
    AnnouncementKind,
    ClaimAbout,
    ClaimVerdict,
    Country,
    FlightStatus,
    GateState,
    GuidanceKind,
    RecordKind,
    Verification,
)
from actions.content.records import spec_for
from actions.content.seed.content_file import _Mapping
from actions.content.seed.entries import Entry, SeedError, entries

SECTIONS = (
    "organisations",
    "airports",
    "airport_statuses",
    "flights",
    "announcements",
    "claims",
    "answers",
)
#: The sections whose entries are a slug and their kind's fields, read by ``by_fields``.
BY_FIELDS: dict[str, RecordKind] = {"answers": RecordKind.ANSWER}
#: The guidance sections of a content file, in the order they are answered.
GUIDANCE_SECTIONS: tuple[GuidanceKind, ...] = tuple(GuidanceKind)
#: An airport_statuses entry without these has only gates (its airport has no status).
STATUS_KEYS = (
    "state",
    "advice",
    "source",
    "verified_ago",
    "verified_at",
    "valid_for",
    "valid_until",
)
CONTACT_FIELDS = (
    "organisation", "phone", "whatsapp", "email", "hours", "open_hours", "dangers", "latitude",
    "longitude",
)  # fmt: skip
#: Where a place is: ``latitude: 34.5594`` and ``longitude: 69.2175``, both or neither.
PLACE_LIMITS = {"latitude": 90.0, "longitude": 180.0}


@dataclass(frozen=True)
class Record:
    """One record to publish; ``where`` ("line 12 (flights[0])") prefixes any error."""

    kind: RecordKind
    key: str
    values: dict[str, Any]
    where: str


class _Records(list[Record]):
    """Records in file order; a key used twice is an error naming both lines."""

    def add(
        self, entry: Entry, key_field: str, kind: RecordKind, key: str, values: dict[str, Any]
    ) -> None:
        for seen in self:
            if (seen.kind, seen.key) == (kind, key):
                raise entry.error(key_field, f"{key!r} is already used at {seen.where}")
        self.append(Record(kind, key, values, entry.where))
        entry.done()


def parse(
    document: _Mapping,
    now: datetime,
    known_orgs: Collection[str] = (),
    known_airports: Collection[str] = (),
    allow_missing: bool = False,
) -> list[Record]:
    """Every record in the document; organisations and airports may also be ``known`` ones."""
    top = Entry(document, "top level", now)
    for name in (*SECTIONS, *(kind.value for kind in GUIDANCE_SECTIONS)):
        top.raw(name, required=False)
    top.done()
    records = _Records()
    orgs = {*known_orgs, *_organisations(document, now, allow_missing, records)}
    airports = set(known_airports)

    def section(name: str) -> list[Entry]:
        return entries(document, name, now, allow_missing)

    for entry in section("airports"):
        iata = entry.text("iata").upper()
        airports.add(iata)
        values = {
            "place": entry.text("place"),
            **_texts(entry, "name", "city"),
            "country": _country(entry, "country"),
            **_place(entry),
        }
        records.add(entry, "iata", RecordKind.AIRPORT_NAME, iata, values)
    for entry in section("airport_statuses"):
        _status_and_gates(entry, orgs, airports, records)
    for entry in section("flights"):
        _flight(entry, orgs, airports, records)
    for entry in section("announcements"):
        values = {
            "issuer": entry.ref("issuer", orgs),
            "kind": entry.choice("kind", AnnouncementKind),
            "published_at": entry.moment("published"),
            "verification": entry.choice("verification", Verification),
            **_texts(entry, "title", "text"),
            **entry.provenance(orgs, volatile=False),
        }
        records.add(entry, "slug", RecordKind.ANNOUNCEMENT, entry.text("slug"), values)
    for kind in GUIDANCE_SECTIONS:
        for position, entry in enumerate(section(kind.value)):
            contact = _contact(entry, orgs) if kind is GuidanceKind.CONTACTS else {}
            values = {
                "kind": kind,
                "position": position,
                **_texts(entry, "title", "body"),
                **{name: contact.get(name) for name in CONTACT_FIELDS},
                **entry.provenance(orgs, volatile=False),
            }
            records.add(entry, "slug", RecordKind.GUIDANCE, entry.text("slug"), values)
    for entry in section("claims"):
        _claim(entry, orgs, records)
    for name, plain in BY_FIELDS.items():
        for entry in section(name):
            records.add(entry, "slug", plain, entry.text("slug"), by_fields(entry, plain, orgs))
    return records


def by_fields(entry: Entry, kind: RecordKind, orgs: Collection[str]) -> dict[str, Any]:
    """A record of a kind whose file entry is its slug and its fields as ``KindSpec`` has
    them: a text as ``{en, prs, ps}``, lines as a list, its source and when it was checked."""
    spec = spec_for(kind)
    values: dict[str, Any] = entry.provenance(orgs, volatile=spec.volatile)
    for field in spec.fields:
        if field.form is FieldType.TEXT:
            values[field.name] = entry.localised(field.name, field.required)
        elif field.form is FieldType.LINES:
            values[field.name] = _lines(entry, field.name)
        elif field.name not in values:
            raise SeedError(f"{entry.where}: a {field.form.value} field has no file form yet")
    return values


def _lines(entry: Entry, name: str) -> list[str]:
    said = entry.raw(name, required=False) or []
    if not isinstance(said, list):
        raise entry.error(name, "must be a list")
    try:
        return check.lines(name, said, 200)
    except check.ContentError as error:
        raise SeedError(f"{entry.where}: {error}") from None


def _organisations(
    document: _Mapping, now: datetime, allow_missing: bool, records: _Records
) -> list[str]:
    """``organisations: {slug: {en, prs, ps}}``; each is reported at the line of its names."""
    section = document.get("organisations") or _Mapping()
    for slug in section:
        casework, names_only = _casework(section[slug], slug, now)
        holder = _Mapping({slug: names_only})
        holder.line = section.line
        names = Entry(holder, "organisations", now, allow_missing)
        if not isinstance(slug, str) or not check.SLUG.fullmatch(slug):
            raise names.error(str(slug), "is not a slug: lower case, digits and -")
        names.where = f"line {getattr(section[slug], 'line', section.line)} (organisations.{slug})"
        values = {"name": names.localised(slug), **casework}
        records.append(Record(RecordKind.ORGANISATION, slug, values, names.where))
    return list(section)


def _casework(value: Any, slug: object, now: datetime) -> tuple[dict[str, Any], Any]:
    """An organisation's optional ``casework: {hours: "08:00-20:00", wait_minutes: 20}`` (its
    caseworkers answer people, docs/HANDOFF.md), and its names without it."""
    if not isinstance(value, _Mapping) or "casework" not in value:
        return {}, value
    names_only = _Mapping({key: text for key, text in value.items() if key != "casework"})
    names_only.line = value.line
    entry = Entry(value["casework"], f"organisations.{slug}.casework", now)
    hours = _matching(entry, "hours", check.CASE_HOURS, "08:00-20:00")
    try:
        wait = check.number("wait_minutes", entry.raw("wait_minutes"))
    except check.ContentError as error:
        raise SeedError(f"{entry.where}: {error}") from None
    entry.done()
    return {"case_hours": hours, "case_wait_minutes": wait}, names_only


def _status_and_gates(
    entry: Entry, orgs: Collection[str], airports: Collection[str], records: _Records
) -> None:
    """An airport's status (optional: an entry may list gates only) and its gates in order."""
    iata = str(entry.ref("airport", airports))
    gates = entries(entry.data, "gates", entry.now, entry.allow_missing)
    entry.used.add("gates")
    if any(entry.has(key) for key in STATUS_KEYS):
        values = {
            "state": entry.choice("state", AirportState),
            **_texts(entry, "advice"),
            **entry.provenance(orgs, volatile=True),
        }
        records.add(entry, "airport", RecordKind.AIRPORT, iata, values)
    else:
        entry.done()
    for position, gate in enumerate(gates):
        key = f"{iata}/{gate.text('slug')}"
        values = {
            "position": position,
            "state": gate.choice("state", GateState),
            **_texts(gate, "name", "note"),
            **_place(gate),
            **gate.provenance(orgs, volatile=True),
        }
        records.add(gate, "slug", RecordKind.GATE, key, values)


def _flight(
    entry: Entry, orgs: Collection[str], airports: Collection[str], records: _Records
) -> None:
    number = entry.text("number")
    if not check.FLIGHT_NUMBER.fullmatch(number):
        raise entry.error("number", f"is {number!r}; write it upper case without spaces")
    if len(number) > FLIGHT_NUMBER_MAX:
        raise entry.error(
            "number", f"is {number!r}, {len(number)} characters long; at most {FLIGHT_NUMBER_MAX}"
        )
    departs_at = entry.time("departs_in", "departs_at")
    assert departs_at is not None
    values = {
        "operator": entry.ref("operator", orgs),
        "origin": entry.ref("from", airports),
        "destination": entry.ref("to", airports),
        "departs_at": departs_at,
        "status": entry.choice("status", FlightStatus),
        **_texts(entry, "eligibility", "assembly_point"),
        "evacuates_for": _country(entry, "evacuates_for"),
        **entry.provenance(orgs, volatile=True),
    }
    key = flight_key(number, departs_at)
    records.add(entry, "number", RecordKind.FLIGHT, key, values)


#: ``about: gates``: the gates of Kabul's airport, what most rumours are about.
ALL_GATES = "gates"
KABUL = "KBL"
#: The records a slug names, as ``about`` finds them in the file.
BY_SLUG = (RecordKind.ANNOUNCEMENT, RecordKind.GUIDANCE)


def _claim(entry: Entry, orgs: Collection[str], records: _Records) -> None:
    """A rumour with its verdict; ``about`` and ``phrasings`` are optional."""
    said = _lines(entry, "phrasings")
    about_kind, about_key = _about(entry, records)
    values = {
        "verdict": entry.choice("verdict", ClaimVerdict),
        **_texts(entry, "claim", "explanation"),
        "phrasings": said,
        "about_kind": about_kind,
        "about_key": about_key,
        **entry.provenance(orgs, volatile=False),
    }
    records.add(entry, "slug", RecordKind.CLAIM, entry.text("slug"), values)


def _about(entry: Entry, records: _Records) -> tuple[ClaimAbout | None, str | None]:
    """What ``about`` names: ``gates`` (all of Kabul's), a gate (``KBL/abbey-gate``), a flight
    number (``RCH871``), the slug of an announcement or guidance topic in the file, or any
    record as ``{kind: key}`` (what ``export`` writes: ``{gate: XJD}``). The editing service
    then checks that it exists."""
    about = entry.raw("about", required=False)
    if about is None:
        return None, None
    if isinstance(about, dict) and len(about) == 1:
        [(kind, key)] = about.items()
        allowed = " | ".join(member.value for member in ClaimAbout)
        if kind not in {member.value for member in ClaimAbout} or not isinstance(key, str):
            raise entry.error(
                "about", f"is {dict(about)!r}; expected {{kind: key}}, kind {allowed}"
            )
        return ClaimAbout(kind), key
    if not isinstance(about, str) or not about.strip():
        raise entry.error("about", "must name a record: gates, KBL/abbey-gate, RCH871 or a slug")
    about = about.strip()
    if about == ALL_GATES:
        return ClaimAbout.GATE, KABUL
    if "/" in about:
        return ClaimAbout.GATE, about
    if check.FLIGHT_NUMBER.fullmatch(about) and any(c.isdigit() for c in about):
        return ClaimAbout.FLIGHT, about
    kind = next((seen.kind for seen in records if seen.kind in BY_SLUG and seen.key == about), None)
    if kind is None:
        raise entry.error(
            "about", f"refers to {about!r}, no announcement or guidance topic in the file"
        )
    return ClaimAbout(kind.value), about


def _texts(entry: Entry, *keys: str) -> dict[str, Any]:
    return {key: entry.localised(key) for key in keys}


def _contact(entry: Entry, orgs: Collection[str]) -> dict[str, Any]:
    """Who answers, how to reach them (at least one way) and when."""
    reach = {
        "phone": _matching(entry, "phone", check.PHONE, "+93 700 000 101"),
        "whatsapp": _matching(entry, "whatsapp", check.PHONE, "+93 700 000 101"),
        "email": _matching(entry, "email", check.EMAIL, "help@example.org"),
    }
    if not any(reach.values()):
        raise SeedError(f"{entry.where}: a contact needs at least one of {', '.join(reach)}")
    return {
        "organisation": entry.ref("organisation", orgs),
        **reach,
        **_texts(entry, "hours"),
        "open_hours": _matching(entry, "open_hours", check.CASE_HOURS, "08:00-16:00"),
        "dangers": _matching(entry, "dangers", check.DANGERS, "missing,medical"),
        **_place(entry),
    }


def _country(entry: Entry, key: str) -> Country | None:
    """An optional country, by its ISO code: ``country: DE``."""
    if entry.raw(key, required=False) is None:
        return None
    return entry.choice(key, Country)


def _place(entry: Entry) -> dict[str, float | None]:
    """An optional position; one of the pair without the other is refused."""
    try:
        place = {
            key: None if raw is None else check.degrees(key, raw, limit)
            for key, limit in PLACE_LIMITS.items()
            for raw in [entry.raw(key, required=False)]
        }
    except check.ContentError as error:
        raise SeedError(f"{entry.where}: {error}") from None
    if (place["latitude"] is None) != (place["longitude"] is None):
        raise SeedError(f"{entry.where}: give both latitude and longitude, or neither")
    return place


def _matching(entry: Entry, key: str, pattern: re.Pattern[str], example: str) -> str | None:
    try:
        return check.matching(key, entry.raw(key, required=False), pattern, example)
    except check.ContentError as error:
        raise SeedError(f"{entry.where}: {error}") from None
