"""Loads a content file (format documented at the top of ``demo.yml``) into the database.

Every record of the file goes through the editing service, so a load is a set of revisions
(by editor "seed" for the demo, by the importing editor otherwise) and obeys the same rules as
a change made by hand. Records already there are updated only where they differ. The caller's
transaction makes it all or nothing: a bad file raises :class:`SeedError` naming the line and
the field, and nothing is written. Relative times (``departs_in: 2h``) are resolved against one
``now``, so that the demo is current whenever it is seeded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import Table, delete, exists, select
from sqlalchemy.orm import Session

from actions.content import editing
from actions.content.models import (
    Airport,
    AirportStatus,
    Announcement,
    Answer,
    Base,
    Claim,
    Flight,
    Gate,
    GuidanceTopic,
    Organisation,
    RecordKind,
    Revision,
    RevisionAction,
)
from actions.content.records import SPECS
from actions.content.seed import entries as reading
from actions.content.seed.content_file import _Mapping
from actions.content.seed.entries import SeedError
from actions.content.seed.records import Record, parse
from actions.content.validation import ContentError
from kernel.contentdb import tables

__all__ = ["DEMO_FILE", "SeedError", "_Mapping", "clear", "load", "read_demo", "read_file"]

DEMO_FILE = Path(__file__).resolve().with_name("demo.yml")
#: The demo's rumours and editors' answers, each in a file of their own beside the demo (its
#: ``claims:`` and ``answers:`` sections): they change by the day while the rest stays put.
SIDE_FILES = {"claims": "claims.yml", "answers": "answers.yml"}
SEED_EDITOR = "seed"
#: Deleted child tables first, so foreign keys hold at every step.
CONTENT_MODELS: tuple[type[Base] | Table, ...] = (
    tables.case_messages,  # cases name the organisation that answers them
    tables.cases,
    Revision,
    Claim,  # claims name the record they are about by key, not by foreign key
    Answer,
    GuidanceTopic,
    Announcement,
    Flight,
    Gate,
    AirportStatus,
    Airport,
    Organisation,
)
#: What ``replace`` withdraws when a file leaves it out: facts before what facts cite.
WITHDRAW_ORDER = (
    RecordKind.ANSWER,
    RecordKind.CLAIM,
    RecordKind.GUIDANCE,
    RecordKind.ANNOUNCEMENT,
    RecordKind.FLIGHT,
    RecordKind.GATE,
    RecordKind.AIRPORT,
    RecordKind.AIRPORT_NAME,
    RecordKind.ORGANISATION,
)
_NAMES = {
    RecordKind.ORGANISATION: "organisations",
    RecordKind.AIRPORT_NAME: "airports",
    RecordKind.GATE: "gates",
    RecordKind.FLIGHT: "flights",
    RecordKind.ANNOUNCEMENT: "announcements",
    RecordKind.GUIDANCE: "guidance topics",
    RecordKind.CLAIM: "claims",
    RecordKind.ANSWER: "answers",
}


@dataclass
class LoadSummary:
    """What a load found in the file and what it changed."""

    records: Counter[RecordKind] = field(default_factory=Counter)
    created: int = 0
    changed: int = 0
    unchanged: int = 0
    withdrawn: int = 0
    revisions: list[int] = field(default_factory=list)

    def __str__(self) -> str:
        return ", ".join(f"{self.records[kind]} {name}" for kind, name in _NAMES.items())

    def changes(self) -> str:
        span = f" (revisions {self.revisions[0]}–{self.revisions[-1]})" if self.revisions else ""
        return (
            f"{self.created} created, {self.changed} changed, {self.unchanged} unchanged, "
            f"{self.withdrawn} withdrawn{span}"
        )


def read_file(path: Path | None = None) -> _Mapping:
    """Parse a content file (none: the demo, :func:`read_demo`); YAML syntax errors become
    SeedErrors with the line."""
    return read_demo() if path is None else reading.read_file(path)


def read_demo(path: Path = DEMO_FILE) -> _Mapping:
    """The demo: ``path`` with the ``claims:`` and ``answers:`` of the files beside it, if
    there are any (``SIDE_FILES``); each holds its one section, and the demo file must not
    have that section too."""
    document = reading.read_file(path)
    for section, name in SIDE_FILES.items():
        side_file = path.with_name(name)
        if not side_file.exists():
            continue
        side = reading.read_file(side_file)
        extra = sorted(set(side) - {section})
        if extra:
            raise SeedError(f"{name}: only '{section}' belongs here, not {', '.join(extra)}")
        if section in document:
            raise SeedError(f"{path.name}: its {section} belong in {name}")
        document[section] = side.get(section)
    return document


def load(
    session: Session,
    document: _Mapping,
    now: datetime,
    *,
    announce: editing.Announce,
    editor: str = SEED_EDITOR,
    note: str = "",
    allow_missing_translation: bool = False,
    replace: bool = False,
) -> LoadSummary:
    """Publish every record the document describes (the caller commits); ``announce`` follows
    each revision (``actions.publishing.load`` passes the alerts).

    With ``replace`` the file is the whole data set: it must name every organisation and
    airport it cites, and current records it leaves out are withdrawn.
    """
    orgs, airports = (set(), set()) if replace else _current_keys(session)
    records = parse(document, now, orgs, airports, allow_missing_translation)
    summary = LoadSummary()
    note = note or "loaded from a content file"
    for record in records:
        summary.records[record.kind] += 1
        try:
            revision = editing.publish(
                session,
                editor,
                record.kind,
                record.key,
                record.values,
                note,
                now=now,
                allow_missing_translation=allow_missing_translation,
            )
        except ContentError as error:
            raise SeedError(f"{record.where}: {error}") from error
        if revision is not None:
            announce(session, revision)
        _count(summary, revision)
    if replace:
        _withdraw_the_rest(session, records, editor, note, now, summary, announce)
    return summary


def _count(summary: LoadSummary, revision: Revision | None) -> None:
    if revision is None:
        summary.unchanged += 1
        return
    summary.revisions.append(revision.id)
    if revision.action is RevisionAction.CREATE:
        summary.created += 1
    else:
        summary.changed += 1


def _current_keys(session: Session) -> tuple[set[str], set[str]]:
    """Organisations and airports a file may cite without listing them."""
    orgs = session.scalars(select(Organisation.slug).where(Organisation.withdrawn_at.is_(None)))
    airports = session.scalars(select(Airport.iata).where(Airport.withdrawn_at.is_(None)))
    return set(orgs), set(airports)


def _withdraw_the_rest(
    session: Session,
    records: Collection[Record],
    editor: str,
    note: str,
    now: datetime,
    summary: LoadSummary,
    announce: editing.Announce,
) -> None:
    in_file = {(record.kind, record.key) for record in records}
    for kind in WITHDRAW_ORDER:
        spec = SPECS[kind]
        current = session.scalars(spec.ordered().where(spec.model.withdrawn_at.is_(None))).all()
        for row in current:
            key = spec.key_of(row)
            if (kind, key) in in_file:
                continue
            try:
                revision = editing.withdraw(
                    session, editor, kind, key, f"not in the file: {note}", now=now
                )
            except ContentError as error:
                raise SeedError(f"{kind.value} {key}: {error}") from error
            announce(session, revision)
            summary.withdrawn += 1
            summary.revisions.append(revision.id)


def has_content(session: Session) -> bool:
    """True if any content table has a row: seeding then must not mix demo and real content."""
    return any(session.scalar(select(exists().select_from(model))) for model in CONTENT_MODELS)


def clear(session: Session) -> None:
    """Delete all content and its history (``seed --reset``: for demos, not for real data).
    Alerts about it must go first: ``actions.publishing.clear`` does both."""
    for model in CONTENT_MODELS:
        session.execute(delete(model))
