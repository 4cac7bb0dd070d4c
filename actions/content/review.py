"""What editors look over: the records of a kind, and texts still waiting for a translation."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, literal_column, not_, or_, select
from sqlalchemy.orm import Session

from actions.content.fields import Field, FieldType, read
from actions.content.models import RecordKind
from actions.content.records import SPECS, KindSpec, spec_for
from kernel.lang.codes import LANGUAGES


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


def _texts(spec: KindSpec) -> list[Field]:
    return [field for field in spec.fields if field.form is FieldType.TEXT]


def _empty(spec: KindSpec, field: Field) -> list[Any]:
    """SQL conditions, any of which means the text lacks a language.

    A required text lacks one when its column is empty; an optional one (a contact's hours)
    when some languages are missing but not all.
    """
    columns = [getattr(spec.model, f"{field.name}_{lang}") for lang in LANGUAGES]
    if not any(column.nullable for column in columns):
        return [column == literal_column("''") for column in columns]
    absent = [or_(column.is_(None), column == literal_column("''")) for column in columns]
    return [and_(or_(*absent), not_(and_(*(column.is_(None) for column in columns))))]


def lacking(spec: KindSpec) -> Any | None:
    """SQL for "a current record of this kind has a text without all of en, prs and ps".

    Written with a literal ``''`` and the columns in the fields' order, the condition is the
    one of the partial indexes of migration 0013 (a database uses a partial index only for a
    query whose condition implies the index's), so that 10 000 complete flights cost an index
    lookup that finds nothing. None: the kind has no texts.
    """
    empty = [condition for field in _texts(spec) for condition in _empty(spec, field)]
    return and_(spec.model.withdrawn_at.is_(None), or_(*empty)) if empty else None


def untranslated_count(spec: KindSpec) -> Any | None:
    """SQL counting the kind's texts that lack a language, one per record and field."""
    where = lacking(spec)
    if where is None:
        return None
    per_field = [func.count(case((or_(*_empty(spec, field)), 1))) for field in _texts(spec)]
    return select(sum(per_field[1:], per_field[0])).where(where).scalar_subquery()


def missing_translations(
    session: Session, shown: int | None = None, kinds: Collection[RecordKind] | None = None
) -> list[MissingText]:
    """Every current user-facing text without all of en, prs and ps, kind by kind (the first
    ``shown`` of them, of ``kinds`` only, when given): the database picks the records, then each
    is read field by field."""
    missing: list[MissingText] = []
    for kind, spec in SPECS.items():
        where = lacking(spec) if kinds is None or kind in kinds else None
        if where is None:
            continue
        statement = spec.ordered().where(where)
        if shown is not None:
            if len(missing) >= shown:
                break
            statement = statement.limit(shown - len(missing))
        for row in session.scalars(statement):
            key = spec.key_of(row)
            for field in _texts(spec):
                value = read(field, row)
                lacking_in = tuple(
                    lang for lang in LANGUAGES if value is not None and not value[lang]
                )
                if lacking_in:
                    missing.append(MissingText(kind, key, field.name, lacking_in))
    return missing if shown is None else missing[:shown]
