"""Loads a content file (format documented at the top of ``demo.yml``) into the database.

Validation happens while building rows inside the caller's transaction, so a bad file raises
:class:`SeedError` naming the line and nothing is written. Relative times (``departs_in: 2h``)
are resolved against one ``now`` so that the demo is current whenever it is seeded.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, TypeVar, cast

import yaml
from sqlalchemy import delete, exists, select
from sqlalchemy.orm import Session

from actions.content.models import (
    Airport,
    AirportState,
    AirportStatus,
    Announcement,
    AnnouncementKind,
    Base,
    Flight,
    FlightStatus,
    Gate,
    GateState,
    GuidanceKind,
    GuidanceTopic,
    Organisation,
    Verification,
)
from bot.lang.codes import LANGUAGES

DEMO_FILE = Path(__file__).resolve().with_name("demo.yml")
#: Deleted child tables first, so foreign keys hold at every step.
CONTENT_MODELS: tuple[type[Base], ...] = (
    GuidanceTopic,
    Announcement,
    Flight,
    Gate,
    AirportStatus,
    Airport,
    Organisation,
)
_DURATION = re.compile(r"^(?P<sign>-)?(?:(?P<d>\d+)d)?(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m)?$")
#: International format as people dial it: "+93 700 000 101" (spaces optional).
_PHONE = re.compile(r"\+[1-9]\d{0,3}(?: ?\d){6,14}")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
#: The guidance sections of a content file, in the order they are answered.
GUIDANCE_SECTIONS: tuple[GuidanceKind, ...] = tuple(GuidanceKind)
E = TypeVar("E", bound=enum.Enum)


class SeedError(ValueError):
    """A content file that cannot be loaded; the message says where and what to fix."""


class _Mapping(dict[str, Any]):
    line: int = 0


class _LineLoader(yaml.SafeLoader):
    """Remembers the line of every mapping, for error messages that point into the file."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> _Mapping:
    mapping = _Mapping(cast(dict[str, Any], loader.construct_mapping(node, deep=True)))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


@dataclass(frozen=True)
class SeedSummary:
    organisations: int
    airports: int
    gates: int
    flights: int
    announcements: int
    guidance: int

    def __str__(self) -> str:
        return (
            f"{self.organisations} organisations, {self.airports} airports, {self.gates} gates, "
            f"{self.flights} flights, {self.announcements} announcements, "
            f"{self.guidance} guidance topics"
        )


def read_file(path: Path = DEMO_FILE) -> _Mapping:
    """Parse a content file; YAML syntax errors become SeedErrors with the line."""
    try:
        document = yaml.load(path.read_text(encoding="utf-8"), Loader=_LineLoader)
    except yaml.YAMLError as error:
        raise SeedError(f"{path.name}: not valid YAML: {error}") from error
    if not isinstance(document, _Mapping):
        raise SeedError(f"{path.name}: expected a mapping with organisations, airports, …")
    return document


def parse_duration(text: str) -> timedelta:
    """``45m``, ``3h``, ``1h30m``, ``2d``, ``-1h`` → timedelta."""
    match = _DURATION.match(str(text).strip())
    if match is None or not any(match.group(unit) for unit in "dhm"):
        raise ValueError(f"{text!r} is not a duration like 45m, 3h, 1h30m, 2d or -1h")
    value = timedelta(
        days=int(match["d"] or 0), hours=int(match["h"] or 0), minutes=int(match["m"] or 0)
    )
    return -value if match["sign"] else value


