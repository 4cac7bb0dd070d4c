"""How a change combines with a record, and the rules a whole record must keep.

Used by :mod:`actions.content.editing`; see its docstring for the rules in editors' words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.content import fields
from actions.content import validation as check
from actions.content.fields import FieldType
from actions.content.keys import FLIGHT_NUMBER_MAX, flight_key, iata_key, within
from actions.content.models import ClaimAbout, Flight, Gate, GuidanceKind, RecordKind
from actions.content.records import KindSpec, spec_for, values_of
from actions.content.validation import ContentError
from kernel.lang.codes import LANGUAGES

CONTACT_DETAILS = (
    "organisation", "phone", "whatsapp", "email", "hours", "open_hours", "dangers", "latitude",
    "longitude",
)  # fmt: skip


class MissingTranslation(ContentError):
    """Texts without every language; ``missing`` maps each field to the languages it lacks."""

    def __init__(self, missing: Mapping[str, Sequence[str]]) -> None:
        self.missing = dict(missing)
        listed = "; ".join(f"{field} in {', '.join(langs)}" for field, langs in missing.items())
        super().__init__(
            None,
            f"missing text: {listed}. Give every language of a text you publish (en, prs, ps), "
            "so that no language keeps an old text; or allow missing translations to publish "
            "now and translate later",
        )


def merged(
    session: Session,
    spec: KindSpec,
    row: Any,
    changes: Mapping[str, Any],
    now: datetime,
    allow_missing: bool,
) -> dict[str, Any]:
    """The record's values after ``changes``, with verified_at and validity defaulted."""
    known = [field.name for field in spec.fields]
    unknown = sorted(set(changes) - set(known))
    if unknown:
        raise ContentError(
            None,
            f"{spec.a_kind} has no field {', '.join(unknown)}; its fields: {', '.join(known)}",
        )
    current = values_of(spec, row)
    values, only_translations = dict(current), True
    missing: dict[str, list[str]] = {}
    for field in spec.fields:
        if field.form is FieldType.TEXT:
            if field.name in changes or current[field.name] is None:
                value, fills_in, lacking = _text(
                    session, field, current[field.name], changes.get(field.name), allow_missing
                )
                values[field.name] = value
                only_translations &= fills_in
                if lacking:
                    missing[field.name] = lacking
        elif field.name in changes:
            values[field.name] = fields.coerce(session, field, changes[field.name])
            only_translations &= values[field.name] == current[field.name]
    if missing:
        if allow_missing:
            name = next(iter(missing))
            raise ContentError(name, "needs a text in at least one language")
        raise MissingTranslation(missing)
    if spec.has("verified_at") and "verified_at" not in changes and not only_translations:
        values["verified_at"] = now
        window = _window(spec, current)
        if window is not None and "valid_until" not in changes:
            values["valid_until"] = now + window
    return values


def _text(
    session: Session,
    field: fields.Field,
    previous: dict[str, str] | None,
    raw: Any,
    allow_missing: bool,
) -> tuple[dict[str, str] | None, bool, list[str]]:
    """A text after a change: its value, whether the change only filled in missing languages,
    and the languages whose absence makes it unpublishable (none if it may be published).
    """
    texts = fields.coerce(session, field, raw)
    if texts is None and not field.required:
        return None, previous is None, []
    if texts and previous is not None and not any(previous[lang] for lang in texts):
        return {**previous, **texts}, True, []
    value: dict[str, str] = {lang: (texts or {}).get(lang, "") for lang in LANGUAGES}
    lacking: list[str] = [lang for lang in LANGUAGES if not value[lang]]
    refused = len(lacking) == len(LANGUAGES) or (bool(lacking) and not allow_missing)
    return value, False, lacking if refused else []


def _window(spec: KindSpec, current: dict[str, Any]) -> timedelta | None:
    """How long a re-verified volatile fact stays valid: as long as it did last time."""
    if not spec.has("valid_until") or not spec.field("valid_until").required:
        return None
    if current.get("verified_at") is None or current.get("valid_until") is None:
        return None
    window = current["valid_until"] - current["verified_at"]
    return window if window.total_seconds() > 0 else None


def check_record(
    session: Session,
    spec: KindSpec,
    row: Any,
    new_key: str | None,
    values: dict[str, Any],
    now: datetime,
) -> None:
    """Whole-record rules; ``new_key`` is the key a record being created must end up with."""
    for field in spec.fields:
        if field.required and values[field.name] is None:
            raise ContentError(field.name, f"is missing ({field.help})")
    verified = values.get("verified_at")
    if verified is not None and verified > now:
        raise ContentError(
            "verified_at",
            f"is {verified.isoformat()}, in the future; give when you checked it, or leave it out "
            "for now",
        )
    until = values.get("valid_until")
    if verified is not None and until is not None and until <= verified:
        raise ContentError(
            "valid_until",
            f"is {until.isoformat()}, not after verified_at {verified.isoformat()}: "
            "give a later time or a longer validity",
        )
    if spec.has("latitude"):
        _check_place(values)
    if spec.kind is RecordKind.FLIGHT:
        _check_flight(session, row, new_key, values)
    if spec.kind is RecordKind.GUIDANCE:
        _check_contact(values)
    if spec.kind is RecordKind.CLAIM:
        values["about_key"] = _about(session, values["about_kind"], values["about_key"])


