"""Writes the current content as a content file, the format ``demo.yml`` documents.

Times are absolute (``departs_at``, ``verified_at``, ``valid_until``, ``published``) in Kabul
time with their offset, so an export means the same whenever it is imported, and reads the way
editors in Kabul think. Withdrawn records are left out; a text missing a translation is written
with the languages it has (importing it back then needs ``--allow-missing-translation``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import yaml
from sqlalchemy.orm import Session

from actions.common.kabul_time import KABUL
from actions.content.fields import FieldType
from actions.content.models import (
    Airport,
    Announcement,
    Claim,
    Flight,
    Gate,
    GuidanceKind,
    GuidanceTopic,
    Organisation,
    RecordKind,
)
from actions.content.records import spec_for
from actions.content.review import records
from actions.content.seed.records import BY_FIELDS
from kernel.lang.codes import LANGUAGES

HEADER = (
    "# Content exported by `python -m actions.content export`.\n"
    "# Format: actions/content/seed/demo.yml; times are absolute, in Kabul time (+04:30).\n"
    "# Import with `python -m actions.content import FILE --editor NAME`.\n\n"
)


def export_document(session: Session) -> dict[str, Any]:
    """Every current record, grouped and ordered as in ``demo.yml``."""
    orgs: list[Organisation] = [row for _, row in records(session, RecordKind.ORGANISATION)]
    airports: list[Airport] = [row for _, row in records(session, RecordKind.AIRPORT_NAME)]
    document: dict[str, Any] = {
        "organisations": {org.slug: _organisation(org) for org in orgs},
        "airports": [
            {
                "iata": a.iata,
                "place": a.place,
                **_texts_of(a, "name", "city"),
                **_country(a, "country"),
                **_place(a),
            }
            for a in airports
        ],
        "airport_statuses": _statuses(session, airports),
        "flights": [_flight(row) for _, row in records(session, RecordKind.FLIGHT)],
        "announcements": [
            _announcement(row) for _, row in reversed(records(session, RecordKind.ANNOUNCEMENT))
        ],
    }
    topics: list[GuidanceTopic] = [row for _, row in records(session, RecordKind.GUIDANCE)]
    for kind in GuidanceKind:
        document[kind.value] = [_topic(topic) for topic in topics if topic.kind is kind]
    document["claims"] = [_claim(row) for _, row in records(session, RecordKind.CLAIM)]
    for name, plain in BY_FIELDS.items():
        document[name] = [by_fields(key, row, plain) for key, row in records(session, plain)]
    return {name: section for name, section in document.items() if section}


def dump(document: dict[str, Any]) -> str:
    body = yaml.safe_dump(
        document, allow_unicode=True, sort_keys=False, width=100, default_flow_style=False
    )
    return HEADER + body


def count(document: dict[str, Any]) -> str:
    """ "15 organisations, 13 airports, …" for the CLI's one-line report."""
    gates = sum(len(entry.get("gates", [])) for entry in document.get("airport_statuses", []))
    guidance = sum(len(document.get(kind.value, [])) for kind in GuidanceKind)
    parts = {
        "organisations": len(document.get("organisations", {})),
        "airports": len(document.get("airports", [])),
        "gates": gates,
        "flights": len(document.get("flights", [])),
        "announcements": len(document.get("announcements", [])),
        "guidance topics": guidance,
        "claims": len(document.get("claims", [])),
        **{name: len(document.get(name, [])) for name in BY_FIELDS},
    }
    return ", ".join(f"{number} {name}" for name, number in parts.items())


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(KABUL).isoformat()


def _organisation(org: Organisation) -> dict[str, Any]:
    """Its names, and when its caseworkers answer people, if they do."""
    entry: dict[str, Any] = _texts(org, "name")
    if org.case_hours is not None:
        entry["casework"] = {"hours": org.case_hours, "wait_minutes": org.case_wait_minutes}
    return entry


def _texts(row: Any, field: str) -> dict[str, str]:
    """The languages a text has; a missing translation is left out, not written empty."""
    texts = {lang: getattr(row, f"{field}_{lang}") for lang in LANGUAGES}
    return {lang: text for lang, text in texts.items() if text}


def _texts_of(row: Any, *fields: str) -> dict[str, dict[str, str]]:
    return {field: _texts(row, field) for field in fields}