class _Entry:
    """One mapping of the file, read key by key; every problem names the line."""

    def __init__(self, data: object, where: str, now: datetime) -> None:
        if not isinstance(data, _Mapping):
            raise SeedError(f"{where}: expected a mapping, found {data!r}")
        self.data, self.now, self.used = data, now, set[str]()
        self.where = f"line {data.line} ({where})"

    def error(self, key: str, problem: str) -> SeedError:
        return SeedError(f"{self.where}: '{key}' {problem}")

    def raw(self, key: str, required: bool = True) -> Any:
        self.used.add(key)
        if key not in self.data or self.data[key] is None:
            if required:
                raise self.error(key, "is missing")
            return None
        return self.data[key]

    def text(self, key: str) -> str:
        value = self.raw(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, "must be a non-empty text")
        return value.strip()

    def localised(self, key: str, column: str | None = None) -> dict[str, str]:
        """``key: {en, prs, ps}`` → ``{column_en: …, column_prs: …, column_ps: …}``."""
        value = self.raw(key)
        if not isinstance(value, Mapping) or set(value) != set(LANGUAGES):
            raise self.error(key, f"needs exactly the languages {', '.join(LANGUAGES)}")
        for language, text in value.items():
            if not isinstance(text, str) or not text.strip():
                raise self.error(key, f"has an empty '{language}' text")
        column = column or key
        return {f"{column}_{lang}": " ".join(value[lang].split()) for lang in LANGUAGES}

    def choice(self, key: str, choices: type[E]) -> E:
        value = self.text(key)
        try:
            return choices(value)
        except ValueError:
            allowed = " | ".join(member.value for member in choices)
            raise self.error(key, f"is {value!r}; expected one of {allowed}") from None

    def relative(self, key: str, sign: int = 1, required: bool = True) -> datetime | None:
        value = self.raw(key, required)
        if value is None:
            return None
        try:
            return self.now + sign * parse_duration(str(value))
        except ValueError as error:
            raise self.error(key, str(error)) from None

    def moment(self, key: str) -> datetime:
        value = self.raw(key)
        try:
            moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        except ValueError:
            raise self.error(key, f"is {value!r}, not an ISO date-time") from None
        if moment.tzinfo is None:
            raise self.error(key, "needs a UTC offset, e.g. 2021-08-17T17:00:00+04:30")
        return moment.astimezone(timezone.utc)

    def matching(self, key: str, pattern: re.Pattern[str], example: str) -> str | None:
        """An optional text that must have a given form, e.g. a phone number."""
        value = self.raw(key, required=False)
        if value is None:
            return None
        if not isinstance(value, str) or not pattern.fullmatch(value.strip()):
            raise self.error(key, f"is {value!r}; write it like {example}")
        return value.strip()

    def ref(self, key: str, known: Mapping[str, Any]) -> Any:
        value = self.text(key)
        if value not in known:
            raise self.error(key, f"refers to unknown {value!r}")
        return known[value]

    def provenance(self, orgs: Mapping[str, Organisation], volatile: bool) -> dict[str, Any]:
        return {
            "source": self.ref("source", orgs),
            "verified_at": self.relative("verified_ago", sign=-1),
            "valid_until": self.relative("valid_for", required=volatile),
        }

    def done(self) -> None:
        unknown = set(self.data) - self.used
        if unknown:
            raise SeedError(f"{self.where}: unknown keys {', '.join(sorted(unknown))}")


def _entries(document: _Mapping, section: str, now: datetime) -> list[_Entry]:
    items = document.get(section) or []
    if not isinstance(items, list):
        raise SeedError(f"line {document.line}: '{section}' must be a list")
    return [_Entry(item, f"{section}[{index}]", now) for index, item in enumerate(items)]


