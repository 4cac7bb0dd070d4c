"""The editable fields of a record, and how each is read, written and stored in a revision.

One description per field drives validation, revision snapshots, the CLI's options and the
export, so that they cannot disagree about what a field is.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from actions.content import validation as check
from actions.content.models import Airport, Country, Organisation
from kernel.lang.codes import LANGUAGES


class FieldType(enum.Enum):
    TEXT = "text"  # user-facing, one text per language: {en, prs, ps}
    STRING = "string"  # one text in any language: a place name, a phone number
    CHOICE = "choice"
    ORGANISATION = "organisation"  # by slug
    AIRPORT = "airport"  # by IATA code
    TIME = "time"
    NUMBER = "number"
    #: Several short texts in any language or script, one per line in the console: the ways
    #: people phrase a claim. Stored as a list; an empty list when there are none.
    LINES = "lines"
    DEGREES = "degrees"  # a latitude or longitude, within ±``Field.limit``


@dataclass(frozen=True)
class Field:
    name: str
    form: FieldType
    help: str
    required: bool = True
    choices: type[enum.Enum] | None = None
    max_length: int | None = None
    pattern: re.Pattern[str] | None = None
    example: str = ""
    #: The CLI option when it is not the field's name: flights go ``--from`` KBL ``--to`` XJD.
    option: str | None = None
    aliases: tuple[str, ...] = ()
    #: Degrees only: the largest value either way (90 for a latitude, 180 for a longitude).
    limit: float = 0.0

    @property
    def flag(self) -> str:
        return self.option or self.name.replace("_", "-")


def text(name: str, help: str, required: bool = True, long: bool = True) -> Field:
    return Field(name, FieldType.TEXT, help, required, max_length=None if long else 200)


def organisation(name: str, help: str, required: bool = True) -> Field:
    return Field(name, FieldType.ORGANISATION, help, required)


def moment(name: str, help: str, required: bool = True) -> Field:
    return Field(name, FieldType.TIME, help, required)


def lines(name: str, help: str, option: str | None = None, max_length: int = 200) -> Field:
    return Field(name, FieldType.LINES, help, required=False, max_length=max_length, option=option)


def choice(name: str, choices: type[enum.Enum], help: str, **extra: Any) -> Field:
    return Field(name, FieldType.CHOICE, help, choices=choices, **extra)


def contact(name: str, pattern: re.Pattern[str], example: str, help: str) -> Field:
    return Field(name, FieldType.STRING, help, False, None, 254, pattern, example)


def degrees(name: str, limit: float, help: str) -> Field:
    return Field(name, FieldType.DEGREES, help, required=False, example="34.5594", limit=limit)


def country(name: str, help: str) -> Field:
    """An optional country, by its ISO code (models.Country): "DE"."""
    return Field(name, FieldType.CHOICE, help, required=False, choices=Country, example="DE")


#: Where a place people can go is (models.Placed): optional, both or neither (rules.py).
PLACE = (
    degrees("latitude", 90, "where it is: latitude in decimal degrees, e.g. 34.5594"),
    degrees("longitude", 180, "where it is: longitude in decimal degrees, e.g. 69.2175"),
)

PROVENANCE = (
    organisation("source", "slug of the organisation that said it, e.g. us-embassy-kabul"),
    moment("verified_at", "when an editor last checked it (default: now)"),
)
VALID_UNTIL = moment("valid_until", "after this it is shown as out of date")
OPTIONAL_VALID_UNTIL = moment(
    "valid_until", "only for what lapses; after this it is not shown", required=False
)


def read(field: Field, row: Any) -> Any:
    """The field's value on a row; a text is a ``{language: text}`` dict, "" where missing."""
    if field.form is FieldType.TEXT:
        texts = {lang: getattr(row, f"{field.name}_{lang}") for lang in LANGUAGES}
        if all(value is None for value in texts.values()):
            return None
        return {lang: value or "" for lang, value in texts.items()}
    value = getattr(row, field.name)
    if field.form is FieldType.LINES:
        return list(value or ())
    return value


def write(field: Field, row: Any, value: Any) -> None:
    if field.form is FieldType.TEXT:
        for lang in LANGUAGES:
            setattr(row, f"{field.name}_{lang}", None if value is None else value.get(lang, ""))
    elif field.form is FieldType.LINES:
        setattr(row, field.name, list(value or ()))
    else:
        setattr(row, field.name, value)


def to_json(field: Field, value: Any) -> Any:
    """How a revision stores the value: organisations by slug, airports by IATA code."""
    if value is None:
        return None
    if field.form is FieldType.ORGANISATION:
        return value.slug
    if field.form is FieldType.AIRPORT:
        return value.iata
    if field.form is FieldType.TEXT:
        return dict(value)
    if field.form is FieldType.LINES:
        return list(value)
    return check.in_json(value)


def coerce(session: Session, field: Field, value: Any) -> Any:
    """A value an editor gave (or a revision stored) as the row holds it; None clears it.

    Texts come back as the languages given (a subset); the caller merges them.
    """
    if field.form is FieldType.TEXT:
        return None if value is None else check.languages(field.name, value, field.max_length)
    if field.form is FieldType.LINES:
        return check.lines(field.name, value, field.max_length)
    if value is None or value == "":
        return None
    match field.form:
        case FieldType.STRING if field.pattern is not None:
            return check.matching(field.name, value, field.pattern, field.example)
        case FieldType.STRING:
            return check.text(field.name, value, field.max_length)
        case FieldType.CHOICE:
            assert field.choices is not None
            return check.choice(field.name, value, field.choices)
        case FieldType.TIME:
            return check.moment(field.name, value)
        case FieldType.NUMBER:
            return check.number(field.name, value)
        case FieldType.DEGREES:
            return check.degrees(field.name, value, field.limit)
        case FieldType.ORGANISATION:
            return find_organisation(session, field.name, value)
        case FieldType.AIRPORT:
            return find_airport(session, field.name, value)
    raise AssertionError(field.form)


def find_organisation(session: Session, field: str, slug: object) -> Organisation:
    """A current organisation: facts may only cite what editors can still see in the list."""
    org = session.scalars(select(Organisation).where(Organisation.slug == slug)).first()
    if org is None:
        raise check.ContentError(
            field, f"refers to unknown organisation {slug!r}; see `list organisation`"
        )
    if org.withdrawn_at is not None:
        raise check.ContentError(
            field, f"refers to withdrawn organisation {slug!r}; publish it again first"
        )
    return org


def find_airport(session: Session, field: str, iata: object) -> Airport:
    code = iata.strip().upper() if isinstance(iata, str) else iata
    airport = session.scalars(select(Airport).where(Airport.iata == code)).first()
    if airport is None:
        raise check.ContentError(
            field, f"refers to unknown airport {iata!r}; see `list airport-name`"
        )
    if airport.withdrawn_at is not None:
        raise check.ContentError(
            field, f"refers to withdrawn airport {code}; publish airport-name {code} first"
        )
    return airport