def _country(row: Any, field: str) -> dict[str, str]:
    """A country, when an editor gave one (left out otherwise, as the file writes it)."""
    value = getattr(row, field)
    return {} if value is None else {field: value.value}


def _place(row: Any) -> dict[str, float]:
    """Its position, when it has one (written as the pair or not at all)."""
    if row.latitude is None or row.longitude is None:
        return {}
    return {"latitude": row.latitude, "longitude": row.longitude}


def _provenance(row: Any) -> dict[str, Any]:
    facts = {"source": row.source.slug, "verified_at": _time(row.verified_at)}
    if row.valid_until is not None:
        facts["valid_until"] = _time(row.valid_until)
    return facts


def _statuses(session: Session, airports: Iterable[Airport]) -> list[dict[str, Any]]:
    """Per airport: its status if it has one, and its gates (an entry may have only gates)."""
    gates: dict[int, list[Gate]] = {}
    for _, gate in records(session, RecordKind.GATE):
        gates.setdefault(gate.airport_id, []).append(gate)
    statuses = {row.airport_id: row for _, row in records(session, RecordKind.AIRPORT)}
    entries = []
    for airport in airports:
        status = statuses.get(airport.id)
        if status is None and airport.id not in gates:
            continue
        entry: dict[str, Any] = {"airport": airport.iata}
        if status is not None:
            entry |= {"state": status.state.value, **_texts_of(status, "advice")}
            entry |= _provenance(status)
        if airport.id in gates:
            entry["gates"] = [
                {
                    "slug": gate.slug,
                    **_texts_of(gate, "name"),
                    "state": gate.state.value,
                    **_texts_of(gate, "note"),
                    **_place(gate),
                    **_provenance(gate),
                }
                for gate in gates[airport.id]
            ]
        entries.append(entry)
    return entries


def _flight(flight: Flight) -> dict[str, Any]:
    return {
        "number": flight.flight_number,
        "operator": flight.operator.slug,
        "from": flight.origin.iata,
        "to": flight.destination.iata,
        "departs_at": _time(flight.departs_at),
        "status": flight.status.value,
        **_texts_of(flight, "eligibility", "assembly_point"),
        **_country(flight, "evacuates_for"),
        **_provenance(flight),
    }


def _announcement(announcement: Announcement) -> dict[str, Any]:
    return {
        "slug": announcement.slug,
        "issuer": announcement.issuer.slug,
        "kind": announcement.kind.value,
        "published": _time(announcement.published_at),
        "verification": announcement.verification.value,
        **_texts_of(announcement, "title", "text"),
        **_provenance(announcement),
    }


def _topic(topic: GuidanceTopic) -> dict[str, Any]:
    entry: dict[str, Any] = {"slug": topic.slug, **_texts_of(topic, "title", "body")}
    if topic.kind is GuidanceKind.CONTACTS:
        assert topic.organisation is not None
        entry["organisation"] = topic.organisation.slug
        entry |= {
            name: getattr(topic, name)
            for name in ("phone", "whatsapp", "email", "open_hours", "dangers")
        }
        entry = {name: value for name, value in entry.items() if value is not None}
        entry |= _texts_of(topic, "hours") | _place(topic)
    return entry | _provenance(topic)


def by_fields(key: str, row: Any, kind: RecordKind) -> dict[str, Any]:
    """A record of a kind whose file entry is its slug and its fields (``seed/records.py``
    ``by_fields`` reads it back): texts by language, lines as a list, where there are any."""
    entry: dict[str, Any] = {"slug": key}
    for field in spec_for(kind).fields:
        if field.form is FieldType.TEXT:
            entry |= _texts_of(row, field.name)
        elif field.form is FieldType.LINES and getattr(row, field.name):
            entry[field.name] = list(getattr(row, field.name))
    return entry | _provenance(row)


def _claim(claim: Claim) -> dict[str, Any]:
    """``about`` as ``{kind: key}``, which reads back as it was whatever the key is."""
    entry: dict[str, Any] = {
        "slug": claim.slug,
        **_texts_of(claim, "claim"),
        "verdict": claim.verdict.value,
        **_texts_of(claim, "explanation"),
    }
    if claim.about_kind is not None:
        entry["about"] = {claim.about_kind.value: claim.about_key}
    if claim.phrasings:
        entry["phrasings"] = list(claim.phrasings)
    return entry | _provenance(claim)
