"""What editors look over: the records of a kind, and texts still waiting for a translation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import or_
from sqlalchemy.orm import Session

from actions.content.fields import FieldType, read
from actions.content.models import RecordKind
from actions.content.records import SPECS, spec_for
from bot.lang.codes import LANGUAGES


@dataclass(frozen=True)
class MissingText:
    """A current record's text that lacks some languages (readers get another language)."""

    kind: RecordKind
    key: str
    field: str
    languages: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind.value} {self.key}: {self.field} in {', '.join(self.languages)}"


def records(
    session: Session, kind: RecordKind | str, include_withdrawn: bool = False
) -> list[tuple[str, Any]]:
    """``(key, row)`` for each record of a kind, in the order answers show them."""
    spec = spec_for(kind)
    statement = spec.ordered()
    if not include_withdrawn:
        statement = statement.where(spec.model.withdrawn_at.is_(None))
    return [(spec.key_of(row), row) for row in session.scalars(statement)]


def missing_translations(session: Session) -> list[MissingText]:
    """Every current user-facing text without all of en, prs and ps, kind by kind.

    The database picks the candidates (a language column empty or NULL), so 10 000 complete
    flights are not read to find none; the rows found are then checked field by field.
    """
    missing: list[MissingText] = []
    for kind, spec in SPECS.items():
        texts = [field for field in spec.fields if field.form is FieldType.TEXT]
        if not texts:
            continue
        columns = [getattr(spec.model, f"{f.name}_{lang}") for f in texts for lang in LANGUAGES]
        statement = spec.ordered().where(
            spec.model.withdrawn_at.is_(None),
            or_(*(column.is_(None) for column in columns), *(column == "" for column in columns)),
        )
        for row in session.scalars(statement):
            key = spec.key_of(row)
            for field in texts:
                value = read(field, row)
                lacking = tuple(lang for lang in LANGUAGES if value is not None and not value[lang])
                if lacking:
                    missing.append(MissingText(kind, key, field.name, lacking))
    return missing