def load(session: Session, document: _Mapping, now: datetime) -> SeedSummary:
    """Add every row the document describes to ``session`` (the caller commits)."""
    top = _Entry(document, "top level", now)
    sections = ("organisations", "airports", "airport_statuses", "flights", "announcements")
    for section in (*sections, *(kind.value for kind in GUIDANCE_SECTIONS)):
        top.raw(section, required=False)
    top.done()

    orgs_section = document.get("organisations") or _Mapping()
    names = _Entry(orgs_section, "organisations", now)
    orgs = {slug: Organisation(slug=slug, **names.localised(slug, "name")) for slug in orgs_section}
    airports: dict[str, Airport] = {}
    for entry in _entries(document, "airports", now):
        iata = entry.text("iata").upper()
        airports[iata] = Airport(
            iata=iata,
            place=entry.text("place"),
            **entry.localised("name"),
            **entry.localised("city"),
        )
        entry.done()
    session.add_all([*orgs.values(), *airports.values()])

    gates = 0
    for entry in _entries(document, "airport_statuses", now):
        airport = entry.ref("airport", airports)
        airport.status = AirportStatus(
            state=entry.choice("state", AirportState),
            **entry.localised("advice"),
            **entry.provenance(orgs, volatile=True),
        )
        for position, gate in enumerate(_entries(entry.data, "gates", now)):
            airport.gates.append(
                Gate(
                    slug=gate.text("slug"),
                    position=position,
                    state=gate.choice("state", GateState),
                    **gate.localised("name"),
                    **gate.localised("note"),
                    **gate.provenance(orgs, volatile=True),
                )
            )
            gate.done()
            gates += 1
        entry.used.add("gates")
        entry.done()

    flights = []
    for entry in _entries(document, "flights", now):
        number = entry.text("number")
        if not re.fullmatch(r"[A-Z0-9]+", number):
            raise entry.error("number", f"is {number!r}; write it upper case without spaces")
        flights.append(
            Flight(
                flight_number=number,
                operator=entry.ref("operator", orgs),
                origin=entry.ref("from", airports),
                destination=entry.ref("to", airports),
                departs_at=entry.relative("departs_in"),
                status=entry.choice("status", FlightStatus),
                **entry.localised("eligibility"),
                **entry.localised("assembly_point"),
                **entry.provenance(orgs, volatile=True),
            )
        )
        entry.done()
    session.add_all(flights)

    announcements = []
    for entry in _entries(document, "announcements", now):
        announcements.append(
            Announcement(
                slug=entry.text("slug"),
                issuer=entry.ref("issuer", orgs),
                kind=entry.choice("kind", AnnouncementKind),
                published_at=entry.moment("published"),
                verification=entry.choice("verification", Verification),
                **entry.localised("title"),
                **entry.localised("text"),
                **entry.provenance(orgs, volatile=False),
            )
        )
        entry.done()
    session.add_all(announcements)

    guidance = _guidance(document, now, orgs)
    session.add_all(guidance)
    session.flush()
    return SeedSummary(
        len(orgs), len(airports), gates, len(flights), len(announcements), len(guidance)
    )


def _guidance(
    document: _Mapping, now: datetime, orgs: Mapping[str, Organisation]
) -> list[GuidanceTopic]:
    """The ``documents``, ``eligibility`` and ``contacts`` lists; position = order in its list."""
    topics: list[GuidanceTopic] = []
    slugs: dict[str, str] = {}
    for kind in GUIDANCE_SECTIONS:
        for position, entry in enumerate(_entries(document, kind.value, now)):
            slug = entry.text("slug")
            if slug in slugs:
                raise entry.error("slug", f"{slug!r} is already used at {slugs[slug]}")
            slugs[slug] = entry.where
            contact = _contact_details(entry, orgs) if kind is GuidanceKind.CONTACTS else {}
            topics.append(
                GuidanceTopic(
                    kind=kind,
                    slug=slug,
                    position=position,
                    **entry.localised("title"),
                    **entry.localised("body"),
                    **contact,
                    **entry.provenance(orgs, volatile=False),
                )
            )
            entry.done()
    return topics


def _contact_details(entry: _Entry, orgs: Mapping[str, Organisation]) -> dict[str, Any]:
    """Who answers, how to reach them (at least one way) and when."""
    reach = {
        "phone": entry.matching("phone", _PHONE, "+93 700 000 101"),
        "whatsapp": entry.matching("whatsapp", _PHONE, "+93 700 000 101"),
        "email": entry.matching("email", _EMAIL, "help@example.org"),
    }
    if not any(reach.values()):
        raise SeedError(f"{entry.where}: a contact needs at least one of {', '.join(reach)}")
    return {
        "organisation": entry.ref("organisation", orgs),
        **reach,
        **entry.localised("hours"),
    }


def has_content(session: Session) -> bool:
    """True if any content table has a row: seeding then must not mix demo and real content."""
    return any(session.scalar(select(exists().select_from(model))) for model in CONTENT_MODELS)


def clear(session: Session) -> None:
    """Delete all content (``seed --reset``), children before parents."""
    for model in CONTENT_MODELS:
        session.execute(delete(model))