def _check_place(values: dict[str, Any]) -> None:
    """A position is a pair: half of one would put the place on a line around the Earth."""
    given = [name for name in ("latitude", "longitude") if values.get(name) is not None]
    if len(given) == 1:
        missing = "longitude" if given == ["latitude"] else "latitude"
        raise ContentError(missing, "is missing: give both latitude and longitude, or neither")


def _check_flight(
    session: Session, row: Flight, new_key: str | None, values: dict[str, Any]
) -> None:
    if values["origin"] is values["destination"]:
        raise ContentError("destination", "is the same airport as the origin")
    key = flight_key(row.flight_number, values["departs_at"])
    if new_key is not None and key != new_key:
        raise ContentError(
            "departs_at", f"is on another Kabul day than the key {new_key} says (that is {key})"
        )
    other = spec_for(RecordKind.FLIGHT).find(session, key)
    if other is not None and other is not row:
        raise ContentError("departs_at", f"would give the key {key}, which another flight has")


def _check_contact(values: dict[str, Any]) -> None:
    """Contacts say who answers, when and how; other guidance carries no contact details."""
    if values["kind"] is GuidanceKind.CONTACTS:
        for name in ("organisation", "hours"):
            if values[name] is None:
                raise ContentError(name, "is missing: a contact says who answers and when")
        if not any(values[name] for name in ("phone", "whatsapp", "email")):
            raise ContentError("phone", "a contact needs at least one of phone, whatsapp, email")
        return
    for name in CONTACT_DETAILS:
        if values[name] is not None:
            raise ContentError(name, f"is only for contacts, not {values['kind'].value}; clear it")


def _about(session: Session, kind: ClaimAbout | None, key: str | None) -> str | None:
    """The key of the record a claim is about, as stored (``KBL/abbey-gate``, ``RCH871``), or
    ContentError if no current record has it: a claim must not point at nothing."""
    if kind is None and key is None:
        return None
    if kind is None or key is None:
        missing = "about_kind" if kind is None else "about_key"
        raise ContentError(missing, "is missing: give both about_kind and about_key, or neither")
    try:
        return _about_key(session, kind, key)
    except ContentError as error:
        if error.field is not None:
            raise
        raise ContentError("about_key", error.problem) from None


def _about_key(session: Session, kind: ClaimAbout, key: str) -> str:
    if kind is ClaimAbout.GATE and "/" not in key:
        return _airport_gates(session, iata_key(key))
    if kind is ClaimAbout.FLIGHT and "@" not in key:
        return _flight_number(session, key)
    spec = spec_for(kind.value)
    key = spec.normalise(key)
    row = spec.find(session, key)
    if row is None or row.withdrawn_at is not None:
        state = "unknown" if row is None else "withdrawn"
        raise ContentError(None, f"refers to {state} {kind.value} {key}; see `list {kind.value}`")
    return key


def _airport_gates(session: Session, iata: str) -> str:
    """All of an airport's gates: it must have a current one."""
    airport = fields.find_airport(session, "about_key", iata)
    current = select(Gate.id).where(Gate.airport_id == airport.id, Gate.withdrawn_at.is_(None))
    if session.scalars(current.limit(1)).first() is None:
        raise ContentError("about_key", f"refers to the gates of {iata}, which has none listed")
    return iata


def _flight_number(session: Session, number: str) -> str:
    """Every flight with this number (a rumour rarely knows the day): one must be current."""
    number = "".join(number.split()).upper()
    if not check.FLIGHT_NUMBER.fullmatch(number):
        raise ContentError("about_key", f"is {number!r}: a flight number like RCH871 or a key")
    within("flight number", number, FLIGHT_NUMBER_MAX)
    current = select(Flight.id).where(Flight.flight_number == number, Flight.withdrawn_at.is_(None))
    if session.scalars(current.limit(1)).first() is None:
        raise ContentError("about_key", f"refers to unknown flight {number}; see `list flight`")
    return number


def stored(session: Session, field: fields.Field, value: Any) -> Any:
    """A value from a revision snapshot, as the row holds it (texts with every language)."""
    coerced = fields.coerce(session, field, value)
    if field.form is FieldType.TEXT and coerced is not None:
        return {lang: coerced.get(lang, "") for lang in LANGUAGES}
    return coerced
