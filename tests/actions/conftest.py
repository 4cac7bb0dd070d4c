"""Fixtures for the content runtime: databases (SQLite and PostgreSQL) and the demo content.

The demo content is seeded relative to ``NOW`` (Tuesday 24 August 2021, 09:00 in Kabul), and
the actions run with the same clock, so every answer is exactly predictable. Migrating once per
session and copying (SQLite) or re-seeding (PostgreSQL) per test keeps the suite fast.
"""

from __future__ import annotations

from tests.runtimes import require_runtime

require_runtime(__file__)  # before the imports below fail in the other runtime's venv

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from actions.content import db
from actions.content.migrate import upgrade_to_head
from actions.content.seed.loader import read_file
from actions.publishing import clear, load
from tests.actions.content_support import NOW

PG_URL = os.environ.get("CONTENT_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PG_DSN = PG_URL.replace("+psycopg", "")


def _postgres_unreachable_reason() -> str | None:
    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return None
    except psycopg.Error as error:
        return str(error).splitlines()[0]


@pytest.fixture(scope="session")
def postgres_available() -> None:
    """Skip (visibly) without PostgreSQL; in CI (CI=true) its absence is a failure."""
    reason = _postgres_unreachable_reason()
    if reason is None:
        return
    message = f"PostgreSQL unreachable at {PG_URL}: {reason}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: PostgreSQL tests are mandatory)")
    pytest.skip(message)


@contextmanager
def _fresh_schema() -> Iterator[str]:
    """A URL whose connections live in a new schema, dropped with everything in it afterwards."""
    schema = f"test_content_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        db.dispose_engine()
        with psycopg.connect(PG_DSN, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def postgres_url(postgres_available: None) -> Iterator[str]:
    with _fresh_schema() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite:///{tmp_path / 'content.db'}"
    db.dispose_engine()


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest) -> str:
    """An empty database; each test using it runs on SQLite and on PostgreSQL."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


@pytest.fixture(scope="session")
def demo_document() -> Any:
    return read_file()


@pytest.fixture
def migrated(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """A fresh, migrated, empty content database that CONTENT_DB_URL points at."""
    monkeypatch.setenv(db.URL_ENV, database_url)
    engine = db.get_engine()
    upgrade_to_head(engine)
    return engine


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory, demo_document: Any) -> Path:
    """A migrated SQLite file with the demo seeded at NOW, copied for each test."""
    path = tmp_path_factory.mktemp("template") / "content.db"
    engine = db.create_content_engine(f"sqlite:///{path}")
    upgrade_to_head(engine)
    with Session(engine) as session, session.begin():
        load(session, demo_document, NOW)
    engine.dispose()
    return path


@pytest.fixture(scope="session")
def postgres_schema(postgres_available: None) -> Iterator[str]:
    """One migrated PostgreSQL schema for the session; tests re-seed it."""
    with _fresh_schema() as url:
        engine = db.create_content_engine(url)
        upgrade_to_head(engine)
        engine.dispose()
        yield url


@pytest.fixture(params=BACKENDS)
def content_db(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    demo_document: Any,
) -> Iterator[Engine]:
    """The demo content, seeded at NOW, that CONTENT_DB_URL points at (SQLite and PostgreSQL)."""
    if request.param == "sqlite":
        path = tmp_path / "content.db"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        monkeypatch.setenv(db.URL_ENV, f"sqlite:///{path}")
    else:
        monkeypatch.setenv(db.URL_ENV, request.getfixturevalue("postgres_schema"))
        with db.session_scope() as session:
            clear(session)
            load(session, demo_document, NOW)
    yield db.get_engine()
    db.dispose_engine()


@pytest.fixture
def no_alert_subscribers(content_db: Engine) -> Iterator[None]:
    """No subscriptions or alerts before the test, and none left after it: the PostgreSQL
    schema is shared by the session, and subscribers left behind would be alerted by every
    later test's seeding (10 000 of them made each re-seed take 3 s)."""
    from tests.actions.alerts_support import clear_alerts

    clear_alerts()
    yield
    clear_alerts()
