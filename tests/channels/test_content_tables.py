"""The bot runtime's view of the content database (``kernel/contentdb``) under its own
SQLAlchemy 1.4: the same tables, as the content runtime's migrations create them.

The content runtime checks its side under SQLAlchemy 2.0
(``tests/actions/test_schema_matches_migrations.py``); this checks that the one definition
also loads, compiles and matches a migrated database here, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
import sqlalchemy
from sqlalchemy import inspect, select

from kernel.contentdb import statuses, tables
from kernel.contentdb.engines import database_url, engine_for

NOW = datetime(2021, 8, 24, 9, 0, tzinfo=timezone.utc)


def test_the_runtime_is_sqlalchemy_1_4() -> None:
    # What makes this file worth running: the content runtime has 2.0.
    assert sqlalchemy.__version__.startswith("1.4.")


@pytest.mark.parametrize("table", tables.SHARED, ids=lambda table: table.name)
def test_each_table_is_the_migrated_one(table: Any, content_db_url: str) -> None:
    engine = engine_for(database_url(content_db_url))
    reflected = {column["name"]: column for column in inspect(engine).get_columns(table.name)}
    assert set(reflected) == set(table.c.keys())
    for column in table.c:
        assert reflected[column.name]["nullable"] == column.nullable, column.name
    primary_key = inspect(engine).get_pk_constraint(table.name)["constrained_columns"]
    assert set(primary_key) == {column.name for column in table.primary_key}
    with (
        engine.connect() as connection
    ):  # every column selects (rows other tests left may be there)
        assert len(connection.execute(select(table).limit(1)).all()) <= 1


def test_only_content_only_tables_are_left_to_the_content_runtime() -> None:
    """Foreign keys to tables this side never touches stay unresolved here (the content
    runtime's models define them); every other one points at a table of this module."""
    outside = set()
    for table in tables.SHARED:
        for foreign_key in table.foreign_keys:
            target = foreign_key.target_fullname.split(".")[0]
            if target not in tables.metadata.tables:
                outside.add(target)
    assert outside == {"alert_broadcasts"}


def test_status_columns_take_the_shared_values(sqlite_db_url: str) -> None:
    engine = engine_for(database_url(sqlite_db_url))
    with engine.begin() as connection:
        connection.execute(
            tables.organisations.insert().values(
                slug="unhcr", name_en="UNHCR", name_prs="یو ان اچ سی آر", name_ps="یو ان اچ سی آر"
            )
        )
        connection.execute(
            tables.cases.insert().values(
                conversation_id="telegram-" + "a" * 40,
                channel="telegram",
                language="prs",
                status=statuses.CaseStatus.WAITING,
                priority=int(statuses.Priority.NORMAL),
                opened_at=NOW,
                active_at=NOW,
            )
        )
        stored = connection.execute(select(tables.cases.c.status)).scalar_one()
        raw = connection.exec_driver_sql("SELECT status FROM cases").scalar_one()
    assert stored is statuses.CaseStatus.WAITING
    assert raw == "waiting"
    with pytest.raises(sqlalchemy.exc.StatementError), engine.begin() as connection:
        connection.execute(tables.cases.update().values(status="lost"))
