"""One schema: the migrations' head is the models' metadata, and the tables the bot runtime
writes are the very tables the content runtime's models are mapped onto.

``kernel/contentdb/tables.py`` defines the tables both runtimes use; if a model and that
definition, or the metadata and the migrations, drifted apart, the bot would write columns the
database lacks, or the console would read ones the bot never fills.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Engine, MetaData, String, inspect
from sqlalchemy.orm import Mapper

from actions import schema
from actions.alerts.models import Delivery
from actions.cases.models import Case, CaseEvent, CaseMessage, CaseReply
from actions.content.columns import Base
from kernel.contentdb import statuses, tables

ROOT = Path(__file__).resolve().parents[2]
#: Every model mapped onto a table both runtimes use, by the table's name.
SHARED_NAMES = {table.name for table in tables.SHARED}


def differences(engine: Engine, metadata: MetaData) -> list[Any]:
    """What Alembic's autogenerate would change to make the database match ``metadata``:
    tables, columns, their types and nullability, indexes, unique and foreign keys, and the
    server defaults. Nothing is filtered out."""
    with engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        found: list[Any] = compare_metadata(context, metadata)
        return found


def copy_of(metadata: MetaData) -> MetaData:
    """A separate copy of the schema, to change without touching the real one."""
    copy = MetaData(naming_convention=metadata.naming_convention)
    for table in metadata.sorted_tables:
        table.to_metadata(copy)
    return copy


def test_the_migrations_head_is_the_whole_metadata(migrated: Engine) -> None:
    assert set(schema.metadata.tables) <= set(inspect(migrated).get_table_names())
    assert differences(migrated, schema.metadata) == []


def test_a_column_the_migrations_lack_is_a_difference(migrated: Engine) -> None:
    changed = copy_of(schema.metadata)
    changed.tables["case_messages"].append_column(Column("seen_by", String(64)))
    found = differences(migrated, changed)
    assert [(d[0], d[2], d[3].name) for d in found] == [("add_column", "case_messages", "seen_by")]


def test_a_column_of_another_type_or_nullability_is_a_difference(migrated: Engine) -> None:
    changed = copy_of(schema.metadata)
    cases = changed.tables["cases"]
    cases.c.language.type = String(3)
    cases.c.priority.nullable = True
    found = differences(migrated, changed)
    # Column changes come grouped per table, as lists of tuples.
    flat = [change for entry in found for change in (entry if isinstance(entry, list) else [entry])]
    assert {(c[0], c[2], c[3]) for c in flat} == {
        ("modify_type", "cases", "language"),
        ("modify_nullable", "cases", "priority"),
    }


def test_a_table_the_metadata_lacks_is_a_difference(migrated: Engine) -> None:
    changed = copy_of(schema.metadata)
    changed.remove(changed.tables["question_counts"])
    found = differences(migrated, changed)
    assert [(d[0], d[1].name) for d in found] == [("remove_table", "question_counts")]


def _mapper_of(table_name: str) -> Mapper[Any]:
    mappers = [m for m in Base.registry.mappers if m.local_table.name == table_name]
    assert len(mappers) == 1, f"one model for {table_name}, found {len(mappers)}"
    return mappers[0]


@pytest.mark.parametrize("table", tables.SHARED, ids=lambda table: table.name)
def test_each_shared_table_is_its_models_table(table: Any) -> None:
    mapper = _mapper_of(table.name)
    assert mapper.local_table is table
    assert schema.metadata.tables[table.name] is table
    # Every column is mapped, under its own name, and the model names no column the table
    # lacks (a typed attribute without a column would read as None forever).
    assert {column.key for column in mapper.columns} == set(table.c.keys())
    annotated = {
        name
        for cls in mapper.class_.__mro__
        if cls not in (object, Base)
        for name in getattr(cls, "__annotations__", {})
        if not name.startswith("_")
    }
    assert annotated - set(mapper.relationships.keys()) <= set(table.c.keys())


def test_every_table_the_bot_writes_is_shared_and_every_foreign_key_resolves() -> None:
    assert {
        "organisations",
        "alert_addresses",
        "alert_deliveries",
        "case_replies",
        "provider_messages",
        "case_messages",
        "cases",
        "case_events",
        "question_counts",
        "unanswered_questions",
    } == SHARED_NAMES
    for table in schema.metadata.tables.values():
        for foreign_key in table.foreign_keys:
            assert foreign_key.column.table.name in schema.metadata.tables


def test_the_models_statuses_are_the_shared_ones() -> None:
    for column, vocabulary in (
        (Delivery.__table__.c.status, statuses.DeliveryStatus),
        (CaseReply.__table__.c.status, statuses.DeliveryStatus),
        (Case.__table__.c.status, statuses.CaseStatus),
        (CaseMessage.__table__.c.author, statuses.Author),
        (CaseEvent.__table__.c.status, statuses.EventStatus),
    ):
        assert column.type.enum_class is vocabulary
        assert column.type.enums == [member.value for member in vocabulary]


def test_the_content_models_need_no_other_package() -> None:
    """Content sits below cases, questions and alerts: its models import none of them."""
    probe = (
        "import sys, actions.content.models; "
        "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
        "(['actions', 'cases'], ['actions', 'questions'], ['actions', 'alerts'])))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.stdout.strip() == "[]"
